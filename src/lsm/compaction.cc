// Copyright 2026 The bloomgate Authors.

#include "src/lsm/compaction.h"

#include <memory>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "src/lsm/status_macros.h"

namespace bloomgate::lsm {
namespace {

// Concatenates the iterators of a run's tables.
class RunIterator {
 public:
  RunIterator(const std::vector<TablePtr>* tables, ReadCost* cost)
      : tables_(tables), cost_(cost) {}

  absl::Status Init() { return Open(0); }
  bool Valid() const { return it_.has_value() && it_->Valid(); }
  const BlockEntry& entry() const { return it_->entry(); }
  absl::Status Next() {
    BLOOMGATE_LSM_RETURN_IF_ERROR(it_->Next());
    if (!it_->Valid()) return Open(index_ + 1);
    return absl::OkStatus();
  }

 private:
  absl::Status Open(size_t i) {
    it_.reset();
    for (; i < tables_->size(); ++i) {
      it_.emplace((*tables_)[i], cost_);
      index_ = i;
      BLOOMGATE_LSM_RETURN_IF_ERROR(it_->SeekToFirst());
      if (it_->Valid()) return absl::OkStatus();
    }
    it_.reset();
    return absl::OkStatus();
  }

  const std::vector<TablePtr>* tables_;
  ReadCost* cost_;
  std::optional<TableIterator> it_;
  size_t index_ = 0;
};

}  // namespace

absl::Status MergeRuns(const std::vector<std::vector<TablePtr>>& runs,
                       bool drop_tombstones, ReadCost* cost,
                       const EmitFn& emit) {
  std::vector<std::unique_ptr<RunIterator>> its;
  for (const auto& run : runs) {
    its.push_back(std::make_unique<RunIterator>(&run, cost));
    BLOOMGATE_LSM_RETURN_IF_ERROR(its.back()->Init());
  }
  std::string key;
  for (;;) {
    // The smallest current key; among equal keys the newest run wins. The
    // number of runs is small (level-0 files plus two), so a linear scan
    // beats a heap.
    int winner = -1;
    for (size_t i = 0; i < its.size(); ++i) {
      if (!its[i]->Valid()) continue;
      if (winner < 0 || its[i]->entry().key < its[winner]->entry().key) {
        winner = static_cast<int>(i);
      }
    }
    if (winner < 0) return absl::OkStatus();
    key.assign(its[winner]->entry().key);
    const BlockEntry& e = its[winner]->entry();
    if (!(drop_tombstones && e.type == ValueType::kDeletion)) {
      BLOOMGATE_LSM_RETURN_IF_ERROR(emit(key, e.type, e.value));
    }
    for (auto& it : its) {
      if (it->Valid() && it->entry().key == key) {
        BLOOMGATE_LSM_RETURN_IF_ERROR(it->Next());
      }
    }
  }
}

}  // namespace bloomgate::lsm
