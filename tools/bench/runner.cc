// Copyright 2026 The bloomgate Authors.

#include "runner.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "bloomgate/allocation.h"
#include "engine.h"
#include "fp_model.h"
#include "monkey.h"
#include "progress.h"
#include "report.h"
#include "scratch_dir.h"
#include "src/filter/absl_compat.h"
#include "src/rocksdb/spec_filter_policy.h"
#include "workload.h"

namespace bloomgate::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using Clock = std::chrono::steady_clock;

double Ratio(double num, double den) { return den > 0 ? num / den : kNaN; }

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// The filter of `filters` of the same kind as `kind`, or end().
// The filter of `filters` of the same kind as `kind` that runs at the run's
// memory (not its own parameter), or end().
std::vector<FilterArg>::const_iterator FindFilter(
    const std::vector<FilterArg>& filters, const FilterSpec& kind) {
  return std::find_if(filters.begin(), filters.end(), [&](const FilterArg& f) {
    return !f.own_parameter && f.spec.SameKind(kind);
  });
}

// "lsm/bloomgate readmissing": what a progress bar says it is running.
std::string ProgressLabel(const BenchResult& r) {
  return absl::StrCat(ToAbsl(EngineName(r.engine)), "/", r.filter.KindName(),
                      " ", ToAbsl(BenchmarkName(r.benchmark)));
}

// What the threads of a read benchmark tally, merged after they join.
struct ReadTally {
  int64_t found = 0;
  int64_t not_found = 0;
  absl::Status status;
  uint64_t user_nanos = 0;  // the thread's user CPU time over its lookups
  LatencyHistogram hits;    // --histogram only
  LatencyHistogram misses;
};

// User time only: a direct read spends tens of microseconds of system time
// in the kernel's block layer, which its own timing (read_latency_us)
// already holds; a Get makes no other system calls.
uint64_t ThreadUserNanos() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return static_cast<uint64_t>(usage.ru_utime.tv_sec) * 1000000000u +
         static_cast<uint64_t>(usage.ru_utime.tv_usec) * 1000u;
}

// The figures of a read benchmark that come from clocks rather than
// counters: latency percentiles, the measured read latency and what it
// explains. `avoided_per_op` is filter negatives per lookup. After
// RecordReads.
void RecordTimings(const BenchOptions& o, const std::vector<ReadTally>& tallies,
                   double avoided_per_op, BenchResult* r) {
  if (o.histogram) {
    LatencyHistogram hits, misses, all;
    for (const ReadTally& tally : tallies) {
      hits.Merge(tally.hits);
      misses.Merge(tally.misses);
    }
    all.Merge(hits);
    all.Merge(misses);
    r->has_latency = true;
    r->latency = Summarize(all);
    r->hit_latency = Summarize(hits);
    r->miss_latency = Summarize(misses);
    r->miss_latency_cdf = CdfPoints(misses);
  }
  r->timed_reads = o.engine.use_direct_reads || o.histogram;
  if (!r->timed_reads) return;
  uint64_t user_nanos = 0;
  for (const ReadTally& tally : tallies) user_nanos += tally.user_nanos;
  r->user_micros_per_op =
      Ratio(static_cast<double>(user_nanos) / 1e3, static_cast<double>(r->ops));
  if (!r->read_nanos_known) return;
  r->read_latency_us =
      Ratio(static_cast<double>(r->data_block_read_nanos) / 1e3,
            static_cast<double>(r->ios));
  // A lookup's wall time is its user time plus its reads' (the reads being
  // its only system calls); both are measured, so the sum checks the
  // measured read latency against the lookup's mean time.
  r->explained_micros_per_op =
      r->user_micros_per_op + r->ios_per_op * r->read_latency_us;
  r->avoided_read_micros_per_op = avoided_per_op * r->read_latency_us;
}

void RecordShape(const EngineShape& shape, const FilterSpec& filter,
                 absl::Span<const double> level_bits, BenchResult* r) {
  r->sst_files = static_cast<int>(shape.files.size());
  r->files_per_level.clear();
  r->keys_per_level.clear();
  r->filter_bytes_per_level.clear();
  std::vector<uint64_t> filter_keys_per_level;
  for (const FileInfo& f : shape.files) {
    if (f.level < 0) continue;
    const size_t level = static_cast<size_t>(f.level);
    if (level >= r->files_per_level.size()) {
      r->files_per_level.resize(level + 1, 0);
      r->keys_per_level.resize(level + 1, 0);
      r->filter_bytes_per_level.resize(level + 1, 0);
      filter_keys_per_level.resize(level + 1, 0);
    }
    ++r->files_per_level[level];
    r->keys_per_level[level] += static_cast<int64_t>(f.num_entries);
    r->filter_bytes_per_level[level] += f.filter_bytes;
    filter_keys_per_level[level] += f.filter_keys;
  }
  r->bits_per_key_per_level.clear();
  for (size_t level = 0; level < filter_keys_per_level.size(); ++level) {
    r->bits_per_key_per_level.push_back(
        Ratio(8.0 * static_cast<double>(r->filter_bytes_per_level[level]),
              static_cast<double>(filter_keys_per_level[level])));
  }
  r->filter_bytes = shape.filter_bytes;
  r->bits_per_key = filter.family == FilterFamily::kNone
                        ? kNaN
                        : Ratio(8.0 * static_cast<double>(shape.filter_bytes),
                                static_cast<double>(shape.filter_keys));
  r->fp_predicted = PredictedFp(filter, shape, level_bits);
}

