// Copyright 2026 The bloomgate Authors.
//
// Answers "may this key be in the set?" from one filter block, in place.

#ifndef BLOOMGATE_FILTER_READER_H_
#define BLOOMGATE_FILTER_READER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "bloomgate/filter_options.h"

namespace bloomgate {

namespace internal {
struct FilterQueries;  // src/filter/filter_queries.h
}  // namespace internal

// A zero-copy view over a filter block written by FilterBuilder. The block's
// bytes must outlive the reader and stay unchanged.
//
// Construction validates the whole block (format, sizes, checksum) once.
// Bytes that fail validation -- empty, truncated, corrupt, or from a newer
// format version or an unknown layout -- never cause a crash, an
// out-of-bounds read or a false negative: the reader degrades to answering
// "may match" for every key, and status() says why. A "no" from a reader is
// therefore always certain.
//
// Queries allocate nothing, divide nothing and branch on nothing the reader
// knows at construction: the layout, the probe count and the SIMD kernel
// active then (bloomgate/simd.h) pick one function, called once per query
// or batch, with the probe count compiled in. A reader is
// immutable after construction: any number of threads may query it.
class FilterReader {
 public:
  // A reader that matches everything (status() is OK). Useful as a
  // placeholder before a block is available.
  FilterReader();
  explicit FilterReader(std::string_view block);

  // False only if `key` was certainly never added.
  bool MayMatch(std::string_view key) const {
    return may_match_key_(bits_, num_slots_, num_probes_, key.data(),
                          key.size());
  }
  // The same for a key given by its HashKey() value.
  bool HashMayMatch(uint64_t hash) const {
    return may_match_hash_(bits_, num_slots_, num_probes_, hash);
  }

  // Asks the CPU to fetch the memory HashMayMatch(hash) will read (a blocked
  // filter's line, a textbook filter's first probe) and returns at once, so
  // that the fetches of several filters and keys overlap: a caller that
  // prefetches N keys before it queries any waits for memory about once,
  // not N times. Changes no answer; a no-op for a filter with no bits.
  void Prefetch(uint64_t hash) const;

  // Batched queries: results[i] = MayMatch(keys[i]). Faster than a loop of
  // single queries on filters larger than the CPU caches, because the cache
  // lines of many keys are prefetched before any is probed (a storage
  // engine's batched lookup). `results` must have keys.size() elements.
  void MayMatchBatch(absl::Span<const std::string_view> keys,
                     absl::Span<bool> results) const;
  void HashMayMatchBatch(absl::Span<const uint64_t> hashes,
                         absl::Span<bool> results) const;

  // OK when the block is valid; otherwise why this reader matches everything
  // (DataLoss for damaged bytes, Unimplemented for an unknown format version,
  // layout or hash function).
  const absl::Status& status() const { return status_; }
  bool degraded() const { return !status_.ok(); }

  // Header fields of a valid block (zeros for a degraded reader).
  Layout layout() const { return layout_; }
  int num_probes() const { return num_probes_; }
  uint64_t num_keys() const { return num_keys_; }
  uint64_t num_bits() const { return num_bits_; }
  // Bits per distinct key actually spent on the bit array.
  double bits_per_key() const;
  // The bit array in place, and its slots: 512-bit lines for the blocked
  // layout, bits for the standard one (null and 0 for a degraded reader).
  // For a caller that compiles a kernel's probe into its own function;
  // its answers must equal MayMatch's.
  const uint8_t* bit_array() const { return bits_; }
  uint64_t num_slots() const { return num_slots_; }

 private:
  friend struct internal::FilterQueries;
  // How this reader answers, chosen once at construction (SetQueries): a
  // blocked kernel's queries for the block's probe count, the standard
  // layout's, or a constant answer. Held here rather than behind a pointer
  // so that MayMatch and HashMayMatch are inline: one indirect call from key
  // to answer.
  using KeyQuery = bool (*)(const uint8_t* bits, uint64_t num_slots,
                            int num_probes, const char* key, size_t size);
  using HashQuery = bool (*)(const uint8_t* bits, uint64_t num_slots,
                             int num_probes, uint64_t hash);
  using BatchQuery = void (*)(const uint8_t* bits, uint64_t num_slots,
                              int num_probes, const uint64_t* hashes, size_t n,
                              bool* results);
  void SetQueries(const internal::FilterQueries& queries);

  KeyQuery may_match_key_;
  HashQuery may_match_hash_;
  BatchQuery may_match_batch_;
  Layout layout_ = Layout::kBlocked;
  int num_probes_ = 0;
  uint64_t num_keys_ = 0;
  uint64_t num_bits_ = 0;
  // Blocked: number of 512-bit lines. Standard: num_bits_.
  uint64_t num_slots_ = 0;
  const uint8_t* bits_ = nullptr;
  absl::Status status_;
};

}  // namespace bloomgate

#endif  // BLOOMGATE_FILTER_READER_H_
