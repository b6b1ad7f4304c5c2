// Copyright 2026 The bloomgate Authors.
//
// bloomgate's filter core behind RocksDB's internal filter interface:
// FilterBitsBuilder and FilterBitsReader from
// table/block_based/filter_policy_internal.h (RocksDB 7.0 to 11.x; the
// differences between releases are in rocksdb_compat.h, see
// docs/rocksdb-plugin.md). The filter policy (rocksdb_filter_policy.cc) hands
// these to RocksDB's table builder and reader; the benchmarks drive them
// directly, beside RocksDB's own Bloom and Ribbon filters through the same
// interface (spec_filter_policy.h).
//
// Not a public header: it exposes a RocksDB-internal interface whose shape
// changes between RocksDB releases.

#ifndef BLOOMGATE_SRC_ROCKSDB_FILTER_BITS_H_
#define BLOOMGATE_SRC_ROCKSDB_FILTER_BITS_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/filter_reader.h"
#include "bloomgate/simd.h"
#include "rocksdb/slice.h"
#include "rocksdb/status.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate::rocksdb_internal {

// Builds one bloomgate filter block (docs/filter-format.md) per Finish, for a
// full filter or for one partition of a partitioned filter. The block is
// exactly what FilterBuilder writes: RocksDB adds no metadata of its own, so
// any FilterReader (and so any bloomgate policy, whatever it is configured
// with) reads it.
//
// Call order: ((AddKey | AddKeyAndAlt)* Finish MaybePostVerify?)*. Not
// thread-safe (RocksDB uses one builder per table file).
class BitsBuilder final : public rocksdb::FilterBitsBuilder {
 public:
  // Chooses a block's options once its keys are known, from the number of
  // distinct keys and the first and last key added since the last Finish
  // (empty for none). Must return valid options.
  using Sizer = std::function<FilterOptions(
      size_t num_keys, std::string_view first_key, std::string_view last_key)>;

  // `verify_after_build`: keep a second copy of the key hashes and check in
  // MaybePostVerify that the finished block matches every one of them
  // (BlockBasedTableOptions::detect_filter_construct_corruption). Costs 8
  // bytes per distinct key while building, and one query per key.
  // `sizer`, if set, picks each block's options at Finish instead of
  // `builder`'s; the builder then keeps copies of the first and last key
  // added. Options the sizer picks that the core refuses (a bug: its
  // contract is valid options) leave the builder's own, said once per
  // process in `info_log` if it is set.
  BitsBuilder(FilterBuilder builder, bool verify_after_build,
              Sizer sizer = nullptr, rocksdb::Logger* info_log = nullptr);

  BitsBuilder(const BitsBuilder&) = delete;
  BitsBuilder& operator=(const BitsBuilder&) = delete;

  // Keys arrive sorted, possibly repeated: a key equal to the previous one is
  // counted once (FilterBuilder's rule).
  void AddKey(const rocksdb::Slice& key) override;

  // Adds a key and, as its alternate, its prefix (RocksDB 9.6 and later call
  // this for prefix filters with whole-key filtering). Both go into the
  // filter. Each is counted once however often it repeats in a row, as in
  // RocksDB's built-in filters: `key` is dropped when it equals the entry
  // added just before the call or the previous call's `alt`; `alt` when it
  // equals `key`, the previous call's `alt` or that entry.
  void AddKeyAndAlt(const rocksdb::Slice& key,
                    const rocksdb::Slice& alt) BLOOMGATE_OVERRIDE_SINCE_9_6;

  // Distinct keys (and prefixes) added since the last Finish: 0 exactly when
  // none was added, as RocksDB requires. RocksDB stores it as
  // TableProperties::num_filter_entries.
  size_t EstimateEntriesAdded() override;

