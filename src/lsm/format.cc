// Copyright 2026 The bloomgate Authors.

#include "src/lsm/format.h"

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "src/lsm/coding.h"

namespace bloomgate::lsm {

std::string EncodeFooter(const Footer& footer) {
  std::string out;
  for (const BlockHandle* h :
       {&footer.filter, &footer.properties, &footer.index}) {
    PutFixed64(&out, h->offset);
    PutFixed64(&out, h->size);
  }
  PutFixed32(&out, footer.format_version);
  PutFixed64(&out, kTableMagic);
  PutFixed32(&out, Checksum(out));
  return out;
}

absl::StatusOr<Footer> DecodeFooter(std::string_view bytes,
                                    std::string_view file, uint64_t offset) {
  if (bytes.size() != kFooterSize) {
    return absl::DataLossError(absl::StrCat(ToAbsl(file), ": footer at offset ",
                                            offset, " is ", bytes.size(),
                                            " bytes, expected ", kFooterSize));
  }
  const uint64_t magic = DecodeFixed64(bytes.data() + kFooterMagicOffset);
  if (magic != kTableMagic) {
    return absl::DataLossError(absl::StrCat(
        ToAbsl(file), ": not an SSTable (bad magic number at offset ",
        offset + kFooterMagicOffset, ")"));
  }
  const uint32_t stored = DecodeFixed32(bytes.data() + kFooterChecksumOffset);
  if (stored != Checksum(bytes.substr(0, kFooterChecksumOffset))) {
    return absl::DataLossError(absl::StrCat(
        ToAbsl(file), ": footer checksum mismatch (footer at offset ", offset,
        ")"));
  }
  Footer f;
  std::string_view in = bytes;
  for (BlockHandle* h : {&f.filter, &f.properties, &f.index}) {
    GetFixed64(&in, &h->offset);
    GetFixed64(&in, &h->size);
  }
  GetFixed32(&in, &f.format_version);
  if (f.format_version != kTableFormatVersion) {
    return absl::UnimplementedError(absl::StrCat(
        ToAbsl(file), ": SSTable format version ", f.format_version,
        " is not supported (this build reads version ", kTableFormatVersion,
        ")"));
  }
  return f;
}

std::string EncodeProperties(const TableProperties& p) {
  std::string out;
  PutFixed64(&out, p.num_entries);
  PutFixed64(&out, p.num_deletions);
  PutFixed64(&out, p.num_data_blocks);
  PutFixed64(&out, p.raw_key_bytes);
  PutFixed64(&out, p.raw_value_bytes);
  PutLengthPrefixed(&out, p.smallest_key);
  PutLengthPrefixed(&out, p.largest_key);
  return out;
}

absl::StatusOr<TableProperties> DecodeProperties(std::string_view in) {
  TableProperties p;
  std::string_view smallest, largest;
  if (!GetFixed64(&in, &p.num_entries) || !GetFixed64(&in, &p.num_deletions) ||
      !GetFixed64(&in, &p.num_data_blocks) ||
      !GetFixed64(&in, &p.raw_key_bytes) ||
      !GetFixed64(&in, &p.raw_value_bytes) ||
      !GetLengthPrefixed(&in, &smallest) || !GetLengthPrefixed(&in, &largest) ||
      !in.empty()) {
    return absl::DataLossError("malformed properties block");
  }
  if (p.num_entries == 0 || p.num_deletions > p.num_entries ||
      p.num_data_blocks == 0 || smallest > largest) {
    return absl::DataLossError("inconsistent properties block");
  }
  p.smallest_key = smallest;
  p.largest_key = largest;
  return p;
}

std::string EncodeIndex(const std::vector<IndexEntry>& entries) {
  std::string out;
  PutVarint64(&out, entries.size());
  for (const IndexEntry& e : entries) {
    PutLengthPrefixed(&out, e.last_key);
    PutVarint64(&out, e.handle.offset);
    PutVarint64(&out, e.handle.size);
  }
  return out;
}

absl::StatusOr<std::vector<IndexEntry>> DecodeIndex(std::string_view in) {
  uint64_t n;
  // Each entry takes at least 3 bytes: a bound before reserving memory.
  if (!GetVarint64(&in, &n) || n == 0 || n > in.size() / 3) {
    return absl::DataLossError("malformed index block (entry count)");
  }
  std::vector<IndexEntry> entries;
  entries.reserve(n);
  for (uint64_t i = 0; i < n; ++i) {
    std::string_view key;
    IndexEntry e;
    if (!GetLengthPrefixed(&in, &key) || !GetVarint64(&in, &e.handle.offset) ||
        !GetVarint64(&in, &e.handle.size)) {
      return absl::DataLossError(
          absl::StrCat("malformed index block (entry ", i, ")"));
    }
    e.last_key = key;
    entries.push_back(std::move(e));
  }
  if (!in.empty()) {
    return absl::DataLossError("malformed index block (trailing bytes)");
  }
  return entries;
}

absl::Status VerifyBlock(std::string_view block_and_trailer,
                         std::string_view file, std::string_view what,
                         uint64_t offset) {
  if (block_and_trailer.size() < kBlockTrailerSize) {
    return absl::DataLossError(absl::StrCat(ToAbsl(file), ": ", ToAbsl(what),
                                            " at offset ", offset,
                                            " is truncated"));
  }
  const size_t n = block_and_trailer.size() - kBlockTrailerSize;
  const uint32_t stored = DecodeFixed32(block_and_trailer.data() + n);
  if (stored != Checksum(block_and_trailer.substr(0, n))) {
    return absl::DataLossError(absl::StrCat(ToAbsl(file), ": ", ToAbsl(what),
                                            " at offset ", offset, " (", n,
                                            " bytes): checksum mismatch"));
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::lsm
