// Copyright 2026 The bloomgate Authors.

#include "src/lsm/block.h"

#include "absl/strings/str_cat.h"
#include "src/lsm/coding.h"
#include "src/lsm/status_macros.h"

namespace bloomgate::lsm {

void BlockBuilder::Add(std::string_view key, ValueType type,
                       std::string_view value) {
  PutFixed32(&offsets_, static_cast<uint32_t>(buffer_.size()));
  buffer_.push_back(static_cast<char>(type));
  PutVarint64(&buffer_, key.size());
  PutVarint64(&buffer_, value.size());
  buffer_.append(key);
  buffer_.append(value);
  ++num_entries_;
}

std::string_view BlockBuilder::Finish() {
  buffer_.append(offsets_);
  PutFixed32(&buffer_, num_entries_);
  offsets_.clear();
  return buffer_;
}

void BlockBuilder::Reset() {
  buffer_.clear();
  offsets_.clear();
  num_entries_ = 0;
}

absl::StatusOr<BlockReader> BlockReader::Parse(std::string_view contents) {
  if (contents.size() < 4) return absl::DataLossError("data block too short");
  const uint32_t n = DecodeFixed32(contents.data() + contents.size() - 4);
  const uint64_t array_bytes = 4ull * n + 4;
  if (n == 0 || array_bytes > contents.size()) {
    return absl::DataLossError(absl::StrCat("data block: bad entry count ", n));
  }
  std::string_view data = contents.substr(0, contents.size() - array_bytes);
  const char* offsets = data.data() + data.size();
  uint32_t prev = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t off = DecodeFixed32(offsets + 4 * i);
    // Entries are at least 3 bytes and in increasing order.
    if (off >= data.size() || (i == 0 ? off != 0 : off < prev + 3)) {
      return absl::DataLossError(
          absl::StrCat("data block: bad offset of entry ", i));
    }
    prev = off;
  }
  return BlockReader(data, offsets, n);
}

absl::Status BlockReader::Entry(uint32_t i, BlockEntry* entry) const {
  const uint32_t off = DecodeFixed32(offsets_ + 4 * i);
  const uint32_t end = i + 1 < num_entries_
                           ? DecodeFixed32(offsets_ + 4 * (i + 1))
                           : static_cast<uint32_t>(data_.size());
  std::string_view in = data_.substr(off, end - off);
  uint32_t key_len, value_len;
  if (in.empty()) return absl::DataLossError("data block: empty entry");
  const uint8_t type = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  if (type > 1 || !GetVarint32(&in, &key_len) ||
      !GetVarint32(&in, &value_len) ||
      in.size() != static_cast<uint64_t>(key_len) + value_len) {
    return absl::DataLossError(absl::StrCat("data block: malformed entry ", i));
  }
  entry->type = static_cast<ValueType>(type);
  entry->key = in.substr(0, key_len);
  entry->value = in.substr(key_len);
  return absl::OkStatus();
}

absl::Status BlockReader::Find(std::string_view key, bool* found,
                               BlockEntry* entry) const {
  uint32_t lo = 0, hi = num_entries_;  // search [lo, hi)
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    BLOOMGATE_LSM_RETURN_IF_ERROR(Entry(mid, entry));
    const int c = entry->key.compare(key);
    if (c == 0) {
      *found = true;
      return absl::OkStatus();
    }
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *found = false;
  return absl::OkStatus();
}

}  // namespace bloomgate::lsm
