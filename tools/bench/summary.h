// Copyright 2026 The bloomgate Authors.
//
// The few lines under the comparison table that say, from the run's own
// numbers, which filter made the fewest reads per absent lookup and which
// answered fastest, by how much over the next, and at what memory.

#ifndef BLOOMGATE_TOOLS_BENCH_SUMMARY_H_
#define BLOOMGATE_TOOLS_BENCH_SUMMARY_H_

#include <string>
#include <vector>

#include "tools/bench/results.h"

namespace bloomgate::bench {

// For each engine and read benchmark (and, `by_memory`, each memory asked
// for: a --sweep_bits run; and each step of a --grow_to run) with at least
// two filtered results (filter none
// left out), in run order: the fewest data-block reads per
// absent lookup (I/O/miss) and the next, the least time per lookup and the
// next, each filter's reads over the floor where the floor bounds them, the
// range of the filters' measured bits per key (said to differ where it
// spans more than 0.5%), where the reads went (the device or the page
// cache) and their measured mean latency when timed, and whether the
// filters ran on one tree. Empty when no group has two filters to compare.
std::string FormatSummary(const std::vector<BenchResult>& results,
                          bool by_memory = false);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_SUMMARY_H_
