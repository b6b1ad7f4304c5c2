// Copyright 2026 The bloomgate Authors.

#include "src/filter/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

namespace bloomgate::internal {

void* MapHugePageAligned(size_t bytes) {
  // Map a huge page more than asked, then unmap what lies before the first
  // 2 MiB boundary and after the buffer: only aligned 2 MiB ranges can
  // become huge pages.
  const size_t padded = bytes + kHugePageBytes;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned =
      (start + kHugePageBytes - 1) & ~uintptr_t{kHugePageBytes - 1};
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t tail = start + padded - (aligned + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  void* memory = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(memory, bytes, MADV_HUGEPAGE);
#endif
  return memory;
}

}  // namespace bloomgate::internal
