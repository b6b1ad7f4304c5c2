// Copyright 2026 The bloomgate Authors.
//
// xxHash (libxxhash-dev) compiled inline into the including file, so that the
// query path hashes a short key without a call into the shared library.

#ifndef BLOOMGATE_SRC_FILTER_XXH3_H_
#define BLOOMGATE_SRC_FILTER_XXH3_H_

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
// Keys are short, so the long-input vector code hardly matters; its AVX-512
// variant trips GCC 12's -Wmaybe-uninitialized inside avx512fintrin.h.
// 2 is xxHash's XXH_AVX2.
#if defined(__AVX512F__) && !defined(XXH_VECTOR)
#define XXH_VECTOR 2
#endif
#include <xxhash.h>

#include <cstddef>
#include <cstdint>

namespace bloomgate::internal {

// The longest key whose hash the hot paths (a query, AddKey) inline: XXH3's
// inputs of up to 16 bytes need few registers. Longer keys go through an
// out-of-line call, so that the paths for them do not make every call save
// and restore registers (src/filter/blocked_kernels.cc measures this).
inline constexpr size_t kInlineHashMaxKeyBytes = 16;

// XXH3_64bits(key, size) for size <= kInlineHashMaxKeyBytes, inlined into
// the caller whatever its target attribute: XXH3_64bits itself is a plain
// inline function, which GCC 12 will not inline into a target-attributed
// kernel under some flag sets (docs/filter-core-design.md, "Compiler flags
// and the kernels"); the xxHash function it calls for such keys is
// always_inline. tests/filter/key_hashes_test.cc checks it against HashKey.
[[gnu::always_inline]] inline uint64_t ShortKeyXxh3(const char* key,
                                                    size_t size) {
  return XXH3_len_0to16_64b(reinterpret_cast<const xxh_u8*>(key), size,
                            XXH3_kSecret, 0);
}

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_XXH3_H_
