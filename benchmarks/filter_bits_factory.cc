// Copyright 2026 The bloomgate Authors.

#include "benchmarks/filter_bits_factory.h"

#include <memory>

#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "src/rocksdb/filter_bits.h"
#include "src/rocksdb/spec_filter_policy.h"

namespace bloomgate::bench {

std::unique_ptr<rocksdb::FilterBitsBuilder> NewFilterBitsBuilder(
    const FilterSpec& spec) {
  if (!spec.Validate().ok()) return nullptr;
  if (spec.family == FilterFamily::kBloomgate) {
    auto builder = rocksdb_internal::NewFilterBitsBuilder(spec.Options());
    if (!builder.ok()) return nullptr;
    return *std::move(builder);
  }
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      rocksdb_internal::NewFilterPolicyForSpec(spec);
  if (!policy.ok() || *policy == nullptr) return nullptr;
  // With optimize_filters_for_memory off (the default) the built-in builders
  // keep no reference to their policy, so the policy may go now.
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy.reset();
  rocksdb::FilterBuildingContext context(table_options);
  return std::unique_ptr<rocksdb::FilterBitsBuilder>(
      (*policy)->GetBuilderWithContext(context));
}

std::unique_ptr<rocksdb::FilterBitsReader> NewFilterBitsReader(
    const FilterSpec& spec, const rocksdb::Slice& contents) {
  if (spec.family == FilterFamily::kBloomgate) {
    return rocksdb_internal::NewFilterBitsReader(contents);
  }
  return std::unique_ptr<rocksdb::FilterBitsReader>(
      rocksdb::BuiltinFilterPolicy::GetBuiltinFilterBitsReader(contents));
}

}  // namespace bloomgate::bench
