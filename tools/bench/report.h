// Copyright 2026 The bloomgate Authors.
//
// Everything the tool prints: the warning and header lines, one db_bench line
// per benchmark, the final comparison table and the JSON file. All of it is
// formatted from BenchResult, so the table and the JSON agree by
// construction.

#ifndef BLOOMGATE_TOOLS_BENCH_REPORT_H_
#define BLOOMGATE_TOOLS_BENCH_REPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "tools/bench/bench_options.h"
#include "tools/bench/direct_reads.h"
#include "tools/bench/results.h"

namespace bloomgate::bench {

// db_bench's warnings about the build ("WARNING: Assertions are enabled; ..."),
// one per line, empty for an optimised build without assertions.
std::string BuildWarnings();

// The header: versions, machine, and what the run will do, including whether
// reads are direct (`direct`, as ResolveDirectReads found it).
std::string FormatHeader(const BenchOptions& options,
                         const DirectReads& direct = {});

// One line in db_bench's shape, e.g.
//   readmissing  :       1.234 micros/op 810372 ops/sec; 0.0096 I/Os/op;
//   99.04% of reads avoided; FP 0.96% (predicted 0.96%)
std::string FormatBenchmarkLine(const BenchResult& result);

// --histogram: the latency lines under a read benchmark's line, in
// db_bench's style, for its misses and its hits (those it has), e.g.
//   Microseconds per lookup, misses (absent keys):
//   Count: 990000 Average: 2.1034  Min: 1.20  Max: 812.51
//   Percentiles: P50: 1.98 P90: 2.43 P99: 4.01 P99.9: 95.22
// Empty without a histogram.
std::string FormatLatency(const BenchResult& result);

// The comparison table: one row per read benchmark of each engine and
// filter, in run order. Columns: docs/evaluation.md.
std::string FormatTable(const std::vector<BenchResult>& results);

// bloomgate_monkey against bloomgate (uniform) on the same engine and read
// benchmark: both filter memories, their ratio, the I/Os per missing lookup
// and how many times fewer monkey does (measured, and predicted from the
// files' filters). Empty without such pairs.
std::string FormatMonkeyComparison(const std::vector<BenchResult>& results);

// Every result as a JSON array of objects; NaN (not measured) as null.
std::string FormatJson(const std::vector<BenchResult>& results);
absl::Status WriteJsonFile(const std::string& path,
                           const std::vector<BenchResult>& results);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_REPORT_H_
