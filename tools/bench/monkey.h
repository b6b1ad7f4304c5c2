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

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_MONKEY_H_