// The lookups of a read benchmark, thread by thread. The timed loop and the
// replay that predicts its reads walk the same streams.
struct LookupPlan {
  KeySpace keys;
  double negative_ratio;
  uint64_t seed;  // options.seed
  size_t bench_index;
  int threads;
  int64_t reads;  // over all threads

  int64_t OpsOf(int thread) const {
    return reads / threads + (thread < reads % threads ? 1 : 0);
  }
  LookupStream Stream(int thread) const {
    return LookupStream(keys, negative_ratio,
                        StreamSeed(seed, bench_index, thread + 1));
  }
  void Key(const Lookup& lookup, std::string* key) const {
    if (lookup.absent) {
      keys.AbsentKey(lookup.index, key);
    } else {
      keys.PresentKey(lookup.index, key);
    }
  }
};

// Records one lookup's latency and answer.
void Tally(bool found, bool histogram, uint64_t nanos, ReadTally* tally) {
  if (histogram) (found ? tally->hits : tally->misses).Record(nanos);
  ++(found ? tally->found : tally->not_found);
}

uint64_t NanosSince(Clock::time_point begin) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - begin)
          .count());
}

// The timed loop of a read benchmark: plan.threads threads, each looking up
// its stream, `batch` keys per call (1: Get; more: MultiGet, each key's
// latency its share of the call's), and tallying into (*tallies)[thread].
void TimeLookups(Engine& engine, const LookupPlan& plan, int batch,
                 bool histogram, ProgressBar* progress,
                 std::vector<ReadTally>* tallies) {
  auto worker = [&](int t) {
    ReadTally& tally = (*tallies)[static_cast<size_t>(t)];
    const uint64_t user_start = ThreadUserNanos();
    LookupStream stream = plan.Stream(t);
    std::string key, value;
    std::vector<std::string> keys(static_cast<size_t>(batch));
    std::vector<bool> found_keys;
    const int64_t n_ops = plan.OpsOf(t);
    for (int64_t n = 0; n < n_ops;) {
      Clock::time_point begin;
      absl::Status s;
      if (batch == 1) {
        plan.Key(stream.Next(), &key);
        bool found = false;
        if (histogram) begin = Clock::now();
        s = engine.Get(key, &value, &found);
        if (s.ok())
          Tally(found, histogram, histogram ? NanosSince(begin) : 0, &tally);
        ++n;
      } else {
        const int64_t count = std::min<int64_t>(batch, n_ops - n);
        keys.resize(static_cast<size_t>(count));
        for (std::string& k : keys) plan.Key(stream.Next(), &k);
        if (histogram) begin = Clock::now();
        s = engine.MultiGet(keys, &found_keys);
        const uint64_t share =
            histogram ? NanosSince(begin) / static_cast<uint64_t>(count) : 0;
        if (s.ok()) {
          for (bool found : found_keys) Tally(found, histogram, share, &tally);
        }
        n += count;
      }
      if (!s.ok()) {
        tally.status = s;
        return;
      }
      if (t == 0 && (n & 1023) < batch) progress->Update(n * plan.threads);
    }
    tally.user_nanos = ThreadUserNanos() - user_start;
  };
  if (plan.threads == 1) {
    worker(0);
    return;
  }
  std::vector<std::thread> pool;
  for (int t = 0; t < plan.threads; ++t) pool.emplace_back(worker, t);
  for (std::thread& th : pool) th.join();
}

