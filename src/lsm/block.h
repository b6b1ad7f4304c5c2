// Copyright 2026 The bloomgate Authors.
//
// Data blocks (docs/sstable-format.md, "Data block"): sorted entries
// followed by an array of their offsets, so that a lookup binary-searches a
// block in place without decoding it.
//
//   entry*  fixed32 offset[n]  fixed32 n
//   entry:  type:u8  varint32 key_len  varint32 value_len  key  value

#ifndef BLOOMGATE_SRC_LSM_BLOCK_H_
#define BLOOMGATE_SRC_LSM_BLOCK_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/lsm/format.h"

namespace bloomgate::lsm {

// Call order: Add* Finish, then Reset to reuse. Keys must be strictly
// increasing.
class BlockBuilder {
 public:
  void Add(std::string_view key, ValueType type, std::string_view value);
  // Size Finish would return.
  size_t EstimatedSize() const {
    return buffer_.size() + 4 * (num_entries_ + 1);
  }
  bool empty() const { return num_entries_ == 0; }
  // The finished block; valid until Reset.
  std::string_view Finish();
  void Reset();

 private:
  std::string buffer_;
  std::string offsets_;
  uint32_t num_entries_ = 0;
};

struct BlockEntry {
  std::string_view key;
  ValueType type = ValueType::kValue;
  std::string_view value;
};

// A view over one block's contents (without the trailer); the bytes must
// outlive it. Every accessor checks bounds: malformed bytes give DataLoss.
class BlockReader {
 public:
  // Validates the offset array (not the entries).
  static absl::StatusOr<BlockReader> Parse(std::string_view contents);

  uint32_t num_entries() const { return num_entries_; }
  absl::Status Entry(uint32_t i, BlockEntry* entry) const;

  // Looks `key` up by binary search: sets *found and, if found, *entry.
  absl::Status Find(std::string_view key, bool* found, BlockEntry* entry) const;

 private:
  BlockReader(std::string_view data, const char* offsets, uint32_t n)
      : data_(data), offsets_(offsets), num_entries_(n) {}

  std::string_view data_;  // the entries
  const char* offsets_;
  uint32_t num_entries_;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_BLOCK_H_
