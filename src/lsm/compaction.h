// Copyright 2026 The bloomgate Authors.
//
// The merge at the heart of a compaction: runs of tables, newest first, are
// walked in key order; for each key only the newest entry survives, and a
// surviving tombstone is dropped when nothing older can be shadowed.

#ifndef BLOOMGATE_SRC_LSM_COMPACTION_H_
#define BLOOMGATE_SRC_LSM_COMPACTION_H_

#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "src/lsm/file.h"
#include "src/lsm/version.h"

namespace bloomgate::lsm {

using EmitFn =
    std::function<absl::Status(std::string_view, ValueType, std::string_view)>;

// Calls `emit` once per distinct key of `runs`, in key order, with the
// newest entry (runs[0] is the newest). Reads every input block once;
// their read calls are added to *cost.
absl::Status MergeRuns(const std::vector<std::vector<TablePtr>>& runs,
                       bool drop_tombstones, ReadCost* cost,
                       const EmitFn& emit);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_COMPACTION_H_
