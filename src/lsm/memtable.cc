// Copyright 2026 The bloomgate Authors.

#include "src/lsm/memtable.h"

namespace bloomgate::lsm {
namespace {

// Roughly a std::map node and a std::string header.
constexpr size_t kEntryOverhead = 64;

class Inserter final : public WriteBatch::Handler {
 public:
  explicit Inserter(
      std::function<void(std::string_view, ValueType, std::string_view)> add)
      : add_(std::move(add)) {}
  void Put(std::string_view key, std::string_view value) override {
    add_(key, ValueType::kValue, value);
  }
  void Delete(std::string_view key) override {
    add_(key, ValueType::kDeletion, {});
  }

 private:
  std::function<void(std::string_view, ValueType, std::string_view)> add_;
};

}  // namespace

void MemTable::Apply(const WriteBatch& batch) {
  MutexLock l(&mu_);
  Inserter inserter([this](std::string_view k, ValueType t, std::string_view v)
                        ABSL_NO_THREAD_SAFETY_ANALYSIS { AddLocked(k, t, v); });
  // The batch was validated before it reached the WAL.
  (void)batch.Iterate(inserter);
}

void MemTable::Add(std::string_view key, ValueType type,
                   std::string_view value) {
  MutexLock l(&mu_);
  AddLocked(key, type, value);
}

void MemTable::AddLocked(std::string_view key, ValueType type,
                         std::string_view value) {
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    entries_.emplace(std::string(key), Entry{type, std::string(value)});
    bytes_ += key.size() + value.size() + kEntryOverhead;
  } else {
    bytes_ += value.size();
    bytes_ -= it->second.value.size();
    it->second.type = type;
    it->second.value.assign(value);
  }
}

MemTable::Lookup MemTable::Get(std::string_view key, std::string* value) const {
  ReaderMutexLock l(&mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return Lookup::kNotPresent;
  if (it->second.type == ValueType::kDeletion) return Lookup::kDeleted;
  value->assign(it->second.value);
  return Lookup::kFound;
}

}  // namespace bloomgate::lsm
