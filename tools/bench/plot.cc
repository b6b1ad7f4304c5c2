// Copyright 2026 The bloomgate Authors.

#include "tools/bench/plot.h"

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/sizing.h"

namespace bloomgate::bench {
namespace {

using Json = nlohmann::json;

// The results of a --json array, read back through BenchResult's fields;
// those of kinds this tool does not know are left out.
std::vector<BenchResult> ReadResults(const Json& json) {
  std::vector<BenchResult> results;
  for (const Json& object : json) {
    absl::StatusOr<BenchResult> r =
        ResultFromJson(nlohmann::ordered_json(object));
    if (r.ok()) results.push_back(*std::move(r));
  }
  return results;
}

bool IsReadMissing(const BenchResult& r) {
  return r.benchmark == BenchmarkKind::kReadMissing;
}

std::string EngineTitle(const BenchResult& r) {
  return std::string(EngineName(r.engine));
}

// The index of the series titled `title`, appended if new.
size_t SeriesIndex(std::vector<Series>* series, const std::string& title) {
  for (size_t i = 0; i < series->size(); ++i) {
    if ((*series)[i].title == title) return i;
  }
  series->push_back(Series{title, {}});
  return series->size() - 1;
}

absl::Status WriteFile(const std::string& path, const std::string& text) {
  std::ofstream file(path, std::ios::trunc);
  if (!file) {
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", path));
  }
  file << text;
  file.close();
  return file ? absl::OkStatus()
              : absl::DataLossError(absl::StrCat("error writing ", path));
}

absl::Status CreateDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create ", dir, ": ", ec.message()));
  }
  return absl::OkStatus();
}

// "plot 'file' index 0 ..., \\\n     'file' index 1 ...": one clause a line.
std::string PlotCommand(const std::vector<std::string>& clauses) {
  return absl::StrCat("plot ", absl::StrJoin(clauses, ", \\\n     "), "\n");
}

constexpr char kTerminal[] = "set terminal pngcairo size 960,640 noenhanced\n";

}  // namespace

std::vector<Series> FpAgainstBits(const Json& results) {
  std::vector<Series> series;
  std::vector<std::string> filters;  // filters[i]: the filter of series[i]
  for (const BenchResult& r : ReadResults(results)) {
    if (!IsReadMissing(r) || r.filter.family == FilterFamily::kNone) continue;
    const std::string filter = r.filter.KindName();
    const std::string title = absl::StrCat(filter, " (", EngineTitle(r), ")");
    // A filter's curve is that of the first engine that ran it.
    auto it = std::find(filters.begin(), filters.end(), filter);
    if (it == filters.end()) {
      filters.push_back(filter);
      series.push_back(Series{title, {}});
      it = filters.end() - 1;
    }
    Series& s = series[static_cast<size_t>(it - filters.begin())];
    if (s.title != title) continue;
    s.points.emplace_back(
        std::isnan(r.bits_per_key) ? r.bloom_bits : r.bits_per_key,
        r.fp_observed);
  }
  return series;
}

std::vector<Series> FpTheory() {
  std::vector<Series> theory(2);
  theory[0].title = "blocked Bloom, 512-bit lines (theory)";
  theory[1].title = "standard Bloom (theory)";
  for (double bits = 1; bits <= 20.001; bits += 0.25) {
    theory[0].points.emplace_back(
        bits, PredictedFpRate(Layout::kBlocked, bits,
                              OptimalNumProbes(Layout::kBlocked, bits)));
    theory[1].points.emplace_back(
        bits, PredictedFpRate(Layout::kStandard, bits,
                              OptimalNumProbes(Layout::kStandard, bits)));
  }
  return theory;
}

std::vector<Series> IosAgainstFiles(const Json& results) {
  std::vector<Series> series;
  for (const BenchResult& r : ReadResults(results)) {
    if (!IsReadMissing(r)) continue;
    const size_t i = SeriesIndex(
        &series, absl::StrCat(EngineTitle(r), " ", r.filter.KindName()));
    series[i].points.emplace_back(r.covering_files_per_miss, r.ios_per_miss);
  }
  return series;
}

