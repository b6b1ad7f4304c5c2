// Copyright 2026 The bloomgate Authors.
//
// The blocked layout's probing: every probe of a key falls in one 512-bit
// (64-byte) line, so a query costs one cache miss however many probes it
// makes.
//
// Hash use. A key's 64-bit hash is split in two independent halves:
//   line  = ((hash >> 32) * num_lines) >> 32        multiply-shift, no modulo
//   seed  = low 32 bits of hash
//   bit_i = (seed * kProbeMultipliers[i]) >> 23     i in [0, k), a 9-bit
//                                                   position in the line
// Each probe is a different multiplicative hash of the same 32-bit seed, so
// all k positions are computed independently of one another -- exactly the
// shape of one SIMD multiply over 16 lanes. (Re-multiplying one value per probe
// instead would chain the probes: docs/filter-core-design.md.) The positions
// behave as independent uniform probes: the FP rate measured is what
// PredictedFpRate gives for truly independent ones (docs/filter-core-design.md;
// tests/filter/fp_rate_test.cc).
//
// Adding: BlockedAdd, key by key, is the definition; the builder's fill
// (blocked_fill.h) sets the same bits. Queries have two implementations that
// test the same bits: scalar (portable) and AVX2 (two 8-lane halves, words
// picked with in-register permutes). The widest one the CPU runs and that
// passes its check at first use is chosen at run time (blocked_kernels.h).
//
// The helpers below are always_inline because the kernels call them from
// functions compiled for another instruction set (cpu_target.h): GCC exempts
// always_inline functions from comparing the caller's and the callee's
// target options, and with some flag sets it finds the plain inline ones
// incompatible and calls them out of line (docs/filter-core-design.md,
// "Compiler flags and the kernels").

#ifndef BLOOMGATE_SRC_FILTER_BLOCKED_BLOOM_H_
#define BLOOMGATE_SRC_FILTER_BLOCKED_BLOOM_H_

#include <cstdint>

#include "bloomgate/filter_options.h"
#include "src/filter/cpu_target.h"
#include "src/filter/format.h"

#if BLOOMGATE_X86_KERNELS
#include <immintrin.h>
#endif

