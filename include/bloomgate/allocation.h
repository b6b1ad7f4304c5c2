// Copyright 2026 The bloomgate Authors.
//
// Level-aware filter memory (Monkey: Dayan, Athanassoulis and Idreos,
// SIGMOD 2017). A lookup for an absent key costs, in expectation, the sum of
// the FP rates of the filters it passes; for a fixed memory budget that sum
// is smallest when each filter's FP rate is proportional to its keys over
// the share of lookups that reach it, not when every level gets the same
// bits per key. AllocateByCost extends this to a choice of filter family
// per run, by the expected time of a lookup. Derivation and figures:
// docs/monkey-allocation.md.

#ifndef BLOOMGATE_ALLOCATION_H_
#define BLOOMGATE_ALLOCATION_H_

#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/filter_spec.h"

namespace bloomgate {

// One group of keys that gets one filter budget: a file, or a level of an
// LSM tree.
struct FilterRun {
  // How many keys its filters hold (a count or a relative size, >= 0).
  double keys = 0;
  // The expected number of times a lookup for an absent key consults its
  // filters (>= 0): 1 for a level that spans the whole key range and that
  // every lookup reaches; for lookups spread uniformly over the key space,
  // the fraction of the key space its key range covers (summed over its
  // files); measured, the level's filter checks over the lookups.
  double reach = 1;
};

// Bits per key for each run that minimise the expected wasted reads of a
// lookup for an absent key,
//   sum_i runs[i].reach * PredictedFpRate(layout, bits[i], best k),
// under the memory budget
//   sum_i runs[i].keys * bits[i] == average_bits_per_key * sum_i keys[i].
// Runs with no keys get 0, and so do runs no lookup reaches (reach 0), unless
// no run with keys is reached at all: then every run with keys gets the
// average. A run may get 0 bits per key (no filter) when memory is scarce;
// otherwise every value is within [0.25, kMaxBitsPerKey], and the budget is
// met within 0.1% unless every reached run is at the maximum (the budget is
// then capped). With every reach 1 this is MonkeyBitsPerKey.
// InvalidArgument for an empty or keyless list, a negative or non-finite
// keys or reach, or an average outside [0, kMaxBitsPerKey].
absl::StatusOr<std::vector<double>> AllocateBitsPerKey(
    Layout layout, double average_bits_per_key,
    absl::Span<const FilterRun> runs);

// Bits per key for each level of a tree whose every level spans the whole
// key range (AllocateBitsPerKey with every reach 1): the sum over levels of
// the FP rates is smallest when each level's FP rate is proportional to its
// size. keys_per_level may be counts or relative sizes.
absl::StatusOr<std::vector<double>> MonkeyBitsPerKey(
    Layout layout, double average_bits_per_key,
    absl::Span<const double> keys_per_level);

// Relative level sizes of a leveled LSM tree with `num_levels` levels, each
// `fanout` times the one above it: {1, T, T^2, ...}, smallest (top) first.
std::vector<double> LeveledShape(int num_levels, double fanout);

// The sum of the levels' predicted FP rates for an allocation: the expected
// number of wasted reads of a lookup for an absent key (one filter per level).
double SumOfFpRates(Layout layout, absl::Span<const double> bits_per_key);

// The fewest wasted reads a lookup for an absent key could make, in
// expectation, with any per-file hash-based filters in this memory, for keys
// that do not depend on the filters' hash: the minimum over bits b_i >= 0 of
//   sum_i runs[i].reach * 2^-b_i
// under sum_i runs[i].keys * b_i <= average_bits_per_key * sum_i keys[i].
// 2^-b is the information-theoretic floor of a filter's FP rate at b bits
// per key (no filter of n keys with FP rate e takes fewer than
// n * log2(1/e) bits), which no family reaches: blocked Bloom sits about
// 1.5x above it in bits, Ribbon 1 + its overhead (kRibbonSlotOverhead). A floor
// to read measured reads against, not an allocation to build: give one run per
// file and it bounds every per-level and per-file split. A run without keys
// costs nothing (it holds no key to match), a run no lookup reaches gets no
// memory. InvalidArgument as AllocateBitsPerKey.
absl::StatusOr<double> FewestWastedReads(double average_bits_per_key,
                                         absl::Span<const FilterRun> runs);

// --- Mixed families, chosen by cost (AllocateByCost). ---

// Default costs, in microseconds, that a cost model takes where the spec
// gives none (FilterSpec::bloomgate_probe_nanos, ribbon_probe_nanos, set by
// a name's probe_ns field). Nothing measures them while filters are built, so a
// name means the same filters on every host; `bloomgate plan --calibrate`
// measures this machine's and prints the probe_ns field that would use them.
// Probes: median ns per absent-key query of a 10-bits/key filter of 10^6
// keys (1.25 MB, in cache), from bloomgate_benchmarks' QueryNegative row in
// docs/filter-core-design.md (bloomgate blocked, scalar kernel: 10.0 ns;
// RocksDB's FastLocalBloom, scalar: 19.2 ns; Standard128Ribbon: 34.0 ns).
// Reads: kDefaultDeviceReadMicros and kDefaultPageCacheReadMicros
// (filter_spec.h).
inline constexpr double kDefaultBloomgateProbeMicros = 0.010;
inline constexpr double kDefaultRocksDBBloomProbeMicros = 0.019;
inline constexpr double kDefaultRocksDBRibbonProbeMicros = 0.034;

// Memory a Standard128Ribbon filter (RocksDB's NewRibbonFilterPolicy) spends
// beyond its result bits, as a share of them: it keeps (1 + overhead) slots
// per key, each with a whole number of result bits (columns), and every
// column halves the FP rate. The share depends on the filter's keys and on
// RocksDB's release (its banding configuration, util/ribbon_config.cc, sizes
// the slots for a 1-in-20 construction failure chance, more per key as
// filters grow), so the RocksDB policy asks RocksDB's own sizing for each
// file's key count (CostInputsFor). This is the default where RocksDB is not
// at hand: what RocksDB's sizing gives for files of 8,192 to 65,536 keys,
// 0.040-0.041 (RocksDB 7.8.3; docs/monkey-allocation.md, "The curves").
inline constexpr double kRibbonSlotOverhead = 0.04;

// Predicted false-positive rate of a Standard128Ribbon filter whose memory
// is `bits_per_key` bits per key (its actual size, not the Bloom-equivalent
// bits per key RocksDB's policy takes): 2^(-b / (1 + overhead)).
// Between whole columns RocksDB mixes blocks of c and c + 1 columns, so
// the true curve is the chord between those points, up to 6% above this
// one; for filters of fewer than ~1000 keys RocksDB builds a Bloom filter
// instead. Returns 1.0 for bits_per_key <= 0 and NaN for NaN.
double PredictedRibbonFpRate(double bits_per_key,
                             double overhead = kRibbonSlotOverhead);

// What a cost model takes from the engine rather than from the spec:
// Ribbon's overhead for the files at hand (the RocksDB policy asks RocksDB's
// own sizing: CostInputsFor in rocksdb_filter_policy.h). The probe times are
// the spec's or the defaults above.
struct CostInputs {
  double ribbon_overhead = kRibbonSlotOverhead;

