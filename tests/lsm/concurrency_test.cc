// Copyright 2026 The bloomgate Authors.
//
// Readers while one writer overwrites, flushes and compacts: every Get
// succeeds, returns a value written for that key, and never goes back in
// time (each reader's view of a key only moves forward), because a Get
// works on one consistent set of memtables and files.

#include <atomic>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;

constexpr int kKeys = 2000;

std::string Value(int key, int round) {
  return Key(key) + ":" + std::to_string(round) + ":" +
         std::string(static_cast<size_t>(key % 50), 'p');
}

// The round a value was written in, or -1 if it is not a value of `key`.
int RoundOf(int key, const std::string& value) {
  const std::string prefix = Key(key) + ":";
  if (value.compare(0, prefix.size(), prefix) != 0) return -1;
  const size_t end = value.find(':', prefix.size());
  if (end == std::string::npos) return -1;
  int round;
  if (!absl::SimpleAtoi(
          absl::string_view(value).substr(prefix.size(), end - prefix.size()),
          &round)) {
    return -1;
  }
  return value == Value(key, round) ? round : -1;
}

TEST(ConcurrencyTest, ReadersSeeConsistentMonotonicValues) {
  testing::TempDir dir;
  StoreOptions o = testing::SmallOptions();
  auto opened = Store::Open(dir.path(), o);
  ASSERT_TRUE(opened.ok()) << opened.status();
  Store& store = **opened;
  for (int k = 0; k < kKeys; ++k) ASSERT_OK(store.Put(Key(k), Value(k, 0)));

  std::atomic<bool> done{false};
  std::atomic<uint64_t> reads{0};
  std::atomic<int> failures{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&, t] {
      std::mt19937 rng(100 + t);
      std::vector<int> seen(kKeys, 0);
      while (!done.load(std::memory_order_relaxed)) {
        const int k = static_cast<int>(rng() % kKeys);
        auto v = store.Get(Key(k));
        reads.fetch_add(1, std::memory_order_relaxed);
        if (!v.ok() || !v->has_value()) {
          failures.fetch_add(1);
          continue;
        }
        const int round = RoundOf(k, **v);
        if (round < seen[k]) {
          failures.fetch_add(1);
          continue;
        }
        seen[k] = round;
      }
    });
  }

  constexpr int kRounds = 8;
  std::mt19937 rng(1);
  for (int round = 1; round <= kRounds; ++round) {
    for (int i = 0; i < kKeys; ++i) {
      const int k = static_cast<int>(rng() % kKeys);
      ASSERT_OK(store.Put(Key(k), Value(k, round)));
      // Keys outside the readers' range come and go.
      ASSERT_OK(store.Put(Key(kKeys + k), "transient"));
      ASSERT_OK(store.Delete(Key(kKeys + k)));
    }
    if (round % 3 == 0) ASSERT_OK(store.Compact());
  }
  done = true;
  for (std::thread& t : readers) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(reads.load(), 0u);
  const IoStats s = store.GetStats();
  EXPECT_GT(s.flushes, 5u);
  EXPECT_GT(s.compactions, 2u);
  EXPECT_EQ(s.gets, reads.load());
  EXPECT_EQ(s.hits + s.misses, s.gets);
}

}  // namespace
}  // namespace bloomgate::lsm
