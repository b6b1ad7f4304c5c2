// Copyright 2026 The bloomgate Authors.
//
// Where the store's counters live: relaxed atomics, added once per Get from
// a per-Get tally so that a lookup touching many files costs a few atomic
// adds per level, not per file.

#ifndef BLOOMGATE_SRC_LSM_STATS_RECORDER_H_
#define BLOOMGATE_SRC_LSM_STATS_RECORDER_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "bloomgate/lsm/stats.h"
#include "lsm/file.h"

namespace bloomgate::lsm {

inline constexpr int kMaxLevels = 16;

// One Get's counts at one level.
struct GetTally {
  uint32_t files_considered = 0;
  uint32_t skipped_by_range = 0;
  uint32_t filter_checks = 0;
  uint32_t filter_negatives = 0;
  uint32_t filter_positives = 0;
  uint32_t false_positives = 0;
  double predicted_false_positives = 0;
  uint64_t data_block_reads = 0;
  uint64_t data_block_bytes = 0;
  uint64_t data_block_read_nanos = 0;
};

class StatsRecorder {
 public:
  explicit StatsRecorder(int num_levels);

  // Adds one Get: tallies for levels [0, num_levels), how it ended, and
  // whether it ended in a memtable.
  void RecordGet(const GetTally* tallies, int levels_touched, bool hit,
                 bool memtable);
  void RecordTableOpen(const ReadCost& c) {
    Add(table_open_reads_, c.syscalls);
    Add(table_open_bytes_, c.bytes);
  }
  void RecordCompaction(const ReadCost& c, uint64_t bytes_written) {
    Add(compaction_reads_, c.syscalls);
    Add(compaction_bytes_, c.bytes);
    Add(compactions_, 1);
    Add(table_bytes_written_, bytes_written);
  }
  void RecordRecovery(const ReadCost& c) {
    Add(recovery_reads_, c.syscalls);
    Add(recovery_bytes_, c.bytes);
  }
  void RecordFlush(uint64_t bytes_written) {
    Add(flushes_, 1);
    Add(table_bytes_written_, bytes_written);
  }
  void RecordWal(uint64_t bytes) { Add(wal_bytes_, bytes); }

  // Fills the counter fields of *out (levels must already be sized).
  void Fill(IoStats* out) const;
  void Reset();

 private:
  struct alignas(64) Level {
    std::atomic<uint64_t> files_considered{0}, skipped_by_range{0},
        filter_checks{0}, filter_negatives{0}, filter_positives{0},
        false_positives{0}, data_block_reads{0}, data_block_bytes{0},
        data_block_read_nanos{0};
    std::atomic<double> predicted_false_positives{0};
  };
  static void Add(std::atomic<uint64_t>& c, uint64_t v) {
    if (v != 0) c.fetch_add(v, std::memory_order_relaxed);
  }

  const int num_levels_;
  std::unique_ptr<Level[]> levels_;
  alignas(64) std::atomic<uint64_t> gets_{0}, hits_{0}, misses_{0},
      memtable_hits_{0}, hit_reads_{0}, miss_reads_{0};
  alignas(64) std::atomic<uint64_t> table_open_reads_{0}, table_open_bytes_{0},
      compaction_reads_{0}, compaction_bytes_{0}, recovery_reads_{0},
      recovery_bytes_{0}, flushes_{0}, compactions_{0}, wal_bytes_{0},
      table_bytes_written_{0};
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_STATS_RECORDER_H_
