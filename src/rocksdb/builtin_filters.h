// Copyright 2026 The bloomgate Authors.
//
// RocksDB's own filters inside a bloomgate policy: a policy of mixed
// families (FilterSpec::mixed) builds some levels' filters with RocksDB's
// Ribbon builder, so every bloomgate policy reads RocksDB's built-in filter
// blocks as well as bloomgate's. The two formats tell themselves apart by
// their last bytes: bloomgate's end in the magic "BGFB"
// (docs/filter-format.md), RocksDB's in 5 bytes of metadata whose first is
// -1 (FastLocalBloom) or -2 (Standard128Ribbon).
//
// Not a public header: it uses RocksDB's internal filter interface.

#ifndef BLOOMGATE_SRC_ROCKSDB_BUILTIN_FILTERS_H_
#define BLOOMGATE_SRC_ROCKSDB_BUILTIN_FILTERS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string_view>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate::rocksdb_internal {

// What a filter block is, by its last bytes: bloomgate's (its magic,
// whether or not the rest of it is intact), RocksDB's FastLocalBloom or
// Standard128Ribbon (their metadata's marker), or anything else (RocksDB's
// legacy formats, empty or unknown blocks).
enum class FilterBlockKind {
  kBloomgate,
  kRocksDBBloom,
  kRocksDBRibbon,
  kOther
};
FilterBlockKind KindOfFilterBlock(std::string_view contents);

// Whether `contents` is a block of RocksDB's FastLocalBloom or Ribbon
// filter, by its metadata, and not a bloomgate block. Anything else
// (bloomgate's blocks, damaged or not, RocksDB's legacy formats, empty
// blocks) is not.
bool IsBuiltinFilterBlock(std::string_view contents);

// A reader for any block a bloomgate policy writes: RocksDB's built-in
// reader for IsBuiltinFilterBlock, bloomgate's (BitsReader) for everything
// else, which answers "may match" for whatever it cannot read. `contents`
// must outlive it. Never null.
rocksdb::FilterBitsReader* NewAnyFilterBitsReader(
    const rocksdb::Slice& contents);

// What `builder`, one of RocksDB's built-in builders, says of a filter of
// `num_keys` keys: the bytes it gives it (CalculateSpace), and the FP rate
// of such a filter in `bytes` (EstimatedFpRate).
uint64_t BuiltinSpace(rocksdb::FilterBitsBuilder& builder, uint64_t num_keys);
double BuiltinFpRate(rocksdb::FilterBitsBuilder& builder, uint64_t num_keys,
                     uint64_t bytes);

// The bytes of one filter of `num_keys` keys at Ribbon's parameter
// `bloom_equivalent_bits` (NewRibbonFilterPolicy's).
using RibbonBytes =
    std::function<absl::StatusOr<uint64_t>(double bloom_equivalent_bits)>;

// The Ribbon parameter (bloom_equivalent_bits_per_key, within [1, 100])
// whose filters of `num_keys` keys take `bits_per_key` bits of memory per
// key, as `bytes` measures them: bisection to within 0.001 of a parameter,
// then whichever end takes memory closer to it. InvalidArgument when the
// memory is outside what parameters 1 to 100 take.
absl::StatusOr<double> RibbonParameterForMemory(double bits_per_key,
                                                uint64_t num_keys,
                                                const RibbonBytes& bytes);

// RocksDB's Ribbon policies (NewRibbonFilterPolicy(parameter, -1), Ribbon
// at every level), one per parameter in hundredths, each kept as long as
// this object: RocksDB's builders may point into their policy
// (optimize_filters_for_memory). Thread-safe.
class RibbonPolicies {
 public:
  // A Ribbon builder for `context` at the parameter whose filters of about
  // `num_keys` keys take `bits_per_key` bits per key, by the builder's own
  // CalculateSpace. Null where RocksDB gives none ("no filter").
  rocksdb::FilterBitsBuilder* NewBuilder(
      double bits_per_key, uint64_t num_keys,
      const rocksdb::FilterBuildingContext& context);

 private:
  const rocksdb::FilterPolicy& At(int centibits);

  absl::Mutex mu_;
  std::map<int, std::unique_ptr<const rocksdb::FilterPolicy>> by_centibits_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_BUILTIN_FILTERS_H_
