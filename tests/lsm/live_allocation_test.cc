// Copyright 2026 The bloomgate Authors.
//
// Level-aware filters from the live tree (StoreOptions::LevelAllocation::
// kLiveTree): whatever shape flushes and compactions give the tree, the
// live filters hold the budget's memory, upper levels get more bits per key
// than the deepest, and reads stay correct.

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using testing::TempDir;

constexpr double kBudget = 10;

// Small buffers and levels of fanout 10 (level 1 holds 16 KiB), so that
// tens of thousands of keys make trees of several levels.
StoreOptions LiveTreeOptions(int num_levels) {
  StoreOptions o;
  o.filter = FilterSpec{.bits_per_key = kBudget, .monkey = true};
  o.write_buffer_size = 16 << 10;
  o.block_size = 512;
  o.target_file_size = 16 << 10;
  o.max_bytes_for_level_base = 16 << 10;
  o.max_bytes_for_level_multiplier = 10;
  o.num_levels = num_levels;
  o.level0_file_num_compaction_trigger = 4;
  return o;
}

// Filter bits per key over all live tables, headers and rounding included.
double BitsPerKey(const IoStats& stats) {
  return 8.0 * static_cast<double>(stats.total.filter_bytes) /
         static_cast<double>(stats.total.filter_keys);
}

double LevelBitsPerKey(const LevelStats& level) {
  return 8.0 * static_cast<double>(level.filter_bytes) /
         static_cast<double>(level.filter_keys);
}

// Writes keys [0, n) in a seeded random order, then overwrites a tenth.
void FillRandom(Store& store, uint64_t n) {
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(n);
  std::shuffle(order.begin(), order.end(), rng);
  for (uint64_t i : order) ASSERT_TRUE(store.Put(Key(i), "value").ok());
  for (uint64_t i = 0; i < n; i += 10) {
    ASSERT_TRUE(store.Put(Key(i), "newer").ok());
  }
  ASSERT_TRUE(store.Flush().ok());
}

void ExpectReadsCorrect(Store& store, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    absl::StatusOr<std::optional<std::string>> v = store.Get(Key(i));
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_EQ(*v, i % 10 == 0 ? "newer" : "value") << i;
    v = store.Get(Key(i) + "-absent");
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_FALSE(v->has_value()) << i;
  }
}

class LiveTreeTest : public ::testing::TestWithParam<int> {};

INSTANTIATE_TEST_SUITE_P(Levels, LiveTreeTest, ::testing::Values(3, 4, 5),
                         [](const auto& info) {
                           return absl::StrFormat("levels%d", info.param);
                         });

TEST_P(LiveTreeTest, KeepsTheBudgetUnderAutomaticCompaction) {
  const int num_levels = GetParam();
  // Enough keys to fill every level but the last past its target.
  const uint64_t n = num_levels == 3 ? 8000 : num_levels == 4 ? 40000 : 90000;
  TempDir dir;
  absl::StatusOr<std::unique_ptr<Store>> store =
      Store::Open(dir.path(), LiveTreeOptions(num_levels));
  ASSERT_TRUE(store.ok()) << store.status();
  FillRandom(**store, n);
  const IoStats stats = (*store)->GetStats();
  std::cout << "[ figures  ] " << num_levels << " levels:";
  int deepest = 0;
  for (size_t l = 0; l < stats.levels.size(); ++l) {
    if (stats.levels[l].num_files == 0) continue;
    deepest = static_cast<int>(l);
    std::cout << absl::StrFormat(" L%d %d files %.2f bits/key", l,
                                 stats.levels[l].num_files,
                                 LevelBitsPerKey(stats.levels[l]));
  }
  std::cout << absl::StrFormat("; all %.3f bits/key\n", BitsPerKey(stats));
  EXPECT_EQ(deepest, num_levels - 1);
  EXPECT_NEAR(BitsPerKey(stats), kBudget, 0.02 * kBudget);
  // Level-aware: levels above the one with the most keys (below level 0)
  // have more bits per key than it. (A deeper level still filling up may
  // not: it holds fewer keys.)
  int largest = 1;
  for (int l = 1; l <= deepest; ++l) {
    if (stats.levels[l].filter_keys > stats.levels[largest].filter_keys) {
      largest = l;
    }
  }
  ASSERT_GT(largest, 1);
  for (int l = 1; l < largest; ++l) {
    if (stats.levels[l].num_files == 0) continue;
    EXPECT_GT(LevelBitsPerKey(stats.levels[l]),
              LevelBitsPerKey(stats.levels[largest]))
        << "L" << l << " against L" << largest;
  }
  ExpectReadsCorrect(**store, n);
}

