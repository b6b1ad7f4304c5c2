// Copyright 2026 The bloomgate Authors.

#include "tools/bench/report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/allocation.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "nlohmann/json.hpp"
#include "rocksdb/version.h"
#include "tools/probe_times/probe_times.h"

#ifndef BLOOMGATE_BENCH_VERSION
#define BLOOMGATE_BENCH_VERSION "unknown"
#endif

namespace bloomgate::bench {
namespace {

std::string Percent(double fraction, int decimals) {
  if (std::isnan(fraction)) return "n/a";
  return absl::StrFormat("%.*f%%", decimals, 100.0 * fraction);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string Number(double value, int decimals) {
  if (std::isnan(value)) return "n/a";
  return absl::StrFormat("%.*f", decimals, value);
}

std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        size_t start = line.find_first_not_of(' ', colon + 1);
        return start == std::string::npos ? "" : line.substr(start);
      }
    }
  }
  return "unknown";
}

std::string Levels(const std::vector<int>& files_per_level) {
  std::vector<std::string> parts;
  for (size_t level = 0; level < files_per_level.size(); ++level) {
    if (files_per_level[level] > 0) {
      parts.push_back(absl::StrCat("L", level, " ", files_per_level[level]));
    }
  }
  return absl::StrJoin(parts, ", ");
}

// A plain text table: the first `left` columns left-aligned, the rest right.
std::string RenderTable(const std::vector<std::vector<std::string>>& rows,
                        size_t left) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string out;
  for (size_t r = 0; r < rows.size(); ++r) {
    std::string line;
    for (size_t c = 0; c < rows[r].size(); ++c) {
      if (c > 0) line += "  ";
      const std::string& cell = rows[r][c];
      std::string pad(width[c] - cell.size(), ' ');
      line += c < left ? cell + pad : pad + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (r == 0) {
      size_t total = 0;
      for (size_t w : width) total += w + 2;
      out += std::string(total - 2, '-') + "\n";
    }
  }
  return out;
}

bool HasFilter(const BenchResult& r) {
  return r.filter.family != FilterFamily::kNone;
}

// How far, in percent, a run's filters took more or fewer bits per key than
// it was given, when that is more than kOffMemoryMarkFraction; nullopt
// otherwise, and for a filter given its own parameter instead of memory.
std::optional<double> OffBudgetPercent(const BenchResult& r) {
  if (!(r.bloom_bits > 0) ||
      !(std::abs(r.bits_per_key / r.bloom_bits - 1) > kOffMemoryMarkFraction)) {
    return std::nullopt;
  }
  return 100 * (r.bits_per_key / r.bloom_bits - 1);
}

// A table cell: "10.70", or "10.70(+7.0%)" when off budget (one word, so
// that the table splits on blanks).
std::string SpentBitsCell(const BenchResult& r) {
  std::string cell = Number(r.bits_per_key, 2);
  if (std::optional<double> off = OffBudgetPercent(r)) {
    absl::StrAppend(&cell, absl::StrFormat("(%+.1f%%)", *off));
  }
  return cell;
}

// "L0:7200,L1:46370,...": the keys of each level that has files.
std::string KeysByLevel(const BenchResult& r) {
  std::vector<std::string> levels;
  for (size_t l = 0; l < r.keys_per_level.size(); ++l) {
    if (r.files_per_level[l] > 0) {
      levels.push_back(absl::StrCat("L", l, ":", r.keys_per_level[l]));
    }
  }
  return absl::StrJoin(levels, ",");
}

}  // namespace

std::string BuildWarnings() {
  std::string out;
#ifndef NDEBUG
  out += "WARNING: Assertions are enabled; benchmarks unnecessarily slow\n";
#endif
#ifndef __OPTIMIZE__
  out += "WARNING: Optimization is disabled: benchmarks unnecessarily slow\n";
#endif
#if defined(__SANITIZE_ADDRESS__)
  out +=
      "WARNING: Built with AddressSanitizer: benchmarks unnecessarily slow\n";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  out +=
      "WARNING: Built with AddressSanitizer: benchmarks unnecessarily slow\n";
#endif
#endif
  return out;
}