SweepScale ScaleOf(const Json& results) {
  SweepScale scale;
  for (const BenchResult& r : ReadResults(results)) {
    if (!IsReadMissing(r)) continue;
    scale.lookups = r.ops;
    for (int64_t keys : r.keys_per_level) scale.keys += keys;
    break;
  }
  return scale;
}

MemorySweep ReadsAgainstMemory(const Json& results) {
  const std::vector<BenchResult> all = ReadResults(results);
  auto usable = [](const BenchResult& r) {
    return !IsFillBenchmark(r.benchmark) &&
           r.filter.family != FilterFamily::kNone &&
           !std::isnan(r.ios_per_miss) && !std::isnan(r.bits_per_key);
  };
  // The engine with the most such results.
  MemorySweep sweep;
  int64_t most = 0;
  for (EngineKind engine : {EngineKind::kRocksDB, EngineKind::kLsm}) {
    const int64_t n = std::count_if(
        all.begin(), all.end(),
        [&](const BenchResult& r) { return usable(r) && r.engine == engine; });
    if (n > most) {
      most = n;
      sweep.engine = engine;
    }
  }
  std::string first_kind;
  for (const BenchResult& r : all) {
    if (!usable(r) || r.engine != sweep.engine) continue;
    const std::string kind = r.filter.KindName();
    if (first_kind.empty()) {
      first_kind = kind;
      sweep.direct_reads = r.direct_reads;
      sweep.scale.lookups = r.ops;
      for (int64_t keys : r.keys_per_level) sweep.scale.keys += keys;
    }
    sweep.reads[SeriesIndex(&sweep.reads, kind)].points.emplace_back(
        r.bits_per_key, r.ios_per_miss);
    sweep.micros[SeriesIndex(&sweep.micros, kind)].points.emplace_back(
        r.bits_per_key, r.micros_per_op);
    if (kind == first_kind && !std::isnan(r.ios_per_miss_floor)) {
      sweep.floor.points.emplace_back(r.bits_per_key, r.ios_per_miss_floor);
    }
  }
  sweep.floor.title = "floor";
  for (std::vector<Series>* all_series : {&sweep.reads, &sweep.micros}) {
    for (Series& series : *all_series) {
      std::sort(series.points.begin(), series.points.end());
    }
  }
  std::sort(sweep.floor.points.begin(), sweep.floor.points.end());
  return sweep;
}

std::optional<LatencyChart> MissLatencyCdf(const Json& results) {
  const std::vector<BenchResult> all = ReadResults(results);
  auto has_cdf = [](const BenchResult& r) {
    return !r.miss_latency_cdf.empty();
  };
  // The engine with the most filters measured (RocksDB runs all four of
  // the default run), and its first read benchmark.
  const BenchResult* chosen = nullptr;
  size_t most = 0;
  for (const BenchResult& r : all) {
    if (!has_cdf(r)) continue;
    size_t n = 0;
    for (const BenchResult& other : all) {
      n += has_cdf(other) && other.engine == r.engine &&
           other.benchmark == r.benchmark;
    }
    if (n > most) {
      most = n;
      chosen = &r;
    }
  }
  if (chosen == nullptr) return std::nullopt;
  LatencyChart chart;
  chart.engine = chosen->engine;
  chart.benchmark = chosen->benchmark;
  chart.direct_reads = chosen->direct_reads;
  for (const BenchResult& r : all) {
    if (!has_cdf(r) || r.engine != chart.engine ||
        r.benchmark != chart.benchmark) {
      continue;
    }
    chart.series.push_back(Series{r.filter.KindName(), r.miss_latency_cdf});
  }
  return chart;
}

std::string GnuplotString(std::string_view text) {
  return absl::StrCat("'", absl::StrReplaceAll(ToAbsl(text), {{"'", "''"}}),
                      "'");
}

std::string FormatSeries(std::string_view x_name, std::string_view y_name,
                         const std::vector<Series>& series) {
  std::string out;
  for (const Series& s : series) {
    absl::StrAppend(&out, "# ", s.title, "\n# ", ToAbsl(x_name), " ",
                    ToAbsl(y_name), "\n");
    for (const auto& [x, y] : s.points) {
      absl::StrAppend(&out, absl::StrFormat("%.6g %.6g\n", x, y));
    }
    out += "\n\n";
  }
  return out;
}

