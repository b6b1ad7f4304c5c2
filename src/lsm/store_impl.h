// Copyright 2026 The bloomgate Authors.
//
// Store::Impl, the store behind the public Store, shared by the two files
// that implement it: store.cc (the read path, the write path, flushes,
// compactions, statistics) and recovery.cc (Open's steps).

#ifndef BLOOMGATE_SRC_LSM_STORE_IMPL_H_
#define BLOOMGATE_SRC_LSM_STORE_IMPL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_memory_pool.h"
#include "bloomgate/lsm/stats.h"
#include "bloomgate/lsm/store.h"
#include "bloomgate/lsm/write_batch.h"
#include "src/lsm/file.h"
#include "src/lsm/manifest.h"
#include "src/lsm/memtable.h"
#include "src/lsm/mutex.h"
#include "src/lsm/pool_member.h"
#include "src/lsm/stats_recorder.h"
#include "src/lsm/table.h"
#include "src/lsm/table_builder.h"
#include "src/lsm/version.h"
#include "src/lsm/wal.h"
#include "src/spec/live_tree_allocation.h"
#include "src/spec/lookup_sampler.h"

namespace bloomgate::lsm {

// Everything a Get needs, swapped as a whole when a flush or compaction
// changes it: one reference count per Get.
struct ReadView {
  std::shared_ptr<MemTable> mem;
  std::shared_ptr<const MemTable> imm;  // being flushed, or null
  std::shared_ptr<const Version> version;
};

// The files of a store's folder, as Open finds them (recovery.cc).
struct FolderContents;

// OK if `batch` is well encoded (DataLoss otherwise); applies nothing.
absl::Status CheckBatch(const WriteBatch& batch);

// The store. Readers take a ReadView under mu_; writers, flushes,
// compactions and Open hold write_mu_.
class Store::Impl {
 public:
  Impl(std::string dir, StoreOptions options)
      : dir_(std::move(dir)),
        options_(std::move(options)),
        stats_(options_.num_levels),
        compact_pointers_(options_.num_levels) {}

  ~Impl() {
    if (!closed_.load()) (void)Close();
  }

  absl::Status Open();
  absl::Status Write(const WriteBatch& batch);
  absl::StatusOr<std::optional<std::string>> Get(std::string_view key);
  std::vector<absl::StatusOr<std::optional<std::string>>> MultiGet(
      absl::Span<const std::string_view> keys);
  absl::Status Flush();
  absl::Status Compact();
  absl::Status CompactLevel0To(int level);
  absl::Status Close();
  IoStats GetStats() const;
  void ResetStats() { stats_.Reset(); }
  std::vector<FileInfo> GetLiveFiles() const;
  uint64_t FilterMemoryBytes() const;
  bool direct_reads() const { return direct_reads_.load(); }
  const RecoveryReport& recovery() const { return recovery_; }
  const StoreOptions& options() const { return options_; }
  const std::string& dir() const { return dir_; }

 private:
  std::shared_ptr<const ReadView> View() const {
    ReaderMutexLock l(&mu_);
    return view_;
  }
  void Publish(std::shared_ptr<MemTable> mem,
               std::shared_ptr<const MemTable> imm,
               std::shared_ptr<const Version> version) {
    if (pool_member_ != nullptr) pool_member_->Set(version);
    auto v = std::make_shared<ReadView>();
    v->mem = std::move(mem);
    v->imm = std::move(imm);
    v->version = std::move(version);
    MutexLock l(&mu_);
    view_ = std::move(v);
  }

  // Open's steps, in the order it runs them (recovery.cc).
  // The folder locked and listed; a missing one is created (and locked)
  // once CheckFolder allows a new store.
  absl::StatusOr<FolderContents> LockFolder()
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status AcquireLock() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Whether Open may go on: a store exists (and error_if_exists is off), or
  // there is none and no table or WAL says there was, and
  // create_if_missing is on. `existed`: the folder did.
  absl::Status CheckFolder(const FolderContents& folder, bool existed) const;
  // Reads the MANIFEST into manifest_ (none for a new store).
  absl::Status ReadManifest(const FolderContents& folder)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Opens every table manifest_ lists, checked against it; refuses a
  // folder with tables the manifest cannot account for.
  absl::StatusOr<std::shared_ptr<Version>> OpenLiveTables(
      const FolderContents& folder) ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Replays the WALs not yet in a table into `mem`, oldest first.
  absl::Status ReplayLogs(const FolderContents& folder, MemTable* mem)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Writes the replayed `mem` (if any) to a level-0 table of `version`.
  absl::Status WriteRecoveredTable(const MemTable& mem, Version* version)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Writes the manifest listing `version` and naming WAL `log_number`,
  // then creates that WAL and publishes `version`.
  absl::Status StartLog(uint64_t log_number,
                        std::shared_ptr<const Version> version)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Removes what the manifest just written makes obsolete: replayed WALs,
  // a MANIFEST.tmp, unlisted tables the store wrote. Reports the rest.
  void RemoveObsoleteFiles(const FolderContents& folder,
                           uint64_t manifest_next_file_number,
                           const Version& live)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);

