// Copyright 2026 The bloomgate Authors.

#include "fp_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "absl/types/span.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/filter_reader.h"
#include "bloomgate/sizing.h"

namespace bloomgate::bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double ClampBits(double bits) {
  return std::clamp(bits, kMinBitsPerKey, kMaxBitsPerKey);
}

// What the filter core builds for `keys` keys: bits per key of the bit
// array and probes, read back from a real block. Cached: a run asks for the
// same few sizes again and again.
double BloomgateFileFp(Layout layout, double bits, uint64_t keys) {
  static std::mutex mu;
  static std::map<std::tuple<int, double, uint64_t>, double> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_tuple(static_cast<int>(layout), bits, keys);
  if (auto it = cache.find(key); it != cache.end()) return it->second;

  FilterOptions options;
  options.bits_per_key = ClampBits(bits);
  options.layout = layout;
  absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(options);
  double fp = kNaN;
  if (builder.ok()) {
    // Distinct hashes; their values do not matter for the size.
    for (uint64_t i = 0; i < keys; ++i) builder->AddHash(i);
    std::string block = builder->Finish();
    FilterReader reader(block);
    if (!reader.degraded()) {
      fp = PredictedFpRate(layout, reader.bits_per_key(), reader.num_probes());
    }
  }
  cache.emplace(key, fp);
  return fp;
}

}  // namespace

double PredictedFileFp(FilterKind filter, double configured_bits, uint64_t keys,
                       uint64_t filter_bytes,
                       absl::Span<const double> level_bits) {
  if (keys == 0) return kNaN;
  const double bits = ClampBits(configured_bits);
  switch (filter) {
    case FilterKind::kNone:
      return kNaN;
    case FilterKind::kBloomgate:
      return BloomgateFileFp(Layout::kBlocked, bits, keys);
    case FilterKind::kBloomgateStandard:
      return BloomgateFileFp(Layout::kStandard, bits, keys);
    case FilterKind::kBloomgateMonkey:
      for (double b : level_bits) {
        if (b <= 0) continue;
        absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(
            FilterOptions{.bits_per_key = b, .layout = Layout::kBlocked});
        if (builder.ok() && builder->BlockSize(keys) == filter_bytes) {
          return BloomgateFileFp(Layout::kBlocked, b, keys);
        }
      }
      return kNaN;
    case FilterKind::kRocksDBBloom: {
      double actual =
          8.0 * static_cast<double>(filter_bytes) / static_cast<double>(keys);
      return PredictedFpRate(Layout::kBlocked, actual,
                             OptimalNumProbes(Layout::kBlocked, bits));
    }
    case FilterKind::kRocksDBRibbon:
      return PredictedFpRate(Layout::kBlocked, bits,
                             OptimalNumProbes(Layout::kBlocked, bits));
  }
  return kNaN;
}

double PredictedFp(FilterKind filter, double configured_bits,
                   const EngineShape& shape,
                   absl::Span<const double> level_bits) {
  double sum = 0;
  int files = 0;
  for (const FileInfo& f : shape.files) {
    if (f.filter_keys == 0) continue;
    double fp = PredictedFileFp(filter, configured_bits, f.filter_keys,
                                f.filter_bytes, level_bits);
    if (std::isnan(fp)) continue;
    sum += fp;
    ++files;
  }
  return files > 0 ? sum / files : kNaN;
}

}  // namespace bloomgate::bench
