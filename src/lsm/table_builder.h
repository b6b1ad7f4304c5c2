// Copyright 2026 The bloomgate Authors.
//
// Writes one SSTable (docs/sstable-format.md) from entries in key order.

#ifndef BLOOMGATE_SRC_LSM_TABLE_BUILDER_H_
#define BLOOMGATE_SRC_LSM_TABLE_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"
#include "src/lsm/block.h"
#include "src/lsm/file.h"
#include "src/lsm/format.h"

namespace bloomgate::lsm {

struct TableBuildOptions {
  size_t block_size = 4096;
  std::optional<FilterOptions> filter;  // nullopt: no filter block
};

// Call order: Add+ Finish. Keys must be strictly increasing (a table holds
// at most one entry per key). The builder appends to `file` and neither
// syncs nor closes it. Not thread-safe.
class TableBuilder {
 public:
  // InvalidArgument for bad filter options.
  static absl::StatusOr<std::unique_ptr<TableBuilder>> Create(
      const TableBuildOptions& options, WritableFile* file);

  // InvalidArgument if `key` is not greater than the previous key.
  absl::Status Add(std::string_view key, ValueType type,
                   std::string_view value);
  // Writes the last data block, the filter, properties, index and footer.
  // FailedPrecondition if no entry was added.
  absl::Status Finish();

  // Bytes the file will have if finished now, excluding the metadata.
  uint64_t EstimatedFileSize() const {
    return file_->size() + block_.EstimatedSize();
  }
  uint64_t num_entries() const { return props_.num_entries; }
  const TableProperties& properties() const { return props_; }

 private:
  TableBuilder(const TableBuildOptions& options, WritableFile* file,
               std::optional<FilterBuilder> filter);
  absl::Status FlushBlock();
  absl::Status WriteBlock(std::string_view contents, BlockHandle* handle);

  const TableBuildOptions options_;
  WritableFile* const file_;
  std::optional<FilterBuilder> filter_;
  BlockBuilder block_;
  std::vector<IndexEntry> index_;
  TableProperties props_;
  std::string last_key_;
  bool finished_ = false;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_TABLE_BUILDER_H_
