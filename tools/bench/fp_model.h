// Copyright 2026 The bloomgate Authors.
//
// The false-positive rate each filter should have, from the formulas of
// bloomgate/sizing.h through FilterSpec, so that the tool can print observed
// against predicted.

#ifndef BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_
#define BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_

#include <cstdint>

#include "absl/types/span.h"
#include "bloomgate/filter_spec.h"
#include "tools/bench/engine.h"

namespace bloomgate::bench {

// Predicted FP rate of one file's filter of `filter` (a run's spec, with its
// bits per key), built over `keys` keys into `filter_bytes` bytes:
// FilterSpec::PredictedFpRate, i.e. the layout's formula at the bits the
// builder lays out for `keys` keys (for RocksDB's Bloom, whole cache lines
// of the blocked model; for Ribbon, the Bloom rate RocksDB sizes it to, its
// actual memory, about 30% less, not entering). NaN for no filter or no keys.
// A level-aware spec's file is predicted at the budget of `level_bits`
// (FilterSpec::LevelBitsPerKey) whose block for `keys` keys is exactly
// `filter_bytes`: the file's block, not its current level, tells which
// budget it was built with, as a file moved down unchanged keeps it; when
// no budget matches (a filter sized from the live tree), at the bits per
// key its block has, with the probe count those bits choose
// (FilterSpec::PredictedBlockFpRate). NaN without a filter block, and for
// mixed families (FilterSpec::mixed), whose files do not record which
// family built their filter.
double PredictedFileFp(const FilterSpec& filter, uint64_t keys,
                       uint64_t filter_bytes,
                       absl::Span<const double> level_bits = {});
// The same for one file of an engine's shape: the engine's own prediction
// when it has one (FileInfo::predicted_fp_rate), else the above.
double PredictedFileFp(const FilterSpec& filter, const FileInfo& file,
                       absl::Span<const double> level_bits = {});

// The mean of PredictedFileFp over the files of `shape` that have a filter:
// the rate a lookup that checks every file (an absent key in an all-L0
// shape) should see. NaN for no filter or when no file has one.
double PredictedFp(const FilterSpec& filter, const EngineShape& shape,
                   absl::Span<const double> level_bits = {});

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_FP_MODEL_H_
