// Copyright 2026 The bloomgate Authors.
//
// IndexSearch against std::lower_bound over the last keys, on indexes built
// to stress what it relies on: a shared prefix, numbers that tie, keys
// shorter than 8 bytes past the prefix, zero bytes that look like padding,
// group boundaries, and keys outside the shared prefix.

#include "src/lsm/index_search.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "src/lsm/format.h"

namespace bloomgate::lsm {
namespace {

size_t Expected(const std::vector<IndexEntry>& index, std::string_view key) {
  return static_cast<size_t>(
      std::lower_bound(index.begin(), index.end(), key,
                       [](const IndexEntry& e, std::string_view k) {
                         return e.last_key < k;
                       }) -
      index.begin());
}

// A random key: `prefix`, then up to `max_tail` bytes from a three-letter
// alphabet with a zero byte, so that keys often agree for 8 bytes and differ
// only after them, or differ only by trailing zeros.
std::string RandomKey(std::mt19937_64& rng, const std::string& prefix,
                      size_t max_tail) {
  static constexpr char kAlphabet[] = {'\0', 'a', '\xff'};
  std::string key = prefix;
  const size_t tail = rng() % (max_tail + 1);
  for (size_t i = 0; i < tail; ++i) key.push_back(kAlphabet[rng() % 3]);
  return key;
}

std::vector<IndexEntry> RandomIndex(std::mt19937_64& rng,
                                    const std::string& prefix, size_t n,
                                    size_t max_tail) {
  std::set<std::string> keys;
  for (size_t tries = 0; keys.size() < n && tries < 50 * n; ++tries) {
    keys.insert(RandomKey(rng, prefix, max_tail));
  }
  std::vector<IndexEntry> index;
  for (const std::string& key : keys) index.push_back({key, BlockHandle{}});
  return index;
}

// Every last key, each one with a byte added or removed, random keys under
// the same prefix, and keys that leave it.
std::vector<std::string> Queries(std::mt19937_64& rng,
                                 const std::vector<IndexEntry>& index,
                                 const std::string& prefix, size_t max_tail) {
  std::vector<std::string> queries = {"", std::string(1, '\0'),
                                      std::string(20, '\xff')};
  for (const IndexEntry& entry : index) {
    const std::string& key = entry.last_key;
    queries.push_back(key);
    queries.push_back(key + '\0');
    queries.push_back(key + 'a');
    if (!key.empty()) queries.push_back(key.substr(0, key.size() - 1));
  }
  for (int i = 0; i < 200; ++i) {
    queries.push_back(RandomKey(rng, prefix, max_tail + 2));
  }
  if (!prefix.empty()) {
    std::string below = prefix;
    below.back() = static_cast<char>(below.back() - 1);
    std::string above = prefix;
    above.back() = static_cast<char>(above.back() + 1);
    queries.push_back(below + "zzz");
    queries.push_back(above);
    queries.push_back(prefix.substr(0, prefix.size() - 1));
  }
  return queries;
}

TEST(IndexSearchTest, EmptyIndexFindsNothing) {
  const std::vector<IndexEntry> index;
  const IndexSearch search(index);
  EXPECT_EQ(search.LowerBound(index, ""), 0u);
  EXPECT_EQ(search.LowerBound(index, "key"), 0u);
}

TEST(IndexSearchTest, EqualsLowerBoundOnRandomIndexes) {
  std::mt19937_64 rng(20261205);
  // Sizes around the 64-entry groups; tails short (many ties and padding)
  // and long (numbers that decide alone).
  for (size_t n : {1, 2, 63, 64, 65, 127, 128, 129, 300, 1000}) {
    for (size_t max_tail : {3, 9, 12}) {
      for (const std::string prefix : {"", "user:", "0000000"}) {
        const std::vector<IndexEntry> index =
            RandomIndex(rng, prefix, n, max_tail);
        const IndexSearch search(index);
        for (const std::string& query : Queries(rng, index, prefix, max_tail)) {
          ASSERT_EQ(search.LowerBound(index, query), Expected(index, query))
              << "n=" << index.size() << " max_tail=" << max_tail
              << " prefix=" << prefix << " query size " << query.size();
        }
      }
    }
  }
}

TEST(IndexSearchTest, ManyEntriesTieOnTheirNumber) {
  // 500 keys that agree in the 8 bytes after their shared prefix and differ
  // only after them: the search falls back to the keys themselves.
  std::vector<IndexEntry> index;
  for (int i = 0; i < 500; ++i) {
    index.push_back({absl::StrFormat("p12345678%04d", i), BlockHandle{}});
  }
  index.insert(index.begin(), {"a", BlockHandle{}});
  index.push_back({"z", BlockHandle{}});
  const IndexSearch search(index);
  for (const IndexEntry& entry : index) {
    for (const std::string& query :
         {entry.last_key, entry.last_key + '0', entry.last_key + '\0'}) {
      ASSERT_EQ(search.LowerBound(index, query), Expected(index, query))
          << query;
    }
  }
}

TEST(IndexSearchTest, DecimalKeysLikeTheBenchmarks) {
  // 16-digit zero-padded numbers: the shared prefix is all zeros, and the
  // numbers after it decide nearly every search alone.
  std::vector<IndexEntry> index;
  for (int64_t slot = 0; slot < 200000; slot += 170) {
    index.push_back({absl::StrFormat("%016d", slot), BlockHandle{}});
  }
  const IndexSearch search(index);
  for (int64_t slot = 0; slot < 200500; slot += 7) {
    const std::string key = absl::StrFormat("%016d", slot);
    ASSERT_EQ(search.LowerBound(index, key), Expected(index, key)) << key;
  }
}

}  // namespace
}  // namespace bloomgate::lsm
