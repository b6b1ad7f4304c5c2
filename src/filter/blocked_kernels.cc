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
#include "src/filter/kernel_list.h"
#include "src/filter/xxh3.h"

namespace bloomgate::internal {
namespace {

// Each kernel below instantiates the templates of blocked_query.h with its
// own probe code. always_inline puts their bodies inside the kernel's
// target-attributed function, so they are compiled for its instruction set
// too.

// Queries::{Key,Hash,Batch}<k> at index k - 1, for every valid k.
template <typename Queries, size_t... kIndex>
constexpr BlockedKernel MakeKernel(SimdKernel kernel,
                                   std::index_sequence<kIndex...>) {
  return {kernel,
          {FilterQueries{
              &Queries::template Key<static_cast<int>(kIndex) + 1>,
              &Queries::template Hash<static_cast<int>(kIndex) + 1>,
              &Queries::template Batch<static_cast<int>(kIndex) + 1>}...},
          &BlockedFill};
}

// A kernel's table: for each probe count, its queries, the templates of
// blocked_query.h for its probe with the count compiled in, each function
// with the kernel's target attribute (TARGET, which may be empty); and the
// fill. Specialised for every kernel of kernel_list.h.
//
// The key query hashes keys of up to 16 bytes inline (flattened: GCC does not
// inline XXH3_64bits on its own) and tail-calls LongKey for longer ones, so
// that for short keys it is a leaf function that saves no register
// (docs/filter-core-design.md, "One call from key to answer").
template <SimdKernel kKernel>
struct KernelTable;

#define BLOOMGATE_DEFINE_KERNEL(NAME, TARGET, CPU_HAS, PROBE, BATCH_PROBES,  \
                                KEYS_BATCH)                                  \
  struct NAME##Queries {                                                     \
    template <int kNumProbes>                                                \
    TARGET static bool Hash(const uint8_t* bits, uint64_t num_lines, int,    \
                            uint64_t hash) {                                 \
      return BlockedMayMatch<PROBE>(bits, num_lines, kNumProbes, hash);      \
    }                                                                        \
    template <int kNumProbes>                                                \
    [[gnu::flatten]] TARGET static bool Key(const uint8_t* bits,             \
                                            uint64_t num_lines, int,         \
                                            const char* key, size_t size) {  \
      if (size > kInlineHashMaxKeyBytes)                                     \
        return LongKey<kNumProbes>(bits, num_lines, key, size);              \
      return BlockedMayMatch<PROBE>(bits, num_lines, kNumProbes,             \
                                    ShortKeyXxh3(key, size));                \
    }                                                                        \
    template <int kNumProbes>                                                \
    [[gnu::noinline]] TARGET static bool LongKey(const uint8_t* bits,        \
                                                 uint64_t num_lines,         \
                                                 const char* key,            \
                                                 size_t size) {              \
      return BlockedMayMatch<PROBE>(bits, num_lines, kNumProbes,             \
                                    HashKey(std::string_view(key, size)));   \
    }                                                                        \
    template <int kNumProbes>                                                \
    TARGET static void Batch(const uint8_t* bits, uint64_t num_lines,        \
                             [[maybe_unused]] int num_probes,                \
                             const uint64_t* hashes, size_t n,               \
                             bool* results) {                                \
      BlockedMayMatchBatch<PROBE>(bits, num_lines, BATCH_PROBES, hashes, n,  \
                                  results);                                  \
    }                                                                        \
  };                                                                         \
  template <>                                                                \
  struct KernelTable<SimdKernel::k##NAME> {                                  \
    static constexpr BlockedKernel kTable = MakeKernel<NAME##Queries>(       \
        SimdKernel::k##NAME, std::make_index_sequence<kMaxBlockedProbes>()); \
  };

BLOOMGATE_FOR_EACH_KERNEL(BLOOMGATE_DEFINE_KERNEL)

#undef BLOOMGATE_DEFINE_KERNEL

}  // namespace

const BlockedKernel* CompiledBlockedKernel(SimdKernel kernel) {
  return VisitCompiledKernel<const BlockedKernel*>(
      kernel, [](auto tag) { return &KernelTable<tag.value>::kTable; });
}

}  // namespace bloomgate::internal