// The figures of a read benchmark that come from counting: lookups, reads,
// filter checks, against the engine's counters before and after.
void RecordReads(const FilterSpec& filter,
                 const std::vector<ReadTally>& tallies,
                 const ReadCounters& before, const ReadCounters& after,
                 BenchResult* r) {
  for (const ReadTally& tally : tallies) {
    r->hits += tally.found;
    r->misses += tally.not_found;
  }
  r->found = r->hits;
  static_cast<ReadCounters&>(*r) = CounterDelta(before, after);
  r->ops = r->hits + r->misses;
  r->ios = r->hit_reads + r->miss_reads;
  r->micros_per_op =
      Ratio(r->seconds * 1e6 * r->threads, static_cast<double>(r->ops));
  r->ops_per_sec = Ratio(static_cast<double>(r->ops), r->seconds);
  r->ios_per_op =
      Ratio(static_cast<double>(r->ios), static_cast<double>(r->ops));
  r->ios_per_hit =
      Ratio(static_cast<double>(r->hit_reads), static_cast<double>(r->hits));
  r->ios_per_miss =
      Ratio(static_cast<double>(r->miss_reads), static_cast<double>(r->misses));
  const double files_on_path =
      r->files_on_path_known ? static_cast<double>(r->files_on_path) : kNaN;
  r->files_on_path_per_op = Ratio(files_on_path, static_cast<double>(r->ops));
  if (filter.family == FilterFamily::kNone) {
    r->ios_avoided_pct = 0;
    r->fp_observed = kNaN;
  } else {
    r->ios_avoided_pct =
        100.0 * Ratio(static_cast<double>(r->filter_negatives), files_on_path);
    // Over the checks of files that did not hold the key.
    const uint64_t true_positives = r->filter_positives - r->false_positives;
    r->fp_observed =
        Ratio(static_cast<double>(r->false_positives),
              static_cast<double>(r->filter_checks - true_positives));
  }
}

// Outside the timed loop: replays the same lookups and counts, from the
// files' key ranges alone, how many files cover each absent key, and adds up
// the predicted FP rates of their filters; and, from the same counts, the
// floor: the fewest reads any filters of the memory this one took could
// let through on these files (FewestWastedReads, one run per file).
void PredictMisses(const EngineShape& shape, const FilterSpec& filter,
                   absl::Span<const double> level_bits, const LookupPlan& plan,
                   BenchResult* r) {
  std::vector<double> file_fp;
  for (const FileInfo& f : shape.files) {
    file_fp.push_back(PredictedFileFp(filter, f, level_bits));
  }
  std::vector<uint64_t> covered(shape.files.size(), 0);
  uint64_t covering = 0, absent = 0;
  double predicted_reads = 0;
  for (int t = 0; t < plan.threads; ++t) {
    LookupStream stream = plan.Stream(t);
    std::string key;
    for (int64_t n = 0, n_ops = plan.OpsOf(t); n < n_ops; ++n) {
      Lookup lookup = stream.Next();
      if (!lookup.absent) continue;
      plan.Key(lookup, &key);
      for (size_t f = 0; f < shape.files.size(); ++f) {
        if (Covers(shape.files[f], key)) {
          predicted_reads += file_fp[f];
          ++covered[f];
          ++covering;
        }
      }
      ++absent;
    }
  }
  r->covering_files_per_miss =
      Ratio(static_cast<double>(covering), static_cast<double>(absent));
  r->ios_per_miss_predicted =
      Ratio(predicted_reads, static_cast<double>(absent));
  // Per filter check, like fp_observed: each file weighs as often as the
  // lookups meet it, which matters when levels have different budgets.
  if (filter.family != FilterFamily::kNone && covering > 0) {
    r->fp_predicted = predicted_reads / static_cast<double>(covering);
  }
  r->ios_per_miss_floor = kNaN;
  if (filter.family == FilterFamily::kNone || absent == 0) return;
  std::vector<FilterRun> runs;
  for (size_t f = 0; f < shape.files.size(); ++f) {
    const FileInfo& file = shape.files[f];
    runs.push_back(
        {.keys = static_cast<double>(file.filter_keys > 0 ? file.filter_keys
                                                          : file.num_entries),
         .reach =
             static_cast<double>(covered[f]) / static_cast<double>(absent)});
  }
  if (absl::StatusOr<double> floor = FewestWastedReads(r->bits_per_key, runs);
      floor.ok()) {
    r->ios_per_miss_floor = *floor;
  }
}

// Whether `a` and `b` have the same files: levels, key ranges and entries.
bool SameFiles(const EngineShape& a, const EngineShape& b) {
  auto files = [](const EngineShape& shape) {
    std::vector<std::tuple<int, std::string, std::string, uint64_t>> files;
    for (const FileInfo& f : shape.files) {
      files.emplace_back(f.level, f.smallest_key, f.largest_key, f.num_entries);
    }
    std::sort(files.begin(), files.end());
    return files;
  };
  return files(a) == files(b);
}

}  // namespace

struct Runner::FillPlan {
  std::vector<int64_t> order;
  // (end in `order`, level) for each level, deepest first; the keys before
  // each end are compacted into that level once written (level 0: left in
  // the memtable and L0).
  std::vector<std::pair<size_t, int>> level_ends;
};

std::string EngineDir(const std::string& base, EngineKind engine,
                      const FilterArg& filter) {
  std::string name =
      filter.own_parameter ? filter.spec.Name() : filter.spec.KindName();
  std::replace(name.begin(), name.end(), ':', '_');
  return absl::StrCat(base, "/", ToAbsl(EngineName(engine)), "_", name);
}

Runner::Runner(const BenchOptions& options, std::ostream* out)
    : options_(options), out_(out) {}

