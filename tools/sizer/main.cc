// Copyright 2026 The bloomgate Authors.
//
// bloomgate: sizing and teaching aids for Bloom filters, and a plan of a
// RocksDB database's filter memory.
//
//   bloomgate size --n=1e9 --fp=0.01 [--json]
//   bloomgate size --n=1e6 --bits_per_key=10 [--json]
//   bloomgate explain --m=12 --k=3 --add=dog,pig --query=elk,rat
//   bloomgate simd
//   bloomgate plan --db=<RocksDB database> [--memory=64MiB] [--json]
//   bloomgate plan --calibrate [--json]

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/strings/str_format.h"
#include "bloomgate/allocation.h"
#include "bloomgate/simd.h"
#include "tools/flags_usage.h"
#include "tools/probe_times/probe_times.h"
#include "tools/sizer/explain.h"
#include "tools/sizer/plan.h"
#include "tools/sizer/size.h"

ABSL_FLAG(std::string, n, "",
          "size: number of keys (1e9 and 1000000 both work)");
ABSL_FLAG(std::optional<double>, fp, std::nullopt,
          "size: target false-positive rate in (0, 1), e.g. 0.01");
ABSL_FLAG(std::optional<double>, bits_per_key, std::nullopt,
          "size: memory per key in bits (instead of --fp)");
ABSL_FLAG(bool, json, false, "size, plan: print one JSON object");
ABSL_FLAG(uint64_t, m, 0, "explain: bits in the filter");
ABSL_FLAG(int, k, 0, "explain: probes per key");
ABSL_FLAG(std::vector<std::string>, add, {},
          "explain: keys to add, comma-separated");
ABSL_FLAG(std::vector<std::string>, query, {},
          "explain: keys to look up, comma-separated");
ABSL_FLAG(std::string, db, "",
          "plan: the RocksDB database to read (opened read-only)");
ABSL_FLAG(bool, calibrate, false,
          "plan: instead of a database, this machine's probe times and the "
          "probe_ns field that names them in a mixed policy");
ABSL_FLAG(std::string, column_family, "default",
          "plan: the column family whose files to plan for");
ABSL_FLAG(std::string, memory, "",
          "plan: the filter memory to predict for, e.g. 64MiB, 1GiB, 500MB "
          "(default: what the filters take now)");
ABSL_FLAG(std::string, lookups, "",
          "plan: a file of absent keys, one per line, whose share inside "
          "each file's key range is its reach (default: the key ranks)");

namespace {

constexpr char kUsage[] =
    "sizing and teaching aids for Bloom filters, and a plan of a RocksDB\n"
    "database's filter memory.\n\n"
    "  bloomgate size --n=1e9 --fp=0.01 [--json]\n"
    "      bits, probes, size and predicted FP rate (both layouts) for n keys\n"
    "      at a target FP rate\n"
    "  bloomgate size --n=1e6 --bits_per_key=10 [--json]\n"
    "      the same for a given memory per key\n"
    "  bloomgate explain --m=12 --k=3 --add=dog,pig --query=elk,rat\n"
    "      a small filter walked through: the bits each key sets and each\n"
    "      query's verdict\n"
    "  bloomgate simd\n"
    "      the SIMD kernel filters use in this process (BLOOMGATE_SIMD=\n"
    "      scalar|avx2 forces one) and the kernels this CPU supports (those\n"
    "      this CPU runs that passed their check at first use)\n"
    "  bloomgate plan --db=<path> [--memory=64MiB] [--column_family=default]\n"
    "                 [--lookups=<file>] [--json]\n"
    "      a RocksDB database's live files by level and what their filters\n"
    "      take now, opened read-only; then the reads per absent-key lookup\n"
    "      predicted at that memory (or at --memory: B, KiB, MiB, GiB, TiB,\n"
    "      KB, MB, GB, TB) for RocksDB's Bloom, Ribbon and hybrid filters,\n"
    "      bloomgate's level-aware and mixed filters, and the floor\n"
    "      (docs/plan.md)\n"
    "  bloomgate plan --calibrate [--json]\n"
    "      this machine's time of a filter check that answers \"no\",\n"
    "      bloomgate's and RocksDB's Ribbon's, and the probe_ns field that "
    "makes a\n"
    "      mixed policy weigh them (without it, the documented defaults)\n";

int UsageError(const std::string& message) {
  absl::FPrintF(stderr, "bloomgate: %s\n\nUsage: bloomgate %s", message,
                kUsage);
  return 2;
}

// Accepts integers written plainly or in scientific notation ("1e9").
std::optional<uint64_t> ParseCount(const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value >= 1) || value >= 1.8e19 ||
      value != std::floor(value)) {
    return std::nullopt;
  }
  return static_cast<uint64_t>(value);
}

int RunSize() {
  const std::optional<uint64_t> n = ParseCount(absl::GetFlag(FLAGS_n));
  if (!n) return UsageError("size needs --n, a whole number of keys >= 1");
  bloomgate::tools::SizeRequest request;
  request.num_keys = *n;
  request.fp_rate = absl::GetFlag(FLAGS_fp);
  request.bits_per_key = absl::GetFlag(FLAGS_bits_per_key);
  absl::StatusOr<bloomgate::tools::SizeReport> report =
      bloomgate::tools::ComputeSize(request);
  if (!report.ok()) return UsageError(std::string(report.status().message()));
  std::fputs(absl::GetFlag(FLAGS_json)
                 ? bloomgate::tools::FormatSizeJson(*report).c_str()
                 : bloomgate::tools::FormatSizeText(*report).c_str(),
             stdout);
  return 0;
}

