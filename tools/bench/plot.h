// Copyright 2026 The bloomgate Authors.
//
// The charts of docs/evaluation.md ("Plots"), drawn from the results
// bloomgate_bench writes with --json, never from a run of its own:
//   fp_vs_bits.png    observed FP rate against bits/key for each filter, over
//                     the theoretical curves of bloomgate/sizing.h, from a
//                     sweep of --bloom_bits;
//   ios_vs_files.png  data-block reads per missing lookup against the SST
//                     files on the lookup path, with and without filters,
//                     from a sweep of --write_buffer_size;
//   latency_cdf.png   the latency CDF of absent-key lookups, one curve per
//                     filter, on one engine, from a run with --histogram;
//   growth.png        filter memory and reads per absent lookup against keys,
//                     one curve per filter, from a run with --grow_to.
// Each chart's data goes to DIR/*.dat and its gnuplot script to DIR/*.gp,
// which gnuplot renders in DIR (rerun it there to re-render).
// tools/bench/plots runs the sweeps and bloomgate_plot (its main).

#ifndef BLOOMGATE_TOOLS_BENCH_PLOT_H_
#define BLOOMGATE_TOOLS_BENCH_PLOT_H_

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "tools/bench/bench_options.h"
#include "tools/bench/results.h"

namespace bloomgate::bench {

// One curve: a title and its (x, y) points in order.
struct Series {
  std::string title;
  std::vector<std::pair<double, double>> points;
};

// The readmissing results of a --bloom_bits sweep (`results`: the arrays of
// its --json files, concatenated in order): for each filter but none, on
// the first engine that ran it, (bits per key its filters spent, FP
// observed), titled "filter (engine)": the bits spent, not the memory
// asked for, which filters round (whole cache lines, Ribbon's slots).
std::vector<Series> FpAgainstBits(const nlohmann::json& results);

// The FP rates PredictedFpRate gives at OptimalNumProbes, 1 to 20 bits/key:
// the blocked and the standard layout.
std::vector<Series> FpTheory();

// The readmissing results of a --write_buffer_size sweep: for each engine
// and filter, (files covering each absent key, reads per missing lookup),
// titled "engine filter".
std::vector<Series> IosAgainstFiles(const nlohmann::json& results);

// The keys and lookups of each point of a sweep: those of its first
// readmissing result (all points of a sweep share them).
struct SweepScale {
  int64_t keys = 0;
  int64_t lookups = 0;
};
SweepScale ScaleOf(const nlohmann::json& results);

// The read results of one tree whose filters were rewritten at several
// memories (bloomgate_bench --same_tree with a --filter list of kinds at
// several bits per key), of the engine that ran the most of them: for each
// filter kind, in the order first met, (bits per key its filters spent,
// reads per absent lookup) and (the same bits, microseconds per lookup);
// and the floor (ios_per_miss_floor) at the memory of each of the first
// kind's results, titled "floor".
struct MemorySweep {
  EngineKind engine = EngineKind::kRocksDB;
  bool direct_reads = false;
  SweepScale scale;
  std::vector<Series> reads;
  std::vector<Series> micros;
  Series floor;
};
MemorySweep ReadsAgainstMemory(const nlohmann::json& results);

// Each function reads `results` back into BenchResults (ResultFromJson),
// leaving out those it cannot.

// The misses' latency CDFs (miss_latency_cdf) of the engine and read
// benchmark with the most filters measured with --histogram, one series per
// filter; nullopt without such results.
struct LatencyChart {
  EngineKind engine = EngineKind::kLsm;
  BenchmarkKind benchmark = BenchmarkKind::kReadRandom;
  bool direct_reads = false;
  std::vector<Series> series;
};
std::optional<LatencyChart> MissLatencyCdf(const nlohmann::json& results);

// `text` as a gnuplot string literal: single-quoted, where nothing is an
// escape but '' for a quote.
std::string GnuplotString(std::string_view text);

// One gnuplot data block per series, separated by two blank lines, so that
// "index i" selects series i.
std::string FormatSeries(std::string_view x_name, std::string_view y_name,
                         const std::vector<Series>& series);

// DIR/fp_vs_bits.{dat,png} and fp_theory.dat (with fp_sweep results),
// DIR/ios_vs_files.{dat,png} (with io_sweep results), and DIR/plots.gp that
// draws them. Either array may be empty; both empty is InvalidArgument.
absl::Status WriteSweepCharts(const std::string& dir,
                              const nlohmann::json& fp_sweep,
                              const nlohmann::json& io_sweep,
                              std::ostream* out);

// DIR/latency_cdf.{dat,gp,png} from MissLatencyCdf(results);
// InvalidArgument if it finds nothing to draw.
absl::Status WriteLatencyChart(const std::string& dir,
                               const nlohmann::json& results,
                               std::ostream* out);

// DIR/reads_vs_memory.{dat,png} and time_vs_memory.png from
// ReadsAgainstMemory(results), and DIR/memory.gp that draws them;
// InvalidArgument if it finds no filter to draw.
absl::Status WriteMemoryCharts(const std::string& dir,
                               const nlohmann::json& results,
                               std::ostream* out);

// The readmissing results of a --grow_to run, for each engine and filter
// in the order first met, titled "filter (engine)": (keys, MiB its filters
// took), (keys, reads per absent lookup) and (keys, the floor at that
// memory), each in order of keys.
struct GrowthChart {
  int64_t lookups = 0;
  bool direct_reads = false;
  std::vector<Series> memory;
  std::vector<Series> reads;
  std::vector<Series> floor;
};
GrowthChart AgainstKeys(const nlohmann::json& results);

// DIR/growth.{dat,gp,png} from AgainstKeys(results): filter memory above,
// reads per absent lookup below (the floors dashed), against keys;
// InvalidArgument if it finds no growth result with a filter.
absl::Status WriteGrowthChart(const std::string& dir,
                              const nlohmann::json& results, std::ostream* out);

// Runs `gnuplot script` in `dir` (fork and execvp: no shell, so no path is
// ever quoted). FailedPrecondition when gnuplot is not installed.
absl::Status RunGnuplot(const std::string& dir, const std::string& script);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_PLOT_H_
