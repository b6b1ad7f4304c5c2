// Copyright 2026 The bloomgate Authors.
//
// The key hashes a FilterBuilder holds until Finish, when the key count and so
// the filter's size are known.
//
// Grouped by their top bits. A blocked filter's line is a monotone function of
// the hash's top 32 bits, so the hashes of one group all land in one 1/16th of
// the bit array. Finish fills the array group by group, and the slice it
// writes stays in cache (780 KB at 10^7 keys) where arrival order would miss
// the cache on nearly every key of a large filter. Sixteen groups, not more:
// each is a stream of writes while keys arrive, and measured at 10^6 and 10^7
// keys, 64 streams made adding a key twice as slow, 4 to 16 cost nothing.

// In slabs of its own (slab_pool.h), because fresh memory for 8 bytes a key
// costs more page faults than the build has work.

#ifndef BLOOMGATE_SRC_FILTER_HASH_STORE_H_
#define BLOOMGATE_SRC_FILTER_HASH_STORE_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bloomgate::internal {

class HashStore {
 public:
  static constexpr int kGroupBits = 4;
  static_assert(kGroupBits > 0 && kGroupBits < 64);
  static constexpr int kNumGroups = 1 << kGroupBits;

  HashStore() = default;
  ~HashStore() { Clear(); }
  HashStore(const HashStore&) = delete;
  HashStore& operator=(const HashStore&) = delete;

  // The call to grow a group is a tail call, so that a caller that adds
  // last calls nothing on the common path, and saves no registers for it.
  void Add(uint64_t hash) {
    Group& group = groups_[hash >> (64 - kGroupBits)];
    if (group.tail == group.end) [[unlikely]] {
      return AddToNewBlock(hash);
    }
    *group.tail++ = hash;
  }

  // Hashes added since the last Clear. (Counted from the groups' ends, not
  // per Add, which keeps Add to one store.)
  size_t size() const;

  // Calls fn(const uint64_t* hashes, size_t count) for consecutive runs of
  // the hashes, group 0 (smallest top bits) first; within a group, in the
  // order they were added.
  template <typename Fn>
  void ForEachRun(Fn&& fn) const {
    for (const Group& group : groups_) {
      for (const Block* block = group.first; block != nullptr;
           block = block->next) {
        const uint64_t* hashes = block->hashes();
        fn(hashes, block == group.last
                       ? static_cast<size_t>(group.tail - hashes)
                       : block->capacity);
      }
    }
  }

  // Forgets every hash and returns the memory.
  void Clear();

 private:
  // A run of one group's hashes, followed in memory by `capacity` hashes.
  // Every block of a group but its last is full.
  struct Block {
    Block* next;
    size_t capacity;
    uint64_t* hashes() { return reinterpret_cast<uint64_t*>(this + 1); }
    const uint64_t* hashes() const {
      return reinterpret_cast<const uint64_t*>(this + 1);
    }
  };
  struct Group {
    Block* first = nullptr;
    Block* last = nullptr;
    uint64_t* tail = nullptr;  // next free slot in `last`
    uint64_t* end = nullptr;   // end of `last`
  };
  struct Slab {
    void* base;  // from AcquireSlab(bytes)
    size_t bytes;
  };

  // Grows the hash's group, then adds it.
  void AddToNewBlock(uint64_t hash);
  // Appends a block to `group`, twice the size of its last (small groups stay
  // small), up to kMaxBlockWords.
  void Grow(Group& group);
  // `words` 8-byte words from the current slab, or from a new one.
  uint64_t* Allocate(size_t words);

  Group groups_[kNumGroups];
  size_t in_full_blocks_ = 0;  // hashes in blocks that are not a group's last
  std::vector<Slab> slabs_;
  uint64_t* slab_next_ = nullptr;
  uint64_t* slab_end_ = nullptr;
};

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_HASH_STORE_H_
