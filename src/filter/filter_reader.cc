// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_reader.h"

#include <algorithm>

#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/format.h"
#include "src/filter/standard_bloom.h"
#include "src/filter/xxh3.h"

namespace bloomgate {
namespace {

// Keys per prefetch round in batched queries: enough misses in flight to
// cover memory latency, few enough that the lines are still cached when
// probed (blocked_kernels.h).
constexpr size_t kBatch = internal::kMaxQueryBatch;

}  // namespace

FilterReader::FilterReader(std::string_view block) {
  absl::StatusOr<internal::BlockHeader> header =
      internal::ReadAndVerifyBlock(block);
  if (!header.ok()) {
    status_ = header.status();  // mode_ stays kMatchAll
    return;
  }
  layout_ = header->layout;
  num_probes_ = header->num_probes;
  num_keys_ = header->num_keys;
  num_bits_ = header->num_bits;
  bits_ = reinterpret_cast<const uint8_t*>(block.data());
  if (num_bits_ == 0) {
    mode_ = Mode::kMatchNone;  // a valid filter of an empty set
  } else if (layout_ == Layout::kBlocked) {
    mode_ = Mode::kBlocked;
    num_slots_ = num_bits_ / internal::kLineBits;
    kernel_ = &internal::ActiveBlockedKernel();
  } else {
    mode_ = Mode::kStandard;
    num_slots_ = num_bits_;
  }
}

bool FilterReader::MayMatch(std::string_view key) const {
  return HashMayMatch(XXH3_64bits(key.data(), key.size()));
}

bool FilterReader::HashMayMatch(uint64_t hash) const {
  switch (mode_) {
    case Mode::kBlocked:
      return kernel_->may_match(bits_, num_slots_, num_probes_, hash);
    case Mode::kStandard:
      return internal::StandardMayMatch(hash, num_slots_, num_probes_, bits_);
    case Mode::kMatchNone:
      return false;
    case Mode::kMatchAll:
      break;
  }
  return true;
}

void FilterReader::Prefetch(uint64_t hash) const {
  if (mode_ == Mode::kBlocked) {
    // Both cache lines a 64-byte line may straddle: the block need not be
    // 64-byte aligned.
    const uint8_t* line = bits_ + internal::BlockedLineIndex(hash, num_slots_) *
                                      internal::kLineBytes;
    __builtin_prefetch(line);
    __builtin_prefetch(line + internal::kLineBytes - 1);
  } else if (mode_ == Mode::kStandard) {
    // The first probe, the one every query reads.
    __builtin_prefetch(bits_ + (internal::ScaleToRange(hash, num_slots_) >> 3));
  }
}

void FilterReader::MayMatchBatch(absl::Span<const std::string_view> keys,
                                 absl::Span<bool> results) const {
  uint64_t hashes[kBatch];
  for (size_t start = 0; start < keys.size(); start += kBatch) {
    const size_t n = std::min(kBatch, keys.size() - start);
    for (size_t i = 0; i < n; ++i) {
      hashes[i] = XXH3_64bits(keys[start + i].data(), keys[start + i].size());
    }
    HashMayMatchBatchImpl(hashes, n, results.data() + start);
  }
}

void FilterReader::HashMayMatchBatch(absl::Span<const uint64_t> hashes,
                                     absl::Span<bool> results) const {
  for (size_t start = 0; start < hashes.size(); start += kBatch) {
    HashMayMatchBatchImpl(hashes.data() + start,
                          std::min(kBatch, hashes.size() - start),
                          results.data() + start);
  }
}

void FilterReader::HashMayMatchBatchImpl(const uint64_t* hashes, size_t n,
                                         bool* results) const {
  switch (mode_) {
    case Mode::kBlocked:
      kernel_->may_match_batch(bits_, num_slots_, num_probes_, hashes, n,
                               results);
      return;
    case Mode::kStandard:
      // Prefetch each key's first probe, the one every query reads.
      for (size_t i = 0; i < n; ++i) {
        __builtin_prefetch(
            bits_ + (internal::ScaleToRange(hashes[i], num_slots_) >> 3));
      }
      for (size_t i = 0; i < n; ++i) {
        results[i] = internal::StandardMayMatch(hashes[i], num_slots_,
                                                num_probes_, bits_);
      }
      return;
    case Mode::kMatchNone:
      std::fill(results, results + n, false);
      return;
    case Mode::kMatchAll:
      std::fill(results, results + n, true);
      return;
  }
}

double FilterReader::bits_per_key() const {
  return num_keys_ == 0
             ? 0.0
             : static_cast<double>(num_bits_) / static_cast<double>(num_keys_);
}

}  // namespace bloomgate
