// Copyright 2026 The bloomgate Authors.

#include "bloomgate/sizing.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "src/filter/format.h"

namespace bloomgate {
namespace {

constexpr double kLn2 = 0.69314718055994530942;

absl::Status CheckFpRate(double fp_rate) {
  if (!(fp_rate > 0.0 && fp_rate < 1.0)) {  // also rejects NaN
    return absl::InvalidArgumentError(
        absl::StrCat("false-positive rate must be in (0, 1), got ", fp_rate));
  }
  return absl::OkStatus();
}

double StandardFpRate(double bits_per_key, int num_probes) {
  return std::pow(-std::expm1(-num_probes / bits_per_key), num_probes);
}

// The textbook formula inside one line of kLineBits bits, weighted by the
// Poisson probability that c keys share the line. The sum runs over c within
// 12 standard deviations of the mean (mean 512/b); the mass outside is below
// 1e-30.
double BlockedFpRate(double bits_per_key, int num_probes) {
  const double mean = internal::kLineBits / bits_per_key;
  const double spread = 12.0 * std::sqrt(mean) + 40.0;
  const int lo = static_cast<int>(std::max(0.0, mean - spread));
  const int hi = static_cast<int>(mean + spread);
  const double log_bit_stays_clear =
      std::log1p(-1.0 / internal::kLineBits) * num_probes;
  double fp = 0.0;
  for (int c = lo; c <= hi; ++c) {
    const double log_pmf = c * std::log(mean) - mean - std::lgamma(c + 1.0);
    const double bit_set = -std::expm1(log_bit_stays_clear * c);
    fp += std::exp(log_pmf) * std::pow(bit_set, num_probes);
  }
  return fp;
}

}  // namespace

absl::StatusOr<double> BitsPerKeyForFpRate(double fp_rate) {
  if (absl::Status s = CheckFpRate(fp_rate); !s.ok()) return s;
  return -std::log(fp_rate) / (kLn2 * kLn2);
}

absl::StatusOr<BloomParams> CalculateParams(uint64_t num_keys, double fp_rate) {
  if (num_keys == 0) {
    return absl::InvalidArgumentError("number of keys must be at least 1");
  }
  absl::StatusOr<double> bits_per_key = BitsPerKeyForFpRate(fp_rate);
  if (!bits_per_key.ok()) return bits_per_key.status();
  const double bits = std::ceil(static_cast<double>(num_keys) * *bits_per_key);
  if (!(bits < 18446744073709551616.0)) {  // 2^64
    return absl::OutOfRangeError(absl::StrCat(
        num_keys, " keys at FP rate ", fp_rate, " need more than 2^64 bits"));
  }
  BloomParams params;
  params.num_bits = static_cast<uint64_t>(bits);
  params.num_probes = static_cast<int>(std::ceil(*bits_per_key * kLn2));
  return params;
}

double PredictedFpRate(Layout layout, double bits_per_key, int num_probes) {
  if (std::isnan(bits_per_key)) return bits_per_key;
  if (bits_per_key <= 0.0 || num_probes < 1) return 1.0;
  if (std::isinf(bits_per_key)) return 0.0;
  return layout == Layout::kBlocked ? BlockedFpRate(bits_per_key, num_probes)
                                    : StandardFpRate(bits_per_key, num_probes);
}

int OptimalNumProbes(Layout layout, double bits_per_key) {
  const int max_probes =
      layout == Layout::kBlocked ? kMaxBlockedProbes : kMaxStandardProbes;
  int best_k = 1;
  double best_fp = PredictedFpRate(layout, bits_per_key, 1);
  for (int k = 2; k <= max_probes; ++k) {
    const double fp = PredictedFpRate(layout, bits_per_key, k);
    // The FP curve is flat near its minimum; demand a real improvement so
    // that ties go to fewer probes (cheaper to build and to query).
    if (fp < best_fp * (1.0 - 1e-9)) {
      best_fp = fp;
      best_k = k;
    }
  }
  return best_k;
}

}  // namespace bloomgate
