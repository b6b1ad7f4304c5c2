// Copyright 2026 The bloomgate Authors.
//
// Store::Impl: the read path, the write path, flushes, compactions and
// recovery. docs/lsm-design.md walks through it.

#include "bloomgate/lsm/store.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bloomgate/hash.h"
#include "lsm/coding.h"
#include "lsm/compaction.h"
#include "lsm/crash_points.h"
#include "lsm/file.h"
#include "lsm/manifest.h"
#include "lsm/memtable.h"
#include "lsm/mutex.h"
#include "lsm/stats_recorder.h"
#include "lsm/status_macros.h"
#include "lsm/table.h"
#include "lsm/table_builder.h"
#include "lsm/version.h"
#include "lsm/wal.h"

namespace bloomgate::lsm {
namespace {

// Everything a Get needs, swapped as a whole when a flush or compaction
// changes it: one reference count per Get.
struct ReadView {
  std::shared_ptr<MemTable> mem;
  std::shared_ptr<const MemTable> imm;  // being flushed, or null
  std::shared_ptr<const Version> version;
};

absl::Status ValidateOptions(const StoreOptions& o) {
  if (o.num_levels < 2 || o.num_levels > kMaxLevels) {
    return absl::InvalidArgumentError(absl::StrCat(
        "num_levels must be in [2, ", kMaxLevels, "], got ", o.num_levels));
  }
  if (o.write_buffer_size == 0 || o.block_size == 0 ||
      o.target_file_size == 0 || o.max_bytes_for_level_base == 0) {
    return absl::InvalidArgumentError(
        "write_buffer_size, block_size, target_file_size and "
        "max_bytes_for_level_base must be positive");
  }
  if (!(o.level_multiplier >= 1.0) || std::isinf(o.level_multiplier)) {
    return absl::InvalidArgumentError("level_multiplier must be >= 1");
  }
  if (o.level0_file_num_compaction_trigger < 1) {
    return absl::InvalidArgumentError(
        "level0_file_num_compaction_trigger must be >= 1");
  }
  if (o.filter.has_value()) {
    BLOOMGATE_LSM_RETURN_IF_ERROR(ValidateFilterOptions(*o.filter));
  }
  if (!o.level_filters.empty()) {
    if (static_cast<int>(o.level_filters.size()) != o.num_levels) {
      return absl::InvalidArgumentError(
          absl::StrCat("level_filters has ", o.level_filters.size(),
                       " entries; it must be empty or have num_levels (",
                       o.num_levels, ")"));
    }
    for (size_t l = 0; l < o.level_filters.size(); ++l) {
      if (!o.level_filters[l].has_value()) continue;
      if (absl::Status s = ValidateFilterOptions(*o.level_filters[l]);
          !s.ok()) {
        return absl::InvalidArgumentError(
            absl::StrCat("level_filters[", l, "]: ", s.message()));
      }
    }
  }
  return absl::OkStatus();
}

// Checks a batch's encoding without applying it.
class NullHandler final : public WriteBatch::Handler {
 public:
  void Put(std::string_view, std::string_view) override {}
  void Delete(std::string_view) override {}
};

class ReplayHandler final : public WriteBatch::Handler {
 public:
  explicit ReplayHandler(MemTable* mem) : mem_(mem) {}
  void Put(std::string_view key, std::string_view value) override {
    mem_->Add(key, ValueType::kValue, value);
  }
  void Delete(std::string_view key) override {
    mem_->Add(key, ValueType::kDeletion, {});
  }

