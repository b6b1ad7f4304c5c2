// Copyright 2026 The bloomgate Authors.
//
// The one list of the blocked layout's SIMD kernels, and the one switch
// over them. The core's query tables (blocked_kernels.cc) and the readers a
// caller compiles for each kernel are expanded from the list, and all find a
// kernel's entry through VisitCompiledKernel, so that a new kernel is one entry
// here and its probe in blocked_query.h.

#ifndef BLOOMGATE_SRC_FILTER_KERNEL_LIST_H_
#define BLOOMGATE_SRC_FILTER_KERNEL_LIST_H_

#include <type_traits>

#include "bloomgate/simd.h"
#include "src/filter/cpu_target.h"

// Calls X(NAME, TARGET, CPU_HAS, PROBE, BATCH_PROBES, KEYS_BATCH) once for
// every kernel this build compiles:
// - NAME: the kernel is SimdKernel::k##NAME.
// - TARGET: the attribute its functions carry (empty: the baseline).
// - CPU_HAS: whether the CPU runs TARGET's instructions, an expression.
//   Cheap, and valid before static constructors run.
// - PROBE: its probe of one line (blocked_query.h).
// - BATCH_PROBES: the probe count its batch of hashes probes with, inside
//   a function with the count compiled in as kNumProbes and also passed as
//   num_probes: the scalar batch reads it at run time, which was faster
//   (docs/filter-core-design.md, "One call from key to answer").
// - KEYS_BATCH: its batch of keys (blocked_query.h), inside a template with
//   kNumProbes.
// Names are qualified: the list expands in more than one namespace.
#define BLOOMGATE_FOR_EACH_KERNEL(X)                                          \
  X(Scalar, , true, ::bloomgate::internal::BlockedMayMatchScalar, num_probes, \
    ::bloomgate::internal::BlockedMayMatchKeys<                               \
        ::bloomgate::internal::BlockedMayMatchScalar>)                        \
  BLOOMGATE_FOR_EACH_X86_KERNEL(X)

#if BLOOMGATE_X86_KERNELS
// __builtin_cpu_init is needed before the constructors (GCC's manual);
// __builtin_cpu_supports also checks that the OS saves the YMM registers
// (libgcc reads XCR0).
#define BLOOMGATE_FOR_EACH_X86_KERNEL(X)                         \
  X(Avx2, BLOOMGATE_TARGET_AVX2,                                 \
    (__builtin_cpu_init(), __builtin_cpu_supports("avx2") != 0), \
    ::bloomgate::internal::BlockedMayMatchAvx2, kNumProbes,      \
    ::bloomgate::internal::BlockedMayMatchKeysAvx2<kNumProbes>)
#else
#define BLOOMGATE_FOR_EACH_X86_KERNEL(X)
#endif

namespace bloomgate::internal {

// A kernel as a type, for templates specialised per kernel.
template <SimdKernel kKernel>
using KernelTag = std::integral_constant<SimdKernel, kKernel>;

// visit(KernelTag<kernel>()) if this build compiles `kernel`, Result()
// otherwise: the one switch over the kernels.
template <typename Result, typename Visit>
Result VisitCompiledKernel(SimdKernel kernel, Visit&& visit) {
  switch (kernel) {
#define BLOOMGATE_KERNEL_CASE(NAME, ...) \
  case SimdKernel::k##NAME:              \
    return visit(KernelTag<SimdKernel::k##NAME>());
    BLOOMGATE_FOR_EACH_KERNEL(BLOOMGATE_KERNEL_CASE)
#undef BLOOMGATE_KERNEL_CASE
    default:
      return Result();
  }
}

// Whether the CPU runs kKernel's instructions.
template <SimdKernel kKernel>
bool CpuHas();

#define BLOOMGATE_DEFINE_CPU_HAS(NAME, TARGET, CPU_HAS, ...) \
  template <>                                                \
  inline bool CpuHas<SimdKernel::k##NAME>() {                \
    return CPU_HAS;                                          \
  }
BLOOMGATE_FOR_EACH_KERNEL(BLOOMGATE_DEFINE_CPU_HAS)
#undef BLOOMGATE_DEFINE_CPU_HAS

// Whether the CPU runs `kernel`'s instructions (false for a kernel this
// build does not compile).
inline bool CpuRunsKernel(SimdKernel kernel) {
  return VisitCompiledKernel<bool>(
      kernel, [](auto tag) { return CpuHas<tag.value>(); });
}

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_KERNEL_LIST_H_
