// Copyright 2026 The bloomgate Authors.

#include "src/lsm/level_filters.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "bloomgate/filter_spec.h"

namespace bloomgate::lsm {
namespace {

// `field` names the option in messages.
absl::Status CheckBuildable(const FilterSpec& spec, const std::string& field) {
  if (!BuildsFilter(spec)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": the LSM builds bloomgate filters only, not ",
                     spec.KindName()));
  }
  if (absl::Status s = spec.Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": ", s.message()));
  }
  return absl::OkStatus();
}

std::optional<FilterOptions> OptionsAt(const FilterSpec& spec, double bits) {
  // Monkey gives a level 0 bits when memory is very scarce: no filter there.
  if (spec.family == FilterFamily::kNone || bits <= 0) return std::nullopt;
  return spec.Options(bits);
}

}  // namespace

bool BuildsFilter(const FilterSpec& spec) {
  return spec.family == FilterFamily::kNone ||
         (spec.family == FilterFamily::kBloomgate && !spec.mixed);
}

absl::StatusOr<std::vector<std::optional<FilterOptions>>> LevelFilterOptions(
    const StoreOptions& options) {
  std::vector<std::optional<FilterOptions>> levels;
  if (!options.level_filters.empty()) {
    if (static_cast<int>(options.level_filters.size()) != options.num_levels) {
      return absl::InvalidArgumentError(
          absl::StrCat("level_filters has ", options.level_filters.size(),
                       " entries; it must be empty or have num_levels (",
                       options.num_levels, ")"));
    }
    for (size_t l = 0; l < options.level_filters.size(); ++l) {
      const FilterSpec& spec = options.level_filters[l];
      if (absl::Status s =
              CheckBuildable(spec, absl::StrCat("level_filters[", l, "]"));
          !s.ok()) {
        return s;
      }
      levels.push_back(OptionsAt(spec, spec.bits_per_key));
    }
    return levels;
  }
  const FilterSpec& spec = options.filter;
  if (absl::Status s = CheckBuildable(spec, "filter"); !s.ok()) return s;
  if (spec.family == FilterFamily::kNone) {
    return std::vector<std::optional<FilterOptions>>(options.num_levels);
  }
  absl::StatusOr<std::vector<double>> bits =
      spec.LevelBitsPerKey(options.num_levels);
  if (!bits.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter: ", bits.status().message()));
  }
  for (double b : *bits) levels.push_back(OptionsAt(spec, b));
  return levels;
}

}  // namespace bloomgate::lsm
