// Copyright 2026 The bloomgate Authors.
//
// `bloomgate size`: how much memory a filter needs, and what it buys, in both
// layouts.

#ifndef BLOOMGATE_TOOLS_SIZER_SIZE_H_
#define BLOOMGATE_TOOLS_SIZER_SIZE_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace bloomgate::tools {

struct SizeRequest {
  uint64_t num_keys = 0;
  // Exactly one of the two.
  std::optional<double> fp_rate;
  std::optional<double> bits_per_key;
};

struct SizeReport {
  uint64_t num_keys = 0;
  double bits_per_key = 0;  // m / n
  // The textbook filter as FilterBuilder lays it out in the standard layout
  // (FilterSpec::BitsFor): m and k by the classic formulas (CalculateParams)
  // when sized from an FP rate; m = ceil(n * bits_per_key) and the optimal k
  // otherwise; m at least the layout's minimum. Where the optimal k is more
  // than a filter block holds (kMaxStandardProbes), k is that maximum and m
  // what it needs.
  uint64_t bits = 0;
  int k = 0;
  bool k_capped = false;
  uint64_t bytes = 0;  // ceil(m / 8)
  double fp_standard = 0;
  // The blocked layout at the same bits per key: whole 64-byte lines, its
  // own optimal k.
  int k_blocked = 0;
  uint64_t bytes_blocked = 0;
  double fp_blocked = 0;
};

absl::StatusOr<SizeReport> ComputeSize(const SizeRequest& request);

std::string FormatSizeText(const SizeReport& report);
std::string FormatSizeJson(const SizeReport& report);

// "11.7 KiB (11982 bytes)": binary units, which the textbook example calls KB.
std::string HumanBytes(uint64_t bytes);

}  // namespace bloomgate::tools

#endif  // BLOOMGATE_TOOLS_SIZER_SIZE_H_
