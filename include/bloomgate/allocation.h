// Copyright 2026 The bloomgate Authors.
//
// Level-aware filter memory (Monkey: Dayan, Athanassoulis and Idreos,
// SIGMOD 2017). A lookup for an absent key costs, in expectation, the sum of
// the FP rates of the filters it passes; for a fixed memory budget that sum
// is smallest when each filter's FP rate is proportional to its keys over
// the share of lookups that reach it, not when every level gets the same
// bits per key. Derivation and figures: docs/monkey-allocation.md.

#ifndef BLOOMGATE_ALLOCATION_H_
#define BLOOMGATE_ALLOCATION_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_options.h"

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

}  // namespace bloomgate

#endif  // BLOOMGATE_ALLOCATION_H_
