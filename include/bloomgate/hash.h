// Copyright 2026 The bloomgate Authors.
//
// The one key hash every bloomgate filter is built and queried with.

#ifndef BLOOMGATE_HASH_H_
#define BLOOMGATE_HASH_H_

#include <cstdint>
#include <string_view>

namespace bloomgate {

// XXH3-64 of the key's bytes with seed 0 (xxHash 0.8 specification). It is
// part of the on-disk format: the same key hashes the same in every process,
// on every machine and in every release, so there is no random seed and no
// std::hash. Callers that already hash their keys with XXH3-64 (seed 0) may
// pass those hashes to FilterBuilder::AddHash and FilterReader::HashMayMatch.
uint64_t HashKey(std::string_view key);

}  // namespace bloomgate

#endif  // BLOOMGATE_HASH_H_
