// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "bloomgate/hash.h"
#include "bloomgate/sizing.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/format.h"
#include "src/filter/standard_bloom.h"
#include "src/filter/xxh3.h"

namespace bloomgate {
namespace {

// How far ahead the blocked fill prefetches: enough lines in flight to hide
// memory latency on filters larger than the caches.
constexpr size_t kPrefetchDistance = 16;

uint64_t NumBits(const FilterOptions& options, size_t num_keys) {
  if (num_keys == 0) return 0;
  const double wanted =
      std::ceil(static_cast<double>(num_keys) * options.bits_per_key);
  if (options.layout == Layout::kBlocked) {
    // Whole lines, at least one, at most 2^32 (then the FP rate rises
    // above the target, but every key is still found).
    const double lines = std::clamp(std::ceil(wanted / internal::kLineBits),
                                    1.0, static_cast<double>(UINT32_MAX));
    return static_cast<uint64_t>(lines) * internal::kLineBits;
  }
  return std::max(internal::kMinStandardBits, static_cast<uint64_t>(wanted));
}

void FillBlocked(const std::deque<uint64_t>& hashes, uint64_t num_bits,
                 int num_probes, uint8_t* bits) {
  const uint64_t num_lines = num_bits / internal::kLineBits;
  auto line_of = [&](uint64_t hash) {
    return bits +
           internal::BlockedLineIndex(hash, num_lines) * internal::kLineBytes;
  };
  // Both cache lines a line may straddle (the output buffer is the
  // caller's, of any alignment).
  auto prefetch = [&](uint64_t hash) {
    const uint8_t* line = line_of(hash);
    __builtin_prefetch(line, /*rw=*/1);
    __builtin_prefetch(line + internal::kLineBytes - 1, /*rw=*/1);
  };
  auto ahead = hashes.begin();
  for (size_t i = 0; i < kPrefetchDistance && ahead != hashes.end(); ++i) {
    prefetch(*ahead++);
  }
  for (uint64_t hash : hashes) {
    if (ahead != hashes.end()) prefetch(*ahead++);
    internal::BlockedAdd(internal::BlockedProbeSeed(hash), num_probes,
                         line_of(hash));
  }
}

void FillStandard(const std::deque<uint64_t>& hashes, uint64_t num_bits,
                  int num_probes, uint8_t* bits) {
  for (uint64_t hash : hashes) {
    internal::StandardAdd(hash, num_bits, num_probes, bits);
  }
}

}  // namespace

absl::StatusOr<FilterBuilder> FilterBuilder::Create(
    const FilterOptions& options) {
  if (absl::Status s = ValidateFilterOptions(options); !s.ok()) return s;
  const int num_probes =
      options.num_probes != 0
          ? options.num_probes
          : OptimalNumProbes(options.layout, options.bits_per_key);
  return FilterBuilder(options, num_probes);
}

FilterBuilder::FilterBuilder(const FilterOptions& options, int num_probes)
    : options_(options), num_probes_(num_probes) {}

void FilterBuilder::AddKey(std::string_view key) {
  AddHash(XXH3_64bits(key.data(), key.size()));
}

size_t FilterBuilder::BlockSize(size_t num_keys) const {
  return internal::BitArrayBytes(NumBits(options_, num_keys)) +
         internal::kTrailerSize;
}

void FilterBuilder::FinishInto(absl::Span<char> out) {
  internal::BlockHeader header;
  header.num_keys = hashes_.size();
  header.num_bits = NumBits(options_, hashes_.size());
  header.layout = options_.layout;
  header.num_probes = num_probes_;

  auto* bits = reinterpret_cast<uint8_t*>(out.data());
  std::memset(bits, 0, internal::BitArrayBytes(header.num_bits));
  if (header.layout == Layout::kBlocked) {
    FillBlocked(hashes_, header.num_bits, num_probes_, bits);
  } else {
    FillStandard(hashes_, header.num_bits, num_probes_, bits);
  }
  internal::WriteTrailer(header, bits, out.size());
  hashes_.clear();
}

std::string FilterBuilder::Finish() {
  std::string block(BlockSize(num_keys()), '\0');
  FinishInto(absl::MakeSpan(block));
  return block;
}

}  // namespace bloomgate
