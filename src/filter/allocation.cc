// Copyright 2026 The bloomgate Authors.
//
// The optimisation is separable and convex: minimise sum_i r_i f(b_i)
// subject to sum_i n_i b_i = B, where f(b) is the layout's FP rate at b bits
// per key with its best probe count (decreasing and convex in b) and r_i a
// run's reach. The Lagrange condition r_i f'(b_i) = -mu n_i says: give each
// run bits until its marginal saving of wasted reads per bit of memory is
// the same everywhere. We find mu by bisection; for a given mu each run's
// b_i minimises f(b) + (mu n_i / r_i) b on its own.
//
// f is evaluated from a table of ln f on a 0.25-bit grid (ln f is nearly
// linear in b, so linear interpolation of it is accurate to well under 1%),
// which makes the whole search a few milliseconds.

#include "bloomgate/allocation.h"

#include <algorithm>
#include <array>
#include <cmath>

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
      fp_[j] = ExactFp(layout, j * kStep);
      log_fp_[j] = std::log(fp_[j]);
    }
  }
  // f(j * kStep), exactly.
  double FpAtGridPoint(int j) const { return fp_[j]; }
  double Fp(double bits_per_key) const {
    if (bits_per_key <= 0) return 1.0;
    const double x = std::min(bits_per_key, kMaxBitsPerKey) / kStep;
    const int j = std::min(static_cast<int>(x), kGridPoints - 2);
    const double t = x - j;
    return std::exp(log_fp_[j] * (1 - t) + log_fp_[j + 1] * t);
  }

 private:
  std::array<double, kGridPoints> fp_;
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
  double best_cost = table.FpAtGridPoint(0);
  for (int j = 1; j < kGridPoints; ++j) {
    const double c = table.FpAtGridPoint(j) + price * (j * kStep);
    if (c < best_cost) {
      best = j;
      best_cost = c;
    }
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

// The steps of AllocateBitsPerKey: check the arguments, find the price of a
// bit at which the runs' best bits spend the budget, then spend what the
// rounding left.

absl::Status ValidateAllocation(double average_bits_per_key,
                                absl::Span<const FilterRun> runs) {
  if (!(average_bits_per_key >= 0 && average_bits_per_key <= kMaxBitsPerKey)) {
    return absl::InvalidArgumentError(
        absl::StrCat("average bits per key must be in [0, ", kMaxBitsPerKey,
                     "], got ", average_bits_per_key));
  }
  for (const FilterRun& run : runs) {
    if (!(run.keys >= 0 && std::isfinite(run.keys))) {
      return absl::InvalidArgumentError(
          absl::StrCat("key counts must be finite and >= 0, got ", run.keys));
    }
    if (!(run.reach >= 0 && std::isfinite(run.reach))) {
      return absl::InvalidArgumentError(
          absl::StrCat("reach must be finite and >= 0, got ", run.reach));
    }
  }
  return absl::OkStatus();
}

// Each run's best bits per key when a bit costs `mu` (in *bits), and the
// memory they use. `total` is the runs' keys.
double AllocateAtPrice(const FpTable& table, absl::Span<const FilterRun> runs,
                       double total, double mu, std::vector<double>* bits) {
  double used = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    // Relative sizes keep mu well scaled whatever the units of n.
    const double n = runs[i].keys / total;
    const double r = runs[i].reach;
    (*bits)[i] = n > 0 && r > 0 ? BestBits(table, mu * n / r) : 0.0;
    used += runs[i].keys * (*bits)[i];
  }
  return used;
}

// The allocation at the lowest price that keeps within `budget` bits, in
// *bits; returns the memory it uses.
double AllocateWithinBudget(const FpTable& table,
                            absl::Span<const FilterRun> runs, double total,
                            double budget, std::vector<double>* bits) {
  auto allocate = [&](double mu) {
    return AllocateAtPrice(table, runs, total, mu, bits);
  };
  // Memory used falls as mu (the price of a bit) rises. Bracket, then bisect
  // in log space.
  double lo = 1e-12;
  double hi = 1.0;
  // Near-free bits: every run at the maximum, for the largest budgets (FP
  // rates there are far below 1e-12, so the price must fall further).
  while (allocate(lo) < budget && lo > 1e-300) lo *= 1e-12;
  while (allocate(hi) > budget && hi < 1e12) hi *= 16;
  for (int iter = 0; iter < 60; ++iter) {
    const double mid = std::sqrt(lo * hi);
    if (allocate(mid) > budget) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return allocate(hi);  // within budget
}

// The jump of a run from 0 to kLowest bits can leave memory unspent: gives
// `left` bits to the run where they save the most.
void SpendRemainder(const FpTable& table, absl::Span<const FilterRun> runs,
                    double left, std::vector<double>* bits) {
  size_t best = runs.size();
  double best_gain = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].keys <= 0) continue;
    const double candidate = (*bits)[i] + left / runs[i].keys;
    if (candidate > kMaxBitsPerKey ||
        ((*bits)[i] == 0 && candidate < kLowest)) {
      continue;
    }
    const double gain =
        runs[i].reach * (table.Fp((*bits)[i]) - table.Fp(candidate));
    if (gain > best_gain) {
      best_gain = gain;
      best = i;
    }
  }
  if (best < runs.size()) (*bits)[best] += left / runs[best].keys;
}

}  // namespace

absl::StatusOr<std::vector<double>> AllocateBitsPerKey(
    Layout layout, double average_bits_per_key,
    absl::Span<const FilterRun> runs) {
  if (absl::Status s = ValidateAllocation(average_bits_per_key, runs);
      !s.ok()) {
    return s;
  }
  double total = 0, reached = 0;
  for (const FilterRun& run : runs) {
    total += run.keys;
    reached += run.keys * run.reach;
  }
  if (runs.empty() || total <= 0) {
    return absl::InvalidArgumentError("the LSM shape has no keys");
  }
  std::vector<double> bits(runs.size());
  if (reached <= 0) {  // no filter saves a read: any split is as good
    for (size_t i = 0; i < runs.size(); ++i) {
      bits[i] = runs[i].keys > 0 ? average_bits_per_key : 0.0;
    }
    return bits;
  }
  const FpTable& table = TableFor(layout);
  const double budget = average_bits_per_key * total;
  const double used = AllocateWithinBudget(table, runs, total, budget, &bits);
  const double left = budget - used;
  if (left > 1e-9 * budget) SpendRemainder(table, runs, left, &bits);
  return bits;
}

absl::StatusOr<std::vector<double>> MonkeyBitsPerKey(
    Layout layout, double average_bits_per_key,
    absl::Span<const double> keys_per_level) {
  std::vector<FilterRun> runs;
  runs.reserve(keys_per_level.size());
  for (double n : keys_per_level) runs.push_back({.keys = n, .reach = 1});
  return AllocateBitsPerKey(layout, average_bits_per_key, runs);
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
