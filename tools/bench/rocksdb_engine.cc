// Copyright 2026 The bloomgate Authors.
//
// The RocksDB engine: RocksDB's public API only. Set up as a service using
// bloomgate would be: no block cache (unless --cache_size),
// every table reader kept open (max_open_files = -1) with its index and
// filter held in memory from open, no compression, statistics on.
//
// Counting: a lookup's I/Os are its data-block reads, PerfContext's
// block_read_count (thread-local, so exact per call). Filter checks come from
// the statistics tickers BLOOM_FILTER_USEFUL (negatives),
// BLOOM_FILTER_FULL_POSITIVE and BLOOM_FILTER_FULL_TRUE_POSITIVE. With
// EngineOptions::time_reads, PerfContext's block_read_time times them.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/cache.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/write_batch.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "tools/bench/engine.h"

namespace bloomgate::bench {
namespace {

absl::Status FromRocks(const rocksdb::Status& s, std::string_view what) {
  if (s.ok()) return absl::OkStatus();
  std::string message =
      absl::StrCat("rocksdb ", ToAbsl(what), ": ", s.ToString());
  if (s.IsNotFound()) return absl::NotFoundError(message);
  if (s.IsCorruption()) return absl::DataLossError(message);
  if (s.IsInvalidArgument()) return absl::InvalidArgumentError(message);
  if (s.IsIOError()) return absl::UnavailableError(message);
  return absl::InternalError(message);
}

// The table filter policy for `filter`, and for a level-aware bloomgate
// spec on a tree the engine shapes itself, the listener that tells the
// policy the live tree (CreateRocksDBLiveTreeFilter).
struct FilterPolicyAndListener {
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  std::shared_ptr<rocksdb::EventListener> listener;
};

absl::StatusOr<FilterPolicyAndListener> MakeFilter(const FilterSpec& filter,
                                                   bool hand_shaped_tree) {
  if (filter.family == FilterFamily::kBloomgate && filter.monkey &&
      !hand_shaped_tree) {
    absl::StatusOr<RocksDBLiveTreeFilter> live =
        CreateRocksDBLiveTreeFilter(filter);
    if (!live.ok()) return live.status();
    return FilterPolicyAndListener{live->policy, live->listener};
  }
  // A bloomgate policy reads num_levels and each file's level from RocksDB;
  // the level multiplier it cannot, so a level-aware spec carries it as its
  // fanout (FilterForRun).
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      CreateFilterPolicyForSpec(filter);
  if (!policy.ok()) return policy.status();
  return FilterPolicyAndListener{*policy, nullptr};
}

class RocksDBEngine final : public Engine {
 public:
  bool direct_reads() const override { return direct_reads_; }

  absl::Status Open(const EngineOptions& o) {
    filter_ = o.filter;
    direct_reads_ = o.settings.use_direct_reads;
    perf_level_ = o.time_reads ? rocksdb::PerfLevel::kEnableTimeExceptForMutex
                               : rocksdb::PerfLevel::kEnableCount;
    disable_auto_compactions_ = o.settings.disable_auto_compactions;
    wait_for_compactions_ = o.settings.wait_for_compactions;
    target_file_size_base_ = o.settings.target_file_size_base;
    absl::StatusOr<FilterPolicyAndListener> filter =
        MakeFilter(o.filter, o.hand_shaped_tree);
    if (!filter.ok()) return filter.status();
    listener_ = filter->listener;

    rocksdb::BlockBasedTableOptions table;
    table.filter_policy = filter->policy;
    table.block_size = 4096;
    // Index entries are the blocks' last keys. With RocksDB's default
    // shortened separators, an absent key between a block's last key and
    // the separator is sent to that block, then to the next one: two reads
    // in one file. Exact separators make a miss cost one read per file whose
    // range covers the key, like the LSM, so the counts mean the same.
    table.index_shortening =
        rocksdb::BlockBasedTableOptions::IndexShorteningMode::kNoShortening;
    // Filters and indexes live in the table readers, loaded when a file is
    // opened, never evicted: the "in-memory filter per file".
    table.cache_index_and_filter_blocks = false;
    if (o.settings.cache_size > 0) {
      table.block_cache =
          rocksdb::NewLRUCache(static_cast<size_t>(o.settings.cache_size));
    } else {
      table.no_block_cache = true;
    }

    rocksdb::Options options;
    options.create_if_missing = !o.use_existing;
    options.error_if_exists = !o.use_existing;
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    if (filter->listener != nullptr) {
      options.listeners.push_back(filter->listener);
    }
    options.compression = rocksdb::kNoCompression;
    options.max_open_files = -1;
    SetTreeShape(o.settings, &options);
    options.target_file_size_base = o.settings.TargetFileBytes();
    options.level_compaction_dynamic_level_bytes =
        o.settings.level_compaction_dynamic_level_bytes;
    options.max_background_jobs = 2;
    // As db_bench: direct reads for user reads only; flushes and
    // compactions keep the page cache.
    options.use_direct_reads = o.settings.use_direct_reads;
    options.use_direct_io_for_flush_and_compaction = false;
    statistics_ = rocksdb::CreateDBStatistics();
    // Tickers only: histograms and timers cost time on every Get.
    statistics_->set_stats_level(rocksdb::StatsLevel::kExceptHistogramOrTimers);
    options.statistics = statistics_;

    return FromRocks(rocksdb_compat::OpenDB(options, o.dir, &db_), "open");
  }

