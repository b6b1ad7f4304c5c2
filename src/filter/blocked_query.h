// Copyright 2026 The bloomgate Authors.
//
// A blocked filter's query, from hash (or key) to answer, for one probe
// function of blocked_bloom.h. The core's kernels (blocked_kernels.cc) and
// any reader a caller compiles for a kernel (kernel_list.h) instantiate these
// inside functions compiled for the probe's instruction set: always_inline puts
// the bodies there, so that they are compiled for it too, with the probe count
// the caller passes (a compile-time constant there) folded in.

#ifndef BLOOMGATE_SRC_FILTER_BLOCKED_QUERY_H_
#define BLOOMGATE_SRC_FILTER_BLOCKED_QUERY_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/cpu_target.h"
#include "src/filter/format.h"
#include "src/filter/key_hashes.h"

#if BLOOMGATE_X86_KERNELS
#include <immintrin.h>
#endif

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

// Asks for both cache lines a line may span (a block need not be 64-byte
// aligned), and returns at once.
[[gnu::always_inline]] inline void BlockedRequestLine(const uint8_t* line) {
  __builtin_prefetch(line);
  __builtin_prefetch(line + kLineBytes - 1);
}

// results[i] for hashes[i], whose line is lines[i], i < n.
template <auto kProbe>
[[gnu::always_inline]] inline void BlockedProbeLines(
    int num_probes, const uint64_t* hashes, const uint8_t* const* lines,
    size_t n, bool* results) {
  for (size_t i = 0; i < n; ++i) {
    results[i] = kProbe(BlockedProbeSeed(hashes[i]), num_probes, lines[i]);
  }
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
    BlockedRequestLine(lines[i]);
  }
  BlockedProbeLines<kProbe>(num_probes, hashes, lines, n, results);
}

// results[i] for the keys key_at(i) (std::string_views), i < num_keys, any
// number: each chunk of kMaxQueryBatch keys hashed inline (HashKeys), then
// queried as BlockedMayMatchBatch.
template <auto kProbe, typename KeyAt>
[[gnu::always_inline]] inline void BlockedMayMatchKeys(
    const uint8_t* bits, uint64_t num_lines, int num_probes, KeyAt key_at,
    size_t num_keys, bool* results) {
  for (size_t start = 0; start < num_keys; start += kMaxQueryBatch) {
    const size_t n = std::min(kMaxQueryBatch, num_keys - start);
    uint64_t hashes[kMaxQueryBatch];
    HashKeys([&](size_t i) { return key_at(start + i); }, n, hashes);
    BlockedMayMatchBatch<kProbe>(bits, num_lines, num_probes, hashes, n,
                                 results + start);
  }
}

#if BLOOMGATE_X86_KERNELS
// BlockedLineIndex(hash, num_lines) * kLineBytes for four hashes, lane by
// lane, for num_lines below 2^32 (VPMULUDQ reads its low 32 bits). Made
// once per batch, so that its constant stays in a register.
class BlockedLineOffsetsAvx2 {
 public:
  BLOOMGATE_TARGET_AVX2 explicit BlockedLineOffsetsAvx2(uint64_t num_lines)
      : num_lines_(_mm256_set1_epi64x(static_cast<long long>(num_lines))) {}

  BLOOMGATE_TARGET_AVX2 __m256i operator()(__m256i hashes) const {
    static_assert(kLineBytes == 64);
    const __m256i index = _mm256_srli_epi64(
        _mm256_mul_epu32(_mm256_srli_epi64(hashes, 32), num_lines_), 32);
    return _mm256_slli_epi64(index, 6);
  }

 private:
  __m256i num_lines_;
};

// BlockedMayMatchKeys with the AVX2 probe and kNumProbes probes (num_probes
// is ignored), hashing four keys at a time where all four have 9 to 16
// bytes (Xxh3Of4KeysOf9To16BytesAvx2), and requesting their lines as soon as
// they are hashed: faster than the batch of hashes, in the caches and
// beyond them (docs/filter-core-design.md, "Batches of keys").
template <int kNumProbes, typename KeyAt>
BLOOMGATE_TARGET_AVX2 [[gnu::always_inline]] inline void
BlockedMayMatchKeysAvx2(const uint8_t* bits, uint64_t num_lines, int,
                        KeyAt key_at, size_t num_keys, bool* results) {
  // 2^32 lines, the format's largest filter (256 GiB), is beyond
  // BlockedLineOffsetsAvx2. Handling it there put two instructions more on
  // the path to every four keys' prefetches, and measured slower (the same
  // section).
  if (num_lines > UINT32_MAX) [[unlikely]] {
    BlockedMayMatchKeys<BlockedMayMatchAvx2>(bits, num_lines, kNumProbes,
                                             key_at, num_keys, results);
    return;
  }
  const __m256i base = _mm256_set1_epi64x(reinterpret_cast<intptr_t>(bits));
  const BlockedLineOffsetsAvx2 line_offsets(num_lines);
  for (size_t start = 0; start < num_keys; start += kMaxQueryBatch) {
    const size_t n = std::min(kMaxQueryBatch, num_keys - start);
    alignas(32) uint64_t hashes[kMaxQueryBatch];
    alignas(32) const uint8_t* lines[kMaxQueryBatch];
    auto request_one = [&](size_t i) {
      hashes[i] = InlineHashKey(key_at(start + i));
      lines[i] = LineOf(bits, num_lines, hashes[i]);
      BlockedRequestLine(lines[i]);
    };
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const std::string_view key0 = key_at(start + i);
      const std::string_view key1 = key_at(start + i + 1);
      const std::string_view key2 = key_at(start + i + 2);
      const std::string_view key3 = key_at(start + i + 3);
      // size - 9 <= 7, unsigned, for all four.
      if (((key0.size() - 9) | (key1.size() - 9) | (key2.size() - 9) |
           (key3.size() - 9)) > 7) {
        for (size_t j = i; j < i + 4; ++j) request_one(j);
        continue;
      }
      const __m256i four = Xxh3Of4KeysOf9To16BytesAvx2(key0, key1, key2, key3);
      _mm256_store_si256(reinterpret_cast<__m256i*>(hashes + i), four);
      // The lines from the register, not reloaded from `hashes`: reading a
      // 256-bit store's parts back at once cost more than the hashing saved.
      const __m256i four_lines = _mm256_add_epi64(base, line_offsets(four));
      _mm256_store_si256(reinterpret_cast<__m256i*>(lines + i), four_lines);
      const __m128i low = _mm256_castsi256_si128(four_lines);
      const __m128i high = _mm256_extracti128_si256(four_lines, 1);
      BlockedRequestLine(
          reinterpret_cast<const uint8_t*>(_mm_cvtsi128_si64(low)));
      BlockedRequestLine(
          reinterpret_cast<const uint8_t*>(_mm_extract_epi64(low, 1)));
      BlockedRequestLine(
          reinterpret_cast<const uint8_t*>(_mm_cvtsi128_si64(high)));
      BlockedRequestLine(
          reinterpret_cast<const uint8_t*>(_mm_extract_epi64(high, 1)));
    }
    for (; i < n; ++i) request_one(i);
    BlockedProbeLines<BlockedMayMatchAvx2>(kNumProbes, hashes, lines, n,
                                           results + start);
  }
}
#endif  // BLOOMGATE_X86_KERNELS

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_QUERY_H_
