// Copyright 2026 The bloomgate Authors.

#include "src/filter/hash_store.h"

#include <algorithm>
#include <cstdint>
#include <new>

#include "src/filter/slab_pool.h"

namespace bloomgate::internal {
namespace {

constexpr size_t kWordsPerBlockHeader = 2;

// Blocks: 16 words (14 hashes) at first, doubling to 4 KiB. The memory a
// store holds beyond its hashes is then at most one 4 KiB block per group
// plus the unused end of the newest slab.
constexpr size_t kFirstBlockWords = 16;
constexpr size_t kMaxBlockWords = 512;

// Slabs: 16, 32 and 64 KiB from the heap (about 14,000 keys, sizes the
// allocator recycles), then from 2 MiB doubling to 32 MiB (slab_pool.h).
constexpr size_t kFirstSlabBytes = size_t{16} << 10;
constexpr size_t kLastHeapSlabBytes = size_t{64} << 10;
constexpr size_t kMaxSlabBytes = size_t{32} << 20;
static_assert(kLastHeapSlabBytes < kHugePageBytes);

size_t NextSlabBytes(size_t last) {
  if (last == 0) return kFirstSlabBytes;
  if (last == kLastHeapSlabBytes) return kHugePageBytes;
  return std::min(2 * last, kMaxSlabBytes);
}

}  // namespace

void HashStore::AddToNewBlock(uint64_t hash) {
  Group& group = groups_[hash >> (64 - kGroupBits)];
  Grow(group);
  *group.tail++ = hash;
}

void HashStore::Grow(Group& group) {
  const size_t words =
      group.last == nullptr
          ? kFirstBlockWords
          : std::min(2 * (group.last->capacity + kWordsPerBlockHeader),
                     kMaxBlockWords);
  static_assert(sizeof(Block) == kWordsPerBlockHeader * sizeof(uint64_t));
  Block* block =
      new (Allocate(words)) Block{nullptr, words - kWordsPerBlockHeader};
  if (group.last == nullptr) {
    group.first = block;
  } else {
    group.last->next = block;
    in_full_blocks_ += group.last->capacity;
  }
  group.last = block;
  group.tail = block->hashes();
  group.end = group.tail + block->capacity;
}

uint64_t* HashStore::Allocate(size_t words) {
  if (static_cast<size_t>(slab_end_ - slab_next_) < words) {
    const size_t bytes =
        NextSlabBytes(slabs_.empty() ? 0 : slabs_.back().bytes);
    slabs_.reserve(slabs_.size() + 1);  // so that push_back cannot throw
    const Slab slab{AcquireSlab(bytes), bytes};
    slabs_.push_back(slab);
    slab_next_ = static_cast<uint64_t*>(slab.base);
    slab_end_ = slab_next_ + bytes / sizeof(uint64_t);
  }
  uint64_t* words_start = slab_next_;
  slab_next_ += words;
  return words_start;
}

void HashStore::Clear() {
  for (const Slab& slab : slabs_) ReleaseSlab(slab.base, slab.bytes);
  slabs_.clear();
  slab_next_ = slab_end_ = nullptr;
  for (Group& group : groups_) group = Group();
  in_full_blocks_ = 0;
}

size_t HashStore::size() const {
  size_t size = in_full_blocks_;
  for (const Group& group : groups_) {
    if (group.last != nullptr) size += group.tail - group.last->hashes();
  }
  return size;
}

}  // namespace bloomgate::internal
