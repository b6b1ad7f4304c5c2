// Copyright 2026 The bloomgate Authors.

#include "src/spec/fp_curve.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>

#include "absl/base/const_init.h"
#include "absl/synchronization/mutex.h"
#include "bloomgate/allocation.h"
#include "bloomgate/sizing.h"

namespace bloomgate {

double PredictedRibbonFpRate(double bits_per_key, double overhead) {
  if (std::isnan(bits_per_key)) return bits_per_key;
  if (bits_per_key <= 0.0) return 1.0;
  return std::exp2(-bits_per_key / (1.0 + overhead));
}

namespace internal {

Curve CurveOf(Layout layout) {
  return layout == Layout::kBlocked ? Curve::kBlockedBloom
                                    : Curve::kStandardBloom;
}

Curve CurveOf(FilterFamily family, Layout layout) {
  switch (family) {
    case FilterFamily::kRocksDBRibbon:
      return Curve::kRibbon;
    case FilterFamily::kRocksDBBloom:  // FastLocalBloom: 512-bit lines
      return Curve::kBlockedBloom;
    default:
      return CurveOf(layout);
  }
}

double ExactFp(Curve curve, double bits_per_key, double ribbon_overhead) {
  if (bits_per_key <= 0) return 1.0;
  if (curve == Curve::kRibbon) {
    return PredictedRibbonFpRate(bits_per_key, ribbon_overhead);
  }
  const Layout layout =
      curve == Curve::kBlockedBloom ? Layout::kBlocked : Layout::kStandard;
  return PredictedFpRate(layout, bits_per_key,
                         OptimalNumProbes(layout, bits_per_key));
}

const FpTable& TableFor(Curve curve, double ribbon_overhead) {
  static const FpTable* blocked = new FpTable(Curve::kBlockedBloom, 0);
  static const FpTable* standard = new FpTable(Curve::kStandardBloom, 0);
  switch (curve) {
    case Curve::kBlockedBloom:
      return *blocked;
    case Curve::kStandardBloom:
      return *standard;
    default:
      break;
  }
  static absl::Mutex mu(absl::kConstInit);
  static auto* ribbon = new std::map<int64_t, std::unique_ptr<const FpTable>>();
  const int64_t key = std::llround(ribbon_overhead * 1e5);
  absl::MutexLock lock(&mu);
  std::unique_ptr<const FpTable>& table = (*ribbon)[key];
  if (table == nullptr) {
    table = std::make_unique<const FpTable>(Curve::kRibbon, key / 1e5);
  }
  return *table;  // never erased: the reference stays valid
}

// The grid's best point, refined by golden section on the two grid
// intervals around it (the objective is unimodal there).
double BestBits(const FpTable& table, double price) {
  auto cost = [&](double b) { return table.Fp(b) + price * b; };
  const int best = table.BestGridPoint(price);
  if (best == 0) return 0.0;
  double lo = std::max(kLowestBits, (best - 1) * kGridStep);
  double hi = std::min(kMaxBitsPerKey, (best + 1) * kGridStep);
  // 30 steps narrow half a bit to 3e-7 bits.
  constexpr double kInvPhi = 0.6180339887498949;
  for (int iter = 0; iter < 30; ++iter) {
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

}  // namespace internal
}  // namespace bloomgate