namespace {

// One clause of a plot command per series of `file`, curve i drawn "with
// <style> <first + i><after>", e.g. "'f.dat' index 0 with lines dt 2 lw 2
// title 'name'".
std::vector<std::string> CurveClauses(std::string_view file,
                                      const std::vector<Series>& series,
                                      std::string_view style, size_t first,
                                      std::string_view after) {
  std::vector<std::string> clauses;
  for (size_t i = 0; i < series.size(); ++i) {
    clauses.push_back(absl::StrCat("'", ToAbsl(file), "' index ", i, " with ",
                                   ToAbsl(style), " ", first + i, ToAbsl(after),
                                   " title ", GnuplotString(series[i].title)));
  }
  return clauses;
}

// A sweep chart's gnuplot settings: its output, its title with the
// sweep's scale, its axes' labels, then `more`.
std::string SweepChartSettings(std::string_view png, std::string_view title,
                               const SweepScale& scale,
                               std::string_view x_label,
                               std::string_view y_label,
                               std::string_view more) {
  return absl::StrCat("set output '", ToAbsl(png), "'\n", "set title '",
                      ToAbsl(title), " (", scale.keys, " keys, ", scale.lookups,
                      " absent lookups per point)'\n", "set xlabel '",
                      ToAbsl(x_label), "'\n", "set ylabel '", ToAbsl(y_label),
                      "'\n", ToAbsl(more));
}

// fp_vs_bits: writes its data (and the theory's) to `dir`; returns its part
// of plots.gp.
absl::StatusOr<std::string> FpChart(const std::string& dir,
                                    const std::vector<Series>& fp,
                                    const SweepScale& scale) {
  const std::vector<Series> theory = FpTheory();
  absl::Status s = WriteFile(dir + "/fp_vs_bits.dat",
                             FormatSeries("bits_per_key", "fp_observed", fp));
  if (s.ok()) {
    s = WriteFile(dir + "/fp_theory.dat",
                  FormatSeries("bits_per_key", "fp_predicted", theory));
  }
  if (!s.ok()) return s;
  const std::string gp = SweepChartSettings(
      "fp_vs_bits.png", "False-positive rate against memory", scale,
      "bits per key (measured)", "false-positive rate",
      "set logscale y\nset format y '%g'\n");
  std::vector<std::string> clauses =
      CurveClauses("fp_theory.dat", theory, "lines dt", 2, " lw 2");
  for (std::string& clause :
       CurveClauses("fp_vs_bits.dat", fp, "linespoints pt", 5, "")) {
    clauses.push_back(std::move(clause));
  }
  return absl::StrCat(gp, PlotCommand(clauses), "\n");
}

// ios_vs_files: writes its data to `dir`; returns its part of plots.gp.
absl::StatusOr<std::string> IoChart(const std::string& dir,
                                    const std::vector<Series>& io,
                                    const SweepScale& scale) {
  const std::string data =
      FormatSeries("files_on_path", "ios_per_missing_lookup", io);
  if (absl::Status s = WriteFile(dir + "/ios_vs_files.dat", data); !s.ok()) {
    return s;
  }
  return absl::StrCat(SweepChartSettings("ios_vs_files.png",
                                         "Data-block reads per missing lookup",
                                         scale, "SST files on the lookup path",
                                         "reads per missing lookup",
                                         "set logscale xy\nset key top left\n"),
                      PlotCommand(CurveClauses("ios_vs_files.dat", io,
                                               "linespoints pt", 5, "")));
}

}  // namespace

