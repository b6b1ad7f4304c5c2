// Copyright 2026 The bloomgate Authors.

#include "src/filter/format.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "src/filter/coding.h"
#include "src/filter/xxh3.h"

namespace bloomgate::internal {
namespace {

void PutFixed64(uint8_t* p, uint64_t v) {
  EncodeFixed64(reinterpret_cast<char*>(p), v);
}

uint64_t GetFixed64(const uint8_t* p) {
  return DecodeFixed64(reinterpret_cast<const char*>(p));
}

// XXH3-64 of the block with the checksum field left out.
uint64_t BlockChecksum(const uint8_t* block, size_t size) {
  const size_t checksum_at = size - kTrailerSize + kChecksumOffset;
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, block, checksum_at);
  XXH3_64bits_update(&state, block + checksum_at + kChecksumSize,
                     size - checksum_at - kChecksumSize);
  return XXH3_64bits_digest(&state);
}

}  // namespace

uint64_t NumBitsFor(Layout layout, double bits_per_key, uint64_t num_keys) {
  if (num_keys == 0) return 0;
  const double wanted = std::ceil(static_cast<double>(num_keys) * bits_per_key);
  if (layout == Layout::kBlocked) {
    // Whole lines, at least one, at most 2^32 (then the FP rate rises
    // above the target, but every key is still found).
    const double lines = std::clamp(std::ceil(wanted / kLineBits), 1.0,
                                    static_cast<double>(UINT32_MAX));
    return static_cast<uint64_t>(lines) * kLineBits;
  }
  return std::max(kMinStandardBits, static_cast<uint64_t>(wanted));
}

void WriteTrailer(const BlockHeader& header, uint8_t* block, size_t size) {
  uint8_t* t = block + size - kTrailerSize;
  PutFixed64(t + kNumBitsOffset, header.num_bits);
  PutFixed64(t + kNumKeysOffset, header.num_keys);
  t[kLayoutOffset] = static_cast<uint8_t>(header.layout);
  t[kNumProbesOffset] = static_cast<uint8_t>(header.num_probes);
  t[kHashOffset] = kHashXxh3Seed0;
  t[kVersionOffset] = kFormatVersion;
  std::memcpy(t + kMagicOffset, kMagic, sizeof(kMagic));
  PutFixed64(t + kChecksumOffset, BlockChecksum(block, size));
}

namespace {

// The steps of ReadAndVerifyBlock, in its order: that the bytes are a
// bloomgate block of a version this reader knows, intact; what its trailer
// says; and that the sizes agree.

absl::Status VerifyBlockIdentity(const uint8_t* data, size_t size) {
  const uint8_t* t = data + size - kTrailerSize;
  if (std::memcmp(t + kMagicOffset, kMagic, sizeof(kMagic)) != 0) {
    return absl::DataLossError("not a bloomgate filter block (bad magic)");
  }
  const int version = t[kVersionOffset];
  if (version != kFormatVersion) {
    if (version > kFormatVersion) {
      return absl::UnimplementedError(
          absl::StrCat("filter format version ", version,
                       " is newer than this reader (", kFormatVersion, ")"));
    }
    return absl::DataLossError(
        absl::StrCat("invalid filter format version ", version));
  }
  if (GetFixed64(t + kChecksumOffset) != BlockChecksum(data, size)) {
    return absl::DataLossError("filter block checksum mismatch");
  }
  return absl::OkStatus();
}

// The trailer `t` of a block whose checksum matched: what a writer really
// wrote, so a failure means a writer bloomgate does not know.
absl::StatusOr<BlockHeader> DecodeTrailer(const uint8_t* t) {
  if (t[kHashOffset] != kHashXxh3Seed0) {
    return absl::UnimplementedError(
        absl::StrCat("unknown filter hash function ", int{t[kHashOffset]}));
  }
  BlockHeader header;
  header.num_bits = GetFixed64(t + kNumBitsOffset);
  header.num_keys = GetFixed64(t + kNumKeysOffset);
  header.num_probes = t[kNumProbesOffset];
  int max_probes;
  switch (t[kLayoutOffset]) {
    case static_cast<uint8_t>(Layout::kBlocked):
      header.layout = Layout::kBlocked;
      max_probes = kMaxBlockedProbes;
      break;
    case static_cast<uint8_t>(Layout::kStandard):
      header.layout = Layout::kStandard;
      max_probes = kMaxStandardProbes;
      break;
    default:
      return absl::UnimplementedError(
          absl::StrCat("unknown filter layout ", int{t[kLayoutOffset]}));
  }
  if (header.num_probes < 1 || header.num_probes > max_probes) {
    return absl::UnimplementedError(
        absl::StrCat("unsupported probe count ", header.num_probes, " for the ",
                     LayoutName(header.layout), " layout"));
  }
  return header;
}

absl::Status VerifySizes(const BlockHeader& header, size_t block_size) {
  if ((header.num_keys == 0) != (header.num_bits == 0)) {
    return absl::DataLossError(absl::StrCat("filter block with ",
                                            header.num_keys, " keys has ",
                                            header.num_bits, " bits"));
  }
  const bool bits_ok =
      header.layout == Layout::kBlocked
          ? header.num_bits % kLineBits == 0 &&
                header.num_bits / kLineBits <= uint64_t{UINT32_MAX}
          : header.num_bits == 0 || header.num_bits >= kMinStandardBits;
  if (!bits_ok) {
    return absl::UnimplementedError(
        absl::StrCat("unsupported bit count ", header.num_bits, " for the ",
                     LayoutName(header.layout), " layout"));
  }
  if (BitArrayBytes(header.num_bits) != block_size - kTrailerSize) {
    return absl::DataLossError(absl::StrCat(
        "filter block is ", block_size, " bytes but its ", header.num_bits,
        " bits need ", BitArrayBytes(header.num_bits) + kTrailerSize));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<BlockHeader> ReadAndVerifyBlock(std::string_view block) {
  if (block.size() < kTrailerSize) {
    return absl::DataLossError(absl::StrCat("filter block of ", block.size(),
                                            " bytes is shorter than its ",
                                            kTrailerSize, "-byte trailer"));
  }
  const auto* data = reinterpret_cast<const uint8_t*>(block.data());
  if (absl::Status s = VerifyBlockIdentity(data, block.size()); !s.ok()) {
    return s;
  }
  absl::StatusOr<BlockHeader> header =
      DecodeTrailer(data + block.size() - kTrailerSize);
  if (!header.ok()) return header.status();
  if (absl::Status s = VerifySizes(*header, block.size()); !s.ok()) return s;
  return header;
}

}  // namespace bloomgate::internal
