// Copyright 2026 The bloomgate Authors.
//
// AllocateByCost: a filter family and bits per key per run, by the expected
// time of an absent-key lookup. Every bound below follows from the model's
// formulas; nothing is timed.

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bloomgate/allocation.h"
#include "bloomgate/sizing.h"
#include "gtest/gtest.h"

namespace bloomgate {
namespace {

constexpr FamilyCost kBlockedFamily = {.family = FilterFamily::kBloomgate,
                                       .layout = Layout::kBlocked,
                                       .probe_micros = 0.010};
constexpr FamilyCost kStandardFamily = {.family = FilterFamily::kBloomgate,
                                        .layout = Layout::kStandard,
                                        .probe_micros = 0.023};
constexpr FamilyCost kRocksDBBloomFamily = {
    .family = FilterFamily::kRocksDBBloom, .probe_micros = 0.019};
constexpr FamilyCost kRibbonFamily = {.family = FilterFamily::kRocksDBRibbon,
                                      .probe_micros = 0.034};

// The exact FP rate of `family` at `bits` bits per key of memory.
double Fp(const FamilyCost& family, double bits) {
  if (bits <= 0) return 1.0;
  if (family.family == FilterFamily::kRocksDBRibbon) {
    return PredictedRibbonFpRate(bits);
  }
  const Layout layout = family.family == FilterFamily::kBloomgate
                            ? family.layout
                            : Layout::kBlocked;
  return PredictedFpRate(layout, bits, OptimalNumProbes(layout, bits));
}

double Memory(const std::vector<FilterRun>& runs,
              const std::vector<RunFilter>& filters) {
  double memory = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    memory += runs[i].keys * filters[i].bits_per_key;
  }
  return memory;
}

double Budget(const std::vector<FilterRun>& runs, double average) {
  double keys = 0;
  for (const FilterRun& run : runs) keys += run.keys;
  return average * keys;
}

std::vector<FilterRun> LeveledRuns(int levels) {
  std::vector<FilterRun> runs;
  for (double n : LeveledShape(levels, 10)) {
    runs.push_back({.keys = n, .reach = 1});
  }
  return runs;
}

// `count` runs with random keys (1 to 1000) and reach (0.05 to 1).
std::vector<FilterRun> RandomRuns(std::mt19937_64& rng, int count) {
  std::uniform_real_distribution<double> keys(1, 1000), reach(0.05, 1);
  std::vector<FilterRun> runs(count);
  for (FilterRun& r : runs) r = {.keys = keys(rng), .reach = reach(rng)};
  return runs;
}

std::vector<RunFilter> Allocate(const LookupCostModel& model, double average,
                                const std::vector<FilterRun>& runs) {
  absl::StatusOr<std::vector<RunFilter>> filters =
      AllocateByCost(model, average, runs);
  EXPECT_TRUE(filters.ok()) << filters.status();
  return filters.ok() ? *filters : std::vector<RunFilter>(runs.size());
}

TEST(PredictedRibbonFpRateTest, MatchesRocksDBsMeasurements) {
  // RocksDB's Ribbon filters of 20,000 keys, 2^20 absent keys probed
  // (bloomgate_rocksdb_tests
  // --gtest_filter=CostInputsTest.TheOverheadPredictsRocksDBsRibbonFilters
  // prints them; RocksDB 7.8.3): 9.47 bits/key of actual memory, FP 0.180%;
  // 6.99 bits/key, 0.950%.
  EXPECT_NEAR(PredictedRibbonFpRate(9.474), 0.00180, 0.00180 * 0.05);
  EXPECT_NEAR(PredictedRibbonFpRate(6.9908), 0.00950, 0.00950 * 0.05);
  // Each 1 + kRibbonSlotOverhead bits per key is one more result column,
  // which halves the FP rate.
  EXPECT_DOUBLE_EQ(PredictedRibbonFpRate(5.0) /
                       PredictedRibbonFpRate(5.0 + 1 + kRibbonSlotOverhead),
                   2.0);
  // Less memory than a Bloom filter for the same FP rate (RocksDB sizes
  // Ribbon about 30% smaller than Bloom).
  EXPECT_LT(PredictedRibbonFpRate(7.0),
            PredictedFpRate(Layout::kBlocked, 7.0,
                            OptimalNumProbes(Layout::kBlocked, 7.0)));
  EXPECT_EQ(PredictedRibbonFpRate(0), 1.0);
  EXPECT_EQ(PredictedRibbonFpRate(-3), 1.0);
  EXPECT_TRUE(std::isnan(
      PredictedRibbonFpRate(std::numeric_limits<double>::quiet_NaN())));
}

TEST(AllocateByCostTest, OneBloomFamilyIsAllocateBitsPerKey) {
  std::mt19937_64 rng(20261207);
  std::vector<std::vector<FilterRun>> shapes = {LeveledRuns(5)};
  for (int i = 0; i < 5; ++i) shapes.push_back(RandomRuns(rng, 4));
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    for (const std::vector<FilterRun>& runs : shapes) {
      for (double average : {0.5, 2.0, 10.0}) {
        absl::StatusOr<std::vector<double>> bits =
            AllocateBitsPerKey(layout, average, runs);
        ASSERT_TRUE(bits.ok()) << bits.status();
        // A free probe in units of one read: the same problem exactly.
        const LookupCostModel free_probe = {
            .families = {{.family = FilterFamily::kBloomgate,
                          .layout = layout,
                          .probe_micros = 0}},
            .read_micros = 1};
        const std::vector<RunFilter> filters =
            Allocate(free_probe, average, runs);
        for (size_t i = 0; i < runs.size(); ++i) {
          EXPECT_EQ(filters[i].bits_per_key, (*bits)[i]) << i;
          EXPECT_EQ(filters[i].family, (*bits)[i] > 0 ? FilterFamily::kBloomgate
                                                      : FilterFamily::kNone);
          if ((*bits)[i] > 0) {
            EXPECT_EQ(filters[i].layout, layout);
          }
        }
        // A probe of 0.01 us against a 100 us read only matters where a
        // filter is worth almost nothing; at these budgets, nowhere.
        if (average < 2) continue;
        const LookupCostModel device = {
            .families = {{.family = FilterFamily::kBloomgate,
                          .layout = layout,
                          .probe_micros = kDefaultBloomgateProbeMicros}},
            .read_micros = kDefaultDeviceReadMicros};
        const std::vector<RunFilter> priced = Allocate(device, average, runs);
        for (size_t i = 0; i < runs.size(); ++i) {
          EXPECT_NEAR(priced[i].bits_per_key, (*bits)[i], 0.01) << i;
        }
      }
    }
  }
}

