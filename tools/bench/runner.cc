// Copyright 2026 The bloomgate Authors.

#include "runner.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl_compat.h"
#include "engine.h"
#include "fp_model.h"
#include "progress.h"
#include "report.h"
#include "workload.h"

namespace bloomgate::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using Clock = std::chrono::steady_clock;

double Ratio(double num, double den) { return den > 0 ? num / den : kNaN; }

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// What the threads of a read benchmark tally, merged after they join.
struct ReadTally {
  int64_t found = 0;
  int64_t not_found = 0;
  absl::Status status;
};

void FillShape(const EngineShape& shape, FilterKind filter, double bits,
               BenchResult* r) {
  r->sst_files = static_cast<int>(shape.files.size());
  r->files_per_level.clear();
  for (const FileInfo& f : shape.files) {
    if (f.level < 0) continue;
    if (static_cast<size_t>(f.level) >= r->files_per_level.size()) {
      r->files_per_level.resize(static_cast<size_t>(f.level) + 1, 0);
    }
    ++r->files_per_level[static_cast<size_t>(f.level)];
  }
  r->filter_bytes = shape.filter_bytes;
  r->bits_per_key = filter == FilterKind::kNone
                        ? kNaN
                        : Ratio(8.0 * static_cast<double>(shape.filter_bytes),
                                static_cast<double>(shape.filter_keys));
  r->fp_predicted = PredictedFp(filter, bits, shape);
}

}  // namespace

std::string EngineDir(const std::string& base, EngineKind engine,
                      FilterKind filter) {
  return absl::StrCat(base, "/", Sv(EngineName(engine)), "_",
                      Sv(FilterName(filter)));
}

Runner::Runner(const BenchOptions& options, std::ostream* out)
    : options_(options), out_(out) {}

absl::StatusOr<std::vector<BenchResult>> Runner::RunAll() {
  std::string base = options_.db;
  bool temporary = base.empty();
  if (temporary) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "bloomgate_bench.XXXXXX")
            .string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return absl::InternalError("cannot create a temporary folder");
    }
    base = pattern;
  } else {
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
    if (ec) {
      return absl::InternalError(
          absl::StrCat("cannot create --db=", base, ": ", ec.message()));
    }
  }

  std::vector<BenchResult> all;
  absl::Status status;
  for (EngineKind engine : options_.engines) {
    for (FilterKind filter : options_.filters) {
      if (!EngineSupports(engine, filter)) {
        *out_ << "(skipping engine " << EngineName(engine) << " with filter "
              << FilterName(filter) << ": not supported)\n";
        continue;
      }
      std::string dir = EngineDir(base, engine, filter);
      absl::StatusOr<std::vector<BenchResult>> results =
          RunOne(engine, filter, dir);
      if (!options_.keep_db && !options_.use_existing_db) {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
      }
      if (!results.ok()) {
        status = results.status();
        break;
      }
      all.insert(all.end(), results->begin(), results->end());
    }
    if (!status.ok()) break;
  }
  if (temporary && !options_.keep_db) {
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
  } else if (options_.keep_db) {
    *out_ << "(databases kept in " << base << ")\n";
  }
  if (!status.ok()) return status;
  return all;
}

