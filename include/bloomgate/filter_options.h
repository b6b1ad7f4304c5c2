// Copyright 2026 The bloomgate Authors.
//
// How a filter is shaped: its layout and its memory per key.

#ifndef BLOOMGATE_FILTER_OPTIONS_H_
#define BLOOMGATE_FILTER_OPTIONS_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomgate {

// Where a key's probes land. The value is stored in every filter block, so
// existing values never change meaning (docs/filter-format.md).
enum class Layout : uint8_t {
  // All probes of a key fall in one 64-byte cache line chosen by the hash:
  // one cache miss per query, at the price of a slightly higher FP rate than
  // the textbook layout for the same memory (0.96% vs 0.82% at 10 bits/key).
  kBlocked = 1,
  // The textbook Bloom filter: k probes anywhere in the bit array, by
  // enhanced double hashing. Up to k cache misses per query.
  kStandard = 2,
};

// "blocked" / "standard".
const char* LayoutName(Layout layout);
// Parses LayoutName()'s output.
absl::StatusOr<Layout> ParseLayout(std::string_view name);

// Largest probe count each layout supports (the format stores it in a byte;
// the blocked layout's SIMD query tests up to 16 probes at once).
inline constexpr int kMaxBlockedProbes = 16;
inline constexpr int kMaxStandardProbes = 32;

// Smallest and largest accepted bits per key. Tiny budgets are allowed on
// purpose: an allocation over many filters may give some well under one
// bit/key.
inline constexpr double kMinBitsPerKey = 0.1;
inline constexpr double kMaxBitsPerKey = 100.0;

struct FilterOptions {
  // Memory per distinct key, in bits; fractional values are honoured (the
  // filter gets ceil(num_keys * bits_per_key) bits, rounded up to whole
  // cache lines for the blocked layout).
  double bits_per_key = 10.0;
  Layout layout = Layout::kBlocked;
  // Probes per key. 0 picks the layout's optimum for bits_per_key
  // (OptimalNumProbes in sizing.h), which is what almost every caller wants.
  int num_probes = 0;
};

// OK, or InvalidArgument naming the offending field: bits_per_key outside
// [kMinBitsPerKey, kMaxBitsPerKey] or not a number, an unknown layout, or
// num_probes outside [0, the layout's maximum].
absl::Status ValidateFilterOptions(const FilterOptions& options);

}  // namespace bloomgate

#endif  // BLOOMGATE_FILTER_OPTIONS_H_
