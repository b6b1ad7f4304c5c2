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

#endif  // BLOOMGATE_SRC_FILTER_XXH3_H_
