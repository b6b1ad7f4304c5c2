// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_reader.h"

#include <algorithm>

#include "bloomgate/hash.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/filter_queries.h"
#include "src/filter/format.h"
#include "src/filter/standard_bloom.h"
#include "src/filter/xxh3.h"

namespace bloomgate {
namespace {

using internal::FilterQueries;

// Keys per prefetch round in batched queries: enough misses in flight to
// cover memory latency, few enough that the lines are still cached when
// probed (blocked_kernels.h).
constexpr size_t kBatch = internal::kMaxQueryBatch;

// A reader's answer when it has nothing to test: `kAnswer` for every key.
template <bool kAnswer>
constexpr FilterQueries kConstantQueries = {
    .may_match_key = [](const uint8_t*, uint64_t, int, const char*,
                        size_t) { return kAnswer; },
    .may_match_hash = [](const uint8_t*, uint64_t, int,
                         uint64_t) { return kAnswer; },
    .may_match_batch =
        [](const uint8_t*, uint64_t, int, const uint64_t*, size_t n,
           bool* results) { std::fill(results, results + n, kAnswer); },
};

bool StandardMayMatchHash(const uint8_t* bits, uint64_t num_bits,
                          int num_probes, uint64_t hash) {
  return internal::StandardMayMatch(hash, num_bits, num_probes, bits);
}

[[gnu::flatten]] bool StandardMayMatchKey(const uint8_t* bits,
                                          uint64_t num_bits, int num_probes,
                                          const char* key, size_t size) {
  return StandardMayMatchHash(bits, num_bits, num_probes,
                              XXH3_64bits(key, size));
}

void StandardMayMatchBatch(const uint8_t* bits, uint64_t num_bits,
                           int num_probes, const uint64_t* hashes, size_t n,
                           bool* results) {
  // Prefetch each key's first probe, the one every query reads.
  for (size_t i = 0; i < n; ++i) {
    __builtin_prefetch(bits +
                       (internal::ScaleToRange(hashes[i], num_bits) >> 3));
  }
  for (size_t i = 0; i < n; ++i) {
    results[i] =
        internal::StandardMayMatch(hashes[i], num_bits, num_probes, bits);
  }
}

constexpr FilterQueries kStandardQueries = {
    .may_match_key = &StandardMayMatchKey,
    .may_match_hash = &StandardMayMatchHash,
    .may_match_batch = &StandardMayMatchBatch,
};

}  // namespace

FilterReader::FilterReader() { SetQueries(kConstantQueries<true>); }

FilterReader::FilterReader(std::string_view block) {
  SetQueries(kConstantQueries<true>);
  absl::StatusOr<internal::BlockHeader> header =
      internal::ReadAndVerifyBlock(block);
  if (!header.ok()) {
    status_ = header.status();  // every key may match
    return;
  }
  layout_ = header->layout;
  num_probes_ = header->num_probes;
  num_keys_ = header->num_keys;
  num_bits_ = header->num_bits;
  bits_ = reinterpret_cast<const uint8_t*>(block.data());
  if (num_bits_ == 0) {
    SetQueries(kConstantQueries<false>);  // a valid filter of an empty set
  } else if (layout_ == Layout::kBlocked) {
    // ReadAndVerifyBlock checked the probe count's range.
    SetQueries(internal::ActiveBlockedKernel().queries[num_probes_ - 1]);
    num_slots_ = num_bits_ / internal::kLineBits;
  } else {
    SetQueries(kStandardQueries);
    num_slots_ = num_bits_;
  }
}

void FilterReader::SetQueries(const FilterQueries& queries) {
  may_match_key_ = queries.may_match_key;
  may_match_hash_ = queries.may_match_hash;
  may_match_batch_ = queries.may_match_batch;
}

void FilterReader::Prefetch(uint64_t hash) const {
  if (degraded() || num_bits_ == 0) return;
  if (layout_ == Layout::kBlocked) {
    // Both cache lines a 64-byte line may straddle: the block need not be
    // 64-byte aligned.
    const uint8_t* line = bits_ + internal::BlockedLineIndex(hash, num_slots_) *
                                      internal::kLineBytes;
    __builtin_prefetch(line);
    __builtin_prefetch(line + internal::kLineBytes - 1);
  } else {
    // The first probe, the one every query reads.
    __builtin_prefetch(bits_ + (internal::ScaleToRange(hash, num_slots_) >> 3));
  }
}

void FilterReader::MayMatchBatch(absl::Span<const std::string_view> keys,
                                 absl::Span<bool> results) const {
  // All of a batch's keys are hashed before any line is requested: the
  // alternatives measured slower (docs/filter-core-design.md, "One call from
  // key to answer").
  uint64_t hashes[kBatch];
  for (size_t start = 0; start < keys.size(); start += kBatch) {
    const size_t n = std::min(kBatch, keys.size() - start);
    for (size_t i = 0; i < n; ++i) {
      hashes[i] = HashKey(keys[start + i]);
    }
    may_match_batch_(bits_, num_slots_, num_probes_, hashes, n,
                     results.data() + start);
  }
}

void FilterReader::HashMayMatchBatch(absl::Span<const uint64_t> hashes,
                                     absl::Span<bool> results) const {
  for (size_t start = 0; start < hashes.size(); start += kBatch) {
    may_match_batch_(bits_, num_slots_, num_probes_, hashes.data() + start,
                     std::min(kBatch, hashes.size() - start),
                     results.data() + start);
  }
}

double FilterReader::bits_per_key() const {
  return num_keys_ == 0
             ? 0.0
             : static_cast<double>(num_bits_) / static_cast<double>(num_keys_);
}

}  // namespace bloomgate
