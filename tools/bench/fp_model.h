// Copyright 2026 The bloomgate Authors.
//
// The false-positive rate each filter should have, from the formulas of
// bloomgate/sizing.h, so that the tool can print observed against predicted.

#ifndef BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_
#define BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_

#include "bench_options.h"

namespace bloomgate::bench {

// Predicted FP rate of `filter` configured with `configured_bits` per key,
// whose filters actually spend `actual_bits` per key (bytes * 8 / keys, which
// rounding to whole cache lines makes a little larger). NaN for kNone.
//  - bloomgate, bloomgate_standard: PredictedFpRate of the layout with the
//    probe count the filter core picks for the configured bits.
//  - rocksdb_bloom: RocksDB's FastLocalBloom is a Bloom filter with all
//    probes in one 512-bit cache line, the model of the blocked layout, with
//    the probe count optimal for that model.
//  - rocksdb_ribbon: RocksDB sizes a Ribbon filter to the FP rate of its
//    Bloom filter at configured_bits ("Bloom-equivalent" bits per key), so
//    the prediction is that Bloom rate at the configured bits; actual_bits
//    (about 30% less) does not enter.
double PredictedFp(FilterKind filter, double configured_bits,
                   double actual_bits);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_