 private:
  MemTable* mem_;
};

// Numbers a manifest write reserves beyond the next file number. Every file
// the store creates is numbered below the next_file_number of a manifest
// already on disk, so Open can tell the store's own leftovers (below it)
// from files it never created (at or above it). A flush takes two numbers
// and a compaction one per output; one that runs past the reserve writes
// the manifest again first.
constexpr uint64_t kFileNumberReserve = 64;

// The files of a store's folder, as Open finds them.
struct FolderContents {
  struct File {
    uint64_t number;
    std::string name;
  };
  std::vector<File> tables;  // by the names TableFileName writes
  std::vector<File> logs;    // by the names LogFileName writes, oldest first
  bool manifest = false;
  bool manifest_tmp = false;
  // Anything else but LOCK: never read, never removed.
  std::vector<std::string> others;
  uint64_t max_number = 0;
};

FolderContents Classify(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  FolderContents c;
  for (std::string& name : names) {
    uint64_t number;
    bool is_table;
    if (ParseFileName(name, &number, &is_table)) {
      (is_table ? c.tables : c.logs).push_back({number, std::move(name)});
      c.max_number = std::max(c.max_number, number);
    } else if (name == kManifestName) {
      c.manifest = true;
    } else if (name == kManifestTmpName) {
      c.manifest_tmp = true;
    } else if (name != "LOCK") {
      c.others.push_back(std::move(name));
    }
  }
  auto by_number = [](const FolderContents::File& a,
                      const FolderContents::File& b) {
    return a.number < b.number;
  };
  std::sort(c.tables.begin(), c.tables.end(), by_number);
  std::sort(c.logs.begin(), c.logs.end(), by_number);
  return c;
}

// "3 table files (000004.sst, 000007.sst, 000009.sst)", at most four names.
std::string Describe(const std::vector<FolderContents::File>& files,
                     std::string_view kind) {
  std::string out = absl::StrCat(files.size(), " ", Sv(kind),
                                 files.size() == 1 ? " file (" : " files (");
  for (size_t i = 0; i < files.size() && i < 4; ++i) {
    absl::StrAppend(&out, i > 0 ? ", " : "", files[i].name);
  }
  absl::StrAppend(&out, files.size() > 4 ? ", ...)" : ")");
  return out;
}

// The rest of a table probe once the key is known to be in the table's
// range: the filter's answer (`may_match`, asked by the caller, alone or
// in a batch), then the one data-block read. True when the search is over
// (found, deleted or an error).
bool FinishProbe(const Table& t, std::string_view key, bool may_match,
                 GetTally* tally, Table::Lookup* result, std::string* value,
                 absl::Status* error) {
  if (t.has_filter()) {
    ++tally->filter_checks;
    if (!may_match) {
      ++tally->filter_negatives;
      tally->predicted_false_positives += t.predicted_fp_rate();
      return false;
    }
    ++tally->filter_positives;
  }
  ReadCost cost;
  *error = t.Find(key, result, value, &cost);
  tally->data_block_reads += cost.syscalls;
  tally->data_block_bytes += cost.bytes;
  tally->data_block_read_nanos += cost.nanos;
  if (!error->ok()) return true;
  if (*result == Table::Lookup::kNotFound) {
    if (t.has_filter()) {
      ++tally->false_positives;
      tally->predicted_false_positives += t.predicted_fp_rate();
    }
    return false;
  }
  return true;
}

// One key of a MultiGet while the files are searched.
struct PendingLookup {
  size_t index = 0;  // into the keys and the results
  std::string_view key;
  uint64_t hash = 0;
  bool done = false;
  int touched = 0;  // levels reached, as Get counts them
  Table::Lookup result = Table::Lookup::kNotFound;
  std::string value;
  absl::Status error;
  GetTally tallies[kMaxLevels];
};

// Searches `t` (at `level`) for each of `lookups`, in order: key range,
// then one batched filter query for the keys in range, then their reads.
void SearchTable(const Table& t, int level,
                 const std::vector<PendingLookup*>& lookups,
                 std::vector<PendingLookup*>* in_range,
                 std::vector<uint64_t>* hashes,
                 std::unique_ptr<bool[]>* may_match, size_t* may_match_size) {
  in_range->clear();
  hashes->clear();
  for (PendingLookup* p : lookups) {
    GetTally& tally = p->tallies[level];
    ++tally.files_considered;
    if (!t.InRange(p->key)) {
      ++tally.skipped_by_range;
      continue;
    }
    in_range->push_back(p);
    hashes->push_back(p->hash);
  }
  if (in_range->empty()) return;
  if (*may_match_size < in_range->size()) {
    *may_match_size = in_range->size();
    *may_match = std::make_unique<bool[]>(*may_match_size);
  }
  bool* may = may_match->get();
  if (t.has_filter()) {
    t.filter().HashMayMatchBatch(*hashes,
                                 absl::Span<bool>(may, in_range->size()));
  } else {
    std::fill(may, may + in_range->size(), true);
  }
  for (size_t i = 0; i < in_range->size(); ++i) {
    PendingLookup* p = (*in_range)[i];
    p->done = FinishProbe(t, p->key, may[i], &p->tallies[level], &p->result,
                          &p->value, &p->error);
  }
}

}  // namespace

std::string RecoveryReport::ToString() const {
  std::string out = absl::StrCat("replayed ", wal_files_replayed, " WAL file",
                                 wal_files_replayed == 1 ? "" : "s", " (",
                                 wal_records_replayed, " records), dropped ",
                                 wal_tail_bytes_dropped, " bytes");
  if (!wal_tails_dropped.empty()) {
    absl::StrAppend(&out, " (", absl::StrJoin(wal_tails_dropped, ", "), ")");
  }
  absl::StrAppend(&out, "; removed ", removed_files.size(), " file",
                  removed_files.size() == 1 ? "" : "s", "; ignored ",
                  ignored_files.size(), " file",
                  ignored_files.size() == 1 ? "" : "s");
  if (!ignored_files.empty()) {
    absl::StrAppend(&out, " (", absl::StrJoin(ignored_files, ", "), ")");
  }
  return out;
}

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
  bool direct_io() const { return direct_io_.load(); }
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
    auto v = std::make_shared<ReadView>();
    v->mem = std::move(mem);
    v->imm = std::move(imm);
    v->version = std::move(version);
    MutexLock l(&mu_);
    view_ = std::move(v);
  }

  // Recovery, in the order Open runs it.
  absl::StatusOr<FolderContents> LoadManifest()
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::StatusOr<std::shared_ptr<Version>> OpenLiveTables(
      const FolderContents& folder) ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status ReplayLogs(const FolderContents& folder, MemTable* mem)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
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
  // A lookup's first step: the memtable, then the one being flushed. The
  // answer (a value, or none for a deletion) if either holds the key,
  // counted as a memtable hit; std::nullopt if the files must be searched.
  std::optional<std::optional<std::string>> FromMemtables(const ReadView& view,
                                                          std::string_view key,
                                                          std::string* value);
  absl::StatusOr<TablePtr> OpenTable(uint64_t number);
  // How a table written to `level` is built.
  TableBuildOptions BuildOptionsFor(int level) const {
    TableBuildOptions t;
    t.block_size = options_.block_size;
    t.filter = options_.level_filters.empty() ? options_.filter
                                              : options_.level_filters[level];
    return t;
  }
  // Writes `mem` to a new table; null if it is empty.
  absl::StatusOr<TablePtr> WriteLevel0Table(const MemTable& mem)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status FlushLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status MaybeCompactLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(write_mu_);
  absl::Status RunCompaction(const CompactionSpec& spec)
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
  std::atomic<bool> direct_io_{false};

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
  absl::Status bg_error_ ABSL_GUARDED_BY(write_mu_);
  std::vector<std::string> compact_pointers_ ABSL_GUARDED_BY(write_mu_);
};

