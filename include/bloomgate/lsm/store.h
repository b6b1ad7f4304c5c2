// Copyright 2026 The bloomgate Authors.
//
// bloomgate's miniature LSM store: a small embedded key-value store whose
// read path exists to measure what Bloom filters save. Every immutable
// SSTable keeps one filter block (the filter core's, verbatim) in memory from
// the moment it is opened; a Get consults a file's key range, then its
// filter, then its in-memory index, and only then reads exactly one data
// block with one positioned read. Every read is counted (stats.h).
//
// Layout on disk (docs/sstable-format.md, docs/lsm-design.md):
//   <dir>/MANIFEST        live files per level, replaced atomically
//   <dir>/NNNNNN.log      write-ahead log of the current memtable
//   <dir>/NNNNNN.sst      SSTables
//   <dir>/LOCK            held (flock) while a Store has the folder open
//
// Threads: any number of threads may call Get and GetStats concurrently with
// each other and with one thread that writes (Put/Delete/Write), flushes and
// compacts; writers are serialised. Flushes and compactions run on the
// writing thread (there are no background threads): a Put that fills the
// write buffer flushes it, then runs any compactions that are due. A Get sees
// one consistent set of memtables and files.

#ifndef BLOOMGATE_LSM_STORE_H_
#define BLOOMGATE_LSM_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/lsm/stats.h"
#include "bloomgate/lsm/write_batch.h"

namespace bloomgate::lsm {

// What Open does with a WAL whose end holds an incomplete record: what a
// crash in the middle of an append leaves (or a machine crash that extended
// the file but lost its data, read back as zeros). A damaged record that is
// followed by more data is never skipped: it fails Open with DataLoss in
// either mode.
enum class WalRecovery {
  // Replay the complete records and drop the incomplete tail, reporting its
  // bytes in Store::recovery(). With sync_writes, no acknowledged write is
  // in such a tail.
  kTolerateIncompleteTail,
  // Fail Open with DataLoss naming the file and the tail's offset.
  kAbsoluteConsistency,
};

struct StoreOptions {
  // The filter every new SSTable gets (bloomgate/filter_spec.h): bloomgate's
  // blocked filter at 10 bits per key unless set; kNoFilter writes tables
  // without one (every file whose key range covers a key then costs a
  // read). Only bloomgate's own family can be built here. With
  // filter.monkey, filter.bits_per_key is the budget over the whole tree
  // (or filter.memory_budget_bytes, a budget in bytes, which needs
  // LevelAllocation::kLiveTree: IoStats::filter_budget_bytes beside
  // total.filter_bytes shows it kept) and level_allocation says how a
  // table's share of it is chosen. Existing
  // tables keep the filter they were written with; a table moved down a
  // level unchanged keeps its filter.
  FilterSpec filter;
  // How a level-aware `filter` (filter.monkey) gives a table written to
  // level L (a flush writes level 0, a compaction its output level) its
  // bits per key; none where that is 0.
  enum class LevelAllocation {
    // From the tree as it will be once the table is installed: the
    // allocation (bloomgate/allocation.h) over its level-0 tables and
    // deeper levels, each weighed by the share of the key space it covers,
    // corrected by what the other live filters hold beyond their share.
    // The live filters' memory then tracks filter.bits_per_key times the
    // live keys, whatever shape flushes and compactions give the tree.
    // Costs a few milliseconds per flush or compaction.
    kLiveTree,
    // filter.LevelBitsPerKey(num_levels)[L]: right for a tree of exactly
    // the shape it assumes (every level filter.fanout times the one above
    // and spanning the key range; set filter.fanout to
    // max_bytes_for_level_multiplier),
    // such as one loaded level by level with CompactLevel0To. Any other
    // shape spends more or less than the budget (a tree all in level 0 gets
    // level 0's share, several times the budget).
    kAssumedShape,
  };
  LevelAllocation level_allocation = LevelAllocation::kLiveTree;
  // Per-level filters instead of `filter`, when not empty: num_levels
  // entries, and a table written to level L gets level_filters[L]
  // (kNoFilter: none; `monkey` is ignored here).
  std::vector<FilterSpec> level_filters;

