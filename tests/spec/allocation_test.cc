// Copyright 2026 The bloomgate Authors.

#include "bloomgate/allocation.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <random>
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

// --- Runs with partial reach (AllocateBitsPerKey). ---

double MemoryOf(const std::vector<FilterRun>& runs,
                const std::vector<double>& bits) {
  double memory = 0;
  for (size_t i = 0; i < runs.size(); ++i) memory += runs[i].keys * bits[i];
  return memory;
}

double BudgetOf(const std::vector<FilterRun>& runs, double average) {
  double keys = 0;
  for (const FilterRun& r : runs) keys += r.keys;
  return average * keys;
}

// The expected wasted reads of an absent-key lookup, with exact FP rates.
double WastedReads(Layout layout, const std::vector<FilterRun>& runs,
                   const std::vector<double>& bits) {
  double sum = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    sum += runs[i].reach * SumOfFpRates(layout, {bits[i]});
  }
  return sum;
}

// Three runs with random keys (1 to 1000) and reach (0.05 to 1).
std::vector<FilterRun> RandomRuns(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> keys(1, 1000), reach(0.05, 1);
  std::vector<FilterRun> runs(3);
  for (FilterRun& r : runs) r = {.keys = keys(rng), .reach = reach(rng)};
  return runs;
}

// The fewest wasted reads over the splits of `budget` on a grid of `grid`
// bits per key: runs 0 and 1 take j0 and j1 steps, at FP rates fp[j0] and
// fp[j1], and run 2 the rest, at third_fp(its bits per key).
template <typename ThirdFp>
double BestGridSplit(const std::vector<FilterRun>& runs, double budget,
                     double grid, const std::vector<double>& fp,
                     ThirdFp third_fp) {
  double best = std::numeric_limits<double>::infinity();
  for (size_t j0 = 0; j0 < fp.size(); ++j0) {
    for (size_t j1 = 0; j1 < fp.size(); ++j1) {
      const double left =
          budget - grid * (runs[0].keys * j0 + runs[1].keys * j1);
      if (left < 0) break;
      best = std::min(best, runs[0].reach * fp[j0] + runs[1].reach * fp[j1] +
                                runs[2].reach * third_fp(left / runs[2].keys));
    }
  }
  return best;
}

TEST_P(AllocationTest, EveryRunReachedIsMonkey) {
  const std::vector<double> shape = LeveledShape(4, 10);
  std::vector<FilterRun> runs;
  for (double n : shape) runs.push_back({.keys = n, .reach = 1});
  absl::StatusOr<std::vector<double>> general =
      AllocateBitsPerKey(GetParam(), 10, runs);
  absl::StatusOr<std::vector<double>> monkey =
      MonkeyBitsPerKey(GetParam(), 10, shape);
  ASSERT_TRUE(general.ok() && monkey.ok());
  EXPECT_EQ(*general, *monkey);
  // Only the ratios of reach matter: every run reached by half the lookups
  // is the same problem.
  for (FilterRun& r : runs) r.reach = 0.5;
  absl::StatusOr<std::vector<double>> halved =
      AllocateBitsPerKey(GetParam(), 10, runs);
  ASSERT_TRUE(halved.ok());
  for (size_t i = 0; i < shape.size(); ++i) {
    EXPECT_NEAR((*halved)[i], (*monkey)[i], 0.01) << i;
  }
}

TEST_P(AllocationTest, ARunFewerLookupsReachGetsFewerBits) {
  // Equal keys, one run reached by every lookup and one by a tenth: the
  // closed form makes the second's FP rate ten times the first's.
  const std::vector<FilterRun> runs = {{.keys = 100, .reach = 1},
                                       {.keys = 100, .reach = 0.1}};
  absl::StatusOr<std::vector<double>> bits =
      AllocateBitsPerKey(GetParam(), 10, runs);
  ASSERT_TRUE(bits.ok());
  EXPECT_GT((*bits)[0], (*bits)[1]);
  const double ratio = SumOfFpRates(GetParam(), {(*bits)[1]}) /
                       SumOfFpRates(GetParam(), {(*bits)[0]});
  EXPECT_NEAR(ratio, 10, 2.5);
}