absl::StatusOr<TablePtr> Store::Impl::OpenTable(uint64_t number) {
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file =
      OpenRandomAccessFile(TableFileName(dir_, number), options_.use_direct_io);
  if (!file.ok()) return file.status();
  direct_io_.store((*file)->direct_io());
  ReadCost cost;
  absl::StatusOr<TablePtr> table = Table::Open(std::move(*file), number, &cost);
  stats_.RecordTableOpen(cost);
  return table;
}

absl::Status Store::Impl::Open() {
  BLOOMGATE_LSM_RETURN_IF_ERROR(ValidateOptions(options_));
  if (!FileExists(dir_) && !options_.create_if_missing) {
    return absl::NotFoundError(
        absl::StrCat(dir_, ": no such folder (create_if_missing is off)"));
  }
  BLOOMGATE_LSM_RETURN_IF_ERROR(CreateDirIfMissing(dir_));
  MutexLock w(&write_mu_);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      lock_, FileLock::Acquire(absl::StrCat(dir_, "/LOCK")));

  BLOOMGATE_LSM_ASSIGN_OR_RETURN(const FolderContents folder, LoadManifest());
  const uint64_t manifest_next_file_number = manifest_.next_file_number;
  next_file_number_ =
      std::max(manifest_next_file_number, folder.max_number + 1);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(std::shared_ptr<Version> version,
                                 OpenLiveTables(folder));
  auto mem = std::make_shared<MemTable>();
  BLOOMGATE_LSM_RETURN_IF_ERROR(ReplayLogs(folder, mem.get()));

  // The replayed writes go to a level-0 table, then a manifest lists it and
  // names a new WAL, which is created only after that: a crash anywhere in
  // between leaves the old WALs to be replayed again.
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(const uint64_t new_log_number,
                                 NewFileNumber());
  if (!mem->empty()) {
    BLOOMGATE_LSM_ASSIGN_OR_RETURN(TablePtr t, WriteLevel0Table(*mem));
    version->levels[0].push_back(t);
    stats_.RecordFlush(t->file_size());
  }
  std::sort(version->levels[0].begin(), version->levels[0].end(),
            [](const TablePtr& a, const TablePtr& b) {
              return a->number() > b->number();
            });
  log_number_ = new_log_number;
  Manifest m;
  m.log_number = log_number_;
  m.files = version->Files();
  CrashPoint("open:before-manifest");
  BLOOMGATE_LSM_RETURN_IF_ERROR(SaveManifest(std::move(m)));
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      std::unique_ptr<WritableFile> log_file,
      WritableFile::Create(LogFileName(dir_, log_number_)));
  log_ = std::make_unique<LogWriter>(std::move(log_file));
  Publish(std::make_shared<MemTable>(), nullptr, version);
  CrashPoint("open:before-cleanup");

  // Only now, with the new manifest durable, may old files go.
  RemoveObsoleteFiles(folder, manifest_next_file_number, *version);
  for (const std::string& name : folder.others) {
    recovery_.ignored_files.push_back(name);
  }
  return MaybeCompactLocked();
}

absl::StatusOr<FolderContents> Store::Impl::LoadManifest() {
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(std::vector<std::string> names, ListDir(dir_));
  FolderContents folder = Classify(std::move(names));
  const std::string manifest_path = absl::StrCat(dir_, "/", kManifestName);
  if (!folder.manifest) {
    // A store's folder always has a MANIFEST once it holds a table or a WAL
    // (a new store writes one first). Without it nothing says which of these
    // files hold live data: opening would lose them all.
    if (!folder.tables.empty() || !folder.logs.empty()) {
      std::string found = Describe(folder.tables, "table");
      absl::StrAppend(&found, " and ", Describe(folder.logs, "WAL"));
      return absl::DataLossError(absl::StrCat(
          dir_, ": no MANIFEST, but the folder holds ", found,
          ". Nothing was changed. Restore the MANIFEST, or move these files "
          "out of the folder to create a new store in it."));
    }
    if (!options_.create_if_missing) {
      std::string found =
          folder.others.empty()
              ? "it is empty"
              : absl::StrCat("it holds ", folder.others.size(), " other files");
      return absl::NotFoundError(
          absl::StrCat(dir_, ": no store here (no MANIFEST; ", found,
                       ") and create_if_missing is off"));
    }
    return folder;  // a new store
  }
  if (options_.error_if_exists) {
    return absl::AlreadyExistsError(
        absl::StrCat(dir_, ": a store exists (error_if_exists is on)"));
  }
  std::string contents;
  ReadCost cost;
  absl::Status s = ReadFileToString(manifest_path, &contents, &cost);
  stats_.RecordRecovery(cost);
  BLOOMGATE_LSM_RETURN_IF_ERROR(s);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(manifest_,
                                 DecodeManifest(manifest_path, contents));
  return folder;
}