// The lowest T over every allocation of a 0.25-bit grid (up to 40 bits per
// key) that fits the budget, each run with any family or none.
double BruteForceMicros(const LookupCostModel& model, double average,
                        const std::vector<FilterRun>& runs) {
  constexpr double kGrid = 0.25;
  constexpr int kPoints = 160;  // 0.25 to 40 bits per key
  struct Option {
    double bits;
    double micros_per_reach;  // probe + fp * read
  };
  // Option 0 is no filter; then every family at every grid point.
  std::vector<Option> options = {{0, model.read_micros}};
  for (const FamilyCost& family : model.families) {
    for (int j = 1; j <= kPoints; ++j) {
      options.push_back(
          {j * kGrid,
           family.probe_micros + Fp(family, j * kGrid) * model.read_micros});
    }
  }
  const double budget = Budget(runs, average);
  // The last run takes, in each family, the most bits the others leave it:
  // for a given family more bits always cost less.
  auto best_last = [&](double left) {
    const FilterRun& last = runs.back();
    double best = last.reach * model.read_micros;
    const int j = std::min<int>(kPoints, left / (last.keys * kGrid) + 1e-9);
    if (j < 1) return best;
    for (size_t f = 0; f < model.families.size(); ++f) {
      best = std::min(
          best, last.reach * options[1 + f * kPoints + j - 1].micros_per_reach);
    }
    return best;
  };
  double best = std::numeric_limits<double>::infinity();
  if (runs.size() == 2) {
    for (const Option& a : options) {
      const double left = budget - runs[0].keys * a.bits;
      if (left < 0) continue;
      best =
          std::min(best, runs[0].reach * a.micros_per_reach + best_last(left));
    }
    return best;
  }
  for (const Option& a : options) {
    for (const Option& b : options) {
      const double left =
          budget - runs[0].keys * a.bits - runs[1].keys * b.bits;
      if (left < 0) continue;
      best = std::min(best, runs[0].reach * a.micros_per_reach +
                                runs[1].reach * b.micros_per_reach +
                                best_last(left));
    }
  }
  return best;
}

