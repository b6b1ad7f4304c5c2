// Copyright 2026 The bloomgate Authors.
//
// Builds one filter block (docs/filter-format.md) from a stream of keys.

#ifndef BLOOMGATE_FILTER_BUILDER_H_
#define BLOOMGATE_FILTER_BUILDER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_options.h"

namespace bloomgate {

namespace internal {
class HashStore;
}  // namespace internal

// Collects key hashes, then lays out the filter in one pass once the final
// key count is known. Call order: (AddKey | AddHash)* Finish, repeatable: a
// finished builder is empty again and keeps its options.
//
// Memory while building: 8 bytes per distinct key, plus the block at Finish.
// The hashes live in slabs mapped for transparent huge pages; at Finish the
// large slabs (2 MiB and up) go to a process-wide pool for the next builder
// and are marked MADV_FREE, so the kernel reclaims them when it needs memory.
// Reusing them spares the page faults that otherwise cost more than the build
// (src/filter/slab_pool.h). The pool holds at most FilterBuilderPoolLimit()
// bytes (256 MiB unless set); memory accounting that counts only what
// the storage engine allocates does not see it: FilterBuilderPooledBytes()
// tells. Not thread-safe; different builders may be used from different
// threads.
class FilterBuilder {
 public:
  // InvalidArgument for options that ValidateFilterOptions rejects.
  static absl::StatusOr<FilterBuilder> Create(const FilterOptions& options);

  // A moved-from builder may only be destroyed or assigned to.
  FilterBuilder(FilterBuilder&&) noexcept;
  FilterBuilder& operator=(FilterBuilder&&) noexcept;
  ~FilterBuilder();
  FilterBuilder(const FilterBuilder&) = delete;
  FilterBuilder& operator=(const FilterBuilder&) = delete;

  // Adds a key. A key equal to the one added just before it is counted once:
  // storage engines add keys in sorted order, with repeats.
  void AddKey(std::string_view key);
  // Adds a key by its HashKey() value, with the same rule for repeats.
  void AddHash(uint64_t hash);

  // Sizes the blocks of the next Finish (and BlockSize) for `options`
  // instead; the keys added so far stay. For callers that choose a block's
  // bits per key only once they know how many keys it holds.
  // InvalidArgument, leaving the builder as it was, for options that
  // ValidateFilterOptions rejects.
  absl::Status SetOptions(const FilterOptions& options);

  // Distinct keys added since the last Finish (consecutive repeats dropped).
  size_t num_keys() const;
  // The hash a repeat is compared against: the last one added since the last
  // Finish, if any.
  std::optional<uint64_t> last_hash() const {
    return has_last_hash_ ? std::optional<uint64_t>(last_hash_) : std::nullopt;
  }
  // Probes per key the block will use.
  int num_probes() const { return num_probes_; }
  const FilterOptions& options() const { return options_; }

  // Size in bytes of the block Finish would produce for `num_keys` keys.
  size_t BlockSize(size_t num_keys) const;
  // The false-positive rate (sizing.h's PredictedFpRate) of a block of these
  // options that holds `num_keys` distinct keys in `block_bytes` bytes, e.g.
  // BlockSize(num_keys): 0 for no keys (an empty filter matches nothing),
  // 1 for a block too small to hold a bit array.
  double PredictedFpRate(size_t num_keys, size_t block_bytes) const;

  // Writes the block into `out`, which must be exactly BlockSize(num_keys())
  // bytes, and empties the builder. Writes into caller memory so that
  // a caller's own buffer needs no copy.
  void FinishInto(absl::Span<char> out);
  // Convenience: the block as a string.
  std::string Finish();

 private:
  FilterBuilder(const FilterOptions& options, int num_probes);

  // AddHash's body, inlined into AddKey too: one call a key, not two.
  void AddHashInline(uint64_t hash);
  // AddKey for keys of more than 16 bytes.
  void AddLongKey(std::string_view key);

  FilterOptions options_;
  int num_probes_;
  // Null only in a moved-from builder.
  std::unique_ptr<internal::HashStore> hashes_;
  uint64_t last_hash_ = 0;  // the last hash added, if has_last_hash_
  bool has_last_hash_ = false;
};

// The process-wide pool of builders' released hash slabs (see FilterBuilder).

// Sets how many bytes of released slabs the pool may keep; 0 turns pooling
// off. Slabs pooled beyond a lowered limit are unmapped at once. Thread-safe.
void SetFilterBuilderPoolLimit(size_t bytes);
// The limit: 256 MiB unless set.
size_t FilterBuilderPoolLimit();
// Bytes of slabs in the pool now. They are mapped but marked MADV_FREE, so
// the kernel may already have taken back some of their pages: an upper
// bound on the resident memory the pool holds.
size_t FilterBuilderPooledBytes();

}  // namespace bloomgate

#endif  // BLOOMGATE_FILTER_BUILDER_H_
