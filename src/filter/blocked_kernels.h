// Copyright 2026 The bloomgate Authors.
//
// The blocked layout's hot loops, one set per instruction set, behind one
// table of function pointers (bloomgate/simd.h says how one is chosen).
//
// Each entry is a whole loop -- a query from key (or hash) to answer, a batch
// of queries, a filter's fill -- so that a call through the table happens
// once per query or per build and the probe code inside is inlined and
// compiled for its instruction set. (The functions carry target attributes;
// the rest of the library is compiled for the baseline, so nothing outside
// them can use an instruction the CPU may lack.)

#ifndef BLOOMGATE_SRC_FILTER_BLOCKED_KERNELS_H_
#define BLOOMGATE_SRC_FILTER_BLOCKED_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "bloomgate/filter_options.h"
#include "bloomgate/simd.h"
#include "src/filter/filter_queries.h"
#include "src/filter/hash_store.h"

namespace bloomgate::internal {

// Batches passed to FilterQueries::may_match_batch hold at most this many
// hashes, all of whose lines are requested before the first is probed:
// a storage engine's whole MultiGet batch (docs/filter-core-design.md,
// "Whole MultiGet batches in flight": 32 against 16 and 64).
inline constexpr size_t kMaxQueryBatch = 32;

// A kernel: its queries for each probe count, and the fill the builder runs
// with it. `bits` is a blocked bit array of `num_lines` 64-byte lines.
//
// queries[k - 1] answers for k probes, with k compiled in: the probe loop
// unrolls and the vector kernels' lane masks are constants. (The query
// functions take the probe count too, as the standard layout's do, and
// ignore it.) A reader picks its entry once, at construction.
struct BlockedKernel {
  SimdKernel kernel;
  FilterQueries queries[kMaxBlockedProbes];
  // Sets every stored hash's bits in `bits` (zeroed by the caller),
  // num_probes in [1, kMaxBlockedProbes]: BlockedFill for every kernel
  // (blocked_fill.h), here so that the kernel's check covers it too.
  void (*fill)(const HashStore& hashes, uint64_t num_lines, int num_probes,
               bool prefetch, uint8_t* bits);
};

// The kernel's table, or nullptr if this build does not have it (the CPU
// may still lack it, or it may fail its check: see SimdKernelSupported).
const BlockedKernel* CompiledBlockedKernel(SimdKernel kernel);

// The table of ActiveSimdKernel().
const BlockedKernel& ActiveBlockedKernel();

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_KERNELS_H_
