// Copyright 2026 The bloomgate Authors.
//
// Any filter a FilterSpec names, behind RocksDB's filter-bits interface: so
// that the benchmarks and the tests drive bloomgate's blocks and RocksDB's
// own Bloom and Ribbon filters through the same calls, in one binary. Not
// part of the installed library: RocksDB's built-in filters are RocksDB's
// business, and the plug-in does not need them.

#ifndef BLOOMGATE_BENCHMARKS_FILTER_BITS_FACTORY_H_
#define BLOOMGATE_BENCHMARKS_FILTER_BITS_FACTORY_H_

#include <memory>

#include "bloomgate/filter_spec.h"
#include "rocksdb/slice.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate::bench {

// A builder of `spec`'s filter at its bits per key: bloomgate's adapter
// (rocksdb_internal::BitsBuilder) for the bloomgate family; for RocksDB's,
// the builder NewBloomFilterPolicy(bits) or NewRibbonFilterPolicy(bits, -1)
// (always Ribbon) gives under a default BlockBasedTableOptions. Null for a
// kNone or invalid spec, and where RocksDB declines (below 0.5 bits per key
// RocksDB builds no filter).
std::unique_ptr<rocksdb::FilterBitsBuilder> NewFilterBitsBuilder(
    const FilterSpec& spec);

// A reader over a block written by NewFilterBitsBuilder(spec); `contents`
// must outlive it. Never null for a spec that has a builder.
std::unique_ptr<rocksdb::FilterBitsReader> NewFilterBitsReader(
    const FilterSpec& spec, const rocksdb::Slice& contents);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_BENCHMARKS_FILTER_BITS_FACTORY_H_