absl::Status WriteSweepCharts(const std::string& dir, const Json& fp_sweep,
                              const Json& io_sweep, std::ostream* out) {
  const std::vector<Series> fp = FpAgainstBits(fp_sweep);
  const std::vector<Series> io = IosAgainstFiles(io_sweep);
  if (fp.empty() && io.empty()) {
    return absl::InvalidArgumentError(
        "no readmissing results in the sweeps' JSON files");
  }
  if (absl::Status s = CreateDir(dir); !s.ok()) return s;
  std::string gp = absl::StrCat(
      "# Rendered by bloomgate_plot; rerun with: gnuplot plots.gp\n", kTerminal,
      "set grid\nset key top right\n");
  std::vector<std::string> written;
  if (!fp.empty()) {
    absl::StatusOr<std::string> chart = FpChart(dir, fp, ScaleOf(fp_sweep));
    if (!chart.ok()) return chart.status();
    gp += *chart;
    written.push_back(dir + "/fp_vs_bits.png");
  }
  if (!io.empty()) {
    absl::StatusOr<std::string> chart = IoChart(dir, io, ScaleOf(io_sweep));
    if (!chart.ok()) return chart.status();
    gp += *chart;
    written.push_back(dir + "/ios_vs_files.png");
  }
  if (absl::Status s = WriteFile(dir + "/plots.gp", gp); !s.ok()) return s;
  if (absl::Status s = RunGnuplot(dir, "plots.gp"); !s.ok()) return s;
  *out << "Plots written: " << absl::StrJoin(written, ", ") << "\n";
  return absl::OkStatus();
}

absl::Status WriteLatencyChart(const std::string& dir, const Json& results,
                               std::ostream* out) {
  const std::optional<LatencyChart> chart = MissLatencyCdf(results);
  if (!chart.has_value()) {
    return absl::InvalidArgumentError(
        "no miss_latency_cdf in the JSON: run bloomgate_bench with "
        "--histogram");
  }
  if (absl::Status s = CreateDir(dir); !s.ok()) return s;
  absl::Status s = WriteFile(
      dir + "/latency_cdf.dat",
      FormatSeries("micros", "share_of_absent_key_lookups", chart->series));
  if (!s.ok()) return s;
  std::vector<std::string> clauses;
  for (size_t i = 0; i < chart->series.size(); ++i) {
    clauses.push_back(absl::StrCat("'latency_cdf.dat' index ", i,
                                   " with lines lw 2 title ",
                                   GnuplotString(chart->series[i].title)));
  }
  const std::string gp = absl::StrCat(
      "# Rendered by bloomgate_plot --latency; rerun with: gnuplot "
      "latency_cdf.gp\n",
      kTerminal, "set grid\nset key bottom right\n",
      "set output 'latency_cdf.png'\n", "set title ",
      GnuplotString(absl::StrCat("Latency of absent-key lookups, ",
                                 ToAbsl(EngineName(chart->engine)), " ",
                                 ToAbsl(BenchmarkName(chart->benchmark)),
                                 chart->direct_reads ? ", direct reads" : "")),
      "\n", "set xlabel 'microseconds per lookup'\n",
      "set ylabel 'share of absent-key lookups at most x'\n",
      "set logscale x\nset format x '%g'\nset yrange [0:1]\n",
      PlotCommand(clauses));
  s = WriteFile(dir + "/latency_cdf.gp", gp);
  if (s.ok()) s = RunGnuplot(dir, "latency_cdf.gp");
  if (!s.ok()) return s;
  *out << "Plot written: " << dir << "/latency_cdf.png\n";
  return absl::OkStatus();
}

