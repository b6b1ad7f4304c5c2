// Copyright 2026 The bloomgate Authors.
//
// Encoding (docs/sstable-format.md, "Write batch"):
//   fixed32 count, then per update: type:u8 (1 put, 0 delete),
//   varint key_len, key, and for a put varint value_len, value.

#include "bloomgate/lsm/write_batch.h"

#include "absl/strings/str_cat.h"
#include "src/lsm/coding.h"
#include "src/lsm/format.h"

namespace bloomgate::lsm {

WriteBatch::WriteBatch() { Clear(); }

void WriteBatch::Clear() { rep_.assign(4, '\0'); }

uint32_t WriteBatch::Count() const { return DecodeFixed32(rep_.data()); }

void WriteBatch::Put(std::string_view key, std::string_view value) {
  EncodeFixed32(rep_.data(), Count() + 1);
  rep_.push_back(static_cast<char>(ValueType::kValue));
  PutLengthPrefixed(&rep_, key);
  PutLengthPrefixed(&rep_, value);
}

void WriteBatch::Delete(std::string_view key) {
  EncodeFixed32(rep_.data(), Count() + 1);
  rep_.push_back(static_cast<char>(ValueType::kDeletion));
  PutLengthPrefixed(&rep_, key);
}

void WriteBatch::SetContents(std::string_view contents) {
  rep_.assign(contents);
}

absl::Status WriteBatch::Iterate(Handler& handler) const {
  std::string_view in = rep_;
  uint32_t count;
  if (!GetFixed32(&in, &count)) {
    return absl::DataLossError("write batch: too short");
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (in.empty()) {
      return absl::DataLossError(absl::StrCat(
          "write batch: ", count, " updates announced, ", i, " present"));
    }
    const uint8_t type = static_cast<uint8_t>(in[0]);
    in.remove_prefix(1);
    std::string_view key, value;
    if (!GetLengthPrefixed(&in, &key)) {
      return absl::DataLossError(
          absl::StrCat("write batch: malformed key of update ", i));
    }
    if (type == static_cast<uint8_t>(ValueType::kValue)) {
      if (!GetLengthPrefixed(&in, &value)) {
        return absl::DataLossError(
            absl::StrCat("write batch: malformed value of update ", i));
      }
      handler.Put(key, value);
    } else if (type == static_cast<uint8_t>(ValueType::kDeletion)) {
      handler.Delete(key);
    } else {
      return absl::DataLossError(
          absl::StrCat("write batch: unknown update type ", type));
    }
  }
  if (!in.empty()) {
    return absl::DataLossError("write batch: trailing bytes");
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::lsm
