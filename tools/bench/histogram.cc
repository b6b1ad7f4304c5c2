// Copyright 2026 The bloomgate Authors.

#include "tools/bench/histogram.h"

#include <cmath>

namespace bloomgate::bench {

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (int b = 0; b < kBuckets; ++b) buckets_[b] += other.buckets_[b];
  count_ += other.count_;
  sum_ += other.sum_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

uint64_t LatencyHistogram::LowerBound(int b) {
  // Buckets below 2 * kSub hold one value each; bucket shift * kSub + m
  // (m in [kSub, 2 * kSub)) holds [m << shift, (m + 1) << shift).
  if (b < 2 * kSub) return static_cast<uint64_t>(b);
  const int shift = b / kSub - 1;
  const uint64_t m = static_cast<uint64_t>(b % kSub + kSub);
  return m << shift;
}

uint64_t LatencyHistogram::Width(int b) {
  return b < 2 * kSub ? 1 : uint64_t{1} << (b / kSub - 1);
}

double LatencyHistogram::Mean() const {
  return count_ == 0 ? 0
                     : static_cast<double>(sum_) / static_cast<double>(count_);
}

double LatencyHistogram::Percentile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  const uint64_t rank = std::max<uint64_t>(
      1, static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_))));
  uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += buckets_[b];
    if (seen < rank) continue;
    if (Width(b) == 1) return static_cast<double>(LowerBound(b));
    const double mid = static_cast<double>(LowerBound(b)) +
                       static_cast<double>(Width(b) - 1) / 2;
    return std::clamp(mid, static_cast<double>(min_),
                      static_cast<double>(max_));
  }
  return static_cast<double>(max_);
}

double LatencyHistogram::FractionAtMost(uint64_t nanos) const {
  if (count_ == 0) return 0;
  const int last = BucketOf(nanos);
  uint64_t seen = 0;
  for (int b = 0; b <= last; ++b) seen += buckets_[b];
  return static_cast<double>(seen) / static_cast<double>(count_);
}

LatencySummary Summarize(const LatencyHistogram& h) {
  LatencySummary s;
  s.count = h.count();
  if (h.count() == 0) {
    const double nan = std::nan("");
    s.mean_us = s.min_us = s.p50_us = s.p90_us = s.p99_us = s.p999_us =
        s.max_us = nan;
    return s;
  }
  s.mean_us = h.Mean() / 1e3;
  s.min_us = static_cast<double>(h.min()) / 1e3;
  s.p50_us = h.Percentile(0.50) / 1e3;
  s.p90_us = h.Percentile(0.90) / 1e3;
  s.p99_us = h.Percentile(0.99) / 1e3;
  s.p999_us = h.Percentile(0.999) / 1e3;
  s.max_us = static_cast<double>(h.max()) / 1e3;
  return s;
}

std::vector<std::pair<double, double>> CdfPoints(const LatencyHistogram& h) {
  std::vector<std::pair<double, double>> points;
  if (h.count() == 0) return points;
  const double max_us = static_cast<double>(h.max()) / 1e3;
  for (double us = 0.1;; us *= std::pow(10.0, 0.05)) {
    const double x = std::min(us, max_us);
    points.emplace_back(x, h.FractionAtMost(static_cast<uint64_t>(x * 1e3)));
    if (us >= max_us) break;
  }
  return points;
}

}  // namespace bloomgate::bench
