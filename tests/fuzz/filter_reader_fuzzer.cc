// Copyright 2026 The bloomgate Authors.
//
// Any bytes handed to FilterReader: it must never crash or read out of
// bounds, and a degraded reader must never say "no".
//
// Random bytes almost never carry a valid checksum, which would leave the
// field checks and the probing code unexplored. So the first input byte picks
// a mode: odd means "reseal" -- recompute the checksum of the rest as
// docs/filter-format.md defines it, before handing it to the reader.

#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bloomgate/filter_reader.h"

namespace {

void Reseal(std::string& block) {
  if (block.size() < 32) return;
  const size_t at = block.size() - 16;
  const std::string covered = block.substr(0, at) + block.substr(at + 8);
  const uint64_t sum = XXH3_64bits(covered.data(), covered.size());
  for (int i = 0; i < 8; ++i) block[at + i] = static_cast<char>(sum >> (8 * i));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string block(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) Reseal(block);

  bloomgate::FilterReader reader(block);
  bool any_no = false;
  for (std::string_view key : {"", "dog", "pig", "elk", "rat"}) {
    any_no |= !reader.MayMatch(key);
  }
  uint64_t hashes[20];
  bool results[20];
  for (int i = 0; i < 20; ++i) hashes[i] = 0x9E3779B97F4A7C15ull * i;
  reader.HashMayMatchBatch(hashes, absl::MakeSpan(results));
  for (bool r : results) any_no |= !r;
  if (any_no && reader.degraded()) __builtin_trap();  // a degraded "no"
  return 0;
}
