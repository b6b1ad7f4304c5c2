// Copyright 2026 The bloomgate Authors.
//
// BenchResult's JSON: what bloomgate_bench writes, bloomgate_plot reads back
// through the same table of fields.

#include "tools/bench/results.h"

#include <cmath>
#include <string>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace bloomgate::bench {
namespace {

using OrderedJson = nlohmann::ordered_json;

// A read result with every optional part: engine counters, timed reads,
// latency and its CDF.
BenchResult ReadResult() {
  BenchResult r;
  r.engine = EngineKind::kRocksDB;
  r.filter = *FilterKindSpec("bloomgate_monkey", 10);
  r.benchmark = BenchmarkKind::kReadMissing;
  r.bloom_bits = 10;
  r.threads = 2;
  r.ops = 1000;
  r.seconds = 0.5;
  r.micros_per_op = 1.25;
  r.ops_per_sec = 2000;
  r.misses = 1000;
  r.ios = 7;
  r.ios_per_op = 0.007;
  r.ios_per_hit = std::nan("");
  r.ios_per_miss = 0.007;
  r.files_on_path_per_op = 3;
  r.covering_files_per_miss = 3;
  r.filter_checks = 3000;
  r.filter_negatives = 2993;
  r.filter_positives = 7;
  r.false_positives = 7;
  r.ios_avoided_pct = 99.7;
  r.fp_observed = 7.0 / 3000;
  r.fp_predicted = 0.0023;
  r.ios_per_miss_predicted = 0.0069;
  r.ios_per_miss_floor = 0.0031;
  r.engine_counters = {{"rocksdb.bloom.filter.useful", 2993},
                       {"rocksdb.block.cache.miss", 7}};
  r.sst_files = 3;
  r.files_per_level = {1, 1, 1};
  r.keys_per_level = {10, 100, 1000};
  r.filter_bytes = 1400;
  r.filter_bytes_per_level = {30, 170, 1200};
  r.bits_per_key = 10.09;
  r.bits_per_key_per_level = {24, 13.6, std::nan("")};
  r.io_latency_us = 100;
  r.modeled_micros_per_op = 1.95;
  r.modeled_saved_micros_per_op = 299.3;
  r.direct_reads = true;
  r.has_latency = true;
  r.latency = {.count = 1000, .mean_us = 1.5, .p50_us = 1.2};
  r.miss_latency = r.latency;
  r.miss_latency_cdf = {{0.1, 0.0}, {2.5, 1.0}};
  r.timed_reads = true;
  r.read_latency_us = 12.5;
  r.user_micros_per_op = 1.1;
  return r;
}

OrderedJson ToJson(const BenchResult& r) { return OrderedJson(r); }

TEST(ResultsJsonTest, ReadResultRoundTrips) {
  const OrderedJson written = ToJson(ReadResult());
  // Through text, as bloomgate_plot reads a --json file. (Read into a
  // plain nlohmann::json, whose objects sort their keys, engine_counters
  // comes back sorted by name.)
  const BenchResult back =
      OrderedJson::parse(written.dump(2)).get<BenchResult>();
  EXPECT_EQ(ToJson(back).dump(), written.dump());
  const BenchResult unordered =
      nlohmann::json::parse(written.dump(2)).get<BenchResult>();
  EXPECT_EQ(unordered.engine_counters.size(), 2u);
  EXPECT_EQ(unordered.miss_latency_cdf, back.miss_latency_cdf);

  EXPECT_EQ(back.engine, EngineKind::kRocksDB);
  EXPECT_TRUE(back.filter.SameKind(FilterSpec{.monkey = true}));
  EXPECT_EQ(back.benchmark, BenchmarkKind::kReadMissing);
  EXPECT_EQ(back.false_positives, 7u);
  EXPECT_TRUE(std::isnan(back.ios_per_hit));
  EXPECT_TRUE(back.has_latency);
  EXPECT_TRUE(back.timed_reads);
  EXPECT_EQ(back.miss_latency_cdf, ReadResult().miss_latency_cdf);
  EXPECT_EQ(back.engine_counters, ReadResult().engine_counters);
}

// The keys and their order are the JSON's contract (docs/evaluation.md).
TEST(ResultsJsonTest, KeysInTheDocumentedOrder) {
  const OrderedJson j = ToJson(ReadResult());
  std::string keys;
  for (const auto& [key, value] : j.items()) keys += key + " ";
  EXPECT_EQ(keys,
            "engine filter filter_spec own_parameter benchmark bloom_bits "
            "threads ops "
            "seconds "
            "micros_per_op ops_per_sec hits misses found ios ios_per_op "
            "ios_per_hit ios_per_miss files_on_path_per_op "
            "covering_files_per_miss filter_checks filter_negatives "
            "filter_false_positives ios_avoided_pct fp_observed fp_predicted "
            "ios_per_miss_predicted ios_per_miss_floor ios_per_miss_mix_floor "
            "engine_counters "
            "filter_bytes largest_filter_bytes bits_per_key "
            "sst_files tree files_per_level keys_per_level "
            "filter_bytes_per_level "
            "bits_per_key_per_level io_latency_us modeled_micros_per_op "
            "modeled_saved_micros_per_op direct_reads read_latency_us "
            "user_micros_per_op explained_micros_per_op "
            "avoided_read_micros_per_op latency hit_latency miss_latency "
            "miss_latency_cdf ");
  EXPECT_TRUE(j["ios_per_hit"].is_null());
  EXPECT_EQ(j["filter"], "bloomgate_monkey");
}

// A budget in bytes and a growth step add their keys where the
// documentation lists them.
TEST(ResultsJsonTest, ABudgetAndAGrowthStepHaveTheirKeys) {
  BenchResult r = ReadResult();
  r.filter = FilterSpec{.monkey = true, .memory_budget_bytes = 1 << 20};
  r.grown_keys = 4000;
  const OrderedJson j = ToJson(r);
  std::string keys;
  for (const auto& [key, value] : j.items()) keys += key + " ";
  EXPECT_NE(keys.find("own_parameter memory_budget_bytes benchmark "
                      "bloom_bits grown_keys threads"),
            std::string::npos)
      << keys;
  EXPECT_EQ(j["memory_budget_bytes"], 1 << 20);
  absl::StatusOr<BenchResult> back = ResultFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->filter.memory_budget_bytes, uint64_t{1} << 20);
  EXPECT_EQ(back->grown_keys, 4000);
}

