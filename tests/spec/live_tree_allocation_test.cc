// Copyright 2026 The bloomgate Authors.
//
// LiveTreeBitsPerKey on hand-made trees: it reduces to the Monkey shares
// when every run spans the key range and every filter holds its share,
// repays half of what other filters hold beyond their shares, gives no
// filter to a run no lookup reaches, and takes the block's overhead off.

#include "src/spec/live_tree_allocation.h"

#include <cstdint>
#include <string>
#include <vector>

#include "bloomgate/allocation.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_spec.h"
#include "gtest/gtest.h"

namespace bloomgate {
namespace {

const FilterSpec kMonkey10{.bits_per_key = 10, .monkey = true};

// The filter bytes of a block of `keys` keys at `bits_per_key`.
uint64_t BlockBytes(double bits_per_key, uint64_t keys) {
  absl::StatusOr<FilterBuilder> builder =
      FilterBuilder::Create(kMonkey10.Options(bits_per_key));
  EXPECT_TRUE(builder.ok());
  return builder.ok() ? builder->BlockSize(keys) : 0;
}

// Bits per key per key of the block LiveTreeBitsPerKey's answer builds.
double BlockBitsPerKey(double bits_per_key, uint64_t keys) {
  return 8.0 * static_cast<double>(BlockBytes(bits_per_key, keys)) /
         static_cast<double>(keys);
}

// Levels 1..3 of 1,000 : 10,000 : 100,000 keys, each one file over the
// whole key range "a".."z", the filters of levels 1 and 2 holding `bits`.
std::vector<LiveFile> ThreeLevels(double l1_bits, double l2_bits) {
  return {
      {.level = 1,
       .keys = 1000,
       .smallest = "a",
       .largest = "z",
       .filter_bytes = BlockBytes(l1_bits, 1000)},
      {.level = 2,
       .keys = 10000,
       .smallest = "a",
       .largest = "z",
       .filter_bytes = BlockBytes(l2_bits, 10000)},
  };
}

PendingOutput LastLevelOutput() {
  PendingOutput out;
  out.level = 3;
  out.keys = 100000;
  out.smallest = "a";
  out.largest = "z";
  return out;
}

TEST(LiveTreeBitsPerKeyTest, FullCoverageAndFiltersAtTheirSharesIsMonkey) {
  absl::StatusOr<std::vector<double>> monkey =
      MonkeyBitsPerKey(Layout::kBlocked, 10, {1000, 10000, 100000});
  ASSERT_TRUE(monkey.ok());
  // The other files hold their shares as whole blocks: the excess is only
  // their rounding, a few bits.
  const std::vector<LiveFile> files = ThreeLevels((*monkey)[0], (*monkey)[1]);
  const double bits = LiveTreeBitsPerKey(kMonkey10, files, LastLevelOutput());
  // The output's block takes its share per key, overhead included.
  EXPECT_NEAR(BlockBitsPerKey(bits, 100000), (*monkey)[2], 0.01);
}

TEST(LiveTreeBitsPerKeyTest, RepaysHalfOfTheOtherFiltersExcess) {
  absl::StatusOr<std::vector<double>> monkey =
      MonkeyBitsPerKey(Layout::kBlocked, 10, {1000, 10000, 100000});
  ASSERT_TRUE(monkey.ok());
  const double at_share = LiveTreeBitsPerKey(
      kMonkey10, ThreeLevels((*monkey)[0], (*monkey)[1]), LastLevelOutput());
  // Level 2 holds 4 bits per key beyond its share: 40,000 bits, half of
  // them repaid over the output's 100,000 keys.
  const double over =
      LiveTreeBitsPerKey(kMonkey10, ThreeLevels((*monkey)[0], (*monkey)[1] + 4),
                         LastLevelOutput());
  EXPECT_NEAR(at_share - over, 0.5 * 4 * 10000 / 100000.0, 0.02);
  // Less than its share: the output gets more.
  const double under =
      LiveTreeBitsPerKey(kMonkey10, ThreeLevels((*monkey)[0], (*monkey)[1] - 4),
                         LastLevelOutput());
  EXPECT_NEAR(under - at_share, 0.5 * 4 * 10000 / 100000.0, 0.02);
  // Never below half the share, however large the excess: a last level of
  // 20,000 keys repays half of about 930,000 bits, far more than its share.
  // The block then takes half the share per key, overhead included, but for
  // the rounding to whole lines (at most 512 bits, 0.026 bits/key here).
  PendingOutput small = LastLevelOutput();
  small.keys = 20000;
  absl::StatusOr<std::vector<double>> small_monkey =
      MonkeyBitsPerKey(Layout::kBlocked, 10, {1000, 10000, 20000});
  ASSERT_TRUE(small_monkey.ok());
  const double far_over =
      LiveTreeBitsPerKey(kMonkey10, ThreeLevels(100, 100), small);
  EXPECT_NEAR(BlockBitsPerKey(far_over, small.keys), (*small_monkey)[2] / 2,
              0.026);
}

TEST(LiveTreeBitsPerKeyTest, FilesOfUnknownSizeHoldTheirShare) {
  std::vector<LiveFile> unknown = ThreeLevels(10, 10);
  for (LiveFile& f : unknown) f.filter_bytes = std::nullopt;
  absl::StatusOr<std::vector<double>> monkey =
      MonkeyBitsPerKey(Layout::kBlocked, 10, {1000, 10000, 100000});
  ASSERT_TRUE(monkey.ok());
  const double bits = LiveTreeBitsPerKey(kMonkey10, unknown, LastLevelOutput());
  EXPECT_NEAR(BlockBitsPerKey(bits, 100000), (*monkey)[2], 0.01);
}

TEST(LiveTreeBitsPerKeyTest, ARunBeyondTheLargestRunsRangeIsReached) {
  // The largest run covers "m".."z" only (a young last level); a level-1
  // output in "a".."b" overlaps none of its files, but lookups spread like
  // the keys reach it as often as its keys are many: its keys over its
  // reach are the largest run's, and so is its share, the budget.
  const std::vector<LiveFile> files = {
      {.level = 2,
       .keys = 100000,
       .smallest = "m",
       .largest = "z",
       .filter_bytes = BlockBytes(10, 100000)}};
  PendingOutput out;
  out.level = 1;
  out.keys = 1000;
  out.smallest = "a";
  out.largest = "b";
  const double bits = LiveTreeBitsPerKey(kMonkey10, files, out);
  EXPECT_NEAR(BlockBitsPerKey(bits, 1000), 10, 0.1);
}

TEST(LiveTreeBitsPerKeyTest, AnEmptyTreeGivesTheOutputTheBudget) {
  PendingOutput out;
  out.keys = 5000;
  out.smallest = "a";
  out.largest = "z";
  const double bits = LiveTreeBitsPerKey(kMonkey10, {}, out);
  // Asked for less than the budget, so that the block, with its header
  // and rounding, takes the budget.
  EXPECT_LT(bits, 10);
  EXPECT_NEAR(BlockBitsPerKey(bits, 5000), 10, 0.1);
  // No keys: the budget itself.
  out.keys = 0;
  EXPECT_EQ(LiveTreeBitsPerKey(kMonkey10, {}, out), 10);
}

// A byte budget: the same allocation with the average the budget gives
// the live keys, and a cap at what the other filters leave of it.
TEST(LiveTreeFilterTest, AByteBudgetIsTheAverageItGivesTheLiveKeys) {
  // Levels 1..3 hold 111,000 keys with the output; at filters of their
  // shares, a budget of 10 bits per key over them is bits_per_key 10.
  const uint64_t budget = 111000 * 10 / 8;
  const FilterSpec budgeted{.monkey = true, .memory_budget_bytes = budget};
  absl::StatusOr<std::vector<double>> monkey = MonkeyBitsPerKey(
      Layout::kBlocked, 10, std::vector<double>{1000, 10000, 100000});
  ASSERT_TRUE(monkey.ok());
  const std::vector<LiveFile> at_shares =
      ThreeLevels((*monkey)[0], (*monkey)[1]);
  EXPECT_NEAR(LiveTreeBitsPerKey(budgeted, at_shares, LastLevelOutput()),
              LiveTreeBitsPerKey(kMonkey10, at_shares, LastLevelOutput()),
              0.01);
}

TEST(LiveTreeFilterTest, AnOutputGetsNoMoreThanTheBudgetLeaves) {
  // The upper levels' filters hold 40 bits per key (55,000 bytes); a
  // budget of 60,000 bytes leaves 5,000 for the 100,000 keys of the last
  // level: 0.4 bits per key, far below its share.
  const FilterSpec budgeted{.monkey = true, .memory_budget_bytes = 60000};
  const std::vector<LiveFile> fat = ThreeLevels(40, 40);
  uint64_t held = 0;
  for (const LiveFile& f : fat) held += *f.filter_bytes;
  const double bits = LiveTreeBitsPerKey(budgeted, fat, LastLevelOutput());
  EXPECT_GT(bits, 0);
  EXPECT_LE(held + BlockBytes(bits, 100000), 60000u + 64);
  EXPECT_LE(bits, 8.0 * (60000 - held) / 100000);
  // Nothing left: no filter.
  const FilterSpec tight{.monkey = true, .memory_budget_bytes = held};
  EXPECT_EQ(LiveTreeBitsPerKey(tight, fat, LastLevelOutput()), 0);
  // The mixed policy's cap is the same.
  FilterSpec mixed = tight;
  mixed.mixed = true;
  EXPECT_EQ(LiveTreeFilter(mixed, fat, LastLevelOutput()).family,
            FilterFamily::kNone);
}

TEST(LiveTreeFilterTest, ABudgetTooSmallForEveryLevelLeavesTheLargestBare) {
  // At a low enough average Monkey gives the small levels their filters and
  // the last level, where a bit buys least, none; a byte budget of that
  // average does the same.
  const std::vector<FilterRun> runs = {
      {.keys = 1000}, {.keys = 10000}, {.keys = 100000}};
  for (double average : {2.0, 1.0, 0.5, 0.25}) {
    absl::StatusOr<std::vector<double>> shares =
        AllocateBitsPerKey(Layout::kBlocked, average, runs);
    ASSERT_TRUE(shares.ok());
    if ((*shares)[2] > 0) continue;
    ASSERT_GT((*shares)[0], 0);
    const FilterSpec budgeted{
        .monkey = true,
        .memory_budget_bytes = static_cast<uint64_t>(111000 * average / 8)};
    EXPECT_EQ(
        LiveTreeBitsPerKey(budgeted, ThreeLevels((*shares)[0], (*shares)[1]),
                           LastLevelOutput()),
        0)
        << average;
    return;
  }
  FAIL() << "no average left the last level without a filter";
}

}  // namespace
}  // namespace bloomgate
