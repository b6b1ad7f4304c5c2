// Copyright 2026 The bloomgate Authors.
//
// The false-positive rate each filter should have, from the formulas of
// bloomgate/sizing.h, so that the tool can print observed against predicted.

#ifndef BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_
#define BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_

#include <cstdint>

#include "absl/types/span.h"
#include "bench_options.h"
#include "engine.h"

namespace bloomgate::bench {

// Predicted FP rate of one file's filter: `filter` configured with
// `configured_bits` per key, built over `keys` keys into `filter_bytes`
// bytes. NaN for kNone.
//  - bloomgate, bloomgate_standard: the filter core is asked what it builds
//    for `keys` keys (FilterBuilder, then FilterReader's bits_per_key and
//    num_probes: the bits of the array itself, rounded up to whole cache
//    lines, without the block's header), and PredictedFpRate answers.
//  - rocksdb_bloom: RocksDB's FastLocalBloom puts all probes of a key in one
//    512-bit cache line, the model of bloomgate's blocked layout; bits/key is
//    filter_bytes * 8 / keys (its 5-byte trailer is negligible) and the probe
//    count the one optimal for that model.
//  - rocksdb_ribbon: RocksDB sizes a Ribbon filter to the FP rate of its
//    Bloom filter at configured_bits ("Bloom-equivalent" bits per key), so
//    the prediction is that Bloom rate; the actual memory (about 30% less)
//    does not enter.
//  - bloomgate_monkey: as bloomgate, at the budget of `level_bits`
//    (MonkeyLevelBits) whose block for `keys` keys is exactly
//    `filter_bytes`. The file's block, not its current level, tells which
//    budget it was built with: a file moved down unchanged keeps it. NaN
//    when no budget matches.
double PredictedFileFp(FilterKind filter, double configured_bits, uint64_t keys,
                       uint64_t filter_bytes,
                       absl::Span<const double> level_bits = {});

// The mean of PredictedFileFp over the files of `shape` that have a filter:
// the rate a lookup that checks every file (an absent key in an all-L0
// shape) should see. NaN for kNone or when no file has a filter.
double PredictedFp(FilterKind filter, double configured_bits,
                   const EngineShape& shape,
                   absl::Span<const double> level_bits = {});

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_
