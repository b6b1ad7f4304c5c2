// Copyright 2026 The bloomgate Authors.

#include "src/rocksdb/builtin_filters.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "bloomgate/allocation.h"
#include "src/filter/format.h"
#include "src/rocksdb/filter_bits.h"
#include "src/rocksdb/rocksdb_compat.h"

namespace bloomgate::rocksdb_internal {
namespace {

// RocksDB's built-in filter blocks end in 5 bytes of metadata, the first of
// which marks the implementation (table/block_based/filter_policy.cc).
constexpr size_t kBuiltinMetadataBytes = 5;
constexpr char kFastLocalBloomMarker = static_cast<char>(-1);
constexpr char kStandard128RibbonMarker = static_cast<char>(-2);
// bloomgate's blocks end in their magic (docs/filter-format.md).
constexpr std::string_view kBloomgateMagic(internal::kMagic,
                                           sizeof(internal::kMagic));
static_assert(internal::kMagicOffset + sizeof(internal::kMagic) ==
              internal::kTrailerSize);

constexpr double kLowestRibbonParameter = 1;
constexpr double kHighestRibbonParameter = 100;

}  // namespace

FilterBlockKind KindOfFilterBlock(std::string_view contents) {
  if (contents.ends_with(kBloomgateMagic)) return FilterBlockKind::kBloomgate;
  if (contents.size() <= kBuiltinMetadataBytes) return FilterBlockKind::kOther;
  switch (contents[contents.size() - kBuiltinMetadataBytes]) {
    case kFastLocalBloomMarker:
      return FilterBlockKind::kRocksDBBloom;
    case kStandard128RibbonMarker:
      return FilterBlockKind::kRocksDBRibbon;
    default:
      return FilterBlockKind::kOther;
  }
}

bool IsBuiltinFilterBlock(std::string_view contents) {
  const FilterBlockKind kind = KindOfFilterBlock(contents);
  return kind == FilterBlockKind::kRocksDBBloom ||
         kind == FilterBlockKind::kRocksDBRibbon;
}

rocksdb::FilterBitsReader* NewAnyFilterBitsReader(
    const rocksdb::Slice& contents) {
  const std::string_view block(contents.data(), contents.size());
  if (IsBuiltinFilterBlock(block)) {
    return rocksdb::BuiltinFilterPolicy::GetBuiltinFilterBitsReader(contents);
  }
  return NewFilterBitsReader(contents).release();
}

absl::StatusOr<double> RibbonParameterForMemory(double bits_per_key,
                                                uint64_t num_keys,
                                                const RibbonBytes& bytes) {
  auto memory_at = [&](double parameter) -> absl::StatusOr<double> {
    absl::StatusOr<uint64_t> b = bytes(parameter);
    if (!b.ok()) return b.status();
    return static_cast<double>(*b) * 8 / static_cast<double>(num_keys);
  };
  const double lo = kLowestRibbonParameter;
  const double hi = kHighestRibbonParameter;
  // Within 1e-3 of the lowest parameter that takes at least bits_per_key.
  return ParameterForMemoryWithin("RocksDB's Ribbon filter", bits_per_key, lo,
                                  hi, 1e-3, memory_at);
}

// Before 10.9 CalculateSpace and EstimatedFpRate are on
// BuiltinFilterBitsBuilder, which every built-in builder is.
uint64_t BuiltinSpace(rocksdb::FilterBitsBuilder& builder, uint64_t num_keys) {
#if BLOOMGATE_ROCKSDB_BUILDER_HAS_SPACE
  return builder.CalculateSpace(static_cast<size_t>(num_keys));
#else
  return static_cast<rocksdb::BuiltinFilterBitsBuilder&>(builder)
      .CalculateSpace(static_cast<size_t>(num_keys));
#endif
}

double BuiltinFpRate(rocksdb::FilterBitsBuilder& builder, uint64_t num_keys,
                     uint64_t bytes) {
#if BLOOMGATE_ROCKSDB_BUILDER_HAS_SPACE
  return builder.EstimatedFpRate(static_cast<size_t>(num_keys),
                                 static_cast<size_t>(bytes));
#else
  return static_cast<rocksdb::BuiltinFilterBitsBuilder&>(builder)
      .EstimatedFpRate(static_cast<size_t>(num_keys),
                       static_cast<size_t>(bytes));
#endif
}

rocksdb::FilterBitsBuilder* RibbonPolicies::NewBuilder(
    double bits_per_key, uint64_t num_keys,
    const rocksdb::FilterBuildingContext& context) {
  num_keys = std::max<uint64_t>(num_keys, 1);
  // The search's builders only size, and are gone before their policies.
  absl::StatusOr<double> parameter = RibbonParameterForMemory(
      bits_per_key, num_keys, [&](double p) -> absl::StatusOr<uint64_t> {
        std::unique_ptr<const rocksdb::FilterPolicy> policy(
            rocksdb::NewRibbonFilterPolicy(p, /*bloom_before_level=*/-1));
        std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
            policy->GetBuilderWithContext(context));
        if (builder == nullptr) return absl::InternalError("no builder");
        return BuiltinSpace(*builder, num_keys);
      });
  const double p = parameter.ok()
                       ? *parameter
                       : std::clamp(bits_per_key, kLowestRibbonParameter,
                                    kHighestRibbonParameter);
  return At(static_cast<int>(std::lround(p * 100)))
      .GetBuilderWithContext(context);
}

const rocksdb::FilterPolicy& RibbonPolicies::At(int centibits) {
  absl::MutexLock lock(&mu_);
  std::unique_ptr<const rocksdb::FilterPolicy>& policy =
      by_centibits_[centibits];
  if (policy == nullptr) {
    policy.reset(rocksdb::NewRibbonFilterPolicy(centibits / 100.0,
                                                /*bloom_before_level=*/-1));
  }
  return *policy;
}

}  // namespace bloomgate::rocksdb_internal
