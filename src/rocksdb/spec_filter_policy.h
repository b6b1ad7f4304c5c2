// Copyright 2026 The bloomgate Authors.
//
// Any filter a FilterSpec names behind RocksDB's filter-bits interface:
// its builder and reader, for the benchmarks and the tests, which probe the
// families' filters directly. Not part of the installed API; the policies
// and the equal-memory sizing are (bloomgate/rocksdb_filter_policy.h).

#ifndef BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_
#define BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_

#include <cstdint>
#include <memory>

#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate::rocksdb_internal {

// A builder of `spec`'s filter at its bits per key: bloomgate's adapter
// (BitsBuilder) for the bloomgate family; for RocksDB's, the builder its
// policy (CreateFilterPolicyForSpec) gives under a default
// BlockBasedTableOptions. Null for a kNone or invalid spec, and where RocksDB
// declines (below 0.5 bits per key RocksDB builds no filter). A level-aware
// spec builds at its average bits per key.
std::unique_ptr<rocksdb::FilterBitsBuilder> NewSpecBitsBuilder(
    const FilterSpec& spec);

// A reader over a block written by NewSpecBitsBuilder(spec); `contents`
// must outlive it. Never null for a spec that has a builder.
std::unique_ptr<rocksdb::FilterBitsReader> NewSpecBitsReader(
    const FilterSpec& spec, const rocksdb::Slice& contents);

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_
