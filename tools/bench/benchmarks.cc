// Copyright 2026 The bloomgate Authors.
//
// bloomgate_bench's benchmarks, one Runner member each, as LevelDB's
// db_bench has them: the fills and the reads, measured with measure.h.
// What runs, on which engines and filters, is the runner's (runner.cc).

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "tools/bench/engine.h"
#include "tools/bench/measure.h"
#include "tools/bench/monkey.h"
#include "tools/bench/progress.h"
#include "tools/bench/report.h"
#include "tools/bench/runner.h"
#include "tools/bench/workload.h"

namespace bloomgate::bench {
namespace {

// "lsm/bloomgate readmissing": what a progress bar says it is running.
std::string ProgressLabel(const BenchResult& r) {
  return absl::StrCat(ToAbsl(EngineName(r.engine)), "/", r.filter.KindName(),
                      " ", ToAbsl(BenchmarkName(r.benchmark)));
}

}  // namespace

struct Runner::FillPlan {
  std::vector<int64_t> order;
  // (end in `order`, level) for each level, deepest first; the keys before
  // each end are compacted into that level once written (level 0: left in
  // the memtable and L0).
  std::vector<std::pair<size_t, int>> level_ends;
};

BenchResult Runner::NewResult(const Target& target,
                              BenchmarkKind benchmark) const {
  BenchResult r;
  r.engine = target.engine_kind;
  r.filter = target.filter;
  r.own_parameter = target.own_parameter;
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
  const KeySpace keys(KeySpaceKeys(o), o.key_size);
  const ValueSource values(o.value_size, o.seed);
  const auto num = static_cast<int64_t>(plan.order.size());
  ProgressBar progress(ProgressLabel(r), num, o.progress);
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
  r.ops = num;
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

absl::StatusOr<std::vector<BenchResult>> Runner::Grow(const Target& target) {
  const BenchOptions& o = options_;
  // One order of every key, the same for every filter: step after step
  // writes its next stretch, so each step's new keys spread over the key
  // range as the earlier ones did.
  const std::vector<int64_t> order =
      FillOrder(o.grow_to, /*random=*/true, StreamSeed(o.seed, 0, 0));
  std::vector<BenchResult> results;
  size_t written = 0;
  const std::vector<int64_t> steps =
      GrowthSteps(o.num, o.grow_to, o.grow_steps);
  for (size_t step = 0; step < steps.size(); ++step) {
    const auto keys = static_cast<size_t>(steps[step]);
    FillPlan plan;
    plan.order.assign(order.begin() + static_cast<ptrdiff_t>(written),
                      order.begin() + static_cast<ptrdiff_t>(keys));
    plan.level_ends.push_back({plan.order.size(), 0});
    *out_ << "step " << step + 1 << " of " << steps.size() << ": " << keys
          << " keys\n";
    absl::StatusOr<BenchResult> fill =
        DoFill(target, BenchmarkKind::kFillRandom, plan);
    if (!fill.ok()) return fill.status();
    fill->grown_keys = steps[step];
    results.push_back(*std::move(fill));
    // A lookup stream of its own for each step, the same for every filter.
    absl::StatusOr<BenchResult> read =
        DoRead(target, BenchmarkKind::kReadMissing, /*index=*/step + 1,
               /*negative_ratio=*/1.0);
    if (!read.ok()) return read.status();
    read->grown_keys = steps[step];
    results.push_back(*std::move(read));
    written = keys;
  }
  return results;
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
  const LookupPlan plan{KeySpace(KeySpaceKeys(o), o.key_size),
                        negative_ratio,
                        o.seed,
                        index,
                        o.threads,
                        reads,
                        o.lookup_dist};
  r.lookup_dist = o.lookup_dist.Name();
  std::vector<ReadTally> tallies(static_cast<size_t>(o.threads));
  ProgressBar progress(ProgressLabel(r), reads, o.progress);
  const EngineCounters engine_before = engine.GetEngineCounters();
  const lsm::LookupCounters before = engine.GetCounters();
  Clock::time_point start = Clock::now();
  TimeLookups(engine, plan, batch, o.histogram, &progress, &tallies);
  r.seconds = Seconds(Clock::now() - start);
  progress.Finish();
  const lsm::LookupCounters after = engine.GetCounters();
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
  // Each read one lookup's: no MultiGet batch, no block cache.
  const bool floor_bounds_reads =
      batch == 1 &&
      (target.engine_kind != EngineKind::kRocksDB || o.engine.cache_size == 0);
  PredictMisses(*shape, target.filter, target.level_bits, plan,
                floor_bounds_reads, &r);

  r.direct_reads = engine.direct_reads();
  *out_ << FormatBenchmarkLine(r) << "\n" << FormatLatency(r) << std::flush;
  return r;
}

void Runner::Stats(const Target& target) {
  lsm::LookupCounters c = target.engine->GetCounters();
  *out_ << "stats : data-block reads " << c.hit_reads + c.miss_reads
        << ", filter checks " << c.filter_checks << ", negatives "
        << c.filter_negatives << ", positives " << c.filter_positives
        << " (true " << c.filter_positives - c.false_positives << ")\n"
        << target.engine->StatsText() << std::flush;
}

}  // namespace bloomgate::bench
