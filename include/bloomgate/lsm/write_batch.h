// Copyright 2026 The bloomgate Authors.
//
// A group of updates applied atomically by Store::Write: after a crash either
// all of them are there or none is.

#ifndef BLOOMGATE_LSM_WRITE_BATCH_H_
#define BLOOMGATE_LSM_WRITE_BATCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace bloomgate::lsm {

// Updates in the order they were added; a later update of the same key wins.
// The batch's bytes are the payload of one WAL record (docs/sstable-format.md,
// "Write-ahead log").
class WriteBatch {
 public:
  WriteBatch();

  void Put(std::string_view key, std::string_view value);
  void Delete(std::string_view key);
  void Clear();

  // Number of updates.
  uint32_t Count() const;
  // Size of the encoded batch in bytes.
  size_t ApproximateSize() const { return rep_.size(); }

  // Receives the updates of a batch, in order.
  class Handler {
   public:
    virtual ~Handler() = default;
    virtual void Put(std::string_view key, std::string_view value) = 0;
    virtual void Delete(std::string_view key) = 0;
  };
  // Calls `handler` for each update. DataLoss if the encoding is malformed
  // (only possible for a batch built by SetContents from bad bytes).
  absl::Status Iterate(Handler& handler) const;

  // The encoded batch, and the inverse; SetContents does not validate
  // (Iterate does).
  std::string_view Contents() const { return rep_; }
  void SetContents(std::string_view contents);

 private:
  std::string rep_;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_LSM_WRITE_BATCH_H_