TEST(AllocateByCostTest, NoWorseThanABruteForceSearch) {
  std::mt19937_64 rng(20261208);
  const std::vector<LookupCostModel> models = {
      {.families = {kBlockedFamily, kRibbonFamily}, .read_micros = 100},
      {.families = {kBlockedFamily, kRibbonFamily}, .read_micros = 2},
      {.families = {kStandardFamily, kRocksDBBloomFamily, kRibbonFamily},
       .read_micros = 20},
      {.families = {kBlockedFamily, kRibbonFamily}, .read_micros = 0.5},
  };
  int trial = 0;
  for (int num_runs : {2, 3}) {
    for (const LookupCostModel& model : models) {
      for (double average : {2.0, 8.0}) {
        const std::vector<FilterRun> runs = RandomRuns(rng, num_runs);
        const std::vector<RunFilter> filters = Allocate(model, average, runs);
        const double best = BruteForceMicros(model, average, runs);
        EXPECT_LE(ExpectedLookupMicros(model, runs, filters), best * 1.01)
            << "trial " << trial << ": " << num_runs << " runs, read "
            << model.read_micros << " us, " << average << " bits/key";
        EXPECT_LE(Memory(runs, filters), Budget(runs, average) * 1.001);
        ++trial;
      }
    }
  }
}

TEST(AllocateByCostTest, SpendsTheBudget) {
  // With device reads every filter bit saves more than it costs, so the
  // whole budget is spent.
  std::mt19937_64 rng(7);
  const LookupCostModel model = {.families = {kBlockedFamily, kRibbonFamily},
                                 .read_micros = kDefaultDeviceReadMicros};
  for (int trial = 0; trial < 10; ++trial) {
    const std::vector<FilterRun> runs = RandomRuns(rng, 3 + trial % 3);
    for (double average : {0.5, 5.0, 10.0, 20.0}) {
      const std::vector<RunFilter> filters = Allocate(model, average, runs);
      const double budget = Budget(runs, average);
      EXPECT_NEAR(Memory(runs, filters), budget, 0.001 * budget)
          << "trial " << trial << ", " << average << " bits/key";
      for (const RunFilter& f : filters) {
        EXPECT_TRUE(f.family == FilterFamily::kNone
                        ? f.bits_per_key == 0
                        : f.bits_per_key >= 0.25 &&
                              f.bits_per_key <= kMaxBitsPerKey)
            << f.bits_per_key;
      }
    }
  }
}

TEST(AllocateByCostTest, DeviceReadsPutRibbonOnTheLargestLevel) {
  // Four levels, fanout 10, 10 bits/key, 100 us reads. The last level holds
  // 1000 of 1111 keys, so it can have at most 11.11 bits per key; a Bloom
  // filter there leaves T >= 100 us * fp_bloom(11.11) (about 0.5 us).
  const std::vector<FilterRun> runs = LeveledRuns(4);
  const LookupCostModel model = {.families = {kBlockedFamily, kRibbonFamily},
                                 .read_micros = 100};
  const double most_bits = Budget(runs, 10) / runs.back().keys;
  const double bloom_last_floor =
      model.read_micros * Fp(kBlockedFamily, most_bits);
  // Ribbon everywhere, 14 bits per key on the upper levels and the rest on
  // the last, is within budget and cheaper than that floor: so the best
  // allocation cannot put Bloom on the last level.
  const double last_bits = (Budget(runs, 10) - 111 * 14) / 1000;
  const std::vector<RunFilter> ribbon_everywhere = {
      {.family = FilterFamily::kRocksDBRibbon, .bits_per_key = 14},
      {.family = FilterFamily::kRocksDBRibbon, .bits_per_key = 14},
      {.family = FilterFamily::kRocksDBRibbon, .bits_per_key = 14},
      {.family = FilterFamily::kRocksDBRibbon, .bits_per_key = last_bits}};
  const double witness = ExpectedLookupMicros(model, runs, ribbon_everywhere);
  ASSERT_LT(witness, bloom_last_floor);

  const std::vector<RunFilter> filters = Allocate(model, 10, runs);
  const double micros = ExpectedLookupMicros(model, runs, filters);
  EXPECT_LE(micros, witness);
  EXPECT_EQ(filters.back().family, FilterFamily::kRocksDBRibbon);
  // And no worse than either family alone.
  for (const FamilyCost& only : {kBlockedFamily, kRibbonFamily}) {
    const LookupCostModel one = {.families = {only}, .read_micros = 100};
    EXPECT_LE(
        micros,
        ExpectedLookupMicros(model, runs, Allocate(one, 10, runs)) * 1.001);
  }
  EXPECT_NEAR(Memory(runs, filters), Budget(runs, 10), 0.001 * 11110);
}

