// Copyright 2026 The bloomgate Authors.

#include "src/lsm/wal.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "src/lsm/coding.h"
#include "src/lsm/status_macros.h"

namespace bloomgate::lsm {

absl::Status LogWriter::AddRecord(std::string_view payload, bool sync) {
  std::string header;
  PutFixed32(&header, static_cast<uint32_t>(payload.size()));
  PutFixed32(&header, Checksum(payload));
  PutFixed32(&header, Checksum(header));
  BLOOMGATE_LSM_RETURN_IF_ERROR(file_->Append(header));
  BLOOMGATE_LSM_RETURN_IF_ERROR(file_->Append(payload));
  return sync ? file_->Sync() : file_->Flush();
}

namespace {

// A machine crash can leave a log longer than what reached the disk, the
// rest reading as zeros. A damaged record is a crash artefact, not damage,
// only when it and everything after it are zero bytes: a flipped byte in a
// real record is never mistaken for one.
bool AllZero(std::string_view bytes) {
  for (char c : bytes) {
    if (c != 0) return false;
  }
  return true;
}

}  // namespace

absl::Status ParseLog(
    std::string_view file, std::string_view contents,
    const std::function<absl::Status(std::string_view, uint64_t)>& fn,
    LogParseResult* result) {
  *result = LogParseResult();
  uint64_t offset = 0;
  while (offset < contents.size()) {
    const uint64_t left = contents.size() - offset;
    if (left < kLogHeaderSize) {
      result->truncated_tail_bytes = left;
      return absl::OkStatus();
    }
    const char* h = contents.data() + offset;
    if (DecodeFixed32(h + 8) != Checksum(std::string_view(h, 8))) {
      if (AllZero(contents.substr(offset))) {
        result->truncated_tail_bytes = left;
        return absl::OkStatus();
      }
      return absl::DataLossError(absl::StrCat(ToAbsl(file),
                                              ": WAL record header at offset ",
                                              offset, ": checksum mismatch"));
    }
    const uint32_t length = DecodeFixed32(h);
    if (length > left - kLogHeaderSize) {
      result->truncated_tail_bytes = left;
      return absl::OkStatus();
    }
    std::string_view payload(h + kLogHeaderSize, length);
    if (DecodeFixed32(h + 4) != Checksum(payload)) {
      // The header reached the disk, the rest of the file did not.
      if (AllZero(contents.substr(offset + kLogHeaderSize))) {
        result->truncated_tail_bytes = left;
        return absl::OkStatus();
      }
      return absl::DataLossError(
          absl::StrCat(ToAbsl(file), ": WAL record at offset ", offset, " (",
                       length, " bytes): checksum mismatch"));
    }
    BLOOMGATE_LSM_RETURN_IF_ERROR(fn(payload, offset));
    ++result->records;
    offset += kLogHeaderSize + length;
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::lsm
