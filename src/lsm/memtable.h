// Copyright 2026 The bloomgate Authors.
//
// The in-memory write buffer: the latest update of each key since the last
// flush.

#ifndef BLOOMGATE_SRC_LSM_MEMTABLE_H_
#define BLOOMGATE_SRC_LSM_MEMTABLE_H_

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "bloomgate/lsm/write_batch.h"
#include "src/lsm/format.h"
#include "src/lsm/mutex.h"

namespace bloomgate::lsm {

// One writer and any number of readers may use it concurrently. A batch is
// applied under one lock, so readers see all of it or none of it. Once a
// memtable is being flushed nobody writes to it any more.
class MemTable {
 public:
  struct Entry {
    ValueType type;
    std::string value;
  };

  void Apply(const WriteBatch& batch);
  // Applies one update (recovery and tests).
  void Add(std::string_view key, ValueType type, std::string_view value);

  enum class Lookup { kNotPresent, kFound, kDeleted };
  Lookup Get(std::string_view key, std::string* value) const;

  // Keys, values and a per-entry overhead, in bytes.
  size_t ApproximateBytes() const {
    ReaderMutexLock l(&mu_);
    return bytes_;
  }
  bool empty() const {
    ReaderMutexLock l(&mu_);
    return entries_.empty();
  }
  size_t num_entries() const {
    ReaderMutexLock l(&mu_);
    return entries_.size();
  }
  // The first and last key; only for a non-empty memtable that no longer
  // changes.
  std::string_view SmallestFrozen() const ABSL_NO_THREAD_SAFETY_ANALYSIS {
    return entries_.begin()->first;
  }
  std::string_view LargestFrozen() const ABSL_NO_THREAD_SAFETY_ANALYSIS {
    return entries_.rbegin()->first;
  }
  // Calls `fn` for every entry in key order. Only for a memtable that no
  // longer changes.
  template <typename Fn>
  void ForEachFrozen(Fn&& fn) const ABSL_NO_THREAD_SAFETY_ANALYSIS {
    for (const auto& [key, entry] : entries_) fn(key, entry);
  }

 private:
  void AddLocked(std::string_view key, ValueType type, std::string_view value)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable Mutex mu_;
  std::map<std::string, Entry, std::less<>> entries_ ABSL_GUARDED_BY(mu_);
  size_t bytes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_MEMTABLE_H_
