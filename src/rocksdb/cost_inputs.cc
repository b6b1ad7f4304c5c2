// Copyright 2026 The bloomgate Authors.
//
// CostInputsFor: what a mixed policy's cost model takes from the RocksDB it
// runs in rather than from its spec (bloomgate/allocation.h, CostInputs).
// Nothing here reads a clock: the same RocksDB release and the same file
// sizes give the same inputs on every host, so a name means the same
// filters everywhere (the probe times are the spec's or the defaults;
// bloomgate plan --calibrate measures this machine's).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>

#include "absl/base/const_init.h"
#include "absl/synchronization/mutex.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "src/rocksdb/builtin_filters.h"
#include "src/rocksdb/spec_filter_policy.h"

namespace bloomgate {
namespace {

// Ribbon's overhead for filters of `num_keys` keys, as RocksDB sizes them
// and rates them: over the parameters a mixed policy's Ribbon levels take,
// the memory per key over the bits of FP rate it buys, less 1.
double RibbonOverheadFromRocksDB(uint64_t num_keys) {
  double bits = 0;
  double fp_bits = 0;
  for (double parameter : {8.0, 12.0, 16.0, 20.0}) {
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
        rocksdb_internal::NewSpecBitsBuilder(
            {.family = FilterFamily::kRocksDBRibbon,
             .bits_per_key = parameter});
    if (builder == nullptr) continue;
    const uint64_t bytes = rocksdb_internal::BuiltinSpace(*builder, num_keys);
    const double fp =
        rocksdb_internal::BuiltinFpRate(*builder, num_keys, bytes);
    if (!(fp > 0 && fp < 1)) continue;
    bits += 8.0 * static_cast<double>(bytes) / static_cast<double>(num_keys);
    fp_bits += -std::log2(fp);
  }
  if (!(fp_bits > 0)) return kRibbonSlotOverhead;
  return std::max(0.0, bits / fp_bits - 1);
}

// RibbonOverheadFromRocksDB at the size class of `num_keys` (quarter
// octaves: within 19% of it), computed once per class.
double RibbonOverhead(uint64_t num_keys) {
  const int size_class = static_cast<int>(
      std::lround(4 * std::log2(std::max<uint64_t>(num_keys, 1))));
  static absl::Mutex mu(absl::kConstInit);
  static auto* by_class = new std::map<int, double>();
  absl::MutexLock lock(&mu);
  auto it = by_class->find(size_class);
  if (it == by_class->end()) {
    const auto keys = static_cast<uint64_t>(
        std::llround(std::exp2(static_cast<double>(size_class) / 4)));
    it = by_class
             ->emplace(size_class,
                       RibbonOverheadFromRocksDB(std::max<uint64_t>(keys, 1)))
             .first;
  }
  return it->second;
}

}  // namespace

CostInputs CostInputsFor(uint64_t file_keys) {
  return {.ribbon_overhead = RibbonOverhead(file_keys)};
}

}  // namespace bloomgate