namespace {

// The header's parts, in its order: the environment (db_bench's
// PrintEnvironment), the workload, what runs, and how the engines are set.

std::string FormatEnvironment() {
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  return absl::StrCat("bloomgate_bench: bloomgate ", BLOOMGATE_BENCH_VERSION,
                      ", RocksDB ", ROCKSDB_MAJOR, ".", ROCKSDB_MINOR, ".",
                      ROCKSDB_PATCH, "\n", "Date:       ", date, "\n",
                      "CPU:        ", std::thread::hardware_concurrency(),
                      " * ", CpuModel(), "\n");
}

std::string FormatWorkload(const BenchOptions& o) {
  std::string out = absl::StrCat(
      "Keys:       ", o.key_size, " bytes each\n", "Values:     ", o.value_size,
      " bytes each\n", "Entries:    ", o.num, ", written in batches of ",
      o.batch_size, "\n", "Lookups:    ", o.reads, " per read benchmark, ",
      o.threads, " thread(s); readmixed ",
      absl::StrFormat("%g", 100 * o.negative_ratio), "% absent keys; keys ",
      o.lookup_dist.Name(), " over their order (--lookup_dist)\n");
  bool filterless = false;
  for (const FilterArg& f : o.filters) {
    filterless |= f.spec.family == FilterFamily::kNone;
  }
  if (filterless && o.filterless_reads > 0 && o.filterless_reads < o.reads) {
    absl::StrAppend(&out, "            (filter none: the first ",
                    o.filterless_reads,
                    " of them, --filterless_reads; 0 for all)\n");
  }
  return out;
}

// The probe times bloomgate_mixed's cost model weighs a filter check with:
// --probe_ns's, or the documented defaults, beside what this machine
// measures (the policy never measures them: a name builds the same filters
// on every host).
std::string ProbeTimesNote(const BenchOptions& o) {
  if (o.bloomgate_probe_nanos > 0) {
    return absl::StrFormat(
        " and a probe at %g ns (bloomgate), %g ns (Ribbon) "
        "(--probe_ns)",
        o.bloomgate_probe_nanos, o.ribbon_probe_nanos);
  }
  std::string note = absl::StrFormat(
      " and a probe at %.1f ns (bloomgate), %.1f ns (Ribbon), the defaults",
      1000 * kDefaultBloomgateProbeMicros,
      1000 * kDefaultRocksDBRibbonProbeMicros);
  if (absl::StatusOr<ProbeTimes> here = MeasureProbeTimes(); here.ok()) {
    absl::StrAppendFormat(&note,
                          " (this machine: %.1f ns, %.1f ns; --probe_ns=%.1f/"
                          "%.1f weighs those)",
                          here->bloomgate_nanos, here->ribbon_nanos,
                          here->bloomgate_nanos, here->ribbon_nanos);
  }
  return note;
}

std::string FormatRunPlan(const BenchOptions& o) {
  std::vector<std::string> engines, filters, benchmarks;
  for (EngineKind e : o.engines) engines.emplace_back(EngineName(e));
  for (const FilterArg& f : o.filters) {
    filters.push_back(f.own_parameter ? f.spec.Name() : f.spec.KindName());
  }
  for (BenchmarkKind b : o.benchmarks) {
    benchmarks.emplace_back(BenchmarkName(b));
  }
  std::string out =
      absl::StrCat("Benchmarks: ", absl::StrJoin(benchmarks, ","), "\n",
                   "Engines:    ", absl::StrJoin(engines, ","), "\n",
                   "Filters:    ", absl::StrJoin(filters, ","), " at ",
                   absl::StrFormat("%g", o.bloom_bits),
                   " bits/key of filter memory each (but those given their "
                   "own parameter)");
  if (std::any_of(o.filters.begin(), o.filters.end(),
                  [](const FilterArg& f) { return f.spec.mixed; })) {
    const bool measured = !o.read_micros.has_value() &&
                          o.engine.use_direct_reads &&
                          !std::isnan(o.measured_read_micros);
    absl::StrAppend(&out, "; bloomgate_mixed weighs a read at ",
                    absl::StrFormat("%.1f", ReadMicros(o)),
                    measured
                        ? " us, the device's (below; --read_micros sets it)"
                        : " us (--read_micros)",
                    ProbeTimesNote(o));
  }
  if (!o.sweep_bits.empty() || o.memory_reference == "none") {
    absl::StrAppend(&out, "; each filter at the memory it is given");
  } else {
    absl::StrAppend(&out, "; every other filter at the memory ",
                    o.memory_reference.empty()
                        ? "the first filter"
                        : absl::StrCat(o.memory_reference, "'s"),
                    " took (--memory_reference)");
  }
  return out + "\n";
}

std::string FormatEngineSettings(const BenchOptions& o,
                                 const DirectReads& direct) {
  const EngineSettings& e = o.engine;
  std::string out = absl::StrCat(
      "LSM shape:  write_buffer_size ", e.write_buffer_size,
      ", target_file_size_base ", e.target_file_size_base,
      ", max_bytes_for_level_base ", e.max_bytes_for_level_base, " x ",
      absl::StrFormat("%g", e.max_bytes_for_level_multiplier), ", ",
      e.num_levels, " levels, auto compactions ",
      e.disable_auto_compactions ? "off" : "on",
      e.level_compaction_dynamic_level_bytes ? "; rocksdb: dynamic level bytes"
                                             : "",
      e.wait_for_compactions ? "; rocksdb: each write waits for its compactions"
                             : "",
      "\n", "RocksDB:    ",
      e.cache_size > 0 ? absl::StrCat("block cache ", e.cache_size, " bytes")
                       : std::string("no block cache"),
      ", filters and indexes in table readers, no compression\n",
      DescribeDirectReads(direct));
  if (o.histogram) {
    absl::StrAppend(&out,
                    "Latency:    per lookup, split by hit and miss "
                    "(--histogram; percentiles within 0.8%)\n");
  }
  if (o.io_latency_us > 0) {
    absl::StrAppend(&out,
                    "I/O model:  ", absl::StrFormat("%g", o.io_latency_us),
                    " us per data-block read (docs/evaluation.md)\n");
  }
  return out;
}

}  // namespace