absl::StatusOr<std::vector<BenchResult>> Runner::RunAll() {
  bool temporary = false;
  absl::StatusOr<std::string> base = MakeBaseDir(&temporary);
  if (!base.ok()) return base.status();
  const bool equal_memory = EqualMemory();
  const std::vector<FilterArg> filters = FiltersInRunOrder(equal_memory);
  std::vector<BenchResult> all;
  absl::Status status;
  for (EngineKind engine : options_.engines) {
    status = RunEngine(engine, filters, *base, equal_memory, &all);
    if (!status.ok()) break;
  }
  RemoveBaseDir(*base, temporary);
  if (!status.ok()) return status;
  return all;
}

absl::StatusOr<std::string> Runner::MakeBaseDir(bool* temporary) const {
  *temporary = options_.db.empty();
  if (*temporary) return CreateScratchDir("bloomgate_bench");
  std::error_code ec;
  std::filesystem::create_directories(options_.db, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create --db=", options_.db, ": ", ec.message()));
  }
  return options_.db;
}

void Runner::RemoveBaseDir(const std::string& base, bool temporary) const {
  if (temporary && !options_.keep_db) {
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
  } else if (options_.keep_db) {
    *out_ << "(databases kept in " << base << ")\n";
  }
}

bool Runner::EqualMemory() const {
  const std::vector<FilterArg>& filters = options_.filters;
  return options_.monkey_equal_memory &&
         FindFilter(filters, kMonkeyKind) != filters.end() &&
         FindFilter(filters, kUniformKind) != filters.end();
}

std::vector<FilterArg> Runner::FiltersInRunOrder(bool equal_memory) const {
  std::vector<FilterArg> filters = options_.filters;
  if (equal_memory) {
    const FilterArg monkey = *FindFilter(filters, kMonkeyKind);
    filters.erase(FindFilter(filters, kMonkeyKind));
    filters.insert(FindFilter(filters, kUniformKind), monkey);
  }
  return filters;
}

absl::Status Runner::RunEngine(EngineKind engine,
                               const std::vector<FilterArg>& filters,
                               const std::string& base, bool equal_memory,
                               std::vector<BenchResult>* all) {
  absl::Status s;
  if (SameTree(engine)) s = GrowTree(engine, base, all);
  if (s.ok()) s = RunFilters(engine, filters, base, equal_memory, all);
  if (!tree_dir_.empty() && !options_.keep_db) {
    std::error_code ec;
    std::filesystem::remove_all(tree_dir_, ec);
  }
  tree_dir_.clear();
  return s;
}

bool Runner::SameTree(EngineKind engine) const {
  return options_.same_tree && engine == EngineKind::kRocksDB &&
         !options_.use_existing_db && !HandShapedTree() &&
         std::any_of(options_.benchmarks.begin(), options_.benchmarks.end(),
                     &IsFillBenchmark);
}

absl::Status Runner::GrowTree(EngineKind engine, const std::string& base,
                              std::vector<BenchResult>* all) {
  // Uniform bloomgate filters at the run's memory: the files, and so the
  // levels' sizes RocksDB compacts by, hold what any of the filters at
  // that memory would take.
  const FilterArg grower{.spec = kUniformKind};
  const std::string dir =
      absl::StrCat(base, "/", ToAbsl(EngineName(engine)), "_tree");
  growing_tree_ = true;
  absl::StatusOr<std::vector<BenchResult>> results =
      RunOne(engine, grower, dir);
  growing_tree_ = false;
  if (!results.ok()) return results.status();
  all->insert(all->end(), results->begin(), results->end());
  tree_dir_ = dir;
  tree_shape_ = last_shape_;
  return absl::OkStatus();
}

absl::Status Runner::RewriteGrownTree(const Target& target) {
  const auto start = std::chrono::steady_clock::now();
  if (absl::Status s = target.engine->RewriteFilters(); !s.ok()) return s;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  absl::StatusOr<EngineShape> shape = target.engine->GetShape();
  if (!shape.ok()) return shape.status();
  *out_ << absl::StrFormat(
      "rewrite      : %.1f s; %d SST files of the grown tree, each "
      "rewritten with this filter; filters %d bytes\n",
      seconds, shape->files.size(), shape->filter_bytes);
  if (!SameFiles(*shape, tree_shape_)) {
    return absl::FailedPreconditionError(
        "rewriting the grown tree's files changed its files (levels, key "
        "ranges or entries), so its filters would not be compared on the "
        "same tree; run with --same_tree=false");
  }
  return absl::OkStatus();
}

