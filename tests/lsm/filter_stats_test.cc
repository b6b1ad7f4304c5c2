// Copyright 2026 The bloomgate Authors.
//
// What the filters save, measured by the store's own counts: with 24
// level-0 files at 10 bits/key whose key ranges all cover the lookups, a
// missing key costs data-block reads equal to the sum of the files'
// false-positive rates, within a bound derived from the binomial variance;
// a present key costs one read plus the false positives of the newer files;
// and a filterless store reads every file in range.

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include "bloomgate/lsm/store.h"
#include "bloomgate/sizing.h"
#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"
#include "tests/testing/fp_bounds.h"

namespace bloomgate::lsm {
namespace {

using ::bloomgate::testing::FpSumLowerBound;
using ::bloomgate::testing::FpSumUpperBound;
using testing::Key;

constexpr int kFiles = 24;
constexpr int kKeysPerFile = 2000;

// File f holds keys i * kFiles + f: every file spans the whole key space.
std::unique_ptr<Store> BuildStore(const std::string& dir, FilterSpec filter) {
  StoreOptions o;
  o.filter = filter;
  o.disable_auto_compactions = true;
  o.write_buffer_size = 64 << 20;  // flush only when told
  auto store = Store::Open(dir, o);
  EXPECT_TRUE(store.ok()) << store.status();
  for (int f = 0; f < kFiles; ++f) {
    for (int i = 0; i < kKeysPerFile; ++i) {
      EXPECT_TRUE((*store)->Put(Key(i * kFiles + f), "value").ok());
    }
    EXPECT_TRUE((*store)->Flush().ok());
  }
  return std::move(*store);
}

// A key between two stored keys, so inside every file's range.
std::string MissingKey(int i) {
  return Key(kFiles + i % ((kKeysPerFile - 2) * kFiles)) + "~";
}

TEST(FilterStatsTest, MissesCostTheSumOfFalsePositiveRates) {
  testing::TempDir dir;
  FilterSpec filter;  // 10 bits/key, blocked
  auto store = BuildStore(dir.path(), filter);
  ASSERT_NE(store, nullptr);
  ASSERT_EQ(store->GetStats().levels[0].num_files,
            static_cast<uint64_t>(kFiles));

  constexpr int kMisses = 20000;
  store->ResetStats();
  for (int i = 0; i < kMisses; ++i) {
    auto v = store->Get(MissingKey(i * 7));
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_FALSE(v->has_value());
  }
  const IoStats s = store->GetStats();
  const LevelStats& t = s.total;
  ASSERT_EQ(t.files_considered, static_cast<uint64_t>(kMisses) * kFiles);
  ASSERT_EQ(t.skipped_by_range, 0u);
  ASSERT_EQ(t.filter_checks, t.files_considered);
  EXPECT_EQ(t.false_positives, t.filter_positives);  // nothing is there
  EXPECT_EQ(t.data_block_reads, t.false_positives);
  EXPECT_EQ(s.miss_reads, t.data_block_reads);

  // The expectation: each check of a file that lacks the key is a Bernoulli
  // trial with that file's predicted FP rate. Their sum's variance is
  // sum p(1-p) <= predicted, so 5 standard deviations bound sampling error;
  // the formula itself is a model of the blocked layout, allowed 10% off.
  const double predicted = t.predicted_false_positives;
  const double model_error = 0.10 * predicted;
  const double bound = FpSumUpperBound(predicted, 5) - predicted + model_error;
  std::printf(
      "%d misses x %d files: %llu data-block reads (%.4f per miss), "
      "predicted %.1f (%.4f per miss), bound +-%.1f; FP %.4f%% observed, "
      "%.4f%% predicted; %.2f%% of filterless reads avoided\n",
      kMisses, kFiles, static_cast<unsigned long long>(t.data_block_reads),
      s.ReadsPerMiss(), predicted, predicted / kMisses, bound,
      100 * t.ObservedFpRate(), 100 * t.PredictedFpRate(),
      100.0 * t.filter_negatives / t.filter_checks);
  EXPECT_LE(static_cast<double>(t.data_block_reads),
            FpSumUpperBound(predicted, 5) + model_error);
  EXPECT_GE(static_cast<double>(t.data_block_reads),
            FpSumLowerBound(predicted, 5) - model_error);
  // The same prediction from the sizing formula and the filters' shape.
  const double per_file = PredictedFpRate(
      Layout::kBlocked, static_cast<double>(t.filter_bytes) * 8 / t.filter_keys,
      OptimalNumProbes(Layout::kBlocked, 10.0));
  EXPECT_NEAR(predicted / t.filter_checks, per_file, 0.15 * per_file);
  // At least 99% of the reads a filterless store does are avoided.
  EXPECT_GE(static_cast<double>(t.filter_negatives),
            0.99 * static_cast<double>(t.filter_checks));

  // Present keys in the oldest file: one read plus the newer files' FPs.
  store->ResetStats();
  constexpr int kHits = 5000;
  for (int i = 0; i < kHits; ++i) {
    auto v = store->Get(Key((i % kKeysPerFile) * kFiles));  // file 0
    ASSERT_TRUE(v.ok() && v->has_value());
  }
  const IoStats h = store->GetStats();
  EXPECT_EQ(h.hits, static_cast<uint64_t>(kHits));
  EXPECT_EQ(h.total.filter_positives - h.total.false_positives,
            static_cast<uint64_t>(kHits));
  const double fp = h.total.predicted_false_positives;
  EXPECT_LE(static_cast<double>(h.hit_reads),
            kHits + FpSumUpperBound(fp, 5) + 0.10 * fp);
  EXPECT_GE(static_cast<double>(h.hit_reads),
            kHits + FpSumLowerBound(fp, 5) - 0.10 * fp);
  std::printf(
      "%d hits in the oldest of %d files: %.4f reads per hit "
      "(predicted %.4f)\n",
      kHits, kFiles, h.ReadsPerHit(), 1 + fp / kHits);
}

TEST(FilterStatsTest, WithoutFiltersEveryFileInRangeIsRead) {
  testing::TempDir dir;
  auto store = BuildStore(dir.path(), kNoFilter);
  ASSERT_NE(store, nullptr);
  store->ResetStats();
  constexpr int kMisses = 1000;
  for (int i = 0; i < kMisses; ++i) {
    auto v = store->Get(MissingKey(i * 31));
    ASSERT_TRUE(v.ok() && !v->has_value());
  }
  const IoStats s = store->GetStats();
  EXPECT_EQ(s.total.filter_checks, 0u);
  EXPECT_EQ(s.total.data_block_reads, static_cast<uint64_t>(kMisses) * kFiles);
  EXPECT_DOUBLE_EQ(s.ReadsPerMiss(), kFiles);
}

}  // namespace
}  // namespace bloomgate::lsm