std::string FormatHeader(const BenchOptions& o, const DirectReads& direct) {
  return absl::StrCat(FormatEnvironment(), FormatWorkload(o), FormatRunPlan(o),
                      FormatEngineSettings(o, direct));
}

namespace {

// A fill's part of its line: its speed and the tree it left, the filters'
// memory and, on a tree of several levels, what each level holds and what
// its filters cost (so a level-aware allocation can be checked against its
// plan).
void AppendFill(const BenchResult& r, std::string* line) {
  absl::StrAppend(line, absl::StrFormat(" %6.1f MB/s;", r.mb_per_sec), " ",
                  r.sst_files, " SST files");
  if (!r.files_per_level.empty()) {
    absl::StrAppend(line, " (", Levels(r.files_per_level), ")");
  }
  if (HasFilter(r)) {
    absl::StrAppend(line, "; filters ", r.filter_bytes, " bytes, ",
                    Number(r.bits_per_key, 2), " bits/key");
    if (std::optional<double> off = OffBudgetPercent(r)) {
      absl::StrAppend(
          line, absl::StrFormat(" (%.1f%% %s its %g budget)", std::abs(*off),
                                *off > 0 ? "over" : "under", r.bloom_bits));
    }
  }
  int levels = 0;
  for (int files : r.files_per_level) levels += files > 0 ? 1 : 0;
  if (levels <= 1) return;
  std::vector<std::string> parts;
  for (size_t level = 0; level < r.keys_per_level.size(); ++level) {
    if (r.files_per_level[level] == 0) continue;
    std::string part = absl::StrCat("L", level, " ", r.keys_per_level[level]);
    if (HasFilter(r)) {
      absl::StrAppend(&part, " at ",
                      Number(r.bits_per_key_per_level[level], 2));
    }
    parts.push_back(std::move(part));
  }
  absl::StrAppend(line, "; keys", HasFilter(r) ? " at bits/key" : "",
                  " by level: ", absl::StrJoin(parts, ", "));
}

// A read's part: the reads it made and avoided, the filters' FP rate, and
// the time model's figures when --io_latency_us sets one.
void AppendRead(const BenchResult& r, std::string* line) {
  absl::StrAppend(line, " (", r.found, " of ", r.ops, " found); ",
                  Number(r.ios_per_op, 4), " I/Os/op");
  if (r.hits > 0 && r.misses > 0) {
    absl::StrAppend(line, " (hit ", Number(r.ios_per_hit, 4), ", miss ",
                    Number(r.ios_per_miss, 4), ")");
  }
  absl::StrAppend(line, "; ", Number(r.ios_avoided_pct, 2),
                  "% of reads avoided");
  if (!HasFilter(r)) {
    absl::StrAppend(line, " (no filter)");
  } else {
    absl::StrAppend(line, "; FP ", Percent(r.fp_observed, 3), " (predicted ",
                    Percent(r.fp_predicted, 3), ")");
  }
  if (r.io_latency_us > 0) {
    absl::StrAppend(line, "; model at ", absl::StrFormat("%g", r.io_latency_us),
                    " us/IO: ", Number(r.modeled_micros_per_op, 1),
                    " micros/op, ", Number(r.modeled_saved_micros_per_op, 1),
                    " saved");
  }
}

}  // namespace

