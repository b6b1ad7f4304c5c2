// Copyright 2026 The bloomgate Authors.
//
// Store::Impl: the write path, flushes, compactions and statistics; the
// read path is in read_path.cc, Open's recovery steps in recovery.cc.
// docs/lsm-design.md walks through it.

#include "bloomgate/lsm/store.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/lsm/compaction.h"
#include "src/lsm/crash_points.h"
#include "src/lsm/status_macros.h"
#include "src/lsm/store_impl.h"
#include "src/spec/pool_members.h"

namespace bloomgate::lsm {
namespace {

// Receives a batch's updates and does nothing with them.
class NullHandler final : public WriteBatch::Handler {
 public:
  void Put(std::string_view, std::string_view) override {}
  void Delete(std::string_view) override {}
};

// Numbers a manifest write reserves beyond the next file number. Every file
// the store creates is numbered below the next_file_number of a manifest
// already on disk, so Open can tell the store's own leftovers (below it)
// from files it never created (at or above it). A flush takes two numbers
// and a compaction one per output; one that runs past the reserve writes
// the manifest again first.
constexpr uint64_t kFileNumberReserve = 64;

}  // namespace

absl::Status CheckBatch(const WriteBatch& batch) {
  NullHandler check;
  return batch.Iterate(check);
}

absl::StatusOr<TablePtr> Store::Impl::OpenTable(uint64_t number) {
  absl::StatusOr<std::unique_ptr<RandomAccessFile>> file = OpenRandomAccessFile(
      TableFileName(dir_, number), options_.use_direct_reads);
  if (!file.ok()) return file.status();
  direct_reads_.store((*file)->direct_io());
  ReadCost cost;
  absl::StatusOr<TablePtr> table = Table::Open(std::move(*file), number, &cost);
  stats_.RecordTableOpen(cost);
  return table;
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

absl::Status Store::Impl::SaveVersion(const Version& v) {
  Manifest m;
  m.log_number = log_number_;
  m.files = v.Files();
  return SaveManifest(std::move(m));
}

absl::Status Store::Impl::CheckWritable() const {
  if (closed_.load()) return absl::FailedPreconditionError("store is closed");
  return bg_error_;
}

absl::Status Store::Impl::Write(const WriteBatch& batch) {
  if (absl::Status s = CheckBatch(batch); !s.ok()) {
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

TableBuildOptions Store::Impl::BuildOptionsFor(
    const PendingOutput& output, const Version& base,
    const std::vector<TablePtr>& inputs) const {
  TableBuildOptions t;
  t.block_size = options_.block_size;
  t.filter = level_filters_[output.level];
  if (live_tree_allocation_) {
    std::unordered_set<uint64_t> replaced;
    for (const TablePtr& t : inputs) replaced.insert(t->number());
    std::vector<LiveFile> files;
    for (int level = 0; level < static_cast<int>(base.levels.size()); ++level) {
      for (const TablePtr& t : base.levels[level]) {
        if (replaced.contains(t->number())) continue;
        files.push_back({.level = level,
                         .keys = t->properties().num_entries,
                         .smallest = t->smallest(),
                         .largest = t->largest(),
                         .filter_bytes = t->filter_bytes()});
      }
    }
    PendingOutput planned = output;
    planned.level0_files = options_.level0_file_num_compaction_trigger;
    planned.flush_keys =
        output.level == 0 ? output.keys : last_flush_keys_.load();
    const double bits =
        ChooseLiveTreeFilter(options_.filter, files, planned, {}, pool_.get(),
                             pool_member_.get())
            .bits_per_key;
    t.filter =
        bits > 0 ? std::optional(options_.filter.Options(bits)) : std::nullopt;
  }
  return t;
}

absl::StatusOr<TablePtr> Store::Impl::WriteLevel0Table(const MemTable& mem,
                                                       const Version& base) {
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(const uint64_t number, NewFileNumber());
  const std::string path = TableFileName(dir_, number);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file,
                                 WritableFile::Create(path));
  PendingOutput output;
  output.level = 0;
  output.keys = mem.num_entries();
  last_flush_keys_ = output.keys;
  output.smallest = mem.SmallestFrozen();
  output.largest = mem.LargestFrozen();
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      std::unique_ptr<TableBuilder> builder,
      TableBuilder::Create(BuildOptionsFor(output, base, {}), file.get()));
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
  BLOOMGATE_LSM_RETURN_IF_ERROR(SaveVersion(*v));
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

  absl::StatusOr<TablePtr> table = WriteLevel0Table(*imm, *view->version);
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
  const LevelShape shape{options_.num_levels,
                         options_.level0_file_num_compaction_trigger,
                         options_.max_bytes_for_level_base,
                         options_.max_bytes_for_level_multiplier};
  for (;;) {
    std::optional<CompactionSpec> spec =
        PickCompaction(*View()->version, shape, &compact_pointers_);
    if (!spec.has_value()) return absl::OkStatus();
    BLOOMGATE_LSM_RETURN_IF_ERROR(RunCompaction(*spec));
  }
}

// One compaction's outputs as they are written (LevelDB's CompactionState):
// the table being built, if any, and those finished.
struct Store::Impl::CompactionState {
  TableBuildOptions options;
  std::vector<uint64_t> output_numbers;  // every output file begun
  std::vector<TablePtr> outputs;         // those finished and opened
  std::unique_ptr<WritableFile> file;
  std::unique_ptr<TableBuilder> builder;
  uint64_t bytes_written = 0;
};

absl::Status Store::Impl::RunCompaction(const CompactionSpec& spec) {
  if (spec.trivial_move) return MoveTable(spec);
  std::shared_ptr<const Version> base = View()->version;
  const std::vector<TablePtr> inputs = spec.Inputs();
  CompactionState c;
  c.options = BuildOptionsFor(PlanOutputs(spec, inputs), *base, inputs);
  if (absl::Status s = WriteCompactionOutputs(spec, &c); !s.ok()) {
    RemoveCompactionOutputs(&c);
    return Fail(s);
  }
  CrashPoint("compaction:outputs-written");
  return InstallCompactionResults(*base, inputs, spec.output_level, c);
}

absl::Status Store::Impl::MoveTable(const CompactionSpec& spec) {
  auto v = ApplyEdit(*View()->version, {spec.trivial_move}, spec.output_level,
                     {spec.trivial_move});
  if (absl::Status s = InstallVersion(v); !s.ok()) return Fail(s);
  return absl::OkStatus();
}

PendingOutput Store::Impl::PlanOutputs(
    const CompactionSpec& spec, const std::vector<TablePtr>& inputs) const {
  PendingOutput pending;
  pending.level = spec.output_level;
  uint64_t input_bytes = 0;
  for (const TablePtr& t : inputs) {
    pending.keys += t->properties().num_entries;
    input_bytes += t->file_size();
  }
  pending.num_files =
      1 + input_bytes / std::max<uint64_t>(1, options_.target_file_size);
  KeyRange(inputs, &pending.smallest, &pending.largest);
  return pending;
}

absl::Status Store::Impl::OpenCompactionOutputFile(CompactionState* c) {
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(const uint64_t number, NewFileNumber());
  c->output_numbers.push_back(number);
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      c->file, WritableFile::Create(TableFileName(dir_, number)));
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(
      c->builder, TableBuilder::Create(c->options, c->file.get()));
  return absl::OkStatus();
}

absl::Status Store::Impl::FinishCompactionOutputFile(CompactionState* c) {
  BLOOMGATE_LSM_RETURN_IF_ERROR(c->builder->Finish());
  BLOOMGATE_LSM_RETURN_IF_ERROR(c->file->Sync());
  BLOOMGATE_LSM_RETURN_IF_ERROR(c->file->Close());
  c->bytes_written += c->file->size();
  c->builder.reset();
  c->file.reset();
  BLOOMGATE_LSM_ASSIGN_OR_RETURN(TablePtr t,
                                 OpenTable(c->output_numbers.back()));
  c->outputs.push_back(std::move(t));
  return absl::OkStatus();
}

absl::Status Store::Impl::WriteCompactionOutputs(const CompactionSpec& spec,
                                                 CompactionState* c) {
  ReadCost cost;
  absl::Status s = MergeRuns(
      spec.runs, spec.drop_tombstones, &cost,
      [&](std::string_view key, ValueType type,
          std::string_view value) -> absl::Status {
        if (c->builder == nullptr) {
          BLOOMGATE_LSM_RETURN_IF_ERROR(OpenCompactionOutputFile(c));
        }
        BLOOMGATE_LSM_RETURN_IF_ERROR(c->builder->Add(key, type, value));
        if (c->builder->EstimatedFileSize() >= options_.target_file_size) {
          CrashPoint("compaction:cutting-output");
          return FinishCompactionOutputFile(c);
        }
        return absl::OkStatus();
      });
  if (s.ok() && c->builder != nullptr) s = FinishCompactionOutputFile(c);
  stats_.RecordCompaction(cost, c->bytes_written);
  return s;
}

void Store::Impl::RemoveCompactionOutputs(CompactionState* c) {
  c->outputs.clear();
  for (uint64_t n : c->output_numbers) {
    (void)RemoveFile(TableFileName(dir_, n));
  }
}

absl::Status Store::Impl::InstallCompactionResults(
    const Version& base, const std::vector<TablePtr>& inputs, int output_level,
    const CompactionState& c) {
  auto v = ApplyEdit(base, inputs, output_level, c.outputs);
  if (absl::Status s = InstallVersion(v); !s.ok()) return Fail(s);
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
  // A pool that still holds the membership sees no tree from now on.
  if (pool_member_ != nullptr) pool_member_->Set(nullptr);
  return s;
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
  out.filter_budget_bytes = options_.filter.memory_budget_bytes;
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
      f.predicted_fp_rate = t->predicted_fp_rate();
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
bool Store::direct_reads() const { return impl_->direct_reads(); }
const RecoveryReport& Store::recovery() const { return impl_->recovery(); }
const StoreOptions& Store::options() const { return impl_->options(); }
const std::string& Store::dir() const { return impl_->dir(); }

}  // namespace bloomgate::lsm