absl::StatusOr<std::shared_ptr<Version>> Store::Impl::OpenLiveTables(
    const FolderContents& folder) {
  const std::string manifest_path = absl::StrCat(dir_, "/", kManifestName);
  std::set<uint64_t> listed;
  for (const FileMeta& f : manifest_.files) listed.insert(f.number);
  // The store numbers every file below the next_file_number of a manifest
  // already written, so an unlisted table at or above it was not written
  // under this manifest: most likely the manifest is older than the tables
  // (restored from a copy). Its data may be the newest there is.
  std::vector<FolderContents::File> unknown;
  for (const FolderContents::File& t : folder.tables) {
    if (t.number >= manifest_.next_file_number && !listed.count(t.number)) {
      unknown.push_back(t);
    }
  }
  if (!unknown.empty()) {
    return absl::DataLossError(absl::StrCat(
        manifest_path, ": does not list ", Describe(unknown, "table"),
        " numbered at or above its next file number ",
        manifest_.next_file_number,
        ", so they were not written under it (is the MANIFEST older than the "
        "tables?). Nothing was changed. Restore the MANIFEST that lists "
        "them, or move them out of the folder."));
  }

  auto version = std::make_shared<Version>();
  version->levels.resize(options_.num_levels);
  for (const FileMeta& f : manifest_.files) {
    if (f.level >= options_.num_levels) {
      return absl::InvalidArgumentError(
          absl::StrCat(dir_, ": the store has files at level ", f.level,
                       " but num_levels is ", options_.num_levels));
    }
    absl::StatusOr<TablePtr> table = OpenTable(f.number);
    if (!table.ok()) {
      if (absl::IsNotFound(table.status())) {
        return absl::DataLossError(absl::StrCat(
            manifest_path,
            ": lists a missing table: ", table.status().message()));
      }
      return table.status();
    }
    const TablePtr& t = *table;
    if (t->file_size() != f.file_size || t->smallest() != f.smallest ||
        t->largest() != f.largest ||
        t->properties().num_entries != f.num_entries) {
      return absl::DataLossError(absl::StrCat(
          t->name(), ": size, key range or entry count disagrees with ",
          manifest_path));
    }
    version->levels[f.level].push_back(t);
  }
  return version;
}

absl::Status Store::Impl::ReplayLogs(const FolderContents& folder,
                                     MemTable* mem) {
  // WAL files numbered from the manifest's log number on hold writes not
  // yet in a table, oldest first.
  for (const FolderContents::File& log : folder.logs) {
    if (log.number < manifest_.log_number) continue;
    const std::string path = absl::StrCat(dir_, "/", log.name);
    std::string contents;
    ReadCost cost;
    absl::Status s = ReadFileToString(path, &contents, &cost);
    stats_.RecordRecovery(cost);
    BLOOMGATE_LSM_RETURN_IF_ERROR(s);
    LogParseResult result;
    WriteBatch batch;
    ReplayHandler replay(mem);
    BLOOMGATE_LSM_RETURN_IF_ERROR(ParseLog(
        path, contents,
        [&](std::string_view payload, uint64_t offset) -> absl::Status {
          batch.SetContents(payload);
          NullHandler check;
          if (absl::Status st = batch.Iterate(check); !st.ok()) {
            return absl::DataLossError(absl::StrCat(
                path, ": WAL record at offset ", offset, ": ", st.message()));
          }
          return batch.Iterate(replay);
        },
        &result));
    if (result.truncated_tail_bytes > 0) {
      const uint64_t offset = contents.size() - result.truncated_tail_bytes;
      if (options_.wal_recovery == WalRecovery::kAbsoluteConsistency) {
        return absl::DataLossError(
            absl::StrCat(path, ": the last ", result.truncated_tail_bytes,
                         " bytes, from offset ", offset,
                         ", hold an incomplete record (wal_recovery is "
                         "kAbsoluteConsistency). Nothing was changed."));
      }
      recovery_.wal_tail_bytes_dropped += result.truncated_tail_bytes;
      recovery_.wal_tails_dropped.push_back(
          absl::StrCat(log.name, "@", offset));
    }
    ++recovery_.wal_files_replayed;
    recovery_.wal_records_replayed += result.records;
  }
  return absl::OkStatus();
}

void Store::Impl::RemoveObsoleteFiles(const FolderContents& folder,
                                      uint64_t manifest_next_file_number,
                                      const Version& live) {
  std::set<uint64_t> live_tables;
  for (const FileMeta& f : live.Files()) live_tables.insert(f.number);
  auto remove = [&](const std::string& name) {
    if (RemoveFile(absl::StrCat(dir_, "/", name)).ok()) {
      recovery_.removed_files.push_back(name);
    }
  };
  // A manifest write that did not reach its rename.
  if (folder.manifest_tmp) remove(kManifestTmpName);
  // Every WAL found: those numbered below the manifest's log number were
  // already in tables, the rest were replayed into the table just listed.
  for (const FolderContents::File& log : folder.logs) remove(log.name);
  // Unlisted tables the store wrote (numbered below the manifest's next
  // file number): a flush or compaction that did not complete, or inputs
  // of one that did. OpenLiveTables refused any other unlisted table.
  for (const FolderContents::File& t : folder.tables) {
    if (t.number < manifest_next_file_number && !live_tables.count(t.number)) {
      remove(t.name);
    }
  }
}

