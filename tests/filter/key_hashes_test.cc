// Copyright 2026 The bloomgate Authors.
//
// A batch's key hashes must be HashKey's, bit for bit, however the batch
// mixes key sizes: the filter's bits were set from HashKey's values.

#include "src/filter/key_hashes.h"

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bloomgate/hash.h"
#include "bloomgate/simd.h"
#include "gtest/gtest.h"
#include "src/filter/cpu_target.h"

namespace bloomgate::internal {
namespace {

using HashKeysFn = void (*)(const std::vector<std::string>& keys,
                            uint64_t* hashes);

[[gnu::flatten]] void HashKeysOf(const std::vector<std::string>& keys,
                                 uint64_t* hashes) {
  HashKeys([&keys](size_t i) { return std::string_view(keys[i]); }, keys.size(),
           hashes);
}

#if BLOOMGATE_X86_KERNELS
// Xxh3Of4KeysOf9To16BytesAvx2 on each four keys, all of 9 to 16 bytes; any
// keys left over (fewer than four) hashed by HashKey.
[[gnu::flatten]] BLOOMGATE_TARGET_AVX2 void Xxh3Of4Of(
    const std::vector<std::string>& keys, uint64_t* hashes) {
  size_t i = 0;
  for (; i + 4 <= keys.size(); i += 4) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(hashes + i),
                        Xxh3Of4KeysOf9To16BytesAvx2(keys[i], keys[i + 1],
                                                    keys[i + 2], keys[i + 3]));
  }
  for (; i < keys.size(); ++i) hashes[i] = HashKey(keys[i]);
}
#endif

// Batches of 0 to 40 keys of random bytes, of random sizes from min_size to
// max_size, some of all ones or all zeros (whose words carry through every
// 32-bit partial product of the AVX2 multiply).
void ExpectHashKeysValues(HashKeysFn hash_keys, size_t min_size,
                          size_t max_size) {
  std::mt19937_64 rng(20261206);
  for (int round = 0; round < 3000; ++round) {
    const size_t n = rng() % 41;
    std::vector<std::string> keys(n);
    for (std::string& key : keys) {
      const size_t size = min_size + rng() % (max_size - min_size + 1);
      const int fill = round % 7;
      for (size_t b = 0; b < size; ++b) {
        key.push_back(fill == 0   ? '\xff'
                      : fill == 1 ? '\0'
                                  : static_cast<char>(rng()));
      }
    }
    std::vector<uint64_t> hashes(n + 1, 0);
    hashes[n] = 0x5eed;  // must stay: nothing is written past n
    hash_keys(keys, hashes.data());
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(hashes[i], HashKey(keys[i]))
          << "round " << round << " key " << i << " of " << n << ", "
          << keys[i].size() << " bytes";
    }
    ASSERT_EQ(hashes[n], 0x5eedu);
  }
}

TEST(KeyHashesTest, ShortKeyXxh3IsHashKey) {
  std::mt19937_64 rng(20261207);
  for (size_t size = 0; size <= kInlineHashMaxKeyBytes; ++size) {
    for (int round = 0; round < 200; ++round) {
      std::string key;
      for (size_t b = 0; b < size; ++b) key.push_back(static_cast<char>(rng()));
      ASSERT_EQ(ShortKeyXxh3(key.data(), key.size()), HashKey(key))
          << size << " bytes, round " << round;
    }
  }
}

TEST(KeyHashesTest, ScalarAreHashKeys) {
  ExpectHashKeysValues(HashKeysOf, 0, 40);
}

TEST(KeyHashesTest, Avx2AreHashKeys) {
#if BLOOMGATE_X86_KERNELS
  if (!SimdKernelSupported(SimdKernel::kAvx2)) {
    GTEST_SKIP() << "this CPU has no AVX2";
  }
  ExpectHashKeysValues(Xxh3Of4Of, 9, 16);
#else
  GTEST_SKIP() << "no x86 kernels in this build";
#endif
}

}  // namespace
}  // namespace bloomgate::internal
