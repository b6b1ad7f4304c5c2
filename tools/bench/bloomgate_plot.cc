// Copyright 2026 The bloomgate Authors.
//
// bloomgate_plot: the charts of docs/evaluation.md ("Plots") from the files
// bloomgate_bench writes with --json (plot.h). It runs no benchmark itself:
// tools/bench/plots runs the sweeps and then this.

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "tools/bench/plot.h"
#include "tools/flags_usage.h"

ABSL_FLAG(std::string, out, "",
          "Folder for the charts, their data and scripts");
ABSL_FLAG(std::vector<std::string>, fp_sweep, {},
          "Comma-separated --json files of a --bloom_bits sweep: "
          "fp_vs_bits.png");
ABSL_FLAG(std::vector<std::string>, io_sweep, {},
          "Comma-separated --json files of a --write_buffer_size sweep: "
          "ios_vs_files.png");
ABSL_FLAG(std::string, memory_sweep, "",
          "A --json file of one tree's filters rewritten at several "
          "memories (--same_tree, a --filter list of kinds at several bits "
          "per key): reads_vs_memory.png and time_vs_memory.png");
ABSL_FLAG(std::string, latency, "",
          "A --json file of a run with --histogram: latency_cdf.png");
ABSL_FLAG(std::string, growth, "",
          "A --json file of a run with --grow_to: growth.png, filter memory "
          "and reads per absent lookup against keys");

namespace {

int Fail(const absl::Status& status) {
  std::cerr << "bloomgate_plot: " << status.message() << "\n\n"
            << absl::ProgramUsageMessage() << "\nTry --help for the flags.\n";
  return 1;
}

// The results of `paths`, their arrays concatenated in order.
absl::StatusOr<nlohmann::json> ReadResults(
    const std::vector<std::string>& paths) {
  nlohmann::json all = nlohmann::json::array();
  for (const std::string& path : paths) {
    std::ifstream file(path);
    if (!file) return absl::NotFoundError(absl::StrCat("cannot read ", path));
    std::stringstream text;
    text << file.rdbuf();
    nlohmann::json results =
        nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (!results.is_array()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, " is not bloomgate_bench --json output"));
    }
    for (nlohmann::json& result : results) all.push_back(std::move(result));
  }
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  namespace bench = bloomgate::bench;
  bloomgate::tools::SetToolUsage(
      "Draws the charts of docs/evaluation.md from bloomgate_bench --json "
      "files, with gnuplot.\n"
      "Usage: bloomgate_plot --out=DIR [--fp_sweep=A.json,B.json,...] "
      "[--io_sweep=...] [--memory_sweep=RESULTS.json] "
      "[--latency=RESULTS.json] [--growth=RESULTS.json]",
      __FILE__);
  if (absl::Status s = bloomgate::tools::ParseToolFlags(argc, argv); !s.ok()) {
    return Fail(s);
  }
  const std::string out = absl::GetFlag(FLAGS_out);
  const std::vector<std::string> fp = absl::GetFlag(FLAGS_fp_sweep);
  const std::vector<std::string> io = absl::GetFlag(FLAGS_io_sweep);
  const std::string memory = absl::GetFlag(FLAGS_memory_sweep);
  const std::string latency = absl::GetFlag(FLAGS_latency);
  const std::string growth = absl::GetFlag(FLAGS_growth);
  if (out.empty()) return Fail(absl::InvalidArgumentError("--out is empty"));
  if (fp.empty() && io.empty() && memory.empty() && latency.empty() &&
      growth.empty()) {
    return Fail(absl::InvalidArgumentError(
        "nothing to draw: give --fp_sweep, --io_sweep, --memory_sweep, "
        "--latency or --growth"));
  }
  if (!growth.empty()) {
    absl::StatusOr<nlohmann::json> results = ReadResults({growth});
    if (!results.ok()) return Fail(results.status());
    if (absl::Status s = bench::WriteGrowthChart(out, *results, &std::cout);
        !s.ok()) {
      return Fail(s);
    }
  }
  if (!memory.empty()) {
    absl::StatusOr<nlohmann::json> results = ReadResults({memory});
    if (!results.ok()) return Fail(results.status());
    if (absl::Status s = bench::WriteMemoryCharts(out, *results, &std::cout);
        !s.ok()) {
      return Fail(s);
    }
  }
  if (!fp.empty() || !io.empty()) {
    absl::StatusOr<nlohmann::json> fp_results = ReadResults(fp);
    if (!fp_results.ok()) return Fail(fp_results.status());
    absl::StatusOr<nlohmann::json> io_results = ReadResults(io);
    if (!io_results.ok()) return Fail(io_results.status());
    if (absl::Status s =
            bench::WriteSweepCharts(out, *fp_results, *io_results, &std::cout);
        !s.ok()) {
      return Fail(s);
    }
  }
  if (!latency.empty()) {
    absl::StatusOr<nlohmann::json> results = ReadResults({latency});
    if (!results.ok()) return Fail(results.status());
    if (absl::Status s = bench::WriteLatencyChart(out, *results, &std::cout);
        !s.ok()) {
      return Fail(s);
    }
  }
  return 0;
}
