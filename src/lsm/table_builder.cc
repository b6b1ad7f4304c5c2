// Copyright 2026 The bloomgate Authors.

#include "src/lsm/table_builder.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "src/lsm/coding.h"
#include "src/lsm/status_macros.h"

namespace bloomgate::lsm {

absl::StatusOr<std::unique_ptr<TableBuilder>> TableBuilder::Create(
    const TableBuildOptions& options, WritableFile* file) {
  std::optional<FilterBuilder> filter;
  if (options.filter.has_value()) {
    absl::StatusOr<FilterBuilder> fb = FilterBuilder::Create(*options.filter);
    if (!fb.ok()) return fb.status();
    filter.emplace(std::move(*fb));
  }
  return std::unique_ptr<TableBuilder>(
      new TableBuilder(options, file, std::move(filter)));
}

TableBuilder::TableBuilder(const TableBuildOptions& options, WritableFile* file,
                           std::optional<FilterBuilder> filter)
    : options_(options), file_(file), filter_(std::move(filter)) {}

absl::Status TableBuilder::Add(std::string_view key, ValueType type,
                               std::string_view value) {
  if (finished_) return absl::FailedPreconditionError("table is finished");
  if (props_.num_entries > 0 && key <= std::string_view(last_key_)) {
    return absl::InvalidArgumentError(
        "table keys must be added in strictly increasing order");
  }
  if (props_.num_entries == 0) props_.smallest_key = key;
  block_.Add(key, type, value);
  if (filter_.has_value()) filter_->AddKey(key);
  last_key_.assign(key);
  ++props_.num_entries;
  if (type == ValueType::kDeletion) ++props_.num_deletions;
  props_.raw_key_bytes += key.size();
  props_.raw_value_bytes += value.size();
  if (block_.EstimatedSize() >= options_.block_size) return FlushBlock();
  return absl::OkStatus();
}

absl::Status TableBuilder::FlushBlock() {
  if (block_.empty()) return absl::OkStatus();
  IndexEntry entry;
  entry.last_key = last_key_;
  BLOOMGATE_LSM_RETURN_IF_ERROR(WriteBlock(block_.Finish(), &entry.handle));
  block_.Reset();
  index_.push_back(std::move(entry));
  ++props_.num_data_blocks;
  return absl::OkStatus();
}

absl::Status TableBuilder::WriteBlock(std::string_view contents,
                                      BlockHandle* handle) {
  handle->offset = file_->size();
  handle->size = contents.size();
  BLOOMGATE_LSM_RETURN_IF_ERROR(file_->Append(contents));
  char trailer[kBlockTrailerSize];
  EncodeFixed32(trailer, Checksum(contents));
  return file_->Append(std::string_view(trailer, sizeof(trailer)));
}

absl::Status TableBuilder::Finish() {
  if (finished_) return absl::FailedPreconditionError("table is finished");
  if (props_.num_entries == 0) {
    return absl::FailedPreconditionError("an SSTable needs an entry");
  }
  BLOOMGATE_LSM_RETURN_IF_ERROR(FlushBlock());
  finished_ = true;
  props_.largest_key = last_key_;
  Footer footer;
  if (filter_.has_value()) {
    // The filter core's block, verbatim.
    std::string block(filter_->BlockSize(filter_->num_keys()), '\0');
    filter_->FinishInto(absl::MakeSpan(block));
    BLOOMGATE_LSM_RETURN_IF_ERROR(WriteBlock(block, &footer.filter));
  }
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      WriteBlock(EncodeProperties(props_), &footer.properties));
  BLOOMGATE_LSM_RETURN_IF_ERROR(WriteBlock(EncodeIndex(index_), &footer.index));
  return file_->Append(EncodeFooter(footer));
}

}  // namespace bloomgate::lsm
