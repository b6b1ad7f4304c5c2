// Copyright 2026 The bloomgate Authors.

#include "src/rocksdb/live_tree.h"

#include <algorithm>
#include <map>
#include <unordered_set>
#include <utility>

#include "rocksdb/metadata.h"
#include "rocksdb/table_properties.h"

namespace bloomgate::rocksdb_internal {
namespace {

// The mean keys of `files`' level-0 files; 0 for none.
uint64_t MeanLevel0Keys(const std::vector<LiveSstFile>& files) {
  uint64_t keys = 0, n = 0;
  for (const LiveSstFile& f : files) {
    if (f.level != 0) continue;
    keys += f.keys;
    ++n;
  }
  return n == 0 ? 0 : keys / n;
}

// A column family of a database in a pool: its files from the database's
// live tree while the tree lives.
class LiveTreeMember final : public PoolMember {
 public:
  LiveTreeMember(std::weak_ptr<const LiveTree> tree, std::string cf,
                 std::shared_ptr<const LookupSampler> sampler,
                 const void* database)
      : tree_(std::move(tree)),
        cf_(std::move(cf)),
        sampler_(std::move(sampler)),
        database_(database) {}

  Files LiveFiles() const override {
    std::shared_ptr<const LiveTree> tree = tree_.lock();
    return tree != nullptr ? tree->FilesOf(cf_) : Files{};
  }
  const void* database() const override { return database_; }
  const LookupSampler* sampler() const override { return sampler_.get(); }

