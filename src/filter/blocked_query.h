// Copyright 2026 The bloomgate Authors.
//
// A blocked filter's query, from hash (or key) to answer, for one probe
// function of blocked_bloom.h. The core's kernels (blocked_kernels.cc) and
// the RocksDB adapter's kernel readers (src/rocksdb/filter_bits.cc) both
// instantiate these inside functions compiled for the probe's instruction
// set: always_inline puts the bodies there, so that they are compiled for it
// too, with the probe count the caller passes (a compile-time constant
// there) folded in.

#ifndef BLOOMGATE_SRC_FILTER_BLOCKED_QUERY_H_
#define BLOOMGATE_SRC_FILTER_BLOCKED_QUERY_H_

#include <cstddef>
#include <cstdint>

#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/format.h"

namespace bloomgate::internal {

// kProbe is one of the BlockedMayMatch* functions of blocked_bloom.h.
template <auto kProbe>
[[gnu::always_inline]] inline bool BlockedMayMatch(const uint8_t* bits,
                                                   uint64_t num_lines,
                                                   int num_probes,
                                                   uint64_t hash) {
  // No prefetch: the probe's loads follow at once, and they ask for both
  // cache lines a line may span (the block need not be 64-byte aligned).
  return kProbe(BlockedProbeSeed(hash), num_probes,
                LineOf(bits, num_lines, hash));
}

// results[i] for hashes[i], i < n <= kMaxQueryBatch: every line is requested
// before the first is probed, so that their cache misses overlap.
template <auto kProbe>
[[gnu::always_inline]] inline void BlockedMayMatchBatch(
    const uint8_t* bits, uint64_t num_lines, int num_probes,
    const uint64_t* hashes, size_t n, bool* results) {
  const uint8_t* lines[kMaxQueryBatch];
  for (size_t i = 0; i < n; ++i) {
    lines[i] = LineOf(bits, num_lines, hashes[i]);
    __builtin_prefetch(lines[i]);
    __builtin_prefetch(lines[i] + kLineBytes - 1);
  }
  for (size_t i = 0; i < n; ++i) {
    results[i] = kProbe(BlockedProbeSeed(hashes[i]), num_probes, lines[i]);
  }
}

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_QUERY_H_
