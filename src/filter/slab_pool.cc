// Copyright 2026 The bloomgate Authors.

#include "src/filter/slab_pool.h"

#include <sys/mman.h>

#include <cstdint>
#include <iterator>
#include <mutex>
#include <new>
#include <vector>

#include "bloomgate/filter_builder.h"

namespace bloomgate::internal {
namespace {

struct PooledSlab {
  void* base;
  size_t bytes;
};

class Pool {
 public:
  // The most recently pooled slab of exactly `bytes` (the likeliest to still
  // have its pages), or nullptr. Stores ask for the same sequence of sizes
  // every build, so exact matches are the common case.
  void* Take(size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = slabs_.rbegin(); it != slabs_.rend(); ++it) {
      if (it->bytes == bytes) {
        void* slab = it->base;
        slabs_.erase(std::next(it).base());
        pooled_bytes_ -= bytes;
        return slab;
      }
    }
    return nullptr;
  }

  // Keeps the slab if it fits under the limit.
  bool Put(void* slab, size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    if (pooled_bytes_ + bytes > limit_) return false;
    slabs_.push_back({slab, bytes});
    pooled_bytes_ += bytes;
    return true;
  }

  // Unmaps the oldest slabs until the pool fits under `limit`.
  void SetLimit(size_t limit) {
    std::vector<PooledSlab> evicted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      limit_ = limit;
      size_t keep_from = 0;
      while (pooled_bytes_ > limit_) {
        pooled_bytes_ -= slabs_[keep_from].bytes;
        ++keep_from;
      }
      evicted.assign(slabs_.begin(), slabs_.begin() + keep_from);
      slabs_.erase(slabs_.begin(), slabs_.begin() + keep_from);
    }
    for (const PooledSlab& slab : evicted) munmap(slab.base, slab.bytes);
  }

  size_t limit() {
    std::lock_guard<std::mutex> lock(mu_);
    return limit_;
  }
  size_t pooled_bytes() {
    std::lock_guard<std::mutex> lock(mu_);
    return pooled_bytes_;
  }

 private:
  std::mutex mu_;
  std::vector<PooledSlab> slabs_;  // oldest first
  size_t pooled_bytes_ = 0;
  size_t limit_ = kDefaultPoolLimitBytes;
};

Pool& ThePool() {
  static auto* pool = new Pool();  // never destroyed: no exit-time ordering
  return *pool;
}

// Maps `bytes` aligned to kHugePageBytes, since only aligned 2 MiB ranges can
// become huge pages.
void* MapAligned(size_t bytes) {
  const size_t padded = bytes + kHugePageBytes;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned =
      (start + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1};
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t tail = start + padded - (aligned + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  void* slab = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  // Advice only: without huge pages the slab works the same, just slower.
  madvise(slab, bytes, MADV_HUGEPAGE);
#endif
  return slab;
}

}  // namespace

void* AcquireSlab(size_t bytes) {
  if (bytes < kHugePageBytes) return ::operator new(bytes);
  if (void* slab = ThePool().Take(bytes)) return slab;
  return MapAligned(bytes);
}

void ReleaseSlab(void* slab, size_t bytes) {
  if (bytes < kHugePageBytes) {
    ::operator delete(slab);
    return;
  }
#ifdef MADV_FREE
  if (ThePool().Put(slab, bytes)) {
    madvise(slab, bytes, MADV_FREE);
    return;
  }
#endif
  munmap(slab, bytes);
}

}  // namespace bloomgate::internal

namespace bloomgate {

void SetFilterBuilderPoolLimit(size_t bytes) {
  internal::ThePool().SetLimit(bytes);
}

size_t FilterBuilderPoolLimit() { return internal::ThePool().limit(); }

size_t FilterBuilderPooledBytes() { return internal::ThePool().pooled_bytes(); }

}  // namespace bloomgate
