// Copyright 2026 The bloomgate Authors.
//
// Any filter a FilterSpec names, in RocksDB: its policy (bloomgate's through
// the plug-in, RocksDB's own Bloom and Ribbon filters through RocksDB's
// constructors), its builder and reader behind RocksDB's filter-bits
// interface, and the spec of each family that takes a given memory. For the
// tools, the benchmarks and the tests, which compare the families in one
// binary; not part of the installed API (the plug-in itself builds only
// bloomgate's filters).

#ifndef BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_
#define BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_spec.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate::rocksdb_internal {

// The policy for `spec` at its bits per key: null for kNone;
// NewBloomFilterPolicy(bits) for kRocksDBBloom; NewRibbonFilterPolicy(bits,
// -1) for kRocksDBRibbon, i.e. Ribbon for every file (the default, 0, would
// build Bloom filters for flushes); CreateRocksDBFilterPolicy(spec) for
// kBloomgate, with its InvalidArgument for a spec it rejects.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
NewFilterPolicyForSpec(const FilterSpec& spec);

// A builder of `spec`'s filter at its bits per key: bloomgate's adapter
// (BitsBuilder) for the bloomgate family; for RocksDB's, the builder its
// policy (NewFilterPolicyForSpec) gives under a default
// BlockBasedTableOptions. Null for a kNone or invalid spec, and where RocksDB
// declines (below 0.5 bits per key RocksDB builds no filter). A level-aware
// spec builds at its average bits per key.
std::unique_ptr<rocksdb::FilterBitsBuilder> NewSpecBitsBuilder(
    const FilterSpec& spec);

// A reader over a block written by NewSpecBitsBuilder(spec); `contents`
// must outlive it. Never null for a spec that has a builder.
std::unique_ptr<rocksdb::FilterBitsReader> NewSpecBitsReader(
    const FilterSpec& spec, const rocksdb::Slice& contents);

// The bytes of the filter NewSpecBitsBuilder(spec) builds over `num_keys`
// distinct keys, measured by building one. 0 for kNone or no keys;
// InvalidArgument for an invalid spec.
absl::StatusOr<uint64_t> MeasureFilterBytes(const FilterSpec& spec,
                                            uint64_t num_keys);

// `kind` at the parameter whose filters, one for each count of keys in
// `filter_keys` (e.g. a tree's files), take `bits_per_key` bits of memory
// per key over all of them. For bloomgate's filters and RocksDB's Bloom the
// parameter is the memory, so that is `kind` at bits_per_key. RocksDB's
// Ribbon takes the Bloom filter whose FP rate it is to match
// (NewRibbonFilterPolicy's bloom_equivalent_bits_per_key) and uses about
// 30% less memory, more per key in small filters: its parameter is found by
// bisection on MeasureFilterBytes of those filters (counts below 1000 are
// measured at 1000), to within 1% of the memory (Ribbon's memory grows in
// small steps). kNone as it is.
// InvalidArgument for no counts, bits_per_key outside what the family can
// take (Ribbon: the memory of parameters 1 to 100) or an invalid kind.
absl::StatusOr<FilterSpec> SpecForMemory(
    const FilterSpec& kind, double bits_per_key,
    absl::Span<const uint64_t> filter_keys);

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_SPEC_FILTER_POLICY_H_
