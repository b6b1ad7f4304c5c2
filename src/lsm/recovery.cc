// Copyright 2026 The bloomgate Authors.
//
// Store::Impl::Open: recovery, one function per step, in the manner of
// LevelDB's DB::Open -> Recover -> RecoverLogFile -> RemoveObsoleteFiles.
// docs/lsm-design.md, "Faults and recovery", gives the rules.

#include <algorithm>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/lsm/store.h"
#include "src/lsm/coding.h"
#include "src/lsm/crash_points.h"
#include "src/lsm/level_filters.h"
#include "src/lsm/status_macros.h"
#include "src/lsm/store_impl.h"
#include "src/spec/pool_members.h"

namespace bloomgate::lsm {

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

namespace {

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
  if (!(o.max_bytes_for_level_multiplier >= 1.0) ||
      std::isinf(o.max_bytes_for_level_multiplier)) {
    return absl::InvalidArgumentError(
        "max_bytes_for_level_multiplier must be >= 1");
  }
  if (o.level0_file_num_compaction_trigger < 1) {
    return absl::InvalidArgumentError(
        "level0_file_num_compaction_trigger must be >= 1");
  }
  // A budget in bytes is kept by sizing each table from the live tree.
  if (o.filter.memory_budget_bytes != 0 &&
      (o.level_allocation != StoreOptions::LevelAllocation::kLiveTree ||
       !o.level_filters.empty())) {
    return absl::InvalidArgumentError(
        absl::StrCat("filter ", o.filter.Name(),
                     ": a memory budget in bytes needs "
                     "level_allocation kLiveTree and no level_filters"));
  }
  return absl::OkStatus();
}

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
  std::string out = absl::StrCat(files.size(), " ", ToAbsl(kind),
                                 files.size() == 1 ? " file (" : " files (");
  for (size_t i = 0; i < files.size() && i < 4; ++i) {
    absl::StrAppend(&out, i > 0 ? ", " : "", files[i].name);
  }
  absl::StrAppend(&out, files.size() > 4 ? ", ...)" : ")");
  return out;
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

// Until the manifest listing the recovered state is written, a failing step
// removes nothing; what it wrote (a level-0 table of the replayed WALs) is
// numbered below the next file number of the manifest on disk, a leftover
// the next Open removes.
absl::Status Store::Impl::Open() {
  BLOOMGATE_LSM_RETURN_IF_ERROR(ValidateOptions(options_));
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(level_filters_, LevelFilterOptions(options_));
  live_tree_allocation_ =
      options_.level_filters.empty() && options_.filter.monkey &&
      options_.filter.family == FilterFamily::kBloomgate &&
      options_.level_allocation == StoreOptions::LevelAllocation::kLiveTree;
  if (!options_.filter.pool.empty()) {
    BLOOMGATE_LSM_ASSIGN_OR_RETURN(
        pool_, FilterMemoryPool::Named(options_.filter.pool.view(),
                                       options_.filter.memory_budget_bytes,
                                       options_.filter.Name()));
    if (options_.filter.reach_half_life != 0) {
      sampler_ =
          std::make_shared<LookupSampler>(options_.filter.reach_half_life);
    }
    pool_member_ = std::make_shared<StorePoolMember>(sampler_);
    spec_internal::PoolMembers::Join(*pool_, pool_member_);
  }
  MutexLock w(&write_mu_);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(const FolderContents folder, LockFolder());
  BLOOMGATE_LSM_RETURN_IF_ERROR(ReadManifest(folder));
  // New files are numbered past every file found, listed or not.
  const uint64_t manifest_next_file_number = manifest_.next_file_number;
  next_file_number_ =
      std::max(manifest_next_file_number, folder.max_number + 1);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(std::shared_ptr<Version> version,
                                 OpenLiveTables(folder));
  MemTable mem;
  BLOOMGATE_LSM_RETURN_IF_ERROR(ReplayLogs(folder, &mem));

  // The replayed writes go to a level-0 table, then a manifest lists it and
  // names a new WAL, which is created only after that: a crash anywhere in
  // between leaves the old WALs to be replayed again.
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(const uint64_t new_log_number,
                                 NewFileNumber());
  BLOOMGATE_LSM_RETURN_IF_ERROR(WriteRecoveredTable(mem, version.get()));
  BLOOMGATE_LSM_RETURN_IF_ERROR(StartLog(new_log_number, version));
  CrashPoint("open:before-cleanup");

  // Only now, with the new manifest durable, may old files go.
  RemoveObsoleteFiles(folder, manifest_next_file_number, *version);
  return MaybeCompactLocked();
}

absl::StatusOr<FolderContents> Store::Impl::LockFolder() {
  // A missing folder holds nothing; it is created (and locked) only once
  // CheckFolder has allowed a new store.
  const bool existed = FileExists(dir_);
  FolderContents folder;
  if (existed) {
    BLOOMGATE_LSM_RETURN_IF_ERROR(AcquireLock());
    BLOOMGATE_LSM_ASSIGN_OR_RETURN(std::vector<std::string> names,
                                   ListDir(dir_));
    folder = Classify(std::move(names));
  }
  BLOOMGATE_LSM_RETURN_IF_ERROR(CheckFolder(folder, existed));
  if (!existed) {
    BLOOMGATE_LSM_RETURN_IF_ERROR(CreateDirIfMissing(dir_));
    BLOOMGATE_LSM_RETURN_IF_ERROR(AcquireLock());
  }
  return folder;
}

absl::Status Store::Impl::AcquireLock() {
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      lock_, FileLock::Acquire(absl::StrCat(dir_, "/LOCK")));
  return absl::OkStatus();
}

