// Copyright 2026 The bloomgate Authors.

#include "src/rocksdb/filter_bits.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/hash.h"
#include "bloomgate/simd.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_query.h"
#include "src/filter/cpu_target.h"
#include "src/filter/kernel_list.h"
#include "src/filter/xxh3.h"

namespace bloomgate::rocksdb_internal {
namespace {

std::string_view ToView(const rocksdb::Slice& s) {
  return std::string_view(s.data(), s.size());
}

// Keys hashed per HashMayMatchBatch call. MultiGet passes at most 32 keys
// (MultiGetContext::MAX_BATCH_SIZE); a benchmark may pass more. 64 hashes are
// 512 bytes of stack, and enough for the prefetches to overlap.
constexpr int kBatchChunk = 64;

// Whether the block of `reader` (which parsed) answers "may match" for
// `hash`, by the format's definition rather than by any SIMD kernel: for the
// blocked layout, a plain test of the hash's bits; the standard layout has
// no kernels.
bool AddedHashMatches(const FilterReader& reader, uint64_t hash) {
  if (reader.layout() != Layout::kBlocked || reader.num_slots() == 0) {
    return reader.HashMayMatch(hash);
  }
  const uint8_t* line =
      internal::LineOf(reader.bit_array(), reader.num_slots(), hash);
  const uint32_t seed = internal::BlockedProbeSeed(hash);
  for (int i = 0; i < reader.num_probes(); ++i) {
    const uint32_t bit = internal::BlockedProbeBit(seed, i);
    if (((line[bit >> 3] >> (bit & 7)) & 1) == 0) return false;
  }
  return true;
}

}  // namespace

BitsBuilder::BitsBuilder(FilterBuilder builder, bool verify_after_build,
                         Sizer sizer, rocksdb::Logger* info_log)
    : builder_(std::move(builder)),
      verify_after_build_(verify_after_build),
      sizer_(std::move(sizer)),
      info_log_(info_log),
      add_slowly_(verify_after_build_ || sizer_ != nullptr) {}

void BitsBuilder::AddKey(const rocksdb::Slice& key) {
  if (add_slowly_) [[unlikely]] {
    AddKeySlowly(ToView(key));
    return;
  }
  builder_.AddKey(ToView(key));  // one call: hashing and storing inlined
}

void BitsBuilder::AddKeySlowly(std::string_view key) {
  TrackKey(key);
  AddHash(HashKey(key));
}

void BitsBuilder::TrackKey(std::string_view key) {
  if (sizer_ == nullptr) return;
  if (!has_keys_) {
    first_key_.assign(key);
    has_keys_ = true;
  }
  last_key_.assign(key);
}

void BitsBuilder::Resize(size_t num_keys) {
  if (sizer_ == nullptr) return;
  const absl::Status s = builder_.SetOptions(sizer_(
      num_keys, has_keys_ ? first_key_ : "", has_keys_ ? last_key_ : ""));
  if (s.ok() || info_log_ == nullptr) return;
  // The sizer's options are valid by its contract; if not, the builder
  // keeps the options it had, which are, and the LOG says so once.
  static std::once_flag said;
  std::call_once(said, [&] {
    rocksdb::Warn(info_log_,
                  "bloomgate: a filter's size chosen at its end was refused "
                  "(%s); the filter keeps the policy's own size. Said once",
                  std::string(s.message()).c_str());
  });
}

void BitsBuilder::AddKeyAndAlt(const rocksdb::Slice& key,
                               const rocksdb::Slice& alt) {
  TrackKey(ToView(key));
  const uint64_t key_hash = HashKey(ToView(key));
  const uint64_t alt_hash = HashKey(ToView(alt));
  // What a repeat would repeat: the entry added last (a key, or a prefix),
  // and the previous call's prefix, however many keys came since.
  const std::optional<uint64_t> last_added = builder_.last_hash();
  const std::optional<uint64_t> last_alt =
      has_last_alt_ ? std::optional<uint64_t>(last_alt_hash_) : std::nullopt;
  // A whole key may be its own prefix, and may equal the previous prefix
  // (the last key of a prefix group under a reverse comparator).
  if (alt_hash != key_hash && alt_hash != last_alt && alt_hash != last_added) {
    AddHash(alt_hash);
  }
  if (key_hash != last_added && key_hash != last_alt) AddHash(key_hash);
  last_alt_hash_ = alt_hash;
  has_last_alt_ = true;
}

void BitsBuilder::AddHash(uint64_t hash) {
  if (verify_after_build_) [[unlikely]] {
    AddHashAndKeep(hash);
    return;
  }
  builder_.AddHash(hash);
}

void BitsBuilder::AddHashAndKeep(uint64_t hash) {
  builder_.AddHash(hash);
  // The same rule as FilterBuilder: a hash equal to the previous one is the
  // same (repeated) key, or a collision the filter cannot tell apart anyway.
  if (hashes_.empty() || hashes_.back() != hash) {
    hashes_.push_back(hash);
  }
}

size_t BitsBuilder::EstimateEntriesAdded() { return builder_.num_keys(); }

rocksdb::Slice BitsBuilder::Finish(std::unique_ptr<const char[]>* buf) {
  return Finish(buf, nullptr);
}

rocksdb::Slice BitsBuilder::Finish(std::unique_ptr<const char[]>* buf,
                                   rocksdb::Status* status) {
  const size_t num_keys = builder_.num_keys();
  Resize(num_keys);
  has_last_alt_ = false;
  has_keys_ = false;
  rocksdb::Status s;
  if (verify_after_build_) {
    if (hashes_.size() != num_keys) {
      s = rocksdb::Status::Corruption(
          "bloomgate filter construction: the builder holds " +
          std::to_string(num_keys) + " keys, the adapter added " +
          std::to_string(hashes_.size()));
    }
    hashes_to_verify_ = std::move(hashes_);
    hashes_.clear();
  }
  const size_t size = builder_.BlockSize(num_keys);
  std::unique_ptr<char[]> data = std::make_unique_for_overwrite<char[]>(size);
  builder_.FinishInto(absl::MakeSpan(data.get(), size));
  if (status != nullptr) *status = s;
  rocksdb::Slice result(data.get(), size);
  buf->reset(data.release());
  return result;
}

rocksdb::Status BitsBuilder::MaybePostVerify(
    const rocksdb::Slice& filter_content) {
  if (!verify_after_build_) return rocksdb::Status::OK();
  std::vector<uint64_t> hashes = std::move(hashes_to_verify_);
  hashes_to_verify_.clear();
  if (hashes.empty()) return rocksdb::Status::OK();

  const FilterReader reader(ToView(filter_content));
  if (reader.degraded()) {
    return rocksdb::Status::Corruption(
        "bloomgate filter construction: the block does not parse: " +
        reader.status().ToString());
  }
  if (reader.num_keys() != hashes.size()) {
    return rocksdb::Status::Corruption(
        "bloomgate filter construction: the block records " +
        std::to_string(reader.num_keys()) + " keys, " +
        std::to_string(hashes.size()) + " were added");
  }
  // Probed by the definition (AddedHashMatches), not by the kernel that may
  // share a defect with the fill it checks.
  for (uint64_t hash : hashes) {
    if (!AddedHashMatches(reader, hash)) {
      return rocksdb::Status::Corruption(
          "bloomgate filter construction: the block misses an added key");
    }
  }
  return rocksdb::Status::OK();
}

size_t BitsBuilder::ApproximateNumEntries(size_t bytes) {
  if (builder_.BlockSize(0) > bytes) return 0;
  // BlockSize(n) > n * bits_per_key / 8 for every n, so `hi` never fits; the
  // cap keeps absurd budgets from overflowing the core's size arithmetic.
  const double bits_per_key = builder_.options().bits_per_key;
  const double bound =
      std::floor(static_cast<double>(bytes) * 8.0 / bits_per_key) + 1.0;
  size_t lo = 0;
  size_t hi = static_cast<size_t>(std::min(bound, 0x1p40));
  if (builder_.BlockSize(hi) <= bytes) return hi;
  // Invariant: BlockSize(lo) <= bytes < BlockSize(hi).
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    if (builder_.BlockSize(mid) <= bytes) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

size_t BitsBuilder::CalculateSpace(size_t num_entries) {
  // No Resize: RocksDB asks after every data block (10.9 and later), with
  // the keys so far; a sizer asked then would choose for a fraction of the
  // file's keys and key range.
  return builder_.BlockSize(num_entries);
}

double BitsBuilder::EstimatedFpRate(size_t num_entries, size_t bytes) {
  return builder_.PredictedFpRate(num_entries, bytes);
}

bool BitsReader::MayMatch(const rocksdb::Slice& key) {
  return reader_.MayMatch(ToView(key));
}

void BitsReader::MayMatch(int num_keys, rocksdb::Slice** keys,
                          bool* may_match) {
  uint64_t hashes[kBatchChunk];
  for (int i = 0; i < num_keys; i += kBatchChunk) {
    const int n = std::min(kBatchChunk, num_keys - i);
    for (int j = 0; j < n; ++j) hashes[j] = HashKey(ToView(*keys[i + j]));
    reader_.HashMayMatchBatch(absl::MakeConstSpan(hashes, n),
                              absl::MakeSpan(may_match + i, n));
  }
}

absl::StatusOr<std::unique_ptr<BitsBuilder>> NewFilterBitsBuilder(
    const FilterOptions& options, bool verify_after_build) {
  absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(options);
  if (!builder.ok()) return builder.status();
  return std::make_unique<BitsBuilder>(*std::move(builder), verify_after_build);
}

namespace {

// A kernel's BitsReader for one probe count, whose queries run in the
// function RocksDB's virtual call enters (the queries of blocked_query.h,
// with the kernel's probe), where BitsReader's call the core's through a
// function pointer, a second call (docs/filter-core-design.md, "One call
// from key to answer", measures both):
// - MayMatch(key) hashes and probes in place. Keys longer than the hash
//   inlined here go to BitsReader's query.
// - MayMatch(batch) hashes the keys inline, with the kernel's batch of keys
//   (KEYS_BATCH: under AVX2 four at a time; "Batches of keys").
// Specialised for every kernel of kernel_list.h; each kernel's functions
// carry its target attribute (TARGET, which may be empty).
template <SimdKernel kKernel, int kNumProbes>
class KernelBitsReader;

#define BLOOMGATE_DEFINE_KERNEL_READER(NAME, TARGET, CPU_HAS, PROBE,           \
                                       BATCH_PROBES, KEYS_BATCH)               \
  template <int kNumProbes>                                                    \
  class KernelBitsReader<SimdKernel::k##NAME, kNumProbes> final                \
      : public BitsReader {                                                    \
   public:                                                                     \
    using BitsReader::BitsReader;                                              \
    [[gnu::flatten]] TARGET bool MayMatch(                                     \
        const rocksdb::Slice& key) override {                                  \
      if (key.size() > internal::kInlineHashMaxKeyBytes) {                     \
        return BitsReader::MayMatch(key);                                      \
      }                                                                        \
      return internal::BlockedMayMatch<PROBE>(                                 \
          reader().bit_array(), reader().num_slots(), kNumProbes,              \
          internal::ShortKeyXxh3(key.data(), key.size()));                     \
    }                                                                          \
    [[gnu::flatten]] TARGET void MayMatch(int num_keys, rocksdb::Slice** keys, \
                                          bool* may_match) override {          \
      KEYS_BATCH(                                                              \
          reader().bit_array(), reader().num_slots(), reader().num_probes(),   \
          [keys](size_t i) { return ToView(*keys[i]); },                       \
          static_cast<size_t>(std::max(num_keys, 0)), may_match);              \
    }                                                                          \
  };

BLOOMGATE_FOR_EACH_KERNEL(BLOOMGATE_DEFINE_KERNEL_READER)

#undef BLOOMGATE_DEFINE_KERNEL_READER

template <SimdKernel kKernel, int kNumProbes>
std::unique_ptr<BitsReader> NewKernelReader(FilterReader reader) {
  return std::make_unique<KernelBitsReader<kKernel, kNumProbes>>(
      std::move(reader));
}

// KernelBitsReader<kKernel, k> at index k - 1, for every valid k.
template <SimdKernel kKernel, size_t... kIndex>
constexpr KernelReaderTable MakeReaderTable(std::index_sequence<kIndex...>) {
  return {&NewKernelReader<kKernel, static_cast<int>(kIndex) + 1>...};
}

template <SimdKernel kKernel>
constexpr KernelReaderTable kReaders =
    MakeReaderTable<kKernel>(std::make_index_sequence<kMaxBlockedProbes>());

// A key of the readers' check: `family` tells present from absent keys,
// and i % 41 bytes covers the inline hash's lengths and the longer ones.
std::string CheckKey(char family, size_t i) {
  std::string key(i % 41, family);
  for (size_t j = 0; j < key.size(); ++j) {
    key[j] = static_cast<char>(key[j] ^ static_cast<char>(i * 31 + j * 7));
  }
  return key;
}

}  // namespace

absl::Status CheckKernelReaders(SimdKernel kernel,
                                const KernelReaderTable& readers) {
  constexpr size_t kKeys = 123;
  std::vector<std::string> keys;
  for (size_t i = 0; i < kKeys; ++i) keys.push_back(CheckKey('p', i));
  for (size_t i = 0; i < kKeys; ++i) keys.push_back(CheckKey('a', i));
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::Slice*> slice_ptrs;
  for (rocksdb::Slice& slice : slices) slice_ptrs.push_back(&slice);

  for (int k = 1; k <= kMaxBlockedProbes; ++k) {
    FilterOptions options;
    options.num_probes = k;
    absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(options);
    if (!builder.ok()) return builder.status();
    for (size_t i = 0; i < kKeys; ++i) builder->AddKey(keys[i]);
    const std::string block = builder->Finish();
    const FilterReader core(block);
    const std::unique_ptr<BitsReader> reader =
        readers[k - 1](FilterReader(block));
    bool batch[2 * kKeys];
    reader->MayMatch(static_cast<int>(keys.size()), slice_ptrs.data(), batch);
    for (size_t i = 0; i < keys.size(); ++i) {
      const bool want = core.MayMatch(keys[i]);
      if ((i < kKeys && !want) || reader->MayMatch(slices[i]) != want ||
          batch[i] != want) {
        return absl::InternalError(absl::StrCat(
            "the RocksDB adapter's ", ToAbsl(SimdKernelName(kernel)),
            " reader disagrees with the core's (", k, " probes)"));
      }
    }
  }
  return absl::OkStatus();
}

namespace {

// CheckKernelReaders for kKernel's readers, once per process; a failure is
// said once on stderr.
template <SimdKernel kKernel>
const absl::Status& KernelReadersChecked() {
  static const absl::Status status = [] {
    absl::Status s = CheckKernelReaders(kKernel, kReaders<kKernel>);
    if (!s.ok()) {
      std::fprintf(stderr, "bloomgate: %s; the core's reader answers\n",
                   std::string(s.message()).c_str());
    }
    return s;
  }();
  return status;
}

// The checked kernel reader of `kernel` for k probes, or null if `kernel`
// has none here or its readers failed their check.
NewReaderFn CheckedKernelReader(SimdKernel kernel, size_t k) {
  return internal::VisitCompiledKernel<NewReaderFn>(
      kernel, [k](auto tag) -> NewReaderFn {
        if (!KernelReadersChecked<tag.value>().ok()) return nullptr;
        return kReaders<tag.value>[k - 1];
      });
}

}  // namespace

std::string KernelCheckFailures() {
  std::string failures(SimdKernelCheckFailures());
  const SimdKernel active = ActiveSimdKernel();
  if (CheckedKernelReader(active, 1) == nullptr) {
    absl::StrAppend(&failures, "bloomgate: the RocksDB adapter's ",
                    ToAbsl(SimdKernelName(active)),
                    " reader failed its check; the core's reader answers\n");
  }
  return failures;
}

std::unique_ptr<rocksdb::FilterBitsReader> NewFilterBitsReader(
    const rocksdb::Slice& contents) {
  FilterReader reader(ToView(contents));
  // Only where the core reader probes lines: not for an empty filter (no
  // bit array: it answers "no" to every key) nor a degraded one. The kernel
  // is the one the core reader chose at its construction, just now; if
  // another thread changed it since, both kernels give the same answers.
  if (!reader.degraded() && reader.layout() == Layout::kBlocked &&
      reader.num_slots() > 0 && reader.num_probes() >= 1 &&
      reader.num_probes() <= kMaxBlockedProbes) {
    const NewReaderFn new_reader = CheckedKernelReader(
        ActiveSimdKernel(), static_cast<size_t>(reader.num_probes()));
    if (new_reader != nullptr) return new_reader(std::move(reader));
  }
  return std::make_unique<BitsReader>(std::move(reader));
}

}  // namespace bloomgate::rocksdb_internal
