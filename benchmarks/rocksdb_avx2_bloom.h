// Copyright 2026 The bloomgate Authors.
//
// RocksDB's own FastLocalBloom query compiled with AVX2, for a comparison at
// equal instruction sets: Debian's librocksdb is built for the x86-64
// baseline, so rocksdb_bloom runs FastLocalBloom's scalar path, and bloomgate
// runs AVX2 where the CPU has it. Built only when configure is
// given a RocksDB source tree of the linked release
// (-DBLOOMGATE_ROCKSDB_BLOOM_SOURCE=<tree>): RocksDB's header-only
// util/bloom_impl.h is compiled from there into this benchmark; nothing of
// it is part of bloomgate's tree.

#ifndef BLOOMGATE_BENCHMARKS_ROCKSDB_AVX2_BLOOM_H_
#define BLOOMGATE_BENCHMARKS_ROCKSDB_AVX2_BLOOM_H_

#include <memory>

#include "rocksdb/slice.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate::bench {

// A reader of a block from RocksDB's Bloom builder (NewBloomFilterPolicy,
// FastLocalBloom) that answers with RocksDB's AVX2 query, hashing as RocksDB
// does (its exported Hash64); nullptr for any other block. Call only on a
// CPU with AVX2.
std::unique_ptr<rocksdb::FilterBitsReader> NewRocksdbAvx2BloomReader(
    const rocksdb::Slice& block);

// A stub for --bloomgate_breakdown: answers with the top bit of RocksDB's
// hash of the key (Hash64, as its Bloom reader hashes), so that its time is
// the harness's and the hash's alone.
std::unique_ptr<rocksdb::FilterBitsReader> NewRocksdbHashOnlyReader();

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_BENCHMARKS_ROCKSDB_AVX2_BLOOM_H_
