// Copyright 2026 The bloomgate Authors.
//
// The FP-versus-memory curves the allocators search (allocation.cc), as
// tables of ln f on a 0.25-bit grid: ln f is nearly linear in b, so linear
// interpolation of it is accurate to well under 1%, and a price's best
// point is a binary search of the grid's lower convex hull.

#ifndef BLOOMGATE_SRC_SPEC_FP_CURVE_H_
#define BLOOMGATE_SRC_SPEC_FP_CURVE_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "bloomgate/allocation.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/filter_spec.h"

namespace bloomgate::internal {

inline constexpr double kGridStep = 0.25;  // grid spacing, bits per key
// The smallest non-zero allocation.
inline constexpr double kLowestBits = 0.25;
inline constexpr int kGridPoints =
    static_cast<int>(kMaxBitsPerKey / kGridStep) + 1;

// The FP-versus-memory curves the allocators know.
enum class Curve { kBlockedBloom, kStandardBloom, kRibbon };

// The curve of bloomgate's own filter of `layout`.
Curve CurveOf(Layout layout);
// The curve of a family: RocksDB's Bloom is cache-line blocked like
// bloomgate's; Ribbon has its own.
Curve CurveOf(FilterFamily family, Layout layout);

// f(b) itself: PredictedFpRate at the best probe count for a Bloom curve,
// PredictedRibbonFpRate at `ribbon_overhead` for Ribbon; 1 for b <= 0.
double ExactFp(Curve curve, double bits_per_key,
               double ribbon_overhead = kRibbonSlotOverhead);

// ln f(j * kGridStep) for j in [0, kGridPoints), and the grid points' lower
// convex hull.
class FpTable {
 public:
  FpTable(Curve curve, double ribbon_overhead) {
    for (int j = 0; j < kGridPoints; ++j) {
      fp_[j] = ExactFp(curve, j * kGridStep, ribbon_overhead);
      log_fp_[j] = std::log(fp_[j]);
      // Keep the hull convex: drop vertices the new point sees past.
      while (hull_.size() >= 2 &&
             Cross(hull_[hull_.size() - 2], hull_.back(), j) <= 0) {
        hull_.pop_back();
      }
      hull_.push_back(j);
    }
  }
  // The grid point j minimising f(j * kGridStep) + price * j * kGridStep, the
  // first of equals: what a scan of the whole grid finds, by a binary
  // search of the hull, since a line's minimum over points is at a vertex
  // of their lower hull (f with its best integer probe count is not quite
  // convex, so the hull is not every point).
  int BestGridPoint(double price) const {
    size_t lo = 0, hi = hull_.size() - 1;  // the answer is in [lo, hi]
    while (lo < hi) {
      const size_t mid = (lo + hi) / 2;
      const int a = hull_[mid], b = hull_[mid + 1];
      // Past the minimum once the cost stops falling.
      if (fp_[b] - fp_[a] + price * (b - a) * kGridStep >= 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return hull_[lo];
  }
  double Fp(double bits_per_key) const {
    if (bits_per_key <= 0) return 1.0;
    const double x = std::min(bits_per_key, kMaxBitsPerKey) / kGridStep;
    const int j = std::min(static_cast<int>(x), kGridPoints - 2);
    const double t = x - j;
    return std::exp(log_fp_[j] * (1 - t) + log_fp_[j + 1] * t);
  }

 private:
  // > 0 when grid point c lies above the line through a and b.
  double Cross(int a, int b, int c) const {
    return (b - a) * (fp_[c] - fp_[a]) - (c - a) * (fp_[b] - fp_[a]);
  }

  std::array<double, kGridPoints> fp_;
  std::array<double, kGridPoints> log_fp_;
  std::vector<int> hull_;  // grid indices, increasing
};

// The table of a curve (for Ribbon, at `ribbon_overhead`), built once and
// kept for the life of the process: a Bloom curve's two tables, and one per
// Ribbon overhead asked for (to 1e-5; a tree asks for a few, one per size
// class of its files).
const FpTable& TableFor(Curve curve,
                        double ribbon_overhead = kRibbonSlotOverhead);

// argmin over b in {0} u [kLowestBits, max] of f(b) + price * b, where
// price is mu * n_i.
double BestBits(const FpTable& table, double price);

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_SPEC_FP_CURVE_H_