absl::StatusOr<uint64_t> Store::Impl::NewFileNumber() {
  if (next_file_number_ >= manifest_.next_file_number) {
    BLOOMGATE_LSM_RETURN_IF_ERROR(SaveManifest(manifest_));
  }
  return next_file_number_++;
}

absl::Status Store::Impl::SaveManifest(Manifest m) {
  m.next_file_number = next_file_number_ + kFileNumberReserve;
  m.num_levels = options_.num_levels;
  BLOOMGATE_LSM_RETURN_IF_ERROR(WriteManifest(dir_, m));
  manifest_ = std::move(m);
  return absl::OkStatus();
}

absl::Status Store::Impl::CheckWritable() const {
  if (closed_.load()) return absl::FailedPreconditionError("store is closed");
  return bg_error_;
}

absl::Status Store::Impl::Write(const WriteBatch& batch) {
  NullHandler check;
  if (absl::Status s = batch.Iterate(check); !s.ok()) {
    return absl::InvalidArgumentError(s.message());
  }
  MutexLock w(&write_mu_);
  BLOOMGATE_LSM_RETURN_IF_ERROR(CheckWritable());
  if (batch.Count() == 0) return absl::OkStatus();
  const uint64_t before = log_->size();
  if (absl::Status s = log_->AddRecord(batch.Contents(), options_.sync_writes);
      !s.ok()) {
    return Fail(s);
  }
  stats_.RecordWal(log_->size() - before);
  CrashPoint("write:logged");
  std::shared_ptr<MemTable> mem = View()->mem;
  mem->Apply(batch);
  if (mem->ApproximateBytes() >= options_.write_buffer_size) {
    BLOOMGATE_LSM_RETURN_IF_ERROR(FlushLocked());
    return MaybeCompactLocked();
  }
  return absl::OkStatus();
}

absl::StatusOr<TablePtr> Store::Impl::WriteLevel0Table(const MemTable& mem) {
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(const uint64_t number, NewFileNumber());
  const std::string path = TableFileName(dir_, number);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file,
                                 WritableFile::Create(path));
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      std::unique_ptr<TableBuilder> builder,
      TableBuilder::Create(BuildOptionsFor(0), file.get()));
  absl::Status s;
  mem.ForEachFrozen([&](const std::string& key, const MemTable::Entry& e) {
    if (s.ok()) s = builder->Add(key, e.type, e.value);
  });
  if (s.ok()) s = builder->Finish();
  if (s.ok()) CrashPoint("table:finished-unsynced");
  if (s.ok()) s = file->Sync();
  if (s.ok()) s = file->Close();
  if (!s.ok()) {
    (void)RemoveFile(path);
    return s;
  }
  return OpenTable(number);
}

absl::Status Store::Impl::InstallVersion(std::shared_ptr<const Version> v) {
  Manifest m;
  m.log_number = log_number_;
  m.files = v->Files();
  BLOOMGATE_LSM_RETURN_IF_ERROR(SaveManifest(std::move(m)));
  std::shared_ptr<const ReadView> old = View();
  Publish(old->mem, nullptr, std::move(v));
  return absl::OkStatus();
}

absl::Status Store::Impl::FlushLocked() {
  std::shared_ptr<const ReadView> view = View();
  if (view->mem->empty()) return absl::OkStatus();
  // New writes go to a new WAL and memtable; readers see the old memtable
  // as immutable until its table is installed.
  absl::StatusOr<uint64_t> new_log_number = NewFileNumber();
  if (!new_log_number.ok()) return Fail(new_log_number.status());
  absl::StatusOr<std::unique_ptr<WritableFile>> log_file =
      WritableFile::Create(LogFileName(dir_, *new_log_number));
  if (!log_file.ok()) return Fail(log_file.status());
  std::shared_ptr<const MemTable> imm = view->mem;
  Publish(std::make_shared<MemTable>(), imm, view->version);
  if (absl::Status s = log_->Close(); !s.ok()) return Fail(s);
  log_ = std::make_unique<LogWriter>(std::move(*log_file));
  const uint64_t old_log_number = log_number_;
  log_number_ = *new_log_number;
  CrashPoint("flush:log-rotated");

  absl::StatusOr<TablePtr> table = WriteLevel0Table(*imm);
  if (!table.ok()) return Fail(table.status());
  CrashPoint("flush:table-written");
  auto version = ApplyEdit(*view->version, {}, 0, {*table});
  if (absl::Status s = InstallVersion(version); !s.ok()) return Fail(s);
  stats_.RecordFlush((*table)->file_size());
  CrashPoint("flush:installed");
  (void)RemoveFile(LogFileName(dir_, old_log_number));
  return absl::OkStatus();
}