TEST(ResultsJsonTest, FillHasThroughputButNoReadParts) {
  BenchResult fill;
  fill.benchmark = BenchmarkKind::kFillRandom;
  fill.mb_per_sec = 12.5;
  const OrderedJson j = ToJson(fill);
  EXPECT_EQ(j["mb_per_sec"], 12.5);
  for (const char* key :
       {"engine_counters", "read_latency_us", "latency", "miss_latency_cdf"}) {
    EXPECT_FALSE(j.contains(key)) << key;
  }
  const BenchResult back = *ResultFromJson(j);
  EXPECT_FALSE(back.has_latency);
  EXPECT_FALSE(back.timed_reads);
  EXPECT_EQ(ToJson(back).dump(), j.dump());
  // Without mb_per_sec, a read's throughput stays unset.
  OrderedJson read = ToJson(ReadResult());
  EXPECT_FALSE(read.contains("mb_per_sec"));
}

TEST(ResultsJsonTest, MissingNumbersAreNotMeasured) {
  const absl::StatusOr<BenchResult> r = ResultFromJson(
      OrderedJson{{"engine", "lsm"}, {"filter", "none"}, {"ops", 10}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->ops, 10);
  EXPECT_TRUE(std::isnan(r->bits_per_key));
  EXPECT_EQ(r->filter.family, FilterFamily::kNone);
}

TEST(ResultsJsonTest, UnknownKindsAreErrors) {
  EXPECT_FALSE(ResultFromJson(OrderedJson{{"engine", "leveldb"}}).ok());
  EXPECT_FALSE(ResultFromJson(OrderedJson{{"filter", "cuckoo"}}).ok());
  EXPECT_FALSE(ResultFromJson(OrderedJson{{"benchmark", "readseq"}}).ok());
  EXPECT_THROW(nlohmann::json({{"engine", "leveldb"}}).get<BenchResult>(),
               std::invalid_argument);
}

}  // namespace
}  // namespace bloomgate::bench
