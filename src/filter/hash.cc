// Copyright 2026 The bloomgate Authors.

#include "bloomgate/hash.h"

#include "src/filter/xxh3.h"

namespace bloomgate {

uint64_t HashKey(std::string_view key) {
  return XXH3_64bits(key.data(), key.size());
}

}  // namespace bloomgate
