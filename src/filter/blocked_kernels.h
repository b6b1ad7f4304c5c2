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
#include "bloomgate/filter_reader.h"
#include "bloomgate/simd.h"
#include "src/filter/hash_store.h"

namespace bloomgate::internal {

// Batches passed to FilterQueries::may_match_batch hold at most this many
// hashes: a whole RocksDB MultiGet batch, so that all its lines are requested
// before the first is probed. Against 16 (two rounds of prefetch-then-probe per
// batch), 32-key batches over a 12.5 MB filter took 0.41-0.54x RocksDB's
// time where 16 took 0.58-0.69x (AVX-512; scalar 0.61-0.70x against
// 0.88-0.98x), the same at 10^4 and 10^6 keys, and 64 no less (AMD EPYC,
// the binaries alternating).
inline constexpr size_t kMaxQueryBatch = 32;

// A kernel: its queries for each probe count, and its fill. `bits` is a
// blocked bit array of `num_lines` 64-byte lines.
//
// queries[k - 1] answers for k probes, with k compiled in: the probe loop
// unrolls and the vector kernels' lane masks are constants. (The query
// functions take the probe count too, as the standard layout's do, and
// ignore it.) A reader picks its entry once, at construction.
struct BlockedKernel {
  SimdKernel kernel;
  FilterQueries queries[kMaxBlockedProbes];
  // Sets every stored hash's bits in `bits` (zeroed by the caller),
  // num_probes in [1, kMaxBlockedProbes].
  void (*fill)(const HashStore& hashes, uint64_t num_lines, int num_probes,
               uint8_t* bits);
};

// The kernel's table, or nullptr if this build does not have it (the CPU
// may still lack it: see SimdKernelSupported).
const BlockedKernel* CompiledBlockedKernel(SimdKernel kernel);

// The table of ActiveSimdKernel().
const BlockedKernel& ActiveBlockedKernel();

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_KERNELS_H_