absl::Status WriteMemoryCharts(const std::string& dir, const Json& results,
                               std::ostream* out) {
  const MemorySweep sweep = ReadsAgainstMemory(results);
  if (sweep.reads.empty()) {
    return absl::InvalidArgumentError(
        "no read results with a filter in the memory sweep's JSON");
  }
  if (absl::Status s = CreateDir(dir); !s.ok()) return s;
  std::vector<Series> reads = sweep.reads;
  if (!sweep.floor.points.empty()) reads.push_back(sweep.floor);
  absl::Status s =
      WriteFile(dir + "/reads_vs_memory.dat",
                FormatSeries("bits_per_key", "reads_per_absent_lookup", reads));
  if (s.ok()) {
    s = WriteFile(
        dir + "/time_vs_memory.dat",
        FormatSeries("bits_per_key", "micros_per_absent_lookup", sweep.micros));
  }
  if (!s.ok()) return s;
  const std::string where = absl::StrCat(
      ToAbsl(EngineName(sweep.engine)), ", one tree of ", sweep.scale.keys,
      " keys, ", sweep.direct_reads ? "device reads" : "page-cache reads");
  std::vector<std::string> read_clauses = CurveClauses(
      "reads_vs_memory.dat", sweep.reads, "linespoints pt", 5, " lw 2");
  if (!sweep.floor.points.empty()) {
    read_clauses.push_back(
        absl::StrCat("'reads_vs_memory.dat' index ", sweep.reads.size(),
                     " with lines dt 2 lw 2 lc rgb 'black' title ",
                     GnuplotString("floor: per-file filters at 2^-bits")));
  }
  const std::string gp = absl::StrCat(
      "# Rendered by bloomgate_plot --memory_sweep; rerun with: gnuplot "
      "memory.gp\n",
      kTerminal, "set grid\nset key top right\n",
      "set xlabel 'filter memory, bits per key (measured)'\n",
      "set output 'reads_vs_memory.png'\n", "set title ",
      GnuplotString(absl::StrCat("Reads per absent lookup (", where, ")")),
      "\nset ylabel ",
      GnuplotString(absl::StrCat("data-block reads per absent-key lookup (",
                                 sweep.scale.lookups, " a point)")),
      "\n", "set logscale y\nset format y '%g'\n", PlotCommand(read_clauses),
      "set output 'time_vs_memory.png'\n", "set title ",
      GnuplotString(absl::StrCat("Time per absent lookup (", where, ")")),
      "\nset ylabel 'microseconds per absent-key lookup (measured)'\n",
      PlotCommand(CurveClauses("time_vs_memory.dat", sweep.micros,
                               "linespoints pt", 5, " lw 2")));
  s = WriteFile(dir + "/memory.gp", gp);
  if (s.ok()) s = RunGnuplot(dir, "memory.gp");
  if (!s.ok()) return s;
  *out << "Plots written: " << dir << "/reads_vs_memory.png, " << dir
       << "/time_vs_memory.png\n";
  return absl::OkStatus();
}

GrowthChart AgainstKeys(const Json& results) {
  GrowthChart chart;
  for (const BenchResult& r : ReadResults(results)) {
    if (!IsReadMissing(r) || r.grown_keys <= 0 ||
        r.filter.family == FilterFamily::kNone) {
      continue;
    }
    if (chart.lookups == 0) {
      chart.lookups = r.ops;
      chart.direct_reads = r.direct_reads;
    }
    const std::string title =
        absl::StrCat(ResultName(r), " (", EngineTitle(r), ")");
    const auto keys = static_cast<double>(r.grown_keys);
    chart.memory[SeriesIndex(&chart.memory, title)].points.emplace_back(
        keys, static_cast<double>(r.filter_bytes) / (1 << 20));
    chart.reads[SeriesIndex(&chart.reads, title)].points.emplace_back(
        keys, r.ios_per_miss);
    // Every series gets a floor, NaN where it was not a bound, so that the
    // floors' indices are the reads'.
    chart.floor[SeriesIndex(&chart.floor, "floor: " + title)]
        .points.emplace_back(keys, r.ios_per_miss_floor);
  }
  for (std::vector<Series>* all : {&chart.memory, &chart.reads, &chart.floor}) {
    for (Series& series : *all) {
      std::sort(series.points.begin(), series.points.end());
    }
  }
  return chart;
}