absl::Status Store::Impl::MaybeCompactLocked() {
  if (options_.disable_auto_compactions) return absl::OkStatus();
  const LevelShape shape{
      options_.num_levels, options_.level0_file_num_compaction_trigger,
      options_.max_bytes_for_level_base, options_.level_multiplier};
  for (;;) {
    std::optional<CompactionSpec> spec =
        PickCompaction(*View()->version, shape, &compact_pointers_);
    if (!spec.has_value()) return absl::OkStatus();
    BLOOMGATE_LSM_RETURN_IF_ERROR(RunCompaction(*spec));
  }
}

absl::Status Store::Impl::RunCompaction(const CompactionSpec& spec) {
  std::shared_ptr<const Version> base = View()->version;
  if (spec.trivial_move) {
    auto v = ApplyEdit(*base, {spec.trivial_move}, spec.output_level,
                       {spec.trivial_move});
    if (absl::Status s = InstallVersion(v); !s.ok()) return Fail(s);
    return absl::OkStatus();
  }
  const TableBuildOptions topts = BuildOptionsFor(spec.output_level);
  std::vector<TablePtr> outputs;
  std::vector<uint64_t> output_numbers;
  std::unique_ptr<WritableFile> file;
  std::unique_ptr<TableBuilder> builder;
  uint64_t bytes_written = 0;
  auto finish_output = [&]() -> absl::Status {
    BLOOMGATE_LSM_RETURN_IF_ERROR(builder->Finish());
    BLOOMGATE_LSM_RETURN_IF_ERROR(file->Sync());
    BLOOMGATE_LSM_RETURN_IF_ERROR(file->Close());
    bytes_written += file->size();
    builder.reset();
    file.reset();
    BLOOMGATE_LSM_ASSIGN_OR_RETURN(TablePtr t,
                                   OpenTable(output_numbers.back()));
    outputs.push_back(std::move(t));
    return absl::OkStatus();
  };
  ReadCost cost;
  absl::Status s = MergeRuns(
      spec.runs, spec.drop_tombstones, &cost,
      [&](std::string_view key, ValueType type,
          std::string_view value) -> absl::Status {
        if (builder == nullptr) {
          BLOOMGATE_LSM_ASSIGN_OR_RETURN(const uint64_t number,
                                         NewFileNumber());
          output_numbers.push_back(number);
          BLOOMGATE_LSM_ASSIGN_OR_RETURN(
              file,
              WritableFile::Create(TableFileName(dir_, output_numbers.back())));
          BLOOMGATE_LSM_ASSIGN_OR_RETURN(
              builder, TableBuilder::Create(topts, file.get()));
        }
        BLOOMGATE_LSM_RETURN_IF_ERROR(builder->Add(key, type, value));
        if (builder->EstimatedFileSize() >= options_.target_file_size) {
          CrashPoint("compaction:cutting-output");
          return finish_output();
        }
        return absl::OkStatus();
      });
  if (s.ok() && builder != nullptr) s = finish_output();
  stats_.RecordCompaction(cost, bytes_written);
  if (!s.ok()) {
    outputs.clear();
    for (uint64_t n : output_numbers) (void)RemoveFile(TableFileName(dir_, n));
    return Fail(s);
  }
  CrashPoint("compaction:outputs-written");
  const std::vector<TablePtr> inputs = spec.Inputs();
  auto v = ApplyEdit(*base, inputs, spec.output_level, outputs);
  if (s = InstallVersion(v); !s.ok()) return Fail(s);
  CrashPoint("compaction:installed");
  for (const TablePtr& t : inputs) {
    (void)RemoveFile(TableFileName(dir_, t->number()));
  }
  return absl::OkStatus();
}

absl::Status Store::Impl::Flush() {
  MutexLock w(&write_mu_);
  BLOOMGATE_LSM_RETURN_IF_ERROR(CheckWritable());
  BLOOMGATE_LSM_RETURN_IF_ERROR(FlushLocked());
  return MaybeCompactLocked();
}

absl::Status Store::Impl::Compact() {
  MutexLock w(&write_mu_);
  BLOOMGATE_LSM_RETURN_IF_ERROR(CheckWritable());
  BLOOMGATE_LSM_RETURN_IF_ERROR(FlushLocked());
  std::optional<CompactionSpec> spec = PickFullCompaction(*View()->version);
  if (!spec.has_value()) return absl::OkStatus();
  return RunCompaction(*spec);
}

absl::Status Store::Impl::CompactLevel0To(int level) {
  if (level < 1 || level >= options_.num_levels) {
    return absl::InvalidArgumentError(absl::StrCat(
        "level ", level, " is not in [1, ", options_.num_levels - 1, "]"));
  }
  MutexLock w(&write_mu_);
  BLOOMGATE_LSM_RETURN_IF_ERROR(CheckWritable());
  BLOOMGATE_LSM_RETURN_IF_ERROR(FlushLocked());
  std::shared_ptr<const Version> v = View()->version;
  for (int l = 1; l < level; ++l) {
    if (!v->levels[l].empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot compact level 0 into level ", level, ": level ",
                       l, " holds ", v->levels[l].size(), " files"));
    }
  }
  std::optional<CompactionSpec> spec = PickLevel0Compaction(*v, level);
  if (!spec.has_value()) return absl::OkStatus();
  return RunCompaction(*spec);
}

absl::Status Store::Impl::Close() {
  MutexLock w(&write_mu_);
  if (closed_.exchange(true)) {
    return absl::FailedPreconditionError("store is closed");
  }
  absl::Status s;
  if (log_ != nullptr) {
    s = log_->Sync();
    absl::Status c = log_->Close();
    if (s.ok()) s = c;
    log_.reset();
  }
  lock_.reset();
  return s;
}

