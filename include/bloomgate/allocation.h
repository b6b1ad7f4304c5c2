// Copyright 2026 The bloomgate Authors.
//
// Level-aware filter memory (Monkey: Dayan, Athanassoulis and Idreos,
// SIGMOD 2017). A lookup for an absent key costs, in expectation, the sum of
// the FP rates of the filters it passes; for a fixed memory budget that sum
// is smallest when each level's FP rate is proportional to its size, not
// when every level gets the same bits per key. Derivation and figures:
// docs/monkey-allocation.md.

#ifndef BLOOMGATE_ALLOCATION_H_
#define BLOOMGATE_ALLOCATION_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_options.h"

namespace bloomgate {

// Bits per key for each level that minimise the sum over levels of
// PredictedFpRate(layout, bits[i], OptimalNumProbes(layout, bits[i])), under
// the memory budget
//   sum_i keys_per_level[i] * bits[i] == average_bits_per_key * sum_i keys[i].
// keys_per_level may be counts or relative sizes; levels with no keys get 0.
// A level may get 0 bits per key (no filter at all) when memory is scarce;
// otherwise every value is within [0.25, kMaxBitsPerKey], and the budget is
// met within 0.1% unless every level is at the maximum.
// InvalidArgument for an empty or all-zero shape, a negative or non-finite
// size, or an average outside [0, kMaxBitsPerKey].
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
