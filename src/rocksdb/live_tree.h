// Copyright 2026 The bloomgate Authors.
//
// What a level-aware bloomgate policy knows of the live tree of a RocksDB
// database (CreateRocksDBLiveTreeFilter): the live SST files of each column
// family, their levels, key counts and ranges, and the size of the filter
// each was written with, refreshed by an EventListener after every flush
// and compaction. RocksDB gives a filter policy only the level of the file
// it is about to write (FilterBuildingContext); the rest comes from here.
//
// Not a public header.

#ifndef BLOOMGATE_SRC_ROCKSDB_LIVE_TREE_H_
#define BLOOMGATE_SRC_ROCKSDB_LIVE_TREE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "src/spec/live_tree_allocation.h"
#include "src/spec/lookup_sampler.h"
#include "src/spec/pool_members.h"

namespace bloomgate::rocksdb_internal {

// One live SST file, owning its keys (LiveFile views them).
struct LiveSstFile {
  int level = 0;
  uint64_t number = 0;
  uint64_t keys = 0;
  std::string smallest;
  std::string largest;
  // Learnt from the flush or compaction that wrote it; nullopt for files
  // written before the listener was added.
  std::optional<uint64_t> filter_bytes = std::nullopt;
};

// What LiveTreeBitsPerKey is asked for one SST file: the live files the
// output joins and the output, with the snapshot their views point into.
struct LiveTreeQuery {
  std::shared_ptr<const std::vector<LiveSstFile>> snapshot;
  std::vector<LiveFile> files;
  PendingOutput output;
};

// The live files of every column family of one database, and the
// compactions running in it. Thread-safe. Made by std::make_shared (its
// pool members refer back to it weakly).
class LiveTree : public std::enable_shared_from_this<LiveTree> {
 public:
  // The query for a file of `keys` keys in [first, last] finished at
  // `level` of column family `cf`. If a compaction into `level` is running,
  // the output is all of it: its inputs leave the files, and their keys and
  // key range are the output's (in files the size of this one, or, for
  // `keys` 0, in as many files as it has inputs). Otherwise the output is
  // the file alone. Before the first refresh the tree is empty. The
  // output's level-0 files to come are the column family's last flush's
  // keys (this file's, for a flush) times the level-0 compaction trigger.
  // (RocksDB tells a listener no column family's options but the
  // default's, so every column family is taken to have its trigger.)
  LiveTreeQuery QueryFor(const std::string& cf, int level, uint64_t keys,
                         std::string_view first, std::string_view last) const;

  // Records the filter size of a file just written.
  void RecordFilter(uint64_t file_number, uint64_t filter_bytes);
  // Records the keys of a flush of `cf` just written, and returns the last
  // one's (0 before the first): what the next flush is likely to hold.
  void RecordFlush(const std::string& cf, uint64_t keys);
  uint64_t LastFlushKeys(const std::string& cf) const;
  // Reads the live files of `db` (DB::GetLiveFilesMetaData), forgetting
  // the filter sizes of files no longer live.
  void Refresh(rocksdb::DB& db);
  // A compaction of `inputs` (file numbers) of `cf` into `output_level`
  // began, or ended.
  void BeginCompaction(int job_id, const std::string& cf, int output_level,
                       std::vector<uint64_t> inputs);
  void EndCompaction(int job_id);

  // Column family `cf` of this database in `pool`, its lookups measured by
  // `sampler` (null: not measured): the member that joined, the same one
  // at every call for `cf`. The member leaves the pool with this tree.
  std::shared_ptr<const PoolMember> JoinPool(
      const std::string& cf, FilterMemoryPool& pool,
      std::shared_ptr<const LookupSampler> sampler) const;

  // The live files of `cf` as the allocation sees them.
  PoolMember::Files FilesOf(const std::string& cf) const;

 private:
  struct Compaction {
    std::string cf;
    int output_level;
    std::vector<uint64_t> inputs;
  };

  mutable absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<const std::vector<LiveSstFile>>> by_cf_
      ABSL_GUARDED_BY(mu_);
  std::unordered_map<uint64_t, uint64_t> filter_bytes_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, uint64_t> flush_keys_ ABSL_GUARDED_BY(mu_);
  // The default column family's level0_file_num_compaction_trigger, read
  // at every refresh (RocksDB gives a listener no column family's options
  // but through DB::GetOptions).
  int level0_trigger_ ABSL_GUARDED_BY(mu_) = 0;
  std::map<int, Compaction> running_ ABSL_GUARDED_BY(mu_);  // by job id
  // The column families that joined a pool, and their members.
  mutable std::map<std::string, std::shared_ptr<const PoolMember>> members_
      ABSL_GUARDED_BY(mu_);
};

// Where a level-aware policy created by name finds the live tree of the
// database it writes a file of: RocksDB gives a policy no handle on its
// database, only the database's info LOG (FilterBuildingContext::info_log),
// so each LiveTreeListener files its tree under its database's info LOG at
// its first callback, which comes before any filter of a flush or
// compaction it follows is built. Thread-safe.
class LiveTreeRegistry {
 public:
  // Files `tree` under `log`. A second live tree under the same LOG (two
  // open databases sharing one Logger) makes the LOG ambiguous: Find then
  // returns null for it until the tree filed first is gone.
  static void Register(const rocksdb::Logger* log,
                       const std::shared_ptr<const LiveTree>& tree);
  // The tree filed under `log`, or null (none, gone, or ambiguous).
  static std::shared_ptr<const LiveTree> Find(const rocksdb::Logger* log);
};

// Keeps `tree` up to date: as every flush and compaction of the database it
// is added to (DBOptions::listeners) begins, it reads the live files (and a
// compaction's inputs' filter sizes), and as each ends, it records the new
// files' filter sizes and reads the live files again. Reading at the
// beginning matters: RocksDB may start a compaction of a flushed file before
// it tells listeners that the flush completed, and an output sized from the
// tree as it was before that flush would get other bits in another run, or
// on another host, than the same tree gives it. At its first callback it
// files the tree in LiveTreeRegistry. RocksDB
// does not tell listeners of DB::CompactFiles; a caller that compacts that
// way and wants the tree followed calls OnCompactionBegin and
// OnCompactionCompleted itself. Named kRocksDBListenerName, so RocksDB
// writes it to the OPTIONS file and re-creates it from there.
class LiveTreeListener final : public rocksdb::EventListener {
 public:
  explicit LiveTreeListener(std::shared_ptr<LiveTree> tree)
      : tree_(std::move(tree)) {}

  const char* Name() const override { return kRocksDBListenerName; }
  void OnFlushBegin(rocksdb::DB* db,
                    const rocksdb::FlushJobInfo& info) override;
  void OnFlushCompleted(rocksdb::DB* db,
                        const rocksdb::FlushJobInfo& info) override;
  void OnCompactionBegin(rocksdb::DB* db,
                         const rocksdb::CompactionJobInfo& info) override;
  void OnCompactionCompleted(rocksdb::DB* db,
                             const rocksdb::CompactionJobInfo& info) override;

 private:
  // LiveTreeRegistry::Register, once.
  void RegisterOnce(rocksdb::DB& db);

  const std::shared_ptr<LiveTree> tree_;
  std::once_flag registered_;
};

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_LIVE_TREE_H_
