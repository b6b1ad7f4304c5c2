// Copyright 2026 The bloomgate Authors.

#include "src/rocksdb/plugin.h"

#include "bloomgate/rocksdb_filter_policy.h"

extern "C" int bloomgate_RegisterRocksDBPlugin(
    ROCKSDB_NAMESPACE::ObjectLibrary& library, const std::string& arg) {
  return bloomgate::RegisterRocksDBFactories(library, arg);
}
