// Copyright 2026 The bloomgate Authors.
//
// What one benchmark of one engine and filter measured. The printed line, the
// comparison table and the JSON are all formatted from this struct (report.h),
// so they cannot disagree. One table of its fields (results.cc) writes the
// JSON and reads it back (bloomgate_plot).

#ifndef BLOOMGATE_TOOLS_BENCH_RESULTS_H_
#define BLOOMGATE_TOOLS_BENCH_RESULTS_H_

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/lsm/stats.h"
#include "nlohmann/json.hpp"
#include "tools/bench/bench_options.h"
#include "tools/bench/engine.h"
#include "tools/bench/histogram.h"

namespace bloomgate::bench {

// How far a run's filters may take more or fewer bits per key than the
// memory they were given before the tool marks the run (the fill's line,
// the tables' bits/key cells): 0.5%. At 10 bits/key that much memory moves
// a Bloom or Ribbon filter's FP rate by 2-3%.
inline constexpr double kOffMemoryMarkFraction = 0.005;

// The read counters (lsm::LookupCounters) are what the benchmark's lookups
// added to the engine's; a fill's are 0. false_positives is the JSON's
// filter_false_positives.
struct BenchResult : lsm::LookupCounters {
  EngineKind engine = EngineKind::kLsm;
  // The filter the run built (FilterForRun, Ribbon's parameter for the
  // memory): its kind's name (FilterSpec::KindName) is the one printed and
  // the JSON's "filter", its whole name the JSON's "filter_spec".
  FilterSpec filter = kNoFilter;
  // Whether the filter ran at a parameter of its own (--filter=<kind>:<n>),
  // not at the run's memory: tables then name it in full (ResultName).
  bool own_parameter = false;
  BenchmarkKind benchmark = BenchmarkKind::kReadRandom;
  // The filter memory the run was given, bits per key (a level-aware
  // filter's average); 0 without a filter, or for Ribbon at a parameter of
  // its own (which is no memory).
  double bloom_bits = 0;
  // With --grow_to: the keys written when this result was measured (the
  // step's), 0 otherwise.
  int64_t grown_keys = 0;
  int threads = 1;
  // Read benchmarks: where the lookups fell (LookupDistribution::Name);
  // empty otherwise.
  std::string lookup_dist;

  int64_t ops = 0;
  double seconds = 0;        // wall time of the timed loop
  double micros_per_op = 0;  // per thread, as db_bench reports it
  double ops_per_sec = 0;    // all threads
  double mb_per_sec = 0;     // fills only

  // Read benchmarks: lookups that found a value (hits) and that found none
  // (misses). After a fill these are the lookups of present and of absent
  // keys.
  int64_t hits = 0;
  int64_t misses = 0;
  int64_t found = 0;  // == hits; db_bench's "(found of ops found)"
  uint64_t ios = 0;   // data-block reads, all lookups: hit_reads + miss_reads
  double ios_per_op = 0;
  double ios_per_hit = 0;   // NaN without hits
  double ios_per_miss = 0;  // NaN without misses

  // files_on_path per lookup; NaN when the engine cannot tell.
  double files_on_path_per_op = 0;
  // Files whose key range covers each absent key, counted from the files'
  // metadata outside the timed loop: the independent check of the above.
  double covering_files_per_miss = 0;
  // filter_negatives / files_on_path, in percent: the reads the filter saved.
  double ios_avoided_pct = 0;
  // false_positives / (checks of files not holding the key). NaN
  // without a filter.
  double fp_observed = 0;
  double fp_predicted = 0;  // from the formula (docs/evaluation.md); NaN: none
  // The predicted FP rates of the files covering each absent key, summed
  // (the expected reads of its lookup), averaged over the absent lookups.
  // NaN without a filter or absent lookups.
  double ios_per_miss_predicted = 0;
  // The fewest reads per absent lookup any per-file hash-based filters of
  // this memory (filter_bytes over every file's keys) could make on these
  // files, in expectation: every file's filter at the information-theoretic
  // floor, memory placed per file (FewestWastedReads over the same
  // lookups). NaN without a filter or absent lookups, and where a read may
  // serve more than one lookup (multireadmissing, a RocksDB block cache).
  double ios_per_miss_floor = 0;
  // The fewest reads per absent lookup any mix of Bloom and Ribbon filters
  // of this memory could make on these files, in expectation: the floor
  // over Ribbon's curve 2^(-b / (1 + o)), o RocksDB's overhead for the
  // files' mean keys (every Bloom filter's curve lies above it). At most
  // 2^(B (1 - 1 / (1 + o))) times ios_per_miss_floor at B bits per key,
  // less where the floor leaves a file unfiltered. NaN where
  // ios_per_miss_floor is.
  double ios_per_miss_mix_floor = 0;

