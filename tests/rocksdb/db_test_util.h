// Copyright 2026 The bloomgate Authors.
//
// Helpers for tests that run RocksDB databases with the bloomgate policy:
// a self-removing temporary folder, options, a fixed key set spread over
// several SST files, and the filter statistics RocksDB records. The tests
// that use them are in their namespace, testing_rocksdb, and name them
// unqualified.

#ifndef BLOOMGATE_TESTS_ROCKSDB_DB_TEST_UTIL_H_
#define BLOOMGATE_TESTS_ROCKSDB_DB_TEST_UTIL_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/utilities/options_util.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "tests/testing/temp_dir.h"

namespace bloomgate::testing_rocksdb {

// A fresh folder under the test temp dir, removed with its contents.
class TempDir : public test_support::TempDir {
 public:
  TempDir() : test_support::TempDir("bloomgate_rocksdb") {}
};

// Present keys are even-numbered, missing keys odd-numbered, so missing keys
// fall inside every file's key range and RocksDB must consult each filter.
inline std::string Key(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08llu",
                static_cast<unsigned long long>(2 * i));
  return buf;
}
inline std::string MissingKey(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08llu",
                static_cast<unsigned long long>(2 * i + 1));
  return buf;
}
inline std::string Value(const std::string& key) { return "value-" + key; }

struct DbOptionsSpec {
  std::shared_ptr<const rocksdb::FilterPolicy> filter_policy;
  bool partitioned = false;
  bool detect_construct_corruption = false;
  bool no_block_cache = false;
  rocksdb::ChecksumType checksum = rocksdb::kCRC32c;
};

inline rocksdb::Options MakeOptions(const DbOptionsSpec& spec) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = spec.filter_policy;
  table_options.detect_filter_construct_corruption =
      spec.detect_construct_corruption;
  table_options.no_block_cache = spec.no_block_cache;
  table_options.checksum = spec.checksum;
  if (spec.partitioned) {
    table_options.partition_filters = true;
    table_options.index_type =
        rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    // Small partitions, so that small files have several.
    table_options.metadata_block_size = 512;
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;  // the tests decide the shape
  options.statistics = rocksdb::CreateDBStatistics();
  options.table_factory.reset(
      rocksdb::NewBlockBasedTableFactory(table_options));
  return options;
}

inline std::unique_ptr<rocksdb::DB> OpenDb(const rocksdb::Options& options,
                                           const std::string& path) {
  std::unique_ptr<rocksdb::DB> db;
  const rocksdb::Status s = rocksdb_compat::OpenDB(options, path, &db);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return db;
}

// Writes keys [0, num_files * keys_per_file) into `num_files` L0 files, key
// i into file i % num_files, so every file spans the whole key range.
inline void WriteFiles(rocksdb::DB& db, int num_files, int keys_per_file) {
  const uint64_t total = static_cast<uint64_t>(num_files) * keys_per_file;
  for (int f = 0; f < num_files; ++f) {
    for (uint64_t i = f; i < total; i += num_files) {
      ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
    }
    ASSERT_TRUE(db.Flush(rocksdb::FlushOptions()).ok());
  }
}

inline uint64_t Ticker(const rocksdb::Options& options,
                       rocksdb::Tickers ticker) {
  return options.statistics->getTickerCount(ticker);
}

inline rocksdb::TablePropertiesCollection AllTableProperties(rocksdb::DB& db) {
  rocksdb::TablePropertiesCollection props;
  EXPECT_TRUE(db.GetPropertiesOfAllTables(&props).ok());
  return props;
}

// The options RocksDB persisted in `path`'s latest OPTIONS file, loaded
// back as an application would, with unknown options errors.
struct PersistedOptions {
  rocksdb::ConfigOptions config;
  rocksdb::DBOptions db;
  std::vector<rocksdb::ColumnFamilyDescriptor> column_families;
};
inline PersistedOptions LoadPersistedOptions(const std::string& path) {
  PersistedOptions options;
  options.config.ignore_unknown_options = false;
  EXPECT_TRUE(rocksdb::LoadLatestOptions(options.config, path, &options.db,
                                         &options.column_families)
                  .ok());
  return options;
}

// The filter policy of a column family's block-based table options, or
// null (none, or another table factory).
inline std::shared_ptr<const rocksdb::FilterPolicy> FilterPolicyOf(
    const rocksdb::ColumnFamilyOptions& options) {
  const auto* table_options =
      options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  return table_options != nullptr ? table_options->filter_policy : nullptr;
}

