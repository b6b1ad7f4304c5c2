// Copyright 2026 The bloomgate Authors.
//
// How far a count of false positives may stray from its prediction before a
// test calls it wrong. Each query of an absent key is a Bernoulli trial with
// the filter's FP rate, so a count is a sum of such trials: its mean is the
// sum of the rates and its variance at most that mean. Bounds are the mean
// plus or minus `sigmas` standard deviations, plus one for tiny means; six
// sigmas fail spuriously about once in 10^9 runs.

#ifndef BLOOMGATE_TESTS_TESTING_FP_BOUNDS_H_
#define BLOOMGATE_TESTS_TESTING_FP_BOUNDS_H_

#include <algorithm>
#include <cmath>

namespace bloomgate::testing {

inline constexpr double kFpSigmas = 6;

// Bounds on the false positives among `trials` queries of absent keys of a
// filter whose FP rate is `p` (a binomial count).
inline double FpUpperBound(double p, double trials, double sigmas = kFpSigmas) {
  return trials * p + sigmas * std::sqrt(trials * p * (1 - p)) + 1;
}
inline double FpLowerBound(double p, double trials, double sigmas = kFpSigmas) {
  return std::max(0.0,
                  trials * p - sigmas * std::sqrt(trials * p * (1 - p)) - 1);
}

// The same for queries that met filters of different FP rates whose sum is
// `mean`: the variance is at most the mean.
inline double FpSumUpperBound(double mean, double sigmas = kFpSigmas) {
  return mean + sigmas * std::sqrt(mean) + 1;
}
inline double FpSumLowerBound(double mean, double sigmas = kFpSigmas) {
  return std::max(0.0, mean - sigmas * std::sqrt(mean) - 1);
}

}  // namespace bloomgate::testing

#endif  // BLOOMGATE_TESTS_TESTING_FP_BOUNDS_H_
