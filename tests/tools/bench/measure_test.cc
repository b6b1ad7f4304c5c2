// Copyright 2026 The bloomgate Authors.
//
// The tree fingerprint the table's "tree" column shows: the same files give
// the same fingerprint, in any order; a changed file changes it.

#include "tools/bench/measure.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "tools/bench/engine.h"

namespace bloomgate::bench {
namespace {

EngineShape Tree() {
  EngineShape shape;
  shape.files.push_back({.level = 1,
                         .smallest_key = "a",
                         .largest_key = "f",
                         .num_entries = 100});
  shape.files.push_back({.level = 2,
                         .smallest_key = "b",
                         .largest_key = "k",
                         .num_entries = 900});
  shape.files.push_back({.level = 2,
                         .smallest_key = "l",
                         .largest_key = "z",
                         .num_entries = 800});
  return shape;
}

TEST(TreeFingerprintTest, TheSameFilesInAnyOrder) {
  EngineShape reversed = Tree();
  std::reverse(reversed.files.begin(), reversed.files.end());
  ASSERT_TRUE(SameFiles(Tree(), reversed));
  EXPECT_EQ(TreeFingerprint(Tree()), TreeFingerprint(reversed));
  // Filters are not the tree: their sizes do not count.
  EngineShape filtered = Tree();
  filtered.filter_bytes = 12345;
  EXPECT_EQ(TreeFingerprint(Tree()), TreeFingerprint(filtered));
}

TEST(TreeFingerprintTest, AnyChangedFileChangesIt) {
  const uint32_t tree = TreeFingerprint(Tree());
  EngineShape entries = Tree();
  entries.files[1].num_entries = 901;
  EngineShape level = Tree();
  level.files[0].level = 0;
  EngineShape range = Tree();
  range.files[2].largest_key = "y";
  EngineShape fewer = Tree();
  fewer.files.pop_back();
  // Key bytes moved between the two ends of a range.
  EngineShape moved = Tree();
  moved.files[0].smallest_key = "af";
  moved.files[0].largest_key = "";
  for (const EngineShape& other : {entries, level, range, fewer, moved}) {
    EXPECT_FALSE(SameFiles(Tree(), other));
    EXPECT_NE(TreeFingerprint(other), tree);
  }
}

// Pinned: the column must mean the same tree on every run and machine
// (FNV-1a 64 of level, key lengths and bytes, entries, as little-endian
// 8-byte numbers, files in order; its top 16 bits).
TEST(TreeFingerprintTest, StableValue) {
  EXPECT_EQ(TreeFingerprint(EngineShape{}), 0xcbf2u);
  EXPECT_EQ(TreeFingerprint(Tree()), 0x42beu);
}

}  // namespace
}  // namespace bloomgate::bench
