// Copyright 2026 The bloomgate Authors.

#include "bloomgate/sizing.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
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

// Probability that a query's k probes all land on set bits of a 512-bit line
// that c keys have set, averaged over the Poisson-distributed c (mean 512/b).
//
// Given c, the textbook (1 - (1 - 1/512)^(kc))^k is not exact: it raises the
// *expected* share of set bits to the k-th power, and E[X^k] > E[X]^k, most of
// all in a line as small as 512 bits (at 10 bits/key and k = 6 it gives
// 0.957%; the exact value, and what filters measure, is 0.966%). The exact
// value follows the query's distinct probed bits as the keys' kc probes land
// one by one: state r is "r of the query's bits are still clear", a probe
// hits one of them with probability r/512, and the query matches when r reaches
// 0. The chain starts from the distribution of the number of distinct bits
// among k uniform probes. One chain serves every c; the Poisson sum runs over c
// within 12 standard deviations of the mean (mass outside below 1e-30).
double BlockedFpRate(double bits_per_key, int num_probes) {
  constexpr double kBits = internal::kLineBits;
  const int k = num_probes;
  // clear[r]: probability that r of the query's probed bits are still clear.
  std::vector<double> clear(k + 1, 0.0);
  // First, as the query's k probes are drawn, clear[r] is the chance that
  // they hit r distinct bits (all still clear in an empty line).
  clear[0] = 1.0;
  for (int probe = 0; probe < k; ++probe) {
    for (int r = probe + 1; r >= 1; --r) {
      clear[r] =
          clear[r] * (r / kBits) + clear[r - 1] * ((kBits - r + 1) / kBits);
    }
    clear[0] = 0.0;
  }
  const auto land_one_probe = [&clear, k] {
    for (int r = 0; r < k; ++r) {
      clear[r] =
          clear[r] * (1.0 - r / kBits) + clear[r + 1] * ((r + 1) / kBits);
    }
    clear[k] *= 1.0 - k / kBits;
  };
  const double mean = kBits / bits_per_key;
  const double spread = 12.0 * std::sqrt(mean) + 40.0;
  const int lo = static_cast<int>(std::max(0.0, mean - spread));
  const int hi = static_cast<int>(mean + spread);
  for (int i = 0; i < lo * k; ++i) land_one_probe();
  double fp = 0.0;
  for (int c = lo; c <= hi; ++c) {
    const double log_pmf = c * std::log(mean) - mean - std::lgamma(c + 1.0);
    fp += std::exp(log_pmf) * clear[0];
    for (int i = 0; i < k; ++i) land_one_probe();
  }
  return fp;
}

int SearchOptimalNumProbes(Layout layout, double bits_per_key) {
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
    } else if (fp > best_fp) {
      break;  // Past the minimum: the curve is unimodal in k.
    }
  }
  return best_k;
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

double PredictedFilterFpRate(Layout layout, uint64_t num_keys,
                             uint64_t num_bits, int num_probes) {
  if (num_keys == 0) return 0.0;
  if (num_bits == 0) return 1.0;
  return PredictedFpRate(
      layout, static_cast<double>(num_bits) / static_cast<double>(num_keys),
      num_probes);
}

int OptimalNumProbes(Layout layout, double bits_per_key) {
  // Memoized: the blocked prediction takes tens of microseconds a probe
  // count, and every FilterBuilder::Create asks (a storage engine: once per
  // file), nearly always for the same few bits per key. Bounded, in case a
  // caller sweeps bits per key.
  constexpr size_t kMaxMemoized = 4096;
  static absl::Mutex mu(absl::kConstInit);
  static auto* memo ABSL_GUARDED_BY(mu) =
      new absl::flat_hash_map<std::pair<int, double>, int>();
  const std::pair<int, double> key(static_cast<int>(layout), bits_per_key);
  {
    absl::MutexLock lock(&mu);
    if (auto it = memo->find(key); it != memo->end()) return it->second;
  }
  const int k = SearchOptimalNumProbes(layout, bits_per_key);
  absl::MutexLock lock(&mu);
  if (memo->size() >= kMaxMemoized) memo->clear();
  memo->emplace(key, k);
  return k;
}

}  // namespace bloomgate
