// Copyright 2026 The bloomgate Authors.
//
// Keeps a single-threaded benchmark binary on one CPU, so that both sides of
// every ratio it reports run on the same core.
//
// The CPUs of a virtual machine need not be equally fast, and the scheduler
// may move a process between them mid-run; a ratio whose two sides ran on
// different CPUs then compares the CPUs, not the code. The measurements are
// in docs/filter-core-design.md ("How far one run can be trusted").
//
// Flag (removed from argv before Google Benchmark parses the rest):
//   --bloomgate_cpu=N     pin to CPU N
//   --bloomgate_cpu=any   leave placement to the scheduler
//   (absent)              pin to the CPU the process is running on

#ifndef BLOOMGATE_BENCHMARKS_CPU_PIN_H_
#define BLOOMGATE_BENCHMARKS_CPU_PIN_H_

#include <string>

#include "absl/status/statusor.h"

namespace bloomgate::bench {

// Applies --bloomgate_cpu from argv (removing it) to the calling thread, and
// with it to the threads it starts later. Returns what was done, for the
// report's context: "3 (pinned)", or "any (not pinned)". An unparseable
// value, or a CPU the process may not run on, is an error (nothing pinned).
absl::StatusOr<std::string> PinToOneCpu(int* argc, char** argv);

// PinToOneCpu for a main(): on error, prints it and exits with status 1.
std::string PinToOneCpuOrExit(int* argc, char** argv);

// The flag's lines for a binary's --help.
inline constexpr char kCpuFlagHelp[] =
    "  --bloomgate_cpu=<n>|any\n"
    "      run pinned to CPU n, or anywhere with \"any\" (default: pinned to\n"
    "      the CPU the process starts on, so that both sides of every ratio\n"
    "      run on the same core)\n";

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_BENCHMARKS_CPU_PIN_H_