absl::Status Runner::RunFilters(EngineKind engine,
                                const std::vector<FilterArg>& filters,
                                const std::string& base, bool equal_memory,
                                std::vector<BenchResult>* all) {
  std::optional<double> uniform_bits;
  // What bloomgate_monkey's filters took, bits per key.
  std::optional<double> monkey_spent_bits;
  for (const FilterArg& filter : filters) {
    if (!EngineSupports(engine, filter.spec)) {
      *out_ << "(skipping engine " << EngineName(engine) << " with filter "
            << filter.spec.KindName() << ": not supported)\n";
      continue;
    }
    std::string dir = EngineDir(base, engine, filter);
    const bool uniform =
        !filter.own_parameter && filter.spec.SameKind(kUniformKind);
    if (uniform && uniform_bits.has_value()) {
      if (monkey_spent_bits.has_value() &&
          std::abs(*monkey_spent_bits / options_.bloom_bits - 1) >
              kOverBudgetFraction) {
        // Monkey's filters missed the budget: the uniform filter runs at
        // the budget too, so that the comparison is also at the memory the
        // user asked for.
        *out_ << "(bloomgate at --bloom_bits, the budget, first: "
                 "bloomgate_monkey's filters on "
              << EngineName(engine) << " took more than "
              << 100 * kOverBudgetFraction << "% above or below it)\n";
        absl::Status s = RunAndCollect(engine, filter, dir + "_at_budget",
                                       std::nullopt, all);
        if (!s.ok()) return s;
      }
      *out_ << "(bloomgate at " << absl::StrFormat("%.4f", *uniform_bits)
            << " bits/key: the filter memory bloomgate_monkey used on "
            << EngineName(engine) << ", --monkey_equal_memory)\n";
    }
    const std::optional<double> bits = uniform ? uniform_bits : std::nullopt;
    const size_t results_before = all->size();
    absl::Status s = RunAndCollect(engine, filter, dir, bits, all);
    if (!s.ok()) return s;
    if (equal_memory && !filter.own_parameter &&
        filter.spec.SameKind(kMonkeyKind)) {
      if (all->size() > results_before && all->back().bits_per_key > 0) {
        monkey_spent_bits = all->back().bits_per_key;
      }
      uniform_bits = MonkeyMemoryBits();
    }
  }
  return absl::OkStatus();
}

absl::Status Runner::RunAndCollect(EngineKind engine, const FilterArg& filter,
                                   const std::string& dir,
                                   std::optional<double> bloom_bits,
                                   std::vector<BenchResult>* all) {
  absl::StatusOr<std::vector<BenchResult>> results =
      RunOne(engine, filter, dir, bloom_bits);
  if (!options_.keep_db && !options_.use_existing_db) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  if (!results.ok()) return results.status();
  all->insert(all->end(), results->begin(), results->end());
  return absl::OkStatus();
}

std::optional<double> Runner::MonkeyMemoryBits() {
  absl::StatusOr<double> matched =
      EqualMemoryBits(last_shape_, Layout::kBlocked);
  if (matched.ok()) return *matched;
  *out_ << "(bloomgate at --bloom_bits, not at bloomgate_monkey's "
           "memory: "
        << matched.status().message() << ")\n";
  return std::nullopt;
}

absl::StatusOr<std::vector<BenchResult>> Runner::RunOne(
    EngineKind engine_kind, const FilterArg& filter, const std::string& dir,
    std::optional<double> bloom_bits) {
  Target target;
  target.engine_kind = engine_kind;
  target.filter = FilterForRun(filter, options_, bloom_bits);
  const bool none = filter.spec.family == FilterFamily::kNone;
  const bool ribbon = filter.spec.family == FilterFamily::kRocksDBRibbon;
  target.grow_only = growing_tree_;
  target.on_grown_tree = !growing_tree_ && !tree_dir_.empty();
  if (filter.own_parameter) {
    target.bits = ribbon ? 0 : target.filter.bits_per_key;
  } else {
    target.bits = none ? 0 : target.filter.bits_per_key;
    // Sized for the tree's files when it is known (Ribbon's memory per key
    // depends on the filter's keys), else for full files.
    std::vector<uint64_t> filter_keys;
    if (target.on_grown_tree) {
      for (const FileInfo& f : tree_shape_.files) {
        filter_keys.push_back(f.num_entries);
      }
    }
    if (filter_keys.empty()) filter_keys.push_back(KeysPerFile());
    absl::StatusOr<FilterSpec> at_memory = rocksdb_internal::SpecForMemory(
        target.filter, target.bits, filter_keys);
    if (!at_memory.ok()) return at_memory.status();
    target.filter = *std::move(at_memory);
  }
  if (target.filter.monkey) {
    absl::StatusOr<std::vector<double>> allocation =
        target.filter.LevelBitsPerKey(options_.engine.num_levels);
    if (!allocation.ok()) return allocation.status();
    target.level_bits = *std::move(allocation);
  }
  absl::StatusOr<std::unique_ptr<Engine>> opened = OpenIn(
      dir, engine_kind, target.filter, target.on_grown_tree ? tree_dir_ : "");
  if (!opened.ok()) return opened.status();
  target.engine = opened->get();
  PrintTarget(target);
  if (target.on_grown_tree) {
    if (absl::Status s = RewriteGrownTree(target); !s.ok()) return s;
  }

  std::vector<BenchResult> results;
  for (size_t index = 0; index < options_.benchmarks.size(); ++index) {
    absl::StatusOr<std::optional<BenchResult>> result =
        RunBenchmark(target, options_.benchmarks[index], index);
    if (!result.ok()) return result.status();
    if (result->has_value()) results.push_back(**std::move(result));
  }
  absl::StatusOr<EngineShape> shape = target.engine->GetShape();
  if (!shape.ok()) return shape.status();
  last_shape_ = *std::move(shape);
  absl::Status s = target.engine->Close();
  if (!s.ok()) return s;
  return results;
}