TEST(AllocateByCostTest, CachedReadsKeepBloom) {
  // 1 us reads, a Ribbon probe 4x a Bloom probe: 0.03 us more per probe.
  const std::vector<FilterRun> runs = LeveledRuns(4);
  const FamilyCost bloom = {.family = FilterFamily::kBloomgate,
                            .probe_micros = 0.010};
  const FamilyCost ribbon = {.family = FilterFamily::kRocksDBRibbon,
                             .probe_micros = 0.040};
  const LookupCostModel model = {.families = {bloom, ribbon}, .read_micros = 1};
  const LookupCostModel bloom_only = {.families = {bloom}, .read_micros = 1};
  const std::vector<RunFilter> filters = Allocate(model, 10, runs);
  const std::vector<RunFilter> bloom_filters = Allocate(bloom_only, 10, runs);
  EXPECT_LE(ExpectedLookupMicros(model, runs, filters),
            ExpectedLookupMicros(model, runs, bloom_filters) * (1 + 1e-9));
  for (size_t i = 0; i < runs.size(); ++i) {
    // Ribbon at the same memory would save at most fp_bloom(b) * read of
    // FP time (its own FP is not negative), less than its extra probe: so
    // Bloom is the better family for every run at these bits.
    ASSERT_EQ(filters[i].family, FilterFamily::kBloomgate) << i;
    EXPECT_LT(Fp(bloom, filters[i].bits_per_key) * model.read_micros,
              ribbon.probe_micros - bloom.probe_micros)
        << i;
  }
}

TEST(AllocateByCostTest, FiguresOfTheDocs) {
  // docs/monkey-allocation.md, "Mixed families, chosen by cost": five
  // levels, fanout 10, 10 bits/key, the default probe costs.
  const std::vector<FilterRun> runs = LeveledRuns(5);
  const FamilyCost bloom = {.family = FilterFamily::kBloomgate,
                            .probe_micros = kDefaultBloomgateProbeMicros};
  const FamilyCost ribbon = {.family = FilterFamily::kRocksDBRibbon,
                             .probe_micros = kDefaultRocksDBRibbonProbeMicros};
  struct Row {
    double read_micros;
    std::vector<FamilyCost> families;
    double micros;
    std::vector<FilterFamily> chosen;
  };
  const FilterFamily b = FilterFamily::kBloomgate;
  const FilterFamily r = FilterFamily::kRocksDBRibbon;
  const std::vector<Row> rows = {
      {100, {bloom}, 1.4509, {b, b, b, b, b}},
      {100, {ribbon}, 0.3529, {r, r, r, r, r}},
      {100, {bloom, ribbon}, 0.2947, {b, b, b, r, r}},
      {2, {bloom}, 0.0780, {b, b, b, b, b}},
      {2, {ribbon}, 0.1737, {r, r, r, r, r}},
      {2, {bloom, ribbon}, 0.0780, {b, b, b, b, b}},
  };
  for (const Row& row : rows) {
    const LookupCostModel model = {.families = row.families,
                                   .read_micros = row.read_micros};
    const std::vector<RunFilter> filters = Allocate(model, 10, runs);
    EXPECT_NEAR(ExpectedLookupMicros(model, runs, filters), row.micros,
                0.002 * row.micros)
        << row.read_micros << " us, " << row.families.size() << " families";
    for (size_t i = 0; i < runs.size(); ++i) {
      EXPECT_EQ(filters[i].family, row.chosen[i]) << i;
    }
  }
}

TEST(AllocateByCostTest, NoFamilyReadsBelowTheFloor) {
  // Free probes and one read per false positive: the model's time is the
  // wasted reads, which for every family (Ribbon, the closest to the
  // information-theoretic floor, included) stays above FewestWastedReads.
  std::mt19937_64 rng(20261206);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<FilterRun> runs = RandomRuns(rng, 4);
    for (FamilyCost family :
         {kBlockedFamily, kRocksDBBloomFamily, kRibbonFamily}) {
      family.probe_micros = 0;
      const LookupCostModel model = {.families = {family}, .read_micros = 1};
      for (double average : {2.0, 10.0, 20.0}) {
        const absl::StatusOr<double> floor = FewestWastedReads(average, runs);
        ASSERT_TRUE(floor.ok());
        EXPECT_GT(
            ExpectedLookupMicros(model, runs, Allocate(model, average, runs)),
            *floor)
            << "trial " << trial << ", " << average << " bits/key";
      }
    }
  }
}

