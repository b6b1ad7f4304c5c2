// Copyright 2026 The bloomgate Authors.
//
// Setting the bits of many keys at once, for the blocked layout's fill
// (FilterBuilder::Finish). Same bits as BlockedAdd key by key; only faster.
//
// In chunks of 16 keys: AVX-512 first computes every line offset and every
// probe's byte and bit (one 16-lane multiply per probe, across the chunk's
// keys), then a plain loop does the 16 * k byte read-modify-writes, which
// wait on nothing but loads. Key by key, each key's writes wait on its own
// chain of multiplies; our reading is that the CPU then overlaps less of one
// key with the next (plain C++ that only computes 8 or 16 keys' line
// addresses before their writes was already 15-20% faster).
// Measured on the fill alone (k = 6, 10 bits/key, hashes in HashStore order,
// AMD EPYC with AVX-512): 2.7-2.9 ns/key against 3.9-4.6 key by key at 10^6
// keys, and 3.3 against 4.4-4.5 at 10^7.
//
// Without AVX-512 the fill stays key by key. The same chunked code written
// in plain C++ and left to the auto-vectorizer was slower than key by key
// when compiled for AVX2 (6.3 against 4.1 ns/key at 10^6). A variant that
// keeps only the 9-bit probe positions was faster with AVX2 (3.3 against
// 4.1) but slower with SSE2 alone (4.9 against 4.2); not pursued yet.
//
// Since the key-by-key fill loads its byte masks from a table
// (blocked_kernels.cc), it measures about as fast as this one: at 10^6 keys
// 2.7-3.2 ns/key against 2.8-2.9 for the chunks, at 10^7 within the noise
// (4.5-6.9 against 4.6-5.7; three rounds, 2026-12-05).

#ifndef BLOOMGATE_SRC_FILTER_BLOCKED_FILL_H_
#define BLOOMGATE_SRC_FILTER_BLOCKED_FILL_H_

#include <cstdint>

#include "bloomgate/filter_options.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/cpu_target.h"
#include "src/filter/format.h"

#if BLOOMGATE_X86_KERNELS
#include <immintrin.h>
#endif

namespace bloomgate::internal {

#if BLOOMGATE_X86_KERNELS

// Keys per chunk: one 512-bit vector of 32-bit seeds.
inline constexpr int kFillChunk = 16;

// The probes of one chunk of keys, computed before any is applied.
struct BlockedChunkProbes {
  // Key j's line: BlockedLineIndex * kLineBytes.
  alignas(64) uint64_t line_offset[kFillChunk];
  // Probe i of key j sets bit mask[i][j] of byte byte[i][j] of its line.
  alignas(16) uint8_t byte[kMaxBlockedProbes][kFillChunk];
  alignas(16) uint8_t mask[kMaxBlockedProbes][kFillChunk];
};

// Fills `out` for hashes[0, kFillChunk), probes [0, num_probes).
// (The zero-masking forms with every lane on compile to the plain
// instructions; they keep GCC 12 from warning about undefined vectors.)
BLOOMGATE_TARGET_AVX512 inline void ComputeChunkProbesAvx512(
    const uint64_t* hashes, uint64_t num_lines, int num_probes,
    BlockedChunkProbes* out) {
  constexpr __mmask8 k8 = 0xff;
  constexpr __mmask16 k16 = 0xffff;
  // num_lines <= 2^32 - 1, so the 32 x 32-bit multiply of BlockedLineIndex is
  // exact in the 64-bit lanes of mul_epu32.
  const __m512i lines = _mm512_set1_epi64(static_cast<int64_t>(num_lines));
  static_assert(kLineBytes == 1 << 6);
  __m256i seed_halves[2];
  for (int half = 0; half < 2; ++half) {
    const __m512i hash = _mm512_loadu_si512(hashes + 8 * half);
    const __m512i line = _mm512_maskz_srli_epi64(
        k8,
        _mm512_maskz_mul_epu32(k8, _mm512_maskz_srli_epi64(k8, hash, 32),
                               lines),
        32);
    _mm512_store_si512(out->line_offset + 8 * half,
                       _mm512_maskz_slli_epi64(k8, line, 6));
    seed_halves[half] = _mm512_maskz_cvtepi64_epi32(k8, hash);  // low halves
  }
  const __m512i seeds = _mm512_maskz_inserti64x4(
      k8,
      _mm512_maskz_inserti64x4(k8, _mm512_setzero_si512(), seed_halves[0], 0),
      seed_halves[1], 1);
  for (int i = 0; i < num_probes; ++i) {
    // BlockedProbeBit(seed, i) for the 16 keys.
    const __m512i multiplier =
        _mm512_set1_epi32(static_cast<int>(kProbeMultipliers[i]));
    const __m512i bit = _mm512_maskz_srli_epi32(
        k16, _mm512_maskz_mullo_epi32(k16, seeds, multiplier), 23);
    const __m512i in_byte =
        _mm512_maskz_and_epi32(k16, bit, _mm512_set1_epi32(7));
    _mm_store_si128(
        reinterpret_cast<__m128i*>(out->byte[i]),
        _mm512_maskz_cvtepi32_epi8(k16, _mm512_maskz_srli_epi32(k16, bit, 3)));
    _mm_store_si128(
        reinterpret_cast<__m128i*>(out->mask[i]),
        _mm512_maskz_cvtepi32_epi8(
            k16, _mm512_maskz_sllv_epi32(k16, _mm512_set1_epi32(1), in_byte)));
  }
}

// Sets the chunk's bits in the bit array `bits`. kNumProbes is a
// compile-time constant so that the probe loop unrolls.
template <int kNumProbes>
inline void ApplyChunkProbes(const BlockedChunkProbes& probes, uint8_t* bits) {
  for (int j = 0; j < kFillChunk; ++j) {
    uint8_t* line = bits + probes.line_offset[j];
    for (int i = 0; i < kNumProbes; ++i) {
      line[probes.byte[i][j]] |= probes.mask[i][j];
    }
  }
}

#endif  // BLOOMGATE_X86_KERNELS

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_FILL_H_
