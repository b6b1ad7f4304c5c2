// Copyright 2026 The bloomgate Authors.

#include "src/rocksdb/flushed_key_ranges.h"

#include <utility>

namespace bloomgate::rocksdb_internal {

FlushedKeyRanges::Outside FlushedKeyRanges::Add(const std::string& cf,
                                                std::string_view first,
                                                std::string_view last) {
  if (last < first) std::swap(first, last);
  std::lock_guard<std::mutex> lock(mu_);
  auto [it, added] = ranges_.try_emplace(cf, first, last);
  Range& range = it->second;
  const bool outside = added || last < range.min || first > range.max;
  if (first < range.min) range.min.assign(first);
  if (last > range.max) range.max.assign(last);
  if (outside) ++range.outside_flushes;
  return {outside, outside && range.outside_flushes == 2};
}

}  // namespace bloomgate::rocksdb_internal
