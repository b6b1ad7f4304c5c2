// Copyright 2026 The bloomgate Authors.

#include "src/filter/format.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "src/filter/xxh3.h"

namespace bloomgate::internal {
namespace {

void PutFixed64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

uint64_t GetFixed64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

// XXH3-64 of the block with the checksum field left out.
uint64_t BlockChecksum(const uint8_t* block, size_t size) {
  const size_t checksum_at = size - kTrailerSize + kChecksumOffset;
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, block, checksum_at);
  XXH3_64bits_update(&state, block + checksum_at + 8, size - checksum_at - 8);
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
  PutFixed64(t, header.num_bits);
  PutFixed64(t + 8, header.num_keys);
  t[24] = static_cast<uint8_t>(header.layout);
  t[25] = static_cast<uint8_t>(header.num_probes);
  t[26] = kHashXxh3Seed0;
  t[27] = kFormatVersion;
  std::memcpy(t + 28, kMagic, sizeof(kMagic));
  PutFixed64(t + kChecksumOffset, BlockChecksum(block, size));
}

absl::StatusOr<BlockHeader> ReadAndVerifyBlock(std::string_view block) {
  if (block.size() < kTrailerSize) {
    return absl::DataLossError(absl::StrCat("filter block of ", block.size(),
                                            " bytes is shorter than its ",
                                            kTrailerSize, "-byte trailer"));
  }
  const auto* data = reinterpret_cast<const uint8_t*>(block.data());
  const uint8_t* t = data + block.size() - kTrailerSize;
  if (std::memcmp(t + 28, kMagic, sizeof(kMagic)) != 0) {
    return absl::DataLossError("not a bloomgate filter block (bad magic)");
  }
  const int version = t[27];
  if (version != kFormatVersion) {
    if (version > kFormatVersion) {
      return absl::UnimplementedError(
          absl::StrCat("filter format version ", version,
                       " is newer than this reader (", kFormatVersion, ")"));
    }
    return absl::DataLossError(
        absl::StrCat("invalid filter format version ", version));
  }
  if (GetFixed64(t + kChecksumOffset) != BlockChecksum(data, block.size())) {
    return absl::DataLossError("filter block checksum mismatch");
  }
  // The checksum matched: what follows is what a writer really wrote. A
  // failure from here on means a writer bloomgate does not know.
  if (t[26] != kHashXxh3Seed0) {
    return absl::UnimplementedError(
        absl::StrCat("unknown filter hash function ", int{t[26]}));
  }
  BlockHeader header;
  header.num_bits = GetFixed64(t);
  header.num_keys = GetFixed64(t + 8);
  header.num_probes = t[25];
  int max_probes;
  switch (t[24]) {
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
          absl::StrCat("unknown filter layout ", int{t[24]}));
  }
  if (header.num_probes < 1 || header.num_probes > max_probes) {
    return absl::UnimplementedError(
        absl::StrCat("unsupported probe count ", header.num_probes, " for the ",
                     LayoutName(header.layout), " layout"));
  }
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
  if (BitArrayBytes(header.num_bits) != block.size() - kTrailerSize) {
    return absl::DataLossError(absl::StrCat(
        "filter block is ", block.size(), " bytes but its ", header.num_bits,
        " bits need ", BitArrayBytes(header.num_bits) + kTrailerSize));
  }
  return header;
}

}  // namespace bloomgate::internal
