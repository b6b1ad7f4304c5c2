// Copyright 2026 The bloomgate Authors.
//
// The measured FP rate against the formula, both ways: a filter that
// rejects too little is broken, and one that rejects "too much" means the
// prediction (and every figure built on it) is wrong.

#include <cmath>
#include <string>

#include "bloomgate/filter_reader.h"
#include "bloomgate/sizing.h"
#include "gtest/gtest.h"
#include "tests/filter/test_util.h"
#include "tests/testing/fp_bounds.h"

namespace bloomgate {
namespace {

struct FpCase {
  Layout layout;
  double bits_per_key;
};

class FpRateTest : public ::testing::TestWithParam<FpCase> {};

TEST_P(FpRateTest, WithinSixSigmaOfThePrediction) {
  constexpr uint64_t kKeys = 100'000;
  constexpr uint64_t kQueries = 400'000;
  FilterOptions options;
  options.layout = GetParam().layout;
  options.bits_per_key = GetParam().bits_per_key;
  const std::string block = testing::BuildBlock(options, kKeys);
  FilterReader reader(block);
  ASSERT_TRUE(reader.status().ok());

  // Predict from the memory the filter really has (the blocked layout rounds
  // up to whole lines).
  const double p = PredictedFpRate(options.layout, reader.bits_per_key(),
                                   reader.num_probes());
  const double observed =
      testing::FalsePositiveRate(reader, kQueries) * kQueries;
  EXPECT_LE(observed, testing::FpUpperBound(p, kQueries)) << "predicted " << p;
  EXPECT_GE(observed, testing::FpLowerBound(p, kQueries)) << "predicted " << p;
}

INSTANTIATE_TEST_SUITE_P(
    BitsPerKey, FpRateTest,
    ::testing::Values(
        FpCase{Layout::kBlocked, 6}, FpCase{Layout::kBlocked, 8},
        FpCase{Layout::kBlocked, 10}, FpCase{Layout::kBlocked, 12},
        FpCase{Layout::kBlocked, 16}, FpCase{Layout::kBlocked, 20},
        FpCase{Layout::kStandard, 6}, FpCase{Layout::kStandard, 8},
        FpCase{Layout::kStandard, 10}, FpCase{Layout::kStandard, 12},
        FpCase{Layout::kStandard, 16}, FpCase{Layout::kStandard, 20}),
    [](const auto& info) {
      return std::string(LayoutName(info.param.layout)) + "_" +
             std::to_string(static_cast<int>(info.param.bits_per_key));
    });

}  // namespace
}  // namespace bloomgate
