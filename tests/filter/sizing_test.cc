// Copyright 2026 The bloomgate Authors.

#include "bloomgate/sizing.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace bloomgate {
namespace {

TEST(CalculateParamsTest, MatchesTheSeedArticles) {
  absl::StatusOr<BloomParams> billion = CalculateParams(1'000'000'000, 0.01);
  ASSERT_TRUE(billion.ok()) << billion.status();
  EXPECT_EQ(billion->num_bits, 9585058378u);
  EXPECT_EQ(billion->num_probes, 7);

  absl::StatusOr<BloomParams> small = CalculateParams(10'000, 0.01);
  ASSERT_TRUE(small.ok()) << small.status();
  EXPECT_EQ(small->num_bits, 95851u);  // 11.7 KB
  EXPECT_EQ(small->num_probes, 7);
}

TEST(CalculateParamsTest, RejectsBadArguments) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(CalculateParams(0, 0.01).status().code(),
            absl::StatusCode::kInvalidArgument);
  for (double fp : {0.0, 1.0, -0.5, 1.5, nan}) {
    EXPECT_EQ(CalculateParams(100, fp).status().code(),
              absl::StatusCode::kInvalidArgument)
        << fp;
    EXPECT_FALSE(BitsPerKeyForFpRate(fp).ok()) << fp;
  }
  EXPECT_EQ(CalculateParams(UINT64_MAX, 1e-300).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST(BitsPerKeyForFpRateTest, IsTheTextbookFormula) {
  EXPECT_NEAR(*BitsPerKeyForFpRate(0.01), 9.585058, 1e-6);
}

TEST(PredictedFpRateTest, StandardIsTheTextbookFormula) {
  EXPECT_NEAR(PredictedFpRate(Layout::kStandard, 10, 7), 0.008193722, 1e-9);
  EXPECT_NEAR(PredictedFpRate(Layout::kStandard, 10, 7),
              std::pow(1 - std::exp(-0.7), 7), 1e-15);
}

TEST(PredictedFpRateTest, BlockedCostsALittleMoreThanStandard) {
  // At each layout's best probe count. (Not for every k: with one probe,
  // Jensen's inequality favours the blocked layout.)
  for (double bits : {4.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0}) {
    const double blocked = PredictedFpRate(
        Layout::kBlocked, bits, OptimalNumProbes(Layout::kBlocked, bits));
    const double standard = PredictedFpRate(
        Layout::kStandard, bits, OptimalNumProbes(Layout::kStandard, bits));
    EXPECT_GT(blocked, standard) << bits << " bits/key";
    EXPECT_LT(blocked, 3 * standard) << bits << " bits/key";
  }
  // RocksDB's bloom_impl.h gives 0.9535% for 6 probes at 10 bits/key in
  // 512-bit lines; this model agrees to within its rounding.
  EXPECT_NEAR(PredictedFpRate(Layout::kBlocked, 10, 6), 0.00955, 0.00005);
}

TEST(PredictedFpRateTest, DegenerateArguments) {
  EXPECT_EQ(PredictedFpRate(Layout::kBlocked, 0, 3), 1.0);
  EXPECT_EQ(PredictedFpRate(Layout::kStandard, 10, 0), 1.0);
  EXPECT_TRUE(std::isnan(PredictedFpRate(
      Layout::kStandard, std::numeric_limits<double>::quiet_NaN(), 3)));
}

TEST(OptimalNumProbesTest, MinimisesThePrediction) {
  EXPECT_EQ(OptimalNumProbes(Layout::kStandard, 10), 7);
  EXPECT_EQ(OptimalNumProbes(Layout::kStandard, 9.9), 7);
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    for (double bits = 1; bits <= 30; bits += 0.5) {
      const int k = OptimalNumProbes(layout, bits);
      const double best = PredictedFpRate(layout, bits, k);
      for (int other = 1; other <= 16; ++other) {
        EXPECT_GE(PredictedFpRate(layout, bits, other), best * (1 - 1e-9))
            << LayoutName(layout) << " " << bits << " k=" << other;
      }
    }
  }
}

}  // namespace
}  // namespace bloomgate
