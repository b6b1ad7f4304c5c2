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

namespace {

// The bits per key and probes of the textbook filter for `fp_rate`: m and k
// by the classic formulas. The textbook answer can lie beyond what a filter
// block holds: with more probes than the format allows, use the most it
// allows and the bits that then reach the target, (1 - e^(-kn/m))^k = fp;
// past the most bits per key, say so rather than print a filter nobody can
// build.
struct TextbookFilter {
  double bits_per_key = 0;
  int k = 0;
  bool k_capped = false;
};
absl::StatusOr<TextbookFilter> TextbookFilterFor(uint64_t num_keys,
                                                 double fp_rate) {
  absl::StatusOr<BloomParams> params = CalculateParams(num_keys, fp_rate);
  if (!params.ok()) return params.status();
  absl::StatusOr<double> bits_per_key = BitsPerKeyForFpRate(fp_rate);
  if (!bits_per_key.ok()) return bits_per_key.status();
  TextbookFilter filter{.bits_per_key = *bits_per_key, .k = params->num_probes};
  // What the textbook's m gives a key, as the check below has always used.
  double spent =
      static_cast<double>(params->num_bits) / static_cast<double>(num_keys);
  if (filter.k > kMaxStandardProbes) {
    filter.k = kMaxStandardProbes;
    filter.k_capped = true;
    filter.bits_per_key =
        -filter.k / std::log1p(-std::pow(fp_rate, 1.0 / filter.k));
    spent = filter.bits_per_key;
  }
  if (spent > kMaxBitsPerKey) {
    const double best =
        PredictedFpRate(Layout::kStandard, kMaxBitsPerKey, filter.k);
    return absl::InvalidArgumentError(absl::StrFormat(
        "--fp=%g needs %.1f bits/key; a bloomgate filter holds at most %g "
        "bits/key and %d probes, whose FP rate is %.3g: ask for --fp of at "
        "least that",
        fp_rate, spent, kMaxBitsPerKey, kMaxStandardProbes, best));
  }
  return filter;
}

}  // namespace

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
  // Both layouts as FilterBuilder lays them out (FilterSpec): the standard
  // one at the textbook's bits per key and k, the blocked one at the same
  // bits per key with its own optimal k.
  FilterSpec standard{.layout = Layout::kStandard};
  if (request.fp_rate) {
    absl::StatusOr<TextbookFilter> textbook =
        TextbookFilterFor(request.num_keys, *request.fp_rate);
    if (!textbook.ok()) return textbook.status();
    standard.bits_per_key = textbook->bits_per_key;
    standard.num_probes = textbook->k;
    report.k_capped = textbook->k_capped;
  } else {
    FilterOptions options;
    options.bits_per_key = *request.bits_per_key;
    if (absl::Status s = ValidateFilterOptions(options); !s.ok()) return s;
    standard.bits_per_key = *request.bits_per_key;
    standard.num_probes =
        OptimalNumProbes(Layout::kStandard, standard.bits_per_key);
  }
  report.bits = standard.BitsFor(report.num_keys);
  report.k = standard.NumProbes();
  report.bits_per_key = static_cast<double>(report.bits) / n;
  report.bytes = (report.bits + 7) / 8;
  report.fp_standard = standard.PredictedFpRate(report.num_keys);

  // The bits per key asked for: given, or the textbook's m over n.
  const double asked = request.fp_rate
                           ? std::ceil(n * standard.bits_per_key) / n
                           : standard.bits_per_key;
  const FilterSpec blocked{.bits_per_key = asked};
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
