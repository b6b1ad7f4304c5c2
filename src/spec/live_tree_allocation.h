// Copyright 2026 The bloomgate Authors.
//
// Level-aware bits per key from the live tree: a flush or compaction picks
// its output's bits per key from the tree as it will be once the output is
// installed, not from an assumed shape, and pays back what earlier filters
// took beyond (or below) their share, so that the live filters' memory
// tracks bits_per_key times the live keys however the tree grew. Used by
// the LSM (StoreOptions::LevelAllocation::kLiveTree) and the RocksDB policy
// (CreateRocksDBLiveTreeFilter). Derivation: docs/monkey-allocation.md.
//
// Not a public header.

#ifndef BLOOMGATE_SRC_FILTER_LIVE_TREE_ALLOCATION_H_
#define BLOOMGATE_SRC_FILTER_LIVE_TREE_ALLOCATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_spec.h"
#include "src/spec/lookup_sampler.h"

namespace bloomgate {

// A live file of the tree, as the allocation sees it. Keys compare
// bytewise.
struct LiveFile {
  // Which tree of a pool (a database's column family) it is of: trees are
  // key spaces of their own. 0 outside a pool.
  int tree = 0;
  int level = 0;  // 0: a level-0 file, a run of its own
  uint64_t keys = 0;
  std::string_view smallest;
  std::string_view largest;
  // Its filter block's size (0: none); nullopt when unknown, taken to be
  // its run's share.
  std::optional<uint64_t> filter_bytes = std::nullopt;
};

// What a flush or compaction is about to write: its level, about how many
// keys it will hold (an upper bound is fine), in how many files, and its
// key range.
struct PendingOutput {
  int tree = 0;  // as LiveFile::tree
  int level = 0;
  uint64_t keys = 0;
  uint64_t num_files = 1;
  std::string smallest;
  std::string largest;
  // With a byte budget: the flushes to come before a compaction rewrites
  // level 0, up to `level0_files` level-0 files (the engine's level-0
  // compaction trigger; at least one more) of `flush_keys` keys each. The other
  // runs' shares leave room for theirs; without it, an output that rewrites the
  // whole tree would take all of the budget and leave the next flushes, which
  // every lookup passes, without filters. 0: none expected.
  int level0_files = 0;
  uint64_t flush_keys = 0;
};

// The absent-key lookups measured in one tree (LookupSampler), weighted
// by age; empty for none.
struct TreeLookups {
  std::vector<LookupSampler::Sample> samples;
};

// Measured lookups weigh a tree's runs once their weights sum to this many
// samples (about 64 x kMeanSampleGap probes); below, the tree is taken to
// be looked up uniformly.
inline constexpr double kLeastMeasuredSamples = 64;

// The bits per key of `output`'s filters under the level-aware `spec`
// (spec.bits_per_key is the budget), when it joins the tree whose other
// live files are `files` (without those the output replaces); 0 for no
// filter.
//
// The tree's runs (each level-0 file, each deeper level) with their keys
// and reach, the share of uniformly spread absent-key lookups whose key
// falls in their key range (estimated as the share of all runs' keys that
// lie in files overlapping the run's),
// go to AllocateBitsPerKey at spec.bits_per_key. The output gets its run's
// share, less part of what the other live files' filters hold beyond their
// runs' shares (files written for an earlier shape of the tree, or moved
// down a level unchanged), spread over its keys and kept within half and
// twice its share: a part three times its share of the live keys, at most
// half.
// So the excess shrinks with every flush and compaction, faster for larger
// ones, without swinging to the other side. Last, what a
// block holds beyond its bits (header, rounding up to whole cache lines)
// is taken off, so the block is that size. Falls back to spec.bits_per_key
// when the allocation fails.
//
// Measured reach (`lookups`, one entry per tree, by LiveFile::tree): a
// tree whose samples weigh at least kLeastMeasuredSamples has a run for
// each file below level 0 (and the output), not one per level, and each
// run's reach measured rather than estimated: the share of the tree's
// absent lookups whose key lies in the run's range. A sample is a probe; a
// lookup whose key d of the tree's runs hold made d probes, so a sample
// stands for 1/d of a lookup, which reaches each of those d runs. The
// trees of a pool are weighed against each other by the lookups their
// samples stand for plus kLeastMeasuredSamples shared out by
// keys, so that with nothing measured they weigh as their keys do, and a
// tree just opened is not starved before its lookups are seen. With one
// tree and nothing measured this is the allocation above.
//
// With a byte budget (spec.memory_budget_bytes) the runs, and a run of
// the level-0 files still to come (PendingOutput::level0_files), share 8 x
// budget / (their keys) bits per key, and a compaction's output gets at
// most what the budget leaves after the other live files' filters (a file
// of unknown filter size counted at its share): none when that is under
// 0.25 bits per key. A flush keeps at least half its share: every lookup
// passes every level-0 file, and the compaction that rewrites it pays the
// excess back. So the total is the budget, and over it only by the
// level-0 files written while a compaction was due. So every output keeps the
// total within the budget (but for the whole cache lines of a tiny filter), and
// a tree that outgrew it comes back under as compaction rewrites its older,
// larger filters.
double LiveTreeBitsPerKey(const FilterSpec& spec,
                          absl::Span<const LiveFile> files,
                          const PendingOutput& output,
                          absl::Span<const TreeLookups> lookups = {});

// LiveTreeBitsPerKey with the family as well, for a spec of mixed families
// (FilterSpec::mixed): the runs go to AllocateByCost under
// CostModelFor(spec, inputs) instead of AllocateBitsPerKey, the output gets
// its run's family, and its share is adjusted as above. A Ribbon output's bits
// per key are its memory, nothing taken off: whoever builds it picks the
// Ribbon parameter that takes that memory. Without mixed, spec's family at
// LiveTreeBitsPerKey. {kNone, 0 bits} for no filter.
RunFilter LiveTreeFilter(const FilterSpec& spec,
                         absl::Span<const LiveFile> files,
                         const PendingOutput& output,
                         const CostInputs& inputs = {},
                         absl::Span<const TreeLookups> lookups = {});

}  // namespace bloomgate

#endif  // BLOOMGATE_SRC_FILTER_LIVE_TREE_ALLOCATION_H_
