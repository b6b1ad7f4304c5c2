// Copyright 2026 The bloomgate Authors.
//
// --plot=DIR: two small sweeps after the main run, their data files, and PNG
// charts rendered by gnuplot:
//   fp_vs_bits.png  observed FP rate against bits/key for each filter, over
//                   the theoretical curves of bloomgate/sizing.h;
//   ios_vs_files.png  data-block reads per missing lookup against the number
//                   of SST files on the lookup path, with and without filters;
// and, with --histogram, from the main run's own lookups:
//   latency_cdf.png  the latency CDF of absent-key lookups, one curve per
//                   filter, on one engine, log x-axis.

#ifndef BLOOMGATE_TOOLS_BENCH_PLOT_H_
#define BLOOMGATE_TOOLS_BENCH_PLOT_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bench_options.h"
#include "results.h"

namespace bloomgate::bench {

// Runs the sweeps with the engines and filters of `options` (at a fixed small
// scale, independent of --num and --reads), writes DIR/*.dat, DIR/plots.gp
// and, when gnuplot is on the PATH, DIR/*.png. FailedPrecondition when
// gnuplot is missing (the data files are written anyway).
absl::Status WritePlots(const BenchOptions& options, std::ostream* out);

// DIR/latency_cdf.dat, .gp and .png: the misses' latency CDF of every filter
// of the engine and read benchmark of `results` with the most filters
// measured with --histogram. Nothing without such results.
absl::Status WriteLatencyCdf(const std::string& dir,
                             const std::vector<BenchResult>& results,
                             std::ostream* out);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_PLOT_H_
