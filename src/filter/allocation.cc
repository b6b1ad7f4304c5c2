// Copyright 2026 The bloomgate Authors.
//
// The optimisation is separable and convex: minimise sum_i f(b_i) subject to
// sum_i n_i b_i = B, where f(b) is the layout's FP rate at b bits per key
// with its best probe count (decreasing and convex in b). The Lagrange
// condition f'(b_i) = -mu n_i says: give each level bits until its marginal
// FP gain per bit of memory is the same everywhere. We find mu by bisection;
// for a given mu each level's b_i minimises f(b) + mu n_i b on its own.
//
// f is evaluated from a table of ln f on a 0.25-bit grid (ln f is nearly
// linear in b, so linear interpolation of it is accurate to well under 1%),
// which makes the whole search a few milliseconds.

#include "bloomgate/allocation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "bloomgate/sizing.h"

namespace bloomgate {
namespace {

constexpr double kStep = 0.25;    // grid spacing, bits per key
constexpr double kLowest = 0.25;  // smallest non-zero allocation
constexpr int kGridPoints = static_cast<int>(kMaxBitsPerKey / kStep) + 1;

double ExactFp(Layout layout, double bits_per_key) {
  if (bits_per_key <= 0) return 1.0;
  return PredictedFpRate(layout, bits_per_key,
                         OptimalNumProbes(layout, bits_per_key));
}

// ln f(j * kStep) for j in [0, kGridPoints).
class FpTable {
 public:
  explicit FpTable(Layout layout) {
    for (int j = 0; j < kGridPoints; ++j) {
      log_fp_[j] = std::log(ExactFp(layout, j * kStep));
    }
  }
  double Fp(double bits_per_key) const {
    if (bits_per_key <= 0) return 1.0;
    const double x = std::min(bits_per_key, kMaxBitsPerKey) / kStep;
    const int j = std::min(static_cast<int>(x), kGridPoints - 2);
    const double t = x - j;
    return std::exp(log_fp_[j] * (1 - t) + log_fp_[j + 1] * t);
  }

 private:
  std::array<double, kGridPoints> log_fp_;
};

const FpTable& TableFor(Layout layout) {
  static const FpTable* blocked = new FpTable(Layout::kBlocked);
  static const FpTable* standard = new FpTable(Layout::kStandard);
  return layout == Layout::kBlocked ? *blocked : *standard;
}

// argmin over b in {0} u [kLowest, max] of f(b) + price * b, where price is
// mu * n_i: the grid's best point, refined by golden section on the two
// grid intervals around it (the objective is unimodal there).
double BestBits(const FpTable& table, double price) {
  auto cost = [&](double b) { return table.Fp(b) + price * b; };
  int best = 0;
  for (int j = 1; j < kGridPoints; ++j) {
    if (cost(j * kStep) < cost(best * kStep)) best = j;
  }
  if (best == 0) return 0.0;
  double lo = std::max(kLowest, (best - 1) * kStep);
  double hi = std::min(kMaxBitsPerKey, (best + 1) * kStep);
  constexpr double kInvPhi = 0.6180339887498949;
  for (int iter = 0; iter < 40; ++iter) {
    const double a = hi - kInvPhi * (hi - lo);
    const double b = lo + kInvPhi * (hi - lo);
    if (cost(a) < cost(b)) {
      hi = b;
    } else {
      lo = a;
    }
  }
  return (lo + hi) / 2;
}

}  // namespace

absl::StatusOr<std::vector<double>> MonkeyBitsPerKey(
    Layout layout, double average_bits_per_key,
    absl::Span<const double> keys_per_level) {
  if (!(average_bits_per_key >= 0 && average_bits_per_key <= kMaxBitsPerKey)) {
    return absl::InvalidArgumentError(
        absl::StrCat("average bits per key must be in [0, ", kMaxBitsPerKey,
                     "], got ", average_bits_per_key));
  }
  double total = 0;
  for (double n : keys_per_level) {
    if (!(n >= 0 && std::isfinite(n))) {
      return absl::InvalidArgumentError(
          absl::StrCat("level sizes must be finite and >= 0, got ", n));
    }
    total += n;
  }
  if (keys_per_level.empty() || total <= 0) {
    return absl::InvalidArgumentError("the LSM shape has no keys");
  }

  const FpTable& table = TableFor(layout);
  const double budget = average_bits_per_key * total;
  auto allocate = [&](double mu, std::vector<double>& bits) {
    double used = 0;
    for (size_t i = 0; i < keys_per_level.size(); ++i) {
      // Relative sizes keep mu well scaled whatever the units of n.
      const double n = keys_per_level[i] / total;
      bits[i] = n > 0 ? BestBits(table, mu * n) : 0.0;
      used += keys_per_level[i] * bits[i];
    }
    return used;
  };

  // Memory used falls as mu (the price of a bit) rises. Bracket, then bisect
  // in log space.
  std::vector<double> bits(keys_per_level.size());
  double lo = 1e-12;  // cheap bits: everything near the maximum
  double hi = 1.0;
  while (allocate(hi, bits) > budget && hi < 1e12) hi *= 16;
  for (int iter = 0; iter < 100; ++iter) {
    const double mid = std::sqrt(lo * hi);
    if (allocate(mid, bits) > budget) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  double used = allocate(hi, bits);  // within budget

  // The jump of a level from 0 to kLowest bits can leave memory unspent: give
  // it to the level where it buys the most.
  const double left = budget - used;
  if (left > 1e-9 * budget) {
    size_t best = keys_per_level.size();
    double best_gain = 0;
    for (size_t i = 0; i < keys_per_level.size(); ++i) {
      if (keys_per_level[i] <= 0) continue;
      const double extra = left / keys_per_level[i];
      const double candidate = bits[i] + extra;
      if (candidate > kMaxBitsPerKey || (bits[i] == 0 && candidate < kLowest)) {
        continue;
      }
      const double gain = table.Fp(bits[i]) - table.Fp(candidate);
      if (gain > best_gain) {
        best_gain = gain;
        best = i;
      }
    }
    if (best < keys_per_level.size()) bits[best] += left / keys_per_level[best];
  }
  return bits;
}

std::vector<double> LeveledShape(int num_levels, double fanout) {
  std::vector<double> shape;
  double size = 1;
  for (int i = 0; i < num_levels; ++i) {
    shape.push_back(size);
    size *= fanout;
  }
  return shape;
}

double SumOfFpRates(Layout layout, absl::Span<const double> bits_per_key) {
  double sum = 0;
  for (double b : bits_per_key) sum += ExactFp(layout, b);
  return sum;
}

}  // namespace bloomgate
