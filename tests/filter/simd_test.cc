// Copyright 2026 The bloomgate Authors.
//
// Choosing the SIMD kernel: names, the BLOOMGATE_SIMD rules, and that
// filters built and read under any supported kernel are the same filters.

#include "bloomgate/simd.h"

#include <cstdlib>
#include <string>
#include <vector>

#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/filter_reader.h"
#include "gtest/gtest.h"
#include "src/filter/kernel_choice.h"
#include "tests/filter/test_util.h"

namespace bloomgate {
namespace {

constexpr SimdKernel kAllKernels[] = {SimdKernel::kScalar, SimdKernel::kAvx2};

std::vector<SimdKernel> SupportedKernels() {
  std::vector<SimdKernel> kernels;
  for (SimdKernel kernel : kAllKernels) {
    if (SimdKernelSupported(kernel)) kernels.push_back(kernel);
  }
  return kernels;
}

// Puts the process's kernel back after each test.
class SimdTest : public ::testing::Test {
 protected:
  void TearDown() override { ASSERT_TRUE(SetSimdKernel(saved_).ok()); }
  const SimdKernel saved_ = ActiveSimdKernel();
};

TEST_F(SimdTest, NamesRoundTrip) {
  for (SimdKernel kernel : kAllKernels) {
    absl::StatusOr<SimdKernel> parsed = ParseSimdKernel(SimdKernelName(kernel));
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(*parsed, kernel);
  }
  for (const char* bad : {"", "AVX2", "avx", "sse2", "avx512"}) {
    absl::StatusOr<SimdKernel> parsed = ParseSimdKernel(bad);
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument)
        << '"' << bad << '"';
  }
}

TEST_F(SimdTest, ScalarIsAlwaysSupportedAndTheWidestIsSupported) {
  EXPECT_TRUE(SimdKernelSupported(SimdKernel::kScalar));
  EXPECT_TRUE(SimdKernelSupported(WidestSimdKernel()));
  for (SimdKernel kernel : SupportedKernels()) {
    EXPECT_LE(kernel, WidestSimdKernel()) << SimdKernelName(kernel);
  }
}

TEST_F(SimdTest, SetSimdKernelTakesExactlyTheSupportedKernels) {
  for (SimdKernel kernel : kAllKernels) {
    const SimdKernel before = ActiveSimdKernel();
    const absl::Status status = SetSimdKernel(kernel);
    if (SimdKernelSupported(kernel)) {
      ASSERT_TRUE(status.ok()) << status;
      EXPECT_EQ(ActiveSimdKernel(), kernel);
    } else {
      EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
      EXPECT_EQ(ActiveSimdKernel(), before);
    }
  }
}

TEST_F(SimdTest, EnvironmentValueSelectsASupportedKernelOrWarns) {
  for (const char* unset : {static_cast<const char*>(nullptr), ""}) {
    const internal::KernelChoice choice = internal::ChooseSimdKernel(unset);
    EXPECT_EQ(choice.kernel, WidestSimdKernel());
    EXPECT_EQ(choice.warning, "");
  }
  for (SimdKernel kernel : kAllKernels) {
    const std::string name(SimdKernelName(kernel));
    const internal::KernelChoice choice =
        internal::ChooseSimdKernel(name.c_str());
    if (SimdKernelSupported(kernel)) {
      EXPECT_EQ(choice.kernel, kernel);
      EXPECT_EQ(choice.warning, "");
    } else {
      EXPECT_EQ(choice.kernel, WidestSimdKernel());
      EXPECT_NE(choice.warning.find("BLOOMGATE_SIMD=" + name + " ignored"),
                std::string::npos)
          << choice.warning;
    }
  }
  const internal::KernelChoice typo = internal::ChooseSimdKernel("avx-512");
  EXPECT_EQ(typo.kernel, WidestSimdKernel());
  EXPECT_EQ(typo.warning,
            "BLOOMGATE_SIMD ignored: unknown SIMD kernel \"avx-512\" (known: "
            "scalar, avx2); using " +
                std::string(SimdKernelName(WidestSimdKernel())));
}

// tools/test runs every test under each kernel through the environment; this
// checks that the variable reaches the process. (ctest runs each test in a
// process of its own, and the tests here put the kernel back.)
TEST_F(SimdTest, TheProcessStartsOnTheKernelTheEnvironmentSelects) {
  EXPECT_EQ(saved_,
            internal::ChooseSimdKernel(std::getenv("BLOOMGATE_SIMD")).kernel);
}

// Builds under one kernel, reads under another: same bytes, same answers.
TEST_F(SimdTest, EveryKernelBuildsAndReadsTheSameFilters) {
  for (int k : {1, 6, 11, 16}) {
    for (uint64_t n : {uint64_t{1}, uint64_t{100}, uint64_t{30000}}) {
      FilterOptions options;
      options.num_probes = k;
      ASSERT_TRUE(SetSimdKernel(SimdKernel::kScalar).ok());
      const std::string scalar_block = testing::BuildBlock(options, n);
      const FilterReader scalar_reader(scalar_block);
      for (SimdKernel kernel : SupportedKernels()) {
        ASSERT_TRUE(SetSimdKernel(kernel).ok());
        const std::string block = testing::BuildBlock(options, n);
        ASSERT_EQ(block, scalar_block)
            << SimdKernelName(kernel) << ", k " << k << ", n " << n;
        const FilterReader reader(block);
        ASSERT_TRUE(reader.status().ok()) << reader.status();
        for (uint64_t i = 0; i < 2000; ++i) {
          const std::string key = testing::Key(testing::kAbsent, i);
          ASSERT_EQ(reader.MayMatch(key), scalar_reader.MayMatch(key))
              << SimdKernelName(kernel) << ", k " << k << ", n " << n;
        }
      }
    }
  }
}

}  // namespace
}  // namespace bloomgate
