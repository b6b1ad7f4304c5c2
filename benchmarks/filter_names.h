// Copyright 2026 The bloomgate Authors.
//
// The filter microbenchmarks' filter names: the registry's (FilterSpec's
// KindName: "bloomgate", "bloomgate_standard", "rocksdb_bloom",
// "rocksdb_ribbon"), and for a variant of one, that name, "_" and the
// variant: a SIMD kernel forced ("bloomgate_scalar", "bloomgate_avx2") or
// RocksDB's query compiled with AVX2 ("rocksdb_bloom_avx2").

#ifndef BLOOMGATE_BENCHMARKS_FILTER_NAMES_H_
#define BLOOMGATE_BENCHMARKS_FILTER_NAMES_H_

#include <string>
#include <string_view>

#include "bloomgate/filter_spec.h"

namespace bloomgate::bench {

inline std::string BenchFilterName(const FilterSpec& spec,
                                   std::string_view variant = {}) {
  std::string name = spec.KindName();
  if (!variant.empty()) name.append("_").append(variant);
  return name;
}

// RocksDB's Bloom filter, the base of the ratios, and its query compiled
// with AVX2, the like-for-like base of the query ratios.
inline const FilterSpec kRocksdbBloomSpec{.family =
                                              FilterFamily::kRocksDBBloom};
inline constexpr std::string_view kAvx2Variant = "avx2";

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_BENCHMARKS_FILTER_NAMES_H_
