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
//
// The list of counters: every field below is also a row of one of three
// tables (kLevelLookupStatFields, kLevelShapeStatFields, kStoreStatFields;
// LookupCounters, derived from them, has kLookupCounterFields)
// giving its name, a one-line description and a pointer to the field. The
// store sums, resets, copies and prints the counters by walking the tables,
// and a caller can emit every counter the same way (the values are all
// uint64_t but one, predicted_false_positives, a double sum). Adding a
// counter is a field, its row, and the line that counts it; the build
// fails (a static_assert on the structs' sizes) if a field has no row.

#ifndef BLOOMGATE_LSM_STATS_H_
#define BLOOMGATE_LSM_STATS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bloomgate::lsm {

// What Gets did at one level (cleared by Store::ResetStats). One Get counts
// into one of these per level while it runs, and adds them to the store's
// once at the end.
struct LevelLookupStats {
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
};

// What Gets did at one level (or, in IoStats::total, at all levels), plus the
// level's current shape.
struct LevelStats : LevelLookupStats {
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

  // Adds every counter and shape field of `other` (kLevelLookupStatFields and
  // kLevelShapeStatFields).
  LevelStats& operator+=(const LevelStats& other);

  // Observed and predicted false-positive rate over the filter checks of
  // files that did not hold the key; 0 when there were none.
  double ObservedFpRate() const;
  double PredictedFpRate() const;
};

// The store-wide counters (all cleared by Store::ResetStats).
struct StoreStats {
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

  // Reads outside the Get path:
  // footer and metadata blocks of tables being opened (two reads per table);
  // data blocks of compaction inputs (a flush writes from memory and reads
  // nothing); the manifest and WAL files read by Open.
  uint64_t table_open_reads = 0;
  uint64_t table_open_bytes = 0;
  uint64_t compaction_reads = 0;
  uint64_t compaction_bytes = 0;
  uint64_t recovery_reads = 0;
  uint64_t recovery_bytes = 0;

  // Writes.
  uint64_t flushes = 0;
  uint64_t compactions = 0;
  uint64_t wal_bytes = 0;
  uint64_t table_bytes_written = 0;
};

// What lookups cost, over all levels, in the terms any LSM engine can
// report (RocksDB's tickers give the same; bloomgate_bench compares the
// two): the files the lookups met, their filters' answers and the
// data-block reads they made. IoStats::Lookups() derives them from the
// store's counters. Cumulative, or what a span of lookups added (Since).
// The counters come first, every one a row of kLookupCounterFields; then
// what the engine can count at all.
struct LookupCounters {
  // Files whose key range covered a looked-up key and which the search
  // reached: the data-block reads a filterless engine would have done
  // (files_considered - skipped_by_range). Not every engine can count
  // them without a filter (files_on_path_known).
  uint64_t files_on_path = 0;
  uint64_t filter_checks = 0;
  uint64_t filter_negatives = 0;  // files skipped by the filter: I/Os avoided
  uint64_t filter_positives = 0;
  // ... for a file that did not hold the key.
  uint64_t false_positives = 0;
  // Data-block reads by lookups, split by how the lookup ended: found a
  // value (hit) or not (miss).
  uint64_t hit_reads = 0;
  uint64_t miss_reads = 0;
  // Wall time of those reads, in nanoseconds, when read_nanos_known.
  uint64_t data_block_read_nanos = 0;

  // Whether files_on_path and data_block_read_nanos are counted (else they
  // stay 0).
  bool files_on_path_known = false;
  bool read_nanos_known = false;

  // this - before, counter by counter; what can be counted is this one's.
  LookupCounters Since(const LookupCounters& before) const;
};

struct IoStats : StoreStats {
  // One entry per level, 0 .. num_levels-1, and their sum.
  std::vector<LevelStats> levels;
  LevelStats total;
  // The filters' memory budget (StoreOptions::filter's
  // memory_budget_bytes), 0 for none; total.filter_bytes is what they take.
  uint64_t filter_budget_bytes = 0;

  double ReadsPerHit() const;
  double ReadsPerMiss() const;
  // The lookup counters over all levels, every one known.
  LookupCounters Lookups() const;

  // A human-readable multi-line table: one line per non-empty level and a
  // total line.
  std::string ToString() const;
};

// One row of a table of counters: a field of `Stats`, by name. Exactly one
// of `count` and `sum` is set.
template <typename Stats>
struct StatField {
  constexpr StatField(std::string_view name, uint64_t Stats::*count,
                      std::string_view column, std::string_view description)
      : name(name), description(description), column(column), count(count) {}
  constexpr StatField(std::string_view name, double Stats::*sum,
                      std::string_view column, std::string_view description)
      : name(name), description(description), column(column), sum(sum) {}

  // The field's own name (snake_case), for machine-readable output.
  std::string_view name;
  std::string_view description;
  // Its column header in IoStats::ToString's per-level table (lookup
  // counters only); empty if the table leaves it out.
  std::string_view column;
  uint64_t Stats::*count = nullptr;  // an integer count, or
  double Stats::*sum = nullptr;      // a real-valued sum

