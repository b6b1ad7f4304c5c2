// Copyright 2026 The bloomgate Authors.
//
// The read-path counters both engines keep, and the table that lists them.
// Each counter the LSM also keeps has its name there (bloomgate/lsm/stats.h),
// so the LSM engine copies them as they are. As the LSM walks its statistics
// tables, the tool walks kReadCounterFields to take a benchmark's share of
// every counter (CounterDelta, which the runner stores in the BenchResult).
// A new counter is a field of ReadCounters, its row, and the lines in each
// engine's GetCounters that count it; the build fails (a static_assert in
// read_counters.cc) if a counter has no row.

#ifndef BLOOMGATE_TOOLS_BENCH_READ_COUNTERS_H_
#define BLOOMGATE_TOOLS_BENCH_READ_COUNTERS_H_

#include <cstdint>
#include <string_view>

namespace bloomgate::bench {

// Read-path counters: cumulative since the engine was opened (as
// Engine::GetCounters returns them), or what one benchmark's lookups added
// (in a BenchResult). The counters come first, every one a row of
// kReadCounterFields; then what the engine can count at all.
struct ReadCounters {
  // Files whose key range covered a looked-up key and which the search
  // reached: the data-block reads a filterless engine would have done.
  // Not all engines can count them without a filter (files_on_path_known).
  uint64_t files_on_path = 0;
  uint64_t filter_checks = 0;
  uint64_t filter_negatives = 0;  // files skipped by the filter: I/Os avoided
  uint64_t filter_positives = 0;
  // ... for a file that did not hold the key.
  uint64_t false_positives = 0;
  // Data-block reads by lookups, split by how the lookup ended: found a
  // value (hit) or not (miss).
  uint64_t hit_reads = 0;
  uint64_t miss_reads = 0;
  // Wall time of those reads, in nanoseconds, when read_nanos_known.
  uint64_t data_block_read_nanos = 0;

  // Whether files_on_path and data_block_read_nanos are counted (else they
  // stay 0).
  bool files_on_path_known = false;
  bool read_nanos_known = false;
};

// One row of kReadCounterFields: a counter of ReadCounters, by name.
struct ReadCounterField {
  // The field's own name.
  std::string_view name;
  std::string_view description;
  uint64_t ReadCounters::*count;
};

inline constexpr ReadCounterField kReadCounterFields[] = {
    {"files_on_path", "files on the lookup path: a filterless engine's reads",
     &ReadCounters::files_on_path},
    {"filter_checks", "files whose filter was queried",
     &ReadCounters::filter_checks},
    {"filter_negatives", "filter answers \"certainly not here\"",
     &ReadCounters::filter_negatives},
    {"filter_positives", "filter answers \"may be here\"",
     &ReadCounters::filter_positives},
    {"false_positives", "filter positives for a file not holding the key",
     &ReadCounters::false_positives},
    {"hit_reads", "data-block reads by lookups that found a value",
     &ReadCounters::hit_reads},
    {"miss_reads", "data-block reads by lookups that found none",
     &ReadCounters::miss_reads},
    {"data_block_read_nanos", "wall time of those reads, in nanoseconds",
     &ReadCounters::data_block_read_nanos},
};

// after - before, counter by counter; what can be counted is after's.
ReadCounters CounterDelta(const ReadCounters& before,
                          const ReadCounters& after);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_READ_COUNTERS_H_
