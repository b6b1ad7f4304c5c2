// Copyright 2026 The bloomgate Authors.

#include "fp_model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "bloomgate/filter_options.h"
#include "bloomgate/sizing.h"

namespace bloomgate::bench {
namespace {

double Clamp(double bits) {
  return std::clamp(bits, kMinBitsPerKey, kMaxBitsPerKey);
}

double LayoutFp(Layout layout, double configured_bits, double actual_bits) {
  int probes = OptimalNumProbes(layout, Clamp(configured_bits));
  return PredictedFpRate(layout, actual_bits, probes);
}

}  // namespace

double PredictedFp(FilterKind filter, double configured_bits,
                   double actual_bits) {
  if (!(actual_bits > 0)) actual_bits = configured_bits;
  switch (filter) {
    case FilterKind::kNone:
      return std::numeric_limits<double>::quiet_NaN();
    case FilterKind::kBloomgate:
    case FilterKind::kRocksDBBloom:
      return LayoutFp(Layout::kBlocked, configured_bits, actual_bits);
    case FilterKind::kBloomgateStandard:
      return LayoutFp(Layout::kStandard, configured_bits, actual_bits);
    case FilterKind::kRocksDBRibbon:
      return LayoutFp(Layout::kBlocked, configured_bits, configured_bits);
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace bloomgate::bench
