// Copyright 2026 The bloomgate Authors.

#include "src/lsm/table.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/sizing.h"
#include "src/lsm/coding.h"
#include "src/lsm/status_macros.h"

namespace bloomgate::lsm {
namespace {

absl::Status Annotate(const absl::Status& s, std::string_view file,
                      std::string_view what, uint64_t offset) {
  return absl::Status(
      s.code(), absl::StrCat(ToAbsl(file), ": ", ToAbsl(what), " at offset ",
                             offset, ": ", s.message()));
}

// Where the metadata blocks start: at the filter block if there is one,
// else at the properties block.
uint64_t MetaStart(const Footer& footer) {
  return footer.filter.size != 0 ? footer.filter.offset
                                 : footer.properties.offset;
}

// OK if the footer's handles tile [MetaStart, footer_offset) in the order
// filter?, properties, index; else DataLoss naming `name`.
absl::Status CheckMetaLayout(const Footer& footer, const std::string& name,
                             uint64_t footer_offset) {
  const bool has_filter = footer.filter.size != 0;
  if (!has_filter && footer.filter.offset != 0) {
    return absl::DataLossError(
        absl::StrCat(name, ": footer at offset ", footer_offset,
                     ": empty filter handle with a non-zero offset"));
  }
  const uint64_t meta_start = MetaStart(footer);
  const bool tiled =
      (!has_filter || footer.filter.end() == footer.properties.offset) &&
      footer.properties.offset < footer_offset &&
      footer.properties.size < footer_offset &&
      footer.properties.end() == footer.index.offset &&
      footer.index.offset < footer_offset &&
      footer.index.size < footer_offset &&
      footer.index.end() == footer_offset && meta_start < footer_offset;
  if (!tiled) {
    return absl::DataLossError(
        absl::StrCat(name, ": footer at offset ", footer_offset,
                     ": block handles do not tile the file"));
  }
  return absl::OkStatus();
}

// Reads and decodes the footer at the end of `file` and checks the layout
// it describes.
absl::StatusOr<Footer> ReadFooter(const RandomAccessFile& file,
                                  ReadCost* cost) {
  const std::string& name = file.name();
  const uint64_t size = file.size();
  if (size < kFooterSize) {
    return absl::DataLossError(absl::StrCat(
        name, ": ", size, " bytes is too short for an SSTable (offset 0)"));
  }
  const uint64_t footer_offset = size - kFooterSize;
  AlignedBuffer buf;
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      file.Read(footer_offset, kFooterSize, &buf, cost));
  absl::StatusOr<Footer> footer = DecodeFooter(buf.view(), name, footer_offset);
  if (!footer.ok()) return footer.status();
  BLOOMGATE_LSM_RETURN_IF_ERROR(CheckMetaLayout(*footer, name, footer_offset));
  return footer;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Table>> Table::Open(
    std::unique_ptr<RandomAccessFile> file, uint64_t number, ReadCost* cost) {
  absl::StatusOr<Footer> footer = ReadFooter(*file, cost);
  if (!footer.ok()) return footer.status();

  // The metadata blocks, in one read.
  const uint64_t meta_start = MetaStart(*footer);
  const uint64_t footer_offset = file->size() - kFooterSize;
  AlignedBuffer buf;
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      file->Read(meta_start, footer_offset - meta_start, &buf, cost));
  const std::string_view meta = buf.view();
  auto block_bytes = [&](const BlockHandle& h) {
    return meta.substr(h.offset - meta_start, h.size + kBlockTrailerSize);
  };

  std::shared_ptr<Table> table(new Table(std::move(file), number));
  BLOOMGATE_LSM_RETURN_IF_ERROR(table->LoadProperties(
      block_bytes(footer->properties), footer->properties));
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      table->LoadIndex(block_bytes(footer->index), footer->index, meta_start));
  if (footer->filter.size != 0) {
    table->LoadFilter(block_bytes(footer->filter), footer->filter);
  }
  return std::shared_ptr<const Table>(std::move(table));
}

absl::Status Table::LoadProperties(std::string_view bytes,
                                   const BlockHandle& handle) {
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      VerifyBlock(bytes, name(), "properties block", handle.offset));
  absl::StatusOr<TableProperties> props =
      DecodeProperties(bytes.substr(0, handle.size));
  if (!props.ok()) {
    return Annotate(props.status(), name(), "properties block", handle.offset);
  }
  props_ = std::move(*props);
  return absl::OkStatus();
}

absl::Status Table::LoadIndex(std::string_view bytes, const BlockHandle& handle,
                              uint64_t data_end) {
  const uint64_t offset = handle.offset;
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      VerifyBlock(bytes, name(), "index block", offset));
  absl::StatusOr<std::vector<IndexEntry>> index =
      DecodeIndex(bytes.substr(0, handle.size));
  if (!index.ok()) {
    return Annotate(index.status(), name(), "index block", offset);
  }
  uint64_t expect = 0;
  for (size_t i = 0; i < index->size(); ++i) {
    const IndexEntry& e = (*index)[i];
    if (e.handle.offset != expect || e.handle.size > data_end ||
        e.handle.end() > data_end ||
        (i > 0 && e.last_key <= (*index)[i - 1].last_key)) {
      return absl::DataLossError(
          absl::StrCat(name(), ": index block at offset ", offset, ": entry ",
                       i, " is inconsistent"));
    }
    expect = e.handle.end();
  }
  if (expect != data_end || index->size() != props_.num_data_blocks ||
      index->back().last_key != props_.largest_key) {
    return absl::DataLossError(
        absl::StrCat(name(), ": index block at offset ", offset,
                     " disagrees with the file's layout or properties"));
  }
  index_ = std::move(*index);
  index_search_ = IndexSearch(index_);
  return absl::OkStatus();
}

