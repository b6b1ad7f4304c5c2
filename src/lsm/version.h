// Copyright 2026 The bloomgate Authors.
//
// A Version is one immutable set of live tables per level. Readers hold a
// shared_ptr to the Version they started with, so a flush or compaction that
// installs a new one never changes the files under a running Get; a table
// whose file was deleted stays readable until its last reader lets go.

#ifndef BLOOMGATE_SRC_LSM_VERSION_H_
#define BLOOMGATE_SRC_LSM_VERSION_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/lsm/manifest.h"
#include "src/lsm/table.h"

namespace bloomgate::lsm {

using TablePtr = std::shared_ptr<const Table>;

struct Version {
  // levels[0] newest first (descending file number, files may overlap);
  // levels[1..] sorted by key, disjoint.
  std::vector<std::vector<TablePtr>> levels;

  // The level's size as compaction weighs it: its files' bytes without
  // their filter blocks, so that the tree a workload grows is the same
  // whatever filters it holds (and filters can be compared on it). A
  // degraded filter, held as none, counts as data.
  uint64_t LevelBytes(int level) const;
  // Tables of `level` whose key range intersects [smallest, largest].
  std::vector<TablePtr> Overlapping(int level, std::string_view smallest,
                                    std::string_view largest) const;
  // For a level >= 1: the only table that may hold `key` (the first whose
  // largest key is >= key), or nullptr.
  const TablePtr* Candidate(int level, std::string_view key) const;
  // The manifest file list of this version.
  std::vector<FileMeta> Files() const;
};

// A copy of `base` without `removed` (by file number) and with `added` at
// `level`, keeping each level's order.
std::shared_ptr<const Version> ApplyEdit(const Version& base,
                                         const std::vector<TablePtr>& removed,
                                         int level,
                                         const std::vector<TablePtr>& added);

// The smallest and largest key of `tables` (not empty).
void KeyRange(const std::vector<TablePtr>& tables, std::string* smallest,
              std::string* largest);

// What a compaction merges. `runs` are newest first; each run is a list of
// tables in key order with disjoint ranges (a level-0 table is a run by
// itself).
struct CompactionSpec {
  std::vector<std::vector<TablePtr>> runs;
  int output_level = 1;
  bool drop_tombstones = false;
  // Set when the compaction is a move of one table to output_level.
  TablePtr trivial_move;
  std::vector<TablePtr> Inputs() const;
};

struct LevelShape {
  int num_levels;
  int level0_trigger;
  uint64_t max_bytes_for_level_base;
  double max_bytes_for_level_multiplier;
};

// The most urgent compaction, if any level is over its target: level 0 by
// file count, deeper levels by bytes (level L may hold
// base * multiplier^(L-1) bytes). `compact_pointers` (one per level) make
// the choice of file within a level round-robin; updated here.
std::optional<CompactionSpec> PickCompaction(
    const Version& v, const LevelShape& shape,
    std::vector<std::string>* compact_pointers);

// Every table into one run at the deepest non-empty level (at least 1).
std::optional<CompactionSpec> PickFullCompaction(const Version& v);

// Every level-0 table, merged with `output_level`'s tables, into
// `output_level` (>= 1), which the caller has checked is the next non-empty
// level below level 0 (so no newer entry ends up under an older one).
// Tombstones are dropped when no level below holds data. nullopt when level
// 0 is empty.
std::optional<CompactionSpec> PickLevel0Compaction(const Version& v,
                                                   int output_level);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_VERSION_H_
