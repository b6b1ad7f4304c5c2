// Copyright 2026 The bloomgate Authors.
//
// Any bytes as a manifest: DecodeManifest must fail cleanly or return a
// list that survives an encode/decode round trip unchanged. (Not the same
// bytes: a varint may be encoded in more bytes than it needs.)
//
// Mode byte: bit 0 set recomputes the trailing checksum so that the field
// parsing behind it runs.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/lsm/coding.h"
#include "src/lsm/manifest.h"

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
  if (!m.ok()) return 0;
  auto again = DecodeManifest("MANIFEST", EncodeManifest(*m));
  if (!again.ok() || again->next_file_number != m->next_file_number ||
      again->log_number != m->log_number ||
      again->num_levels != m->num_levels ||
      again->files.size() != m->files.size()) {
    __builtin_trap();
  }
  for (size_t i = 0; i < m->files.size(); ++i) {
    const FileMeta& a = m->files[i];
    const FileMeta& b = again->files[i];
    if (a.level != b.level || a.number != b.number ||
        a.file_size != b.file_size || a.num_entries != b.num_entries ||
        a.smallest != b.smallest || a.largest != b.largest) {
      __builtin_trap();
    }
  }
  return 0;
}