int RunExplain() {
  bloomgate::tools::ExplainRequest request;
  request.num_bits = absl::GetFlag(FLAGS_m);
  request.num_probes = absl::GetFlag(FLAGS_k);
  request.add = absl::GetFlag(FLAGS_add);
  request.query = absl::GetFlag(FLAGS_query);
  absl::StatusOr<std::string> text = bloomgate::tools::Explain(request);
  if (!text.ok()) return UsageError(std::string(text.status().message()));
  std::fputs(text->c_str(), stdout);
  return 0;
}

// Two lines, "active: <kernel>" and "supported: <kernel> ...", narrowest
// first; tools/test reads the second.
int RunSimd() {
  using bloomgate::SimdKernel;
  std::string supported;
  for (SimdKernel kernel : {SimdKernel::kScalar, SimdKernel::kAvx2}) {
    if (!bloomgate::SimdKernelSupported(kernel)) continue;
    if (!supported.empty()) supported += ' ';
    supported += bloomgate::SimdKernelName(kernel);
  }
  absl::PrintF(
      "active: %s\nsupported: %s\n",
      std::string(bloomgate::SimdKernelName(bloomgate::ActiveSimdKernel())),
      supported);
  return 0;
}

// Measures; the policies never do (bloomgate/filter_spec.h, probe_ns).
int RunCalibrate() {
  if (!absl::GetFlag(FLAGS_db).empty()) {
    return UsageError("plan takes --calibrate or --db, not both");
  }
  absl::StatusOr<bloomgate::ProbeTimes> times = bloomgate::MeasureProbeTimes();
  if (!times.ok()) {
    absl::FPrintF(stderr, "bloomgate plan --calibrate: %s\n",
                  times.status().message());
    return 1;
  }
  const std::string kernel(
      bloomgate::SimdKernelName(bloomgate::ActiveSimdKernel()));
  if (absl::GetFlag(FLAGS_json)) {
    absl::PrintF(
        "{\"bloomgate_probe_ns\": %.3f, \"ribbon_probe_ns\": %.3f, "
        "\"kernel\": \"%s\", \"name_field\": \"%s\"}\n",
        times->bloomgate_nanos, times->ribbon_nanos, kernel,
        times->NameField());
    return 0;
  }
  absl::PrintF(
      "a filter check that answers \"no\", on this machine: bloomgate "
      "%.1f ns (%s kernel), RocksDB's Ribbon %.1f ns\n"
      "  (filters of %d keys at 10 bits/key, in cache; the median of %d "
      "rounds of as many absent keys)\n"
      "without probe_ns a mixed policy weighs %.1f ns and %.1f ns, the "
      "documented defaults\n"
      "to weigh these, name them: %s, e.g. bloomgate:10:monkey:mixed:%s\n",
      times->bloomgate_nanos, kernel, times->ribbon_nanos,
      bloomgate::kCalibrationKeys, bloomgate::kCalibrationRounds,
      1000 * bloomgate::kDefaultBloomgateProbeMicros,
      1000 * bloomgate::kDefaultRocksDBRibbonProbeMicros, times->NameField(),
      times->NameField());
  return 0;
}

int RunPlan() {
  if (absl::GetFlag(FLAGS_calibrate)) return RunCalibrate();
  bloomgate::tools::PlanRequest request;
  request.db_path = absl::GetFlag(FLAGS_db);
  if (request.db_path.empty()) {
    return UsageError("plan needs --db, the path of a RocksDB database");
  }
  request.column_family = absl::GetFlag(FLAGS_column_family);
  request.lookups_path = absl::GetFlag(FLAGS_lookups);
  if (const std::string memory = absl::GetFlag(FLAGS_memory); !memory.empty()) {
    absl::StatusOr<uint64_t> bytes = bloomgate::tools::ParseMemory(memory);
    if (!bytes.ok()) {
      return UsageError("--memory: " + std::string(bytes.status().message()));
    }
    request.memory_bytes = *bytes;
  }
  absl::StatusOr<bloomgate::tools::PlanReport> report =
      bloomgate::tools::Plan(request);
  if (!report.ok()) {
    absl::FPrintF(stderr, "bloomgate plan: %s\n", report.status().message());
    return 1;
  }
  std::fputs(absl::GetFlag(FLAGS_json)
                 ? bloomgate::tools::FormatPlanJson(*report).c_str()
                 : bloomgate::tools::FormatPlanText(*report).c_str(),
             stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bloomgate::tools::SetToolUsage(kUsage, __FILE__);
  std::vector<char*> args = absl::ParseCommandLine(argc, argv);
  if (args.size() != 2) {
    return UsageError("give one command: size, explain, simd or plan");
  }
  const std::string command = args[1];
  if (command == "size") return RunSize();
  if (command == "explain") return RunExplain();
  if (command == "simd") return RunSimd();
  if (command == "plan") return RunPlan();
  return UsageError("unknown command '" + command + "'");
}
