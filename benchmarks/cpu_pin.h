// Copyright 2026 The bloomgate Authors.
//
// Keeps a single-threaded benchmark binary on one CPU, so that both sides of
// every ratio it reports run on the same core.
//
// The CPUs of a virtual machine are not equally fast: on this project's
// 2-vCPU hosts (2026-12-06, taskset, two runs each) bloomgate's scalar
// 10^6-key filter build took 9.2-9.6 ns/key on one vCPU and 6.8-6.9 on the
// other, RocksDB's 14.3 and 9.7-10.2, so the ratio of the two was 0.64-0.69x
// on either. The scheduler moves a process between them mid-run, though,
// and a ratio whose sides ran on different vCPUs compares the vCPUs: three
// unpinned full runs that day gave the same build 0.78x, 0.68x and 1.04x,
// the last with bloomgate at about the slow vCPU's speed (10.7 ns/key) and
// RocksDB at the fast one's (10.3).
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