TEST_P(AllocationTest, NoWorseThanABruteForceSearchWithPartialReach) {
  // As above, on random shapes whose runs are reached by different shares
  // of the lookups: within 1% of the best point of a 0.05-bit grid.
  constexpr double kGrid = 0.05;
  constexpr int kPoints = 601;  // 0 to 30 bits/key
  std::vector<double> fp(kPoints);
  for (int j = 0; j < kPoints; ++j) {
    const double b = j * kGrid;
    fp[j] = b < 0.25 ? (j == 0 ? 1.0 : std::numeric_limits<double>::infinity())
                     : SumOfFpRates(GetParam(), {b});
  }
  std::mt19937_64 rng(20261204);
  for (int trial = 0; trial < 10; ++trial) {
    const std::vector<FilterRun> runs = RandomRuns(rng);
    const double budget = BudgetOf(runs, 8);
    const double best =
        BestGridSplit(runs, budget, kGrid, fp, [&](double bits) {
          return fp[std::min(kPoints - 1, static_cast<int>(bits / kGrid))];
        });
    absl::StatusOr<std::vector<double>> bits =
        AllocateBitsPerKey(GetParam(), 8, runs);
    ASSERT_TRUE(bits.ok());
    EXPECT_LE(WastedReads(GetParam(), runs, *bits), best * 1.01)
        << "trial " << trial;
  }
}

TEST_P(AllocationTest, ConservesMemoryOnRandomShapes) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<FilterRun> runs = RandomRuns(rng);
    for (double average : {0.5, 10.0, 20.0}) {
      absl::StatusOr<std::vector<double>> bits =
          AllocateBitsPerKey(GetParam(), average, runs);
      ASSERT_TRUE(bits.ok());
      const double budget = BudgetOf(runs, average);
      EXPECT_NEAR(MemoryOf(runs, *bits), budget, 0.001 * budget)
          << "trial " << trial << ", " << average << " bits/key";
    }
  }
}

TEST_P(AllocationTest, EdgeShapes) {
  // One level, or every key in L0 of a deeper tree: the average there.
  for (const std::vector<FilterRun>& runs :
       {std::vector<FilterRun>{{.keys = 5000, .reach = 1}},
        std::vector<FilterRun>{{.keys = 5000, .reach = 3},
                               {.keys = 0, .reach = 0},
                               {.keys = 0, .reach = 0}}}) {
    absl::StatusOr<std::vector<double>> bits =
        AllocateBitsPerKey(GetParam(), 10, runs);
    ASSERT_TRUE(bits.ok());
    EXPECT_NEAR((*bits)[0], 10, 1e-6);
    for (size_t i = 1; i < bits->size(); ++i) EXPECT_EQ((*bits)[i], 0);
  }
  // An empty level between two others gets nothing and costs nothing.
  const std::vector<FilterRun> gap = {
      {.keys = 10, .reach = 1}, {.keys = 0, .reach = 1}, {.keys = 100}};
  absl::StatusOr<std::vector<double>> bits =
      AllocateBitsPerKey(GetParam(), 10, gap);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ((*bits)[1], 0);
  EXPECT_NEAR(MemoryOf(gap, *bits), BudgetOf(gap, 10), 0.001 * 1100);
  // Below 1 bit per key some run goes without a filter; at the maximum
  // average every run is capped at it.
  const std::vector<FilterRun> four = {{.keys = 1, .reach = 1},
                                       {.keys = 10, .reach = 1},
                                       {.keys = 100, .reach = 0.5},
                                       {.keys = 1000, .reach = 0.2}};
  bits = AllocateBitsPerKey(GetParam(), 0.5, four);
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ(bits->back(), 0);
  EXPECT_GT(bits->front(), 0);
  bits = AllocateBitsPerKey(GetParam(), kMaxBitsPerKey, four);
  ASSERT_TRUE(bits.ok());
  for (double b : *bits) EXPECT_NEAR(b, kMaxBitsPerKey, 1e-6);
}