absl::StatusOr<std::vector<BenchResult>> Runner::RunOne(
    EngineKind engine_kind, FilterKind filter, const std::string& dir) {
  const BenchOptions& o = options_;
  EngineOptions eo;
  eo.dir = dir;
  eo.use_existing = o.use_existing_db;
  eo.filter = filter;
  eo.bloom_bits = o.bloom_bits;
  eo.write_buffer_size = o.write_buffer_size;
  eo.target_file_size_base = o.target_file_size_base;
  eo.max_bytes_for_level_base = o.max_bytes_for_level_base;
  eo.max_bytes_for_level_multiplier = o.max_bytes_for_level_multiplier;
  eo.num_levels = o.num_levels;
  eo.disable_auto_compactions = o.disable_auto_compactions;
  eo.cache_size = o.cache_size;
  if (!o.use_existing_db) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::filesystem::create_directories(dir, ec);
  }
  absl::StatusOr<std::unique_ptr<Engine>> opened = OpenEngine(engine_kind, eo);
  if (!opened.ok()) return opened.status();
  Engine& engine = **opened;

  const std::string engine_name(EngineName(engine_kind));
  const std::string filter_name(FilterName(filter));
  const double bits = filter == FilterKind::kNone ? 0 : o.bloom_bits;
  *out_ << "-- engine " << engine_name << ", filter " << filter_name;
  if (filter != FilterKind::kNone) {
    *out_ << " (" << o.bloom_bits << " bits/key)";
  }
  *out_ << "\n" << std::flush;

  const KeySpace keys(o.num, o.key_size);
  std::vector<BenchResult> results;
  for (size_t bench_index = 0; bench_index < o.benchmarks.size();
       ++bench_index) {
    BenchmarkKind bench = o.benchmarks[bench_index];
    BenchResult r;
    r.engine = engine_name;
    r.filter = filter_name;
    r.benchmark = std::string(BenchmarkName(bench));
    r.bloom_bits = bits;
    r.threads = 1;
    r.io_latency_us = o.io_latency_us;

    if (bench == BenchmarkKind::kStats) {
      ReadCounters c = engine.GetCounters();
      *out_ << "stats : data-block reads " << c.hit_reads + c.miss_reads
            << ", filter checks " << c.filter_checks << ", negatives "
            << c.filter_negatives << ", positives " << c.filter_positives
            << " (true " << c.filter_true_positives << ")\n"
            << engine.StatsText() << std::flush;
      continue;
    }

    if (IsFillBenchmark(bench)) {
      if (o.use_existing_db) {
        *out_ << r.benchmark << " : skipped (--use_existing_db)\n";
        continue;
      }
      const std::vector<int64_t> order =
          FillOrder(o.num, bench == BenchmarkKind::kFillRandom,
                    StreamSeed(o.seed, bench_index, 0));
      const ValueSource values(o.value_size, o.seed);
      ProgressBar progress(
          absl::StrCat(engine_name, "/", filter_name, " ", r.benchmark), o.num,
          o.progress);
      std::vector<std::string> batch_keys;
      std::vector<std::string_view> batch_values;
      absl::Status s;
      Clock::time_point start = Clock::now();
      for (int64_t n = 0; n < o.num && s.ok(); n += o.batch_size) {
        const int64_t end = std::min(o.num, n + o.batch_size);
        batch_keys.resize(static_cast<size_t>(end - n));
        batch_values.resize(static_cast<size_t>(end - n));
        for (int64_t m = n; m < end; ++m) {
          int64_t i = order[static_cast<size_t>(m)];
          keys.PresentKey(i, &batch_keys[static_cast<size_t>(m - n)]);
          batch_values[static_cast<size_t>(m - n)] = values.ValueFor(i);
        }
        s = end - n == 1 ? engine.Put(batch_keys[0], batch_values[0])
                         : engine.PutBatch(batch_keys, batch_values);
        progress.Update(end);
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
      FillShape(*shape, filter, bits, &r);
      r.ios_per_op = r.ios_per_hit = r.ios_per_miss = kNaN;
      r.files_on_path = r.files_on_path_per_op = kNaN;
      r.covering_files_per_miss = kNaN;
      r.ios_avoided_pct = kNaN;
      r.fp_observed = kNaN;
      r.modeled_micros_per_op = r.modeled_saved_micros_per_op = kNaN;
      *out_ << FormatBenchmarkLine(r) << "\n" << std::flush;
      results.push_back(std::move(r));
      continue;
    }

    // A read benchmark.
    double negative_ratio = bench == BenchmarkKind::kReadMissing ? 1.0
                            : bench == BenchmarkKind::kReadRandom
                                ? 0.0
                                : o.negative_ratio;
    absl::StatusOr<EngineShape> shape = engine.GetShape();
    if (!shape.ok()) return shape.status();
    FillShape(*shape, filter, bits, &r);

    const int threads = o.threads;
    r.threads = threads;
    // Filterless runs may look up only the start of the same streams
    // (--filterless_reads): each of their lookups reads every covering file,
    // so they cost tens of times more per lookup, at the same rate.
    const int64_t reads = filter == FilterKind::kNone && o.filterless_reads > 0
                              ? std::min(o.reads, o.filterless_reads)
                              : o.reads;
    std::vector<ReadTally> tallies(static_cast<size_t>(threads));
    auto ops_of = [&](int t) {
      return reads / threads + (t < reads % threads ? 1 : 0);
    };
    ProgressBar progress(
        absl::StrCat(engine_name, "/", filter_name, " ", r.benchmark), reads,
        o.progress);
    const ReadCounters before = engine.GetCounters();
    Clock::time_point start = Clock::now();
    auto worker = [&](int t) {
      ReadTally& tally = tallies[static_cast<size_t>(t)];
      LookupStream stream(keys, negative_ratio,
                          StreamSeed(o.seed, bench_index, t + 1));
      std::string key, value;
      const int64_t n_ops = ops_of(t);
      for (int64_t n = 0; n < n_ops; ++n) {
        Lookup lookup = stream.Next();
        if (lookup.absent) {
          keys.AbsentKey(lookup.index, &key);
        } else {
          keys.PresentKey(lookup.index, &key);
        }
        bool found = false;
        absl::Status s = engine.Get(key, &value, &found);
        if (!s.ok()) {
          tally.status = s;
          return;
        }
        ++(found ? tally.found : tally.not_found);
        if (t == 0 && (n & 1023) == 0) progress.Update(n * threads);
      }
    };
    if (threads == 1) {
      worker(0);
    } else {
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) pool.emplace_back(worker, t);
      for (std::thread& th : pool) th.join();
    }
    r.seconds = Seconds(Clock::now() - start);
    progress.Finish();
    const ReadCounters after = engine.GetCounters();
    for (const ReadTally& tally : tallies) {
      if (!tally.status.ok()) return tally.status;
      r.hits += tally.found;
      r.misses += tally.not_found;
    }
    r.found = r.hits;
    r.ios_hits = after.hit_reads - before.hit_reads;
    r.ios_misses = after.miss_reads - before.miss_reads;
    r.ops = r.hits + r.misses;
    r.ios = r.ios_hits + r.ios_misses;
    r.micros_per_op =
        Ratio(r.seconds * 1e6 * threads, static_cast<double>(r.ops));
    r.ops_per_sec = Ratio(static_cast<double>(r.ops), r.seconds);
    r.ios_per_op =
        Ratio(static_cast<double>(r.ios), static_cast<double>(r.ops));
    r.ios_per_hit =
        Ratio(static_cast<double>(r.ios_hits), static_cast<double>(r.hits));
    r.ios_per_miss =
        Ratio(static_cast<double>(r.ios_misses), static_cast<double>(r.misses));

    r.filter_checks = after.filter_checks - before.filter_checks;
    r.filter_negatives = after.filter_negatives - before.filter_negatives;
    const uint64_t positives = after.filter_positives - before.filter_positives;
    const uint64_t true_positives =
        after.filter_true_positives - before.filter_true_positives;
    r.filter_false_positives = positives - std::min(positives, true_positives);
    r.files_on_path =
        after.files_on_path_known
            ? static_cast<double>(after.files_on_path - before.files_on_path)
            : kNaN;
    r.files_on_path_per_op = Ratio(r.files_on_path, static_cast<double>(r.ops));
    if (filter == FilterKind::kNone) {
      r.ios_avoided_pct = 0;
      r.fp_observed = kNaN;
    } else {
      r.ios_avoided_pct = 100.0 * Ratio(static_cast<double>(r.filter_negatives),
                                        r.files_on_path);
      r.fp_observed =
          Ratio(static_cast<double>(r.filter_false_positives),
                static_cast<double>(r.filter_checks - true_positives));
    }
    double avoided_per_op = Ratio(static_cast<double>(r.filter_negatives),
                                  static_cast<double>(r.ops));
    r.modeled_micros_per_op =
        o.io_latency_us > 0 ? r.micros_per_op + r.ios_per_op * o.io_latency_us
                            : kNaN;
    r.modeled_saved_micros_per_op =
        o.io_latency_us > 0 ? avoided_per_op * o.io_latency_us : kNaN;

    // Outside the timed loop: replay the same lookups and count, from the
    // files' key ranges alone, how many files cover each absent key.
    uint64_t covering = 0, absent = 0;
    for (int t = 0; t < threads; ++t) {
      LookupStream stream(keys, negative_ratio,
                          StreamSeed(o.seed, bench_index, t + 1));
      std::string key;
      for (int64_t n = 0, n_ops = ops_of(t); n < n_ops; ++n) {
        Lookup lookup = stream.Next();
        if (!lookup.absent) continue;
        keys.AbsentKey(lookup.index, &key);
        covering += static_cast<uint64_t>(CountCoveringFiles(*shape, key));
        ++absent;
      }
    }
    r.covering_files_per_miss =
        Ratio(static_cast<double>(covering), static_cast<double>(absent));

    *out_ << FormatBenchmarkLine(r) << "\n" << std::flush;
    results.push_back(std::move(r));
  }
  absl::Status s = engine.Close();
  if (!s.ok()) return s;
  return results;
}

}  // namespace bloomgate::bench
