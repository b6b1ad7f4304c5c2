// Copyright 2026 The bloomgate Authors.
//
// The probe times a mixed policy's cost model weighs a filter check with,
// measured on this machine. Filters are never built with a clock in their
// path (a name means the same filters on every host); this is what an
// operator runs to see this machine's times and to name them in the policy
// (`...:mixed:probe_ns:<bloomgate>/<ribbon>`): `bloomgate plan --calibrate`,
// and bloomgate_bench's header.

#ifndef BLOOMGATE_TOOLS_PROBE_TIMES_PROBE_TIMES_H_
#define BLOOMGATE_TOOLS_PROBE_TIMES_PROBE_TIMES_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace bloomgate {

struct ProbeTimes {
  double bloomgate_nanos = 0;  // bloomgate's blocked filter, this CPU's kernel
  double ribbon_nanos = 0;     // RocksDB's Standard128Ribbon

  // The name's field that weighs probes at these times: probe_ns:<b>/<r>,
  // each to 0.1 ns.
  std::string NameField() const;
};

inline constexpr uint64_t kCalibrationKeys = uint64_t{1} << 16;
inline constexpr int kCalibrationRounds = 5;

// Median ns per check of an absent key, through RocksDB's FilterBitsReader
// as a Get calls it, of bloomgate's filter (10 bits/key) and of RocksDB's
// Ribbon filter (parameter 10), each over `keys` keys: `rounds` rounds of
// `keys` absent keys. kCalibrationKeys (80 KB of bloomgate's) stay in a core's
// L2 cache, as a block cache's hot filters do; filters beyond the caches cost a
// cache miss a check. FailedPrecondition where a filter cannot be built or
// answers "may match" to every absent key (no filter at all: nothing to time).
absl::StatusOr<ProbeTimes> MeasureProbeTimes(uint64_t keys = kCalibrationKeys,
                                             int rounds = kCalibrationRounds);

}  // namespace bloomgate

#endif  // BLOOMGATE_TOOLS_PROBE_TIMES_PROBE_TIMES_H_
