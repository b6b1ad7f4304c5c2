// Copyright 2026 The bloomgate Authors.
//
// Any bytes as a WAL: ParseLog, and every record it accepts as a write
// batch. Nothing may crash; errors are fine.
//
// Mode byte: bit 0 set reseals the records -- walks the headers and
// recomputes both checksums -- so that the batch decoder runs.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bloomgate/lsm/write_batch.h"
#include "src/lsm/coding.h"
#include "src/lsm/wal.h"

namespace bloomgate::lsm {
namespace {

void Reseal(std::string& log) {
  size_t offset = 0;
  while (log.size() - offset >= kLogHeaderSize) {
    char* h = log.data() + offset;
    const uint32_t length = DecodeFixed32(h);
    if (length > log.size() - offset - kLogHeaderSize) return;
    EncodeFixed32(h + 4,
                  Checksum(std::string_view(h + kLogHeaderSize, length)));
    EncodeFixed32(h + 8, Checksum(std::string_view(h, 8)));
    offset += kLogHeaderSize + length;
  }
}

class Sink final : public WriteBatch::Handler {
 public:
  void Put(std::string_view k, std::string_view v) override {
    bytes += k.size() + v.size();
  }
  void Delete(std::string_view k) override { bytes += k.size(); }
  size_t bytes = 0;
};

}  // namespace
}  // namespace bloomgate::lsm

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bloomgate::lsm;
  if (size == 0) return 0;
  std::string log(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 1) Reseal(log);
  LogParseResult result;
  (void)ParseLog(
      "fuzz.log", log,
      [](std::string_view payload, uint64_t) {
        WriteBatch batch;
        batch.SetContents(payload);
        Sink sink;
        (void)batch.Iterate(sink);
        return absl::OkStatus();
      },
      &result);
  if (result.truncated_tail_bytes > log.size()) __builtin_trap();
  return 0;
}
