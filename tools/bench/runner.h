// Copyright 2026 The bloomgate Authors.
//
// Runs the benchmarks of BenchOptions on each engine and filter, printing one
// db_bench-shaped line per benchmark as it finishes.

#ifndef BLOOMGATE_TOOLS_BENCH_RUNNER_H_
#define BLOOMGATE_TOOLS_BENCH_RUNNER_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench_options.h"
#include "results.h"

namespace bloomgate::bench {

class Runner {
 public:
  // Lines go to `out`; options must pass ValidateBenchOptions.
  Runner(const BenchOptions& options, std::ostream* out);

  // Every supported (engine, filter) pair in flag order, each in a fresh
  // database (or the existing one with use_existing_db). Returns the results
  // of every fill and read benchmark; stops at the first error.
  absl::StatusOr<std::vector<BenchResult>> RunAll();

  // One engine and filter in `dir`.
  absl::StatusOr<std::vector<BenchResult>> RunOne(EngineKind engine,
                                                  FilterKind filter,
                                                  const std::string& dir);

 private:
  BenchOptions options_;
  std::ostream* out_;
};

// Where RunAll puts an engine's database under the --db folder.
std::string EngineDir(const std::string& base, EngineKind engine,
                      FilterKind filter);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_RUNNER_H_