  absl::Status Put(std::string_view key, std::string_view value) override {
    absl::Status s = FromRocks(
        db_->Put(write_options_, ToSlice(key), ToSlice(value)), "put");
    if (s.ok() && wait_for_compactions_) WaitForBackgroundWork();
    return s;
  }

  absl::Status PutBatch(const std::vector<std::string>& keys,
                        const std::vector<std::string_view>& values) override {
    rocksdb::WriteBatch batch;
    for (size_t i = 0; i < keys.size(); ++i) {
      rocksdb::Status s = batch.Put(ToSlice(keys[i]), ToSlice(values[i]));
      if (!s.ok()) return FromRocks(s, "batch");
    }
    absl::Status s = FromRocks(db_->Write(write_options_, &batch), "write");
    if (s.ok() && wait_for_compactions_) WaitForBackgroundWork();
    return s;
  }

  absl::Status Get(std::string_view key, std::string* value,
                   bool* found) override {
    // Both are thread-local: set per call so any thread may call Get.
    rocksdb::SetPerfLevel(perf_level_);
    rocksdb::PerfContext* perf = rocksdb::get_perf_context();
    const uint64_t before = perf->block_read_count;
    const uint64_t nanos_before = perf->block_read_time;
    rocksdb::Status s = db_->Get(read_options_, ToSlice(key), value);
    const uint64_t reads = perf->block_read_count - before;
    *found = s.ok();
    (*found ? hit_reads_ : miss_reads_)
        .fetch_add(reads, std::memory_order_relaxed);
    if (reads > 0 && perf_level_ != rocksdb::PerfLevel::kEnableCount) {
      read_nanos_.fetch_add(perf->block_read_time - nanos_before,
                            std::memory_order_relaxed);
    }
    if (s.ok() || s.IsNotFound()) return absl::OkStatus();
    return FromRocks(s, "get");
  }

  absl::Status MultiGet(const std::vector<std::string>& keys,
                        std::vector<bool>* found) override {
    rocksdb::SetPerfLevel(perf_level_);
    rocksdb::PerfContext* perf = rocksdb::get_perf_context();
    const uint64_t before = perf->block_read_count;
    const uint64_t nanos_before = perf->block_read_time;
    std::vector<rocksdb::Slice> slices;
    slices.reserve(keys.size());
    for (const std::string& key : keys) slices.push_back(key);
    std::vector<rocksdb::PinnableSlice> values(keys.size());
    std::vector<rocksdb::Status> statuses(keys.size());
    multigets_.store(true, std::memory_order_relaxed);
    db_->MultiGet(read_options_, db_->DefaultColumnFamily(), keys.size(),
                  slices.data(), values.data(), statuses.data());
    const uint64_t reads = perf->block_read_count - before;
    found->resize(keys.size());
    bool all_found = true;
    for (size_t i = 0; i < keys.size(); ++i) {
      const rocksdb::Status& s = statuses[i];
      if (!s.ok() && !s.IsNotFound()) return FromRocks(s, "multiget");
      (*found)[i] = s.ok();
      all_found &= s.ok();
    }
    (all_found ? hit_reads_ : miss_reads_)
        .fetch_add(reads, std::memory_order_relaxed);
    if (reads > 0 && perf_level_ != rocksdb::PerfLevel::kEnableCount) {
      read_nanos_.fetch_add(perf->block_read_time - nanos_before,
                            std::memory_order_relaxed);
    }
    return absl::OkStatus();
  }

  absl::Status FinishWrites() override {
    rocksdb::FlushOptions flush;
    flush.wait = true;
    absl::Status s = FromRocks(db_->Flush(flush), "flush");
    if (!s.ok()) return s;
    WaitForBackgroundWork();
    return absl::OkStatus();
  }

