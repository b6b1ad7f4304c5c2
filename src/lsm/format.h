// Copyright 2026 The bloomgate Authors.
//
// Constants and small structures of the SSTable format
// (docs/sstable-format.md): block handles, the footer, the properties block
// and the index block. Every parser here takes untrusted bytes and returns
// DataLoss, never crashes.

#ifndef BLOOMGATE_SRC_LSM_FORMAT_H_
#define BLOOMGATE_SRC_LSM_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomgate::lsm {

// What an entry says about its key.
enum class ValueType : uint8_t {
  kDeletion = 0,
  kValue = 1,
};

// "BGSSTBL1" read as a little-endian 64-bit number.
inline constexpr uint64_t kTableMagic = 0x314c425453534742ull;
inline constexpr uint32_t kTableFormatVersion = 1;
// Every block is followed by the Checksum() of its contents.
inline constexpr size_t kBlockTrailerSize = 4;
// 6 fixed64 handle fields, fixed32 version, fixed64 magic, fixed32 checksum
// (docs/sstable-format.md).
inline constexpr size_t kFooterMagicOffset = 6 * 8 + 4;
inline constexpr size_t kFooterChecksumOffset = kFooterMagicOffset + 8;
inline constexpr size_t kFooterSize = kFooterChecksumOffset + 4;
static_assert(kFooterSize == 64);

// Where a block lies in its file; `size` excludes the trailer.
struct BlockHandle {
  uint64_t offset = 0;
  uint64_t size = 0;
  uint64_t end() const { return offset + size + kBlockTrailerSize; }
};

struct Footer {
  BlockHandle filter;  // size 0: the table has no filter
  BlockHandle properties;
  BlockHandle index;
  uint32_t format_version = kTableFormatVersion;
};

std::string EncodeFooter(const Footer& footer);
// `file` and `offset` (the footer's offset) name the place in errors.
absl::StatusOr<Footer> DecodeFooter(std::string_view bytes,
                                    std::string_view file, uint64_t offset);

struct TableProperties {
  uint64_t num_entries = 0;
  uint64_t num_deletions = 0;
  uint64_t num_data_blocks = 0;
  uint64_t raw_key_bytes = 0;
  uint64_t raw_value_bytes = 0;
  std::string smallest_key;
  std::string largest_key;
};

std::string EncodeProperties(const TableProperties& props);
absl::StatusOr<TableProperties> DecodeProperties(std::string_view bytes);

// One index entry per data block: the block's last key and its handle.
struct IndexEntry {
  std::string last_key;
  BlockHandle handle;
};

std::string EncodeIndex(const std::vector<IndexEntry>& entries);
absl::StatusOr<std::vector<IndexEntry>> DecodeIndex(std::string_view bytes);

// Checks the trailer of a block read together with it: `block_and_trailer`
// is the block's contents followed by its 4-byte checksum. DataLoss naming
// `file`, `what` and the offset on mismatch.
absl::Status VerifyBlock(std::string_view block_and_trailer,
                         std::string_view file, std::string_view what,
                         uint64_t offset);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_FORMAT_H_
