// Copyright 2026 The bloomgate Authors.
//
// The options both operator tools start from: bloomgate registered (so that
// an OPTIONS file naming "bloomgate:..." restores its policy) and the default
// bloomgate policy, "bloomgate:10:blocked", for a DB or file that names none.

#ifndef BLOOMGATE_TOOLS_ROCKSDB_BLOOMGATE_OPTIONS_H_
#define BLOOMGATE_TOOLS_ROCKSDB_BLOOMGATE_OPTIONS_H_

#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"

namespace bloomgate::tools {

inline rocksdb::Options OptionsWithBloomgate() {
  RegisterRocksDBPlugin();
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = NewRocksDBFilterPolicy();
  rocksdb::Options options;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  return options;
}

}  // namespace bloomgate::tools

#endif  // BLOOMGATE_TOOLS_ROCKSDB_BLOOMGATE_OPTIONS_H_
