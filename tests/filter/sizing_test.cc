// Copyright 2026 The bloomgate Authors.

#include "bloomgate/sizing.h"

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace bloomgate {
namespace {

TEST(CalculateParamsTest, MatchesTheTextbookFigures) {
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
}

// The blocked prediction by another road: inclusion-exclusion over which of
// the query's distinct bits stay clear, in long double. It cancels badly when
// the answer is tiny, so it is only a check at moderate bits per key.
long double InclusionExclusionBlockedFp(double bits_per_key, int k) {
  constexpr long double kBits = 512;
  // distinct[d]: chance that k uniform probes hit d distinct bits.
  std::vector<long double> distinct(k + 1, 0);
  distinct[0] = 1;
  for (int probe = 0; probe < k; ++probe) {
    for (int d = probe + 1; d >= 1; --d) {
      distinct[d] =
          distinct[d] * d / kBits + distinct[d - 1] * (kBits - d + 1) / kBits;
    }
    distinct[0] = 0;
  }
  const long double mean = kBits / bits_per_key;
  long double fp = 0;
  long double poisson = std::exp(-mean);  // P(c keys in the line), c = 0
  for (int c = 0; c < 20 * mean + 200; ++c) {
    long double all_set = 0;  // P(the query's d distinct bits are all set)
    for (int d = 1; d <= k; ++d) {
      long double sum = 0, binomial = 1;
      for (int i = 0; i <= d; ++i) {
        sum += (i % 2 ? -1 : 1) * binomial *
               std::pow(1 - i / kBits, static_cast<long double>(k) * c);
        binomial = binomial * (d - i) / (i + 1);
      }
      all_set += distinct[d] * sum;
    }
    fp += poisson * all_set;
    poisson *= mean / (c + 1);
  }
  return fp;
}

TEST(PredictedFpRateTest, BlockedIsExactForIndependentProbes) {
  for (auto [bits, k] : {std::pair{10.0, 6}, {10.0, 7}, {6.0, 4}, {16.0, 9}}) {
    const double expected =
        static_cast<double>(InclusionExclusionBlockedFp(bits, k));
    EXPECT_NEAR(PredictedFpRate(Layout::kBlocked, bits, k), expected,
                1e-7 * expected)
        << bits << " bits/key, k = " << k;
  }
  // RocksDB's bloom_impl.h (CacheLocalFpRate) and the textbook formula inside
  // a line give 0.9535-0.957% at 10 bits/key and 6 probes; averaging the
  // k-th power, not powering the average, adds about 1%.
  EXPECT_NEAR(PredictedFpRate(Layout::kBlocked, 10, 6), 0.0096647, 1e-7);
}

TEST(PredictedFpRateTest, DegenerateArguments) {
  EXPECT_EQ(PredictedFpRate(Layout::kBlocked, 0, 3), 1.0);
  EXPECT_EQ(PredictedFpRate(Layout::kStandard, 10, 0), 1.0);
  EXPECT_TRUE(std::isnan(PredictedFpRate(
      Layout::kStandard, std::numeric_limits<double>::quiet_NaN(), 3)));
}

// A filter's prediction is the formula at its own bits per key, with the
// ends an empty filter and an empty bit array give.

TEST(PredictedFilterFpRateTest, IsTheFormulaAtTheFiltersBitsPerKey) {
  EXPECT_EQ(PredictedFilterFpRate(Layout::kBlocked, 1000, 10240, 6),
            PredictedFpRate(Layout::kBlocked, 10.24, 6));
  EXPECT_EQ(PredictedFilterFpRate(Layout::kStandard, 3, 64, 5),
            PredictedFpRate(Layout::kStandard, 64.0 / 3, 5));
  EXPECT_EQ(PredictedFilterFpRate(Layout::kBlocked, 0, 0, 6), 0.0);
  EXPECT_EQ(PredictedFilterFpRate(Layout::kBlocked, 10, 0, 6), 1.0);
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
