// Copyright 2026 The bloomgate Authors.
//
// The chunked fill must set exactly the bits BlockedAdd sets key by key: the
// two define the same format.

#include "src/filter/blocked_fill.h"

#include <cstdint>
#include <random>
#include <vector>

#include "bloomgate/simd.h"
#include "gtest/gtest.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/cpu_target.h"

namespace bloomgate::internal {
namespace {

#if BLOOMGATE_X86_KERNELS

bool HasAvx512() { return SimdKernelSupported(SimdKernel::kAvx512); }

std::vector<uint64_t> RandomHashes(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> hashes(count);
  for (uint64_t& hash : hashes) hash = rng();
  return hashes;
}

TEST(BlockedFillTest, ChunkProbesMatchTheScalarFormulas) {
  if (!HasAvx512()) GTEST_SKIP() << "no AVX-512 on this CPU";
  const std::vector<uint64_t> hashes = RandomHashes(64 * kFillChunk, 11);
  // Line counts up to the largest a block may have, 2^32 - 1.
  for (uint64_t num_lines : {uint64_t{1}, uint64_t{7}, uint64_t{19532},
                             (uint64_t{1} << 31) + 3, uint64_t{UINT32_MAX}}) {
    for (size_t first = 0; first < hashes.size(); first += kFillChunk) {
      BlockedChunkProbes chunk;
      ComputeChunkProbesAvx512(&hashes[first], num_lines, kMaxBlockedProbes,
                               &chunk);
      for (int j = 0; j < kFillChunk; ++j) {
        const uint64_t hash = hashes[first + j];
        ASSERT_EQ(chunk.line_offset[j],
                  BlockedLineIndex(hash, num_lines) * kLineBytes)
            << "hash " << hash << " lines " << num_lines;
        for (int i = 0; i < kMaxBlockedProbes; ++i) {
          const uint32_t bit = BlockedProbeBit(BlockedProbeSeed(hash), i);
          ASSERT_EQ(chunk.byte[i][j], bit >> 3) << "hash " << hash;
          ASSERT_EQ(chunk.mask[i][j], 1u << (bit & 7)) << "hash " << hash;
        }
      }
    }
  }
}

// Fills a small array both ways; many keys share lines, and so bytes.
template <int kNumProbes>
void ExpectChunkedFillSameAsBlockedAdd() {
  constexpr uint64_t kNumLines = 37;
  const std::vector<uint64_t> hashes = RandomHashes(100 * kFillChunk, 5);
  std::vector<uint8_t> chunked(kNumLines * kLineBytes + 1);  // unaligned
  std::vector<uint8_t> key_by_key(chunked.size());
  for (size_t first = 0; first < hashes.size(); first += kFillChunk) {
    BlockedChunkProbes chunk;
    ComputeChunkProbesAvx512(&hashes[first], kNumLines, kNumProbes, &chunk);
    ApplyChunkProbes<kNumProbes>(chunk, chunked.data() + 1);
  }
  for (uint64_t hash : hashes) {
    BlockedAdd(
        BlockedProbeSeed(hash), kNumProbes,
        key_by_key.data() + 1 + BlockedLineIndex(hash, kNumLines) * kLineBytes);
  }
  EXPECT_EQ(chunked, key_by_key) << "k " << kNumProbes;
  EXPECT_EQ(chunked[0], 0) << "wrote before the array";
}

TEST(BlockedFillTest, ChunkedFillSetsTheSameBitsAsBlockedAdd) {
  if (!HasAvx512()) GTEST_SKIP() << "no AVX-512 on this CPU";
  ExpectChunkedFillSameAsBlockedAdd<1>();
  ExpectChunkedFillSameAsBlockedAdd<6>();
  ExpectChunkedFillSameAsBlockedAdd<7>();
  ExpectChunkedFillSameAsBlockedAdd<kMaxBlockedProbes>();
}

#endif  // BLOOMGATE_X86_KERNELS

}  // namespace
}  // namespace bloomgate::internal
