// Copyright 2026 The bloomgate Authors.

#include "bloomgate/hash.h"

#include "src/filter/xxh3.h"

namespace bloomgate {

// Flattened, so that XXH3_64bits, which GCC does not inline on its own, is
// inlined here (xxHash keeps its long-input loop out of line).
[[gnu::flatten]] uint64_t HashKey(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

}  // namespace bloomgate
