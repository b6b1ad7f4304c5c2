// Copyright 2026 The bloomgate Authors.
//
// Stores that name one filter memory pool (FilterSpec::pool) share its
// size: two stores grown side by side keep their filters within the pool
// plus one table's filter, the pool counts what the stores' statistics say,
// the store that takes the absent lookups takes the bits when its tables
// are rewritten, and a second size for the same pool is refused.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iostream>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomgate/filter_memory_pool.h"
#include "bloomgate/lsm/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using ::testing::HasSubstr;
using testing::Key;
using testing::TempDir;

constexpr uint64_t kStepKeys = 8000;
constexpr int kSteps = 3;
// 10 bits per key over both stores at the second step.
constexpr uint64_t kPoolBytes = 2 * 2 * kStepKeys * 10 / 8;

StoreOptions PoolOptions(const std::string& pool, uint64_t bytes = kPoolBytes) {
  StoreOptions o;
  o.filter = FilterSpec{.monkey = true, .memory_budget_bytes = bytes};
  o.filter.pool = pool;
  o.write_buffer_size = 16 << 10;
  o.block_size = 512;
  o.target_file_size = 16 << 10;
  o.max_bytes_for_level_base = 16 << 10;
  o.max_bytes_for_level_multiplier = 10;
  o.num_levels = 5;
  o.level0_file_num_compaction_trigger = 4;
  return o;
}

std::unique_ptr<Store> OpenStore(const std::string& dir,
                                 const StoreOptions& o) {
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(dir, o);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

// Keys [from, to) of a fixed shuffle of [0, kSteps * kStepKeys), even
// numbers only (odd ones are the absent keys).
void PutSteps(Store& store, uint64_t from, uint64_t to) {
  std::vector<uint64_t> order(kSteps * kStepKeys);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(7);
  std::shuffle(order.begin(), order.end(), rng);
  for (uint64_t n = from; n < to; ++n) {
    ASSERT_TRUE(store.Put(Key(2 * order[n]), "value").ok());
  }
  ASSERT_TRUE(store.Flush().ok());
}

uint64_t LargestFilter(Store& store) {
  uint64_t largest = 0;
  for (const FileInfo& f : store.GetLiveFiles()) {
    largest = std::max(largest, f.filter_bytes);
  }
  return largest;
}

TEST(StorePoolTest, TwoStoresKeepToOnePool) {
  TempDir dir_a, dir_b;
  auto a = OpenStore(dir_a.path(), PoolOptions("stores"));
  auto b = OpenStore(dir_b.path(), PoolOptions("stores"));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  const std::shared_ptr<FilterMemoryPool> pool =
      FilterMemoryPool::Find("stores");
  ASSERT_NE(pool, nullptr);
  for (int step = 1; step <= kSteps; ++step) {
    PutSteps(*a, (step - 1) * kStepKeys, step * kStepKeys);
    PutSteps(*b, (step - 1) * kStepKeys, step * kStepKeys);
    if (HasFailure()) return;
    const IoStats in_a = a->GetStats();
    const IoStats in_b = b->GetStats();
    const FilterMemoryPool::Usage usage = pool->GetUsage();
    EXPECT_EQ(usage.databases, 2u);
    EXPECT_EQ(usage.filter_bytes,
              in_a.total.filter_bytes + in_b.total.filter_bytes);
    EXPECT_EQ(usage.keys, in_a.total.num_entries + in_b.total.num_entries);
    const uint64_t largest = std::max(LargestFilter(*a), LargestFilter(*b));
    std::cout << absl::StrFormat(
        "[ figures  ] step %d: %d + %d filter bytes in %d files, largest "
        "%d; pool %d\n",
        step, in_a.total.filter_bytes, in_b.total.filter_bytes, usage.files,
        largest, kPoolBytes);
    EXPECT_LE(usage.filter_bytes, kPoolBytes + largest) << step;
  }
  for (uint64_t i = 0; i < kSteps * kStepKeys; i += 7) {
    EXPECT_EQ(a->Get(Key(2 * i)).value(), "value") << i;
    EXPECT_EQ(b->Get(Key(2 * i)).value(), "value") << i;
  }
  // A closed store leaves the pool's count.
  ASSERT_TRUE(b->Close().ok());
  EXPECT_EQ(pool->GetUsage().databases, 1u);
  EXPECT_EQ(pool->GetUsage().filter_bytes, a->GetStats().total.filter_bytes);
}

TEST(StorePoolTest, TheStoreWithTheLookupsTakesTheBits) {
  TempDir dir_a, dir_b;
  StoreOptions o = PoolOptions("lookups");
  o.filter.reach_half_life = kDefaultReachHalfLife;
  auto a = OpenStore(dir_a.path(), o);
  auto b = OpenStore(dir_b.path(), o);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  PutSteps(*a, 0, 2 * kStepKeys);
  PutSteps(*b, 0, 2 * kStepKeys);
  if (HasFailure()) return;
  // Absent keys (odd), 16 to a for every one to b; b's samples weigh well
  // above kLeastMeasuredSamples.
  constexpr uint64_t kLookups = 1 << 19;
  for (uint64_t n = 0; n < kLookups; ++n) {
    const uint64_t i = (n * 7919) % (2 * kStepKeys);
    ASSERT_EQ(a->Get(Key(2 * i + 1)).value(), std::nullopt);
    if (n % 16 == 0) {
      ASSERT_EQ(b->Get(Key(2 * i + 1)).value(), std::nullopt);
    }
  }
  // Every table of both rewritten, twice (the first rewrite of each is
  // sized beside the other's tables as they were).
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(a->Compact().ok());
    ASSERT_TRUE(b->Compact().ok());
  }
  const IoStats in_a = a->GetStats();
  const IoStats in_b = b->GetStats();
  const double bits_a = 8.0 * in_a.total.filter_bytes / in_a.total.filter_keys;
  const double bits_b = 8.0 * in_b.total.filter_bytes / in_b.total.filter_keys;
  std::cout << absl::StrFormat(
      "[ figures  ] a (16x the lookups): %.2f bits/key, b: %.2f bits/key\n",
      bits_a, bits_b);
  EXPECT_GT(bits_a, bits_b + 1.5);
  EXPECT_LE(in_a.total.filter_bytes + in_b.total.filter_bytes,
            kPoolBytes + std::max(LargestFilter(*a), LargestFilter(*b)));
}