TEST(AllocateByCostTest, RibbonsBestIsTheFloorAtItsOverhead) {
  // docs/monkey-allocation.md, "The floor": a family whose curve is
  // 2^(-b / s) reaches at best the floor at B / s bits per key, so
  // level-aware Ribbon reads 2^(B (1 - 1/1.04)) times the floor, 1.31x at
  // 10 bits/key, when every run keeps a filter.
  FamilyCost ribbon = kRibbonFamily;
  ribbon.probe_micros = 0;
  const LookupCostModel model = {.families = {ribbon}, .read_micros = 1};
  for (int levels : {3, 5}) {
    const std::vector<FilterRun> runs = LeveledRuns(levels);
    const absl::StatusOr<double> floor = FewestWastedReads(10, runs);
    ASSERT_TRUE(floor.ok());
    EXPECT_NEAR(
        ExpectedLookupMicros(model, runs, Allocate(model, 10, runs)) / *floor,
        std::exp2(10 * (1 - 1 / (1 + kRibbonSlotOverhead))), 0.01)
        << levels << " levels";
  }
}

TEST(AllocateByCostTest, SlowProbesAndFreeReadsMeanNoFilter) {
  const std::vector<FilterRun> runs = LeveledRuns(3);
  // A read that costs nothing is not worth any probe.
  LookupCostModel model = {.families = {kBlockedFamily}, .read_micros = 0};
  for (const RunFilter& f : Allocate(model, 10, runs)) {
    EXPECT_EQ(f, RunFilter{});
  }
  // A probe slower than the read it saves neither: the budget stays unspent.
  model = {
      .families = {{.family = FilterFamily::kBloomgate, .probe_micros = 5}},
      .read_micros = 2};
  const std::vector<RunFilter> filters = Allocate(model, 10, runs);
  for (const RunFilter& f : filters) EXPECT_EQ(f, RunFilter{});
  EXPECT_DOUBLE_EQ(ExpectedLookupMicros(model, runs, filters), 3 * 2.0);
}

TEST(AllocateByCostTest, EdgeShapes) {
  const LookupCostModel model = {.families = {kRibbonFamily, kBlockedFamily},
                                 .read_micros = 100};
  // Runs without keys, or that no lookup reaches, get no filter.
  const std::vector<FilterRun> runs = {{.keys = 100, .reach = 1},
                                       {.keys = 0, .reach = 1},
                                       {.keys = 100, .reach = 0}};
  std::vector<RunFilter> filters = Allocate(model, 5, runs);
  EXPECT_NE(filters[0].family, FilterFamily::kNone);
  EXPECT_NEAR(filters[0].bits_per_key, 10, 1e-6);
  EXPECT_EQ(filters[1], RunFilter{});
  EXPECT_EQ(filters[2], RunFilter{});
  // When no run is reached, any split is as good: the average, in the
  // family with the cheapest probe.
  filters =
      Allocate(model, 5, {{.keys = 1, .reach = 0}, {.keys = 10, .reach = 0}});
  for (const RunFilter& f : filters) {
    EXPECT_EQ(
        f, (RunFilter{.family = FilterFamily::kBloomgate, .bits_per_key = 5}));
  }
  // RocksDB's Bloom is reported with its (blocked) layout, whatever the
  // entry said.
  const LookupCostModel rocksdb = {
      .families = {{.family = FilterFamily::kRocksDBBloom,
                    .layout = Layout::kStandard,
                    .probe_micros = 0.019}},
      .read_micros = 100};
  filters = Allocate(rocksdb, 10, LeveledRuns(2));
  for (const RunFilter& f : filters) {
    EXPECT_EQ(f.family, FilterFamily::kRocksDBBloom);
    EXPECT_EQ(f.layout, Layout::kBlocked);
  }
}