  // A number for a new file, below the next_file_number of the manifest on
  // disk (which is written again first when the reserve is used up).
  absl::StatusOr<uint64_t> NewFileNumber()
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Writes `m` as the manifest, reserving numbers past next_file_number_.
  absl::Status SaveManifest(Manifest m)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Writes the manifest that lists `v`'s files and names the current WAL.
  absl::Status SaveVersion(const Version& v)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // A lookup's first step: the memtable, then the one being flushed. The
  // answer (a value, or none for a deletion) if either holds the key,
  // counted as a memtable hit; std::nullopt if the files must be searched.
  std::optional<std::optional<std::string>> FromMemtables(const ReadView& view,
                                                          std::string_view key,
                                                          std::string* value);
  absl::StatusOr<TablePtr> OpenTable(uint64_t number);
  // How `output` is built when it replaces `inputs` in `base` (the
  // allocation from the live tree needs both).
  TableBuildOptions BuildOptionsFor(const PendingOutput& output,
                                    const Version& base,
                                    const std::vector<TablePtr>& inputs) const;
  // Writes `mem`, which must not be empty, to a new level-0 table over
  // `base`.
  absl::StatusOr<TablePtr> WriteLevel0Table(const MemTable& mem,
                                            const Version& base)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status FlushLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status MaybeCompactLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status RunCompaction(const CompactionSpec& spec)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // The steps of RunCompaction, as LevelDB's DoCompactionWork takes them: a
  // file moved down a level without a rewrite; otherwise the outputs'
  // plan, the merge into output files cut at target_file_size (each opened
  // and finished in turn), then the new version installed and the inputs
  // removed, or on failure the outputs removed.
  struct CompactionState;
  absl::Status MoveTable(const CompactionSpec& spec)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  PendingOutput PlanOutputs(const CompactionSpec& spec,
                            const std::vector<TablePtr>& inputs) const;
  absl::Status WriteCompactionOutputs(const CompactionSpec& spec,
                                      CompactionState* c)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status OpenCompactionOutputFile(CompactionState* c)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status FinishCompactionOutputFile(CompactionState* c)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  void RemoveCompactionOutputs(CompactionState* c)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status InstallCompactionResults(const Version& base,
                                        const std::vector<TablePtr>& inputs,
                                        int output_level,
                                        const CompactionState& c)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status InstallVersion(std::shared_ptr<const Version> v)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status CheckWritable() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  // Remembers the first write-path error: the store then refuses writes.
  absl::Status Fail(absl::Status s) ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_) {
    if (bg_error_.ok()) bg_error_ = s;
    return s;
  }

  const std::string dir_;
  const StoreOptions options_;
  StatsRecorder stats_;
  std::atomic<bool> closed_{false};
  std::atomic<bool> direct_reads_{false};

  // Guards the pointer view_ (not what it points to).
  mutable Mutex mu_;
  std::shared_ptr<const ReadView> view_ ABSL_GUARDED_BY(mu_);

  // Serialises writers, flushes and compactions.
  Mutex write_mu_;
  std::unique_ptr<FileLock> lock_ ABSL_GUARDED_BY(write_mu_);
  std::unique_ptr<LogWriter> log_ ABSL_GUARDED_BY(write_mu_);
  uint64_t log_number_ ABSL_GUARDED_BY(write_mu_) = 0;
  uint64_t next_file_number_ ABSL_GUARDED_BY(write_mu_) = 1;
  // The manifest as last written (or read by Open).
  Manifest manifest_ ABSL_GUARDED_BY(write_mu_);
  // Set by Open, constant after.
  RecoveryReport recovery_;
  // The filter of a table written to each level (LevelFilterOptions).
  std::vector<std::optional<FilterOptions>> level_filters_;
  // Whether every table's filter comes from the live tree
  // (ChooseLiveTreeFilter) instead.
  bool live_tree_allocation_ = false;
  // With options_.filter.pool (set by Open, constant after): the pool, the
  // sampler of this store's absent lookups (null when reach is not
  // measured) and the store's membership.
  std::shared_ptr<FilterMemoryPool> pool_;
  std::shared_ptr<LookupSampler> sampler_;
  std::shared_ptr<StorePoolMember> pool_member_;
  // The entries of the last level-0 table written: what the next flushes
  // are likely to hold (PendingOutput::flush_keys).
  std::atomic<uint64_t> last_flush_keys_{0};
  absl::Status bg_error_ ABSL_GUARDED_BY(write_mu_);
  std::vector<std::string> compact_pointers_ ABSL_GUARDED_BY(write_mu_);
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_STORE_IMPL_H_