  // Every counter of the engine's own (Engine::GetEngineCounters), as
  // changed by the timed lookups: the LSM's statistics, RocksDB's tickers.
  // Read benchmarks only.
  EngineCounters engine_counters;

  // The files after the fill and their filters; `tree`, their
  // TreeFingerprint (measure.h): rows with the same one ran on the same
  // files.
  int sst_files = 0;
  uint32_t tree = 0;
  std::vector<int> files_per_level;
  uint64_t filter_bytes = 0;
  // The largest one file's filter takes: what a memory budget may be
  // over by while a compaction is due.
  uint64_t largest_filter_bytes = 0;
  double bits_per_key = 0;  // filter_bytes * 8 / filter keys; NaN: none
  // The same per level L0, L1, ...: entries in its files, their filters'
  // bytes, and filter bytes * 8 / filter keys (NaN: no filter there).
  std::vector<int64_t> keys_per_level;
  std::vector<uint64_t> filter_bytes_per_level;
  std::vector<double> bits_per_key_per_level;

  // --io_latency_us model: every data-block read costs io_latency_us more.
  double io_latency_us = 0;
  double modeled_micros_per_op = 0;        // micros_per_op + ios_per_op * L
  double modeled_saved_micros_per_op = 0;  // avoided reads per op * L

  // Whether the data-block reads bypassed the page cache (O_DIRECT).
  bool direct_reads = false;

  // --histogram: the latency of each lookup, of the hits, of the misses.
  bool has_latency = false;
  LatencySummary latency;
  LatencySummary hit_latency;
  LatencySummary miss_latency;
  // The misses' latency CDF (CdfPoints), for the latency chart.
  std::vector<std::pair<double, double>> miss_latency_cdf;

  // Measured read costs (with --use_direct_reads or --histogram; NaN
  // otherwise or without reads): the mean wall time of one data-block read,
  // timed in the engine's read path; the lookup threads' user CPU time per
  // lookup; the model "user CPU + reads x read latency" of micros_per_op;
  // and what the reads the filter avoided would have cost at the measured
  // latency.
  bool timed_reads = false;
  double read_latency_us = std::numeric_limits<double>::quiet_NaN();
  double user_micros_per_op = std::numeric_limits<double>::quiet_NaN();
  double explained_micros_per_op = std::numeric_limits<double>::quiet_NaN();
  double avoided_read_micros_per_op = std::numeric_limits<double>::quiet_NaN();
};

// How the tables and the summary name a result's filter: its kind, or its
// whole name when it ran at a parameter of its own (the one thing that
// tells two such runs of one kind apart).
std::string ResultName(const BenchResult& r);

// A result as bloomgate_bench --json writes it: one object, its fields in
// the order docs/evaluation.md lists them, NaN (not measured) as null, kinds
// by name; fields a result does not have (mb_per_sec but for fills, the
// timed reads', the latency's) are left out.
void to_json(nlohmann::ordered_json& json, const BenchResult& result);

// The result such an object describes, or InvalidArgument for a kind's
// name this tool does not know. Fields it lacks keep BenchResult's defaults,
// but numbers, which read as NaN (not measured), as null does. The filter
// is its kind at the registry's bits per key.
absl::StatusOr<BenchResult> ResultFromJson(const nlohmann::ordered_json& json);

// ResultFromJson for nlohmann's get<BenchResult>(); throws
// std::invalid_argument where ResultFromJson fails.
void from_json(const nlohmann::ordered_json& json, BenchResult& result);
void from_json(const nlohmann::json& json, BenchResult& result);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_RESULTS_H_
