// Copyright 2026 The bloomgate Authors.
//
// Finds the data block that may hold a key without walking the index's
// strings. A lookup that the filter lets through (a true hit, or a false
// positive for an absent key) must first find its block; a binary search
// over the index entries' last keys costs one cache miss a step once the
// indexes of all open tables outgrow the caches (14 steps for a 12,000-block
// table): about 1 us a search over 66 such tables, against under 100 ns for
// this one (benchmarks/lsm_index_benchmark.cc).
//
// Every last key starts with the prefix all of them share; the 8 bytes after
// it, read big-endian, give each block a number that sorts like its key.
// Those numbers sit in one array, and every 64th of them in a second, small
// one: a search is a binary search of the small array, one pass over 64
// numbers (8 cache lines that the CPU loads at once) and, only when two
// numbers tie, string comparisons over the entries that tie.

#ifndef BLOOMGATE_SRC_LSM_INDEX_SEARCH_H_
#define BLOOMGATE_SRC_LSM_INDEX_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "src/lsm/format.h"

namespace bloomgate::lsm {

class IndexSearch {
 public:
  IndexSearch() = default;
  // `index` must have strictly increasing last keys (Table checks this when
  // it opens a file). No reference to it is kept: LowerBound takes the same
  // index again.
  explicit IndexSearch(const std::vector<IndexEntry>& index);

  // The position of the first entry of `index` (the one given to the
  // constructor) whose last key is >= key, or index.size() if none is:
  // exactly std::lower_bound by last key.
  size_t LowerBound(const std::vector<IndexEntry>& index,
                    std::string_view key) const;

 private:
  // Entries a group of the second-level array stands for.
  static constexpr size_t kGroup = 64;

  // The 8 bytes of `key` after the shared prefix, big-endian, zero-padded.
  // Keys ordered by it are ordered the same way by their bytes; equal
  // numbers decide nothing.
  uint64_t Number(std::string_view key) const;

  std::string shared_prefix_;
  std::vector<uint64_t> numbers_;     // one per index entry
  std::vector<uint64_t> group_last_;  // numbers_ of each group's last entry
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_INDEX_SEARCH_H_
