// Copyright 2026 The bloomgate Authors.
//
// Attributes that compile one function for a wider instruction set than the
// rest of the library (blocked_kernels.h). Such a function may only run once
// the CPU is known to have that instruction set (simd.cc checks).

#ifndef BLOOMGATE_SRC_FILTER_CPU_TARGET_H_
#define BLOOMGATE_SRC_FILTER_CPU_TARGET_H_

#if defined(__x86_64__)
#define BLOOMGATE_X86_KERNELS 1
#define BLOOMGATE_TARGET_AVX2 [[gnu::target("avx2")]]
#else
#define BLOOMGATE_X86_KERNELS 0
#endif

#endif  // BLOOMGATE_SRC_FILTER_CPU_TARGET_H_
