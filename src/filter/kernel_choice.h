// Copyright 2026 The bloomgate Authors.
//
// Which kernels a process may use (those that pass their check,
// kernel_check.h) and how the BLOOMGATE_SIMD environment variable picks one
// of them (bloomgate/simd.h), apart from the process's own state so that
// tests can try any value and any set of kernels.

#ifndef BLOOMGATE_SRC_FILTER_KERNEL_CHOICE_H_
#define BLOOMGATE_SRC_FILTER_KERNEL_CHOICE_H_

#include <string>
#include <vector>

#include "absl/types/span.h"
#include "bloomgate/simd.h"
#include "src/filter/blocked_kernels.h"

namespace bloomgate::internal {

struct CheckedKernels {
  // The kernels that passed, widest first; never empty (scalar, if nothing
  // passed: see `failures`).
  std::vector<SimdKernel> passed;
  // Empty, or a line (ending in '\n') for each kernel refused.
  std::string failures;
};

// Checks every kernel of `runnable` (compiled, and run by this CPU; widest
// first, the scalar kernel last) with CheckBlockedKernel.
CheckedKernels CheckKernels(absl::Span<const BlockedKernel* const> runnable);

// The kernels of this build that this CPU runs, checked once per process.
const CheckedKernels& ProcessKernels();

struct KernelChoice {
  SimdKernel kernel;
  // Empty, or why `value` was ignored (one line, for stderr).
  std::string warning;
};

// The kernel BLOOMGATE_SIMD=`value` selects from `kernels`; nullptr or ""
// means unset, which selects the widest.
KernelChoice ChooseSimdKernel(const char* value, const CheckedKernels& kernels);

// The same from ProcessKernels().
KernelChoice ChooseSimdKernel(const char* value);

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_KERNEL_CHOICE_H_
