// Copyright 2026 The bloomgate Authors.
//
// The --histogram percentiles against fixed samples whose true percentiles
// are known: exact where the buckets are one value wide, within the stated
// relative error elsewhere, and merging equal to recording in one.

#include "tools/bench/histogram.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace bloomgate::bench {
namespace {

// The sample of nearest rank ceil(q * n) of sorted `samples`.
double NearestRank(const std::vector<uint64_t>& sorted, double q) {
  size_t rank = static_cast<size_t>(std::ceil(q * sorted.size()));
  return static_cast<double>(sorted[std::max<size_t>(rank, 1) - 1]);
}

TEST(LatencyHistogramTest, EmptyReportsNothing) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.Percentile(0.5), 0);
  LatencySummary s = Summarize(h);
  EXPECT_TRUE(std::isnan(s.p50_us));
  EXPECT_TRUE(std::isnan(s.max_us));
}

TEST(LatencyHistogramTest, SmallValuesAreExact) {
  LatencyHistogram h;
  for (uint64_t v = 0; v < 100; ++v) h.Record(v);  // 0 .. 99 ns
  EXPECT_EQ(h.Percentile(0.50), 49);
  EXPECT_EQ(h.Percentile(0.90), 89);
  EXPECT_EQ(h.Percentile(0.99), 98);
  EXPECT_EQ(h.Percentile(0.999), 99);
  EXPECT_EQ(h.Percentile(1.0), 99);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 99u);
  EXPECT_DOUBLE_EQ(h.Mean(), 49.5);
  EXPECT_DOUBLE_EQ(h.FractionAtMost(9), 0.10);
}

// 1, 2, ..., 100000 microseconds: the true p50 is 50000 us, p99.9 99900 us.
TEST(LatencyHistogramTest, UniformMicrosecondsWithinTheBound) {
  LatencyHistogram h;
  for (uint64_t us = 1; us <= 100000; ++us) h.Record(us * 1000);
  LatencySummary s = Summarize(h);
  EXPECT_EQ(s.count, 100000u);
  EXPECT_NEAR(s.p50_us, 50000, 50000 * LatencyHistogram::kRelativeError);
  EXPECT_NEAR(s.p90_us, 90000, 90000 * LatencyHistogram::kRelativeError);
  EXPECT_NEAR(s.p99_us, 99000, 99000 * LatencyHistogram::kRelativeError);
  EXPECT_NEAR(s.p999_us, 99900, 99900 * LatencyHistogram::kRelativeError);
  EXPECT_DOUBLE_EQ(s.max_us, 100000);
  EXPECT_DOUBLE_EQ(s.mean_us, 50000.5);
}

// A heavy-tailed mix like a lookup's: most fast, a few a device read slower.
// Every percentile from 0.1% to 100% stays within the bound of the sorted
// samples.
TEST(LatencyHistogramTest, HeavyTailAgainstSortedSamples) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> fast(std::log(2000), 0.3);   // ~2 us
  std::lognormal_distribution<double> slow(std::log(90000), 0.2);  // ~90 us
  std::vector<uint64_t> samples;
  LatencyHistogram h;
  for (int i = 0; i < 200000; ++i) {
    double v = (i % 97 == 0) ? slow(rng) : fast(rng);
    samples.push_back(static_cast<uint64_t>(v));
    h.Record(samples.back());
  }
  std::sort(samples.begin(), samples.end());
  for (int permille = 1; permille <= 1000; ++permille) {
    const double q = permille / 1000.0;
    const double truth = NearestRank(samples, q);
    EXPECT_NEAR(h.Percentile(q), truth,
                truth * LatencyHistogram::kRelativeError)
        << "q " << q;
  }
  EXPECT_EQ(h.max(), samples.back());
  EXPECT_EQ(h.min(), samples.front());
}

TEST(LatencyHistogramTest, MergeEqualsOneHistogram) {
  LatencyHistogram all, a, b;
  for (uint64_t v = 1; v <= 5000; ++v) {
    all.Record(v * 37);
    (v % 3 == 0 ? a : b).Record(v * 37);
  }
  a.Merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.min(), all.min());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_DOUBLE_EQ(a.Mean(), all.Mean());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    EXPECT_EQ(a.Percentile(q), all.Percentile(q)) << q;
  }
}

// The CDF a latency chart draws: from 0.1 us up, 20 points a decade, ending
// at the largest sample with every sample counted.
TEST(LatencyHistogramTest, CdfPointsClimbToOneAtTheLargestSample) {
  EXPECT_TRUE(CdfPoints(LatencyHistogram()).empty());
  LatencyHistogram h;
  for (uint64_t nanos : {50, 500, 5000, 50000}) h.Record(nanos);
  const std::vector<std::pair<double, double>> points = CdfPoints(h);
  ASSERT_FALSE(points.empty());
  EXPECT_DOUBLE_EQ(points.front().first, 0.1);
  EXPECT_DOUBLE_EQ(points.front().second, 0.25);  // 50 ns only
  EXPECT_DOUBLE_EQ(points.back().first, 50.0);
  EXPECT_DOUBLE_EQ(points.back().second, 1.0);
  // 0.1 us to 50 us is 2.7 decades: 54 points below 50 us, then 50 us.
  EXPECT_EQ(points.size(), 55u);
  for (size_t i = 1; i < points.size(); ++i) {
    EXPECT_GT(points[i].first, points[i - 1].first);
    EXPECT_GE(points[i].second, points[i - 1].second);
  }
}

}  // namespace
}  // namespace bloomgate::bench