  absl::Status CompactLevel0To(int level) override {
    rocksdb::FlushOptions flush;
    flush.wait = true;
    absl::Status s = FromRocks(db_->Flush(flush), "flush");
    if (!s.ok()) return s;
    rocksdb::ColumnFamilyMetaData meta;
    db_->GetColumnFamilyMetaData(&meta);
    if (level < 1 || static_cast<size_t>(level) >= meta.levels.size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "level ", level, " is not in [1, ", meta.levels.size() - 1, "]"));
    }
    for (int l = 1; l < level; ++l) {
      if (!meta.levels[l].files.empty()) {
        return absl::FailedPreconditionError(absl::StrCat(
            "cannot compact level 0 into level ", level, ": level ", l,
            " holds ", meta.levels[l].files.size(), " files"));
      }
    }
    std::vector<std::string> inputs;
    for (const rocksdb::SstFileMetaData& f : meta.levels[0].files) {
      inputs.push_back(f.name);
    }
    if (inputs.empty()) return absl::OkStatus();
    // CompactFiles writes the output at `level`, so the plug-in builds the
    // filters with that level's budget, like a compaction of its own would.
    rocksdb::CompactionOptions compaction;
    compaction.compression = rocksdb::kNoCompression;
    compaction.output_file_size_limit =
        static_cast<uint64_t>(target_file_size_base_);
    return FromRocks(db_->CompactFiles(compaction, inputs, level),
                     "compact files");
  }

  EngineCounters GetEngineCounters() override {
    EngineCounters counters;
    // Only those that moved: RocksDB keeps about 200.
    for (const auto& [ticker, name] : rocksdb::TickersNameMap) {
      if (const uint64_t count = statistics_->getTickerCount(ticker)) {
        counters.emplace_back(name, static_cast<double>(count));
      }
    }
    return counters;
  }

  lsm::LookupCounters GetCounters() override {
    lsm::LookupCounters c;
    c.filter_negatives =
        statistics_->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
    c.filter_positives =
        statistics_->getTickerCount(rocksdb::BLOOM_FILTER_FULL_POSITIVE);
    const uint64_t true_positives =
        statistics_->getTickerCount(rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE);
    c.false_positives =
        c.filter_positives - std::min(c.filter_positives, true_positives);
    c.filter_checks = c.filter_negatives + c.filter_positives;
    c.hit_reads = hit_reads_.load(std::memory_order_relaxed);
    c.miss_reads = miss_reads_.load(std::memory_order_relaxed);
    c.data_block_read_nanos = read_nanos_.load(std::memory_order_relaxed);
    c.read_nanos_known = perf_level_ != rocksdb::PerfLevel::kEnableCount;
    // With a filter, RocksDB checks it on every file whose range covers the
    // key, so checks count the files on the path. Without one, each such
    // file costs exactly one data-block read (index in memory, no cache) --
    // but not in a MultiGet, which reads a block once for every key of the
    // batch that needs it.
    if (filter_.family != FilterFamily::kNone) {
      c.files_on_path = c.filter_checks;
      c.files_on_path_known = true;
    } else if (no_cache_ && !multigets_.load(std::memory_order_relaxed)) {
      c.files_on_path = c.hit_reads + c.miss_reads;
      c.files_on_path_known = true;
    }
    return c;
  }

