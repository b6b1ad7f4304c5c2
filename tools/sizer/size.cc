// Copyright 2026 The bloomgate Authors.

#include "tools/sizer/size.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/sizing.h"
#include "nlohmann/json.hpp"

namespace bloomgate::tools {

absl::StatusOr<SizeReport> ComputeSize(const SizeRequest& request) {
  if (request.num_keys == 0) {
    return absl::InvalidArgumentError("--n must be at least 1");
  }
  if (request.fp_rate.has_value() == request.bits_per_key.has_value()) {
    return absl::InvalidArgumentError(
        "give exactly one of --fp and --bits_per_key");
  }
  SizeReport report;
  report.num_keys = request.num_keys;
  const double n = static_cast<double>(request.num_keys);
  if (request.fp_rate) {
    absl::StatusOr<BloomParams> params =
        CalculateParams(request.num_keys, *request.fp_rate);
    if (!params.ok()) return params.status();
    report.bits = params->num_bits;
    report.k = params->num_probes;
    report.bits_per_key = static_cast<double>(report.bits) / n;
    // The textbook answer can lie beyond what a filter block holds: with
    // more probes than the format allows, use the most it allows and the
    // bits that then reach the target, (1 - e^(-kn/m))^k = fp; past the
    // most bits per key, say so rather than print a filter nobody can build.
    if (report.k > kMaxStandardProbes) {
      report.k = kMaxStandardProbes;
      report.k_capped = true;
      report.bits_per_key =
          -report.k / std::log1p(-std::pow(*request.fp_rate, 1.0 / report.k));
    }
    if (report.bits_per_key > kMaxBitsPerKey) {
      const double best =
          PredictedFpRate(Layout::kStandard, kMaxBitsPerKey, report.k);
      return absl::InvalidArgumentError(absl::StrFormat(
          "--fp=%g needs %.1f bits/key; a bloomgate filter holds at most %g "
          "bits/key and %d probes, whose FP rate is %.3g: ask for --fp of at "
          "least that",
          *request.fp_rate, report.bits_per_key, kMaxBitsPerKey,
          kMaxStandardProbes, best));
    }
    if (report.k_capped) {
      report.bits = static_cast<uint64_t>(std::ceil(n * report.bits_per_key));
      report.bits_per_key = static_cast<double>(report.bits) / n;
    }
  } else {
    FilterOptions options;
    options.bits_per_key = *request.bits_per_key;
    if (absl::Status s = ValidateFilterOptions(options); !s.ok()) return s;
    report.bits_per_key = *request.bits_per_key;
    report.bits = static_cast<uint64_t>(std::ceil(n * report.bits_per_key));
    report.k = OptimalNumProbes(Layout::kStandard, report.bits_per_key);
  }
  report.bytes = (report.bits + 7) / 8;
  report.fp_standard =
      PredictedFpRate(Layout::kStandard, report.bits_per_key, report.k);

  // The blocked layout at the same bits per key, as FilterBuilder lays it
  // out: whole lines, its own optimal k.
  const FilterSpec blocked{.bits_per_key = report.bits_per_key};
  report.k_blocked = blocked.NumProbes();
  report.bytes_blocked = blocked.BitsFor(report.num_keys) / 8;
  report.fp_blocked = blocked.PredictedFpRate(report.num_keys);
  return report;
}

std::string HumanBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB",
                                           "TiB",   "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return absl::StrCat(bytes, " bytes");
  return absl::StrFormat("%.3g %s (%d bytes)", value, kUnits[unit], bytes);
}

std::string FormatSizeText(const SizeReport& r) {
  return absl::StrFormat(
      "keys (n)            %d\n"
      "bits (m)            %d  (%.4f bits/key)\n"
      "probes (k)          %d%s\n"
      "size                %s\n"
      "FP, standard layout %.4f%%  (k = %d)\n"
      "FP, blocked layout  %.4f%%  (k = %d, %s in 64-byte lines)\n",
      r.num_keys, r.bits, r.bits_per_key, r.k,
      r.k_capped ? "  (the format's most; the optimum needs more)" : "",
      HumanBytes(r.bytes), 100 * r.fp_standard, r.k, 100 * r.fp_blocked,
      r.k_blocked, HumanBytes(r.bytes_blocked));
}

std::string FormatSizeJson(const SizeReport& r) {
  const nlohmann::ordered_json json = {
      {"n", r.num_keys},
      {"bits", r.bits},
      {"bits_per_key", r.bits_per_key},
      {"k", r.k},
      {"bytes", r.bytes},
      {"fp_standard", r.fp_standard},
      {"k_blocked", r.k_blocked},
      {"bytes_blocked", r.bytes_blocked},
      {"fp_blocked", r.fp_blocked},
  };
  return json.dump(2) + "\n";
}

}  // namespace bloomgate::tools