namespace bloomgate::internal {

// Odd 32-bit constants from a splitmix64 stream seeded with "bloomgat". Part
// of the format: changing one changes every blocked filter's bits.
alignas(64) inline constexpr uint32_t kProbeMultipliers[kMaxBlockedProbes] = {
    0x1cbe7cc1, 0x8c24ba89, 0x94bbb81f, 0x575cde27, 0x5673361d, 0x0d6583c1,
    0x196ce181, 0x3a99e0e7, 0xc6fccec1, 0x2acdaab9, 0xb5bc09ef, 0xb0649c55,
    0x4e287f8f, 0xc2debeeb, 0xf8a8f227, 0xd542a79d};

// num_lines <= 2^32, so the product fits in 64 bits.
[[gnu::always_inline]] inline uint64_t BlockedLineIndex(uint64_t hash,
                                                        uint64_t num_lines) {
  return ((hash >> 32) * num_lines) >> 32;
}

// The line of a hash in a bit array of num_lines lines.
[[gnu::always_inline]] inline uint8_t* LineOf(uint8_t* bits, uint64_t num_lines,
                                              uint64_t hash) {
  return bits + BlockedLineIndex(hash, num_lines) * kLineBytes;
}
[[gnu::always_inline]] inline const uint8_t* LineOf(const uint8_t* bits,
                                                    uint64_t num_lines,
                                                    uint64_t hash) {
  return bits + BlockedLineIndex(hash, num_lines) * kLineBytes;
}

[[gnu::always_inline]] inline uint32_t BlockedProbeSeed(uint64_t hash) {
  return static_cast<uint32_t>(hash);
}

[[gnu::always_inline]] inline uint32_t BlockedProbeBit(uint32_t seed, int i) {
  return (seed * kProbeMultipliers[i]) >> 23;
}

// The definition of the blocked layout's bits: one byte read-modify-write
// per probe. The fill (blocked_fill.h) and
// the kernels' check at first use (kernel_check.h) are measured against it.
inline void BlockedAdd(uint32_t seed, int num_probes, uint8_t* line) {
  for (int i = 0; i < num_probes; ++i) {
    const uint32_t bit = BlockedProbeBit(seed, i);
    line[bit >> 3] |= static_cast<uint8_t>(1u << (bit & 7));
  }
}

// Branch-free: a negative query's early exit would be a coin-flip branch, and
// its mispredictions also cancel the loads of the queries that follow.
[[gnu::always_inline]] inline bool BlockedMayMatchScalar(uint32_t seed,
                                                         int num_probes,
                                                         const uint8_t* line) {
  uint32_t all_set = 1;
  for (int i = 0; i < num_probes; ++i) {
    const uint32_t bit = BlockedProbeBit(seed, i);
    all_set &= line[bit >> 3] >> (bit & 7);
  }
  return all_set & 1;
}

#if BLOOMGATE_X86_KERNELS
// Lanes hold 32-bit words; bit b of the line is bit (b % 32) of little-endian
// word b / 32, the same bit as in the byte-addressed scalar version. A
// probe's product (seed * multiplier) holds its position in its top 9 bits:
// the word in the top 4 (the top one choosing the line's half), the bit in
// the word in the 5 below.
//
// Inlined into a kernel compiled for one probe count, the lane mask and the
// loop fold to constants: 14 vector instructions for k <= 8. (The earlier
// form, a 1 shifted into place per probe and tested with ANDN/OR across
// iterations, took 22.) Not always_inline: GCC refuses that into the
// baseline-compiled templates that call it (blocked_kernels.cc), even
// though they are inlined into target functions in turn; as a function
// with the same target attribute as its callers, it is inlined whatever
// the flags.
BLOOMGATE_TARGET_AVX2 inline bool BlockedMayMatchAvx2(uint32_t seed,
                                                      int num_probes,
                                                      const uint8_t* line) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(line));
  const __m256i hi =
      _mm256_loadu_si256(reinterpret_cast<const __m256i*>(line + 32));
  const __m256i seeds = _mm256_set1_epi32(static_cast<int>(seed));
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  bool all_set = true;
  for (int first = 0; first < num_probes; first += 8) {
    const __m256i product = _mm256_mullo_epi32(
        seeds, _mm256_load_si256(reinterpret_cast<const __m256i*>(
                   kProbeMultipliers + first)));
    // VPERMD reads the low 3 bits of the word's index; the sign bit of the
    // product picks the half (BLENDVPS tests each lane's sign).
    const __m256i word = _mm256_srli_epi32(product, 28);
    const __m256i from_lo = _mm256_permutevar8x32_epi32(lo, word);
    const __m256i from_hi = _mm256_permutevar8x32_epi32(hi, word);
    const __m256i words = _mm256_castps_si256(_mm256_blendv_ps(
        _mm256_castsi256_ps(from_lo), _mm256_castsi256_ps(from_hi),
        _mm256_castsi256_ps(product)));
    const __m256i bit = _mm256_srli_epi32(_mm256_slli_epi32(product, 4), 27);
    const __m256i at_bit0 = _mm256_srlv_epi32(words, bit);
    // 1 in the lanes of real probes, 0 in the rest.
    const __m256i active = _mm256_srli_epi32(
        _mm256_cmpgt_epi32(_mm256_set1_epi32(num_probes - first), lane), 31);
    // VPTEST's carry: every active lane has its bit 0 set.
    all_set &= _mm256_testc_si256(at_bit0, active) != 0;
  }
  return all_set;
}
#endif  // BLOOMGATE_X86_KERNELS

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_BLOOM_H_
