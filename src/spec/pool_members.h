// Copyright 2026 The bloomgate Authors.
//
// How an engine's trees join a FilterMemoryPool, and the one place a
// file's filter is chosen from the live trees, pooled or not
// (ChooseLiveTreeFilter): the RocksDB policy and the LSM translate their
// context into a PendingOutput and the answer into a builder.
//
// Not a public header.

#ifndef BLOOMGATE_SRC_SPEC_POOL_MEMBERS_H_
#define BLOOMGATE_SRC_SPEC_POOL_MEMBERS_H_

#include <memory>
#include <vector>

#include "absl/types/span.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_memory_pool.h"
#include "bloomgate/filter_spec.h"
#include "src/spec/live_tree_allocation.h"
#include "src/spec/lookup_sampler.h"

namespace bloomgate {

// One tree of a pool: a column family of a database, as its engine keeps
// it. Thread-safe.
class PoolMember {
 public:
  virtual ~PoolMember() = default;

  // The tree's live files now; `owner` keeps the keys the files view, and
  // is null when there is no tree (the engine closed it, or has not read
  // it yet).
  struct Files {
    std::shared_ptr<const void> owner;
    std::vector<LiveFile> files;
  };
  virtual Files LiveFiles() const = 0;

  // What it belongs to, counted once in FilterMemoryPool::Usage::databases.
  virtual const void* database() const = 0;

  // Where its absent-key lookups go, or null when not measured.
  virtual const LookupSampler* sampler() const = 0;
};

namespace spec_internal {

// The members of a pool, held weakly: a member whose owner dropped it
// (a closed database) leaves the pool.
class PoolMembers {
 public:
  // Adds `member` (once however often it joins).
  static void Join(FilterMemoryPool& pool,
                   const std::shared_ptr<const PoolMember>& member);
  // The members still held.
  static std::vector<std::shared_ptr<const PoolMember>> Of(
      const FilterMemoryPool& pool);
};

}  // namespace spec_internal

// The filter of `output`, a flush's or compaction's output of the tree
// whose other live files are `files`, under the level-aware `spec`
// (LiveTreeFilter; for a spec without mixed, its bits under spec's family).
// With a `pool`, the allocation runs over the union of the trees of its
// members, `self` being the output's (its files are `files`, not its
// LiveFiles(), which still hold a compaction's inputs), each weighted by
// its measured lookups where spec.reach_half_life is not 0; the pool's size
// is the budget.
RunFilter ChooseLiveTreeFilter(const FilterSpec& spec,
                               absl::Span<const LiveFile> files,
                               const PendingOutput& output,
                               const CostInputs& inputs = {},
                               const FilterMemoryPool* pool = nullptr,
                               const PoolMember* self = nullptr);

}  // namespace bloomgate

#endif  // BLOOMGATE_SRC_SPEC_POOL_MEMBERS_H_
