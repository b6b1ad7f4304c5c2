// Copyright 2026 The bloomgate Authors.
//
// bloomgate_bench's Monkey comparison (--filter=bloomgate_monkey against
// bloomgate at the same filter memory), on both engines, at small scale with
// fixed seeds: the names parse, filllevels builds the tree the allocation
// assumes, each level's filters have that level's budget, reads stay
// correct, the uniform run gets the monkey run's memory within 1%, and
// monkey reads less per missing key, each count within a binomial bound of
// what the files' filters predict.

#include "tools/bench/monkey.h"

#include <cmath>
#include <string>
#include <vector>

#include "bloomgate/allocation.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"
#include "gtest/gtest.h"
#include "tests/testing/fp_bounds.h"
#include "tests/testing/temp_dir.h"
#include "tests/tools/bench/run_captured.h"
#include "tools/bench/bench_options.h"
#include "tools/bench/engine.h"
#include "tools/bench/results.h"
#include "tools/bench/runner.h"

namespace bloomgate::bench {
namespace {

using enum BenchmarkKind;

TEST(MonkeyOptionsTest, ParsesTheFilterAndTheFill) {
  absl::StatusOr<std::vector<FilterArg>> monkey =
      ParseFilterList("bloomgate_monkey");
  ASSERT_TRUE(monkey.ok());
  ASSERT_EQ(monkey->size(), 1u);
  EXPECT_FALSE(monkey->front().own_parameter);
  const FilterSpec kMonkey = monkey->front().spec;
  EXPECT_TRUE(kMonkey.monkey);
  EXPECT_EQ(kMonkey.layout, Layout::kBlocked);
  EXPECT_EQ(kMonkey.KindName(), "bloomgate_monkey");
  EXPECT_TRUE(kMonkey.SameKind(kMonkeyKind));
  ASSERT_TRUE(ParseBenchmark("filllevels").ok());
  EXPECT_TRUE(IsFillBenchmark(BenchmarkKind::kFillLevels));
  EXPECT_FALSE(ParseFilterList("monkey").ok());
  EXPECT_FALSE(ParseFilterList("bloomgate_monkey,bloomgate_monky").ok());
  EXPECT_TRUE(EngineSupports(EngineKind::kLsm, kMonkey));
  EXPECT_TRUE(EngineSupports(EngineKind::kRocksDB, kMonkey));

  BenchOptions o;
  o.benchmarks = {BenchmarkKind::kFillLevels, BenchmarkKind::kReadMissing};
  o.engines = {EngineKind::kLsm};
  o.filters = {{.spec = kMonkey}};
  o.num = 1111;
  o.engine.num_levels = 4;
  EXPECT_TRUE(ValidateBenchOptions(o).ok());
  o.num = 1110;  // 1 + 10 + 100 + 1000: one key short of a key in L0
  EXPECT_FALSE(ValidateBenchOptions(o).ok());
  o.num = 1111;
  o.engine.disable_auto_compactions =
      false;  // compactions would reshape the tree
  EXPECT_FALSE(ValidateBenchOptions(o).ok());
}

TEST(MonkeyOptionsTest, FillLevelsShape) {
  absl::StatusOr<std::vector<int64_t>> weights = LevelWeights(3, 10, 111);
  ASSERT_TRUE(weights.ok());
  EXPECT_EQ(*weights, (std::vector<int64_t>{1, 10, 100}));
  std::vector<int> count(3, 0);
  for (int64_t i = 0; i < 1110; ++i) ++count[LevelOfKey(i, *weights)];
  EXPECT_EQ(count, (std::vector<int>{10, 100, 1000}));
  EXPECT_FALSE(LevelWeights(20, 1000, 1 << 30).ok());  // 1000^19 keys
}

// filllevels writes the tree the allocation assumes, whatever the fanout:
// its weights are LeveledShape's proportions, not rounded powers.
TEST(MonkeyOptionsTest, FillLevelsShapeIsLeveledShapeForAnyFanout) {
  for (double fanout : {10.0, 2.5, 1.5, 6.4}) {
    absl::StatusOr<std::vector<int64_t>> weights =
        LevelWeights(4, fanout, 1000000);
    ASSERT_TRUE(weights.ok()) << fanout;
    const std::vector<double> shape = LeveledShape(4, fanout);
    ASSERT_EQ(weights->size(), shape.size());
    for (size_t level = 0; level < shape.size(); ++level) {
      EXPECT_DOUBLE_EQ(static_cast<double>((*weights)[level]) /
                           static_cast<double>((*weights)[0]),
                       shape[level] / shape[0])
          << "fanout " << fanout << " L" << level;
    }
  }
  // A fanout no power of ten makes whole: as close as `num` allows.
  absl::StatusOr<std::vector<int64_t>> weights =
      LevelWeights(3, 10.0 / 3, 1000000);
  ASSERT_TRUE(weights.ok());
  const std::vector<double> shape = LeveledShape(3, 10.0 / 3);
  for (size_t level = 0; level < shape.size(); ++level) {
    EXPECT_NEAR(static_cast<double>((*weights)[level]) /
                    static_cast<double>((*weights)[0]),
                shape[level], 1e-3 * shape[level]);
  }
}

class MonkeyTest : public ::testing::TestWithParam<EngineKind> {
 protected:
  // RunAll, as the tool does it, on the parameter's engine.
  std::vector<BenchResult> Run(BenchOptions o) {
    o.engines = {GetParam()};
    o.db = dir_.path();
    o.progress = false;
    o.seed = 11;
    return RunCaptured(
        o, [](Runner& runner) { return runner.RunAll(); }, &output_);
  }

