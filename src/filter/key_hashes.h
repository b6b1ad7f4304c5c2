// Copyright 2026 The bloomgate Authors.
//
// The hashes of a batch of keys, each HashKey(key) (bloomgate/hash.h), for
// the batched queries of a kernel (blocked_query.h): HashKeys key by key,
// and Xxh3Of4KeysOf9To16BytesAvx2, which hashes four keys of 9 to 16 bytes
// at once in the 64-bit lanes of an AVX2 register. That is xxHash's
// XXH3_len_9to16_64b with the default secret and seed 0, as XXH3_64bits
// computes it for such keys, bit for bit (tests/filter/key_hashes_test.cc), in
// fewer instructions a key than the scalar code: AVX2 has no 64 x 64-bit
// multiply, but four 32 x 32-bit ones per lane cost less than scalar code's one
// per key, once four keys share them.
//
// HashKeys is a template over the caller's key list, key_at(i) returning a
// std::string_view, so that a caller with its own key type (a storage
// engine's slice) pays no copy. Call these inside a [[gnu::flatten]] function
// (of the AVX2 target for the AVX2 one): GCC does not inline XXH3_64bits on its
// own.

#ifndef BLOOMGATE_SRC_FILTER_KEY_HASHES_H_
#define BLOOMGATE_SRC_FILTER_KEY_HASHES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "bloomgate/hash.h"
#include "src/filter/cpu_target.h"
#include "src/filter/xxh3.h"

#if BLOOMGATE_X86_KERNELS
#include <immintrin.h>
#endif

namespace bloomgate::internal {

// HashKey(key), with XXH3 inline for keys of up to kInlineHashMaxKeyBytes;
// longer keys call HashKey, out of line.
[[gnu::always_inline]] inline uint64_t InlineHashKey(std::string_view key) {
  if (key.size() > kInlineHashMaxKeyBytes) [[unlikely]] {
    return HashKey(key);
  }
  return ShortKeyXxh3(key.data(), key.size());
}

// hashes[i] = HashKey(key_at(i)) for i < n.
template <typename KeyAt>
[[gnu::always_inline]] inline void HashKeys(KeyAt key_at, size_t n,
                                            uint64_t* hashes) {
  for (size_t i = 0; i < n; ++i) hashes[i] = InlineHashKey(key_at(i));
}

#if BLOOMGATE_X86_KERNELS
// The low 64 bits of a * b, lane by lane.
BLOOMGATE_TARGET_AVX2 inline __m256i MulLow64Avx2(__m256i a, __m256i b) {
  const __m256i cross =
      _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b),
                       _mm256_mul_epu32(a, _mm256_srli_epi64(b, 32)));
  return _mm256_add_epi64(_mm256_mul_epu32(a, b), _mm256_slli_epi64(cross, 32));
}

// XXH3_mul128_fold64, lane by lane: the 128-bit product a * b, its low 64
// bits XOR its high 64 bits.
BLOOMGATE_TARGET_AVX2 inline __m256i Mul128Fold64Avx2(__m256i a, __m256i b) {
  const __m256i a_high = _mm256_srli_epi64(a, 32);
  const __m256i b_high = _mm256_srli_epi64(b, 32);
  const __m256i low_low = _mm256_mul_epu32(a, b);
  const __m256i low_high = _mm256_mul_epu32(a, b_high);
  const __m256i high_low = _mm256_mul_epu32(a_high, b);
  const __m256i high_high = _mm256_mul_epu32(a_high, b_high);
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFF);
  // Bits 32 and up of low_low + (low_high + high_low) << 32, without the
  // high halves of the two cross products: under 3 * 2^32, no overflow.
  const __m256i middle =
      _mm256_add_epi64(_mm256_srli_epi64(low_low, 32),
                       _mm256_add_epi64(_mm256_and_si256(low_high, low32),
                                        _mm256_and_si256(high_low, low32)));
  // Low 32 bits from low_low, the next 32 from middle.
  const __m256i low =
      _mm256_blend_epi32(low_low, _mm256_slli_epi64(middle, 32), 0b10101010);
  const __m256i high = _mm256_add_epi64(
      _mm256_add_epi64(high_high, _mm256_srli_epi64(middle, 32)),
      _mm256_add_epi64(_mm256_srli_epi64(low_high, 32),
                       _mm256_srli_epi64(high_low, 32)));
  return _mm256_xor_si256(low, high);
}

// XXH3_64bits of four keys of 9 to 16 bytes, key i in lane i. (Four
// arguments, not an array: an array made the callers store every key to the
// stack.)
BLOOMGATE_TARGET_AVX2 inline __m256i Xxh3Of4KeysOf9To16BytesAvx2(
    std::string_view key0, std::string_view key1, std::string_view key2,
    std::string_view key3) {
  // XXH3_len_9to16_64b's, for seed 0. GCC folds these reads of the constant
  // secret into constants.
  const uint64_t flip_first =
      XXH_readLE64(XXH3_kSecret + 24) ^ XXH_readLE64(XXH3_kSecret + 32);
  const uint64_t flip_last =
      XXH_readLE64(XXH3_kSecret + 40) ^ XXH_readLE64(XXH3_kSecret + 48);
  // A key's first and last 8 bytes (they overlap for keys under 16 bytes).
  auto word = [](const char* p) {
    long long v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  };
  auto last_word = [&word](std::string_view key) {
    return word(key.data() + key.size() - 8);
  };
  const __m256i first =
      _mm256_xor_si256(_mm256_set_epi64x(word(key3.data()), word(key2.data()),
                                         word(key1.data()), word(key0.data())),
                       _mm256_set1_epi64x(static_cast<long long>(flip_first)));
  const __m256i last =
      _mm256_xor_si256(_mm256_set_epi64x(last_word(key3), last_word(key2),
                                         last_word(key1), last_word(key0)),
                       _mm256_set1_epi64x(static_cast<long long>(flip_last)));
  const __m256i sizes = _mm256_set_epi64x(
      static_cast<long long>(key3.size()), static_cast<long long>(key2.size()),
      static_cast<long long>(key1.size()), static_cast<long long>(key0.size()));
  // XXH_swap64: each lane's bytes reversed.
  const __m256i byte_swap =
      _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,  //
                       7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
  __m256i acc = _mm256_add_epi64(
      _mm256_add_epi64(sizes, _mm256_shuffle_epi8(first, byte_swap)),
      _mm256_add_epi64(last, Mul128Fold64Avx2(first, last)));
  // XXH3_avalanche.
  acc = _mm256_xor_si256(acc, _mm256_srli_epi64(acc, 37));
  acc = MulLow64Avx2(acc, _mm256_set1_epi64x(0x165667919E3779F9));
  return _mm256_xor_si256(acc, _mm256_srli_epi64(acc, 32));
}

#endif  // BLOOMGATE_X86_KERNELS

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_KEY_HASHES_H_
