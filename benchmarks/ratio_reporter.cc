// Copyright 2026 The bloomgate Authors.

#include "benchmarks/ratio_reporter.h"

#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "benchmarks/filter_names.h"

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

namespace {

// "a / b" to two places, or "-" without a base.
std::string Ratio(double ns, const std::map<std::string, double>& base,
                  const std::string& name) {
  auto it = base.find(name);
  if (it == base.end() || it->second <= 0) return "-";
  return absl::StrFormat("%.2f", ns / it->second);
}

}  // namespace

void RatioReporter::PrintTable(std::FILE* out) const {
  // The like-for-like column appears when RocksDB's query compiled with AVX2
  // ran: bloomgate's kernels against RocksDB's own query at the same
  // instruction set.
  const std::string bloom = BenchFilterName(kRocksdbBloomSpec);
  const std::string bloom_avx2 =
      BenchFilterName(kRocksdbBloomSpec, kAvx2Variant);
  bool have_avx2 = false;
  for (const auto& [group_key, by_filter] : results_) {
    have_avx2 |= by_filter.count(bloom_avx2) != 0;
  }
  absl::FPrintF(out,
                "\nRatios in this run (time < 1.00 is faster; medians when "
                "repeated, and cv %%, how far the repetitions spread; FP in "
                "%%)\n"
                "x bloom: against rocksdb_bloom, RocksDB's Bloom filter as "
                "linked\n%s%s\n",
                have_avx2 ? "x avx2: against rocksdb_bloom_avx2, RocksDB's "
                            "query compiled with AVX2 (Build: against "
                            "rocksdb_bloom, whose builder has no vector "
                            "code)\n"
                          : "",
                note_);
  absl::FPrintF(out, "%-28s %-24s %9s %9s%s %6s %8s %8s\n", "benchmark",
                "filter", "ns/key", "x bloom", have_avx2 ? "    x avx2" : "",
                "cv %", "FP %", "bits/key");
  for (const auto& [group_key, by_filter] : results_) {
    const std::string group =
        absl::StrCat(group_key.second, "/", group_key.first);
    std::map<std::string, double> base;
    for (const auto& [filter, r] : by_filter) base[filter] = r.ns_per_key;
    const std::string like_base =
        by_filter.count(bloom_avx2) != 0 ? bloom_avx2 : bloom;
    for (const auto& [filter, r] : by_filter) {
      const std::string like =
          have_avx2 ? absl::StrFormat(" %9s",
                                      group_key.second == "Build" ||
                                              by_filter.count(bloom_avx2)
                                          ? Ratio(r.ns_per_key, base, like_base)
                                          : "-")
                    : "";
      const std::string cv =
          r.cv ? absl::StrFormat("%.1f", 100 * *r.cv) : std::string("-");
      absl::FPrintF(out, "%-28s %-24s %9.2f %9s%s %6s %8.3f %8.2f\n", group,
                    filter, r.ns_per_key, Ratio(r.ns_per_key, base, bloom),
                    like, cv, 100 * r.fp_rate, r.bits_per_key);
    }
  }
}

}  // namespace bloomgate::bench
