// Copyright 2026 The bloomgate Authors.
//
// The write-ahead log (docs/sstable-format.md, "Write-ahead log"): a
// sequence of records, one per write batch,
//
//   fixed32 length  fixed32 Checksum(payload)
//   fixed32 Checksum(the 8 bytes before)  payload[length]
//
// The header has its own checksum so that a damaged length is told apart
// from a record cut short by a crash.

#ifndef BLOOMGATE_SRC_LSM_WAL_H_
#define BLOOMGATE_SRC_LSM_WAL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>

#include "absl/status/status.h"
#include "src/lsm/file.h"

namespace bloomgate::lsm {

inline constexpr size_t kLogHeaderSize = 12;

class LogWriter {
 public:
  explicit LogWriter(std::unique_ptr<WritableFile> file)
      : file_(std::move(file)) {}

  // Appends one record and hands it to the kernel before returning (a
  // process crash then keeps it); with `sync` it is also fdatasynced.
  absl::Status AddRecord(std::string_view payload, bool sync);
  absl::Status Sync() { return file_->Sync(); }
  absl::Status Close() { return file_->Close(); }
  uint64_t size() const { return file_->size(); }

 private:
  std::unique_ptr<WritableFile> file_;
};

struct LogParseResult {
  uint64_t records = 0;
  // Bytes at the end that hold an incomplete record, or only zero bytes:
  // what a crash during an append leaves (zeros: a machine crash that
  // extended the file but lost the data). They were never acknowledged --
  // an acknowledged record was complete and, with sync, on disk -- and are
  // ignored.
  uint64_t truncated_tail_bytes = 0;
};

// Calls `fn(payload, offset)` for each complete record of the log `contents`
// in order. A record whose header or payload checksum does not match is
// DataLoss naming `file` and the record's offset; an error from `fn` is
// returned as is.
absl::Status ParseLog(
    std::string_view file, std::string_view contents,
    const std::function<absl::Status(std::string_view, uint64_t)>& fn,
    LogParseResult* result);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_WAL_H_
