// Copyright 2026 The bloomgate Authors.
//
// The entry point of bloomgate built into RocksDB as a plugin
// (ROCKSDB_PLUGINS=bloomgate; bloomgate.mk, cmake/RocksDBPlugin.cmake).
// RocksDB's build declares it itself, with C linkage at global scope, and
// calls it for every ObjectRegistry it creates, so every RocksDB program
// reads "filter_policy=bloomgate:10" without a line of code.
//
// Not a public header: applications that link bloomgate call
// bloomgate::RegisterRocksDBPlugin() instead.

#ifndef BLOOMGATE_SRC_ROCKSDB_PLUGIN_H_
#define BLOOMGATE_SRC_ROCKSDB_PLUGIN_H_

#include <string>

#include "rocksdb/utilities/object_registry.h"

// bloomgate::RegisterRocksDBFactories under the name bloomgate.mk gives
// RocksDB (bloomgate_FUNC).
extern "C" int bloomgate_RegisterRocksDBPlugin(
    ROCKSDB_NAMESPACE::ObjectLibrary& library, const std::string& arg);

#endif  // BLOOMGATE_SRC_ROCKSDB_PLUGIN_H_
