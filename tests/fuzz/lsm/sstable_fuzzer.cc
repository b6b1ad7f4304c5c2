// Copyright 2026 The bloomgate Authors.
//
// Any bytes as an SSTable: Table::Open, then lookups and a full iteration.
// Nothing may crash or read out of bounds; errors are fine.
//
// Mode byte: bit 0 set reseals the file -- recomputes the footer checksum,
// the trailers of the metadata blocks it names and, if the index parses,
// of every data block -- so that the parsers behind the checksums run.
// Bit 1 set instead hands the rest to the data-block parser directly.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/lsm/block.h"
#include "src/lsm/coding.h"
#include "src/lsm/file.h"
#include "src/lsm/format.h"
#include "src/lsm/table.h"

namespace bloomgate::lsm {
namespace {

void SealBlock(std::string& file, uint64_t offset, uint64_t size) {
  if (offset > file.size() || size > file.size() - offset ||
      file.size() - offset - size < kBlockTrailerSize) {
    return;
  }
  EncodeFixed32(file.data() + offset + size,
                Checksum(std::string_view(file).substr(offset, size)));
}

void Reseal(std::string& file) {
  if (file.size() < kFooterSize) return;
  char* f = file.data() + file.size() - kFooterSize;
  EncodeFixed32(f + 60, Checksum(std::string_view(f, 60)));
  BlockHandle h[3];
  for (int i = 0; i < 3; ++i) {
    h[i].offset = DecodeFixed64(f + 16 * i);
    h[i].size = DecodeFixed64(f + 16 * i + 8);
    SealBlock(file, h[i].offset, h[i].size);
  }
  const BlockHandle& index = h[2];
  if (index.offset > file.size() || index.size > file.size() - index.offset) {
    return;
  }
  auto entries =
      DecodeIndex(std::string_view(file).substr(index.offset, index.size));
  if (!entries.ok()) return;
  for (const IndexEntry& e : *entries) {
    SealBlock(file, e.handle.offset, e.handle.size);
  }
}

void Exercise(const std::string& bytes) {
  ReadCost cost;
  auto table = Table::Open(NewStringFile("fuzz.sst", bytes), 1, &cost);
  if (!table.ok()) return;
  const Table& t = **table;
  std::string value;
  Table::Lookup result;
  for (const IndexEntry& e : t.index()) {
    (void)t.Find(e.last_key, &result, &value, &cost);
    (void)t.HashMayMatch(e.handle.offset);
  }
  (void)t.Find(t.smallest(), &result, &value, &cost);
  (void)t.Find("", &result, &value, &cost);
  TableIterator it(*table, &cost);
  if (!it.SeekToFirst().ok()) return;
  for (int n = 0; it.Valid() && n < 100000; ++n) {
    if (!it.Next().ok()) return;
  }
}

}  // namespace
}  // namespace bloomgate::lsm

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace bloomgate::lsm;
  if (size == 0) return 0;
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] & 2) {
    auto block = BlockReader::Parse(bytes);
    if (!block.ok()) return 0;
    BlockEntry e;
    bool found;
    for (uint32_t i = 0; i < block->num_entries(); ++i) {
      if (block->Entry(i, &e).ok()) (void)block->Find(e.key, &found, &e);
    }
    (void)block->Find("k", &found, &e);
    return 0;
  }
  if (data[0] & 1) Reseal(bytes);
  Exercise(bytes);
  return 0;
}
