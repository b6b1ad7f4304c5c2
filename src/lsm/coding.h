// Copyright 2026 The bloomgate Authors.
//
// Little-endian fixed-width and LEB128 varint encodings, and the block
// checksum, shared by every on-disk format of the LSM
// (docs/sstable-format.md).

#ifndef BLOOMGATE_SRC_LSM_CODING_H_
#define BLOOMGATE_SRC_LSM_CODING_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "src/filter/coding.h"

namespace bloomgate::lsm {

using internal::DecodeFixed32;
using internal::DecodeFixed64;
using internal::EncodeFixed32;
using internal::EncodeFixed64;

// The checksum of every block, WAL record and manifest: the low 32 bits of
// XXH3-64 (seed 0) of the bytes.
uint32_t Checksum(std::string_view data);

inline void PutFixed32(std::string* dst, uint32_t v) {
  char buf[4];
  EncodeFixed32(buf, v);
  dst->append(buf, 4);
}
inline void PutFixed64(std::string* dst, uint64_t v) {
  char buf[8];
  EncodeFixed64(buf, v);
  dst->append(buf, 8);
}

void PutVarint64(std::string* dst, uint64_t v);
// Varint length, then the bytes.
void PutLengthPrefixed(std::string* dst, std::string_view s);

// Readers consume from the front of *in and return false, leaving *in in an
// unspecified state, if the input is too short or malformed.
bool GetFixed32(std::string_view* in, uint32_t* v);
bool GetFixed64(std::string_view* in, uint64_t* v);
bool GetVarint64(std::string_view* in, uint64_t* v);
bool GetVarint32(std::string_view* in, uint32_t* v);
bool GetLengthPrefixed(std::string_view* in, std::string_view* s);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_CODING_H_
