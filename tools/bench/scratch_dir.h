// Copyright 2026 The bloomgate Authors.
//
// Fresh, uniquely named folders under the system's temporary directory, for
// databases that live only as long as a run.

#ifndef BLOOMGATE_TOOLS_BENCH_SCRATCH_DIR_H_
#define BLOOMGATE_TOOLS_BENCH_SCRATCH_DIR_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace bloomgate::bench {

// Creates <temporary directory>/<prefix>.XXXXXX (mkdtemp: a new folder that
// no other process has) and returns its path. The caller removes it.
absl::StatusOr<std::string> CreateScratchDir(std::string_view prefix);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_SCRATCH_DIR_H_
