// Copyright 2026 The bloomgate Authors.
//
// --plot=DIR: two small sweeps after the main run, their data files, and PNG
// charts rendered by gnuplot:
//   fp_vs_bits.png  observed FP rate against bits/key for each filter, over
//                   the theoretical curves of bloomgate/sizing.h;
//   ios_vs_files.png  data-block reads per missing lookup against the number
//                   of SST files on the lookup path, with and without filters.

#ifndef BLOOMGATE_TOOLS_BENCH_PLOT_H_
#define BLOOMGATE_TOOLS_BENCH_PLOT_H_

#include <ostream>

#include "absl/status/status.h"
#include "bench_options.h"

namespace bloomgate::bench {

// Runs the sweeps with the engines and filters of `options` (at a fixed small
// scale, independent of --num and --reads), writes DIR/*.dat, DIR/plots.gp
// and, when gnuplot is on the PATH, DIR/*.png. FailedPrecondition when
// gnuplot is missing (the data files are written anyway).
absl::Status WritePlots(const BenchOptions& options, std::ostream* out);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_PLOT_H_
