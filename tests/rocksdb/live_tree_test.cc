// Copyright 2026 The bloomgate Authors.
//
// Level-aware filters from the live tree in RocksDB
// (CreateRocksDBLiveTreeFilter): on trees RocksDB's own leveled compaction
// shapes, with dynamic level bytes on and off and several num_levels, the
// live filters hold the budget's memory, upper levels get more bits per key
// than the largest, and reads stay correct.

#include "src/rocksdb/live_tree.h"

#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "tests/rocksdb/db_test_util.h"

namespace bloomgate::testing_rocksdb {
namespace {

constexpr double kBudget = 10;

struct TreeParam {
  int num_levels;
  bool dynamic_level_bytes;
  // max_bytes_for_level_base: small enough that the keys reach the last
  // level.
  uint64_t level_base = 64 << 10;
};

class LiveTreeDbTest : public ::testing::TestWithParam<TreeParam> {};

INSTANTIATE_TEST_SUITE_P(
    Trees, LiveTreeDbTest,
    ::testing::Values(TreeParam{3, false}, TreeParam{4, false},
                      TreeParam{5, false, 16 << 10}, TreeParam{4, true},
                      TreeParam{5, true}),
    [](const auto& info) {
      return absl::StrFormat(
          "levels%d_%s", info.param.num_levels,
          info.param.dynamic_level_bytes ? "dynamic" : "static");
    });

TEST_P(LiveTreeDbTest, KeepsTheBudgetUnderAutomaticCompaction) {
  const TreeParam param = GetParam();
  absl::StatusOr<RocksDBLiveTreeFilter> filter =
      CreateRocksDBLiveTreeFilter({.bits_per_key = kBudget, .monkey = true});
  ASSERT_TRUE(filter.ok()) << filter.status();
  rocksdb::Options options =
      MakeOptions(DbOptionsSpec{.filter_policy = filter->policy});
  options.listeners.push_back(filter->listener);
  options.disable_auto_compactions = false;
  options.num_levels = param.num_levels;
  options.level_compaction_dynamic_level_bytes = param.dynamic_level_bytes;
  options.write_buffer_size = 64 << 10;  // flushed by the test, below
  options.target_file_size_base = 32 << 10;
  options.max_bytes_for_level_base = param.level_base;
  options.max_bytes_for_level_multiplier = 10;
  options.compression = rocksdb::kNoCompression;  // levels by key count
  options.level0_file_num_compaction_trigger = 2;
  TempDir dir;
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  // A flush every 1,000 keys, each waiting for its compactions.
  constexpr uint64_t kKeys = 100000;
  PutScrambled(*db, kKeys, /*flush_every=*/1000);
  if (HasFatalFailure()) return;

  const std::map<int, FilterTotals> levels = FiltersByLevel(*db);
  FilterTotals all;
  int largest = -1;
  std::cout << "[ figures  ] " << param.num_levels << " levels, "
            << (param.dynamic_level_bytes ? "dynamic" : "static") << ":";
  for (const auto& [level, f] : levels) {
    all.keys += f.keys;
    all.filter_bytes += f.filter_bytes;
    if (level > 0 && (largest < 0 || f.keys > levels.at(largest).keys)) {
      largest = level;
    }
    std::cout << absl::StrFormat(" L%d %d files %.2f bits/key", level, f.files,
                                 f.BitsPerKey());
  }
  std::cout << absl::StrFormat("; all %.3f bits/key\n", all.BitsPerKey());
  EXPECT_NEAR(all.BitsPerKey(), kBudget, 0.02 * kBudget);
  // Level-aware: every level below L0 and above the one with the most keys
  // has more bits per key than it.
  // The keys reach the last level.
  EXPECT_EQ(levels.rbegin()->first, param.num_levels - 1);
  ASSERT_GT(largest, 0);
  int upper_levels = 0;
  for (const auto& [level, f] : levels) {
    if (level == 0 || level >= largest) continue;
    ++upper_levels;
    EXPECT_GT(f.BitsPerKey(), levels.at(largest).BitsPerKey())
        << "L" << level << " against L" << largest;
  }
  EXPECT_GT(upper_levels, 0);

  std::string value;
  for (uint64_t i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
    ASSERT_EQ(value, Value(Key(i)));
    ASSERT_TRUE(
        db->Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound())
        << i;
  }
}

TEST(LiveTreeFilterTest, NeedsALevelAwareSpec) {
  EXPECT_EQ(CreateRocksDBLiveTreeFilter({.bits_per_key = 10}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CreateRocksDBLiveTreeFilter({.bits_per_key = 500, .monkey = true})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<RocksDBLiveTreeFilter> filter =
      CreateRocksDBLiveTreeFilter({.bits_per_key = 10, .monkey = true});
  ASSERT_TRUE(filter.ok());
  EXPECT_NE(filter->policy, nullptr);
  EXPECT_NE(filter->listener, nullptr);
  EXPECT_EQ(filter->policy->GetId(), "bloomgate:10:blocked:monkey");
}

// A policy by name finds the live tree by its database's info LOG: one
// tree a LOG; a LOG two open databases share names neither.
TEST(LiveTreeRegistryTest, FindsTheTreeOfALogUnlessTwoShareIt) {
  using rocksdb_internal::LiveTree;
  using rocksdb_internal::LiveTreeRegistry;
  const auto log = std::make_unique<char>();  // any address
  const auto* key = reinterpret_cast<const rocksdb::Logger*>(log.get());
  EXPECT_EQ(LiveTreeRegistry::Find(key), nullptr);
  EXPECT_EQ(LiveTreeRegistry::Find(nullptr), nullptr);
  auto first = std::make_shared<const LiveTree>();
  LiveTreeRegistry::Register(key, first);
  EXPECT_EQ(LiveTreeRegistry::Find(key), first);
  LiveTreeRegistry::Register(key, first);  // again: still its own
  EXPECT_EQ(LiveTreeRegistry::Find(key), first);
  {
    auto second = std::make_shared<const LiveTree>();
    LiveTreeRegistry::Register(key, second);
    EXPECT_EQ(LiveTreeRegistry::Find(key), nullptr);
  }
  EXPECT_EQ(LiveTreeRegistry::Find(key), nullptr);
  // Once the first is gone (its database closed), the LOG is free again.
  first.reset();
  auto third = std::make_shared<const LiveTree>();
  LiveTreeRegistry::Register(key, third);
  EXPECT_EQ(LiveTreeRegistry::Find(key), third);
}

}  // namespace
}  // namespace bloomgate::testing_rocksdb
