// Copyright 2026 The bloomgate Authors.

#include "src/filter/hash_store.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "bloomgate/filter_builder.h"
#include "gtest/gtest.h"
#include "src/filter/slab_pool.h"

namespace bloomgate::internal {
namespace {

std::vector<uint64_t> RandomHashes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> hashes(n);
  for (uint64_t& h : hashes) h = rng();
  return hashes;
}

int GroupOf(uint64_t hash) {
  return static_cast<int>(hash >> (64 - HashStore::kGroupBits));
}

// What ForEachRun visits, run by run.
std::vector<std::vector<uint64_t>> Runs(const HashStore& store) {
  std::vector<std::vector<uint64_t>> runs;
  store.ForEachRun([&](const uint64_t* hashes, size_t count) {
    runs.emplace_back(hashes, hashes + count);
  });
  return runs;
}

// Sizes around the first block (14 hashes) and past the heap slabs into the
// mapped ones (about 14,000 keys), up to several mapped slabs.
class HashStoreTest : public testing::TestWithParam<size_t> {};

TEST_P(HashStoreTest, VisitsEveryHashOnceGroupByGroupInArrivalOrder) {
  const std::vector<uint64_t> added = RandomHashes(GetParam(), GetParam());
  HashStore store;
  for (uint64_t h : added) store.Add(h);
  ASSERT_EQ(store.size(), added.size());

  std::vector<uint64_t> visited;
  int last_group = 0;
  for (const std::vector<uint64_t>& run : Runs(store)) {
    for (uint64_t h : run) {
      ASSERT_GE(GroupOf(h), last_group) << "groups out of order";
      last_group = GroupOf(h);
      visited.push_back(h);
    }
  }
  // Within a group, arrival order: the added sequence filtered by group.
  std::vector<uint64_t> expected;
  for (int g = 0; g < HashStore::kNumGroups; ++g) {
    for (uint64_t h : added) {
      if (GroupOf(h) == g) expected.push_back(h);
    }
  }
  EXPECT_EQ(visited, expected);
}

TEST_P(HashStoreTest, ClearEmptiesAndTheStoreIsReusable) {
  HashStore store;
  for (uint64_t h : RandomHashes(GetParam(), 1)) store.Add(h);
  store.Clear();
  EXPECT_EQ(store.size(), 0u);
  EXPECT_TRUE(Runs(store).empty());
  const std::vector<uint64_t> second = RandomHashes(GetParam(), 2);
  for (uint64_t h : second) store.Add(h);
  std::vector<uint64_t> visited;
  for (const auto& run : Runs(store)) {
    visited.insert(visited.end(), run.begin(), run.end());
  }
  std::vector<uint64_t> sorted = second;
  std::sort(sorted.begin(), sorted.end());
  std::sort(visited.begin(), visited.end());
  EXPECT_EQ(visited, sorted);
}

INSTANTIATE_TEST_SUITE_P(Sizes, HashStoreTest,
                         testing::Values(0, 1, 14, 15, 16 * 14 + 1, 1000,
                                         20'000, 700'000));

TEST(HashStoreTest, EqualHashesAreAllKept) {
  // Deduplication is the builder's job (consecutive repeats only); the store
  // keeps what it is given.
  HashStore store;
  for (int i = 0; i < 100; ++i) store.Add(42);
  EXPECT_EQ(store.size(), 100u);
  size_t visited = 0;
  store.ForEachRun([&](const uint64_t* hashes, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      EXPECT_EQ(hashes[i], 42u);
      ++visited;
    }
  });
  EXPECT_EQ(visited, 100u);
}

// Each test starts from an empty pool at the default limit and leaves one:
// the pool is process-wide.
class SlabPoolTest : public ::testing::Test {
 protected:
  void SetUp() override { EmptyPool(); }
  void TearDown() override { EmptyPool(); }
  static void EmptyPool() {
    SetFilterBuilderPoolLimit(0);
    ASSERT_EQ(FilterBuilderPooledBytes(), 0u);
    SetFilterBuilderPoolLimit(kDefaultPoolLimitBytes);
  }
};

TEST_F(SlabPoolTest, AReleasedLargeSlabIsReusedNotMappedAgain) {
  // Large slabs are aligned for huge pages and come back from the pool.
  void* first = AcquireSlab(kHugePageBytes);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % kHugePageBytes, 0u);
  static_cast<char*>(first)[kHugePageBytes - 1] = 1;  // writable to the end
  ReleaseSlab(first, kHugePageBytes);
  EXPECT_EQ(FilterBuilderPooledBytes(), kHugePageBytes);
  void* second = AcquireSlab(kHugePageBytes);
  EXPECT_EQ(second, first);
  EXPECT_EQ(FilterBuilderPooledBytes(), 0u);
  ReleaseSlab(second, kHugePageBytes);
}

TEST_F(SlabPoolTest, TheLimitBoundsThePoolAndZeroTurnsItOff) {
  EXPECT_EQ(FilterBuilderPoolLimit(), kDefaultPoolLimitBytes);
  SetFilterBuilderPoolLimit(3 * kHugePageBytes);
  EXPECT_EQ(FilterBuilderPoolLimit(), 3 * kHugePageBytes);
  std::vector<void*> slabs;
  for (int i = 0; i < 5; ++i) slabs.push_back(AcquireSlab(kHugePageBytes));
  for (void* slab : slabs) ReleaseSlab(slab, kHugePageBytes);
  EXPECT_EQ(FilterBuilderPooledBytes(), 3 * kHugePageBytes);  // two unmapped

  SetFilterBuilderPoolLimit(kHugePageBytes);  // unmaps the two oldest
  EXPECT_EQ(FilterBuilderPooledBytes(), kHugePageBytes);
  SetFilterBuilderPoolLimit(0);
  EXPECT_EQ(FilterBuilderPooledBytes(), 0u);
  void* slab = AcquireSlab(kHugePageBytes);
  static_cast<char*>(slab)[0] = 1;
  ReleaseSlab(slab, kHugePageBytes);
  EXPECT_EQ(FilterBuilderPooledBytes(), 0u);  // off: unmapped at once
}

TEST_F(SlabPoolTest, SmallSlabsNeverEnterThePool) {
  void* slab = AcquireSlab(kHugePageBytes / 2);
  ReleaseSlab(slab, kHugePageBytes / 2);
  EXPECT_EQ(FilterBuilderPooledBytes(), 0u);
}

TEST_F(SlabPoolTest, AFinishedBuildPoolsItsLargeSlabs) {
  absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create({});
  ASSERT_TRUE(builder.ok());
  for (uint64_t i = 0; i < 2'000'000; ++i)
    builder->AddHash(i * 0x9E3779B97F4A7C15);
  builder->Finish();
  EXPECT_GT(FilterBuilderPooledBytes(), 0u);
  EXPECT_LE(FilterBuilderPooledBytes(), FilterBuilderPoolLimit());
}

}  // namespace
}  // namespace bloomgate::internal
