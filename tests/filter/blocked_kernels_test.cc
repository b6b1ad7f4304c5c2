// Copyright 2026 The bloomgate Authors.
//
// Each kernel's fill and queries, loop and all, must give exactly the bits
// and answers of the format's definition (blocked_bloom.h's BlockedAdd and
// BlockedMayMatchScalar, key by key): the format does not depend on the CPU.

#include "src/filter/blocked_kernels.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bloomgate/filter_options.h"
#include "bloomgate/hash.h"
#include "bloomgate/simd.h"
#include "gtest/gtest.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_fill.h"
#include "src/filter/format.h"
#include "src/filter/hash_store.h"

namespace bloomgate::internal {
namespace {

class BlockedKernelTest : public ::testing::TestWithParam<SimdKernel> {
 protected:
  void SetUp() override {
    if (!SimdKernelSupported(GetParam())) {
      GTEST_SKIP() << SimdKernelName(GetParam())
                   << " is not supported by this build and CPU";
    }
    kernel_ = CompiledBlockedKernel(GetParam());
  }

  const BlockedKernel* kernel_ = nullptr;
};

// A bit array of num_lines lines placed `offset` bytes past a 64-byte
// boundary, with a guard byte on either side.
class Array {
 public:
  Array(uint64_t num_lines, size_t offset)
      : bytes_(num_lines * kLineBytes), storage_(bytes_ + 64 + 64 + 1, 0) {
    // Past the guard byte, then to the next 64-byte boundary plus offset.
    const auto start = reinterpret_cast<uintptr_t>(storage_.data() + 1);
    start_ = 1 + (64 - start % 64) % 64 + offset;
  }
  uint8_t* bits() { return storage_.data() + start_; }
  // The array and its guard bytes.
  std::vector<uint8_t> WithGuards() const {
    return {storage_.begin() + start_ - 1,
            storage_.begin() + start_ + bytes_ + 1};
  }

 private:
  size_t bytes_;
  std::vector<uint8_t> storage_;
  size_t start_;
};

const uint8_t* LineOf(const uint8_t* bits, uint64_t num_lines, uint64_t hash) {
  return bits + BlockedLineIndex(hash, num_lines) * kLineBytes;
}

bool ReferenceMayMatch(const uint8_t* bits, uint64_t num_lines, int k,
                       uint64_t hash) {
  return BlockedMayMatchScalar(BlockedProbeSeed(hash), k,
                               LineOf(bits, num_lines, hash));
}

// Line counts from one to past the fill's prefetch threshold (2 MiB).
constexpr uint64_t kNumLines[] = {1, 2, 3, 37, 1000, 40000};

TEST_P(BlockedKernelTest, SameBitsAndAnswersAsTheDefinition) {
  std::mt19937_64 rng(20261204);
  for (uint64_t num_lines : kNumLines) {
    // About 10 bits per key, as the default options give.
    std::vector<uint64_t> added(num_lines * kLineBits / 10);
    for (uint64_t& hash : added) hash = rng();
    // Keys of 0 to 39 bytes, XXH3's short and medium inputs; the even ones
    // are added.
    std::vector<std::string> keys;
    for (int i = 0; i < 200; ++i) {
      keys.emplace_back(static_cast<size_t>(i % 40), static_cast<char>(i));
      if (i % 2 == 0) added.push_back(HashKey(keys.back()));
    }
    HashStore hashes;
    for (uint64_t hash : added) hashes.Add(hash);
    for (int k = 1; k <= kMaxBlockedProbes; ++k) {
      const size_t offset = (7 * k) % 64;
      Array expected(num_lines, offset);
      for (uint64_t hash : added) {
        BlockedAdd(
            BlockedProbeSeed(hash), k,
            expected.bits() + BlockedLineIndex(hash, num_lines) * kLineBytes);
      }
      for (bool prefetch : {false, true}) {
        Array filled(num_lines, offset);
        kernel_->fill(hashes, num_lines, k, prefetch, filled.bits());
        ASSERT_EQ(filled.WithGuards(), expected.WithGuards())
            << num_lines << " lines, k " << k << ", offset " << offset
            << ", prefetch " << prefetch;
      }
      Array actual(num_lines, offset);
      kernel_->fill(hashes, num_lines, k, FillPrefetches(num_lines),
                    actual.bits());

      const FilterQueries& queries = kernel_->queries[k - 1];
      // Random hashes (mostly "no") and added ones ("maybe").
      for (int q = 0; q < 1000; ++q) {
        const uint64_t hash = q % 2 == 0 ? rng() : added[rng() % added.size()];
        ASSERT_EQ(queries.may_match_hash(actual.bits(), num_lines, k, hash),
                  ReferenceMayMatch(expected.bits(), num_lines, k, hash))
            << num_lines << " lines, k " << k << ", hash " << hash;
      }
      // Keys, hashed inside the query as HashKey does.
      for (const std::string& key : keys) {
        ASSERT_EQ(
            queries.may_match_key(actual.bits(), num_lines, k, key.data(),
                                  key.size()),
            ReferenceMayMatch(expected.bits(), num_lines, k, HashKey(key)))
            << num_lines << " lines, k " << k << ", key of " << key.size();
      }
      // Batches of every length, with a guard after the last result.
      for (size_t n = 0; n <= kMaxQueryBatch; ++n) {
        uint64_t batch[kMaxQueryBatch];
        bool results[kMaxQueryBatch + 1];
        for (size_t i = 0; i < n; ++i) {
          batch[i] = i % 2 == 0 ? rng() : added[rng() % added.size()];
        }
        for (bool& r : results) r = true;
        results[n] = false;
        queries.may_match_batch(actual.bits(), num_lines, k, batch, n, results);
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(results[i],
                    ReferenceMayMatch(expected.bits(), num_lines, k, batch[i]))
              << "batch of " << n << ", entry " << i << ", k " << k;
        }
        ASSERT_FALSE(results[n]) << "wrote past a batch of " << n;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, BlockedKernelTest,
                         ::testing::Values(SimdKernel::kScalar,
                                           SimdKernel::kAvx2),
                         [](const auto& info) {
                           return std::string(SimdKernelName(info.param));
                         });

}  // namespace
}  // namespace bloomgate::internal
