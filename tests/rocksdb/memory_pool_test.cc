// Copyright 2026 The bloomgate Authors.
//
// One filter memory pool over several RocksDB databases: two databases that
// name one pool, grown by RocksDB's own compactions, keep the filters of
// both within the pool's size plus one file's filter after every step, by
// name and in code; the pool counts what RocksDB's table properties say;
// two sizes for one pool are refused at DB::Open, naming both; the pool's
// name round-trips through the OPTIONS file (OptionsFileRoundTripTest);
// and the database that takes
// the absent lookups takes the bits when its files are rewritten.

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/filter_memory_pool.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "tests/rocksdb/db_test_util.h"

namespace bloomgate::testing_rocksdb {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kStepKeys = 12000;
constexpr int kSteps = 3;
constexpr uint64_t kFinalKeys = kStepKeys * kSteps;
constexpr uint64_t kFlushEvery = 3000;
// 10 bits per key at the second step's 2 x 24,000 keys: 6.7 at the last.
constexpr uint64_t kPoolBytes = 2 * 24000 * 10 / 8;

// Writes keys n in [from, to) of the final key range's permutation.
void PutSpread(rocksdb::DB& db, uint64_t from, uint64_t to) {
  testing_rocksdb::PutSpread(db, from, to, kFinalKeys, kFlushEvery);
}

// A pool's spec: `name` of kPoolBytes (or `bytes`), level-aware.
FilterSpec PoolSpec(const std::string& name, bool mixed = false,
                    uint64_t bytes = kPoolBytes) {
  FilterSpec spec{.monkey = true, .mixed = mixed, .memory_budget_bytes = bytes};
  spec.pool = name;
  return spec;
}

// The options of one database of `spec`'s pool: by name (the policy and
// the listener from text) or in code (CreateRocksDBLiveTreeFilter).
rocksdb::Options PoolOptions(const FilterSpec& spec, bool in_code) {
  if (in_code) {
    absl::StatusOr<RocksDBLiveTreeFilter> live =
        CreateRocksDBLiveTreeFilter(spec);
    EXPECT_TRUE(live.ok()) << live.status();
    if (!live.ok()) return {};
    rocksdb::Options options = SmallLeveledTreeOptions(live->policy);
    options.listeners.push_back(live->listener);
    return options;
  }
  rocksdb::Options options = SmallLeveledTreeOptions(ByName(spec.Name()));
  options.listeners.push_back(ListenerByName());
  return options;
}

struct Route {
  const char* name;
  bool mixed;
  bool in_code;
};

class MemoryPoolTest : public ::testing::TestWithParam<Route> {};

INSTANTIATE_TEST_SUITE_P(Routes, MemoryPoolTest,
                         ::testing::Values(Route{"ByName", false, false},
                                           Route{"ByNameMixed", true, false},
                                           Route{"InCode", false, true}),
                         [](const auto& info) {
                           return std::string(info.param.name);
                         });

TEST_P(MemoryPoolTest, TwoDatabasesKeepToOnePool) {
  const Route route = GetParam();
  const std::string name = absl::StrCat("two_", route.name);
  const FilterSpec spec = PoolSpec(name, route.mixed);
  TempDir dir_a, dir_b;
  auto a = OpenDb(PoolOptions(spec, route.in_code), dir_a.path());
  auto b = OpenDb(PoolOptions(spec, route.in_code), dir_b.path());
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const std::shared_ptr<FilterMemoryPool> pool = FilterMemoryPool::Find(name);
  ASSERT_NE(pool, nullptr);
  for (int step = 1; step <= kSteps; ++step) {
    PutSpread(*a, (step - 1) * kStepKeys, step * kStepKeys);
    PutSpread(*b, (step - 1) * kStepKeys, step * kStepKeys);
    if (HasFailure()) return;
    absl::StatusOr<FilterMemory> in_a = GetFilterMemory(*a);
    absl::StatusOr<FilterMemory> in_b = GetFilterMemory(*b);
    ASSERT_TRUE(in_a.ok()) << in_a.status();
    ASSERT_TRUE(in_b.ok()) << in_b.status();
    EXPECT_EQ(in_a->pool, name);
    EXPECT_EQ(in_a->budget_bytes, kPoolBytes);
    const FilterMemoryPool::Usage usage = in_a->pool_usage;
    EXPECT_EQ(usage.size_bytes, kPoolBytes);
    EXPECT_EQ(usage.databases, 2u);
    EXPECT_EQ(usage.column_families, 2u);
    // What the pool counts is what RocksDB's table properties say.
    EXPECT_EQ(usage.filter_bytes, in_a->filter_bytes + in_b->filter_bytes);
    EXPECT_EQ(usage.files, in_a->files + in_b->files);
    EXPECT_EQ(usage.keys, 2 * step * kStepKeys);
    const uint64_t largest = std::max(LargestFilter(*a), LargestFilter(*b));
    std::cout << absl::StrFormat(
        "[ figures  ] %s step %d: %d + %d filter bytes (%.2f bits/key) in "
        "%d files; largest %d; pool %d\n",
        route.name, step, in_a->filter_bytes, in_b->filter_bytes,
        8.0 * usage.filter_bytes / usage.keys, usage.files, largest,
        kPoolBytes);
    EXPECT_LE(usage.filter_bytes, kPoolBytes + largest) << step;
    if (step >= 2) {
      EXPECT_GE(usage.filter_bytes, kPoolBytes * 70 / 100);
    }
  }
  std::string value;
  for (uint64_t i = 0; i < kFinalKeys; i += 3) {
    EXPECT_TRUE(a->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
    EXPECT_TRUE(b->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
  }
}

TEST(MemoryPoolConflictTest, TwoSizesForOnePoolAreRefusedNamingBoth) {
  TempDir dir_a;
  const FilterSpec first = PoolSpec("conflict", false, 64 << 10);
  const FilterSpec second = PoolSpec("conflict", false, 128 << 10);
  auto a = OpenDb(PoolOptions(first, false), dir_a.path());
  ASSERT_NE(a, nullptr);

  // By name: the policy is refused where RocksDB makes it from text.
  rocksdb::ConfigOptions config;
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  const rocksdb::Status s =
      rocksdb::FilterPolicy::CreateFromString(config, second.Name(), &policy);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_THAT(s.ToString(), HasSubstr(first.Name()));
  EXPECT_THAT(s.ToString(), HasSubstr(second.Name()));
  EXPECT_THAT(s.ToString(), HasSubstr("64KiB"));
  EXPECT_THAT(s.ToString(), HasSubstr("128KiB"));

  // In code: the constructors say it.
  absl::StatusOr<RocksDBLiveTreeFilter> live =
      CreateRocksDBLiveTreeFilter(second);
  ASSERT_FALSE(live.ok());
  EXPECT_THAT(live.status().message(), HasSubstr("\"conflict\" is 64KiB"));
  EXPECT_FALSE(CreateRocksDBFilterPolicy(second).ok());
  // The policy that may not fail keeps the budget alone, and says so.
  EXPECT_EQ(NewRocksDBFilterPolicy(second)->GetId(),
            "bloomgate:128KiB:blocked:monkey");
}

// Two databases of the same keys in one pool; absent lookups go to `a` 16
// times as often as to `b`. Rewritten, a's filters take more of the pool.
TEST(MemoryPoolReachTest, TheDatabaseWithTheLookupsTakesTheBits) {
  FilterSpec spec = PoolSpec("reach");
  spec.reach_half_life = kDefaultReachHalfLife;
  TempDir dir_a, dir_b;
  auto a = OpenDb(PoolOptions(spec, false), dir_a.path());
  auto b = OpenDb(PoolOptions(spec, false), dir_b.path());
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  PutSpread(*a, 0, 2 * kStepKeys);
  PutSpread(*b, 0, 2 * kStepKeys);
  if (HasFailure()) return;
  std::string value;
  // b's 2^15 lookups probe two or more filters each: b's samples weigh
  // more than kLeastMeasuredSamples, so both databases are measured.
  constexpr uint64_t kLookups = 1 << 19;
  for (uint64_t n = 0; n < kLookups; ++n) {
    const uint64_t i = (n * 7919) % kFinalKeys;
    EXPECT_TRUE(
        a->Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound());
    if (n % 16 == 0) {
      EXPECT_TRUE(
          b->Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound());
    }
  }
  // Every file of both rewritten, one database after the other, twice (the
  // first rewrite of each is sized beside the other's files as they were).
  for (int round = 0; round < 2; ++round) {
    for (rocksdb::DB* db : {a.get(), b.get()}) {
      rocksdb::CompactRangeOptions compact;
      compact.bottommost_level_compaction =
          rocksdb::BottommostLevelCompaction::kForce;
      ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
      WaitForBackgroundWork(*db);
    }
  }
  const FilterMemory in_a = GetFilterMemory(*a).value();
  const FilterMemory in_b = GetFilterMemory(*b).value();
  const double bits_a = 8.0 * in_a.filter_bytes / in_a.keys;
  const double bits_b = 8.0 * in_b.filter_bytes / in_b.keys;
  std::cout << absl::StrFormat(
      "[ figures  ] a (16x the lookups): %.2f bits/key, b: %.2f bits/key; "
      "pool %d bytes, %d used\n",
      bits_a, bits_b, kPoolBytes, in_a.pool_usage.filter_bytes);
  // At the theoretic rate log2(16) = 4 bits per key apart; the allocation
  // keeps each within [1/2, 2] of its share: at least 1.5 apart.
  EXPECT_GT(bits_a, bits_b + 1.5);
  EXPECT_LE(in_a.pool_usage.filter_bytes,
            kPoolBytes + std::max(LargestFilter(*a), LargestFilter(*b)));
}

}  // namespace
}  // namespace bloomgate::testing_rocksdb