  bool operator==(const CostInputs&) const = default;
};

// One filter family a run may get, and what probing it costs.
struct FamilyCost {
  // kBloomgate, kRocksDBBloom or kRocksDBRibbon (no filter is always a
  // choice and needs no entry). Its FP rate at b bits per key of memory:
  // kBloomgate, PredictedFpRate(layout, b, OptimalNumProbes(layout, b));
  // kRocksDBBloom (cache-line blocked), the same for Layout::kBlocked;
  // kRocksDBRibbon, PredictedRibbonFpRate(b, LookupCostModel::
  // ribbon_overhead).
  FilterFamily family = FilterFamily::kBloomgate;
  // kBloomgate only.
  Layout layout = Layout::kBlocked;
  // Time of one probe of a filter that answers "no", in microseconds (>= 0).
  double probe_micros = kDefaultBloomgateProbeMicros;
};

// The cost of a lookup for an absent key.
struct LookupCostModel {
  // The families to choose from (at least one).
  std::vector<FamilyCost> families;
  // Time of the read a filter's false positive causes, in microseconds
  // (>= 0): the device's latency, or the page cache's if the data is cached.
  double read_micros = kDefaultDeviceReadMicros;
  // Ribbon's memory overhead (PredictedRibbonFpRate) for the files at hand
  // (>= 0).
  double ribbon_overhead = kRibbonSlotOverhead;
};

// The filter chosen for one run.
struct RunFilter {
  // kNone (and 0 bits per key): no filter.
  FilterFamily family = FilterFamily::kNone;
  // The curve's layout: as given for kBloomgate, kBlocked otherwise.
  Layout layout = Layout::kBlocked;
  // The filter's memory per key, in bits. For kRocksDBRibbon this is the
  // actual memory, about 30% less than the Bloom-equivalent bits per key
  // RocksDB's NewRibbonFilterPolicy takes for the same FP rate.
  double bits_per_key = 0;

