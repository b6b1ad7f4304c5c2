// Copyright 2026 The bloomgate Authors.
//
// The one interface through which the tool drives a storage engine, so that
// the same workload runs on RocksDB and on bloomgate's miniature LSM and the
// two report the same quantities (docs/evaluation.md says how each engine
// counts them).

#ifndef BLOOMGATE_TOOLS_BENCH_ENGINE_H_
#define BLOOMGATE_TOOLS_BENCH_ENGINE_H_

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomgate/lsm/stats.h"
#include "tools/bench/bench_options.h"
#include "tools/bench/engine_settings.h"

namespace bloomgate::bench {

// One engine's database: the run's settings and what differs per engine and
// filter.
struct EngineOptions {
  EngineSettings settings;
  std::string dir;  // the engine's own folder
  bool use_existing = false;
  // The filter new files get, with its bits per key (FilterForRun).
  FilterSpec filter = kNoFilter;
  // The run loads the tree level by level into the shape a level-aware
  // filter assumes (filllevels): both engines then allocate for that shape,
  // not from the live tree, which is still growing while the levels are
  // loaded deepest first.
  bool hand_shaped_tree = false;
  // Time every data-block read of a lookup
  // (lsm::LookupCounters::data_block_read_nanos). The LSM always does (two
  // clock reads per read system call); RocksDB only with this, as its
  // PerfContext timers cost every Get.
  bool time_reads = false;
};

// Named counters, in the engine's order.
using EngineCounters = std::vector<std::pair<std::string, double>>;

// after - before, counter by counter (by name; a counter missing from
// `before` counts from 0).
EngineCounters CounterDelta(const EngineCounters& before,
                            const EngineCounters& after);

// One live SST file, its fields named as bloomgate::lsm::FileInfo names
// them, of both engines.
struct FileInfo {
  int level = 0;
  std::string smallest_key;  // user keys
  std::string largest_key;
  uint64_t num_entries = 0;
  uint64_t filter_bytes = 0;  // 0: no filter
  uint64_t filter_keys = 0;   // keys the filter was built over
  // The FP rate the engine predicts for this file's filter, when it knows
  // it (the LSM reads it from each filter); NaN: from the run's FilterSpec.
  double predicted_fp_rate = std::numeric_limits<double>::quiet_NaN();
};

// The files a lookup may visit and what their filters cost.
struct EngineShape {
  std::vector<FileInfo> files;
  uint64_t filter_bytes = 0;  // filter memory over all live files
  uint64_t filter_keys = 0;   // keys those filters were built for
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Whether the data-block reads of lookups bypass the page cache.
  virtual bool direct_reads() const = 0;

  virtual absl::Status Put(std::string_view key, std::string_view value) = 0;
  // Writes keys[i] = values[i] for every i as one atomic batch (one WAL
  // record). keys.size() == values.size().
  virtual absl::Status PutBatch(
      const std::vector<std::string>& keys,
      const std::vector<std::string_view>& values) = 0;
  // Looks `key` up; *found tells whether it has a value. Safe to call from
  // several threads at once.
  virtual absl::Status Get(std::string_view key, std::string* value,
                           bool* found) = 0;
  // Looks every key up in one batched call (the LSM's Store::MultiGet,
  // RocksDB's DB::MultiGet); (*found)[i] tells whether keys[i] has a value.
  // The data-block reads of a batch count as miss reads unless every key was
  // found (multireadmissing looks up absent keys only). RocksDB reads a data
  // block once for all the keys of a batch that need it, so its reads may be
  // fewer than its filters' false positives. Safe to call from several
  // threads at once.
  virtual absl::Status MultiGet(const std::vector<std::string>& keys,
                                std::vector<bool>* found) = 0;
  // Makes every write visible in files: flushes the memtable and waits for
  // any compaction the flush started.
  virtual absl::Status FinishWrites() = 0;
  // Flushes, then compacts every level-0 file (with any file already at
  // `level`) into `level`, writing filters with `level`'s budget: how
  // filllevels puts each level of its tree where the allocation expects it.
  // FailedPrecondition if a level between 0 and `level` holds files.
  virtual absl::Status CompactLevel0To(int level) = 0;
  // Rewrites every live file on its own into its own level, so that it gets
  // the engine's filter: a tree grown once can then be measured with each
  // filter (--same_tree). The files keep their levels, key ranges and
  // entries. Open with auto compactions off. Unimplemented where the engine
  // cannot (the LSM, whose trees repeat exactly anyway).
  virtual absl::Status RewriteFilters() = 0;

  // The lookup counters (bloomgate/lsm/stats.h), cumulative since the engine
  // was opened.
  virtual lsm::LookupCounters GetCounters() = 0;
  // Every counter the engine itself keeps, by its own names, cumulative
  // since it was opened: the LSM's statistics tables (bloomgate/lsm/stats.h:
  // the lookup counters over all levels, then the store-wide ones), RocksDB's
  // tickers (TickersNameMap) that are not 0. A counter added there reaches
  // the tool's JSON through this, with no edit here.
  virtual EngineCounters GetEngineCounters() = 0;
  virtual absl::StatusOr<EngineShape> GetShape() = 0;
  // The engine's own statistics, for the stats benchmark.
  virtual std::string StatsText() = 0;

  virtual absl::Status Close() = 0;
};

// Opens (or creates) an engine of `kind` with options.filter, which
// EngineSupports(kind, options.filter) must allow.
absl::StatusOr<std::unique_ptr<Engine>> OpenEngine(
    EngineKind kind, const EngineOptions& options);

absl::StatusOr<std::unique_ptr<Engine>> OpenRocksDBEngine(
    const EngineOptions& options);
absl::StatusOr<std::unique_ptr<Engine>> OpenLsmEngine(
    const EngineOptions& options);

// Whether `file`'s key range covers `key`: whether a lookup of an absent
// key visits it when nothing but key ranges filters the files.
bool Covers(const FileInfo& file, std::string_view key);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_ENGINE_H_
