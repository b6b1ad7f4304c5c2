// Copyright 2026 The bloomgate Authors.
//
// The measurement of bloomgate_bench's benchmarks: the timed lookups and
// the figures a result records from clocks, from the engines' counters and
// from the tree's files (the prediction and the floor). The runner
// (runner.h) decides what runs; the benchmarks (benchmarks.cc) run it with
// these.

#ifndef BLOOMGATE_TOOLS_BENCH_MEASURE_H_
#define BLOOMGATE_TOOLS_BENCH_MEASURE_H_

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "bloomgate/filter_spec.h"
#include "tools/bench/bench_options.h"
#include "tools/bench/engine.h"
#include "tools/bench/histogram.h"
#include "tools/bench/progress.h"
#include "tools/bench/results.h"
#include "tools/bench/workload.h"

namespace bloomgate::bench {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using Clock = std::chrono::steady_clock;

// num / den, or NaN when den is not positive (nothing to divide by).
inline double Ratio(double num, double den) {
  return den > 0 ? num / den : kNaN;
}

inline double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// What the threads of a read benchmark tally, merged after they join.
struct ReadTally {
  int64_t found = 0;
  int64_t not_found = 0;
  absl::Status status;
  uint64_t user_nanos = 0;  // the thread's user CPU time over its lookups
  LatencyHistogram hits;    // --histogram only
  LatencyHistogram misses;
};

// The lookups of a read benchmark, thread by thread. The timed loop and the
// replay that predicts its reads walk the same streams.
struct LookupPlan {
  KeySpace keys;
  double negative_ratio;
  uint64_t seed;  // options.seed
  size_t bench_index;
  int threads;
  int64_t reads;  // over all threads
  LookupDistribution dist;

  int64_t OpsOf(int thread) const {
    return reads / threads + (thread < reads % threads ? 1 : 0);
  }
  LookupStream Stream(int thread) const {
    return LookupStream(keys, negative_ratio,
                        StreamSeed(seed, bench_index, thread + 1), dist);
  }
  void Key(const Lookup& lookup, std::string* key) const {
    if (lookup.absent) {
      keys.AbsentKey(lookup.index, key);
    } else {
      keys.PresentKey(lookup.index, key);
    }
  }
};

// The figures of a read benchmark that come from clocks rather than
// counters: latency percentiles, the measured read latency and what it
// explains. `avoided_per_op` is filter negatives per lookup. After
// RecordReads.
void RecordTimings(const BenchOptions& o, const std::vector<ReadTally>& tallies,
                   double avoided_per_op, BenchResult* r);

// The tree's shape and what its filters took; for a filter with a memory
// budget in bytes, bloom_bits becomes what the budget holds per key of the
// tree's filter keys.
void RecordShape(const EngineShape& shape, const FilterSpec& filter,
                 absl::Span<const double> level_bits, BenchResult* r);

// The timed loop of a read benchmark: plan.threads threads, each looking up
// its stream, `batch` keys per call (1: Get; more: MultiGet, each key's
// latency its share of the call's), and tallying into (*tallies)[thread].
void TimeLookups(Engine& engine, const LookupPlan& plan, int batch,
                 bool histogram, ProgressBar* progress,
                 std::vector<ReadTally>* tallies);

// The figures of a read benchmark that come from counting: lookups, reads,
// filter checks, against the engine's counters before and after.
void RecordReads(const FilterSpec& filter,
                 const std::vector<ReadTally>& tallies,
                 const lsm::LookupCounters& before,
                 const lsm::LookupCounters& after, BenchResult* r);

// Outside the timed loop: replays the same lookups and counts, from the
// files' key ranges alone, how many files cover each absent key, and adds up
// the predicted FP rates of their filters; and, from the same counts, the
// floor: the fewest reads per absent lookup that any per-file hash-based
// filters of the memory these took (over every file's keys, filtered or
// not) could let through on these files, in expectation, for keys that do
// not depend on the filters' hash (FewestWastedReads, one run per file),
// and the same over Ribbon's curve, below which no mix of Bloom and Ribbon
// filters reads (BenchResult::ios_per_miss_mix_floor).
// `floor_bounds_reads` false leaves the floors out (NaN): where a read may
// serve more than one lookup (a MultiGet batch, a block cache) the reads
// per lookup are not what it bounds.
void PredictMisses(const EngineShape& shape, const FilterSpec& filter,
                   absl::Span<const double> level_bits, const LookupPlan& plan,
                   bool floor_bounds_reads, BenchResult* r);

// Whether `a` and `b` have the same files: levels, key ranges and entries.
bool SameFiles(const EngineShape& a, const EngineShape& b);

// 16 bits that tell trees apart by those same fields (the table's "tree"
// column): equal for SameFiles shapes; two different trees share it with
// a chance of 1 in 65,536. The same on every run and machine.
uint32_t TreeFingerprint(const EngineShape& shape);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_MEASURE_H_
