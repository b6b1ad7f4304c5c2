// Copyright 2026 The bloomgate Authors.
//
// The filter block's on-disk format, version 1 (docs/filter-format.md):
//
//   [bit array: ceil(num_bits / 8) bytes][trailer: 32 bytes]
//
//   trailer offset  size  field
//        0            8   num_bits     (little-endian)
//        8            8   num_keys     (little-endian)
//       16            8   checksum     (little-endian) XXH3-64, seed 0, of
//                                      the whole block minus these 8 bytes
//       24            1   layout       1 = blocked, 2 = standard
//       25            1   num_probes
//       26            1   hash         1 = XXH3-64 seed 0 of the key bytes
//       27            1   format version (1)
//       28            4   magic "BGFB"
//
// Bit i of the array is bit (i % 8) of byte i / 8. The array comes first so
// that it keeps the alignment of the block itself: with a 64-byte aligned
// block, every blocked line is exactly one cache line.

#ifndef BLOOMGATE_SRC_FILTER_FORMAT_H_
#define BLOOMGATE_SRC_FILTER_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "bloomgate/filter_options.h"

namespace bloomgate::internal {

inline constexpr int kLineBits = 512;
inline constexpr int kLineBytes = kLineBits / 8;
inline constexpr size_t kTrailerSize = 32;
// Where each field of the trailer starts, within the trailer.
inline constexpr size_t kNumBitsOffset = 0;
inline constexpr size_t kNumKeysOffset = 8;
inline constexpr size_t kChecksumOffset = 16;
inline constexpr size_t kLayoutOffset = 24;
inline constexpr size_t kNumProbesOffset = 25;
inline constexpr size_t kHashOffset = 26;
inline constexpr size_t kVersionOffset = 27;
inline constexpr size_t kMagicOffset = 28;
inline constexpr size_t kChecksumSize = 8;
inline constexpr uint8_t kFormatVersion = 1;
inline constexpr uint8_t kHashXxh3Seed0 = 1;
inline constexpr char kMagic[4] = {'B', 'G', 'F', 'B'};
// The standard layout's smallest non-empty array. Small filters are
// hopeless below it, and the probe arithmetic relies on num_bits >= 64.
inline constexpr uint64_t kMinStandardBits = 64;

struct BlockHeader {
  uint64_t num_bits = 0;
  uint64_t num_keys = 0;
  Layout layout = Layout::kBlocked;
  int num_probes = 0;
};

inline uint64_t BitArrayBytes(uint64_t num_bits) {
  return num_bits / 8 + (num_bits % 8 != 0);
}

// Bytes of a block whose bit array has `num_bits` bits: the array in whole
// bytes and the trailer.
inline uint64_t BlockBytes(uint64_t num_bits) {
  return BitArrayBytes(num_bits) + kTrailerSize;
}

// Bits of the bit array of a block of `block_bytes` bytes, counted in whole
// bytes (a standard array's last byte may hold fewer); 0 for a block no
// larger than its trailer.
inline uint64_t BlockArrayBits(uint64_t block_bytes) {
  return block_bytes > kTrailerSize ? 8 * (block_bytes - kTrailerSize) : 0;
}

// The bit array of a block of `layout` at `bits_per_key` for `num_keys`
// distinct keys: ceil(num_keys * bits_per_key) bits, rounded up to whole
// lines (at least one, at most 2^32) for the blocked layout and to at least
// kMinStandardBits for the standard one; 0 for no keys.
uint64_t NumBitsFor(Layout layout, double bits_per_key, uint64_t num_keys);

// Fills the trailer (the last kTrailerSize bytes of `block`, whose bit array
// is already written) including the checksum.
void WriteTrailer(const BlockHeader& header, uint8_t* block, size_t size);

// Validates a whole block: magic, version, hash, layout, probe count, the
// sizes against each other, and the checksum. DataLoss for damaged bytes,
// Unimplemented for what a newer writer may legitimately produce.
absl::StatusOr<BlockHeader> ReadAndVerifyBlock(std::string_view block);

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_FORMAT_H_