std::string FormatBenchmarkLine(const BenchResult& r) {
  std::string line =
      absl::StrFormat("%-12s : %11.3f micros/op %ld ops/sec;",
                      ToAbsl(BenchmarkName(r.benchmark)), r.micros_per_op,
                      static_cast<long>(r.ops_per_sec + 0.5));
  if (IsFillBenchmark(r.benchmark)) {
    AppendFill(r, &line);
  } else {
    AppendRead(r, &line);
  }
  return line;
}

std::string FormatLatency(const BenchResult& r) {
  if (!r.has_latency) return "";
  std::string out;
  auto block = [&](const char* title, const LatencySummary& s) {
    if (s.count == 0) return;
    absl::StrAppend(
        &out, "Microseconds per lookup, ", title, ":\n",
        absl::StrFormat("Count: %d Average: %.4f  Min: %.2f  Max: %.2f\n",
                        s.count, s.mean_us, s.min_us, s.max_us),
        absl::StrFormat("Percentiles: P50: %.2f P90: %.2f P99: %.2f "
                        "P99.9: %.2f\n",
                        s.p50_us, s.p90_us, s.p99_us, s.p999_us));
  };
  block("misses (absent keys)", r.miss_latency);
  block("hits (present keys)", r.hit_latency);
  return out;
}

namespace {

// Which results a column of the comparison table needs, to be shown: any,
// or one with latency percentiles (--histogram), timed reads, or the I/O
// latency model (--io_latency_us).
enum class ColumnGroup { kAlways, kGrowth, kLatency, kTimedReads, kModel };

bool InGroup(const BenchResult& r, ColumnGroup group) {
  switch (group) {
    case ColumnGroup::kAlways:
      return true;
    case ColumnGroup::kGrowth:
      return r.grown_keys > 0;
    case ColumnGroup::kLatency:
      return r.has_latency;
    case ColumnGroup::kTimedReads:
      return r.timed_reads;
    case ColumnGroup::kModel:
      return r.io_latency_us > 0;
  }
  return false;
}

// One column of the comparison table: its header, when it is shown, and
// its cell for a result: `number` with `decimals`, or what `cell` makes.
struct TableColumn {
  std::string_view header;
  ColumnGroup group;
  double BenchResult::*number = nullptr;
  int decimals = 0;
  std::string (*cell)(const BenchResult& r) = nullptr;

