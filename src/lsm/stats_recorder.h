// Copyright 2026 The bloomgate Authors.
//
// Where the store's counters live: the public stats structs, updated with
// relaxed atomic operations (std::atomic_ref), added once per Get from a
// per-Get tally so that a lookup touching many files costs a few atomic
// adds per level, not per file. Which fields exist, and how they are
// summed, copied and cleared, comes from the tables in bloomgate/lsm/stats.h;
// the Record* functions are where each counter is counted.

#ifndef BLOOMGATE_SRC_LSM_STATS_RECORDER_H_
#define BLOOMGATE_SRC_LSM_STATS_RECORDER_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "bloomgate/lsm/stats.h"
#include "src/lsm/file.h"

namespace bloomgate::lsm {

inline constexpr int kMaxLevels = 16;

// One Get's counts at one level.
using GetTally = LevelLookupStats;

class StatsRecorder {
 public:
  explicit StatsRecorder(int num_levels);

  // Adds one Get: tallies for levels [0, num_levels), how it ended, and
  // whether it ended in a memtable.
  void RecordGet(const GetTally* tallies, int levels_touched, bool hit,
                 bool memtable);
  void RecordTableOpen(const ReadCost& c) {
    Add(store_.table_open_reads, c.syscalls);
    Add(store_.table_open_bytes, c.bytes);
  }
  void RecordCompaction(const ReadCost& c, uint64_t bytes_written) {
    Add(store_.compaction_reads, c.syscalls);
    Add(store_.compaction_bytes, c.bytes);
    Add(store_.compactions, 1);
    Add(store_.table_bytes_written, bytes_written);
  }
  void RecordRecovery(const ReadCost& c) {
    Add(store_.recovery_reads, c.syscalls);
    Add(store_.recovery_bytes, c.bytes);
  }
  void RecordFlush(uint64_t bytes_written) {
    Add(store_.flushes, 1);
    Add(store_.table_bytes_written, bytes_written);
  }
  void RecordWal(uint64_t bytes) { Add(store_.wal_bytes, bytes); }

  // Fills the counter fields of *out (levels must already be sized).
  void Fill(IoStats* out) const;
  void Reset();

 private:
  // A cache line (or two) per level, so that Gets counting at different
  // levels do not share lines.
  struct alignas(64) Level {
    LevelLookupStats counts;
  };
  template <typename T>
  static void Add(T& counter, T v) {
    if (v != 0) std::atomic_ref<T>(counter).fetch_add(v, kOrder);
  }
  static void Add(uint64_t& counter, int v) {
    Add(counter, static_cast<uint64_t>(v));
  }

  static constexpr std::memory_order kOrder = std::memory_order_relaxed;
  const int num_levels_;
  std::unique_ptr<Level[]> levels_;
  // Mutable: Fill, a const reader, reads it through std::atomic_ref, which
  // needs a non-const object.
  alignas(64) mutable StoreStats store_;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_STATS_RECORDER_H_
