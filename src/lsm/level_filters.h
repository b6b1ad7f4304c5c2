// Copyright 2026 The bloomgate Authors.
//
// Which filter a table written to each level gets, from StoreOptions: the
// per-level list if one is given, else the store's FilterSpec, level-aware
// (Monkey) or uniform.

#ifndef BLOOMGATE_SRC_LSM_LEVEL_FILTERS_H_
#define BLOOMGATE_SRC_LSM_LEVEL_FILTERS_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/lsm/store.h"

namespace bloomgate::lsm {

// One entry per level 0 .. num_levels-1: the core's options for the filter
// of a table written there, std::nullopt for no filter. InvalidArgument,
// naming the field, for a filter the LSM cannot build (not bloomgate's, or
// invalid) and for level_filters of the wrong length.
absl::StatusOr<std::vector<std::optional<FilterOptions>>> LevelFilterOptions(
    const StoreOptions& options);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_LEVEL_FILTERS_H_
