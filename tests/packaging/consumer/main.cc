// Copyright 2026 The bloomgate Authors.
//
// What a service does with the installed package: the README's RocksDB
// set-up, plus the filter core on its own. Usage: bloomgate_consumer DB_DIR

#include <cstdio>
#include <memory>
#include <string>

#include "bloomgate/bloomgate.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "rocksdb/version.h"

namespace {

int Fail(const std::string& what) {
  std::fprintf(stderr, "bloomgate consumer: FAILED: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return Fail("usage: bloomgate_consumer DB_DIR");

  // The filter core.
  absl::StatusOr<bloomgate::FilterBuilder> builder =
      bloomgate::FilterBuilder::Create({.bits_per_key = 10});
  if (!builder.ok()) return Fail(builder.status().ToString());
  builder->AddKey("hello");
  const std::string block = builder->Finish();
  const bloomgate::FilterReader reader(block);
  if (reader.degraded() || !reader.MayMatch("hello")) return Fail("core");

  // The RocksDB plug-in.
  bloomgate::RegisterRocksDBPlugin();
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy =
      bloomgate::NewRocksDBFilterPolicy({.bits_per_key = 10});
  rocksdb::Options options;
  options.create_if_missing = true;
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  std::unique_ptr<rocksdb::DB> db;
#if ROCKSDB_MAJOR > 9 || (ROCKSDB_MAJOR == 9 && ROCKSDB_MINOR >= 7)
  rocksdb::Status s = rocksdb::DB::Open(options, argv[1], &db);
#else  // DB::Open takes a raw pointer before RocksDB 9.7
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, argv[1], &raw);
  db.reset(raw);
#endif
  if (!s.ok()) return Fail(s.ToString());
  s = db->Put(rocksdb::WriteOptions(), "key", "value");
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
  std::string value;
  if (s.ok()) s = db->Get(rocksdb::ReadOptions(), "key", &value);
  if (!s.ok() || value != "value") return Fail("get: " + s.ToString());
  if (!db->Get(rocksdb::ReadOptions(), "absent", &value).IsNotFound()) {
    return Fail("absent key found");
  }
  rocksdb::TablePropertiesCollection props;
  s = db->GetPropertiesOfAllTables(&props);
  if (!s.ok() || props.empty() ||
      props.begin()->second->filter_policy_name != "bloomgate") {
    return Fail("the SST file's filter policy is not bloomgate");
  }
  std::printf("bloomgate consumer: OK\n");
  return 0;
}
