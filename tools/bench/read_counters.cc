// Copyright 2026 The bloomgate Authors.

#include "tools/bench/read_counters.h"

#include <cstddef>
#include <iterator>

namespace bloomgate::bench {

// Every counter before the flags has a row.
static_assert(offsetof(ReadCounters, files_on_path_known) ==
              sizeof(uint64_t) * std::size(kReadCounterFields));

ReadCounters CounterDelta(const ReadCounters& before,
                          const ReadCounters& after) {
  ReadCounters delta = after;
  for (const ReadCounterField& field : kReadCounterFields) {
    delta.*field.count -= before.*field.count;
  }
  return delta;
}

}  // namespace bloomgate::bench
