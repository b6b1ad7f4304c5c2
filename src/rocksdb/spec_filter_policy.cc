// Copyright 2026 The bloomgate Authors.

#include "src/rocksdb/spec_filter_policy.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/allocation.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/table.h"
#include "src/rocksdb/builtin_filters.h"
#include "src/rocksdb/filter_bits.h"

namespace bloomgate {
namespace {

// The parameters RocksDB's filter policies take, as SpecForMemory searches
// them (NewBloomFilterPolicy and NewRibbonFilterPolicy clamp beyond).
constexpr double kLowestRocksDBParameter = 1;
constexpr double kHighestRocksDBParameter = 100;

// Distinct keys for a sample build: key i is i's 8 bytes.
std::string SampleKey(uint64_t i) {
  std::string key(sizeof(i), '\0');
  std::memcpy(key.data(), &i, sizeof(i));
  return key;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
CreateFilterPolicyForSpec(const FilterSpec& spec) {
  switch (spec.family) {
    case FilterFamily::kNone:
      return nullptr;
    case FilterFamily::kRocksDBBloom:
      return std::shared_ptr<const rocksdb::FilterPolicy>(
          rocksdb::NewBloomFilterPolicy(spec.bits_per_key));
    case FilterFamily::kRocksDBRibbon:
      return std::shared_ptr<const rocksdb::FilterPolicy>(
          rocksdb::NewRibbonFilterPolicy(spec.bits_per_key,
                                         /*bloom_before_level=*/-1));
    case FilterFamily::kBloomgate:
      return CreateRocksDBFilterPolicy(spec);
  }
  return absl::InvalidArgumentError("unknown filter family");
}

namespace rocksdb_internal {

std::unique_ptr<rocksdb::FilterBitsBuilder> NewSpecBitsBuilder(
    const FilterSpec& spec) {
  if (!spec.Validate().ok()) return nullptr;
  if (spec.family == FilterFamily::kBloomgate) {
    auto builder = NewFilterBitsBuilder(spec.Options());
    if (!builder.ok()) return nullptr;
    return *std::move(builder);
  }
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      CreateFilterPolicyForSpec(spec);
  if (!policy.ok() || *policy == nullptr) return nullptr;
  // With optimize_filters_for_memory off the built-in builders keep no
  // reference to their policy, so the policy may go now; on, as it is by
  // default from RocksDB 9.2, they would update a counter inside it. Off
  // also sizes every filter from its keys alone, not from the allocator's
  // rounding.
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy.reset();
  table_options.optimize_filters_for_memory = false;
  rocksdb::FilterBuildingContext context(table_options);
  return std::unique_ptr<rocksdb::FilterBitsBuilder>(
      (*policy)->GetBuilderWithContext(context));
}

std::unique_ptr<rocksdb::FilterBitsReader> NewSpecBitsReader(
    const FilterSpec& spec, const rocksdb::Slice& contents) {
  if (spec.family == FilterFamily::kBloomgate) {
    return NewFilterBitsReader(contents);
  }
  return std::unique_ptr<rocksdb::FilterBitsReader>(
      rocksdb::BuiltinFilterPolicy::GetBuiltinFilterBitsReader(contents));
}

}  // namespace rocksdb_internal

absl::StatusOr<uint64_t> MeasureFilterBytes(const FilterSpec& spec,
                                            uint64_t num_keys) {
  if (absl::Status s = spec.Validate(); !s.ok()) return s;
  if (spec.family == FilterFamily::kNone || num_keys == 0) return 0;
  // bloomgate's uniform filters: exactly what FilterBuilder allocates.
  if (spec.family == FilterFamily::kBloomgate && !spec.monkey) {
    return spec.BlockBytes(num_keys, spec.bits_per_key);
  }
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      CreateFilterPolicyForSpec(spec);
  if (!policy.ok()) return policy.status();
  if (*policy == nullptr) return 0;
  // RocksDB's default table options, as a database gets them and
  // bloomgate_bench's RocksDB engine runs: optimize_filters_for_memory off
  // before RocksDB 9.2, on from it, when RocksDB rounds each filter to what
  // the allocator gives it. The builder may point into the policy, which
  // outlives it here.
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = *policy;
  const rocksdb::FilterBuildingContext context(table_options);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      (*policy)->GetBuilderWithContext(context));
  if (builder == nullptr) return 0;  // RocksDB builds none at these bits
  for (uint64_t i = 0; i < num_keys; ++i) builder->AddKey(SampleKey(i));
  std::unique_ptr<const char[]> buf;
  const uint64_t bytes = builder->Finish(&buf).size();
  builder.reset();
  return bytes;
}

absl::StatusOr<FilterSpec> SpecForMemory(
    const FilterSpec& kind, double bits_per_key,
    absl::Span<const uint64_t> filter_keys) {
  FilterSpec spec = kind;
  if (kind.family == FilterFamily::kNone) return spec;
  if (filter_keys.empty()) {
    return absl::InvalidArgumentError("no filters to size");
  }
  spec.bits_per_key = bits_per_key;
  if (absl::Status s = spec.Validate(); !s.ok()) return s;
  // A level-aware spec's bits per key is its budget, which its allocation
  // keeps.
  if (kind.monkey) return spec;

  // One measurement per distinct count.
  std::map<uint64_t, uint64_t> filters;  // keys -> how many
  uint64_t keys = 0;
  for (uint64_t n : filter_keys) {
    if (n == 0) continue;
    ++filters[n];
    keys += n;
  }
  if (keys == 0) return absl::InvalidArgumentError("no keys to size for");
  // Parameters in thousandths, as RocksDB's policies keep them: the search
  // measures only what it can return, and the name reads back as the
  // parameter measured.
  auto memory_at = [&](double parameter) -> absl::StatusOr<double> {
    spec.bits_per_key = std::round(parameter * 1000) / 1000;
    uint64_t all = 0;
    for (const auto& [n, count] : filters) {
      absl::StatusOr<uint64_t> bytes = MeasureFilterBytes(spec, n);
      if (!bytes.ok()) return bytes.status();
      all += *bytes * count;
    }
    return 8.0 * static_cast<double>(all) / static_cast<double>(keys);
  };
  const bool bloomgate = kind.family == FilterFamily::kBloomgate;
  const double lo = bloomgate ? kMinBitsPerKey : kLowestRocksDBParameter;
  const double hi = bloomgate ? kMaxBitsPerKey : kHighestRocksDBParameter;
  absl::StatusOr<double> parameter = ParameterForMemoryWithin(
      kind.KindName(), bits_per_key, lo, hi, 1e-3, memory_at);
  if (!parameter.ok()) return parameter.status();
  spec.bits_per_key = std::round(*parameter * 1000) / 1000;
  return spec;
}

}  // namespace bloomgate
