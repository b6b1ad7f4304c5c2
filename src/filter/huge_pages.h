// Copyright 2026 The bloomgate Authors.
//
// Memory mapped on 2 MiB boundaries and offered to the kernel's transparent
// huge pages, for the large buffers the library fills or probes at random:
// the hash store's slabs (slab_pool.h), where one fault per 2 MiB replaces
// 512, and the LSM's large filter blocks, whose probes would otherwise add
// a page walk to each cache miss once the filter outgrows what the TLB maps
// in 4 KiB pages.
//
// Not a public header.

#ifndef BLOOMGATE_SRC_FILTER_HUGE_PAGES_H_
#define BLOOMGATE_SRC_FILTER_HUGE_PAGES_H_

#include <cstddef>

namespace bloomgate::internal {

inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` (a multiple of the system's page size) of fresh zeroed memory
// starting at a kHugePageBytes boundary, advised MADV_HUGEPAGE (advice
// only: where the kernel gives no huge pages, the memory works the same);
// nullptr when the system refuses. Release it with munmap(p, bytes).
void* MapHugePageAligned(size_t bytes);

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_HUGE_PAGES_H_