 private:
  const std::weak_ptr<const LiveTree> tree_;
  const std::string cf_;
  const std::shared_ptr<const LookupSampler> sampler_;
  const void* const database_;
};

}  // namespace

std::shared_ptr<const PoolMember> LiveTree::JoinPool(
    const std::string& cf, FilterMemoryPool& pool,
    std::shared_ptr<const LookupSampler> sampler) const {
  std::shared_ptr<const PoolMember> member;
  {
    absl::MutexLock l(&mu_);
    std::shared_ptr<const PoolMember>& m = members_[cf];
    if (m == nullptr) {
      m = std::make_shared<const LiveTreeMember>(weak_from_this(), cf,
                                                 std::move(sampler), this);
    }
    member = m;
  }
  spec_internal::PoolMembers::Join(pool, member);
  return member;
}

PoolMember::Files LiveTree::FilesOf(const std::string& cf) const {
  std::shared_ptr<const std::vector<LiveSstFile>> snapshot;
  {
    absl::MutexLock l(&mu_);
    auto it = by_cf_.find(cf);
    if (it == by_cf_.end()) return {};
    snapshot = it->second;
  }
  PoolMember::Files files;
  for (const LiveSstFile& f : *snapshot) {
    files.files.push_back({.level = f.level,
                           .keys = f.keys,
                           .smallest = f.smallest,
                           .largest = f.largest,
                           .filter_bytes = f.filter_bytes});
  }
  files.owner = std::move(snapshot);
  return files;
}

LiveTreeQuery LiveTree::QueryFor(const std::string& cf, int level,
                                 uint64_t keys, std::string_view first,
                                 std::string_view last) const {
  LiveTreeQuery q;
  std::unordered_set<uint64_t> replaced;
  {
    absl::MutexLock l(&mu_);
    auto it = by_cf_.find(cf);
    q.snapshot = it != by_cf_.end()
                     ? it->second
                     : std::make_shared<const std::vector<LiveSstFile>>();
    for (const auto& [job, c] : running_) {
      if (c.cf == cf && c.output_level == level) {
        replaced.insert(c.inputs.begin(), c.inputs.end());
      }
    }
  }
  q.output.level = level;
  {
    absl::MutexLock l(&mu_);
    auto it = flush_keys_.find(cf);
    if (it != flush_keys_.end()) q.output.flush_keys = it->second;
    q.output.level0_files = level0_trigger_;
  }
  if (level == 0 && keys > 0) q.output.flush_keys = keys;
  // No flush seen since the listener was added (a reopened database): the
  // level-0 files it holds tell the size of a flush.
  if (q.output.flush_keys == 0)
    q.output.flush_keys = MeanLevel0Keys(*q.snapshot);
  uint64_t replaced_keys = 0, replaced_files = 0;
  for (const LiveSstFile& f : *q.snapshot) {
    if (!replaced.contains(f.number)) {
      q.files.push_back({.level = f.level,
                         .keys = f.keys,
                         .smallest = f.smallest,
                         .largest = f.largest,
                         .filter_bytes = f.filter_bytes});
      continue;
    }
    ++replaced_files;
    if (replaced_keys == 0 || f.smallest < q.output.smallest) {
      q.output.smallest = f.smallest;
    }
    if (replaced_keys == 0 || f.largest > q.output.largest) {
      q.output.largest = f.largest;
    }
    replaced_keys += f.keys;
  }
  if (replaced_keys > keys) {
    q.output.keys = replaced_keys;
    // In files the size of this one; when that is not known yet, as many
    // as the inputs, each a full file.
    q.output.num_files =
        keys > 0 ? (replaced_keys + keys / 2) / keys : replaced_files;
  } else {
    q.output.keys = keys;
    q.output.smallest = first;
    q.output.largest = last;
  }
  return q;
}

void LiveTree::RecordFilter(uint64_t file_number, uint64_t filter_bytes) {
  absl::MutexLock l(&mu_);
  filter_bytes_[file_number] = filter_bytes;
}

void LiveTree::RecordFlush(const std::string& cf, uint64_t keys) {
  absl::MutexLock l(&mu_);
  flush_keys_[cf] = keys;
}

uint64_t LiveTree::LastFlushKeys(const std::string& cf) const {
  absl::MutexLock l(&mu_);
  auto it = flush_keys_.find(cf);
  return it == flush_keys_.end() ? 0 : it->second;
}

void LiveTree::Refresh(rocksdb::DB& db) {
  // Outside the lock: it takes RocksDB's own mutex.
  std::vector<rocksdb::LiveFileMetaData> live;
  db.GetLiveFilesMetaData(&live);
  const int level0_trigger = db.GetOptions().level0_file_num_compaction_trigger;
  absl::MutexLock l(&mu_);
  level0_trigger_ = level0_trigger;
  std::map<std::string, std::vector<LiveSstFile>> by_cf;
  std::unordered_map<uint64_t, uint64_t> still_live;
  for (const rocksdb::LiveFileMetaData& m : live) {
    LiveSstFile f{.level = m.level,
                  .number = m.file_number,
                  .keys = m.num_entries,
                  .smallest = m.smallestkey,
                  .largest = m.largestkey};
    if (auto it = filter_bytes_.find(m.file_number);
        it != filter_bytes_.end()) {
      f.filter_bytes = it->second;
      still_live.insert(*it);
    }
    by_cf[m.column_family_name].push_back(std::move(f));
  }
  filter_bytes_ = std::move(still_live);
  by_cf_.clear();
  for (auto& [cf, files] : by_cf) {
    by_cf_[cf] =
        std::make_shared<const std::vector<LiveSstFile>>(std::move(files));
  }
}

void LiveTree::BeginCompaction(int job_id, const std::string& cf,
                               int output_level, std::vector<uint64_t> inputs) {
  absl::MutexLock l(&mu_);
  running_[job_id] = {cf, output_level, std::move(inputs)};
}

void LiveTree::EndCompaction(int job_id) {
  absl::MutexLock l(&mu_);
  running_.erase(job_id);
}

namespace {

struct RegistryEntry {
  std::weak_ptr<const LiveTree> tree;
  // Another live tree was filed under the same LOG while this one lived.
  bool ambiguous = false;
};

absl::Mutex registry_mu(absl::kConstInit);
// Never destroyed: listeners may run while the process exits.
std::map<const rocksdb::Logger*, RegistryEntry>& Registry()
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(registry_mu) {
  static auto* registry = new std::map<const rocksdb::Logger*, RegistryEntry>;
  return *registry;
}

}  // namespace

void LiveTreeRegistry::Register(const rocksdb::Logger* log,
                                const std::shared_ptr<const LiveTree>& tree) {
  if (log == nullptr) return;
  absl::MutexLock l(&registry_mu);
  auto& registry = Registry();
  // Entries of trees that are gone (databases closed) go first.
  std::erase_if(registry,
                [](const auto& entry) { return entry.second.tree.expired(); });
  auto [it, added] = registry.try_emplace(log, RegistryEntry{tree});
  if (!added && it->second.tree.lock() != tree) it->second.ambiguous = true;
}

std::shared_ptr<const LiveTree> LiveTreeRegistry::Find(
    const rocksdb::Logger* log) {
  if (log == nullptr) return nullptr;
  absl::MutexLock l(&registry_mu);
  auto it = Registry().find(log);
  if (it == Registry().end() || it->second.ambiguous) return nullptr;
  return it->second.tree.lock();
}

void LiveTreeListener::RegisterOnce(rocksdb::DB& db) {
  std::call_once(registered_, [&] {
    LiveTreeRegistry::Register(db.GetDBOptions().info_log.get(), tree_);
  });
}

void LiveTreeListener::OnFlushCompleted(rocksdb::DB* db,
                                        const rocksdb::FlushJobInfo& info) {
  RegisterOnce(*db);
  tree_->RecordFilter(info.file_number, info.table_properties.filter_size);
  tree_->RecordFlush(info.cf_name, info.table_properties.num_entries);
  tree_->Refresh(*db);
}

void LiveTreeListener::OnFlushBegin(rocksdb::DB* db,
                                    const rocksdb::FlushJobInfo& /*info*/) {
  RegisterOnce(*db);
  tree_->Refresh(*db);
}

void LiveTreeListener::OnCompactionBegin(
    rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) {
  RegisterOnce(*db);
  // The inputs' filters as RocksDB read them: a flush's output may be an
  // input before OnFlushCompleted recorded its filter.
  std::vector<uint64_t> inputs;
  for (size_t i = 0; i < info.input_file_infos.size(); ++i) {
    const uint64_t number = info.input_file_infos[i].file_number;
    inputs.push_back(number);
    if (i >= info.input_files.size()) continue;
    auto it = info.table_properties.find(info.input_files[i]);
    if (it != info.table_properties.end() && it->second != nullptr) {
      tree_->RecordFilter(number, it->second->filter_size);
    }
  }
  tree_->Refresh(*db);
  tree_->BeginCompaction(info.job_id, info.cf_name, info.output_level,
                         std::move(inputs));
}

void LiveTreeListener::OnCompactionCompleted(
    rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) {
  tree_->EndCompaction(info.job_id);
  for (size_t i = 0;
       i < info.output_files.size() && i < info.output_file_infos.size(); ++i) {
    auto it = info.table_properties.find(info.output_files[i]);
    if (it == info.table_properties.end() || it->second == nullptr) continue;
    tree_->RecordFilter(info.output_file_infos[i].file_number,
                        it->second->filter_size);
  }
  tree_->Refresh(*db);
}

}  // namespace bloomgate::rocksdb_internal
