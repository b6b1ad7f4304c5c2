// Copyright 2026 The bloomgate Authors.
//
// Bloom filter sizing: how many bits and probes a target FP rate needs, and
// what FP rate a given memory buys in each layout.

#ifndef BLOOMGATE_SIZING_H_
#define BLOOMGATE_SIZING_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "bloomgate/filter_options.h"

namespace bloomgate {

struct BloomParams {
  uint64_t num_bits = 0;  // m
  int num_probes = 0;     // k
};

// The classic sizing of a textbook filter for `num_keys` keys (n) and a target
// false-positive rate `fp_rate` (eps):
//   m = ceil(n * -ln(eps) / ln(2)^2),   k = ceil((m/n) * ln(2)),
// with m/n taken before rounding. CalculateParams(1e9, 0.01) is
// {9585058378, 7}; CalculateParams(10000, 0.01) is {95851, 7}.
// InvalidArgument for num_keys == 0 and for fp_rate outside (0, 1) or NaN;
// OutOfRange when m does not fit in 64 bits.
absl::StatusOr<BloomParams> CalculateParams(uint64_t num_keys, double fp_rate);

// Bits per key a textbook filter with the optimal k needs for `fp_rate`:
// -ln(fp_rate) / ln(2)^2 (9.585 for 1%). InvalidArgument as above.
absl::StatusOr<double> BitsPerKeyForFpRate(double fp_rate);

// Predicted false-positive rate of a filter with `bits_per_key` bits per key
// and `num_probes` probes, for keys and queries that hash uniformly:
//   kStandard: (1 - e^(-k/b))^k, the textbook formula;
//   kBlocked:  the exact chance that k uniform probes of one 512-bit line
//              all find set bits, averaged over the Poisson-distributed
//              number of keys that share a line (mean 512/b). Lines that
//              draw many keys dominate the error, which is why a blocked
//              filter needs a little more memory. (The common shortcut, the
//              textbook formula inside the line, is about 1% low at 10
//              bits/key: 0.957% where filters measure 0.966%.)
// Returns 1.0 (a filter that filters nothing) for bits_per_key <= 0 or
// num_probes < 1, and NaN for a NaN argument.
double PredictedFpRate(Layout layout, double bits_per_key, int num_probes);

// Predicted false-positive rate of one filter of `layout` whose bit array of
// `num_bits` bits holds `num_keys` distinct keys, each probed `num_probes`
// times: PredictedFpRate at num_bits / num_keys bits per key; 0 for no keys
// (an empty filter matches nothing), 1 for no bits. Every prediction for a
// filter that exists or is planned comes from here (FilterSpec,
// FilterBuilder, the LSM's tables, the tools), so none can drift from the
// others.
double PredictedFilterFpRate(Layout layout, uint64_t num_keys,
                             uint64_t num_bits, int num_probes);

// The probe count in [1, the layout's maximum] that minimises
// PredictedFpRate for `bits_per_key`; ties go to fewer probes (cheaper).
// bits_per_key must be within [kMinBitsPerKey, kMaxBitsPerKey].
int OptimalNumProbes(Layout layout, double bits_per_key);

}  // namespace bloomgate

#endif  // BLOOMGATE_SIZING_H_
