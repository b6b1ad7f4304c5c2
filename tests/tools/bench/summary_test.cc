// Copyright 2026 The bloomgate Authors.

#include "tools/bench/summary.h"

#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace bloomgate::bench {
namespace {

BenchResult Read(std::string_view filter, double ios_per_miss,
                 double micros_per_op, double bits_per_key) {
  BenchResult r;
  r.engine = EngineKind::kRocksDB;
  r.benchmark = BenchmarkKind::kReadMissing;
  r.filter = *FilterSpec::Parse(filter);
  r.ios_per_miss = ios_per_miss;
  r.micros_per_op = micros_per_op;
  r.bits_per_key = bits_per_key;
  return r;
}

// The fewest reads and the least time may go to different filters; each is
// named with the next and the ratio between them, from the rows' numbers.
TEST(SummaryTest, NamesTheBestAndTheNextWithTheirRatio) {
  std::vector<BenchResult> results = {
      Read("none", 2.7, 240, 0),
      Read("rocksdb_bloom", 0.0262, 3.9, 10.04),
      Read("rocksdb_ribbon", 0.0032, 1.5, 10.00),
      Read("bloomgate_mixed", 0.0019, 1.6, 10.00),
  };
  const std::string summary = FormatSummary(results);
  EXPECT_NE(summary.find("rocksdb readmissing: fewest reads per absent lookup: "
                         "bloomgate_mixed, 0.0019, 1.68x fewer than "
                         "rocksdb_ribbon (0.0032)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("least time per lookup: rocksdb_ribbon, 1.5 us, "
                         "1.07x less than bloomgate_mixed (1.6 us)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("filters at 10.00-10.04 bits/key; reads from the "
                         "page cache"),
            std::string::npos)
      << summary;
  // 0.4% apart: not flagged.
  EXPECT_EQ(summary.find("differ"), std::string::npos) << summary;
}

// A growth run: each step's rows are compared among themselves.
TEST(SummaryTest, EachStepOfAGrowthIsItsOwnComparison) {
  std::vector<BenchResult> results = {Read("rocksdb_ribbon", 0.004, 1.5, 10),
                                      Read("bloomgate_mixed", 0.002, 1.6, 10),
                                      Read("rocksdb_ribbon", 0.008, 1.5, 5),
                                      Read("bloomgate_mixed", 0.016, 1.6, 5)};
  results[0].grown_keys = results[1].grown_keys = 1000;
  results[2].grown_keys = results[3].grown_keys = 2000;
  const std::string summary = FormatSummary(results);
  EXPECT_NE(summary.find("rocksdb readmissing at 1000 keys: fewest reads per "
                         "absent lookup: bloomgate_mixed, 0.002, 2.00x fewer"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("rocksdb readmissing at 2000 keys: fewest reads per "
                         "absent lookup: rocksdb_ribbon, 0.008, 2.00x fewer"),
            std::string::npos)
      << summary;
}

// Each filter's reads over the floor, from its own row, where the floor is
// a bound; and whether the rows ran on one tree.
TEST(SummaryTest, SaysHowFarAboveTheFloorAndOnWhichTrees) {
  std::vector<BenchResult> results = {Read("rocksdb_ribbon", 0.0032, 1.5, 10),
                                      Read("bloomgate_mixed", 0.0019, 1.6, 10)};
  results[0].ios_per_miss_floor = 0.0016;
  results[1].ios_per_miss_floor = 0.00152;
  results[0].tree = results[1].tree = 0x395;
  std::string summary = FormatSummary(results);
  EXPECT_NE(summary.find("reads over the floor: rocksdb_ribbon 2.00x, "
                         "bloomgate_mixed 1.25x"),
            std::string::npos)
      << summary;
  // Without the floor over Ribbon's curve, no bound.
  EXPECT_EQ(summary.find("no mix"), std::string::npos) << summary;
  // With it: that floor over the floor, at the first Ribbon filter's
  // memory (rocksdb_ribbon's here).
  results[0].ios_per_miss_mix_floor = 0.0016 * 1.27;
  results[1].ios_per_miss_mix_floor = 0.00152 * 1.31;
  summary = FormatSummary(results);
  EXPECT_NE(summary.find("; no mix of Bloom and Ribbon filters reads less "
                         "than 1.27x the floor in expectation"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("; one tree (0395)"), std::string::npos) << summary;
  // No floor (MultiGet, a block cache): no line; two trees: said.
  results[0].ios_per_miss_floor = results[1].ios_per_miss_floor = NAN;
  results[1].tree = 0x3cc5;
  summary = FormatSummary(results);
  EXPECT_EQ(summary.find("over the floor"), std::string::npos) << summary;
  EXPECT_NE(summary.find("; 2 different trees (the tree column)"),
            std::string::npos)
      << summary;
}

// Two runs of one kind, one at a parameter of its own: named apart.
TEST(SummaryTest, AFilterAtItsOwnParameterIsNamedInFull) {
  std::vector<BenchResult> results = {
      Read("bloomgate_mixed", 0.0020, 2.5, 10),
      Read("bloomgate:10:monkey:mixed:10000000", 0.0018, 2.4, 10)};
  results[1].own_parameter = true;
  const std::string summary = FormatSummary(results);
  EXPECT_NE(summary.find("fewest reads per absent lookup: "
                         "bloomgate:10:blocked:monkey:mixed:10000000, 0.0018, "
                         "1.11x fewer than bloomgate_mixed (0.002)"),
            std::string::npos)
      << summary;
}

TEST(SummaryTest, FlagsMemoriesMoreThanHalfAPercentApart) {
  const std::string summary = FormatSummary(
      {Read("rocksdb_bloom", 0.02, 3, 10.0), Read("bloomgate", 0.02, 3, 10.1)});
  EXPECT_NE(summary.find("rocksdb_bloom and bloomgate tie at 0.02"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("memories differ by more than 0.5%"),
            std::string::npos)
      << summary;
}

// A sweep compares the filters at each memory, not across memories.
TEST(SummaryTest, BySweptMemoryComparesAtEachMemory) {
  std::vector<BenchResult> results = {Read("bloomgate", 0.14, 7, 6.04),
                                      Read("rocksdb_ribbon", 0.04, 3, 6.00),
                                      Read("bloomgate", 0.02, 3, 10.05),
                                      Read("rocksdb_ribbon", 0.003, 2, 10.0)};
  results[0].bloom_bits = results[1].bloom_bits = 6;
  results[2].bloom_bits = results[3].bloom_bits = 10;
  const std::string summary = FormatSummary(results, /*by_memory=*/true);
  EXPECT_NE(summary.find("rocksdb readmissing at 6 bits/key: fewest reads per "
                         "absent lookup: rocksdb_ribbon, 0.04, 3.50x fewer "
                         "than bloomgate (0.14)"),
            std::string::npos)
      << summary;
  EXPECT_NE(summary.find("rocksdb readmissing at 10 bits/key: fewest reads "
                         "per absent lookup: rocksdb_ribbon, 0.003, 6.67x "
                         "fewer than bloomgate (0.02)"),
            std::string::npos)
      << summary;
}

TEST(SummaryTest, NeedsTwoFilteredResultsToCompare) {
  EXPECT_EQ(FormatSummary(
                {Read("none", 2.7, 240, 0), Read("bloomgate", 0.02, 3, 10)}),
            "");
}

}  // namespace
}  // namespace bloomgate::bench
