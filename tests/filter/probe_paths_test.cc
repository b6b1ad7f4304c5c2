// Copyright 2026 The bloomgate Authors.
//
// Every SIMD query of one line must answer exactly like the portable scalar
// one, for every probe count: they define the same format. (Whole kernels,
// fill and batches included, are checked in blocked_kernels_test.cc.)

#include <cstdint>
#include <random>

#include "bloomgate/simd.h"
#include "gtest/gtest.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_query.h"
#include "src/filter/cpu_target.h"

namespace bloomgate::internal {
namespace {

// Lines of varying density, and seeds, from a fixed stream; the line starts
// at every offset from a 64-byte boundary in turn.
template <typename Query>
void ExpectSameAsScalar(Query query) {
  std::mt19937_64 rng(20261202);
  alignas(64) uint8_t buffer[2 * kLineBytes];
  for (int round = 0; round < 2000; ++round) {
    uint8_t* line = buffer + round % kLineBytes;
    // Density from sparse to nearly full: AND/OR of random words.
    const int density = round % 4;
    for (int b = 0; b < kLineBytes; ++b) {
      uint8_t byte = static_cast<uint8_t>(rng());
      if (density == 0) byte &= static_cast<uint8_t>(rng());
      if (density == 2) byte |= static_cast<uint8_t>(rng());
      if (density == 3) byte |= static_cast<uint8_t>(rng() | rng());
      line[b] = byte;
    }
    for (int q = 0; q < 50; ++q) {
      const uint32_t seed = static_cast<uint32_t>(rng());
      for (int k = 1; k <= kMaxBlockedProbes; ++k) {
        ASSERT_EQ(query(seed, k, line), BlockedMayMatchScalar(seed, k, line))
            << "seed " << seed << " k " << k << " offset " << round % 64;
      }
    }
  }
}

TEST(ProbePathsTest, AddedSeedsAlwaysMatch) {
  std::mt19937_64 rng(7);
  for (int k = 1; k <= kMaxBlockedProbes; ++k) {
    alignas(64) uint8_t line[kLineBytes] = {};
    uint32_t seeds[40];
    for (uint32_t& seed : seeds) {
      seed = static_cast<uint32_t>(rng());
      BlockedAdd(seed, k, line);
    }
    for (uint32_t seed : seeds) {
      EXPECT_TRUE(BlockedMayMatchScalar(seed, k, line));
    }
  }
}

TEST(ProbePathsTest, EmptyLineMatchesNothing) {
  alignas(64) uint8_t line[kLineBytes] = {};
  for (uint32_t seed = 1; seed < 1000; ++seed) {
    EXPECT_FALSE(BlockedMayMatchScalar(seed, 1, line));
  }
}

#if BLOOMGATE_X86_KERNELS
TEST(ProbePathsTest, Avx2MatchesScalar) {
  if (!SimdKernelSupported(SimdKernel::kAvx2)) {
    GTEST_SKIP() << "no AVX2 on this CPU";
  }
  ExpectSameAsScalar(BlockedMayMatchAvx2);
}

// The AVX2 batch's lines, four at a time, are LineOf's, for filters of one
// line to 2^32 - 1 lines (the batch takes another path for 2^32).
BLOOMGATE_TARGET_AVX2 void LineOffsetsOf4(const uint64_t hashes[4],
                                          uint64_t num_lines,
                                          uint64_t offsets[4]) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(offsets),
                      BlockedLineOffsetsAvx2(num_lines)(_mm256_loadu_si256(
                          reinterpret_cast<const __m256i*>(hashes))));
}

TEST(ProbePathsTest, Avx2LineOffsetsAreLineIndexes) {
  if (!SimdKernelSupported(SimdKernel::kAvx2)) {
    GTEST_SKIP() << "no AVX2 on this CPU";
  }
  std::mt19937_64 rng(20261206);
  for (uint64_t num_lines : {uint64_t{1}, uint64_t{2}, uint64_t{157},
                             uint64_t{1} << 31, (uint64_t{1} << 32) - 1}) {
    for (int round = 0; round < 1000; ++round) {
      uint64_t hashes[4] = {rng(), rng(), rng(), ~uint64_t{0} - rng() % 4};
      if (round == 0) hashes[0] = 0;
      uint64_t offsets[4];
      LineOffsetsOf4(hashes, num_lines, offsets);
      for (int i = 0; i < 4; ++i) {
        ASSERT_EQ(offsets[i],
                  BlockedLineIndex(hashes[i], num_lines) * kLineBytes)
            << num_lines << " lines, hash " << hashes[i];
      }
    }
  }
}
#endif  // BLOOMGATE_X86_KERNELS

}  // namespace
}  // namespace bloomgate::internal
