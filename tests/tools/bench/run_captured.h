// Copyright 2026 The bloomgate Authors.
//
// Runs bloomgate_bench's Runner the way the tests need it: its report written
// to a string, a failed run failing the test.

#ifndef BLOOMGATE_TESTS_TOOLS_BENCH_RUN_CAPTURED_H_
#define BLOOMGATE_TESTS_TOOLS_BENCH_RUN_CAPTURED_H_

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "tools/bench/bench_options.h"
#include "tools/bench/results.h"
#include "tools/bench/runner.h"

namespace bloomgate::bench {

// Calls run(runner) on a Runner for `options` and returns its results, or
// none (after a failed expectation) if it fails; `*output` gets what the
// runner printed.
template <typename RunFn>
std::vector<BenchResult> RunCaptured(const BenchOptions& options, RunFn run,
                                     std::string* output) {
  std::ostringstream out;
  Runner runner(options, &out);
  absl::StatusOr<std::vector<BenchResult>> results = run(runner);
  EXPECT_TRUE(results.ok()) << results.status();
  *output = out.str();
  return results.ok() ? *std::move(results) : std::vector<BenchResult>{};
}

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TESTS_TOOLS_BENCH_RUN_CAPTURED_H_