absl::Status WriteGrowthChart(const std::string& dir, const Json& results,
                              std::ostream* out) {
  const GrowthChart chart = AgainstKeys(results);
  if (chart.reads.empty()) {
    return absl::InvalidArgumentError(
        "no readmissing result of a --grow_to run with a filter in the JSON");
  }
  if (absl::Status s = CreateDir(dir); !s.ok()) return s;
  absl::Status s = WriteFile(dir + "/growth_memory.dat",
                             FormatSeries("keys", "filter_mib", chart.memory));
  if (s.ok()) {
    s = WriteFile(dir + "/growth_reads.dat",
                  FormatSeries("keys", "reads_per_absent_lookup", chart.reads));
  }
  if (s.ok()) {
    s = WriteFile(dir + "/growth_floor.dat",
                  FormatSeries("keys", "floor_reads", chart.floor));
  }
  if (!s.ok()) return s;
  std::vector<std::string> reads = CurveClauses(
      "growth_reads.dat", chart.reads, "linespoints lc", 1, " pt 7 lw 2");
  // The floors in their filter's colour, dashed, named once in the title.
  for (size_t i = 0; i < chart.floor.size(); ++i) {
    reads.push_back(absl::StrCat("'growth_floor.dat' index ", i,
                                 " with lines dt 2 lw 1 lc ", i + 1,
                                 " notitle"));
  }
  // The axes span the steps, and reads down to a third of the fewest a
  // filter made (a floor far below that, or a step without a read, would
  // squeeze the curves into a corner).
  double fewest = INFINITY, first = INFINITY, last = 0;
  for (const Series& series : chart.reads) {
    for (const auto& [keys, reads_per_lookup] : series.points) {
      first = std::min(first, keys);
      last = std::max(last, keys);
      if (reads_per_lookup > 0) fewest = std::min(fewest, reads_per_lookup);
    }
  }
  const std::string x_range =
      absl::StrFormat("set xrange [%g:%g]\n", first / 1.2, last * 1.2);
  const std::string y_range = absl::StrFormat(
      "set yrange [%g:*]\n", std::isfinite(fewest) ? fewest / 3 : 1e-6);
  const std::string gp = absl::StrCat(
      "# Rendered by bloomgate_plot --growth; rerun with: gnuplot growth.gp\n",
      "set terminal pngcairo size 960,1080 noenhanced\n",
      "set output 'growth.png'\n", "set multiplot layout 2,1\n",
      "set grid\nset key left center\nset logscale x\nset format x '%g'\n",
      x_range, "set xlabel 'keys in the database'\n",
      "set title 'Filter memory as the database grows (measured)'\n",
      "set ylabel 'filter memory, MiB'\n",
      PlotCommand(CurveClauses("growth_memory.dat", chart.memory,
                               "linespoints lc", 1, " pt 7 lw 2")),
      "set title ",
      GnuplotString(
          absl::StrCat("Reads per absent lookup as the database grows (",
                       chart.direct_reads ? "device reads" : "page-cache reads",
                       "; dashed: the floor at each filter's memory)")),
      "\nset ylabel ",
      GnuplotString(absl::StrCat("data-block reads per absent-key lookup (",
                                 chart.lookups, " a point)")),
      "\nset key bottom right\nset logscale y\nset format y '%g'\n", y_range,
      PlotCommand(reads), "unset multiplot\n");
  s = WriteFile(dir + "/growth.gp", gp);
  if (s.ok()) s = RunGnuplot(dir, "growth.gp");
  if (!s.ok()) return s;
  *out << "Plot written: " << dir << "/growth.png\n";
  return absl::OkStatus();
}

absl::Status RunGnuplot(const std::string& dir, const std::string& script) {
  // Exit codes of the child, as a shell would use them.
  constexpr int kCannotEnter = 126;
  constexpr int kNotFound = 127;
  const pid_t pid = fork();
  if (pid < 0) return absl::ErrnoToStatus(errno, "fork for gnuplot");
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(kCannotEnter);
    char* argv[] = {const_cast<char*>("gnuplot"),
                    const_cast<char*>(script.c_str()), nullptr};
    execvp(argv[0], argv);
    _exit(errno == ENOENT ? kNotFound : kCannotEnter);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return absl::ErrnoToStatus(errno, "wait for gnuplot");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return absl::OkStatus();
  if (WIFEXITED(status) && WEXITSTATUS(status) == kNotFound) {
    return absl::FailedPreconditionError(absl::StrCat(
        "gnuplot is not installed (tools/setup installs gnuplot-nox); the "
        "data and ",
        script, " are in ", dir));
  }
  return absl::InternalError(
      absl::StrCat("gnuplot failed on ", dir, "/", script));
}

}  // namespace bloomgate::bench
