// Copyright 2026 The bloomgate Authors.
//
// What bloomgate_bench needs for the Monkey comparison (docs/evaluation.md,
// "Level-aware filters"): each level's bits per key, the tree shape the
// allocation assumes (filllevels), and the uniform bits per key that spends
// the same filter memory as a Monkey run.

#ifndef BLOOMGATE_TOOLS_BENCH_MONKEY_H_
#define BLOOMGATE_TOOLS_BENCH_MONKEY_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomgate/filter_options.h"
#include "tools/bench/engine.h"

namespace bloomgate::bench {

// The keys per period of the tree filllevels writes: level L gets weight L
// of every sum-of-them consecutive keys, the weights in the proportions of
// LeveledShape(num_levels, fanout), 1 : T : T^2 ... (the shape
// bloomgate_monkey's allocation assumes, FilterSpec::LevelBitsPerKey), so
// each level spans the whole key range. A fanout that is not whole scales
// the weights by a power of ten, as far as `num` allows. InvalidArgument if
// a level would get no key out of `num`.
absl::StatusOr<std::vector<int64_t>> LevelWeights(int num_levels, double fanout,
                                                  int64_t num);

// The level filllevels writes present key `i` to, for `weights` from
// LevelWeights.
int LevelOfKey(int64_t i, const std::vector<int64_t>& weights);

// The bits per key at which the filter core's `layout` blocks for the files
// of `shape` (their filter keys, or entries for files without a filter) add
// up to shape.filter_bytes, the measured memory of a Monkey run: the uniform
// budget for the comparison at equal memory. Bisection on the core's
// FilterBuilder::BlockSize, so exact up to one block's rounding when the
// uniform run writes the same files (the lsm engine, filllevels).
// InvalidArgument for a shape without filter memory.
absl::StatusOr<double> EqualMemoryBits(const EngineShape& shape, Layout layout);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_MONKEY_H_