absl::StatusOr<std::unique_ptr<Engine>> Runner::OpenIn(
    const std::string& dir, EngineKind engine, const FilterSpec& filter,
    const std::string& tree) const {
  EngineOptions eo;
  eo.settings = options_.engine;
  eo.dir = dir;
  eo.use_existing = options_.use_existing_db;
  eo.filter = filter;
  eo.hand_shaped_tree = HandShapedTree();
  eo.time_reads = options_.engine.use_direct_reads || options_.histogram;
  if (!options_.use_existing_db) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (tree.empty()) {
      std::filesystem::create_directories(dir, ec);
    } else {
      std::filesystem::copy(tree, dir, std::filesystem::copy_options::recursive,
                            ec);
      if (ec) {
        return absl::InternalError(absl::StrCat("cannot copy the grown tree ",
                                                tree, " to ", dir, ": ",
                                                ec.message()));
      }
      eo.use_existing = true;
      // Nothing but RewriteFilters may change the copy.
      eo.settings.disable_auto_compactions = true;
    }
  }
  return OpenEngine(engine, eo);
}

absl::StatusOr<std::optional<BenchResult>> Runner::RunBenchmark(
    const Target& target, BenchmarkKind benchmark, size_t index) {
  if (IsFillBenchmark(benchmark) && options_.use_existing_db) {
    *out_ << BenchmarkName(benchmark) << " : skipped (--use_existing_db)\n";
    return std::nullopt;
  }
  // The grown tree's fills ran once, before every filter's reads.
  if (IsFillBenchmark(benchmark) ? target.on_grown_tree : target.grow_only) {
    return std::nullopt;
  }
  switch (benchmark) {
    case BenchmarkKind::kFillRandom:
      return FillRandom(target, index);
    case BenchmarkKind::kFillSeq:
      return FillSeq(target, index);
    case BenchmarkKind::kFillLevels:
      return FillLevels(target, index);
    case BenchmarkKind::kReadRandom:
      return ReadRandom(target, index);
    case BenchmarkKind::kReadMissing:
      return ReadMissing(target, index);
    case BenchmarkKind::kMultiReadMissing:
      return MultiReadMissing(target, index);
    case BenchmarkKind::kReadMixed:
      return ReadMixed(target, index);
    case BenchmarkKind::kStats:
      Stats(target);
      return std::nullopt;
  }
  return absl::InvalidArgumentError("unknown benchmark");
}

uint64_t Runner::KeysPerFile() const {
  const int64_t entry = options_.key_size + options_.value_size;
  return static_cast<uint64_t>(std::clamp<int64_t>(
      static_cast<int64_t>(options_.engine.target_file_size_base) / entry, 1,
      options_.num));
}

bool Runner::HandShapedTree() const {
  return std::find(options_.benchmarks.begin(), options_.benchmarks.end(),
                   BenchmarkKind::kFillLevels) != options_.benchmarks.end();
}

// "-- engine lsm, filter bloomgate (10 bits/key)", and for bloomgate_monkey
// its budget and how it is shared out. What the filters took is on each
// fill's line.
void Runner::PrintTarget(const Target& target) const {
  *out_ << "-- engine " << EngineName(target.engine_kind) << ", ";
  if (target.grow_only) {
    *out_ << "growing the tree every filter is measured on (--same_tree), "
             "with ";
  }
  *out_ << "filter " << target.filter.KindName();
  if (target.filter.monkey &&
      target.filter.family == FilterFamily::kBloomgate && !HandShapedTree()) {
    *out_ << " (budget " << target.bits
          << " bits/key on average; each flush and compaction shares it out "
             "over the live tree";
    if (target.filter.mixed) {
      *out_ << " and chooses its family, bloomgate or Ribbon, by the cost "
               "model at "
            << target.filter.read_micros << " us a read";
    }
    *out_ << ")";
  } else if (target.filter.monkey) {
    *out_ << " (budget " << target.bits << " bits/key on average over "
          << options_.engine.num_levels << " levels of fanout "
          << options_.engine.max_bytes_for_level_multiplier << "; by level";
    absl::StatusOr<std::vector<RunFilter>> families =
        LevelFilters(target.filter, options_.engine.num_levels);
    for (size_t level = 0; level < target.level_bits.size(); ++level) {
      *out_ << " L" << level << " "
            << absl::StrFormat("%.2f", target.level_bits[level]);
      if (target.filter.mixed && families.ok()) {
        *out_ << " "
              << ((*families)[level].family == FilterFamily::kRocksDBRibbon
                      ? "ribbon"
                      : "bloomgate");
      }
    }
    *out_ << ")";
  } else if (target.filter.family == FilterFamily::kRocksDBRibbon) {
    if (target.bits > 0) *out_ << " (" << target.bits << " bits/key of memory:";
    *out_ << (target.bits > 0 ? " " : " (") << "parameter "
          << target.filter.bits_per_key << ")";
  } else if (target.filter.family != FilterFamily::kNone) {
    *out_ << " (" << target.bits << " bits/key)";
  }
  *out_ << "\n" << std::flush;
}

