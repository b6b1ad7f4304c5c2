// Copyright 2026 The bloomgate Authors.
//
// The RocksDB filter policy of any filter a FilterSpec names: bloomgate's
// through the plug-in, RocksDB's own Bloom and Ribbon filters through
// RocksDB's constructors. For the tools and the benchmarks, which compare
// them in one binary; not part of the installed API (the plug-in itself
// builds only bloomgate's filters).

#ifndef BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_
#define BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_

#include <memory>

#include "absl/status/statusor.h"
#include "bloomgate/filter_spec.h"
#include "rocksdb/filter_policy.h"

namespace bloomgate::rocksdb_internal {

// The policy for `spec` at its bits per key: null for kNone;
// NewBloomFilterPolicy(bits) for kRocksDBBloom; NewRibbonFilterPolicy(bits,
// -1) for kRocksDBRibbon, i.e. Ribbon for every file (the default, 0, would
// build Bloom filters for flushes); CreateRocksDBFilterPolicy(spec) for
// kBloomgate, with its InvalidArgument for a spec it rejects.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewFilterPolicyForSpec(const FilterSpec& spec);

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_
