// Copyright 2026 The bloomgate Authors.

#include "lsm/stats_recorder.h"

#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace bloomgate::lsm {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}  // namespace

StatsRecorder::StatsRecorder(int num_levels)
    : num_levels_(num_levels), levels_(new Level[num_levels]) {}

void StatsRecorder::RecordGet(const GetTally* tallies, int levels_touched,
                              bool hit, bool memtable) {
  uint64_t reads = 0;
  for (int l = 0; l < levels_touched; ++l) {
    const GetTally& t = tallies[l];
    if (t.files_considered == 0) continue;
    Level& s = levels_[l];
    Add(s.files_considered, t.files_considered);
    Add(s.skipped_by_range, t.skipped_by_range);
    Add(s.filter_checks, t.filter_checks);
    Add(s.filter_negatives, t.filter_negatives);
    Add(s.filter_positives, t.filter_positives);
    Add(s.false_positives, t.false_positives);
    Add(s.data_block_reads, t.data_block_reads);
    Add(s.data_block_bytes, t.data_block_bytes);
    Add(s.data_block_read_nanos, t.data_block_read_nanos);
    if (t.predicted_false_positives != 0) {
      s.predicted_false_positives.fetch_add(t.predicted_false_positives,
                                            kRelaxed);
    }
    reads += t.data_block_reads;
  }
  Add(gets_, 1);
  Add(hit ? hits_ : misses_, 1);
  if (memtable) Add(memtable_hits_, 1);
  Add(hit ? hit_reads_ : miss_reads_, reads);
}

void StatsRecorder::Fill(IoStats* out) const {
  for (int l = 0; l < num_levels_; ++l) {
    const Level& s = levels_[l];
    LevelStats& d = out->levels[l];
    d.files_considered = s.files_considered.load(kRelaxed);
    d.skipped_by_range = s.skipped_by_range.load(kRelaxed);
    d.filter_checks = s.filter_checks.load(kRelaxed);
    d.filter_negatives = s.filter_negatives.load(kRelaxed);
    d.filter_positives = s.filter_positives.load(kRelaxed);
    d.false_positives = s.false_positives.load(kRelaxed);
    d.data_block_reads = s.data_block_reads.load(kRelaxed);
    d.data_block_bytes = s.data_block_bytes.load(kRelaxed);
    d.data_block_read_nanos = s.data_block_read_nanos.load(kRelaxed);
    d.predicted_false_positives = s.predicted_false_positives.load(kRelaxed);
  }
  out->gets = gets_.load(kRelaxed);
  out->hits = hits_.load(kRelaxed);
  out->misses = misses_.load(kRelaxed);
  out->memtable_hits = memtable_hits_.load(kRelaxed);
  out->hit_reads = hit_reads_.load(kRelaxed);
  out->miss_reads = miss_reads_.load(kRelaxed);
  out->table_open_reads = table_open_reads_.load(kRelaxed);
  out->table_open_bytes = table_open_bytes_.load(kRelaxed);
  out->compaction_reads = compaction_reads_.load(kRelaxed);
  out->compaction_bytes = compaction_bytes_.load(kRelaxed);
  out->recovery_reads = recovery_reads_.load(kRelaxed);
  out->recovery_bytes = recovery_bytes_.load(kRelaxed);
  out->flushes = flushes_.load(kRelaxed);
  out->compactions = compactions_.load(kRelaxed);
  out->wal_bytes = wal_bytes_.load(kRelaxed);
  out->table_bytes_written = table_bytes_written_.load(kRelaxed);
}

void StatsRecorder::Reset() {
  for (int l = 0; l < num_levels_; ++l) {
    Level& s = levels_[l];
    for (auto* c :
         {&s.files_considered, &s.skipped_by_range, &s.filter_checks,
          &s.filter_negatives, &s.filter_positives, &s.false_positives,
          &s.data_block_reads, &s.data_block_bytes, &s.data_block_read_nanos}) {
      c->store(0, kRelaxed);
    }
    s.predicted_false_positives.store(0, kRelaxed);
  }
  for (auto* c :
       {&gets_, &hits_, &misses_, &memtable_hits_, &hit_reads_, &miss_reads_,
        &table_open_reads_, &table_open_bytes_, &compaction_reads_,
        &compaction_bytes_, &recovery_reads_, &recovery_bytes_, &flushes_,
        &compactions_, &wal_bytes_, &table_bytes_written_}) {
    c->store(0, kRelaxed);
  }
}

// --- Public stats.h methods. ---

double LevelStats::ObservedFpRate() const {
  const uint64_t negatives = filter_negatives + false_positives;
  return negatives == 0 ? 0.0
                        : static_cast<double>(false_positives) / negatives;
}

double LevelStats::PredictedFpRate() const {
  const uint64_t negatives = filter_negatives + false_positives;
  return negatives == 0 ? 0.0 : predicted_false_positives / negatives;
}

double IoStats::ReadsPerHit() const {
  return hits == 0 ? 0.0 : static_cast<double>(hit_reads) / hits;
}

double IoStats::ReadsPerMiss() const {
  return misses == 0 ? 0.0 : static_cast<double>(miss_reads) / misses;
}

std::string IoStats::ToString() const {
  std::string out = absl::StrFormat(
      "gets %d (hits %d, misses %d, memtable %d); reads/hit %.4f, "
      "reads/miss %.4f\n",
      gets, hits, misses, memtable_hits, ReadsPerHit(), ReadsPerMiss());
  absl::StrAppendFormat(
      &out, "%-6s %6s %10s %10s %10s %10s %10s %10s %10s %8s %8s %10s\n",
      "level", "files", "considered", "range-skip", "checks", "negatives",
      "positives", "false-pos", "reads", "fp-obs%", "fp-pred%", "filter-KiB");
  auto line = [&out](std::string_view name, const LevelStats& s) {
    absl::StrAppendFormat(
        &out,
        "%-6s %6d %10d %10d %10d %10d %10d %10d %10d %8.4f %8.4f %10.1f\n",
        name, s.num_files, s.files_considered, s.skipped_by_range,
        s.filter_checks, s.filter_negatives, s.filter_positives,
        s.false_positives, s.data_block_reads, 100 * s.ObservedFpRate(),
        100 * s.PredictedFpRate(), s.filter_bytes / 1024.0);
  };
  for (size_t l = 0; l < levels.size(); ++l) {
    if (levels[l].num_files == 0 && levels[l].files_considered == 0) continue;
    line(absl::StrCat("L", l), levels[l]);
  }
  line("total", total);
  absl::StrAppendFormat(&out,
                        "other reads: table open %d, compaction %d, "
                        "recovery %d; flushes %d, compactions %d\n",
                        table_open_reads, compaction_reads, recovery_reads,
                        flushes, compactions);
  return out;
}

}  // namespace bloomgate::lsm
