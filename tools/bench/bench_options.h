// Copyright 2026 The bloomgate Authors.
//
// What one run of bloomgate_bench measures: the parsed, validated form of its
// command-line flags. The flags themselves live in bloomgate_bench.cc; every
// other part of the tool reads this struct, so the tests can drive the tool
// without a command line.

#ifndef BLOOMGATE_TOOLS_BENCH_BENCH_OPTIONS_H_
#define BLOOMGATE_TOOLS_BENCH_BENCH_OPTIONS_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomgate/filter_spec.h"
#include "tools/bench/engine_settings.h"
#include "tools/bench/workload.h"

namespace bloomgate::bench {

// The storage engines the tool drives through one interface (engine.h).
enum class EngineKind { kLsm, kRocksDB };

// The benchmarks, in db_bench's names.
enum class BenchmarkKind {
  kFillRandom,  // num keys in random order
  kFillSeq,     // num keys in ascending order
  // num keys in a leveled tree of the shape Monkey assumes (num_levels
  // levels, each max_bytes_for_level_multiplier times the one above),
  // loaded level by level, deepest first (monkey.h, LevelWeights)
  kFillLevels,
  kReadRandom,   // reads lookups of present keys
  kReadMissing,  // reads lookups of absent keys
  // lookups of absent keys, multiget_batch keys per MultiGet call
  kMultiReadMissing,
  kReadMixed,  // reads lookups, negative_ratio of them absent
  kStats,      // the engine's own statistics
  // Every live file's filter rewritten as the policy now chooses it
  // (Engine::RewriteFilters): after reads, a pool's filters sized by the
  // reach those reads measured. RocksDB only.
  kRewriteFilters,
};

std::string_view EngineName(EngineKind engine);
std::string_view BenchmarkName(BenchmarkKind benchmark);
bool IsFillBenchmark(BenchmarkKind benchmark);

// Parse one name each; InvalidArgument listing the accepted names otherwise.
absl::StatusOr<EngineKind> ParseEngine(std::string_view name);
absl::StatusOr<BenchmarkKind> ParseBenchmark(std::string_view name);

// Parse a comma-separated list (empty items are ignored; an empty list is an
// error).
absl::StatusOr<std::vector<EngineKind>> ParseEngineList(std::string_view list);
// One item of --filter: a registry kind (FilterKinds in
// bloomgate/filter_spec.h), which runs at the run's filter memory
// (--bloom_bits, FilterForRun), or a kind with its own parameter, which runs
// at that, for sweeps: "rocksdb_ribbon:14.2" (Ribbon's Bloom-equivalent
// parameter, not its memory), "bloomgate:12:standard" (FilterSpec::Parse).
struct FilterArg {
  FilterSpec spec;  // at 10 bits per key unless own_parameter
  bool own_parameter = false;

  bool operator==(const FilterArg&) const = default;
};

absl::StatusOr<std::vector<FilterArg>> ParseFilterList(std::string_view list);
absl::StatusOr<std::vector<BenchmarkKind>> ParseBenchmarkList(
    std::string_view list);

// Whether `engine` can run with `filter`: the LSM builds only bloomgate's own
// filters (bloomgate_monkey through StoreOptions::level_filters); RocksDB
// runs all of them (bloomgate's through its plug-in).
bool EngineSupports(EngineKind engine, const FilterSpec& filter);

struct BenchOptions {
  std::vector<BenchmarkKind> benchmarks;
  std::vector<EngineKind> engines;
  std::vector<FilterArg> filters;  // ParseFilterList

  int64_t num = 1000000;    // keys written by a fill
  int64_t reads = 1000000;  // lookups per read benchmark (all threads)
  // Lookups of a read benchmark without a filter, when > 0 and < reads: the
  // first filterless_reads of the same lookup streams.
  int64_t filterless_reads = 100000;
  int key_size = 16;             // bytes
  int value_size = 100;          // bytes
  double negative_ratio = 0.99;  // share of absent keys in readmixed
  // Where lookups fall in the key order (--lookup_dist).
  LookupDistribution lookup_dist;
  // Filter memory per key, in bits, for every filter without its own
  // parameter: RocksDB's Ribbon gets the parameter that takes this memory
  // (SpecForMemory), the others take it as theirs.
  double bloom_bits = 10.0;
  // Non-empty: every filter without its own parameter runs at each of these
  // memories in turn, bits per key, in place of bloom_bits (filter none
  // once), on one tree where same_tree grows one: a sweep of memory whose
  // only change from point to point is the filters. memory_reference does
  // not apply.
  std::vector<double> sweep_bits;
  uint64_t seed = 301;
  int batch_size = 100;     // keys per write of a fill (db_bench's batch_size)
  int threads = 1;          // lookup threads (fills always use one)
  int multiget_batch = 32;  // keys per MultiGet of multireadmissing