TEST_P(AllocationTest, RunsNoLookupReaches) {
  // A run no lookup reaches gets no filter; its memory goes to the others.
  const std::vector<FilterRun> runs = {{.keys = 100, .reach = 1},
                                       {.keys = 100, .reach = 0}};
  absl::StatusOr<std::vector<double>> bits =
      AllocateBitsPerKey(GetParam(), 5, runs);
  ASSERT_TRUE(bits.ok());
  EXPECT_NEAR((*bits)[0], 10, 1e-6);
  EXPECT_EQ((*bits)[1], 0);
  // When none is reached, any split is as good: the average everywhere.
  bits = AllocateBitsPerKey(
      GetParam(), 5, {{.keys = 1, .reach = 0}, {.keys = 10, .reach = 0}});
  ASSERT_TRUE(bits.ok());
  EXPECT_EQ(*bits, (std::vector<double>{5, 5}));
}

// --- The floor any filter could reach (FewestWastedReads). ---

double Floor(double average, const std::vector<FilterRun>& runs) {
  absl::StatusOr<double> reads = FewestWastedReads(average, runs);
  EXPECT_TRUE(reads.ok()) << reads.status();
  return reads.value_or(std::numeric_limits<double>::quiet_NaN());
}

TEST(FloorTest, EqualRunsEachGetTheAverage) {
  EXPECT_NEAR(Floor(10, {{.keys = 5, .reach = 1}, {.keys = 5, .reach = 1}}),
              2 * std::exp2(-10), 1e-12);
  EXPECT_NEAR(Floor(7, {{.keys = 3, .reach = 0.5}}), 0.5 * std::exp2(-7),
              1e-12);
}

TEST(FloorTest, TwoLevelsMatchTheClosedForm) {
  // Keys 1 and 10, both reached: FP rates t and 10t, and
  // log2(1/t) + 10 log2(1/(10t)) = 11 b gives log2(t) = -b - 10 log2(10) / 11.
  const double b = 8;
  const double t = std::exp2(-b - 10 * std::log2(10.0) / 11);
  EXPECT_NEAR(Floor(b, {{.keys = 1, .reach = 1}, {.keys = 10, .reach = 1}}),
              11 * t, 1e-12);
}

TEST(FloorTest, UnreachedRunsGiveTheirMemoryAway) {
  // The unreached run's 5 bits per key go to the other: 10 bits per key.
  EXPECT_NEAR(Floor(5, {{.keys = 1, .reach = 0}, {.keys = 1, .reach = 1}}),
              std::exp2(-10), 1e-12);
  EXPECT_EQ(Floor(5, {{.keys = 1, .reach = 0}}), 0);
  // A run without keys holds nothing to match.
  EXPECT_NEAR(Floor(5, {{.keys = 0, .reach = 1}, {.keys = 1, .reach = 1}}),
              std::exp2(-5), 1e-12);
}

TEST(FloorTest, NoMemoryReadsEveryReachedRun) {
  EXPECT_EQ(Floor(0, {{.keys = 1, .reach = 0.25}, {.keys = 9, .reach = 1}}),
            1.25);
}

TEST(FloorTest, ScarceMemoryLeavesTheBigRunUnfiltered) {
  // 0.001 bits per key on average, 1.001 bits in all: the small run's first
  // bits halve its FP rate, the big run's would take 1000 bits for that, so
  // the floor spends everything on the small run.
  EXPECT_NEAR(
      Floor(0.001, {{.keys = 1, .reach = 1}, {.keys = 1000, .reach = 1}}),
      1 + std::exp2(-1.001), 1e-12);
}

