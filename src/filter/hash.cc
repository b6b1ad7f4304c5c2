// Copyright 2026 The bloomgate Authors.

#include "bloomgate/hash.h"

#include "src/filter/xxh3.h"

namespace bloomgate {

// Flattened: XXH3_64bits is too large for GCC to inline on its own, and a
// call to it costs a short key a third of its hashing time. (The long-input
// loop is marked noinline by xxHash and stays a call.)
[[gnu::flatten]] uint64_t HashKey(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

}  // namespace bloomgate
