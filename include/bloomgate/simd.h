// Copyright 2026 The bloomgate Authors.
//
// Which instruction set the blocked layout's builds and queries run on.
//
// One binary serves every x86-64 CPU: the library is compiled for the
// x86-64 baseline, and the blocked layout's query loops are compiled once
// per instruction set and chosen at run time, once per process, for the
// widest one the CPU has. Every kernel reads and writes the same bits (the
// format does not depend on it), so a filter built with one is read with any
// other. Builds for other architectures have the scalar kernel only.
//
// At first use each kernel the CPU runs is checked: it fills and queries a
// small filter and must set the format's bits and give its answers, or it
// is refused (never used, and said once on stderr; SimdKernelCheckFailures
// says it too). A kernel miscompiled by the user's compiler or flags then
// costs speed, never a false "no".
//
// The environment variable BLOOMGATE_SIMD=scalar|avx2 sets the process's
// kernel when it is first needed, for tests and comparisons. A value that is
// not one of these names, or names a kernel this build or CPU lacks or that
// failed its check, is ignored with a one-line warning on stderr, and the
// widest supported kernel is used: a typo must not make a service slower
// silently, nor stop it.

#ifndef BLOOMGATE_SIMD_H_
#define BLOOMGATE_SIMD_H_

#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomgate {

// Widest last, so that kernels compare by width.
enum class SimdKernel : uint8_t {
  kScalar,  // plain C++, any CPU
  kAvx2,    // x86-64 with AVX2
};

// "scalar" or "avx2".
std::string_view SimdKernelName(SimdKernel kernel);

// The inverse of SimdKernelName; InvalidArgument for any other text.
absl::StatusOr<SimdKernel> ParseSimdKernel(std::string_view name);

// True if this build has the kernel, this CPU can run it and it passed its
// check.
bool SimdKernelSupported(SimdKernel kernel);

// Empty if every kernel this build has and this CPU runs passed its check;
// otherwise a line for each one refused, saying what differed. (A caller
// that logs may write it once, as bloomgate's plug-in does.)
std::string_view SimdKernelCheckFailures();

// The widest supported kernel.
SimdKernel WidestSimdKernel();

// The kernel that filter readers constructed and filter builds finished from
// now on use: BLOOMGATE_SIMD's if it names a supported kernel, else the
// widest, unless SetSimdKernel changed it since. Thread-safe.
SimdKernel ActiveSimdKernel();

// Makes `kernel` the active kernel. FailedPrecondition, and no change, if it
// is not supported. Readers constructed before the call keep their kernel,
// so a query never changes kernel half-way. Thread-safe.
absl::Status SetSimdKernel(SimdKernel kernel);

}  // namespace bloomgate

#endif  // BLOOMGATE_SIMD_H_