TEST(FloorTest, NoWorseThanABruteForceSearch) {
  // Three random runs: every split of the budget on a 0.02-bit grid (the
  // first two runs' bits up to 32, which the optimum never passes at these
  // keys and reaches, the third's the rest) reads at least the floor, and
  // the best one no more than 1% above it.
  constexpr double kGrid = 0.02;
  constexpr int kPoints = 1601;
  std::vector<double> fp(kPoints);
  for (int j = 0; j < kPoints; ++j) fp[j] = std::exp2(-j * kGrid);
  std::mt19937_64 rng(20261206);
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<FilterRun> runs = RandomRuns(rng);
    const double budget = BudgetOf(runs, 6);
    const double floor = Floor(6, runs);
    const double best = BestGridSplit(
        runs, budget, kGrid, fp, [](double bits) { return std::exp2(-bits); });
    EXPECT_GE(best, floor * (1 - 1e-9)) << "trial " << trial;
    EXPECT_LE(best, floor * 1.01) << "trial " << trial;
  }
}

TEST_P(AllocationTest, EveryBloomAllocationReadsMoreThanTheFloor) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<FilterRun> runs = RandomRuns(rng);
    for (double average : {2.0, 6.0, 10.0, 14.0}) {
      absl::StatusOr<std::vector<double>> bits =
          AllocateBitsPerKey(GetParam(), average, runs);
      ASSERT_TRUE(bits.ok());
      EXPECT_GT(WastedReads(GetParam(), runs, *bits), Floor(average, runs))
          << "trial " << trial << ", " << average << " bits/key";
    }
  }
}

TEST(FloorTest, RejectsWhatTheAllocationRejects) {
  EXPECT_FALSE(FewestWastedReads(10, {}).ok());
  EXPECT_FALSE(FewestWastedReads(-1, {{.keys = 1, .reach = 1}}).ok());
  EXPECT_FALSE(FewestWastedReads(10, {{.keys = 1, .reach = -1}}).ok());
  EXPECT_FALSE(FewestWastedReads(10, {{.keys = 0, .reach = 1}}).ok());
}

TEST(AllocationErrorsTest, RejectsBadRuns) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(AllocateBitsPerKey(Layout::kBlocked, 10, {}).ok());
  EXPECT_FALSE(
      AllocateBitsPerKey(Layout::kBlocked, 10, {{.keys = 1, .reach = -1}})
          .ok());
  EXPECT_FALSE(
      AllocateBitsPerKey(Layout::kBlocked, 10, {{.keys = 1, .reach = nan}})
          .ok());
  EXPECT_FALSE(
      AllocateBitsPerKey(Layout::kBlocked, 10, {{.keys = 0, .reach = 1}}).ok());
}

// Memory in whole 64-byte steps of a parameter, as a filter of 1,000 keys
// in 512-bit lines takes: the bisection closes on the step nearest the
// target, from whichever side is nearer.
TEST(ParameterForMemoryTest, FindsTheNearerStep) {
  const MemoryAtParameter lines = [](double bits_per_key) {
    return absl::StatusOr<double>(std::ceil(bits_per_key * 1000 / 512) * 512);
  };
  // 10,240 bits (20 lines) up to 10.240 bits/key, 10,752 from there.
  // 10,300 is nearer the lower step: the highest parameter below 10.240.
  absl::StatusOr<double> p = ParameterForMemory(10300, 1, 40, 1e-6, lines);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*lines(*p), 10240);
  EXPECT_NEAR(*p, 10.240, 1e-6);
  // 10,700 is nearer the upper: the lowest parameter that reaches it.
  p = ParameterForMemory(10700, 1, 40, 1e-6, lines);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*lines(*p), 10752);
  EXPECT_NEAR(*p, 10.240, 1e-6);
  // Beyond the range: the nearer bound.
  p = ParameterForMemory(1e9, 1, 40, 1e-6, lines);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, 40);
}

TEST(ParameterForMemoryTest, ReturnsTheMemorysError) {
  const MemoryAtParameter failing = [](double) -> absl::StatusOr<double> {
    return absl::InternalError("cannot build");
  };
  EXPECT_EQ(ParameterForMemory(100, 1, 40, 1e-3, failing).status().code(),
            absl::StatusCode::kInternal);
}

}  // namespace
}  // namespace bloomgate
