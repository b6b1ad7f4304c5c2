// Copyright 2026 The bloomgate Authors.
//
// The check a blocked kernel passes before a process uses it. At first use
// (simd.cc), each kernel this build has and this CPU runs fills a small
// filter from a fixed set of hashes and answers queries for keys and hashes
// in and out of it, one at a time and in batches, for every probe count; its
// bits and answers are compared with the definition (BlockedAdd, and a plain
// bit test). A kernel that disagrees is never used, and the process says so.
//
// Why: a kernel is code compiled for an instruction set the developers' and
// CI's machines may not have, by whatever compiler and flags the user builds
// with. A miscompiled kernel has happened (docs/filter-core-design.md,
// "Compiler flags and the kernels"): with the check it costs the user speed,
// never keys. The work, per kernel and once per process: for each of the 16
// probe counts, an 8 KiB array filled from 1,000 hashes three times (the
// kernel's fill with and without prefetching, and the definition) and
// about 1,300 queries.

#ifndef BLOOMGATE_SRC_FILTER_KERNEL_CHECK_H_
#define BLOOMGATE_SRC_FILTER_KERNEL_CHECK_H_

#include "absl/status/status.h"
#include "src/filter/blocked_kernels.h"

namespace bloomgate::internal {

// OK if `kernel` sets the definition's bits and gives the definition's
// answers on the check's keys; otherwise Internal, saying what differed.
// The kernel's functions must be runnable on this CPU.
absl::Status CheckBlockedKernel(const BlockedKernel& kernel);

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_KERNEL_CHECK_H_
