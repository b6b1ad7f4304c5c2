// Copyright 2026 The bloomgate Authors.

#include "src/filter/slab_pool.h"

#include <sys/mman.h>

#include <iterator>
#include <mutex>
#include <new>
#include <vector>

#include "bloomgate/filter_builder.h"
#include "src/filter/huge_pages.h"

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

}  // namespace

void* AcquireSlab(size_t bytes) {
  if (bytes < kHugePageBytes) return ::operator new(bytes);
  if (void* slab = ThePool().Take(bytes)) return slab;
  void* slab = MapHugePageAligned(bytes);
  if (slab == nullptr) throw std::bad_alloc();
  return slab;
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