  // Before a Get probes any file, request the filter line of every file
  // whose key range covers the key, so that a lookup past N files waits for
  // memory about once instead of N times (filters far larger than the CPU
  // caches). Answers, the order of the probes and every statistic are the
  // same either way; off only to measure what it gains.
  bool prefetch_filters = true;

  // Memtable size (approximate bytes of keys and values) at which it is
  // flushed to a level-0 file.
  size_t write_buffer_size = 4 << 20;
  // Target size of a data block before its trailer.
  size_t block_size = 4096;
  // Compaction output files are cut at about this size.
  uint64_t target_file_size = 2 << 20;
  // Level 1 may hold this many bytes, level L+1 max_bytes_for_level_multiplier
  // times as many as level L.
  uint64_t max_bytes_for_level_base = 10 << 20;
  double max_bytes_for_level_multiplier = 10;
  // Levels 0 .. num_levels-1; at least 2.
  int num_levels = 7;
  // Level 0 is compacted into level 1 when it has this many files.
  int level0_file_num_compaction_trigger = 4;
  // No automatic compactions: flushes only add level-0 files, so a run can
  // have many files on the lookup path. Compact() still works.
  bool disable_auto_compactions = false;

  // fsync the WAL before a write returns: an acknowledged write then
  // survives a crash of the process or the machine. Without it a write
  // survives a crash of the process only.
  bool sync_writes = false;
  // Open SSTables with O_DIRECT (reads bypass the page cache). Where the
  // file system refuses O_DIRECT (e.g. tmpfs) tables are read buffered and
  // Store::direct_reads() says so.
  bool use_direct_reads = false;

  bool create_if_missing = true;
  bool error_if_exists = false;
  WalRecovery wal_recovery = WalRecovery::kTolerateIncompleteTail;
};

// Whether the store can build `spec`'s filters (StoreOptions::filter and
// level_filters): no filter, or bloomgate's own family, level-aware or not;
// not RocksDB's filters, nor mixed specs, whose levels may take RocksDB's
// Ribbon filter. Says nothing of whether the spec's values are valid
// (FilterSpec::Validate).
bool BuildsFilter(const FilterSpec& spec);

// What Store::Open found in the folder and did about it.
struct RecoveryReport {
  // WAL files replayed (oldest first), their complete records, and the
  // bytes at their ends dropped as incomplete records.
  uint64_t wal_files_replayed = 0;
  uint64_t wal_records_replayed = 0;
  uint64_t wal_tail_bytes_dropped = 0;
  // WALs whose tail was dropped, with the offset where the tail began, e.g.
  // "000012.log@4096".
  std::vector<std::string> wal_tails_dropped;
  // Files Open removed as obsolete: WALs whose writes are in a table the
  // new manifest lists, tables that no manifest lists and that the store
  // wrote (a flush or compaction that did not complete), MANIFEST.tmp.
  std::vector<std::string> removed_files;
  // Files that are not the store's (names it never writes) and were left
  // alone.
  std::vector<std::string> ignored_files;