TEST(LiveTreeTest, ATreeAllInLevelZeroSpendsTheBudget) {
  StoreOptions o = LiveTreeOptions(7);
  o.disable_auto_compactions = true;
  TempDir dir;
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(dir.path(), o);
  ASSERT_TRUE(store.ok()) << store.status();
  FillRandom(**store, 5000);
  const IoStats stats = (*store)->GetStats();
  EXPECT_GT(stats.levels[0].num_files, 5u);
  EXPECT_EQ(stats.levels[0].num_files, stats.total.num_files);
  EXPECT_NEAR(BitsPerKey(stats), kBudget, 0.02 * kBudget);
  ExpectReadsCorrect(**store, 5000);
}

// A budget in bytes: a store grown to four times the keys the budget holds
// at 10 bits per key keeps its filters within the budget plus one table's
// filter after every step, spends at least 75% of it once the keys need it
// all, and reads stay correct.
TEST(MemoryBudgetTest, TheTotalKeepsToTheBudgetAsTheStoreGrows) {
  constexpr uint64_t kStepKeys = 10000;
  constexpr int kSteps = 4;
  constexpr uint64_t kBudgetBytes = 2 * kStepKeys * 10 / 8;
  StoreOptions o = LiveTreeOptions(5);
  o.filter = FilterSpec{.monkey = true, .memory_budget_bytes = kBudgetBytes};
  TempDir dir;
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(dir.path(), o);
  ASSERT_TRUE(store.ok()) << store.status();
  std::vector<uint64_t> order(kSteps * kStepKeys);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(7);
  std::shuffle(order.begin(), order.end(), rng);
  for (int step = 1; step <= kSteps; ++step) {
    for (uint64_t n = (step - 1) * kStepKeys; n < step * kStepKeys; ++n) {
      ASSERT_TRUE((*store)->Put(Key(order[n]), "value").ok());
    }
    ASSERT_TRUE((*store)->Flush().ok());
    const IoStats stats = (*store)->GetStats();
    EXPECT_EQ(stats.filter_budget_bytes, kBudgetBytes);
    uint64_t largest = 0;
    for (const FileInfo& f : (*store)->GetLiveFiles()) {
      largest = std::max(largest, f.filter_bytes);
    }
    std::cout << absl::StrFormat(
        "[ figures  ] step %d: %d keys, %d filter bytes (%.2f bits/key) in "
        "%d files, largest %d; budget %d\n",
        step, stats.total.num_entries, stats.total.filter_bytes,
        BitsPerKey(stats), stats.total.num_files, largest, kBudgetBytes);
    EXPECT_LE(stats.total.filter_bytes, kBudgetBytes + largest) << step;
    // All but the share kept for the level-0 files to come, which an
    // empty level 0 leaves unspent.
    if (step >= 2) {
      EXPECT_GE(stats.total.filter_bytes, kBudgetBytes * 75 / 100) << step;
    }
  }
  for (uint64_t i = 0; i < kSteps * kStepKeys; ++i) {
    absl::StatusOr<std::optional<std::string>> v = (*store)->Get(Key(i));
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_EQ(*v, "value") << i;
  }
  EXPECT_NE((*store)->GetStats().ToString().find("KiB budget"),
            std::string::npos);
}

TEST(MemoryBudgetTest, NeedsTheLiveTree) {
  StoreOptions o = LiveTreeOptions(5);
  o.filter = FilterSpec{.monkey = true, .memory_budget_bytes = 1 << 20};
  o.level_allocation = StoreOptions::LevelAllocation::kAssumedShape;
  TempDir dir;
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(dir.path(), o);
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(store.status().message().find("needs level_allocation kLiveTree"),
            std::string::npos)
      << store.status();
}

}  // namespace
}  // namespace bloomgate::lsm