// RocksDB 7.8 has no public WaitForCompact: polls until no flush or
// compaction is pending or running (at most a minute).
inline void WaitForBackgroundWork(rocksdb::DB& db) {
  for (int i = 0; i < 6000; ++i) {
    uint64_t pending = 0, compactions = 0, flushes = 0;
    ASSERT_TRUE(db.GetIntProperty("rocksdb.compaction-pending", &pending));
    ASSERT_TRUE(
        db.GetIntProperty("rocksdb.num-running-compactions", &compactions));
    ASSERT_TRUE(db.GetIntProperty("rocksdb.num-running-flushes", &flushes));
    if (pending == 0 && compactions == 0 && flushes == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  FAIL() << "background work did not finish";
}

enum class KeyOrder {
  kAscending,   // Key(0), Key(1), ...: RocksDB moves flushed files down
                // unrewritten (trivial moves)
  kDescending,  // the same from the other end
  // i = n * 7919 mod num_keys, a permutation while num_keys is not a
  // multiple of the prime 7919: compactions merge files rather than move
  // them
  kScrambled,
};

// Writes Key(i) -> Value(Key(i)) for every i < num_keys in `order`. With
// flush_every > 0, flushes after every flush_every keys and waits for the
// compactions that sets off, so that the tree grows the same way every run.
inline void PutInOrder(rocksdb::DB& db, uint64_t num_keys, KeyOrder order,
                       uint64_t flush_every = 0) {
  if (order == KeyOrder::kScrambled) {
    ASSERT_NE(num_keys % 7919, 0u);
  }
  for (uint64_t n = 0; n < num_keys; ++n) {
    const uint64_t i = order == KeyOrder::kAscending    ? n
                       : order == KeyOrder::kDescending ? num_keys - 1 - n
                                                        : (n * 7919) % num_keys;
    ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
    if (flush_every > 0 && n % flush_every == flush_every - 1) {
      ASSERT_TRUE(db.Flush(rocksdb::FlushOptions()).ok());
      WaitForBackgroundWork(db);
    }
  }
}

inline void PutScrambled(rocksdb::DB& db, uint64_t num_keys,
                         uint64_t flush_every = 0) {
  PutInOrder(db, num_keys, KeyOrder::kScrambled, flush_every);
}

// Filter bytes and keys of a set of live files.
struct FilterTotals {
  int files = 0;
  uint64_t keys = 0;
  uint64_t filter_bytes = 0;
  // Each file's keys.
  std::vector<uint64_t> file_keys;
  double BitsPerKey() const {
    return 8.0 * static_cast<double>(filter_bytes) / static_cast<double>(keys);
  }
};

// The live files' filters by level, from their table properties (entries,
// filter_size), as sst_dump reads them.
inline std::map<int, FilterTotals> FiltersByLevel(rocksdb::DB& db) {
  std::vector<rocksdb::LiveFileMetaData> live;
  db.GetLiveFilesMetaData(&live);
  const rocksdb::TablePropertiesCollection props = AllTableProperties(db);
  std::map<int, FilterTotals> levels;
  for (const rocksdb::LiveFileMetaData& f : live) {
    auto it = props.find(f.db_path + f.name);
    EXPECT_NE(it, props.end()) << f.db_path << f.name;
    if (it == props.end()) continue;
    FilterTotals& level = levels[f.level];
    ++level.files;
    level.keys += it->second->num_entries;
    level.filter_bytes += it->second->filter_size;
    level.file_keys.push_back(it->second->num_entries);
  }
  return levels;
}

inline FilterTotals AllFilters(rocksdb::DB& db) {
  FilterTotals all;
  for (const auto& [level, f] : FiltersByLevel(db)) {
    all.files += f.files;
    all.keys += f.keys;
    all.filter_bytes += f.filter_bytes;
    all.file_keys.insert(all.file_keys.end(), f.file_keys.begin(),
                         f.file_keys.end());
  }
  return all;
}

// The policy RocksDB makes of `name`, as from an OPTIONS file, with
// bloomgate registered; unknown names are test failures.
inline std::shared_ptr<const rocksdb::FilterPolicy> ByName(
    const std::string& name) {
  RegisterRocksDBPlugin();
  rocksdb::ConfigOptions config;
  config.ignore_unsupported_options = false;
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  const rocksdb::Status s =
      rocksdb::FilterPolicy::CreateFromString(config, name, &policy);
  EXPECT_TRUE(s.ok()) << name << ": " << s.ToString();
  return policy;
}

// The listener as an OPTIONS file's "listeners=" makes it.
inline std::shared_ptr<rocksdb::EventListener> ListenerByName() {
  RegisterRocksDBPlugin();
  rocksdb::ConfigOptions config;
  config.ignore_unsupported_options = false;
  std::shared_ptr<rocksdb::EventListener> listener;
  const rocksdb::Status s = rocksdb::EventListener::CreateFromString(
      config, kRocksDBListenerName, &listener);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return listener;
}

// Writes keys n in [from, to) of a permutation of [0, final_keys) (n times
// 7919, which must not divide final_keys, modulo final_keys), flushing
// after every `flush_every` and waiting for the compactions that start:
// a tree grown by RocksDB's own compactions, keys spread over the range.
inline void PutSpread(rocksdb::DB& db, uint64_t from, uint64_t to,
                      uint64_t final_keys, uint64_t flush_every) {
  for (uint64_t n = from; n < to; ++n) {
    const uint64_t i = (n * 7919) % final_keys;
    ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
    if (n % flush_every == flush_every - 1) {
      ASSERT_TRUE(db.Flush(rocksdb::FlushOptions()).ok());
      WaitForBackgroundWork(db);
    }
  }
}

// The largest filter block of the live files.
inline uint64_t LargestFilter(rocksdb::DB& db) {
  uint64_t largest = 0;
  for (const auto& [file, p] : AllTableProperties(db)) {
    largest = std::max<uint64_t>(largest, p->filter_size);
  }
  return largest;
}

// RocksDB's defaults for a leveled tree (7 levels, dynamic level bytes),
// scaled down so that a few tens of thousands of keys fill several levels.
inline rocksdb::Options SmallLeveledTreeOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy) {
  rocksdb::Options options =
      MakeOptions(DbOptionsSpec{.filter_policy = std::move(policy)});
  options.disable_auto_compactions = false;
  options.num_levels = 7;
  options.level_compaction_dynamic_level_bytes = true;
  options.write_buffer_size = 8 << 20;  // flushed by the test
  options.target_file_size_base = 128 << 10;
  options.max_bytes_for_level_base = 512 << 10;
  options.max_bytes_for_level_multiplier = 10;
  options.compression = rocksdb::kNoCompression;
  options.level0_file_num_compaction_trigger = 2;
  return options;
}

// The text of the database's info LOG.
inline std::string InfoLog(const std::string& db_path) {
  std::ifstream in(db_path + "/LOG");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace bloomgate::testing_rocksdb

#endif  // BLOOMGATE_TESTS_ROCKSDB_DB_TEST_UTIL_H_