// Lookups on two threads note their keys in the store's sampler while a
// third writes, flushes and compacts, so that tables are sized from the
// samples as they are taken (tools/test --tsan runs it under
// ThreadSanitizer); every lookup is answered right.
TEST(StorePoolTest, LookupsSampleWhileTablesAreSized) {
  TempDir dir;
  StoreOptions o = PoolOptions("threads");
  o.filter.reach_half_life = kDefaultReachHalfLife;
  auto store = OpenStore(dir.path(), o);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->Put("present", "value").ok());
  PutSteps(*store, 0, kStepKeys);
  if (HasFailure()) return;
  std::atomic<bool> done{false};
  auto look = [&](uint64_t seed) {
    uint64_t n = seed;
    while (!done.load()) {
      n = (n * 7919 + 1) % kStepKeys;
      absl::StatusOr<std::optional<std::string>> v = store->Get(Key(2 * n + 1));
      ASSERT_TRUE(v.ok()) << v.status();
      ASSERT_EQ(*v, std::nullopt);
    }
  };
  std::thread a(look, 1), b(look, 2);
  PutSteps(*store, kStepKeys, 2 * kStepKeys);
  EXPECT_TRUE(store->Compact().ok());
  done = true;
  a.join();
  b.join();
  EXPECT_EQ(store->Get("present").value(), "value");
}

TEST(StorePoolTest, ASecondSizeIsRefusedNamingBoth) {
  TempDir dir_a, dir_b;
  auto a = OpenStore(dir_a.path(), PoolOptions("sizes", 64 << 10));
  ASSERT_NE(a, nullptr);
  absl::StatusOr<std::unique_ptr<Store>> b =
      Store::Open(dir_b.path(), PoolOptions("sizes", 128 << 10));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(b.status().message(), HasSubstr("\"sizes\" is 64KiB"));
  EXPECT_THAT(b.status().message(), HasSubstr("asks for 128KiB"));
}

}  // namespace
}  // namespace bloomgate::lsm
