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
// shape of one SIMD multiply over 16 lanes. (RocksDB's FastLocalBloom instead
// re-multiplies one value per probe, a serial dependency.) The positions
// behave as independent uniform probes: at 10 bits/key and the optimal k = 6,
// 30M queries of 1M-key filters measured 0.9662% against 0.9665% predicted
// for truly independent probes (PredictedFpRate); see also
// tests/filter/fp_rate_test.cc.
//
// Adding: BlockedAdd, key by key; the builder's fill uses it, or with AVX-512
// sets 16 keys at a time (blocked_fill.h). Queries have three implementations
// that test the same bits: scalar (portable), AVX2 (two 8-lane halves, words
// picked with in-register permutes) and AVX-512 (one 16-lane multiply, one
// permute, one rotate, one masked test; no gather). The widest one the CPU
// runs is chosen at run time (blocked_kernels.h); tests check each against
// scalar.

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
inline uint64_t BlockedLineIndex(uint64_t hash, uint64_t num_lines) {
  return ((hash >> 32) * num_lines) >> 32;
}

// The line of a hash in a bit array of num_lines lines.
inline uint8_t* LineOf(uint8_t* bits, uint64_t num_lines, uint64_t hash) {
  return bits + BlockedLineIndex(hash, num_lines) * kLineBytes;
}
inline const uint8_t* LineOf(const uint8_t* bits, uint64_t num_lines,
                             uint64_t hash) {
  return bits + BlockedLineIndex(hash, num_lines) * kLineBytes;
}

inline uint32_t BlockedProbeSeed(uint64_t hash) {
  return static_cast<uint32_t>(hash);
}

inline uint32_t BlockedProbeBit(uint32_t seed, int i) {
  return (seed * kProbeMultipliers[i]) >> 23;
}

// One byte read-modify-write per probe, as RocksDB's FastLocalBloom does.
// With num_probes a compile-time constant (FillKeyByKey<k> inlines this), it
// measured as fast as AVX-512 versions that build the line's 512-bit mask in
// a register and OR it in once. (What did pay is to compute many keys'
// probes before writing any: blocked_fill.h.)
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
// though they are inlined into target functions in turn.
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

// The zero-masking forms (maskz) compile to the same instructions; they also
// keep GCC 12 from warning about the undefined vectors the plain forms use.

// Lane i (for the lanes in `active`): BlockedProbeBit(seed, i).
BLOOMGATE_TARGET_AVX512 inline __m512i ProbeBitsAvx512(uint32_t seed,
                                                       __mmask16 active) {
  return _mm512_maskz_srli_epi32(
      active,
      _mm512_maskz_mullo_epi32(active,
                               _mm512_set1_epi32(static_cast<int>(seed)),
                               _mm512_load_si512(kProbeMultipliers)),
      23);
}

// Few instructions matter even where a query waits on memory: at 10^7 keys
// how many queries overlap their cache misses depends on how many fit the
// CPU's out-of-order window. The rotate replaces shifting a 1 into place and
// masking (and the single-key prefetches went): 0.86-1.01x the time in eight
// A/B runs at 10^7 keys (median 0.94), 0.93-0.98x at 10^6.
BLOOMGATE_TARGET_AVX512 inline bool BlockedMayMatchAvx512(uint32_t seed,
                                                          int num_probes,
                                                          const uint8_t* line) {
  const __mmask16 active = static_cast<__mmask16>((1u << num_probes) - 1);
  const __m512i bit = ProbeBitsAvx512(seed, active);
  const __m512i probed = _mm512_maskz_permutexvar_epi32(
      active, _mm512_maskz_srli_epi32(active, bit, 5),
      _mm512_loadu_si512(line));
  // A rotate counts modulo 32: it brings each probed bit to bit 0.
  const __m512i at_bit0 = _mm512_maskz_rorv_epi32(active, probed, bit);
  const __mmask16 unset =
      _mm512_mask_testn_epi32_mask(active, at_bit0, _mm512_set1_epi32(1));
  return unset == 0;
}
#endif  // BLOOMGATE_X86_KERNELS

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_BLOCKED_BLOOM_H_
