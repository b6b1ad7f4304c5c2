// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "bloomgate/hash.h"
#include "bloomgate/sizing.h"
#include "src/filter/blocked_fill.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/format.h"
#include "src/filter/hash_store.h"
#include "src/filter/standard_bloom.h"
#include "src/filter/xxh3.h"

namespace bloomgate {
namespace {

uint64_t NumBits(const FilterOptions& options, size_t num_keys) {
  return internal::NumBitsFor(options.layout, options.bits_per_key, num_keys);
}

void FillStandard(const internal::HashStore& hashes, uint64_t num_bits,
                  int num_probes, uint8_t* bits) {
  hashes.ForEachRun([&](const uint64_t* run, size_t count) {
    for (size_t i = 0; i < count; ++i) {
      internal::StandardAdd(run[i], num_bits, num_probes, bits);
    }
  });
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

absl::Status FilterBuilder::SetOptions(const FilterOptions& options) {
  absl::StatusOr<FilterBuilder> sized = Create(options);
  if (!sized.ok()) return sized.status();
  options_ = sized->options_;
  num_probes_ = sized->num_probes_;
  return absl::OkStatus();
}

FilterBuilder::FilterBuilder(const FilterOptions& options, int num_probes)
    : options_(options),
      num_probes_(num_probes),
      hashes_(std::make_unique<internal::HashStore>()) {}

FilterBuilder::FilterBuilder(FilterBuilder&&) noexcept = default;
FilterBuilder& FilterBuilder::operator=(FilterBuilder&&) noexcept = default;
FilterBuilder::~FilterBuilder() = default;

inline void FilterBuilder::AddHashInline(uint64_t hash) {
  // Equal keys have equal hashes; equal hashes of different keys would set
  // the same bits anyway, so dropping them loses nothing.
  if (last_hash_ != hash || !has_last_hash_) [[likely]] {
    last_hash_ = hash;
    has_last_hash_ = true;
    hashes_->Add(hash);  // last, so that its rare call is a tail call
  }
}

void FilterBuilder::AddHash(uint64_t hash) { AddHashInline(hash); }

size_t FilterBuilder::num_keys() const { return hashes_->size(); }

// Flattened, so that XXH3_64bits, which GCC does not inline on its own, is
// inlined here. Only the short keys' hash: with the longer keys' paths
// inline too, their registers were saved and restored on every call.
[[gnu::flatten]] void FilterBuilder::AddKey(std::string_view key) {
  if (key.size() > internal::kInlineHashMaxKeyBytes) {
    return AddLongKey(key);
  }
  AddHashInline(XXH3_64bits(key.data(), key.size()));
}

[[gnu::noinline]] void FilterBuilder::AddLongKey(std::string_view key) {
  AddHashInline(HashKey(key));
}

size_t FilterBuilder::BlockSize(size_t num_keys) const {
  return internal::BlockBytes(NumBits(options_, num_keys));
}

double FilterBuilder::PredictedFpRate(size_t num_keys,
                                      size_t block_bytes) const {
  return PredictedFilterFpRate(options_.layout, num_keys,
                               internal::BlockArrayBits(block_bytes),
                               num_probes_);
}

void FilterBuilder::FinishInto(absl::Span<char> out) {
  internal::BlockHeader header;
  header.num_keys = hashes_->size();
  header.num_bits = NumBits(options_, hashes_->size());
  header.layout = options_.layout;
  header.num_probes = num_probes_;

  auto* bits = reinterpret_cast<uint8_t*>(out.data());
  std::memset(bits, 0, internal::BitArrayBytes(header.num_bits));
  if (header.layout == Layout::kBlocked) {
    const uint64_t num_lines = header.num_bits / internal::kLineBits;
    internal::ActiveBlockedKernel().fill(*hashes_, num_lines, num_probes_,
                                         internal::FillPrefetches(num_lines),
                                         bits);
  } else {
    FillStandard(*hashes_, header.num_bits, num_probes_, bits);
  }
  internal::WriteTrailer(header, bits, out.size());
  hashes_->Clear();
  has_last_hash_ = false;
}

std::string FilterBuilder::Finish() {
  std::string block(BlockSize(num_keys()), '\0');
  FinishInto(absl::MakeSpan(block));
  return block;
}

}  // namespace bloomgate
