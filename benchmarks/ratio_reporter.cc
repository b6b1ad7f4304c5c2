// Copyright 2026 The bloomgate Authors.

#include "benchmarks/ratio_reporter.h"

#include <cstdio>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace bloomgate::bench {

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  for (const Run& run : runs) {
    if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
    // Names are <Phase>/<filter>/<keys>.
    std::vector<std::string> parts = absl::StrSplit(run.benchmark_name(), '/');
    if (parts.size() < 3) continue;
    const std::string group = parts[0] + "/" + parts[2];
    if (!results_.count(group)) order_.push_back(group);
    Result& r = results_[group][parts[1]];
    auto counter = [&](const char* name) {
      auto it = run.counters.find(name);
      return it == run.counters.end() ? 0.0 : static_cast<double>(it->second);
    };
    r.ns_per_key = counter("ns_per_key") * 1e9;  // the counter is in seconds
    r.fp_rate = counter("fp_rate");
    r.bits_per_key = counter("bits_per_key");
  }
}

void RatioReporter::Finalize() {
  ConsoleReporter::Finalize();
  std::FILE* out = stdout;
  absl::FPrintF(out,
                "\nRatios against rocksdb_bloom in this run (time < 1.00 is "
                "faster; FP in %%)\n");
  absl::FPrintF(out, "%-24s %-20s %9s %9s %8s %8s\n", "benchmark", "filter",
                "ns/key", "x bloom", "FP %", "bits/key");
  for (const std::string& group : order_) {
    const auto& by_filter = results_[group];
    auto base = by_filter.find("rocksdb_bloom");
    for (const auto& [filter, r] : by_filter) {
      std::string ratio = "-";
      if (base != by_filter.end() && base->second.ns_per_key > 0) {
        ratio = absl::StrFormat("%.2f", r.ns_per_key / base->second.ns_per_key);
      }
      absl::FPrintF(out, "%-24s %-20s %9.2f %9s %8.3f %8.2f\n", group, filter,
                    r.ns_per_key, ratio, 100 * r.fp_rate, r.bits_per_key);
    }
  }
}

}  // namespace bloomgate::bench
