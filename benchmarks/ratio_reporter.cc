// Copyright 2026 The bloomgate Authors.

#include "benchmarks/ratio_reporter.h"

#include <cstdio>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace bloomgate::bench {

RatioReporter::RatioReporter(benchmark::BenchmarkReporter* display,
                             std::string note)
    : display_(display), note_(std::move(note)) {}

bool RatioReporter::ReportContext(const Context& context) {
  return display_->ReportContext(context);
}

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
  display_->ReportRuns(runs);
  for (const Run& run : runs) Collect(run);
}

void RatioReporter::Finalize() {
  display_->Finalize();
  const bool console =
      dynamic_cast<benchmark::ConsoleReporter*>(display_) != nullptr;
  PrintTable(console ? stdout : stderr);
}

void RatioReporter::Collect(const Run& run) {
  if (run.error_occurred) return;
  // With --benchmark_repetitions the median speaks for a benchmark: it
  // arrives after the repetitions and replaces them. The coefficient of
  // variation says how far the repetitions spread; mean and stddev are
  // skipped.
  const bool aggregate = run.run_type == Run::RT_Aggregate;
  const bool median = aggregate && run.aggregate_name == "median";
  const bool cv = aggregate && run.aggregate_name == "cv";
  if (aggregate && !median && !cv) return;
  // Names are <Phase>/<filter>/<keys>.
  std::vector<std::string> parts = absl::StrSplit(run.run_name.str(), '/');
  if (parts.size() < 3) return;
  uint64_t keys = 0;
  if (!absl::SimpleAtoi(parts[2], &keys)) return;
  Result& r = results_[{keys, parts[0]}][parts[1]];
  auto counter = [&](const char* name) {
    auto it = run.counters.find(name);
    return it == run.counters.end() ? 0.0 : static_cast<double>(it->second);
  };
  if (cv) {
    r.cv = counter("ns_per_key");  // a fraction of the mean
    return;
  }
  r.ns_per_key = counter("ns_per_key") * 1e9;  // the counter is in seconds
  r.fp_rate = counter("fp_rate");
  r.bits_per_key = counter("bits_per_key");
}

void RatioReporter::PrintTable(std::FILE* out) const {
  absl::FPrintF(out,
                "\nRatios against rocksdb_bloom in this run (time < 1.00 is "
                "faster; medians when repeated, and cv %%, how far the "
                "repetitions spread; FP in %%)\n%s\n",
                note_);
  absl::FPrintF(out, "%-28s %-24s %9s %9s %6s %8s %8s\n", "benchmark", "filter",
                "ns/key", "x bloom", "cv %", "FP %", "bits/key");
  for (const auto& [group_key, by_filter] : results_) {
    const std::string group =
        absl::StrCat(group_key.second, "/", group_key.first);
    auto base = by_filter.find("rocksdb_bloom");
    for (const auto& [filter, r] : by_filter) {
      std::string ratio = "-";
      if (base != by_filter.end() && base->second.ns_per_key > 0) {
        ratio = absl::StrFormat("%.2f", r.ns_per_key / base->second.ns_per_key);
      }
      const std::string cv =
          r.cv ? absl::StrFormat("%.1f", 100 * *r.cv) : std::string("-");
      absl::FPrintF(out, "%-28s %-24s %9.2f %9s %6s %8.3f %8.2f\n", group,
                    filter, r.ns_per_key, ratio, cv, 100 * r.fp_rate,
                    r.bits_per_key);
    }
  }
}

}  // namespace bloomgate::bench
