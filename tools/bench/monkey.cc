// Copyright 2026 The bloomgate Authors.

#include "tools/bench/monkey.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_builder.h"

namespace bloomgate::bench {

absl::StatusOr<std::vector<int64_t>> LevelWeights(int num_levels, double fanout,
                                                  int64_t num) {
  const std::vector<double> shape = LeveledShape(num_levels, fanout);
  double period = 0;
  for (double size : shape) {
    period += std::ceil(size);
    // Checked as a double first: fanout^level may not fit an int64_t.
    if (!(period <= static_cast<double>(num))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "filllevels: ", num_levels, " levels of fanout ", fanout,
          " need at least ", period, " keys (--num) for one key in L0"));
    }
  }
  // The shape in whole keys: scaled by the smallest power of ten that makes
  // every level whole (1 for a whole fanout), or by the largest whose
  // period still fits `num` keys.
  auto whole = [&](double scale) {
    for (double size : shape) {
      if (std::abs(size * scale - std::round(size * scale)) > 1e-6) {
        return false;
      }
    }
    return true;
  };
  double scale = 1;
  while (!whole(scale) && 10 * scale * period <= static_cast<double>(num)) {
    scale *= 10;
  }
  std::vector<int64_t> weights;
  for (double size : shape) {
    weights.push_back(std::max<int64_t>(1, std::llround(size * scale)));
  }
  return weights;
}

int LevelOfKey(int64_t i, const std::vector<int64_t>& weights) {
  int64_t period = 0;
  for (int64_t w : weights) period += w;
  int64_t r = i % period;
  for (size_t level = 0; level < weights.size(); ++level) {
    if (r < weights[level]) return static_cast<int>(level);
    r -= weights[level];
  }
  return static_cast<int>(weights.size()) - 1;
}

}  // namespace bloomgate::bench
