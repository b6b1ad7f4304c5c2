// Copyright 2026 The bloomgate Authors.

#include "bloomgate/allocation.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "bloomgate/sizing.h"
#include "gtest/gtest.h"

namespace bloomgate {
namespace {

double MemoryOf(const std::vector<double>& shape,
                const std::vector<double>& bits) {
  double memory = 0;
  for (size_t i = 0; i < shape.size(); ++i) memory += shape[i] * bits[i];
  return memory;
}

double TotalKeys(const std::vector<double>& shape) {
  return std::accumulate(shape.begin(), shape.end(), 0.0);
}

class AllocationTest : public ::testing::TestWithParam<Layout> {};

INSTANTIATE_TEST_SUITE_P(Layouts, AllocationTest,
                         ::testing::Values(Layout::kBlocked, Layout::kStandard),
                         [](const auto& info) {
                           return std::string(LayoutName(info.param));
                         });

TEST_P(AllocationTest, SpendsExactlyTheBudget) {
  for (int levels = 1; levels <= 7; ++levels) {
    for (double average : {1.0, 2.0, 5.0, 10.0, 16.0}) {
      const std::vector<double> shape = LeveledShape(levels, 10);
      absl::StatusOr<std::vector<double>> bits =
          MonkeyBitsPerKey(GetParam(), average, shape);
      ASSERT_TRUE(bits.ok()) << bits.status();
      const double budget = average * TotalKeys(shape);
      EXPECT_NEAR(MemoryOf(shape, *bits), budget, 0.001 * budget)
          << levels << " levels, " << average << " bits/key";
      for (double b : *bits) {
        EXPECT_TRUE(b == 0 || (b >= 0.25 && b <= kMaxBitsPerKey)) << b;
      }
    }
  }
}

TEST_P(AllocationTest, UpperLevelsGetMoreBitsAndFpFollowsSize) {
  const std::vector<double> shape = LeveledShape(5, 10);
  absl::StatusOr<std::vector<double>> bits =
      MonkeyBitsPerKey(GetParam(), 10, shape);
  ASSERT_TRUE(bits.ok());
  for (size_t i = 0; i + 1 < bits->size(); ++i) {
    EXPECT_GT((*bits)[i], (*bits)[i + 1]);
    // The closed form (FP proportional to size) says each level's FP rate is
    // T = 10 times the one above it; integer probe counts blur that a little.
    const double ratio =
        PredictedFpRate(GetParam(), (*bits)[i + 1],
                        OptimalNumProbes(GetParam(), (*bits)[i + 1])) /
        PredictedFpRate(GetParam(), (*bits)[i],
                        OptimalNumProbes(GetParam(), (*bits)[i]));
    EXPECT_NEAR(ratio, 10, 2.5) << "levels " << i << " and " << i + 1;
  }
}

TEST(AllocationClosedFormTest, StandardStepIsLnTOverLn2Squared) {
  // With f(b) = e^(-b ln^2 2), FP proportional to size gives a step of
  // ln(T) / ln^2(2) = 4.79 bits/key between adjacent levels at T = 10.
  const std::vector<double> shape = LeveledShape(4, 10);
  absl::StatusOr<std::vector<double>> bits =
      MonkeyBitsPerKey(Layout::kStandard, 10, shape);
  ASSERT_TRUE(bits.ok());
  const double step = std::log(10.0) / (std::log(2.0) * std::log(2.0));
  for (size_t i = 0; i + 1 < bits->size(); ++i) {
    EXPECT_NEAR((*bits)[i] - (*bits)[i + 1], step, 0.5) << i;
  }
}

TEST_P(AllocationTest, NoWorseThanABruteForceSearch) {
  // Three levels, every allocation on a 0.05-bit grid that fits the budget,
  // with exact FP rates (computed once per grid value).
  constexpr double kGrid = 0.05;
  constexpr int kPoints = 601;  // 0 to 30 bits/key
  std::vector<double> fp(kPoints);
  for (int j = 0; j < kPoints; ++j) {
    const double b = j * kGrid;
    fp[j] = b < 0.25 ? (j == 0 ? 1.0 : std::numeric_limits<double>::infinity())
                     : SumOfFpRates(GetParam(), {b});
  }
  const std::vector<double> shape = LeveledShape(3, 10);
  const double budget = 10 * TotalKeys(shape);
  double best = std::numeric_limits<double>::infinity();
  for (int j0 = 0; j0 < kPoints; ++j0) {
    for (int j1 = 0; j1 < kPoints; ++j1) {
      const double left = budget - kGrid * (shape[0] * j0 + shape[1] * j1);
      if (left < 0) break;
      const int j2 =
          std::min(kPoints - 1, static_cast<int>(left / (shape[2] * kGrid)));
      best = std::min(best, fp[j0] + fp[j1] + fp[j2]);
    }
  }
  absl::StatusOr<std::vector<double>> bits =
      MonkeyBitsPerKey(GetParam(), 10, shape);
  ASSERT_TRUE(bits.ok());
  EXPECT_LE(SumOfFpRates(GetParam(), *bits), best * 1.01);
}

TEST_P(AllocationTest, BeatsUniformAsTheoryPredicts) {
  // Monkey's figures for T = 10 at 10 bits/key: about 2.1x fewer wasted
  // reads with 3 levels and 4.9x with 7 (standard layout, continuous k).
  for (int levels : {3, 7}) {
    const std::vector<double> shape = LeveledShape(levels, 10);
    absl::StatusOr<std::vector<double>> bits =
        MonkeyBitsPerKey(GetParam(), 10, shape);
    ASSERT_TRUE(bits.ok());
    const double uniform =
        SumOfFpRates(GetParam(), std::vector<double>(levels, 10.0));
    const double gain = uniform / SumOfFpRates(GetParam(), *bits);
    EXPECT_GE(gain, levels == 3 ? 1.9 : 4.0) << levels << " levels";
  }
}

TEST_P(AllocationTest, ScarceMemoryLeavesTheLastLevelUnfiltered) {
  const std::vector<double> shape = LeveledShape(4, 10);
  absl::StatusOr<std::vector<double>> bits =
      MonkeyBitsPerKey(GetParam(), 0.5, shape);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ(bits->back(), 0.0);
  EXPECT_GT(bits->front(), 0.0);
}

TEST(AllocationErrorsTest, RejectsBadShapes) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(MonkeyBitsPerKey(Layout::kBlocked, 10, {}).ok());
  EXPECT_FALSE(MonkeyBitsPerKey(Layout::kBlocked, 10, {0, 0}).ok());
  EXPECT_FALSE(MonkeyBitsPerKey(Layout::kBlocked, 10, {1, -1}).ok());
  EXPECT_FALSE(MonkeyBitsPerKey(Layout::kBlocked, 10, {1, nan}).ok());
  EXPECT_FALSE(MonkeyBitsPerKey(Layout::kBlocked, -1, {1, 10}).ok());
  EXPECT_FALSE(MonkeyBitsPerKey(Layout::kBlocked, nan, {1, 10}).ok());
  EXPECT_FALSE(MonkeyBitsPerKey(Layout::kBlocked, 101, {1, 10}).ok());
}

TEST(AllocationShapeTest, LeveledShapeGrowsByTheFanout) {
  const std::vector<double> shape = LeveledShape(4, 10);
  ASSERT_EQ(shape.size(), 4u);
  EXPECT_EQ(shape[0], 1);
  EXPECT_EQ(shape[3], 1000);
}

}  // namespace
}  // namespace bloomgate
