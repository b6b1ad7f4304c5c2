// Copyright 2026 The bloomgate Authors.
//
// Any bytes handed to FilterReader: it must never crash or read out of
// bounds, and a reader that says "no" must have validated the block.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "bloomgate/filter_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  bloomgate::FilterReader reader(bytes);
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
