// Copyright 2026 The bloomgate Authors.

#include "tools/bench/measure.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/allocation.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "tools/bench/fp_model.h"

namespace bloomgate::bench {
namespace {

// User time only: a direct read spends tens of microseconds of system time
// in the kernel's block layer, which its own timing (read_latency_us)
// already holds; a Get makes no other system calls.
uint64_t ThreadUserNanos() {
  rusage usage{};
  getrusage(RUSAGE_THREAD, &usage);
  return static_cast<uint64_t>(usage.ru_utime.tv_sec) * 1000000000u +
         static_cast<uint64_t>(usage.ru_utime.tv_usec) * 1000u;
}

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

}  // namespace

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
  r->tree = TreeFingerprint(shape);
  r->files_per_level.clear();
  r->keys_per_level.clear();
  r->largest_filter_bytes = 0;
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
    r->largest_filter_bytes = std::max(r->largest_filter_bytes, f.filter_bytes);
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
  // A budget in bytes asks for what it holds per key of this tree.
  if (filter.memory_budget_bytes != 0 && shape.filter_keys > 0) {
    r->bloom_bits = 8.0 * static_cast<double>(filter.memory_budget_bytes) /
                    static_cast<double>(shape.filter_keys);
  }
  r->fp_predicted = PredictedFp(filter, shape, level_bits);
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
                 const lsm::LookupCounters& before,
                 const lsm::LookupCounters& after, BenchResult* r) {
  for (const ReadTally& tally : tallies) {
    r->hits += tally.found;
    r->misses += tally.not_found;
  }
  r->found = r->hits;
  static_cast<lsm::LookupCounters&>(*r) = after.Since(before);
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

// The floors for `absent` lookups that met file f covered[f] times, at the
// memory the tree's filters took: FewestWastedReads over the
// information-theoretic curve 2^-b (ios_per_miss_floor), and over Ribbon's,
// 2^(-b / (1 + o)), o RocksDB's overhead for the files' mean keys, which is
// FewestWastedReads at b / (1 + o) (ios_per_miss_mix_floor; every Bloom
// filter's curve lies above Ribbon's, so no mix of the two reads less in
// expectation). Every file's keys, a file left without a filter's too, share
// that memory: a floor may give that file bits. NaN where there is no
// answer.
void SetFloors(const EngineShape& shape, absl::Span<const uint64_t> covered,
               uint64_t absent, BenchResult* r) {
  std::vector<FilterRun> runs;
  double keys = 0;
  for (size_t f = 0; f < shape.files.size(); ++f) {
    const FileInfo& file = shape.files[f];
    runs.push_back(
        {.keys = static_cast<double>(file.filter_keys > 0 ? file.filter_keys
                                                          : file.num_entries),
         .reach =
             static_cast<double>(covered[f]) / static_cast<double>(absent)});
    keys += runs.back().keys;
  }
  const double bits_per_key =
      Ratio(8.0 * static_cast<double>(shape.filter_bytes), keys);
  absl::StatusOr<double> floor = FewestWastedReads(bits_per_key, runs);
  r->ios_per_miss_floor = floor.ok() ? *floor : kNaN;
  if (shape.files.empty()) return;
  const double overhead =
      CostInputsFor(static_cast<uint64_t>(keys) / shape.files.size())
          .ribbon_overhead;
  absl::StatusOr<double> mix_floor =
      FewestWastedReads(bits_per_key / (1 + overhead), runs);
  r->ios_per_miss_mix_floor = mix_floor.ok() ? *mix_floor : kNaN;
}

void PredictMisses(const EngineShape& shape, const FilterSpec& filter,
                   absl::Span<const double> level_bits, const LookupPlan& plan,
                   bool floor_bounds_reads, BenchResult* r) {
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
  r->ios_per_miss_mix_floor = kNaN;
  if (!floor_bounds_reads || filter.family == FilterFamily::kNone ||
      absent == 0) {
    return;
  }
  SetFloors(shape, covered, absent, r);
}

// Whether `a` and `b` have the same files: levels, key ranges and entries.
namespace {

// A shape's files as SameFiles and TreeFingerprint compare them: level, key
// range and entries, in order.
std::vector<std::tuple<int, std::string, std::string, uint64_t>> FilesOf(
    const EngineShape& shape) {
  std::vector<std::tuple<int, std::string, std::string, uint64_t>> files;
  for (const FileInfo& f : shape.files) {
    files.emplace_back(f.level, f.smallest_key, f.largest_key, f.num_entries);
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

bool SameFiles(const EngineShape& a, const EngineShape& b) {
  return FilesOf(a) == FilesOf(b);
}

uint32_t TreeFingerprint(const EngineShape& shape) {
  // FNV-1a over each file's fields, lengths first so that no two lists of
  // files hash the same bytes: stable across runs and machines, unlike a
  // seeded hash.
  uint64_t h = 0xcbf29ce484222325;
  auto add = [&h](std::string_view bytes) {
    for (char c : bytes) {
      h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3;
    }
  };
  auto add_number = [&add](uint64_t v) {
    add(std::string_view(reinterpret_cast<const char*>(&v), sizeof(v)));
  };
  for (const auto& [level, smallest, largest, entries] : FilesOf(shape)) {
    add_number(static_cast<uint64_t>(level));
    add_number(smallest.size());
    add(smallest);
    add_number(largest.size());
    add(largest);
    add_number(entries);
  }
  return static_cast<uint32_t>(h >> 48);
}

}  // namespace bloomgate::bench