std::optional<std::optional<std::string>> Store::Impl::FromMemtables(
    const ReadView& view, std::string_view key, std::string* value) {
  for (const MemTable* mem :
       {static_cast<const MemTable*>(view.mem.get()), view.imm.get()}) {
    if (mem == nullptr) continue;
    const MemTable::Lookup r = mem->Get(key, value);
    if (r == MemTable::Lookup::kNotPresent) continue;
    const bool hit = r == MemTable::Lookup::kFound;
    stats_.RecordGet(nullptr, 0, hit, /*memtable=*/true);
    if (hit) return std::optional<std::string>(std::move(*value));
    return std::optional<std::string>();
  }
  return std::nullopt;
}

absl::StatusOr<std::optional<std::string>> Store::Impl::Get(
    std::string_view key) {
  if (closed_.load(std::memory_order_relaxed)) {
    return absl::FailedPreconditionError("store is closed");
  }
  std::shared_ptr<const ReadView> view = View();
  std::string value;
  if (std::optional<std::optional<std::string>> answer =
          FromMemtables(*view, key, &value)) {
    return *std::move(answer);
  }

  const Version& v = *view->version;
  const int num_levels = static_cast<int>(v.levels.size());
  GetTally tallies[kMaxLevels];
  const uint64_t hash = HashKey(key);
  int touched = 0;
  Table::Lookup result = Table::Lookup::kNotFound;
  absl::Status error;

  // Key range, then filter, then one data-block read. True when the search
  // is over (found, deleted or an error).
  auto probe = [&](const Table& t, GetTally& tally) -> bool {
    ++tally.files_considered;
    if (!t.InRange(key)) {
      ++tally.skipped_by_range;
      return false;
    }
    const bool may_match = !t.has_filter() || t.HashMayMatch(hash);
    return FinishProbe(t, key, may_match, &tally, &result, &value, &error);
  };

  bool done = false;
  for (int level = 0; level < num_levels && !done; ++level) {
    const std::vector<TablePtr>& files = v.levels[level];
    if (files.empty()) continue;
    touched = level + 1;
    if (level == 0) {
      for (const TablePtr& t : files) {
        if ((done = probe(*t, tallies[0]))) break;
      }
    } else {
      const TablePtr* t = v.Candidate(level, key);
      if (t != nullptr) {
        done = probe(**t, tallies[level]);
      } else {
        // Past the level's last key: considered, and skipped by range.
        ++tallies[level].files_considered;
        ++tallies[level].skipped_by_range;
      }
    }
  }
  const bool hit = error.ok() && result == Table::Lookup::kFound;
  stats_.RecordGet(tallies, touched, hit, /*memtable=*/false);
  if (!error.ok()) return error;
  if (hit) return std::optional<std::string>(std::move(value));
  return std::optional<std::string>();
}

std::vector<absl::StatusOr<std::optional<std::string>>> Store::Impl::MultiGet(
    absl::Span<const std::string_view> keys) {
  using Result = absl::StatusOr<std::optional<std::string>>;
  if (closed_.load(std::memory_order_relaxed)) {
    return std::vector<Result>(
        keys.size(), absl::FailedPreconditionError("store is closed"));
  }
  std::vector<Result> results(keys.size(), std::optional<std::string>());
  std::shared_ptr<const ReadView> view = View();

  // Memtables first, as Get; the rest search the files together.
  std::vector<size_t> to_search;
  std::string value;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (std::optional<std::optional<std::string>> answer =
            FromMemtables(*view, keys[i], &value)) {
      results[i] = *std::move(answer);
    } else {
      to_search.push_back(i);
    }
  }

  // A few hundred keys at a time bound the tallies' memory; each chunk
  // walks the levels once, newest data first, so every key meets the files
  // in Get's order and stops where Get would.
  constexpr size_t kChunk = 256;
  const Version& v = *view->version;
  const int num_levels = static_cast<int>(v.levels.size());
  std::vector<PendingLookup> chunk;
  std::vector<PendingLookup*> active, in_range;
  std::vector<std::pair<const Table*, PendingLookup*>> by_table;
  std::vector<uint64_t> hashes;
  std::unique_ptr<bool[]> may_match;
  size_t may_match_size = 0;
  for (size_t begin = 0; begin < to_search.size(); begin += kChunk) {
    const size_t end = std::min(to_search.size(), begin + kChunk);
    chunk.clear();
    chunk.resize(end - begin);
    for (size_t j = begin; j < end; ++j) {
      PendingLookup& p = chunk[j - begin];
      p.index = to_search[j];
      p.key = keys[p.index];
      p.hash = HashKey(p.key);
    }
    for (int level = 0; level < num_levels; ++level) {
      const std::vector<TablePtr>& files = v.levels[level];
      if (files.empty()) continue;
      active.clear();
      for (PendingLookup& p : chunk) {
        if (p.done) continue;
        p.touched = level + 1;
        active.push_back(&p);
      }
      if (active.empty()) break;
      if (level == 0) {
        for (const TablePtr& t : files) {
          SearchTable(*t, 0, active, &in_range, &hashes, &may_match,
                      &may_match_size);
          std::erase_if(active, [](const PendingLookup* p) { return p->done; });
          if (active.empty()) break;
        }
        continue;
      }
      // At most one file per level may hold a key: group the keys by it.
      by_table.clear();
      for (PendingLookup* p : active) {
        const TablePtr* t = v.Candidate(level, p->key);
        if (t == nullptr) {
          // Past the level's last key: considered, and skipped by range.
          ++p->tallies[level].files_considered;
          ++p->tallies[level].skipped_by_range;
        } else {
          by_table.emplace_back(t->get(), p);
        }
      }
      std::stable_sort(by_table.begin(), by_table.end(),
                       [](const auto& a, const auto& b) {
                         return std::less<const Table*>()(a.first, b.first);
                       });
      for (size_t g = 0; g < by_table.size();) {
        const Table* t = by_table[g].first;
        active.clear();
        for (; g < by_table.size() && by_table[g].first == t; ++g) {
          active.push_back(by_table[g].second);
        }
        SearchTable(*t, level, active, &in_range, &hashes, &may_match,
                    &may_match_size);
      }
    }
    for (PendingLookup& p : chunk) {
      const bool hit = p.error.ok() && p.result == Table::Lookup::kFound;
      stats_.RecordGet(p.tallies, p.touched, hit, /*memtable=*/false);
      if (!p.error.ok()) {
        results[p.index] = p.error;
      } else if (hit) {
        results[p.index] = std::optional<std::string>(std::move(p.value));
      }
    }
  }
  return results;
}

