// Copyright 2026 The bloomgate Authors.

#include "tools/bench/fp_model.h"

#include <cmath>
#include <limits>

namespace bloomgate::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

double PredictedFileFp(const FilterSpec& filter, uint64_t keys,
                       uint64_t filter_bytes,
                       absl::Span<const double> level_bits) {
  if (keys == 0 || filter.family == FilterFamily::kNone) return kNaN;
  // Which family a file of mixed families got is not in its properties.
  if (filter.mixed) return kNaN;
  if (!filter.monkey) return filter.PredictedFpRate(keys);
  for (double bits : level_bits) {
    if (bits > 0 && filter.BlockBytes(keys, bits) == filter_bytes) {
      return filter.PredictedFpRate(keys, bits);
    }
  }
  // Sized from the live tree: the rate of a block of this size, with the
  // probes its bits per key choose.
  if (filter_bytes == 0) return kNaN;
  return filter.PredictedBlockFpRate(keys, filter_bytes);
}

double PredictedFileFp(const FilterSpec& filter, const FileInfo& file,
                       absl::Span<const double> level_bits) {
  if (file.filter_keys == 0) return kNaN;
  if (!std::isnan(file.predicted_fp_rate)) return file.predicted_fp_rate;
  return PredictedFileFp(filter, file.filter_keys, file.filter_bytes,
                         level_bits);
}

double PredictedFp(const FilterSpec& filter, const EngineShape& shape,
                   absl::Span<const double> level_bits) {
  double sum = 0;
  int files = 0;
  for (const FileInfo& f : shape.files) {
    if (f.filter_keys == 0) continue;
    const double fp = PredictedFileFp(filter, f, level_bits);
    if (std::isnan(fp)) continue;
    sum += fp;
    ++files;
  }
  return files > 0 ? sum / files : kNaN;
}

}  // namespace bloomgate::bench
