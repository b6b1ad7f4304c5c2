// Copyright 2026 The bloomgate Authors.
//
// bloomgate_sst_dump: RocksDB's sst_dump with the bloomgate filter policy
// registered and configured, so that commands that read keys (check, scan,
// verify) consult bloomgate filter blocks as a DB would, and
// --show_properties reports "filter policy name: bloomgate". All of
// sst_dump's commands and flags work as documented by RocksDB
// (bloomgate_sst_dump --help).

#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_dump_tool.h"
#include "rocksdb/table.h"

int main(int argc, char** argv) {
  bloomgate::RegisterRocksDBPlugin();

  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = bloomgate::NewRocksDBFilterPolicy();
  rocksdb::Options options;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));

  rocksdb::SSTDumpTool tool;
  return tool.Run(argc, argv, options);
}
