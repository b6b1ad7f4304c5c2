// Copyright 2026 The bloomgate Authors.
//
// The methods of the public statistics structs (bloomgate/lsm/stats.h).

#include "bloomgate/lsm/stats.h"

#include <cstddef>
#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/absl_compat.h"
#include "src/lsm/coding.h"

namespace bloomgate::lsm {

// Every field has its row: a field added without one changes a size here.
static_assert(sizeof(LevelLookupStats) ==
              sizeof(uint64_t) * std::size(kLevelLookupStatFields));
static_assert(sizeof(LevelStats) ==
              sizeof(LevelLookupStats) +
                  sizeof(uint64_t) * std::size(kLevelShapeStatFields));
static_assert(sizeof(StoreStats) ==
              sizeof(uint64_t) * std::size(kStoreStatFields));
static_assert(offsetof(LookupCounters, files_on_path_known) ==
              sizeof(uint64_t) * std::size(kLookupCounterFields));

LookupCounters LookupCounters::Since(const LookupCounters& before) const {
  LookupCounters delta = *this;
  for (const auto& field : kLookupCounterFields) {
    delta.*field.count -= before.*field.count;
  }
  return delta;
}

LevelStats& LevelStats::operator+=(const LevelStats& other) {
  for (const auto& field : kLevelLookupStatFields) field.Add(other, *this);
  for (const auto& field : kLevelShapeStatFields) field.Add(other, *this);
  return *this;
}

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

LookupCounters IoStats::Lookups() const {
  return LookupCounters{
      .files_on_path = total.files_considered - total.skipped_by_range,
      .filter_checks = total.filter_checks,
      .filter_negatives = total.filter_negatives,
      .filter_positives = total.filter_positives,
      .false_positives = total.false_positives,
      .hit_reads = hit_reads,
      .miss_reads = miss_reads,
      .data_block_read_nanos = total.data_block_read_nanos,
      .files_on_path_known = true,
      .read_nanos_known = true,
  };
}

std::string IoStats::ToString() const {
  std::string out = absl::StrFormat(
      "gets %d (hits %d, misses %d, memtable %d); reads/hit %.4f, "
      "reads/miss %.4f\n",
      gets, hits, misses, memtable_hits, ReadsPerHit(), ReadsPerMiss());
  // Columns: the level and its file count, every lookup counter that has a
  // column header, then the rates and the filters' memory.
  absl::StrAppendFormat(&out, "%-6s %6s", "level", "files");
  for (const auto& field : kLevelLookupStatFields) {
    if (!field.column.empty()) {
      absl::StrAppendFormat(&out, " %10s", ToAbsl(field.column));
    }
  }
  absl::StrAppendFormat(&out, " %8s %8s %10s\n", "fp-obs%", "fp-pred%",
                        "filter-KiB");
  auto line = [&out](absl::string_view name, const LevelStats& s) {
    absl::StrAppendFormat(&out, "%-6s %6d", name, s.num_files);
    for (const auto& field : kLevelLookupStatFields) {
      if (field.column.empty()) continue;
      if (field.count != nullptr) {
        absl::StrAppendFormat(&out, " %10d", s.*field.count);
      } else {
        absl::StrAppendFormat(&out, " %10.1f", s.*field.sum);
      }
    }
    absl::StrAppendFormat(&out, " %8.4f %8.4f %10.1f\n",
                          100 * s.ObservedFpRate(), 100 * s.PredictedFpRate(),
                          s.filter_bytes / 1024.0);
  };
  for (size_t l = 0; l < levels.size(); ++l) {
    if (levels[l].num_files == 0 && levels[l].files_considered == 0) continue;
    line(absl::StrCat("L", l), levels[l]);
  }
  line("total", total);
  if (filter_budget_bytes != 0) {
    absl::StrAppendFormat(
        &out, "filter memory: %.1f KiB of a %.1f KiB budget\n",
        total.filter_bytes / 1024.0, filter_budget_bytes / 1024.0);
  }
  absl::StrAppendFormat(&out,
                        "other reads: table open %d, compaction %d, "
                        "recovery %d; flushes %d, compactions %d\n",
                        table_open_reads, compaction_reads, recovery_reads,
                        flushes, compactions);
  return out;
}

}  // namespace bloomgate::lsm