BenchResult Runner::NewResult(const Target& target,
                              BenchmarkKind benchmark) const {
  BenchResult r;
  r.engine = target.engine_kind;
  r.filter = target.filter;
  r.benchmark = benchmark;
  r.bloom_bits = target.bits;
  r.threads = 1;
  r.io_latency_us = options_.io_latency_us;
  return r;
}

absl::StatusOr<BenchResult> Runner::FillRandom(const Target& target,
                                               size_t index) {
  return FillEveryKey(target, BenchmarkKind::kFillRandom, index,
                      /*random=*/true);
}

absl::StatusOr<BenchResult> Runner::FillSeq(const Target& target,
                                            size_t index) {
  return FillEveryKey(target, BenchmarkKind::kFillSeq, index,
                      /*random=*/false);
}

absl::StatusOr<BenchResult> Runner::FillEveryKey(const Target& target,
                                                 BenchmarkKind benchmark,
                                                 size_t index, bool random) {
  FillPlan plan;
  plan.order =
      FillOrder(options_.num, random, StreamSeed(options_.seed, index, 0));
  plan.level_ends.push_back({plan.order.size(), 0});
  return DoFill(target, benchmark, plan);
}

absl::StatusOr<BenchResult> Runner::FillLevels(const Target& target,
                                               size_t /*index*/) {
  const BenchOptions& o = options_;
  // Validated by ValidateBenchOptions.
  const std::vector<int64_t> weights = *LevelWeights(
      o.engine.num_levels, o.engine.max_bytes_for_level_multiplier, o.num);
  // Deepest level first, as a growing tree fills them, each in ascending key
  // order: one sorted run per level, every level spanning the key range.
  FillPlan plan;
  for (int level = o.engine.num_levels - 1; level >= 0; --level) {
    for (int64_t i = 0; i < o.num; ++i) {
      if (LevelOfKey(i, weights) == level) plan.order.push_back(i);
    }
    plan.level_ends.push_back({plan.order.size(), level});
  }
  return DoFill(target, BenchmarkKind::kFillLevels, plan);
}

absl::StatusOr<BenchResult> Runner::DoFill(const Target& target,
                                           BenchmarkKind benchmark,
                                           const FillPlan& plan) {
  const BenchOptions& o = options_;
  Engine& engine = *target.engine;
  BenchResult r = NewResult(target, benchmark);
  const KeySpace keys(o.num, o.key_size);
  const ValueSource values(o.value_size, o.seed);
  ProgressBar progress(ProgressLabel(r), o.num, o.progress);
  std::vector<std::string> batch_keys;
  std::vector<std::string_view> batch_values;
  absl::Status s;
  Clock::time_point start = Clock::now();
  size_t level_begin = 0;
  for (const auto& [level_end, level] : plan.level_ends) {
    // Batches stop at a level's end: its keys must all be written before
    // it is compacted into place.
    for (size_t n = level_begin; n < level_end && s.ok();
         n += static_cast<size_t>(o.batch_size)) {
      const size_t end =
          std::min(level_end, n + static_cast<size_t>(o.batch_size));
      batch_keys.resize(end - n);
      batch_values.resize(end - n);
      for (size_t m = n; m < end; ++m) {
        int64_t i = plan.order[m];
        keys.PresentKey(i, &batch_keys[m - n]);
        batch_values[m - n] = values.ValueFor(i);
      }
      s = end - n == 1 ? engine.Put(batch_keys[0], batch_values[0])
                       : engine.PutBatch(batch_keys, batch_values);
      progress.Update(static_cast<int64_t>(end));
    }
    if (s.ok() && level > 0) s = engine.CompactLevel0To(level);
    level_begin = level_end;
  }
  if (!s.ok()) return s;
  s = engine.FinishWrites();
  if (!s.ok()) return s;
  r.seconds = Seconds(Clock::now() - start);
  progress.Finish();
  r.ops = o.num;
  r.micros_per_op = r.seconds * 1e6 / static_cast<double>(r.ops);
  r.ops_per_sec = static_cast<double>(r.ops) / r.seconds;
  r.mb_per_sec = static_cast<double>(r.ops) * (o.key_size + o.value_size) /
                 1048576.0 / r.seconds;
  absl::StatusOr<EngineShape> shape = engine.GetShape();
  if (!shape.ok()) return shape.status();
  RecordShape(*shape, target.filter, target.level_bits, &r);
  r.ios_per_op = r.ios_per_hit = r.ios_per_miss = kNaN;
  r.files_on_path_per_op = kNaN;
  r.covering_files_per_miss = r.ios_per_miss_predicted = kNaN;
  r.ios_avoided_pct = kNaN;
  r.fp_observed = kNaN;
  r.modeled_micros_per_op = r.modeled_saved_micros_per_op = kNaN;
  // Known once tables exist: the LSM learns at a table's open whether its
  // file system took O_DIRECT.
  r.direct_reads = engine.direct_reads();
  *out_ << FormatBenchmarkLine(r) << "\n" << std::flush;
  return r;
}

