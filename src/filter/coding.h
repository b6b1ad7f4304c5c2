// Copyright 2026 The bloomgate Authors.
//
// Little-endian fixed-width integers, as every bloomgate format stores them:
// the filter block's trailer (docs/filter-format.md) and the LSM's tables,
// WAL and manifest (docs/sstable-format.md, through src/lsm/coding.h).

#ifndef BLOOMGATE_SRC_FILTER_CODING_H_
#define BLOOMGATE_SRC_FILTER_CODING_H_

#include <cstdint>

namespace bloomgate::internal {

inline void EncodeFixed32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
inline void EncodeFixed64(char* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<char>(v >> (8 * i));
}

inline uint32_t DecodeFixed32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  }
  return v;
}
inline uint64_t DecodeFixed64(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) {
    v |= static_cast<uint64_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  }
  return v;
}

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_CODING_H_
