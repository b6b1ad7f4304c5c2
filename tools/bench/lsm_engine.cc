// Copyright 2026 The bloomgate Authors.
//
// The LSM engine: bloomgate::lsm::Store, whose own statistics count every
// read exactly (include/bloomgate/lsm/stats.h), so nothing here is derived.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bloomgate/filter_spec.h"
#include "bloomgate/lsm/stats.h"
#include "bloomgate/lsm/store.h"
#include "bloomgate/lsm/write_batch.h"
#include "tools/bench/engine.h"

namespace bloomgate::bench {

namespace {

class LsmEngine final : public Engine {
 public:
  bool direct_reads() const override { return store_->direct_reads(); }

  absl::Status Open(const EngineOptions& o) {
    lsm::StoreOptions options;
    // A level-aware spec gets its per-level bits from the store itself.
    options.filter = o.filter;
    options.level_allocation =
        o.hand_shaped_tree ? lsm::StoreOptions::LevelAllocation::kAssumedShape
                           : lsm::StoreOptions::LevelAllocation::kLiveTree;
    options.prefetch_filters = o.settings.prefetch_filters;
    SetTreeShape(o.settings, &options);
    options.target_file_size = o.settings.TargetFileBytes();
    // Only tables are read with O_DIRECT; the WAL and manifest are read
    // once, at Open.
    options.use_direct_reads = o.settings.use_direct_reads;
    options.create_if_missing = !o.use_existing;
    options.error_if_exists = !o.use_existing;
    absl::StatusOr<std::unique_ptr<lsm::Store>> store =
        lsm::Store::Open(o.dir, options);
    if (!store.ok()) return store.status();
    store_ = std::move(*store);
    return absl::OkStatus();
  }

  absl::Status Put(std::string_view key, std::string_view value) override {
    return store_->Put(key, value);
  }

  absl::Status PutBatch(const std::vector<std::string>& keys,
                        const std::vector<std::string_view>& values) override {
    lsm::WriteBatch batch;
    for (size_t i = 0; i < keys.size(); ++i) batch.Put(keys[i], values[i]);
    return store_->Write(batch);
  }

  absl::Status Get(std::string_view key, std::string* value,
                   bool* found) override {
    absl::StatusOr<std::optional<std::string>> result = store_->Get(key);
    if (!result.ok()) return result.status();
    *found = result->has_value();
    if (*found) *value = std::move(**result);
    return absl::OkStatus();
  }

  absl::Status MultiGet(const std::vector<std::string>& keys,
                        std::vector<bool>* found) override {
    const std::vector<std::string_view> views(keys.begin(), keys.end());
    std::vector<absl::StatusOr<std::optional<std::string>>> results =
        store_->MultiGet(views);
    found->resize(keys.size());
    for (size_t i = 0; i < results.size(); ++i) {
      if (!results[i].ok()) return results[i].status();
      (*found)[i] = results[i]->has_value();
    }
    return absl::OkStatus();
  }

  absl::Status FinishWrites() override { return store_->Flush(); }

  absl::Status CompactLevel0To(int level) override {
    return store_->CompactLevel0To(level);
  }
  absl::Status RewriteFilters() override {
    return absl::UnimplementedError(
        "the lsm engine cannot rewrite its files' filters");
  }

  lsm::LookupCounters GetCounters() override {
    return store_->GetStats().Lookups();
  }

  EngineCounters GetEngineCounters() override {
    const lsm::IoStats stats = store_->GetStats();
    EngineCounters counters;
    for (const auto& field : lsm::kLevelLookupStatFields) {
      counters.emplace_back(std::string(field.name), field.Value(stats.total));
    }
    for (const auto& field : lsm::kStoreStatFields) {
      counters.emplace_back(std::string(field.name), field.Value(stats));
    }
    return counters;
  }

  absl::StatusOr<EngineShape> GetShape() override {
    EngineShape shape;
    for (const lsm::FileInfo& f : store_->GetLiveFiles()) {
      FileInfo info;
      info.level = f.level;
      info.smallest_key = f.smallest_key;
      info.largest_key = f.largest_key;
      info.num_entries = f.num_entries;
      info.filter_bytes = f.filter_bytes;
      // Every entry's key went into the filter (the LSM adds each key of
      // the file once).
      info.filter_keys = f.filter_bytes > 0 ? f.num_entries : 0;
      if (f.filter_bytes > 0) info.predicted_fp_rate = f.predicted_fp_rate;
      shape.files.push_back(std::move(info));
    }
    lsm::IoStats stats = store_->GetStats();
    shape.filter_bytes = stats.total.filter_bytes;
    shape.filter_keys = stats.total.filter_keys;
    return shape;
  }

  std::string StatsText() override { return store_->GetStats().ToString(); }

  absl::Status Close() override {
    if (store_ == nullptr) return absl::OkStatus();
    absl::Status s = store_->Close();
    store_.reset();
    return s;
  }

  ~LsmEngine() override { Close().IgnoreError(); }

 private:
  std::unique_ptr<lsm::Store> store_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Engine>> OpenLsmEngine(
    const EngineOptions& options) {
  auto engine = std::make_unique<LsmEngine>();
  absl::Status s = engine->Open(options);
  if (!s.ok()) return s;
  return std::unique_ptr<Engine>(std::move(engine));
}

}  // namespace bloomgate::bench
