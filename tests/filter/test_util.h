// Copyright 2026 The bloomgate Authors.
//
// Keys and filters for the filter-core tests.

#ifndef BLOOMGATE_TESTS_FILTER_TEST_UTIL_H_
#define BLOOMGATE_TESTS_FILTER_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_reader.h"
#include "gtest/gtest.h"

namespace bloomgate::testing {

// The i-th key of a family: 16 bytes, distinct across i and across families,
// so "absent" keys come from another family than the added ones.
inline std::string Key(uint64_t family, uint64_t i) {
  std::string key(16, '\0');
  for (int b = 0; b < 8; ++b) {
    key[b] = static_cast<char>(family >> (8 * b));
    key[8 + b] = static_cast<char>(i >> (8 * b));
  }
  return key;
}

inline constexpr uint64_t kAdded = 1;
inline constexpr uint64_t kAbsent = 2;

// A block holding Key(kAdded, 0..n-1).
inline std::string BuildBlock(const FilterOptions& options, uint64_t n) {
  absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(options);
  EXPECT_TRUE(builder.ok()) << builder.status();
  for (uint64_t i = 0; i < n; ++i) builder->AddKey(Key(kAdded, i));
  return builder->Finish();
}

// Share of Key(kAbsent, 0..queries-1) the reader lets through.
inline double FalsePositiveRate(const FilterReader& reader, uint64_t queries) {
  uint64_t positives = 0;
  for (uint64_t i = 0; i < queries; ++i) {
    positives += reader.MayMatch(Key(kAbsent, i));
  }
  return static_cast<double>(positives) / static_cast<double>(queries);
}

}  // namespace bloomgate::testing

#endif  // BLOOMGATE_TESTS_FILTER_TEST_UTIL_H_
