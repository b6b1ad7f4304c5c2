// Copyright 2026 The bloomgate Authors.

#include "src/filter/blocked_kernels.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "bloomgate/filter_options.h"
#include "bloomgate/hash.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_fill.h"
#include "src/filter/blocked_query.h"
#include "src/filter/cpu_target.h"
#include "src/filter/format.h"
#include "src/filter/xxh3.h"

namespace bloomgate::internal {
namespace {

// How far ahead the fill prefetches: enough lines in flight to hide memory
// latency on filters larger than the caches.
constexpr size_t kPrefetchDistance = 16;
// ... and from what bit-array size. Below it, the prefetches cost more than
// they hide. Measured as FinishInto's time per key with the AVX-512 fill
// (AMD EPYC, 1 MiB L2): without prefetching, 3.4 against 4.2 ns at 10^6 keys
// (1.2 MiB) and 3.3 against 3.6 at 5 * 10^5; with it, 4.1-4.3 against
// 4.3-5.2 at 1.5 * 10^6 (1.8 MiB), 4.3 against 5.1-5.6 at 2 * 10^6 (2.4 MiB)
// and 4.4 against 7.3 at 10^7. The key-by-key fill measured the same way
// round.
constexpr uint64_t kPrefetchFromBytes = uint64_t{2} << 20;

// Each kernel below instantiates the templates here and in blocked_query.h
// with its own probe code. always_inline puts their bodies inside the
// kernel's target-attributed function, so they are compiled for its
// instruction set too.

// Both cache lines a line may straddle (the output buffer is the caller's,
// of any alignment).
inline void PrefetchForWrite(const uint8_t* line) {
  __builtin_prefetch(line, /*rw=*/1);
  __builtin_prefetch(line + kLineBytes - 1, /*rw=*/1);
}

// 1 << (bit % 8) for every probe position in a line: the key-by-key fill
// loads a probe's byte mask rather than shifting a 1 into place, because the
// x86-64 baseline shifts by a variable count only through CL, at the cost of
// a move and an AND per probe.
struct ProbeByteMasks {
  uint8_t of_bit[kLineBits];
  constexpr ProbeByteMasks() : of_bit{} {
    for (uint32_t bit = 0; bit < kLineBits; ++bit) {
      of_bit[bit] = static_cast<uint8_t>(1u << (bit & 7));
    }
  }
};
alignas(64) constexpr ProbeByteMasks kProbeByteMasks;

// Sets the bits of one hash: BlockedAdd's bits. kNumProbes is a
// compile-time constant so that the probe loop unrolls without a compare per
// probe (measured: 10-15% of the fill).
//
// The empty asm makes the line's address opaque to the compiler, which keeps
// it in one register. Otherwise GCC adds the line's offset to every probe's
// byte index, an ADD per probe.
template <int kNumProbes>
[[gnu::always_inline]] inline void AddHash(uint64_t hash, uint64_t num_lines,
                                           uint8_t* bits) {
  uint8_t* line = LineOf(bits, num_lines, hash);
  asm("" : "+r"(line));
  const uint32_t seed = BlockedProbeSeed(hash);
  for (int i = 0; i < kNumProbes; ++i) {
    const uint32_t bit = BlockedProbeBit(seed, i);
    line[bit >> 3] |= kProbeByteMasks.of_bit[bit];
  }
}

// Sets the bits of run[first, count), key by key. Two loops, so that the
// loop without prefetches tests nothing but its end.
// Measured on the fill alone (k = 6, 10^6 keys from a HashStore, AMD EPYC,
// binaries alternating): scalar 3.0-3.2 against 3.9-4.3 ns/key with
// BlockedAdd, AVX2 3.0-3.2 against 4.1-4.2. In a standalone loop, the mask
// table without the asm took 3.4-3.5 against 2.8-3.0 with it.
template <int kNumProbes>
[[gnu::always_inline]] inline void FillKeyByKey(const uint64_t* run,
                                                size_t first, size_t count,
                                                uint64_t num_lines,
                                                bool prefetch, uint8_t* bits) {
  size_t i = first;
  if (prefetch) {
    for (; i + kPrefetchDistance < count; ++i) {
      PrefetchForWrite(LineOf(bits, num_lines, run[i + kPrefetchDistance]));
      AddHash<kNumProbes>(run[i], num_lines, bits);
    }
  }
  for (; i < count; ++i) AddHash<kNumProbes>(run[i], num_lines, bits);
}

// The fills of one run of hashes, one per instruction set: Fill::Run<k>.
struct ScalarFill {
  template <int kNumProbes>
  static void Run(const uint64_t* run, size_t count, uint64_t num_lines,
                  bool prefetch, uint8_t* bits) {
    FillKeyByKey<kNumProbes>(run, 0, count, num_lines, prefetch, bits);
  }
};

#if BLOOMGATE_X86_KERNELS
// Key by key, as scalar: a chunked fill was slower with AVX2
// (blocked_fill.h).
struct Avx2Fill {
  template <int kNumProbes>
  BLOOMGATE_TARGET_AVX2 static void Run(const uint64_t* run, size_t count,
                                        uint64_t num_lines, bool prefetch,
                                        uint8_t* bits) {
    FillKeyByKey<kNumProbes>(run, 0, count, num_lines, prefetch, bits);
  }
};

// Chunks of kFillChunk keys (blocked_fill.h), then the rest key by key.
struct Avx512Fill {
  template <int kNumProbes>
  BLOOMGATE_TARGET_AVX512 static void Run(const uint64_t* run, size_t count,
                                          uint64_t num_lines, bool prefetch,
                                          uint8_t* bits) {
    static_assert(kFillChunk == kPrefetchDistance);
    BlockedChunkProbes chunk;
    size_t i = 0;
    for (; i + kFillChunk <= count; i += kFillChunk) {
      if (prefetch) {  // the next chunk's lines
        const size_t next_end = std::min(count, i + 2 * kFillChunk);
        for (size_t j = i + kFillChunk; j < next_end; ++j) {
          PrefetchForWrite(LineOf(bits, num_lines, run[j]));
        }
      }
      ComputeChunkProbesAvx512(run + i, num_lines, kNumProbes, &chunk);
      ApplyChunkProbes<kNumProbes>(chunk, bits);
    }
    FillKeyByKey<kNumProbes>(run, i, count, num_lines, prefetch, bits);
  }
};
#endif  // BLOOMGATE_X86_KERNELS

using FillRunFn = void (*)(const uint64_t* run, size_t count,
                           uint64_t num_lines, bool prefetch, uint8_t* bits);

// Fill::Run<k> at index k - 1, for every valid k.
template <typename Fill, size_t... kIndex>
constexpr std::array<FillRunFn, sizeof...(kIndex)> MakeFillRunTable(
    std::index_sequence<kIndex...>) {
  return {&Fill::template Run<static_cast<int>(kIndex) + 1>...};
}

// In the store's order, which keeps the lines being written within one slice
// of the array (hash_store.h); prefetching covers the misses that remain in
// arrays larger than the cache.
template <typename Fill>
void FillAll(const HashStore& hashes, uint64_t num_lines, int num_probes,
             uint8_t* bits) {
  static constexpr auto kRuns =
      MakeFillRunTable<Fill>(std::make_index_sequence<kMaxBlockedProbes>());
  const FillRunFn fill_run = kRuns[num_probes - 1];
  const bool prefetch = num_lines * kLineBytes >= kPrefetchFromBytes;
  hashes.ForEachRun([&](const uint64_t* run, size_t count) {
    fill_run(run, count, num_lines, prefetch, bits);
  });
}

// Queries::{Key,Hash,Batch}<k> at index k - 1, for every valid k.
template <typename Queries, size_t... kIndex>
constexpr BlockedKernel MakeKernel(SimdKernel kernel,
                                   decltype(BlockedKernel::fill) fill,
                                   std::index_sequence<kIndex...>) {
  return {kernel,
          {FilterQueries{
              &Queries::template Key<static_cast<int>(kIndex) + 1>,
              &Queries::template Hash<static_cast<int>(kIndex) + 1>,
              &Queries::template Batch<static_cast<int>(kIndex) + 1>}...},
          fill};
}

// A kernel's table: for each probe count, its queries, the templates above
// for its probe with the count compiled in, and its fill; each function with
// the kernel's target attribute (TARGET, which may be empty).
//
// The key query hashes keys of up to 16 bytes inline (flattened: GCC does not
// inline XXH3_64bits on its own) and tail-calls LongKey for longer ones, so
// that for short keys it is a leaf function that saves no register. With the
// longer keys' paths inline too, their registers were pushed and popped on
// every call and the stack realigned: 13 instructions more per query.
//
// BATCH_PROBES is the probe count a batch's probes use: kNumProbes, or
// num_probes for the scalar kernel. Its batch with the count compiled in
// holds all k products in registers across the batch's loop and tests each
// bit through CL; it measured about 10% slower than with the count read at
// run time, which is the code the scalar batch had before.
#define BLOOMGATE_DEFINE_KERNEL(NAME, TARGET, PROBE, BATCH_PROBES, FILL)    \
  struct NAME##Queries {                                                    \
    template <int kNumProbes>                                               \
    TARGET static bool Hash(const uint8_t* bits, uint64_t num_lines, int,   \
                            uint64_t hash) {                                \
      return BlockedMayMatch<PROBE>(bits, num_lines, kNumProbes, hash);     \
    }                                                                       \
    template <int kNumProbes>                                               \
    [[gnu::flatten]] TARGET static bool Key(const uint8_t* bits,            \
                                            uint64_t num_lines, int,        \
                                            const char* key, size_t size) { \
      if (size > kInlineHashMaxKeyBytes)                                    \
        return LongKey<kNumProbes>(bits, num_lines, key, size);             \
      return BlockedMayMatch<PROBE>(bits, num_lines, kNumProbes,            \
                                    XXH3_64bits(key, size));                \
    }                                                                       \
    template <int kNumProbes>                                               \
    [[gnu::noinline]] TARGET static bool LongKey(const uint8_t* bits,       \
                                                 uint64_t num_lines,        \
                                                 const char* key,           \
                                                 size_t size) {             \
      return BlockedMayMatch<PROBE>(bits, num_lines, kNumProbes,            \
                                    HashKey(std::string_view(key, size)));  \
    }                                                                       \
    template <int kNumProbes>                                               \
    TARGET static void Batch(const uint8_t* bits, uint64_t num_lines,       \
                             [[maybe_unused]] int num_probes,               \
                             const uint64_t* hashes, size_t n,              \
                             bool* results) {                               \
      BlockedMayMatchBatch<PROBE>(bits, num_lines, BATCH_PROBES, hashes, n, \
                                  results);                                 \
    }                                                                       \
  };                                                                        \
  constexpr BlockedKernel k##NAME##Kernel =                                 \
      MakeKernel<NAME##Queries>(SimdKernel::k##NAME, &FillAll<FILL>,        \
                                std::make_index_sequence<kMaxBlockedProbes>())

BLOOMGATE_DEFINE_KERNEL(Scalar, , BlockedMayMatchScalar, num_probes,
                        ScalarFill);
#if BLOOMGATE_X86_KERNELS
BLOOMGATE_DEFINE_KERNEL(Avx2, BLOOMGATE_TARGET_AVX2, BlockedMayMatchAvx2,
                        kNumProbes, Avx2Fill);
BLOOMGATE_DEFINE_KERNEL(Avx512, BLOOMGATE_TARGET_AVX512, BlockedMayMatchAvx512,
                        kNumProbes, Avx512Fill);
#endif  // BLOOMGATE_X86_KERNELS

#undef BLOOMGATE_DEFINE_KERNEL

}  // namespace

const BlockedKernel* CompiledBlockedKernel(SimdKernel kernel) {
  switch (kernel) {
    case SimdKernel::kScalar:
      return &kScalarKernel;
#if BLOOMGATE_X86_KERNELS
    case SimdKernel::kAvx2:
      return &kAvx2Kernel;
    case SimdKernel::kAvx512:
      return &kAvx512Kernel;
#endif
    default:
      return nullptr;
  }
}

}  // namespace bloomgate::internal
