// Copyright 2026 The bloomgate Authors.
//
// Any bytes handed to the reader every bloomgate RocksDB policy uses
// (NewAnyFilterBitsReader): bloomgate's blocks, and RocksDB's Bloom and
// Ribbon blocks, which a policy of mixed families writes. It must never
// crash or read out of bounds, whichever reader the bytes reach.
//
// Random bytes rarely end like RocksDB's blocks, so the first input byte
// picks a mode: 1 makes the rest end in RocksDB's FastLocalBloom metadata,
// 2 in Ribbon's (the marker byte five bytes from the end); anything else
// leaves them as they are.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "rocksdb/slice.h"
#include "src/rocksdb/builtin_filters.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string block(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((data[0] == 1 || data[0] == 2) && block.size() > 5) {
    block[block.size() - 5] = static_cast<char>(data[0] == 1 ? -1 : -2);
  }
  std::unique_ptr<rocksdb::FilterBitsReader> reader(
      bloomgate::rocksdb_internal::NewAnyFilterBitsReader(
          rocksdb::Slice(block)));
  if (reader == nullptr) __builtin_trap();
  const std::string keys[] = {"", "dog", "pig", "elk", "rat"};
  for (const std::string& key : keys) reader->MayMatch(key);
  rocksdb::Slice slices[5] = {keys[0], keys[1], keys[2], keys[3], keys[4]};
  rocksdb::Slice* pointers[5] = {&slices[0], &slices[1], &slices[2], &slices[3],
                                 &slices[4]};
  bool may_match[5] = {};
  reader->MayMatch(5, pointers, may_match);
  return 0;
}
