// Copyright 2026 The bloomgate Authors.
//
// bloomgate_ldb: RocksDB's ldb with the bloomgate filter policy registered, so
// that a DB whose OPTIONS file names "bloomgate:..." opens with its filter
// policy restored. All of ldb's commands and flags work as documented by
// RocksDB (bloomgate_ldb --help).
//
// A DB that ldb creates (--create_if_missing, no OPTIONS file yet) gets
// bloomgate's default policy, "bloomgate:10:blocked".

#include "rocksdb/ldb_tool.h"
#include "tools/rocksdb/bloomgate_options.h"

int main(int argc, char** argv) {
  const rocksdb::Options options = bloomgate::tools::OptionsWithBloomgate();

  rocksdb::LDBOptions ldb_options;
  ldb_options.print_help_header =
      "bloomgate_ldb - RocksDB's ldb with the bloomgate filter policy";
  rocksdb::LDBTool tool;
  tool.Run(argc, argv, options, ldb_options);  // exits
  return 0;
}