absl::StatusOr<BenchResult> Runner::ReadRandom(const Target& target,
                                               size_t index) {
  return DoRead(target, BenchmarkKind::kReadRandom, index,
                /*negative_ratio=*/0.0);
}

absl::StatusOr<BenchResult> Runner::ReadMissing(const Target& target,
                                                size_t index) {
  return DoRead(target, BenchmarkKind::kReadMissing, index,
                /*negative_ratio=*/1.0);
}

absl::StatusOr<BenchResult> Runner::MultiReadMissing(const Target& target,
                                                     size_t index) {
  return DoRead(target, BenchmarkKind::kMultiReadMissing, index,
                /*negative_ratio=*/1.0, options_.multiget_batch);
}

absl::StatusOr<BenchResult> Runner::ReadMixed(const Target& target,
                                              size_t index) {
  return DoRead(target, BenchmarkKind::kReadMixed, index,
                options_.negative_ratio);
}

absl::StatusOr<BenchResult> Runner::DoRead(const Target& target,
                                           BenchmarkKind benchmark,
                                           size_t index, double negative_ratio,
                                           int batch) {
  const BenchOptions& o = options_;
  Engine& engine = *target.engine;
  BenchResult r = NewResult(target, benchmark);
  absl::StatusOr<EngineShape> shape = engine.GetShape();
  if (!shape.ok()) return shape.status();
  RecordShape(*shape, target.filter, target.level_bits, &r);

  r.threads = o.threads;
  // Filterless runs may look up only the start of the same streams
  // (--filterless_reads): each of their lookups reads every covering file,
  // so they cost tens of times more per lookup, at the same rate.
  const int64_t reads =
      target.filter.family == FilterFamily::kNone && o.filterless_reads > 0
          ? std::min(o.reads, o.filterless_reads)
          : o.reads;
  const LookupPlan plan{KeySpace(o.num, o.key_size),
                        negative_ratio,
                        o.seed,
                        index,
                        o.threads,
                        reads};
  std::vector<ReadTally> tallies(static_cast<size_t>(o.threads));
  ProgressBar progress(ProgressLabel(r), reads, o.progress);
  const EngineCounters engine_before = engine.GetEngineCounters();
  const ReadCounters before = engine.GetCounters();
  Clock::time_point start = Clock::now();
  TimeLookups(engine, plan, batch, o.histogram, &progress, &tallies);
  r.seconds = Seconds(Clock::now() - start);
  progress.Finish();
  const ReadCounters after = engine.GetCounters();
  r.engine_counters = CounterDelta(engine_before, engine.GetEngineCounters());
  for (const ReadTally& tally : tallies) {
    if (!tally.status.ok()) return tally.status;
  }
  RecordReads(target.filter, tallies, before, after, &r);
  double avoided_per_op = Ratio(static_cast<double>(r.filter_negatives),
                                static_cast<double>(r.ops));
  r.modeled_micros_per_op =
      o.io_latency_us > 0 ? r.micros_per_op + r.ios_per_op * o.io_latency_us
                          : kNaN;
  r.modeled_saved_micros_per_op =
      o.io_latency_us > 0 ? avoided_per_op * o.io_latency_us : kNaN;
  RecordTimings(o, tallies, avoided_per_op, &r);
  PredictMisses(*shape, target.filter, target.level_bits, plan, &r);

  r.direct_reads = engine.direct_reads();
  *out_ << FormatBenchmarkLine(r) << "\n" << FormatLatency(r) << std::flush;
  return r;
}

void Runner::Stats(const Target& target) {
  ReadCounters c = target.engine->GetCounters();
  *out_ << "stats : data-block reads " << c.hit_reads + c.miss_reads
        << ", filter checks " << c.filter_checks << ", negatives "
        << c.filter_negatives << ", positives " << c.filter_positives
        << " (true " << c.filter_positives - c.false_positives << ")\n"
        << target.engine->StatsText() << std::flush;
}

}  // namespace bloomgate::bench
