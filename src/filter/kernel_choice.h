// Copyright 2026 The bloomgate Authors.
//
// How the BLOOMGATE_SIMD environment variable picks the process's kernel
// (bloomgate/simd.h), apart from the environment so that tests can try any
// value.

#ifndef BLOOMGATE_SRC_FILTER_KERNEL_CHOICE_H_
#define BLOOMGATE_SRC_FILTER_KERNEL_CHOICE_H_

#include <string>

#include "bloomgate/simd.h"

namespace bloomgate::internal {

struct KernelChoice {
  SimdKernel kernel;
  // Empty, or why `value` was ignored (one line, for stderr).
  std::string warning;
};

// The kernel BLOOMGATE_SIMD=`value` selects; nullptr or "" means unset.
KernelChoice ChooseSimdKernel(const char* value);

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_KERNEL_CHOICE_H_