  // One line, e.g. "replayed 2 WAL files (130 records), dropped 0 bytes;
  // removed 3 files; ignored 1 file (notes.txt)".
  std::string ToString() const;
};

// One live SSTable, as GetLiveFiles reports it.
struct FileInfo {
  int level = 0;
  uint64_t number = 0;
  std::string path;
  uint64_t file_bytes = 0;
  uint64_t num_entries = 0;
  std::string smallest_key;
  std::string largest_key;
  uint64_t filter_bytes = 0;  // 0: written without a filter
  // The FP rate the filter's own bits and probes predict (1 without a
  // filter or for a rejected one).
  double predicted_fp_rate = 1;
  // OK, or why the filter block was rejected and matches every key, naming
  // the file: DataLoss for damaged bytes, Unimplemented for a filter format
  // newer than this reader (bloomgate::FilterReader::status()).
  absl::Status filter_status;
};

class Store {
 public:
  // Opens (or creates) the store in `dir`: reads the manifest, opens every
  // live table (footer, index and filter, once), replays the WAL into a
  // level-0 file and removes the files it can prove obsolete (recovery()
  // lists them; docs/lsm-design.md, "Faults and recovery", gives the rule).
  // It never removes a file the store did not write, nor one a manifest
  // still lists.
  // Errors: InvalidArgument for bad options; NotFound if the folder has no
  // store and !create_if_missing; AlreadyExists if it has one and
  // error_if_exists; FailedPrecondition if another Store holds it; DataLoss,
  // naming the file and offset, for a damaged manifest, WAL record or table,
  // a WAL tail under WalRecovery::kAbsoluteConsistency, and a folder whose
  // files the manifest cannot account for (table or WAL files but no
  // MANIFEST; tables numbered past the manifest's next file number). An
  // Open that fails removes no file that was in the folder before it.
  static absl::StatusOr<std::unique_ptr<Store>> Open(std::string dir,
                                                     StoreOptions options);

  // Closes the store if Close was not called (errors are dropped).
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  absl::Status Put(std::string_view key, std::string_view value);
  absl::Status Delete(std::string_view key);
  // Applies the batch atomically. After an I/O error while writing, the
  // store refuses further writes (the error is returned again).
  absl::Status Write(const WriteBatch& batch);

  // The value of `key`, or std::nullopt if the key has no value (never
  // written, or deleted). DataLoss, naming the file and offset, if a data
  // block needed to answer is damaged: never a wrong value.
  absl::StatusOr<std::optional<std::string>> Get(std::string_view key);
  // What Get would answer for each key, in order: results[i] is
  // Get(keys[i]), and the statistics count exactly what that many Gets
  // would. The lookups share one pass over the files: each file's filter is
  // asked about all the keys that reach it at once (FilterReader's batched
  // query, which overlaps their cache misses), then the files are read for
  // the keys it may hold. Duplicate keys are answered once each. After
  // Close every result is FailedPrecondition.
  std::vector<absl::StatusOr<std::optional<std::string>>> MultiGet(
      absl::Span<const std::string_view> keys);

  // Writes the memtable to a level-0 file (no-op if it is empty), then runs
  // due compactions unless they are disabled.
  absl::Status Flush();
  // Flushes, then merges every file into one sorted run at the deepest level
  // that holds data (at least level 1), dropping overwritten values and
  // tombstones.
  absl::Status Compact();
  // Flushes, then merges every level-0 file (and any file already at
  // `level`) into `level`, as one compaction writing tables with `level`'s
  // filter. Lets a caller build a tree of a chosen shape, e.g. the leveled
  // shape that level-aware filters assume, by loading it level by level,
  // deepest first (bloomgate_bench's filllevels). InvalidArgument unless
  // 1 <= level < num_levels; FailedPrecondition if a level between 0 and
  // `level` holds files (their entries would end up above newer ones).
  absl::Status CompactLevel0To(int level);
  // Flushes nothing (the WAL holds the memtable), syncs the WAL, releases
  // the folder. Further calls fail with FailedPrecondition.
  absl::Status Close();

  // Counters since Open or the last ResetStats, and the current shape.
  IoStats GetStats() const;
  void ResetStats();
  std::vector<FileInfo> GetLiveFiles() const;
  // Bytes of filter blocks held in memory by the live tables.
  uint64_t FilterMemoryBytes() const;
  // Whether tables are read with O_DIRECT.
  bool direct_reads() const;
  // What Open recovered, removed and left alone.
  const RecoveryReport& recovery() const;
  const StoreOptions& options() const;
  const std::string& dir() const;

 private:
  class Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_LSM_STORE_H_