void Table::LoadFilter(std::string_view bytes, const BlockHandle& handle) {
  has_filter_ = true;
  const uint64_t offset = handle.offset;
  const size_t size = handle.size;
  absl::Status s = VerifyBlock(bytes, name(), "filter block", offset);
  if (s.ok()) {
    filter_buf_.Allocate(size, 64);
    std::memcpy(filter_buf_.base(), bytes.data(), size);
    filter_buf_.SetView(0, size);
    filter_ = FilterReader(filter_buf_.view());
    if (filter_.degraded()) {
      s = Annotate(filter_.status(), name(), "filter block", offset);
    }
  }
  if (s.ok()) {
    predicted_fp_rate_ =
        PredictedFilterFpRate(filter_.layout(), filter_.num_keys(),
                              filter_.num_bits(), filter_.num_probes());
  } else {
    filter_ = FilterReader();
    filter_buf_ = AlignedBuffer();
    filter_status_ = absl::Status(
        s.code(),
        absl::StrCat(s.message(),
                     "; the filter is ignored (every key may match)"));
  }
}

absl::StatusOr<BlockReader> Table::ReadBlock(size_t i, AlignedBuffer* buf,
                                             ReadCost* cost) const {
  const BlockHandle& h = index_[i].handle;
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      file_->Read(h.offset, h.size + kBlockTrailerSize, buf, cost));
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      VerifyBlock(buf->view(), name(), "data block", h.offset));
  absl::StatusOr<BlockReader> block =
      BlockReader::Parse(buf->view().substr(0, h.size));
  if (!block.ok()) {
    return Annotate(block.status(), name(), "data block", h.offset);
  }
  return block;
}

absl::Status Table::Find(std::string_view key, Lookup* result,
                         std::string* value, ReadCost* cost) const {
  *result = Lookup::kNotFound;
  const size_t i = index_search_.LowerBound(index_, key);
  if (i == index_.size()) return absl::OkStatus();
  // One scratch buffer per thread: a lookup allocates nothing once warm.
  thread_local AlignedBuffer scratch;
  absl::StatusOr<BlockReader> block = ReadBlock(i, &scratch, cost);
  if (!block.ok()) return block.status();
  bool found = false;
  BlockEntry entry;
  absl::Status s = block->Find(key, &found, &entry);
  if (!s.ok())
    return Annotate(s, name(), "data block", index_[i].handle.offset);
  if (found) {
    if (entry.type == ValueType::kValue) {
      *result = Lookup::kFound;
      value->assign(entry.value);
    } else {
      *result = Lookup::kDeleted;
    }
  }
  return absl::OkStatus();
}

absl::Status TableIterator::SeekToFirst() {
  prev_key_.clear();
  valid_ = false;
  if (table_->index().empty()) return absl::OkStatus();
  BLOOMGATE_LSM_RETURN_IF_ERROR(LoadBlock(0));
  entry_index_ = 0;
  BLOOMGATE_LSM_RETURN_IF_ERROR(block_->Entry(0, &entry_));
  valid_ = true;
  return absl::OkStatus();
}

absl::Status TableIterator::LoadBlock(size_t i) {
  absl::StatusOr<BlockReader> block = table_->ReadBlock(i, &buf_, cost_);
  if (!block.ok()) return block.status();
  block_.emplace(*block);
  block_index_ = i;
  return absl::OkStatus();
}

absl::Status TableIterator::Next() {
  prev_key_.assign(entry_.key);
  const uint64_t block_offset = table_->index()[block_index_].handle.offset;
  if (entry_index_ + 1 < block_->num_entries()) {
    ++entry_index_;
  } else {
    // The last entry of a block must be the key the index promised.
    if (entry_.key != table_->index()[block_index_].last_key) {
      valid_ = false;
      return absl::DataLossError(
          absl::StrCat(table_->name(), ": data block at offset ", block_offset,
                       ": last key disagrees with the index"));
    }
    if (block_index_ + 1 == table_->index().size()) {
      valid_ = false;
      return absl::OkStatus();
    }
    BLOOMGATE_LSM_RETURN_IF_ERROR(LoadBlock(block_index_ + 1));
    entry_index_ = 0;
  }
  absl::Status s = block_->Entry(entry_index_, &entry_);
  if (s.ok() && entry_.key <= prev_key_) {
    s = absl::DataLossError("keys out of order");
  }
  if (!s.ok()) {
    valid_ = false;
    return Annotate(s, table_->name(), "data block",
                    table_->index()[block_index_].handle.offset);
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::lsm