  std::string Cell(const BenchResult& r) const {
    return number != nullptr ? Number(r.*number, decimals) : cell(r);
  }
};

constexpr TableColumn NumberColumn(std::string_view header, ColumnGroup group,
                                   double BenchResult::*number, int decimals) {
  return {header, group, number, decimals, nullptr};
}
constexpr TableColumn Column(std::string_view header, ColumnGroup group,
                             std::string (*cell)(const BenchResult& r)) {
  return {header, group, nullptr, 0, cell};
}

std::string MissLatencyMean(const BenchResult& r) {
  return Number(r.has_latency ? r.miss_latency.mean_us : kNaN, 2);
}
std::string MissLatencyP99(const BenchResult& r) {
  return Number(r.has_latency ? r.miss_latency.p99_us : kNaN, 2);
}
std::string Avoided(const BenchResult& r) {
  return Number(r.ios_avoided_pct, 2) +
         (std::isnan(r.ios_avoided_pct) ? "" : "%");
}
// Filter columns: "-" for a run without a filter.
std::string FpObserved(const BenchResult& r) {
  return HasFilter(r) ? Percent(r.fp_observed, 3) : "-";
}
std::string FpPredicted(const BenchResult& r) {
  return HasFilter(r) ? Percent(r.fp_predicted, 3) : "-";
}
// Five places: at 14 bits per key the floor is a few in 100,000.
std::string MissFloor(const BenchResult& r) {
  return HasFilter(r) ? Number(r.ios_per_miss_floor, 5) : "-";
}
std::string SpentBits(const BenchResult& r) {
  return HasFilter(r) ? SpentBitsCell(r) : "-";
}
// The memory a filter was given, "-" without one or for a filter given its
// own parameter (Ribbon's is no memory).
std::string AskedBits(const BenchResult& r) {
  return HasFilter(r) && r.bloom_bits > 0 ? Number(r.bloom_bits, 2) : "-";
}
std::string FilterCell(const BenchResult& r) { return ResultName(r); }

using enum ColumnGroup;

// The columns in their order (docs/evaluation.md explains them).
constexpr TableColumn kTableColumns[] = {
    Column(
        "engine", kAlways,
        [](const BenchResult& r) { return std::string(EngineName(r.engine)); }),
    Column("filter", kAlways, &FilterCell),
    Column("benchmark", kAlways,
           [](const BenchResult& r) {
             return std::string(BenchmarkName(r.benchmark));
           }),
    Column("keys", kGrowth,
           [](const BenchResult& r) { return absl::StrCat(r.grown_keys); }),
    Column("lookups", kAlways,
           [](const BenchResult& r) { return absl::StrCat(r.ops); }),
    Column("ops/s", kAlways,
           [](const BenchResult& r) {
             return absl::StrFormat("%.0f", r.ops_per_sec);
           }),
    NumberColumn("I/O/hit", kAlways, &BenchResult::ios_per_hit, 4),
    NumberColumn("I/O/miss", kAlways, &BenchResult::ios_per_miss, 4),
    Column("floor", kAlways, &MissFloor),
    NumberColumn("files/miss", kAlways, &BenchResult::covering_files_per_miss,
                 2),
    Column("avoided", kAlways, &Avoided),
    Column("FP observed", kAlways, &FpObserved),
    Column("FP predicted", kAlways, &FpPredicted),
    Column("filter bytes", kAlways,
           [](const BenchResult& r) { return absl::StrCat(r.filter_bytes); }),
    Column("asked", kAlways, &AskedBits),
    Column("bits/key", kAlways, &SpentBits),
    Column("SSTs", kAlways,
           [](const BenchResult& r) { return absl::StrCat(r.sst_files); }),
    Column(
        "tree", kAlways,
        [](const BenchResult& r) { return absl::StrFormat("%04x", r.tree); }),
    Column("miss us", kLatency, &MissLatencyMean),
    Column("miss p99 us", kLatency, &MissLatencyP99),
    NumberColumn("read us", kTimedReads, &BenchResult::read_latency_us, 2),
    NumberColumn("user us/op", kTimedReads, &BenchResult::user_micros_per_op,
                 2),
    Column("explained", kTimedReads,
           [](const BenchResult& r) {
             return Percent(r.explained_micros_per_op / r.micros_per_op, 1);
           }),
    NumberColumn("avoided us/op", kTimedReads,
                 &BenchResult::avoided_read_micros_per_op, 1),
    NumberColumn("model us/op", kModel, &BenchResult::modeled_micros_per_op, 1),
    NumberColumn("saved us/op", kModel,
                 &BenchResult::modeled_saved_micros_per_op, 1),
};

}  // namespace

