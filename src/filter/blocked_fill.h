// Copyright 2026 The bloomgate Authors.
//
// The blocked layout's fill (FilterBuilder::Finish): every stored hash's bits,
// the same bits as BlockedAdd key by key, only faster.
//
// One fill serves every kernel, compiled for the x86-64 baseline: no wider
// instruction set made it faster (docs/filter-core-design.md, "The fill").

#ifndef BLOOMGATE_SRC_FILTER_BLOCKED_FILL_H_
#define BLOOMGATE_SRC_FILTER_BLOCKED_FILL_H_

#include <cstdint>

#include "src/filter/hash_store.h"

namespace bloomgate::internal {

// Sets every hash of `hashes` in `bits`, a blocked bit array of `num_lines`
// 64-byte lines that the caller zeroed; num_probes in [1, kMaxBlockedProbes].
// With `prefetch`, each line is requested a few keys before it is written
// (FillPrefetches says when that pays); the bits are the same either way.
void BlockedFill(const HashStore& hashes, uint64_t num_lines, int num_probes,
                 bool prefetch, uint8_t* bits);

// Whether BlockedFill should prefetch into an array of `num_lines` lines:
// from 2 MiB up. Below it, the prefetches cost more than they hide
// (docs/filter-core-design.md, "Building: setting the bits").
inline bool FillPrefetches(uint64_t num_lines) {
  return num_lines >= (uint64_t{2} << 20) / 64;
}

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_FILL_H_
