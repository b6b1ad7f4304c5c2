// Copyright 2026 The bloomgate Authors.
//
// A reporter that passes every report on to the reporter the command line
// chose (--benchmark_format: console, json or csv) and, after the run,
// prints every filter's times as ratios against RocksDB's Bloom filter
// measured in the same run: as linked, and, when the run has it, RocksDB's
// query compiled with AVX2 (rocksdb_bloom_avx2), the like-for-like base.
// Absolute times on a shared machine drift by 2x between runs; ratios taken
// seconds apart in one process drift much less, and least with
// --benchmark_repetitions=N
// --benchmark_enable_random_interleaving=true, which spreads both sides of a
// ratio over the same stretch of time (the table then uses the medians, and
// gives each filter's coefficient of variation: a ratio between two rows
// that spread by 20% says less than one between rows that spread by 2%).
//
// The table follows a console report on stdout; after a json or csv report
// it goes to stderr, so that stdout stays one parseable document.
// (--benchmark_out=FILE is written by Google Benchmark's own file reporter,
// unaffected.)

#ifndef BLOOMGATE_BENCHMARKS_RATIO_REPORTER_H_
#define BLOOMGATE_BENCHMARKS_RATIO_REPORTER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"

namespace bloomgate::bench {

class RatioReporter : public benchmark::BenchmarkReporter {
 public:
  // `display` is not owned; `note` is printed above the table.
  RatioReporter(benchmark::BenchmarkReporter* display, std::string note);

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  struct Result {
    double ns_per_key = 0;
    double fp_rate = 0;
    double bits_per_key = 0;
    std::optional<double> cv;  // of ns/key over the repetitions, if repeated
  };

  void Collect(const Run& run);
  void PrintTable(std::FILE* out) const;

  benchmark::BenchmarkReporter* display_;
  std::string note_;
  // Keyed by (keys, phase), which orders the table, then by filter name.
  std::map<std::pair<uint64_t, std::string>, std::map<std::string, Result>>
      results_;
};

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_BENCHMARKS_RATIO_REPORTER_H_