absl::Status Store::Impl::CheckFolder(const FolderContents& folder,
                                      bool existed) const {
  if (folder.manifest) {
    if (options_.error_if_exists) {
      return absl::AlreadyExistsError(
          absl::StrCat(dir_, ": a store exists (error_if_exists is on)"));
    }
    return absl::OkStatus();
  }
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
  if (options_.create_if_missing) return absl::OkStatus();  // a new store
  if (!existed) {
    return absl::NotFoundError(
        absl::StrCat(dir_, ": no such folder (create_if_missing is off)"));
  }
  const std::string found =
      folder.others.empty()
          ? "it is empty"
          : absl::StrCat("it holds ", folder.others.size(), " other files");
  return absl::NotFoundError(
      absl::StrCat(dir_, ": no store here (no MANIFEST; ", found,
                   ") and create_if_missing is off"));
}

absl::Status Store::Impl::ReadManifest(const FolderContents& folder) {
  if (!folder.manifest) return absl::OkStatus();  // a new store
  const std::string manifest_path = absl::StrCat(dir_, "/", kManifestName);
  std::string contents;
  ReadCost cost;
  absl::Status s = ReadFileToString(manifest_path, &contents, &cost);
  stats_.RecordRecovery(cost);
  BLOOMGATE_LSM_RETURN_IF_ERROR(s);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(manifest_,
                                 DecodeManifest(manifest_path, contents));
  return absl::OkStatus();
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
  // Level 0 is searched newest (highest number) first.
  std::sort(version->levels[0].begin(), version->levels[0].end(),
            [](const TablePtr& a, const TablePtr& b) {
              return a->number() > b->number();
            });
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
          if (absl::Status st = CheckBatch(batch); !st.ok()) {
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

absl::Status Store::Impl::WriteRecoveredTable(const MemTable& mem,
                                              Version* version) {
  if (mem.empty()) return absl::OkStatus();
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(TablePtr t, WriteLevel0Table(mem, *version));
  stats_.RecordFlush(t->file_size());
  // The newest table: numbered past every file found.
  version->levels[0].insert(version->levels[0].begin(), std::move(t));
  return absl::OkStatus();
}

absl::Status Store::Impl::StartLog(uint64_t log_number,
                                   std::shared_ptr<const Version> version) {
  log_number_ = log_number;
  CrashPoint("open:before-manifest");
  BLOOMGATE_LSM_RETURN_IF_ERROR(SaveVersion(*version));
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      std::unique_ptr<WritableFile> log_file,
      WritableFile::Create(LogFileName(dir_, log_number_)));
  log_ = std::make_unique<LogWriter>(std::move(log_file));
  Publish(std::make_shared<MemTable>(), nullptr, std::move(version));
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
  // Files of other names are the user's: kept, and reported.
  for (const std::string& name : folder.others) {
    recovery_.ignored_files.push_back(name);
  }
}

}  // namespace bloomgate::lsm