  // Where the databases live: one sub-folder per engine and filter. Empty:
  // a fresh temporary folder, removed at the end unless keep_db.
  std::string db;
  bool keep_db = false;
  bool use_existing_db = false;

  // The LSM's shape, the block cache, direct reads: what the engines take.
  EngineSettings engine;

  // The filter whose measured memory the others are matched to: each
  // engine runs it first, at bloom_bits, measures what its filters took
  // (bits per key over its files' keys), and runs every other filter
  // without its own parameter at that memory, sized for the same files.
  // Empty: the first of `filters` the engine runs (but none); a kind name
  // (FilterSpec::KindName) for that one; "none" for every filter at
  // bloom_bits.
  std::string memory_reference;
  // The rocksdb engine grows one tree (with bloomgate at bloom_bits) and
  // measures every filter on a copy of it, each file rewritten with that
  // filter (Engine::RewriteFilters), so that a ratio of reads between
  // filters is the filters' gain. Not with filllevels (whose trees are the
  // same by construction) or use_existing_db; the lsm engine's trees repeat
  // exactly anyway.
  bool same_tree = true;

  // Fail, rather than read buffered, where the file system refuses the
  // O_DIRECT of engine.use_direct_reads (direct_reads.h).
  bool require_direct_reads = false;
  // Per-lookup latency percentiles of each read benchmark, split by hit and
  // miss (histogram.h): one steady-clock pair per lookup.
  bool histogram = false;
  double io_latency_us = 0;  // latency model (docs/evaluation.md); 0 = off
  // The read time bloomgate_mixed's cost model weighs a false positive
  // with, in microseconds; unset: with engine.use_direct_reads the device's
  // latency measured before the run (measured_read_micros) or, where it
  // could not be, kDefaultDeviceReadMicros; else kDefaultPageCacheReadMicros.
  std::optional<double> read_micros;
  // Set by ApplyDirectReads (direct_reads.h); NaN where not measured.
  double measured_read_micros = std::numeric_limits<double>::quiet_NaN();
  // The probe times bloomgate_mixed's cost model weighs a filter check
  // with, in nanoseconds (FilterSpec::bloomgate_probe_nanos); both 0: the
  // documented defaults (allocation.h), as the policy takes them by name.
  double bloomgate_probe_nanos = 0;
  double ribbon_probe_nanos = 0;
  // > 0: every engine and filter grows one database of its own from num
  // keys to grow_to in grow_steps steps (GrowthSteps), in place of
  // `benchmarks`: each step writes its new keys (a random order of the
  // grow_to keys, the same for every filter), flushes and waits for the
  // engine's compactions, and looks up `reads` absent keys spread over the
  // whole key range of grow_to keys (readmissing). Not with sweep_bits or
  // use_existing_db; same_tree does not apply (each filter writes its own
  // files as the tree grows).
  int64_t grow_to = 0;
  int grow_steps = 5;
  std::string json;      // write results here when not empty
  bool progress = true;  // progress bar when stderr is a terminal
};

// The keys after each step of a growth from `num` to `grow_to` in `steps`
// steps: geometric, num first and grow_to last (1M to 16M in 5: 1M, 2M, 4M,
// 8M, 16M), each more than the one before. Needs num >= 1, grow_to > num
// and steps >= 2 (ValidateBenchOptions).
std::vector<int64_t> GrowthSteps(int64_t num, int64_t grow_to, int steps);

// The keys of the key space (workload.h's KeySpace) every fill writes into
// and every lookup draws from: grow_to when growing, else num.
int64_t KeySpaceKeys(const BenchOptions& o);

// The filter a run of `filter` (an entry of options.filters) builds: its own
// parameter, or `bits` bits per key, or options.bloom_bits; with the tree's
// fanout (max_bytes_for_level_multiplier) for a level-aware kind, and the
// run's read time (ReadMicros) and probe times for mixed families, without
// their own parameter; with one (a memory budget), those its name leaves
// at their defaults. The parameter, not yet the memory: the runner turns
// memory into Ribbon's parameter.
FilterSpec FilterForRun(const FilterArg& filter, const BenchOptions& options,
                        std::optional<double> bits = std::nullopt);

// options.read_micros, or its default for the run's reads.
double ReadMicros(const BenchOptions& options);

// The two kinds the Monkey table pairs: bloomgate_monkey (level-aware bits
// per key) and bloomgate (uniform), both blocked; compare with
// FilterSpec::SameKind.
inline constexpr FilterSpec kMonkeyKind{.monkey = true};
inline constexpr FilterSpec kUniformKind{};

// OK, or InvalidArgument naming the offending flag.
absl::Status ValidateBenchOptions(const BenchOptions& options);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_BENCH_OPTIONS_H_
