// Copyright 2026 The bloomgate Authors.
//
// Any bytes as a manifest: DecodeManifest must fail cleanly or return a
// list that re-encodes to the same bytes.
//
// Mode byte: bit 0 set recomputes the trailing checksum so that the field
// parsing behind it runs.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lsm/coding.h"
#include "lsm/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bloomgate::lsm;
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if ((data[0] & 1) && bytes.size() >= 4) {
    const size_t body = bytes.size() - 4;
    EncodeFixed32(bytes.data() + body,
                  Checksum(std::string_view(bytes).substr(0, body)));
  }
  auto m = DecodeManifest("MANIFEST", bytes);
  if (m.ok() && EncodeManifest(*m) != bytes) __builtin_trap();
  return 0;
}