  // Writes the block into a new buffer owned by `*buf` and returns a view of
  // it. The builder is then empty and reusable.
  rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf) override;
  // The same; with verification on, `*status` is Corruption when the core
  // builder and this adapter disagree on how many keys were added (memory
  // corruption during construction); RocksDB then fails the table build.
  rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf,
                        rocksdb::Status* status) override;

  // With verification on: Corruption unless `filter_content` is a valid
  // bloomgate block that matches every key of the last Finish. Without it,
  // or when called again for the same block (RocksDB calls it twice per
  // partition of a partitioned filter), OK.
  rocksdb::Status MaybePostVerify(
      const rocksdb::Slice& filter_content) override;

  // The most distinct keys whose block fits in `bytes` (0 if not even an
  // empty block fits). Partitioned filters use it to size their partitions.
  size_t ApproximateNumEntries(size_t bytes) override;

  // The size of a block of `num_entries` distinct keys at the builder's
  // current options: exactly what Finish writes without a sizer; with one,
  // an estimate at the options of the last block finished (`builder`'s
  // before the first), since the sizer chooses only at Finish, once the
  // keys are known. RocksDB 10.9 and later ask after every data block, to
  // estimate the file's size while building it.
  size_t CalculateSpace(size_t num_entries) BLOOMGATE_OVERRIDE_SINCE_10_9;

  // The core's predicted FP rate of a block of `bytes` bytes holding
  // `num_entries` distinct keys (FilterBuilder::PredictedFpRate).
  double EstimatedFpRate(size_t num_entries,
                         size_t bytes) BLOOMGATE_OVERRIDE_SINCE_10_9;

  const FilterOptions& options() const { return builder_.options(); }

 private:
  // Adds one hash, keeping a copy with verification on.
  void AddHash(uint64_t hash);
  // AddHash with verification on; out of line, so that AddKey's common path
  // saves no registers and tail-calls FilterBuilder::AddKey.
  [[gnu::noinline]] void AddHashAndKeep(uint64_t hash);
  // AddKey with verification or a sizer.
  [[gnu::noinline]] void AddKeySlowly(std::string_view key);
  // Keeps the key range for the sizer.
  void TrackKey(std::string_view key);
  // Resizes builder_ with the sizer's options for `num_keys` keys.
  void Resize(size_t num_keys);

  FilterBuilder builder_;
  const bool verify_after_build_;
  const Sizer sizer_;
  rocksdb::Logger* const info_log_;
  // verify_after_build_ or a sizer: AddKey takes the slow path.
  const bool add_slowly_;
  // With a sizer: the first and last key since the last Finish.
  std::string first_key_;
  std::string last_key_;
  bool has_keys_ = false;
  // Only with verification: the distinct hashes added since the last Finish,
  // and those of the last finished block, awaiting MaybePostVerify.
  std::vector<uint64_t> hashes_;
  std::vector<uint64_t> hashes_to_verify_;
  // The `alt` of the last AddKeyAndAlt since the last Finish, if any.
  uint64_t last_alt_hash_ = 0;
  bool has_last_alt_ = false;
};

// Queries one bloomgate filter block in place. The block's bytes belong to
// RocksDB (the cached filter block) and outlive the reader.
//
// Never fails: bytes that are not a valid bloomgate block (corruption on
// disk, truncation, a newer format) make a reader that answers "may match"
// for every key, so RocksDB reads the data blocks and results stay correct.
// Immutable after construction; RocksDB queries it from many threads.
//
// NewFilterBitsReader returns, for a valid blocked block with keys under
// the scalar or AVX2 kernel, a subclass whose MayMatch, single and batched,
// is the kernel's query with the block's probe count compiled in and the
// keys hashed inline (filter_bits.cc), so that RocksDB's virtual call lands
// on the probe itself.
class BitsReader : public rocksdb::FilterBitsReader {
 public:
  explicit BitsReader(std::string_view block) : reader_(block) {}
  explicit BitsReader(FilterReader reader) : reader_(std::move(reader)) {}

  BitsReader(const BitsReader&) = delete;
  BitsReader& operator=(const BitsReader&) = delete;

  bool MayMatch(const rocksdb::Slice& key) override;

  // MultiGet's batch (up to 32 keys in RocksDB 7.x): hashes the keys into a
  // stack array, chunk by chunk, and queries each chunk with the core's
  // prefetching HashMayMatchBatch. Allocates nothing.
  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override;

  // The core reader, e.g. to ask whether it degraded.
  const FilterReader& reader() const { return reader_; }

 private:
  FilterReader reader_;
};

// A builder for `options`; InvalidArgument for options that
// ValidateFilterOptions rejects.
absl::StatusOr<std::unique_ptr<BitsBuilder>> NewFilterBitsBuilder(
    const FilterOptions& options, bool verify_after_build = false);

// A reader over `contents`, which must outlive it: a BitsReader, or the
// kernel's subclass of it (see BitsReader) once that passed its check at
// first use (filter_bits.cc). Never null.
std::unique_ptr<rocksdb::FilterBitsReader> NewFilterBitsReader(
    const rocksdb::Slice& contents);

// A kernel's readers: entry k - 1 makes the reader for blocks of k probes.
using NewReaderFn = std::unique_ptr<BitsReader> (*)(FilterReader reader);
using KernelReaderTable = std::array<NewReaderFn, kMaxBlockedProbes>;

// The check each kernel's readers pass before NewFilterBitsReader uses them:
// they instantiate the core's queries anew, so they are checked as the
// core's kernels are (src/filter/kernel_check.h), against the core's reader
// (whose kernel passed its own check), single keys and batches, on blocks of
// every probe count. OK, or Internal naming `kernel`.
absl::Status CheckKernelReaders(SimdKernel kernel,
                                const KernelReaderTable& readers);

// Empty, or a line for each kernel (SimdKernelCheckFailures) and each of
// this adapter's kernel readers that failed its check at first use and is
// not used, for RocksDB's info LOG.
std::string KernelCheckFailures();

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_FILTER_BITS_H_
