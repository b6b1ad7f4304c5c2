// Copyright 2026 The bloomgate Authors.
//
// Runs the benchmarks of BenchOptions on each engine and filter, printing one
// db_bench-shaped line per benchmark as it finishes.

#ifndef BLOOMGATE_TOOLS_BENCH_RUNNER_H_
#define BLOOMGATE_TOOLS_BENCH_RUNNER_H_

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench_options.h"
#include "engine.h"
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

  // One engine and filter in `dir`, with `bloom_bits` (bits per key, the
  // average for bloomgate_monkey) instead of options.bloom_bits if given.
  absl::StatusOr<std::vector<BenchResult>> RunOne(
      EngineKind engine, FilterKind filter, const std::string& dir,
      std::optional<double> bloom_bits = std::nullopt);

  // The files of the last RunOne's engine after its last benchmark.
  const EngineShape& last_shape() const { return last_shape_; }

 private:
  BenchOptions options_;
  std::ostream* out_;
  EngineShape last_shape_;
};

// Where RunAll puts an engine's database under the --db folder.
std::string EngineDir(const std::string& base, EngineKind engine,
                      FilterKind filter);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_RUNNER_H_
