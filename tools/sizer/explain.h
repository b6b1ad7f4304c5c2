// Copyright 2026 The bloomgate Authors.
//
// `bloomgate explain`: a small textbook filter walked through step by step,
// the way the textbook example teaches it. Positions are the example's own
// scheme, not bloomgate's on-disk one: probe i of key x is the first 8 bytes
// of SHA-256("i:x"), big-endian, modulo m. With m = 12 and k = 3, "dog" sets
// bits [9, 3, 10], "pig" [8, 9, 1]; "elk" probes [8, 1, 7] (bit 7 is clear:
// definitely absent) and "rat" probes [8, 10, 3] (all set: a false positive).

#ifndef BLOOMGATE_TOOLS_SIZER_EXPLAIN_H_
#define BLOOMGATE_TOOLS_SIZER_EXPLAIN_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace bloomgate::tools {

// Limits that keep the walk-through readable.
inline constexpr uint64_t kMaxExplainBits = 4096;
inline constexpr int kMaxExplainProbes = 32;

struct ExplainRequest {
  uint64_t num_bits = 0;  // m
  int num_probes = 0;     // k
  std::vector<std::string> add;
  std::vector<std::string> query;
};

// The k positions of `key` in an m-bit array, as defined above.
std::vector<uint64_t> TextbookPositions(std::string_view key, uint64_t num_bits,
                                        int num_probes);

// The walk-through as text; InvalidArgument for m or k out of range.
absl::StatusOr<std::string> Explain(const ExplainRequest& request);

}  // namespace bloomgate::tools

#endif  // BLOOMGATE_TOOLS_SIZER_EXPLAIN_H_
