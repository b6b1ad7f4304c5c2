// Copyright 2026 The bloomgate Authors.
//
// A console reporter that, after the usual table, prints bloomgate's times as
// ratios against RocksDB's Bloom filter measured in the same run. Absolute
// times on a shared machine drift by 2x between runs; ratios taken seconds
// apart in one process drift much less, and least with
// --benchmark_repetitions=N --benchmark_enable_random_interleaving=true,
// which spreads both sides of a ratio over the same stretch of time (the
// table then uses the medians).

#ifndef BLOOMGATE_BENCHMARKS_RATIO_REPORTER_H_
#define BLOOMGATE_BENCHMARKS_RATIO_REPORTER_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"

namespace bloomgate::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  struct Result {
    double ns_per_key = 0;
    double fp_rate = 0;
    double bits_per_key = 0;
  };
  // Keyed by (keys, phase), which orders the table, then by filter name.
  std::map<std::pair<uint64_t, std::string>, std::map<std::string, Result>>
      results_;
};

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_BENCHMARKS_RATIO_REPORTER_H_
