// Copyright 2026 The bloomgate Authors.
//
// An open SSTable. Open reads the footer (one read) and then the filter,
// properties and index blocks, which lie together before it (one read), and
// keeps them in memory; after that a lookup costs at most one positioned
// read of one data block, and only if the caller's key-range and filter
// checks let it through.

#ifndef BLOOMGATE_SRC_LSM_TABLE_H_
#define BLOOMGATE_SRC_LSM_TABLE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomgate/filter_reader.h"
#include "src/lsm/block.h"
#include "src/lsm/file.h"
#include "src/lsm/format.h"
#include "src/lsm/index_search.h"

namespace bloomgate::lsm {

// Immutable after Open; any number of threads may use it.
class Table {
 public:
  // DataLoss naming the file and offset for a damaged footer, properties or
  // index block, or a file whose blocks do not tile it exactly. A filter
  // block that is damaged or of a newer format is not an error: the table
  // matches every key and filter_status() says why.
  static absl::StatusOr<std::shared_ptr<const Table>> Open(
      std::unique_ptr<RandomAccessFile> file, uint64_t number, ReadCost* cost);

  uint64_t number() const { return number_; }
  const std::string& name() const { return file_->name(); }
  uint64_t file_size() const { return file_->size(); }
  const TableProperties& properties() const { return props_; }
  std::string_view smallest() const { return props_.smallest_key; }
  std::string_view largest() const { return props_.largest_key; }
  bool InRange(std::string_view key) const {
    return key >= smallest() && key <= largest();
  }

  // Whether the table was written with a filter block (a degraded filter
  // still counts: it is consulted and says "may match").
  bool has_filter() const { return has_filter_; }
  // False only if the key (by its bloomgate::HashKey) is certainly absent.
  bool HashMayMatch(uint64_t hash) const { return filter_.HashMayMatch(hash); }
  const FilterReader& filter() const { return filter_; }
  // OK, or why the filter matches every key, naming the file: DataLoss for
  // damaged bytes (the block's checksum or the filter's own validation),
  // Unimplemented for a filter format this reader does not know
  // (FilterReader::status()'s code, kept).
  const absl::Status& filter_status() const { return filter_status_; }
  // The filter block held in memory (64-byte aligned; empty without a
  // filter or for a degraded one).
  std::string_view filter_block() const { return filter_buf_.view(); }
  // Bytes of the filter block held in memory (0 without a filter).
  uint64_t filter_bytes() const { return filter_buf_.view().size(); }
  // Predicted FP rate of the filter (1 for none or a degraded one).
  double predicted_fp_rate() const { return predicted_fp_rate_; }

  enum class Lookup { kNotFound, kFound, kDeleted };
  // Reads the one data block that may hold `key` (none if the key is past
  // the last block) and searches it. `value` is set for kFound.
  absl::Status Find(std::string_view key, Lookup* result, std::string* value,
                    ReadCost* cost) const;

  const std::vector<IndexEntry>& index() const { return index_; }
  // Reads data block `i` into *buf (verifying its checksum) and parses it.
  absl::StatusOr<BlockReader> ReadBlock(size_t i, AlignedBuffer* buf,
                                        ReadCost* cost) const;

 private:
  Table(std::unique_ptr<RandomAccessFile> file, uint64_t number)
      : file_(std::move(file)), number_(number) {}

  // The steps of Open after the footer, each given its block as read with
  // its trailer (`bytes`) and the footer's handle of it.
  // Verifies and decodes the properties block.
  absl::Status LoadProperties(std::string_view bytes,
                              const BlockHandle& handle);
  // Verifies and decodes the index block, and checks it against the file
  // and the properties: contiguous data blocks from offset 0 to `data_end`,
  // one per data block, with strictly increasing last keys ending at the
  // largest key. After LoadProperties.
  absl::Status LoadIndex(std::string_view bytes, const BlockHandle& handle,
                         uint64_t data_end);
  // Keeps a 64-byte aligned copy of the filter block and a reader on it.
  // Damage or a newer format is no error: the table then matches every key
  // and filter_status() says why (the reader's code, DataLoss or
  // Unimplemented).
  void LoadFilter(std::string_view bytes, const BlockHandle& handle);

  std::unique_ptr<RandomAccessFile> file_;
  uint64_t number_;
  TableProperties props_;
  std::vector<IndexEntry> index_;
  IndexSearch index_search_;  // over index_
  bool has_filter_ = false;
  AlignedBuffer filter_buf_;  // 64-byte aligned copy of the filter block
  FilterReader filter_;
  absl::Status filter_status_;
  double predicted_fp_rate_ = 1.0;
};

// Walks a table's entries in key order, one data-block read per block,
// checking that keys strictly increase.
class TableIterator {
 public:
  TableIterator(std::shared_ptr<const Table> table, ReadCost* cost)
      : table_(std::move(table)), cost_(cost) {}

  // Positions at the first entry (Valid() is false for none).
  absl::Status SeekToFirst();
  bool Valid() const { return valid_; }
  // The current entry; its views are valid until the next move.
  const BlockEntry& entry() const { return entry_; }
  absl::Status Next();

 private:
  absl::Status LoadBlock(size_t i);

  std::shared_ptr<const Table> table_;
  ReadCost* cost_;
  AlignedBuffer buf_;
  std::optional<BlockReader> block_;
  size_t block_index_ = 0;
  uint32_t entry_index_ = 0;
  BlockEntry entry_;
  std::string prev_key_;
  bool valid_ = false;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_TABLE_H_
