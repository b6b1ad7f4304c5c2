// Copyright 2026 The bloomgate Authors.

#include "src/rocksdb/spec_filter_policy.h"

#include "absl/status/status.h"
#include "bloomgate/rocksdb_filter_policy.h"

namespace bloomgate::rocksdb_internal {

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewFilterPolicyForSpec(const FilterSpec& spec) {
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

}  // namespace bloomgate::rocksdb_internal
