// Copyright 2026 The bloomgate Authors.
//
// Latency percentiles for --histogram: a log-linear histogram in the manner
// of HdrHistogram. Values below 128 ns have a bucket each (exact); above,
// every power of two [2^e, 2^(e+1)) is cut into 64 equal buckets, so a
// bucket is never wider than 1/64 of its lower bound. A percentile is the
// midpoint of the bucket holding its rank (clamped to the exact min and
// max), hence within 1/128 (0.78%) of the true sample at that rank. Count,
// sum, min and max are exact.
//
// Why not RocksDB's: its public HistogramData gives p50, p95 and p99 only
// (no p90, no p99.9), from buckets about 1.5x apart with linear
// interpolation. No HdrHistogram for C or C++ is packaged in Debian 12.
//
// Recording is an index computation and one increment (no allocation), so a
// thread records into its own histogram and the runner merges them after
// the threads join. Not thread-safe.

#ifndef BLOOMGATE_TOOLS_BENCH_HISTOGRAM_H_
#define BLOOMGATE_TOOLS_BENCH_HISTOGRAM_H_

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace bloomgate::bench {

class LatencyHistogram {
 public:
  // Largest relative distance between a reported percentile and the sample
  // at its rank.
  static constexpr double kRelativeError = 1.0 / 128;

  void Record(uint64_t nanos) {
    ++buckets_[BucketOf(nanos)];
    ++count_;
    sum_ += nanos;
    min_ = std::min(min_, nanos);
    max_ = std::max(max_, nanos);
  }
  void Merge(const LatencyHistogram& other);

  uint64_t count() const { return count_; }
  // Nanoseconds; 0 when empty.
  uint64_t min() const { return count_ == 0 ? 0 : min_; }
  uint64_t max() const { return max_; }
  double Mean() const;
  // The sample of nearest rank ceil(q * count), q in [0, 1], within
  // kRelativeError; 0 when empty.
  double Percentile(double q) const;
  // The share of samples in buckets up to and including that of `nanos`
  // (for a CDF): exact below 128 ns, otherwise the share at most the end of
  // that bucket. 0 when empty.
  double FractionAtMost(uint64_t nanos) const;

 private:
  static constexpr int kSubBits = 6;  // 64 buckets per power of two
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kBuckets = (64 - kSubBits) * kSub + 2 * kSub;

  static int BucketOf(uint64_t v) {
    const int msb = 63 - std::countl_zero(v | 1);
    const int shift = std::max(0, msb - kSubBits);
    return shift * kSub + static_cast<int>(v >> shift);
  }
  // The smallest value of bucket `b` and its width.
  static uint64_t LowerBound(int b);
  static uint64_t Width(int b);

  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = std::numeric_limits<uint64_t>::max();
  uint64_t max_ = 0;
};

// The percentiles the tool reports, in microseconds (NaN when no samples).
struct LatencySummary {
  uint64_t count = 0;
  double mean_us = 0;
  double min_us = 0;
  double p50_us = 0;
  double p90_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double max_us = 0;
};
LatencySummary Summarize(const LatencyHistogram& h);

// The CDF of h's samples for a chart with a log x-axis: (microseconds, share
// of the samples at most that), 20 points a decade from 0.1 us, the last at
// the largest sample. Empty without samples.
std::vector<std::pair<double, double>> CdfPoints(const LatencyHistogram& h);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_HISTOGRAM_H_
