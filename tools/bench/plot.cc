// Copyright 2026 The bloomgate Authors.

#include "plot.h"

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl_compat.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/sizing.h"
#include "runner.h"

namespace bloomgate::bench {
namespace {

// Scale of the sweeps: small enough for seconds per point, large enough that
// the FP rate at 16 bits/key (~0.1%) still sees about a hundred positives.
constexpr int64_t kFpSweepKeys = 50000;
constexpr int64_t kFpSweepLookups = 100000;
constexpr double kFpSweepBits[] = {2, 4, 6, 8, 10, 12, 14, 16};
constexpr int64_t kIoSweepKeys = 50000;
constexpr int64_t kIoSweepLookups = 20000;
constexpr int kIoSweepFiles[] = {1, 2, 4, 8, 16, 32};

struct Series {
  std::string title;
  std::vector<std::pair<double, double>> points;
};

// The first engine of the run that supports `filter`.
bool PickEngine(const BenchOptions& options, FilterKind filter,
                EngineKind* engine) {
  for (EngineKind e : options.engines) {
    if (EngineSupports(e, filter)) {
      *engine = e;
      return true;
    }
  }
  return false;
}

BenchOptions SweepOptions(const BenchOptions& options, int64_t num,
                          int64_t reads) {
  BenchOptions o = options;
  o.benchmarks = {BenchmarkKind::kFillRandom, BenchmarkKind::kReadMissing};
  o.num = num;
  o.reads = reads;
  o.threads = 1;
  o.use_existing_db = false;
  o.keep_db = false;
  o.progress = false;
  o.io_latency_us = 0;
  // The sweeps plot counts, which do not depend on the page cache; with
  // direct reads their filterless points would take minutes each.
  o.engine.use_direct_reads = false;
  o.histogram = false;
  o.engine.disable_auto_compactions = true;
  return o;
}

// Runs one sweep point; returns its readmissing result.
absl::StatusOr<BenchResult> RunPoint(const BenchOptions& o, EngineKind engine,
                                     FilterKind filter,
                                     const std::string& dir) {
  std::ostringstream quiet;
  Runner runner(o, &quiet);
  absl::StatusOr<std::vector<BenchResult>> results =
      runner.RunOne(engine, filter, dir);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (!results.ok()) return results.status();
  for (const BenchResult& r : *results) {
    if (r.benchmark == "readmissing") return r;
  }
  return absl::InternalError("sweep point produced no readmissing result");
}

absl::Status WriteSeries(const std::string& path, std::string_view x_name,
                         std::string_view y_name,
                         const std::vector<Series>& series) {
  std::ofstream file(path, std::ios::trunc);
  if (!file) {
    return absl::PermissionDeniedError(absl::StrCat("cannot write ", path));
  }
  // One gnuplot data block per series, separated by two blank lines, so
  // "index i" selects series i.
  for (const Series& s : series) {
    file << "# " << s.title << "\n# " << x_name << " " << y_name << "\n";
    for (const auto& [x, y] : s.points) {
      file << absl::StrFormat("%.6g %.6g\n", x, y);
    }
    file << "\n\n";
  }
  return file ? absl::OkStatus()
              : absl::DataLossError(absl::StrCat("error writing ", path));
}

std::string Quote(std::string_view s) {
  return absl::StrCat("\"", Sv(s), "\"");
}

// Renders DIR/`script` with gnuplot.
absl::Status RunGnuplot(const std::string& dir, const std::string& script) {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "gnuplot is not installed (tools/setup installs gnuplot-nox); the "
        "data and ",
        script, " are in ", dir));
  }
  std::string command = absl::StrCat("cd '", dir, "' && gnuplot ", script);
  if (std::system(command.c_str()) != 0) {
    return absl::InternalError(
        absl::StrCat("gnuplot failed on ", dir, "/", script));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WritePlots(const BenchOptions& options, std::ostream* out) {
  const std::string dir = options.plot;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create --plot=", dir, ": ", ec.message()));
  }
  std::string scratch =
      (std::filesystem::temp_directory_path() / "bloomgate_plot.XXXXXX")
          .string();
  if (mkdtemp(scratch.data()) == nullptr) {
    return absl::InternalError("cannot create a temporary folder");
  }
  *out << "\nPlots: sweeping bits/key and SST files (small scale) for " << dir
       << "\n"
       << std::flush;

  // Sweep 1: FP against bits/key, one file of kFpSweepKeys keys per point.
  std::vector<Series> fp_series;
  {
    BenchOptions o = SweepOptions(options, kFpSweepKeys, kFpSweepLookups);
    o.engine.write_buffer_size = 256 << 20;  // one flush: one file
    for (FilterKind filter : options.filters) {
      EngineKind engine;
      if (filter == FilterKind::kNone ||
          !PickEngine(options, filter, &engine)) {
        continue;
      }
      Series s;
      s.title = absl::StrCat(Sv(FilterName(filter)), " (",
                             Sv(EngineName(engine)), ")");
      for (double bits : kFpSweepBits) {
        o.bloom_bits = bits;
        absl::StatusOr<BenchResult> r =
            RunPoint(o, engine, filter, scratch + "/point");
        if (!r.ok()) return r.status();
        // At the bits per key the filter spent, which is not the
        // configured figure for every filter (Ribbon takes ~30% less).
        s.points.emplace_back(
            std::isnan(r->bits_per_key) ? bits : r->bits_per_key,
            r->fp_observed);
      }
      *out << "  fp sweep: " << s.title << " done\n" << std::flush;
      fp_series.push_back(std::move(s));
    }
  }
  // The theoretical curves, from the same formulas the tool predicts with.
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

  // Sweep 2: reads per missing lookup against files on the lookup path.
  std::vector<Series> io_series;
  {
    BenchOptions o = SweepOptions(options, kIoSweepKeys, kIoSweepLookups);
    const int64_t data_bytes = kIoSweepKeys * (o.key_size + o.value_size);
    for (EngineKind engine : options.engines) {
      for (FilterKind filter : options.filters) {
        if (!EngineSupports(engine, filter)) continue;
        Series s;
        s.title =
            absl::StrCat(Sv(EngineName(engine)), " ", Sv(FilterName(filter)));
        for (int files : kIoSweepFiles) {
          // Memtables carry overhead beyond the raw bytes; aim a little
          // high, the x axis is the measured file count anyway.
          o.engine.write_buffer_size =
              std::max<int64_t>(64 << 10, data_bytes * 5 / 4 / files);
          absl::StatusOr<BenchResult> r =
              RunPoint(o, engine, filter, scratch + "/point");
          if (!r.ok()) return r.status();
          s.points.emplace_back(r->covering_files_per_miss, r->ios_per_miss);
        }
        *out << "  I/O sweep: " << s.title << " done\n" << std::flush;
        io_series.push_back(std::move(s));
      }
    }
  }
  std::filesystem::remove_all(scratch, ec);

  absl::Status s = WriteSeries(dir + "/fp_vs_bits.dat", "bits_per_key",
                               "fp_observed", fp_series);
  if (!s.ok()) return s;
  s = WriteSeries(dir + "/fp_theory.dat", "bits_per_key", "fp_predicted",
                  theory);
  if (!s.ok()) return s;
  s = WriteSeries(dir + "/ios_vs_files.dat", "files_on_path",
                  "ios_per_missing_lookup", io_series);
  if (!s.ok()) return s;

  std::ofstream gp(dir + "/plots.gp", std::ios::trunc);
  gp << "# Rendered by bloomgate_bench --plot; rerun with: gnuplot plots.gp\n"
     << "set terminal pngcairo size 960,640 noenhanced\n"
     << "set grid\nset key top right\n"
     << "set output 'fp_vs_bits.png'\n"
     << "set title 'False-positive rate against memory (" << kFpSweepKeys
     << " keys, " << kFpSweepLookups << " absent lookups per point)'\n"
     << "set xlabel 'bits per key (measured)'\nset ylabel 'false-positive "
        "rate'\n"
     << "set logscale y\nset format y '%g'\n"
     << "plot ";
  std::vector<std::string> clauses;
  for (size_t i = 0; i < theory.size(); ++i) {
    clauses.push_back(absl::StrCat("'fp_theory.dat' index ", i,
                                   " with lines dt ", i + 2, " lw 2 title ",
                                   Quote(theory[i].title)));
  }
  for (size_t i = 0; i < fp_series.size(); ++i) {
    clauses.push_back(absl::StrCat("'fp_vs_bits.dat' index ", i,
                                   " with linespoints pt ", i + 5, " title ",
                                   Quote(fp_series[i].title)));
  }
  for (size_t i = 0; i < clauses.size(); ++i) {
    gp << (i > 0 ? ", \\\n     " : "") << clauses[i];
  }
  gp << "\n\nset output 'ios_vs_files.png'\n"
     << "set title 'Data-block reads per missing lookup (" << kIoSweepKeys
     << " keys, " << kIoSweepLookups << " absent lookups per point)'\n"
     << "set xlabel 'SST files on the lookup path'\n"
     << "set ylabel 'reads per missing lookup'\n"
     << "set logscale xy\nset key top left\n"
     << "plot ";
  for (size_t i = 0; i < io_series.size(); ++i) {
    gp << (i > 0 ? ", \\\n     " : "") << "'ios_vs_files.dat' index " << i
       << " with linespoints pt " << i + 5 << " title "
       << Quote(io_series[i].title);
  }
  gp << "\n";
  gp.close();
  if (!gp) return absl::DataLossError("error writing plots.gp");

  if (absl::Status rendered = RunGnuplot(dir, "plots.gp"); !rendered.ok()) {
    return rendered;
  }
  *out << "Plots written: " << dir << "/fp_vs_bits.png, " << dir
       << "/ios_vs_files.png\n";
  return absl::OkStatus();
}