  bool operator==(const RunFilter&) const = default;
};

// A filter family and bits per key for each run that minimise the expected
// time of a lookup for an absent key,
//   T = sum_i runs[i].reach * (probe_micros(family_i) + fp_i * read_micros)
// (no filter: probe 0, fp 1), under the memory budget
//   sum_i runs[i].keys * bits[i] <= average_bits_per_key * sum_i keys[i].
// The budget is met within 0.1% unless more memory would not lower T (every
// run with a filter at kMaxBitsPerKey, and a filter would cost the others
// more than it saves). Runs with no keys, runs no lookup reaches, and every
// run when read_micros is 0 get no filter; when no run with keys is reached
// at all, each gets the average in the family with the cheapest probe (as
// AllocateBitsPerKey). Filtered runs get [0.25, kMaxBitsPerKey] bits per
// key. With one family whose probe costs nothing this is
// AllocateBitsPerKey. InvalidArgument, naming the field, for no families, a
// family that is kNone or unknown, a kBloomgate layout that is unknown, a
// negative or non-finite probe_micros, read_micros or ribbon_overhead, and as
// AllocateBitsPerKey for the runs and the average.
absl::StatusOr<std::vector<RunFilter>> AllocateByCost(
    const LookupCostModel& model, double average_bits_per_key,
    absl::Span<const FilterRun> runs);

// The model's T, in microseconds, for `filters` (one per run), with exact FP
// rates; a filter's probe time is that of the first entry of model.families
// of its family (and, for kBloomgate, layout). NaN if the sizes differ or a
// filter's family is not in the model.
double ExpectedLookupMicros(const LookupCostModel& model,
                            absl::Span<const FilterRun> runs,
                            absl::Span<const RunFilter> filters);

// The cost model of a mixed spec (FilterSpec::mixed): bloomgate's family
// in spec.layout and RocksDB's Ribbon, at the spec's probe times where it
// gives them and the defaults above otherwise, Ribbon at
// inputs.ribbon_overhead, and spec.read_micros; for any other spec, spec's
// own family alone.
LookupCostModel CostModelFor(const FilterSpec& spec,
                             const CostInputs& inputs = {});

// The filter of each level L0 .. L<num_levels - 1> of a tree of the shape
// a level-aware spec assumes (LeveledShape(num_levels, spec.fanout)), each
// level spanning the whole key range: with mixed, AllocateByCost at
// spec.bits_per_key under CostModelFor(spec, inputs); otherwise spec's
// family at LevelBitsPerKey's bits (kNone where that is 0). InvalidArgument
// as FilterSpec::LevelBitsPerKey.
absl::StatusOr<std::vector<RunFilter>> LevelFilters(
    const FilterSpec& spec, int num_levels, const CostInputs& inputs = {});

// --- Matching a memory target. ---

// A filter's memory as a function of its size parameter (bits per key, or
// RocksDB Ribbon's Bloom-equivalent bits per key): never falling as the
// parameter grows, and in steps (whole lines, Ribbon's slots).
using MemoryAtParameter = std::function<absl::StatusOr<double>(double)>;

// The parameter in [lo, hi] whose memory is nearest `target`: bisection
// until the interval is narrower than `tolerance`, then whichever of its
// two ends is nearer (the upper on a tie). Where a step falls inside the
// interval that is the lowest parameter that reaches the target or the
// highest below it. Errors of `memory_at` are returned as they are; a
// target outside [memory_at(lo), memory_at(hi)] gives the nearer bound.
absl::StatusOr<double> ParameterForMemory(double target, double lo, double hi,
                                          double tolerance,
                                          const MemoryAtParameter& memory_at);

// ParameterForMemory for a target in bits per key of memory that must lie
// within what the parameters [lo, hi] take: InvalidArgument ("<what> cannot
// take <target> bits per key of memory: its filters take <at lo> to <at hi>
// bits per key") outside it.
absl::StatusOr<double> ParameterForMemoryWithin(
    std::string_view what, double target, double lo, double hi,
    double tolerance, const MemoryAtParameter& memory_at);

}  // namespace bloomgate

#endif  // BLOOMGATE_ALLOCATION_H_
