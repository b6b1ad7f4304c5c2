// Copyright 2026 The bloomgate Authors.
//
// bloomgate_sst_dump: RocksDB's sst_dump with the bloomgate filter policy
// registered and configured, so that commands that read keys (check, scan,
// verify) consult bloomgate filter blocks as a DB would, and
// --show_properties reports "filter policy name: bloomgate". All of
// sst_dump's commands and flags work as documented by RocksDB
// (bloomgate_sst_dump --help).

#include "rocksdb/sst_dump_tool.h"
#include "tools/rocksdb/bloomgate_options.h"

int main(int argc, char** argv) {
  const rocksdb::Options options = bloomgate::tools::OptionsWithBloomgate();

  rocksdb::SSTDumpTool tool;
  return tool.Run(argc, argv, options);
}
