// Copyright 2026 The bloomgate Authors.
//
// A memory budget in bytes on RocksDB: a database grown to four times the
// keys its budget holds at 10 bits per key, by RocksDB's own compactions,
// keeps its live filters within the budget plus one file's filter after
// every step (GetFilterMemory says the total and the budget), by name and
// in code, Bloom alone and mixed; every key it holds is found. Without the
// live tree, or with a budget nothing fits in, the info LOG says so.

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_format.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "tests/rocksdb/db_test_util.h"

namespace bloomgate::testing_rocksdb {
namespace {

// Grown in kSteps steps of kStepKeys keys, spread over the final key range
// (a permutation of it: not a multiple of 7919), flushed every kFlushEvery.
constexpr uint64_t kStepKeys = 15000;
constexpr int kSteps = 4;
constexpr uint64_t kFinalKeys = kStepKeys * kSteps;
constexpr uint64_t kFlushEvery = 3000;
// 10 bits per key at the second step's 30,000 keys: 5 at the last.
constexpr uint64_t kBudgetBytes = 30000 * 10 / 8;

// Writes keys n in [from, to) of the final key range's permutation.
void PutSpread(rocksdb::DB& db, uint64_t from, uint64_t to) {
  testing_rocksdb::PutSpread(db, from, to, kFinalKeys, kFlushEvery);
}

struct Route {
  const char* name;
  bool mixed;
  bool in_code;  // CreateRocksDBLiveTreeFilter; else policy and listener
                 // by name
};

class MemoryBudgetTest : public ::testing::TestWithParam<Route> {};

INSTANTIATE_TEST_SUITE_P(Routes, MemoryBudgetTest,
                         ::testing::Values(Route{"ByName", false, false},
                                           Route{"ByNameMixed", true, false},
                                           Route{"InCode", false, true},
                                           Route{"InCodeMixed", true, true}),
                         [](const auto& info) {
                           return std::string(info.param.name);
                         });

TEST_P(MemoryBudgetTest, TheTotalKeepsToTheBudgetAsTheTreeGrows) {
  const Route route = GetParam();
  const FilterSpec spec{.monkey = true,
                        .mixed = route.mixed,
                        .memory_budget_bytes = kBudgetBytes};
  rocksdb::Options options;
  if (route.in_code) {
    absl::StatusOr<RocksDBLiveTreeFilter> live =
        CreateRocksDBLiveTreeFilter(spec);
    ASSERT_TRUE(live.ok()) << live.status();
    options = SmallLeveledTreeOptions(live->policy);
    options.listeners.push_back(live->listener);
  } else {
    options = SmallLeveledTreeOptions(ByName(spec.Name()));
    options.listeners.push_back(ListenerByName());
  }
  TempDir dir;
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  for (int step = 1; step <= kSteps; ++step) {
    PutSpread(*db, (step - 1) * kStepKeys, step * kStepKeys);
    if (HasFailure()) return;
    absl::StatusOr<FilterMemory> memory = GetFilterMemory(*db);
    ASSERT_TRUE(memory.ok()) << memory.status();
    EXPECT_EQ(memory->budget_bytes, kBudgetBytes);
    EXPECT_EQ(memory->keys, step * kStepKeys);
    const uint64_t largest = LargestFilter(*db);
    std::cout << absl::StrFormat(
        "[ figures  ] %s step %d: %d keys, %d filter bytes (%.2f bits/key) "
        "in %d files, largest %d; budget %d\n",
        route.name, step, memory->keys, memory->filter_bytes,
        8.0 * memory->filter_bytes / memory->keys, memory->files, largest,
        kBudgetBytes);
    EXPECT_LE(memory->filter_bytes, kBudgetBytes + largest) << step;
    // The budget is spent, not hoarded, once the tree's keys need it all
    // (from the second step on): all but the share kept for the level-0
    // files to come (two flushes of 3,000 keys, a tenth of the keys at
    // the second step), which an empty level 0 leaves unspent.
    if (step >= 2) {
      EXPECT_GE(memory->filter_bytes, kBudgetBytes * 75 / 100);
    }
  }
  std::string value;
  for (uint64_t i = 0; i < kFinalKeys; i += 3) {
    EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
  }
}

// Without the listener the tree's keys are unknown: the budget cannot be
// kept, and the LOG says so rather than going quiet.
TEST(MemoryBudgetLogTest, WithoutTheLiveTreeTheLogSaysTheBudgetIsNotKept) {
  TempDir dir;
  {
    auto db = OpenDb(SmallLeveledTreeOptions(ByName("bloomgate:64KiB:monkey")),
                     dir.path());
    ASSERT_NE(db, nullptr);
    PutSpread(*db, 0, kFlushEvery);
  }
  EXPECT_NE(InfoLog(dir.path()).find("the memory budget cannot be kept"),
            std::string::npos);
}

// A budget that the tree's first files fill leaves later files without
// their filter; RocksDB cannot take "no filter" then, so they get the
// smallest, said once in the LOG, and every key is still found.
TEST(MemoryBudgetLogTest, ABudgetSpentLeavesTheSmallestFilterAndSaysSo) {
  TempDir dir;
  const uint64_t budget = 2048;
  rocksdb::Options options = SmallLeveledTreeOptions(
      ByName(FilterSpec{.monkey = true, .memory_budget_bytes = budget}.Name()));
  options.listeners.push_back(ListenerByName());
  {
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    PutSpread(*db, 0, 2 * kStepKeys);
    absl::StatusOr<FilterMemory> memory = GetFilterMemory(*db);
    ASSERT_TRUE(memory.ok()) << memory.status();
    // Each file's smallest filter is one line and a trailer per 5,120 keys.
    EXPECT_LE(memory->filter_bytes,
              budget + memory->files * kMinMemoryBudgetBytes);
    std::string value;
    for (uint64_t n = 0; n < 2 * kStepKeys; n += 5) {
      const uint64_t i = (n * 7919) % kFinalKeys;
      EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
    }
  }
  EXPECT_NE(InfoLog(dir.path())
                .find("the other live filters hold the memory "
                      "budget"),
            std::string::npos);
}

}  // namespace
}  // namespace bloomgate::testing_rocksdb