// Ribbon's overhead is the model's: the curve, the allocation and the
// model's time all take it from LookupCostModel, and more of it makes Ribbon
// worth less.
TEST(AllocateByCostTest, RibbonsOverheadIsTheModels) {
  const std::vector<FilterRun> runs = LeveledRuns(4);
  LookupCostModel model = {.families = {kRibbonFamily}, .read_micros = 100};
  const std::vector<RunFilter> filters = Allocate(model, 10, runs);
  for (double overhead : {0.0, kRibbonSlotOverhead, 0.07, 0.5}) {
    model.ribbon_overhead = overhead;
    double expected = 0;
    for (size_t i = 0; i < runs.size(); ++i) {
      expected +=
          runs[i].reach *
          (kRibbonFamily.probe_micros +
           PredictedRibbonFpRate(filters[i].bits_per_key, overhead) * 100);
    }
    EXPECT_DOUBLE_EQ(ExpectedLookupMicros(model, runs, filters), expected);
  }
  EXPECT_EQ(PredictedRibbonFpRate(7), PredictedRibbonFpRate(7, 0.04));
  EXPECT_LT(PredictedRibbonFpRate(7, 0.025), PredictedRibbonFpRate(7, 0.07));
  // With both families, a Ribbon as costly in memory as a Bloom filter
  // (overhead 0.5) loses the last level to the Bloom family it outprobes.
  model.families = {kBlockedFamily, kRibbonFamily};
  model.ribbon_overhead = kRibbonSlotOverhead;
  EXPECT_EQ(Allocate(model, 10, runs).back().family,
            FilterFamily::kRocksDBRibbon);
  model.ribbon_overhead = 0.5;
  EXPECT_EQ(Allocate(model, 10, runs).back().family, FilterFamily::kBloomgate);
}

TEST(ExpectedLookupMicrosTest, IsTheModel) {
  const LookupCostModel model = {.families = {kBlockedFamily, kRibbonFamily},
                                 .read_micros = 50};
  const std::vector<FilterRun> runs = {{.keys = 10, .reach = 0.5},
                                       {.keys = 100, .reach = 1}};
  const std::vector<RunFilter> filters = {
      {}, {.family = FilterFamily::kRocksDBRibbon, .bits_per_key = 7}};
  EXPECT_DOUBLE_EQ(ExpectedLookupMicros(model, runs, filters),
                   0.5 * 50 + 1 * (0.034 + PredictedRibbonFpRate(7) * 50));
  // Sizes that differ, or a family the model does not price: NaN.
  EXPECT_TRUE(std::isnan(ExpectedLookupMicros(model, runs, {filters[0]})));
  const std::vector<RunFilter> standard = {{},
                                           {.family = FilterFamily::kBloomgate,
                                            .layout = Layout::kStandard,
                                            .bits_per_key = 7}};
  EXPECT_TRUE(std::isnan(ExpectedLookupMicros(model, runs, standard)));
}

// InvalidArgument whose message names `field`.
void ExpectInvalid(const absl::StatusOr<std::vector<RunFilter>>& result,
                   const std::string& field) {
  ASSERT_FALSE(result.ok()) << field;
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(result.status().message().find(field), std::string::npos)
      << result.status();
}

TEST(AllocateByCostTest, RejectsBadArguments) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<FilterRun> runs = LeveledRuns(3);
  const LookupCostModel good = {.families = {kBlockedFamily},
                                .read_micros = 100};
  ExpectInvalid(AllocateByCost({.families = {}, .read_micros = 100}, 10, runs),
                "families");
  ExpectInvalid(
      AllocateByCost({.families = {{.family = FilterFamily::kNone}}}, 10, runs),
      "families[0].family");
  ExpectInvalid(
      AllocateByCost({.families = {kBlockedFamily,
                                   {.family = static_cast<FilterFamily>(9)}}},
                     10, runs),
      "families[1].family");
  ExpectInvalid(
      AllocateByCost({.families = {{.layout = static_cast<Layout>(7)}}}, 10,
                     runs),
      "families[0].layout");
  for (double bad : {-0.01, nan, inf}) {
    ExpectInvalid(
        AllocateByCost({.families = {kBlockedFamily, {.probe_micros = bad}}},
                       10, runs),
        "families[1].probe_micros");
    ExpectInvalid(
        AllocateByCost({.families = {kBlockedFamily}, .read_micros = bad}, 10,
                       runs),
        "read_micros");
    ExpectInvalid(AllocateByCost({.families = {kBlockedFamily},
                                  .read_micros = 100,
                                  .ribbon_overhead = bad},
                                 10, runs),
                  "ribbon_overhead");
  }
  for (double bad : {-1.0, kMaxBitsPerKey + 1, nan}) {
    ExpectInvalid(AllocateByCost(good, bad, runs), "average bits per key");
  }
  ExpectInvalid(AllocateByCost(good, 10, {}), "LSM shape");
  ExpectInvalid(AllocateByCost(good, 10, {{.keys = 0, .reach = 1}}), "no keys");
  ExpectInvalid(AllocateByCost(good, 10, {{.keys = -1}}), "key counts");
  ExpectInvalid(AllocateByCost(good, 10, {{.keys = 1, .reach = nan}}), "reach");
}

}  // namespace
}  // namespace bloomgate