absl::Status WriteLatencyCdf(const std::string& dir,
                             const std::vector<BenchResult>& results,
                             std::ostream* out) {
  // The engine with the most filters measured (RocksDB runs all four of
  // the default run), and its first read benchmark.
  std::string engine, benchmark;
  bool direct = false;
  size_t most = 0;
  for (const BenchResult& r : results) {
    if (!r.has_latency || r.miss_histogram.count() == 0) continue;
    size_t n = 0;
    for (const BenchResult& other : results) {
      n += other.engine == r.engine && other.benchmark == r.benchmark &&
           other.has_latency && other.miss_histogram.count() > 0;
    }
    if (n > most) {
      most = n;
      engine = r.engine;
      benchmark = r.benchmark;
      direct = r.direct_reads;
    }
  }
  if (most == 0) return absl::OkStatus();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    return absl::PermissionDeniedError(
        absl::StrCat("cannot create --plot=", dir, ": ", ec.message()));
  }
  std::vector<Series> series;
  for (const BenchResult& r : results) {
    if (r.engine != engine || r.benchmark != benchmark || !r.has_latency ||
        r.miss_histogram.count() == 0) {
      continue;
    }
    Series s;
    s.title = r.filter;
    // 20 points a decade from 0.1 us to the slowest lookup.
    const double max_us = static_cast<double>(r.miss_histogram.max()) / 1e3;
    for (double us = 0.1;; us *= std::pow(10.0, 0.05)) {
      const double x = std::min(us, max_us);
      s.points.emplace_back(
          x, r.miss_histogram.FractionAtMost(static_cast<uint64_t>(x * 1e3)));
      if (us >= max_us) break;
    }
    series.push_back(std::move(s));
  }
  absl::Status s = WriteSeries(dir + "/latency_cdf.dat", "micros",
                               "share_of_absent_key_lookups", series);
  if (!s.ok()) return s;
  std::ofstream gp(dir + "/latency_cdf.gp", std::ios::trunc);
  gp << "# Rendered by bloomgate_bench --plot --histogram; rerun with: "
        "gnuplot latency_cdf.gp\n"
     << "set terminal pngcairo size 960,640 noenhanced\n"
     << "set grid\nset key bottom right\n"
     << "set output 'latency_cdf.png'\n"
     << "set title 'Latency of absent-key lookups, " << engine << " "
     << benchmark << (direct ? ", direct reads" : "") << "'\n"
     << "set xlabel 'microseconds per lookup'\n"
     << "set ylabel 'share of absent-key lookups at most x'\n"
     << "set logscale x\nset format x '%g'\nset yrange [0:1]\n"
     << "plot ";
  for (size_t i = 0; i < series.size(); ++i) {
    gp << (i > 0 ? ", \\\n     " : "") << "'latency_cdf.dat' index " << i
       << " with lines lw 2 title " << Quote(series[i].title);
  }
  gp << "\n";
  gp.close();
  if (!gp) return absl::DataLossError("error writing latency_cdf.gp");
  if (absl::Status rendered = RunGnuplot(dir, "latency_cdf.gp");
      !rendered.ok()) {
    return rendered;
  }
  *out << "Plot written: " << dir << "/latency_cdf.png\n";
  return absl::OkStatus();
}

}  // namespace bloomgate::bench