  absl::Status RewriteFilters() override {
    rocksdb::ColumnFamilyMetaData meta;
    db_->GetColumnFamilyMetaData(&meta);
    // No size limit: one output file per input, whatever its filter's size
    // (CompactionOptions' default), and never a trivial move.
    rocksdb::CompactionOptions compaction;
    compaction.compression = rocksdb::kNoCompression;
    int job = 0;
    for (const rocksdb::LevelMetaData& level : meta.levels) {
      for (const rocksdb::SstFileMetaData& file : level.files) {
        // RocksDB tells listeners nothing of CompactFiles: a level-aware
        // filter that follows the live tree is told here, as a compaction
        // of RocksDB's own would tell it.
        rocksdb::CompactionJobInfo info;
        info.cf_name = rocksdb::kDefaultColumnFamilyName;
        info.job_id = --job;  // apart from RocksDB's own jobs
        info.output_level = level.level;
        rocksdb::CompactionFileInfo input;
        input.level = level.level;
        input.file_number = file.file_number;
        info.input_file_infos.push_back(input);
        if (listener_ != nullptr) listener_->OnCompactionBegin(db_.get(), info);
        rocksdb::CompactionJobInfo done;
        absl::Status s =
            FromRocks(db_->CompactFiles(compaction, {file.name}, level.level,
                                        /*output_path_id=*/-1,
                                        /*output_file_names=*/nullptr, &done),
                      absl::StrCat("rewrite ", file.name));
        done.job_id = info.job_id;
        if (listener_ != nullptr) {
          listener_->OnCompactionCompleted(db_.get(), done);
        }
        if (!s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<EngineShape> GetShape() override {
    EngineShape shape;
    std::vector<rocksdb::LiveFileMetaData> files;
    db_->GetLiveFilesMetaData(&files);
    for (const rocksdb::LiveFileMetaData& f : files) {
      FileInfo info;
      info.level = f.level;
      info.smallest_key = f.smallestkey;
      info.largest_key = f.largestkey;
      info.num_entries = f.num_entries;
      shape.files.push_back(std::move(info));
    }
    rocksdb::TablePropertiesCollection props;
    absl::Status s =
        FromRocks(db_->GetPropertiesOfAllTables(&props), "table properties");
    if (!s.ok()) return s;
    for (const auto& [path, p] : props) {
      uint64_t keys = p->filter_size > 0 ? p->num_filter_entries : 0;
      shape.filter_bytes += p->filter_size;
      shape.filter_keys += keys;
      // Properties are keyed by path, live files by name ("/000012.sst").
      for (size_t i = 0; i < files.size(); ++i) {
        const std::string& name = files[i].name;
        if (path.size() >= name.size() &&
            path.compare(path.size() - name.size(), name.size(), name) == 0) {
          shape.files[i].filter_bytes = p->filter_size;
          shape.files[i].filter_keys = keys;
        }
      }
    }
    return shape;
  }

  std::string StatsText() override {
    std::string text;
    db_->GetProperty("rocksdb.levelstats", &text);
    return text;
  }

  absl::Status Close() override {
    if (db_ == nullptr) return absl::OkStatus();
    absl::Status s = FromRocks(db_->Close(), "close");
    db_.reset();
    return s;
  }

  ~RocksDBEngine() override { Close().IgnoreError(); }

  void set_no_cache(bool no_cache) { no_cache_ = no_cache; }

 private:
  // Polls until no flush or compaction is pending or running (RocksDB 7.8
  // has no WaitForCompact). "compaction-pending" stays 1 when auto
  // compactions are off and L0 is over its trigger, so it only counts when
  // they are on.
  void WaitForBackgroundWork() {
    for (;;) {
      uint64_t memtables = 0, pending = 0, running = 0, flushes = 0;
      db_->GetIntProperty("rocksdb.num-immutable-mem-table", &memtables);
      if (!disable_auto_compactions_) {
        db_->GetIntProperty("rocksdb.compaction-pending", &pending);
      }
      db_->GetIntProperty("rocksdb.num-running-compactions", &running);
      db_->GetIntProperty("rocksdb.num-running-flushes", &flushes);
      if (memtables == 0 && pending == 0 && running == 0 && flushes == 0) {
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }

  static rocksdb::Slice ToSlice(std::string_view s) {
    return rocksdb::Slice(s.data(), s.size());
  }

  FilterSpec filter_ = kNoFilter;
  bool direct_reads_ = false;
  rocksdb::PerfLevel perf_level_ = rocksdb::PerfLevel::kEnableCount;
  bool disable_auto_compactions_ = true;
  bool wait_for_compactions_ = false;
  int64_t target_file_size_base_ = 64 << 20;
  bool no_cache_ = true;
  std::atomic<bool> multigets_{false};  // MultiGet has been called
  std::shared_ptr<rocksdb::Statistics> statistics_;
  // The live-tree filter's, if the filter follows the live tree.
  std::shared_ptr<rocksdb::EventListener> listener_;
  std::unique_ptr<rocksdb::DB> db_;
  rocksdb::WriteOptions write_options_;
  rocksdb::ReadOptions read_options_;
  std::atomic<uint64_t> hit_reads_{0};
  std::atomic<uint64_t> miss_reads_{0};
  std::atomic<uint64_t> read_nanos_{0};
};

}  // namespace

absl::StatusOr<std::unique_ptr<Engine>> OpenRocksDBEngine(
    const EngineOptions& options) {
  // So that RocksDB can also read the policy back from the OPTIONS file it
  // writes (idempotent).
  RegisterRocksDBPlugin();
  auto engine = std::make_unique<RocksDBEngine>();
  engine->set_no_cache(options.settings.cache_size == 0);
  absl::Status s = engine->Open(options);
  if (!s.ok()) return s;
  return std::unique_ptr<Engine>(std::move(engine));
}

}  // namespace bloomgate::bench