std::string FormatTable(const std::vector<BenchResult>& results) {
  // A column is shown when some result, of any benchmark, is in its group.
  std::vector<const TableColumn*> columns;
  for (const TableColumn& column : kTableColumns) {
    if (std::any_of(results.begin(), results.end(), [&](const BenchResult& r) {
          return InGroup(r, column.group);
        })) {
      columns.push_back(&column);
    }
  }
  std::vector<std::vector<std::string>> rows(1);
  for (const TableColumn* column : columns) {
    rows[0].emplace_back(column->header);
  }
  for (const BenchResult& r : results) {
    if (IsFillBenchmark(r.benchmark)) continue;
    std::vector<std::string>& row = rows.emplace_back();
    for (const TableColumn* column : columns) row.push_back(column->Cell(r));
  }
  if (rows.size() == 1) return "";
  return RenderTable(rows, 3);
}

namespace {

// The bloomgate_monkey result a uniform result `u` is compared with: of the
// same engine and benchmark, the one asked for the memory nearest u's (in a
// --sweep_bits run, the same memory), the first of equals.
const BenchResult* MonkeyRunFor(const std::vector<BenchResult>& results,
                                const BenchResult& u) {
  const BenchResult* nearest = nullptr;
  for (const BenchResult& m : results) {
    if (!m.filter.SameKind(kMonkeyKind) || std::isnan(m.ios_per_miss) ||
        m.engine != u.engine || m.benchmark != u.benchmark) {
      continue;
    }
    if (nearest == nullptr ||
        std::abs(m.bloom_bits - u.bloom_bits) <
            std::abs(nearest->bloom_bits - u.bloom_bits)) {
      nearest = &m;
    }
  }
  return nearest;
}

}  // namespace

std::string FormatMonkeyComparison(const std::vector<BenchResult>& results) {
  std::vector<std::vector<std::string>> rows = {
      {"engine", "benchmark", "keys by level", "monkey bits/key",
       "uniform bits/key", "uniform bytes", "monkey bytes", "memory m/u",
       "uniform I/O/miss", "monkey I/O/miss", "fewer I/Os", "predicted"}};
  std::string notes;
  for (const BenchResult& m : results) {
    if (!m.filter.SameKind(kMonkeyKind) || std::isnan(m.ios_per_miss)) {
      continue;
    }
    const std::string engine(EngineName(m.engine));
    const std::string benchmark(BenchmarkName(m.benchmark));
    for (const BenchResult& u : results) {
      if (!u.filter.SameKind(kUniformKind) || u.engine != m.engine ||
          u.benchmark != m.benchmark || MonkeyRunFor(results, u) != &m) {
        continue;
      }
      const std::string tree = KeysByLevel(m);
      if (u.tree != m.tree) {
        absl::StrAppend(
            &notes, engine, " ", benchmark,
            absl::StrFormat(": the uniform run's files differ (tree %04x "
                            "against %04x; keys by level ",
                            u.tree, m.tree),
            KeysByLevel(u), ")\n");
      }
      rows.push_back(
          {engine, benchmark, tree, SpentBitsCell(m), Number(u.bloom_bits, 4),
           absl::StrCat(u.filter_bytes), absl::StrCat(m.filter_bytes),
           Number(static_cast<double>(m.filter_bytes) /
                      static_cast<double>(u.filter_bytes),
                  4),
           Number(u.ios_per_miss, 5), Number(m.ios_per_miss, 5),
           Number(u.ios_per_miss / m.ios_per_miss, 2) + "x",
           Number(u.ios_per_miss_predicted / m.ios_per_miss_predicted, 2) +
               "x"});
    }
  }
  if (rows.size() == 1) return "";
  if (!notes.empty()) {
    absl::StrAppend(&notes,
                    "(The fewer I/Os then mix the filters' gain with the "
                    "trees' difference. RocksDB's background compactions "
                    "shape each database as they run; "
                    "--wait_for_compactions grows both from the keys alone.)"
                    "\n");
  }
  return RenderTable(rows, 3) + notes;
}

std::string FormatJson(const std::vector<BenchResult>& results) {
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const BenchResult& r : results) array.push_back(r);
  return array.dump(2) + "\n";
}

absl::Status WriteJsonFile(const std::string& path,
                           const std::vector<BenchResult>& results) {
  std::ofstream file(path, std::ios::trunc);
  if (!file) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot write --json=", path));
  }
  file << FormatJson(results);
  file.close();
  if (!file) {
    return absl::DataLossError(absl::StrCat("error writing --json=", path));
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::bench