  // The value in `s` (exact for counts below 2^53).
  constexpr double Value(const Stats& s) const {
    return count != nullptr ? static_cast<double>(s.*count) : s.*sum;
  }
  // to += from, for this field.
  constexpr void Add(const Stats& from, Stats& to) const {
    if (count != nullptr) {
      to.*count += from.*count;
    } else {
      to.*sum += from.*sum;
    }
  }
};

// The counters of LevelLookupStats: per level, counted by Get and MultiGet.
// They apply to a LevelStats too (IoStats::levels and IoStats::total).
inline constexpr StatField<LevelLookupStats> kLevelLookupStatFields[] = {
    {"files_considered", &LevelLookupStats::files_considered, "considered",
     "files whose key range a Get compared with the key"},
    {"skipped_by_range", &LevelLookupStats::skipped_by_range, "range-skip",
     "files considered whose key range excluded the key"},
    {"filter_checks", &LevelLookupStats::filter_checks, "checks",
     "files in range whose filter was queried"},
    {"filter_negatives", &LevelLookupStats::filter_negatives, "negatives",
     "filter answers \"certainly not here\" (a read avoided)"},
    {"filter_positives", &LevelLookupStats::filter_positives, "positives",
     "filter answers \"may be here\""},
    {"false_positives", &LevelLookupStats::false_positives, "false-pos",
     "filter positives whose data block did not hold the key"},
    {"predicted_false_positives", &LevelLookupStats::predicted_false_positives,
     "", "sum of predicted FP rates over checks of files without the key"},
    {"data_block_reads", &LevelLookupStats::data_block_reads, "reads",
     "read system calls for data blocks by Gets"},
    {"data_block_bytes", &LevelLookupStats::data_block_bytes, "",
     "bytes those reads returned"},
    {"data_block_read_nanos", &LevelLookupStats::data_block_read_nanos, "",
     "wall time of those reads, in nanoseconds"},
};

// The shape of a level, a snapshot taken by Store::GetStats.
inline constexpr StatField<LevelStats> kLevelShapeStatFields[] = {
    {"num_files", &LevelStats::num_files, "", "live table files"},
    {"file_bytes", &LevelStats::file_bytes, "", "bytes of those files"},
    {"num_entries", &LevelStats::num_entries, "",
     "entries (values and tombstones) in those files"},
    {"filter_bytes", &LevelStats::filter_bytes, "",
     "bytes of filter blocks held in memory"},
    {"filter_keys", &LevelStats::filter_keys, "",
     "keys those filters were built over"},
    {"degraded_filters", &LevelStats::degraded_filters, "",
     "files whose filter failed validation and matches every key"},
};

// The store-wide counters.
inline constexpr StatField<StoreStats> kStoreStatFields[] = {
    {"gets", &StoreStats::gets, "", "Gets (MultiGet counts one per key)"},
    {"hits", &StoreStats::hits, "", "Gets that found a value"},
    {"misses", &StoreStats::misses, "",
     "Gets that found nothing or a tombstone"},
    {"memtable_hits", &StoreStats::memtable_hits, "",
     "Gets that ended in a memtable"},
    {"hit_reads", &StoreStats::hit_reads, "",
     "data-block reads by Gets that hit"},
    {"miss_reads", &StoreStats::miss_reads, "",
     "data-block reads by Gets that missed"},
    {"table_open_reads", &StoreStats::table_open_reads, "",
     "reads of footers and metadata blocks by table opens"},
    {"table_open_bytes", &StoreStats::table_open_bytes, "",
     "bytes those reads returned"},
    {"compaction_reads", &StoreStats::compaction_reads, "",
     "reads of compaction inputs"},
    {"compaction_bytes", &StoreStats::compaction_bytes, "",
     "bytes those reads returned"},
    {"recovery_reads", &StoreStats::recovery_reads, "",
     "reads of the manifest and WALs by Open"},
    {"recovery_bytes", &StoreStats::recovery_bytes, "",
     "bytes those reads returned"},
    {"flushes", &StoreStats::flushes, "", "memtables written to level 0"},
    {"compactions", &StoreStats::compactions, "",
     "compactions that wrote tables"},
    {"wal_bytes", &StoreStats::wal_bytes, "", "bytes appended to WALs"},
    {"table_bytes_written", &StoreStats::table_bytes_written, "",
     "bytes of tables written by flushes and compactions"},
};

// The counters of LookupCounters.
inline constexpr StatField<LookupCounters> kLookupCounterFields[] = {
    {"files_on_path", &LookupCounters::files_on_path, "",
     "files on the lookup path: a filterless engine's reads"},
    {"filter_checks", &LookupCounters::filter_checks, "",
     "files whose filter was queried"},
    {"filter_negatives", &LookupCounters::filter_negatives, "",
     "filter answers \"certainly not here\""},
    {"filter_positives", &LookupCounters::filter_positives, "",
     "filter answers \"may be here\""},
    {"false_positives", &LookupCounters::false_positives, "",
     "filter positives for a file not holding the key"},
    {"hit_reads", &LookupCounters::hit_reads, "",
     "data-block reads by lookups that found a value"},
    {"miss_reads", &LookupCounters::miss_reads, "",
     "data-block reads by lookups that found none"},
    {"data_block_read_nanos", &LookupCounters::data_block_read_nanos, "",
     "wall time of those reads, in nanoseconds"},
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_LSM_STATS_H_
