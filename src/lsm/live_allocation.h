// Copyright 2026 The bloomgate Authors.
//
// Level-aware bits per key from the live tree (StoreOptions::LevelAllocation
// ::kLiveTree): a flush or compaction picks its output's budget from the tree
// as it will be once the output is installed, not from an assumed shape, and
// pays back what earlier tables spent over (or under) their share, so that
// the live filters' memory tracks bits_per_key times the live keys however
// the tree grew. Derivation: docs/monkey-allocation.md.

#ifndef BLOOMGATE_SRC_LSM_LIVE_ALLOCATION_H_
#define BLOOMGATE_SRC_LSM_LIVE_ALLOCATION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "bloomgate/filter_spec.h"
#include "lsm/version.h"

namespace bloomgate::lsm {

// What a flush or compaction is about to write: its level, about how many
// keys it will hold (an upper bound is fine), in how many tables, and its
// key range.
struct PendingOutput {
  int level = 0;
  uint64_t keys = 0;
  uint64_t num_tables = 1;
  std::string smallest;
  std::string largest;
};

// The bits per key of `output`'s filter under the level-aware `spec` when
// it replaces `inputs` in `base`; 0 for no filter.
//
// The tree's runs (each level-0 table, each deeper level) with their keys
// and reach, the share of uniformly spread absent-key lookups whose key
// falls in their key range (measured against the run with the most keys),
// go to AllocateBitsPerKey. The budget it is given is spec.bits_per_key
// less what the other live tables' filters hold beyond their runs' shares
// (tables written for another shape of the tree, or moved down a level
// unchanged), so that the tables written from now on pay it back; the
// budget stays within [bits_per_key / 2, 2 * bits_per_key]. The output gets
// its run's bits per key, less what a block holds beyond its bits (header,
// rounding up to whole cache lines), so the block is that size. Falls back
// to spec.bits_per_key when the allocation fails.
double LiveTreeBitsPerKey(const FilterSpec& spec, const Version& base,
                          const std::vector<TablePtr>& inputs,
                          const PendingOutput& output);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_LIVE_ALLOCATION_H_