  test_support::TempDir dir_{"bloomgate_bench_monkey"};
  std::string output_;
};

const BenchResult* Find(const std::vector<BenchResult>& results,
                        const FilterSpec& kind, BenchmarkKind benchmark) {
  for (const BenchResult& r : results) {
    if (r.filter.SameKind(kind) && r.benchmark == benchmark) return &r;
  }
  return nullptr;
}

// Bounds on the reads of `misses` lookups whose expected reads per lookup
// are `per_miss`: each lookup checks one filter per level, independent
// Bernoulli trials (tests/testing/fp_bounds.h).
double UpperBound(double per_miss, double misses) {
  return ::bloomgate::testing::FpSumUpperBound(per_miss * misses);
}
double LowerBound(double per_miss, double misses) {
  return ::bloomgate::testing::FpSumLowerBound(per_miss * misses);
}

// Level-aware against uniform filters at equal memory, on a 3-level tree of the
// model's shape (300 : 3,000 : 30,000 keys), 10 bits/key on average, fanout 10.
TEST_P(MonkeyTest, FewerReadsThanUniformAtEqualMemoryOnAThreeLevelTree) {
  BenchOptions o;
  o.benchmarks = {BenchmarkKind::kFillLevels, BenchmarkKind::kReadMissing,
                  BenchmarkKind::kReadRandom};
  o.filters = *ParseFilterList("bloomgate,bloomgate_monkey");
  o.memory_reference = "bloomgate_monkey";
  o.num = 111 * 300;
  o.reads = 30000;
  o.engine.num_levels = 3;
  o.engine.write_buffer_size = 1 << 20;
  o.engine.target_file_size_base = 1 << 20;
  std::vector<BenchResult> results = Run(o);

  // Monkey ran first (its memory sets the uniform run's, --memory_reference),
  // whatever the flag order.
  ASSERT_EQ(results.size(), 6u) << output_;
  EXPECT_EQ(results[0].filter.KindName(), "bloomgate_monkey");
  const BenchResult* monkey_fill = Find(results, kMonkeyKind, kFillLevels);
  const BenchResult* uniform_fill = Find(results, kUniformKind, kFillLevels);
  const BenchResult* monkey = Find(results, kMonkeyKind, kReadMissing);
  const BenchResult* uniform = Find(results, kUniformKind, kReadMissing);
  ASSERT_TRUE(monkey_fill && uniform_fill && monkey && uniform) << output_;

  // The tree: one run per level, in the proportions 1 : 10 : 100.
  for (const BenchResult* r : {monkey_fill, uniform_fill}) {
    EXPECT_EQ(r->keys_per_level, (std::vector<int64_t>{300, 3000, 30000}))
        << output_;
  }
  // Each level's filters have that level's budget: at least its bits, plus
  // at most one 1-key block per file (a cache line and the header: the
  // rounding of each file's block). The uniform run's take the memory they
  // were given, Monkey's, within the table's mark.
  absl::StatusOr<std::vector<double>> allocation =
      FilterSpec{.bits_per_key = 10, .monkey = true, .fanout = 10}
          .LevelBitsPerKey(3);
  ASSERT_TRUE(allocation.ok());
  ASSERT_EQ(monkey_fill->bits_per_key_per_level.size(), 3u);
  auto expect_budget = [&](const BenchResult& r, int level, double budget) {
    absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(
        FilterOptions{.bits_per_key = budget, .layout = Layout::kBlocked});
    ASSERT_TRUE(builder.ok());
    const double keys = static_cast<double>(r.keys_per_level[level]);
    const double slack = 8.0 * static_cast<double>(builder->BlockSize(1)) *
                         r.files_per_level[level] / keys;
    const double measured = r.bits_per_key_per_level[level];
    EXPECT_GE(measured, budget) << r.filter.KindName() << " L" << level << "\n"
                                << output_;
    EXPECT_LE(measured, budget + slack)
        << r.filter.KindName() << " L" << level << "\n"
        << output_;
  };
  for (int level = 0; level < 3; ++level) {
    expect_budget(*monkey_fill, level, (*allocation)[level]);
  }
  EXPECT_EQ(uniform->bloom_bits, monkey->bits_per_key);
  EXPECT_NEAR(uniform_fill->bits_per_key, uniform->bloom_bits,
              uniform->bloom_bits * kOffMemoryMarkFraction)
      << output_;
  EXPECT_GT(monkey_fill->bits_per_key_per_level[0],
            monkey_fill->bits_per_key_per_level[1] + 3);
  EXPECT_GT(monkey_fill->bits_per_key_per_level[1],
            monkey_fill->bits_per_key_per_level[2] + 3);

  // Memory: both reported, and equal within the table's mark.
  EXPECT_NE(uniform->bloom_bits, 10.0) << "not matched to monkey's memory";
  ASSERT_GT(monkey->filter_bytes, 0u);
  ASSERT_GT(uniform->filter_bytes, 0u);
  EXPECT_NEAR(static_cast<double>(monkey->filter_bytes) /
                  static_cast<double>(uniform->filter_bytes),
              1.0, kOffMemoryMarkFraction)
      << output_;

  // Reads stay correct.
  for (const FilterSpec& kind : {kMonkeyKind, kUniformKind}) {
    const BenchResult* present = Find(results, kind, kReadRandom);
    ASSERT_NE(present, nullptr);
    EXPECT_EQ(present->found, o.reads) << kind.KindName();
  }
  EXPECT_EQ(monkey->found, 0);
  EXPECT_EQ(uniform->found, 0);
  // Every level spans (nearly) the whole key range: three filters per miss.
  EXPECT_GT(monkey->covering_files_per_miss, 2.9);

  // The model: the predicted reads per miss (the files' filters' predicted
  // FP rates, summed over the covering files) give about the 2.1x of
  // docs/monkey-allocation.md, less the rounding of small files...
  const double model_gain =
      SumOfFpRates(Layout::kBlocked, std::vector<double>(3, 10.0)) /
      SumOfFpRates(Layout::kBlocked, *allocation);
  EXPECT_GT(uniform->ios_per_miss_predicted / monkey->ios_per_miss_predicted,
            0.9 * model_gain)
      << output_;
  // ... this many lookups separate the two beyond their binomial noise ...
  const double misses = static_cast<double>(monkey->misses);
  ASSERT_LT(UpperBound(monkey->ios_per_miss_predicted, misses),
            LowerBound(uniform->ios_per_miss_predicted, misses));
  // ... and each engine's counts lie within those bounds, so monkey reads
  // less than uniform.
  for (const BenchResult* r : {monkey, uniform}) {
    EXPECT_LE(static_cast<double>(r->miss_reads),
              UpperBound(r->ios_per_miss_predicted, misses))
        << r->filter.KindName() << "\n"
        << output_;
    EXPECT_GE(static_cast<double>(r->miss_reads),
              LowerBound(r->ios_per_miss_predicted, misses))
        << r->filter.KindName() << "\n"
        << output_;
  }
  EXPECT_LT(monkey->ios_per_miss, uniform->ios_per_miss);

  // The floor: on the same files, every filter's floor bits move with the
  // memory, so the two floors differ by 2^-(the difference in bits per key)
  // (the memories match within 1%, not exactly); neither allocation's
  // predicted reads reach them (Bloom sits well above the
  // information-theoretic rate).
  EXPECT_NEAR(
      std::log2(uniform->ios_per_miss_floor / monkey->ios_per_miss_floor),
      monkey->bits_per_key - uniform->bits_per_key, 1e-3);
  for (const BenchResult* r : {monkey, uniform}) {
    EXPECT_GT(r->ios_per_miss_floor, 0) << r->filter.KindName();
    EXPECT_LT(r->ios_per_miss_floor, r->ios_per_miss_predicted)
        << r->filter.KindName();
  }
}

// On a tree shaped by the engine's own leveled compaction, files may carry
// an upper level's filter after a move; reads must stay correct.
TEST_P(MonkeyTest, ReadsCorrectlyAfterLeveledCompaction) {
  BenchOptions o;
  o.benchmarks = {BenchmarkKind::kFillRandom, BenchmarkKind::kReadRandom,
                  BenchmarkKind::kReadMissing};
  o.filters = *ParseFilterList("bloomgate_monkey");
  o.num = 20000;
  o.reads = 5000;
  o.engine.num_levels = 4;
  o.engine.disable_auto_compactions = false;
  o.engine.write_buffer_size = 100000;
  o.engine.target_file_size_base = 128 << 10;
  o.engine.max_bytes_for_level_base = 256 << 10;
  // The monkey filters' own fill, through the engine's compactions.
  o.same_tree = false;
  std::vector<BenchResult> results = Run(o);
  const BenchResult* fill = Find(results, kMonkeyKind, kFillRandom);
  const BenchResult* present = Find(results, kMonkeyKind, kReadRandom);
  const BenchResult* missing = Find(results, kMonkeyKind, kReadMissing);
  ASSERT_TRUE(fill && present && missing) << output_;
  // The engine compacted the data down the tree: 2.3 MB cannot settle in
  // L0 and L1 (256 KB). Which upper levels still hold files when the
  // compactions settle depends on their timing (RocksDB may empty L1 into
  // L2), so only the deepest level is certain.
  int deepest = -1;
  for (size_t l = 0; l < fill->files_per_level.size(); ++l) {
    if (fill->files_per_level[l] > 0) deepest = static_cast<int>(l);
  }
  EXPECT_GE(deepest, 2) << output_;
  EXPECT_EQ(present->found, o.reads) << output_;
  EXPECT_EQ(missing->found, 0) << output_;
  EXPECT_GT(missing->filter_bytes, 0u);
  // Every read of a missing key is a false positive of a checked filter.
  EXPECT_EQ(missing->ios, missing->false_positives) << output_;
  // Every file's filter is one of the allocation's budgets.
  EXPECT_FALSE(std::isnan(missing->fp_predicted)) << output_;
}

INSTANTIATE_TEST_SUITE_P(BothEngines, MonkeyTest,
                         ::testing::Values(EngineKind::kLsm,
                                           EngineKind::kRocksDB),
                         [](const ::testing::TestParamInfo<EngineKind>& info) {
                           return std::string(EngineName(info.param));
                         });

}  // namespace
}  // namespace bloomgate::bench
