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

TEST(ProbePathsTest, Avx512MatchesScalar) {
  if (!SimdKernelSupported(SimdKernel::kAvx512)) {
    GTEST_SKIP() << "no AVX-512 on this CPU";
  }
  ExpectSameAsScalar(BlockedMayMatchAvx512);
}
#endif  // BLOOMGATE_X86_KERNELS

}  // namespace
}  // namespace bloomgate::internal
