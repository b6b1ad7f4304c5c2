// Copyright 2026 The bloomgate Authors.
//
// I/O statistics of a bloomgate::lsm::Store: what every lookup looked at and
// every read the store issued, in total and per level.
//
// Counting contract: every read system call the store makes (pread64 on an
// SSTable, read on a WAL or the manifest) is counted exactly once, in exactly
// one of the categories below. In particular `data_block_reads` is the number
// of pread64 calls the Get path issued, so for a run of Gets on one thread it
// equals the change in the thread's `syscr` (/proc/thread-self/io); a test
// checks this. Nothing is read lazily on the Get path except data blocks: a
// table's footer, index and filter are read once when the table is opened.

#ifndef BLOOMGATE_LSM_STATS_H_
#define BLOOMGATE_LSM_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace bloomgate::lsm {

// What Gets did at one level (or, in IoStats::total, at all levels), plus the
// level's current shape.
struct LevelStats {
  // --- Lookup path counters (Get only; cleared by Store::ResetStats). ---

  // Files whose key range a Get compared with the key: every level-0 file
  // on the way, and at a deeper level the one file binary search picks (a
  // key past the level's last key counts as one file considered and
  // skipped). considered - skipped_by_range is the number of reads a store
  // without filters would have made.
  uint64_t files_considered = 0;
  // ... of which the key lay outside [smallest, largest]: no filter check,
  // no read.
  uint64_t skipped_by_range = 0;
  // Files in range whose filter was queried. Files written without a filter
  // are in range but not checked: each costs a data-block read.
  uint64_t filter_checks = 0;
  // The filter said "certainly not here": one data-block read avoided.
  uint64_t filter_negatives = 0;
  // The filter said "may be here" (includes degraded filters, which match
  // everything).
  uint64_t filter_positives = 0;
  // ... and the data block showed the key was not in the file.
  uint64_t false_positives = 0;
  // Sum, over the filter checks of files that did not hold the key
  // (filter_negatives + false_positives of them), of each file's predicted
  // false-positive rate (bloomgate::PredictedFpRate with the filter's own
  // bits/key and probes). The expected value of false_positives.
  double predicted_false_positives = 0;
  // Data blocks read by Gets: read system calls and the bytes they returned
  // (with direct I/O, the aligned bytes actually transferred).
  uint64_t data_block_reads = 0;
  uint64_t data_block_bytes = 0;
  // Wall time those system calls took, in nanoseconds: with direct I/O the
  // device's read latency, otherwise mostly the page cache's copy.
  uint64_t data_block_read_nanos = 0;

  // --- Shape (a snapshot taken by GetStats; not cleared by ResetStats). ---

  uint64_t num_files = 0;
  uint64_t file_bytes = 0;
  uint64_t num_entries = 0;  // entries (values and tombstones) in the files
  // Filter blocks held in memory: bytes and the keys they were built over.
  uint64_t filter_bytes = 0;
  uint64_t filter_keys = 0;
  // Files whose filter block failed validation and match every key
  // (Store::GetLiveFiles says why).
  uint64_t degraded_filters = 0;

  // Observed and predicted false-positive rate over the filter checks of
  // files that did not hold the key; 0 when there were none.
  double ObservedFpRate() const;
  double PredictedFpRate() const;
};

struct IoStats {
  // One entry per level, 0 .. num_levels-1, and their sum.
  std::vector<LevelStats> levels;
  LevelStats total;

  // Gets, and how they ended: `hits` found a value, `misses` found nothing
  // or a tombstone. `memtable_hits` ended in a memtable (value or tombstone)
  // without touching a file.
  uint64_t gets = 0;
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t memtable_hits = 0;
  // Data-block reads issued by Gets that hit and by Gets that missed
  // (hit_reads + miss_reads == total.data_block_reads).
  uint64_t hit_reads = 0;
  uint64_t miss_reads = 0;

  // Reads outside the Get path (cleared by ResetStats as well):
  // footer and metadata blocks of tables being opened (two reads per table);
  // data blocks of compaction inputs (a flush writes from memory and reads
  // nothing); the manifest and WAL files read by Open.
  uint64_t table_open_reads = 0;
  uint64_t table_open_bytes = 0;
  uint64_t compaction_reads = 0;
  uint64_t compaction_bytes = 0;
  uint64_t recovery_reads = 0;
  uint64_t recovery_bytes = 0;

  // Writes (cleared by ResetStats).
  uint64_t flushes = 0;
  uint64_t compactions = 0;
  uint64_t wal_bytes = 0;
  uint64_t table_bytes_written = 0;

  double ReadsPerHit() const;
  double ReadsPerMiss() const;

  // A human-readable multi-line table: one line per non-empty level and a
  // total line.
  std::string ToString() const;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_LSM_STATS_H_