IoStats Store::Impl::GetStats() const {
  IoStats out;
  out.levels.resize(options_.num_levels);
  stats_.Fill(&out);
  std::shared_ptr<const ReadView> view = View();
  for (int l = 0; l < options_.num_levels; ++l) {
    LevelStats& s = out.levels[l];
    for (const TablePtr& t : view->version->levels[l]) {
      ++s.num_files;
      s.file_bytes += t->file_size();
      s.num_entries += t->properties().num_entries;
      s.filter_bytes += t->filter_bytes();
      if (!t->filter().degraded()) s.filter_keys += t->filter().num_keys();
      if (!t->filter_status().ok()) ++s.degraded_filters;
    }
    out.total += s;
  }
  return out;
}

std::vector<FileInfo> Store::Impl::GetLiveFiles() const {
  std::vector<FileInfo> out;
  std::shared_ptr<const ReadView> view = View();
  for (int l = 0; l < options_.num_levels; ++l) {
    for (const TablePtr& t : view->version->levels[l]) {
      FileInfo f;
      f.level = l;
      f.number = t->number();
      f.path = t->name();
      f.file_bytes = t->file_size();
      f.num_entries = t->properties().num_entries;
      f.smallest_key = t->smallest();
      f.largest_key = t->largest();
      f.filter_bytes = t->filter_bytes();
      f.filter_status = t->filter_status();
      out.push_back(std::move(f));
    }
  }
  return out;
}

uint64_t Store::Impl::FilterMemoryBytes() const {
  uint64_t bytes = 0;
  std::shared_ptr<const ReadView> view = View();
  for (const auto& level : view->version->levels) {
    for (const TablePtr& t : level) bytes += t->filter_bytes();
  }
  return bytes;
}

// --- Store ---

absl::StatusOr<std::unique_ptr<Store>> Store::Open(std::string dir,
                                                   StoreOptions options) {
  auto impl = std::make_unique<Impl>(std::move(dir), std::move(options));
  if (absl::Status s = impl->Open(); !s.ok()) {
    (void)impl->Close();
    return s;
  }
  return std::unique_ptr<Store>(new Store(std::move(impl)));
}

Store::Store(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Store::~Store() = default;

absl::Status Store::Put(std::string_view key, std::string_view value) {
  WriteBatch batch;
  batch.Put(key, value);
  return impl_->Write(batch);
}

absl::Status Store::Delete(std::string_view key) {
  WriteBatch batch;
  batch.Delete(key);
  return impl_->Write(batch);
}

absl::Status Store::Write(const WriteBatch& batch) {
  return impl_->Write(batch);
}

absl::StatusOr<std::optional<std::string>> Store::Get(std::string_view key) {
  return impl_->Get(key);
}

std::vector<absl::StatusOr<std::optional<std::string>>> Store::MultiGet(
    absl::Span<const std::string_view> keys) {
  return impl_->MultiGet(keys);
}

absl::Status Store::Flush() { return impl_->Flush(); }
absl::Status Store::Compact() { return impl_->Compact(); }
absl::Status Store::CompactLevel0To(int level) {
  return impl_->CompactLevel0To(level);
}
absl::Status Store::Close() { return impl_->Close(); }
IoStats Store::GetStats() const { return impl_->GetStats(); }
void Store::ResetStats() { impl_->ResetStats(); }
std::vector<FileInfo> Store::GetLiveFiles() const {
  return impl_->GetLiveFiles();
}
uint64_t Store::FilterMemoryBytes() const { return impl_->FilterMemoryBytes(); }
bool Store::direct_io() const { return impl_->direct_io(); }
const RecoveryReport& Store::recovery() const { return impl_->recovery(); }
const StoreOptions& Store::options() const { return impl_->options(); }
const std::string& Store::dir() const { return impl_->dir(); }

}  // namespace bloomgate::lsm
