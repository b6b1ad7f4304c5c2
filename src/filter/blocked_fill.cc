// Copyright 2026 The bloomgate Authors.

#include "src/filter/blocked_fill.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "bloomgate/filter_options.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/format.h"

namespace bloomgate::internal {
namespace {

// How far ahead the fill prefetches: enough lines in flight to hide memory
// latency on filters larger than the caches.
constexpr size_t kPrefetchDistance = 16;

// Both cache lines a line may straddle (the output buffer is the caller's,
// of any alignment).
inline void PrefetchForWrite(const uint8_t* line) {
  __builtin_prefetch(line, /*rw=*/1);
  __builtin_prefetch(line + kLineBytes - 1, /*rw=*/1);
}

// 1 << (bit % 8) for every probe position in a line: the fill loads a
// probe's byte mask rather than shifting a 1 into place, because the x86-64
// baseline shifts by a variable count only through CL, at the cost of a
// move and an AND per probe.
struct ProbeByteMasks {
  uint8_t of_bit[kLineBits];
  constexpr ProbeByteMasks() : of_bit{} {
    for (uint32_t bit = 0; bit < kLineBits; ++bit) {
      of_bit[bit] = static_cast<uint8_t>(1u << (bit & 7));
    }
  }
};
alignas(64) constexpr ProbeByteMasks kProbeByteMasks;

// Sets the bits of one hash: BlockedAdd's bits. kNumProbes is a
// compile-time constant so that the probe loop unrolls without a compare per
// probe.
//
// The empty asm makes the line's address opaque to the compiler, which keeps
// it in one register. Otherwise GCC adds the line's offset to every probe's
// byte index, an ADD per probe.
template <int kNumProbes>
[[gnu::always_inline]] inline void AddHash(uint64_t hash, uint64_t num_lines,
                                           uint8_t* bits) {
  uint8_t* line = LineOf(bits, num_lines, hash);
  asm("" : "+r"(line));
  const uint32_t seed = BlockedProbeSeed(hash);
  for (int i = 0; i < kNumProbes; ++i) {
    const uint32_t bit = BlockedProbeBit(seed, i);
    line[bit >> 3] |= kProbeByteMasks.of_bit[bit];
  }
}

// Sets the bits of run[0, count), key by key. Two loops, so that the loop
// without prefetches tests nothing but its end.
template <int kNumProbes>
void FillRun(const uint64_t* run, size_t count, uint64_t num_lines,
             bool prefetch, uint8_t* bits) {
  size_t i = 0;
  if (prefetch) {
    for (; i + kPrefetchDistance < count; ++i) {
      PrefetchForWrite(LineOf(bits, num_lines, run[i + kPrefetchDistance]));
      AddHash<kNumProbes>(run[i], num_lines, bits);
    }
  }
  for (; i < count; ++i) AddHash<kNumProbes>(run[i], num_lines, bits);
}

using FillRunFn = void (*)(const uint64_t* run, size_t count,
                           uint64_t num_lines, bool prefetch, uint8_t* bits);

// FillRun<k> at index k - 1, for every valid k.
template <size_t... kIndex>
constexpr std::array<FillRunFn, sizeof...(kIndex)> MakeFillRunTable(
    std::index_sequence<kIndex...>) {
  return {&FillRun<static_cast<int>(kIndex) + 1>...};
}

constexpr auto kFillRuns =
    MakeFillRunTable(std::make_index_sequence<kMaxBlockedProbes>());

}  // namespace

// In the store's order, which keeps the lines being written within one slice
// of the array (hash_store.h); prefetching covers the misses that remain in
// arrays larger than the cache.
void BlockedFill(const HashStore& hashes, uint64_t num_lines, int num_probes,
                 bool prefetch, uint8_t* bits) {
  const FillRunFn fill_run = kFillRuns[num_probes - 1];
  hashes.ForEachRun([&](const uint64_t* run, size_t count) {
    fill_run(run, count, num_lines, prefetch, bits);
  });
}

}  // namespace bloomgate::internal
