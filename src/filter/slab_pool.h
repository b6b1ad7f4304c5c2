// Copyright 2026 The bloomgate Authors.
//
// Memory for the hash store's slabs (hash_store.h), which every filter build
// fills afresh with 8 bytes a key.
//
// Fresh memory costs a page fault on its first touch, one per 4 KiB page:
// for the 80 MB that 10^7 keys take, several times the build's own work
// (docs/filter-core-design.md). Two things avoid it:
//  - slabs of 2 MiB and more are mapped with transparent huge pages where the
//    kernel offers them: one fault per 2 MiB (10 ms for the same 80 MB);
//  - released large slabs wait in a process-wide pool, up to a limit
//    (bloomgate/filter_builder.h's SetFilterBuilderPoolLimit), for the next
//    build (a storage engine builds one filter per file, one after
//    another). Pooled slabs are marked MADV_FREE: the kernel may take their
//    pages back whenever it needs memory, and until it does, reusing them
//    costs no fault. (A heap allocator gives the same reuse only while it
//    keeps the pages: glibc returns them once the top of its heap is free.)

#ifndef BLOOMGATE_SRC_FILTER_SLAB_POOL_H_
#define BLOOMGATE_SRC_FILTER_SLAB_POOL_H_

#include <cstddef>

#include "src/filter/huge_pages.h"

namespace bloomgate::internal {

// Slabs from kHugePageBytes up are mapped and pooled; smaller ones come from
// the heap.
// The pool's limit until SetFilterBuilderPoolLimit changes it.
inline constexpr size_t kDefaultPoolLimitBytes = size_t{256} << 20;

// `bytes` of writable memory, aligned to 8 bytes (to kHugePageBytes when
// bytes >= kHugePageBytes, which must then be a multiple of it). Contents are
// unspecified. Throws std::bad_alloc when the system refuses. Thread-safe.
void* AcquireSlab(size_t bytes);

// Returns a slab from AcquireSlab(bytes). Thread-safe.
void ReleaseSlab(void* slab, size_t bytes);

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_SLAB_POOL_H_
