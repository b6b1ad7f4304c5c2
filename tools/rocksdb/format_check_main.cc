// Copyright 2026 The bloomgate Authors.
//
// bloomgate_format_check: whether bloomgate's filters written by one RocksDB
// release are read, and used, by another. Build it against each release
// (tools/test-rocksdb does), then
//
//   bloomgate_format_check write DIR    # with release A
//   bloomgate_format_check verify DIR   # with release B
//
// `write` creates two DBs under DIR, one with full and one with partitioned
// bloomgate filters (plus a prefix extractor, so newer releases add whole
// keys and prefixes), each in several SST files. `verify` opens them with
// bloomgate's policy and checks every present key's value, that no absent
// key is found, that the files' filters are bloomgate's, and that they
// filtered: most absent-key lookups were answered by a filter. Exit status 0
// when all holds, 1 otherwise, 2 for usage errors.
//
// The tables are written with format_version 5, the newest that RocksDB 7.x
// reads, and without compression, which a RocksDB built from source lacks
// unless asked: the table format is RocksDB's, and newer releases default to
// newer versions that older ones reject; the filter block inside is
// bloomgate's and the same whatever the release.

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/version.h"
#include "src/rocksdb/rocksdb_compat.h"

namespace bloomgate {
namespace {

constexpr int kFiles = 4;
constexpr uint64_t kKeys = 20000;
constexpr char kWriterKey[] = "~written-by";

std::string Key(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "k%03u-%08llu", static_cast<unsigned>(i % 97),
                static_cast<unsigned long long>(i));
  return buf;
}
std::string AbsentKey(uint64_t i) { return Key(i) + "-absent"; }
std::string Value(uint64_t i) { return "value-" + std::to_string(i * 7919); }

std::string ThisRelease() {
  return "RocksDB " + std::to_string(ROCKSDB_MAJOR) + "." +
         std::to_string(ROCKSDB_MINOR) + "." + std::to_string(ROCKSDB_PATCH);
}

rocksdb::Options MakeOptions(bool partitioned) {
  RegisterRocksDBPlugin();
  rocksdb::BlockBasedTableOptions table;
  table.format_version = 5;
  table.filter_policy = NewRocksDBFilterPolicy({.bits_per_key = 10});
  if (partitioned) {
    table.partition_filters = true;
    table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table.metadata_block_size = 1024;
  }
  table.whole_key_filtering = true;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  // RocksDB built from source has no compression libraries unless asked.
  options.compression = rocksdb::kNoCompression;
  options.statistics = rocksdb::CreateDBStatistics();
  // Keys "kNNN-...": a four-byte prefix, so the filters hold prefixes too.
  options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(4));
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

bool Fail(const std::string& db, const std::string& what) {
  std::fprintf(stderr, "bloomgate_format_check: %s: %s\n", db.c_str(),
               what.c_str());
  return false;
}

bool Write(const std::string& path, bool partitioned) {
  rocksdb::Options options = MakeOptions(partitioned);
  options.error_if_exists = true;  // the file count is part of the check
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = rocksdb_compat::OpenDB(options, path, &db);
  if (!s.ok()) return Fail(path, "open: " + s.ToString());
  for (int f = 0; f < kFiles; ++f) {
    for (uint64_t i = f; i < kKeys && s.ok(); i += kFiles) {
      s = db->Put(rocksdb::WriteOptions(), Key(i), Value(i));
    }
    if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
    if (!s.ok()) return Fail(path, "write: " + s.ToString());
  }
  s = db->Put(rocksdb::WriteOptions(), kWriterKey, ThisRelease());
  if (s.ok()) s = db->Flush(rocksdb::FlushOptions());
  if (!s.ok()) return Fail(path, "write: " + s.ToString());
  std::printf("%s: %llu keys in %d SST files with %s filters, by %s\n",
              path.c_str(), static_cast<unsigned long long>(kKeys), kFiles + 1,
              partitioned ? "partitioned" : "full", ThisRelease().c_str());
  return true;
}

// Whether every SST file of `db` names bloomgate's policy, kFiles + 1 of
// them (the kFiles written with keys and the writer's record).
bool CheckFilesNameBloomgate(rocksdb::DB& db, const std::string& path) {
  rocksdb::TablePropertiesCollection props;
  rocksdb::Status s = db.GetPropertiesOfAllTables(&props);
  if (!s.ok() || props.size() != kFiles + 1) {
    return Fail(path, "expected " + std::to_string(kFiles + 1) +
                          " SST files: " + s.ToString());
  }
  for (const auto& [file, p] : props) {
    if (p->filter_policy_name != kRocksDBPolicyName) {
      return Fail(path, file + " has filter policy \"" + p->filter_policy_name +
                            "\", not bloomgate");
    }
  }
  return true;
}

// Whether every key Write wrote reads back with its value.
bool CheckEveryKey(rocksdb::DB& db, const std::string& path) {
  std::string value;
  for (uint64_t i = 0; i < kKeys; ++i) {
    rocksdb::Status s = db.Get(rocksdb::ReadOptions(), Key(i), &value);
    if (!s.ok() || value != Value(i)) {
      return Fail(path,
                  "key " + Key(i) + ": " + s.ToString() + " \"" + value + "\"");
    }
  }
  return true;
}

bool Verify(const std::string& path, bool partitioned) {
  rocksdb::Options options = MakeOptions(partitioned);
  options.create_if_missing = false;
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = rocksdb_compat::OpenDB(options, path, &db);
  if (!s.ok()) return Fail(path, "open: " + s.ToString());

  std::string writer;
  s = db->Get(rocksdb::ReadOptions(), kWriterKey, &writer);
  if (!s.ok()) return Fail(path, "no writer record: " + s.ToString());
  if (!CheckFilesNameBloomgate(*db, path) || !CheckEveryKey(*db, path)) {
    return false;
  }

  std::string value;
  const uint64_t useful_before =
      options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
  for (uint64_t i = 0; i < kKeys; ++i) {
    s = db->Get(rocksdb::ReadOptions(), AbsentKey(i), &value);
    if (!s.IsNotFound()) {
      return Fail(path, "absent key " + AbsentKey(i) + ": " + s.ToString());
    }
  }
  // Every absent key falls inside every file's key range, so each lookup
  // asks the filters of all kFiles files; at 10 bits per key about 1% say
  // "maybe". Fewer than 90% answered by a filter means they were not read.
  const uint64_t useful =
      options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL) -
      useful_before;
  const uint64_t asked = kKeys * kFiles;
  if (useful < asked * 9 / 10) {
    return Fail(path, "filters answered only " + std::to_string(useful) +
                          " of " + std::to_string(asked) +
                          " absent-key probes");
  }
  std::printf(
      "%s: written by %s, read by %s: %llu keys correct, %llu absent keys "
      "not found, %llu of %llu filter probes answered \"no\"\n",
      path.c_str(), writer.c_str(), ThisRelease().c_str(),
      static_cast<unsigned long long>(kKeys),
      static_cast<unsigned long long>(kKeys),
      static_cast<unsigned long long>(useful),
      static_cast<unsigned long long>(asked));
  return true;
}

}  // namespace
}  // namespace bloomgate

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "write" && mode != "verify") {
    std::fprintf(stderr,
                 "usage: bloomgate_format_check write|verify DIR\n"
                 "  write:  creates DIR/full and DIR/partitioned, DBs with "
                 "bloomgate filters\n"
                 "  verify: reads them back, checking values and filters\n");
    return 2;
  }
  const std::string dir = argv[2];
  std::error_code ec;
  if (mode == "write" && (std::filesystem::create_directories(dir, ec), ec)) {
    std::fprintf(stderr, "bloomgate_format_check: %s: %s\n", dir.c_str(),
                 ec.message().c_str());
    return 1;
  }
  bool ok = true;
  for (bool partitioned : {false, true}) {
    const std::string path = dir + (partitioned ? "/partitioned" : "/full");
    ok = (mode == "write" ? bloomgate::Write(path, partitioned)
                          : bloomgate::Verify(path, partitioned)) &&
         ok;
  }
  return ok ? 0 : 1;
}
