// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_options.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

namespace bloomgate {

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kBlocked:
      return "blocked";
    case Layout::kStandard:
      return "standard";
  }
  return "unknown";
}

absl::StatusOr<Layout> ParseLayout(std::string_view name) {
  if (name == "blocked") return Layout::kBlocked;
  if (name == "standard") return Layout::kStandard;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown filter layout '", std::string(name),
                   "' (expected blocked or standard)"));
}

absl::Status ValidateFilterOptions(const FilterOptions& options) {
  // Written so that NaN fails the range test.
  if (!(options.bits_per_key >= kMinBitsPerKey &&
        options.bits_per_key <= kMaxBitsPerKey)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bits_per_key must be in [", kMinBitsPerKey, ", ",
                     kMaxBitsPerKey, "], got ", options.bits_per_key));
  }
  int max_probes;
  switch (options.layout) {
    case Layout::kBlocked:
      max_probes = kMaxBlockedProbes;
      break;
    case Layout::kStandard:
      max_probes = kMaxStandardProbes;
      break;
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown filter layout ", static_cast<int>(options.layout)));
  }
  if (options.num_probes < 0 || options.num_probes > max_probes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "num_probes must be in [0, ", max_probes, "] for the ",
        LayoutName(options.layout), " layout, got ", options.num_probes));
  }
  return absl::OkStatus();
}

}  // namespace bloomgate
