// Copyright 2026 The bloomgate Authors.

#include <string>
#include <vector>

#include "bloomgate/filter_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tools/sizer/explain.h"
#include "tools/sizer/size.h"

namespace bloomgate::tools {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TextbookPositionsTest, MatchTheTextbookExample) {
  // 004_*.txt prints [11, 2, 8] for "elk"; SHA-256 says otherwise.
  EXPECT_THAT(TextbookPositions("dog", 12, 3), ElementsAre(9, 3, 10));
  EXPECT_THAT(TextbookPositions("pig", 12, 3), ElementsAre(8, 9, 1));
  EXPECT_THAT(TextbookPositions("elk", 12, 3), ElementsAre(8, 1, 7));
  EXPECT_THAT(TextbookPositions("rat", 12, 3), ElementsAre(8, 10, 3));
}

TEST(ExplainTest, VerdictsFollowTheBits) {
  ExplainRequest request;
  request.num_bits = 12;
  request.num_probes = 3;
  request.add = {"dog", "pig"};
  request.query = {"elk", "rat", "pig"};
  absl::StatusOr<std::string> text = Explain(request);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_THAT(*text, HasSubstr("bit 7 is 0 -> definitely absent"));
  EXPECT_THAT(*text, HasSubstr("a false positive"));
  EXPECT_THAT(*text, HasSubstr("(it was added)"));
  EXPECT_THAT(*text, HasSubstr("(5 of 12 set)"));
}

TEST(ExplainTest, RejectsOutOfRange) {
  ExplainRequest request;
  request.num_bits = 0;
  request.num_probes = 3;
  EXPECT_FALSE(Explain(request).ok());
  request.num_bits = 12;
  request.num_probes = 0;
  EXPECT_FALSE(Explain(request).ok());
}

TEST(ComputeSizeTest, FromFpRate) {
  SizeRequest request;
  request.num_keys = 10'000;
  request.fp_rate = 0.01;
  absl::StatusOr<SizeReport> report = ComputeSize(request);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->bits, 95851u);
  EXPECT_EQ(report->k, 7);
  EXPECT_EQ(report->bytes, 11982u);
  EXPECT_EQ(HumanBytes(report->bytes), "11.7 KiB (11982 bytes)");
  EXPECT_NEAR(report->fp_standard, 0.01, 0.0005);
  EXPECT_GT(report->fp_blocked, report->fp_standard);
  EXPECT_EQ(report->bytes_blocked % 64, 0u);
}

TEST(ComputeSizeTest, FromBitsPerKey) {
  SizeRequest request;
  request.num_keys = 1'000'000;
  request.bits_per_key = 10;
  absl::StatusOr<SizeReport> report = ComputeSize(request);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->bits, 10'000'000u);
  EXPECT_EQ(report->k, 7);
  EXPECT_NEAR(report->fp_standard, 0.00819, 0.00001);
  EXPECT_THAT(FormatSizeJson(*report), HasSubstr("\"bits\": 10000000"));
}

// --json: one object whose fields are the report's, in the documented order.
TEST(ComputeSizeTest, JsonHoldsTheReportInOrder) {
  SizeRequest request;
  request.num_keys = 10'000;
  request.fp_rate = 0.01;
  absl::StatusOr<SizeReport> report = ComputeSize(request);
  ASSERT_TRUE(report.ok());
  const nlohmann::ordered_json json =
      nlohmann::ordered_json::parse(FormatSizeJson(*report));
  std::vector<std::string> keys;
  for (const auto& [key, value] : json.items()) keys.push_back(key);
  EXPECT_THAT(keys, ::testing::ElementsAre("n", "bits", "bits_per_key", "k",
                                           "bytes", "fp_standard", "k_blocked",
                                           "bytes_blocked", "fp_blocked"));
  EXPECT_EQ(json["n"], report->num_keys);
  EXPECT_EQ(json["bits"], report->bits);
  EXPECT_EQ(json["bits_per_key"], report->bits_per_key);
  EXPECT_EQ(json["k"], report->k);
  EXPECT_EQ(json["bytes"], report->bytes);
  EXPECT_EQ(json["fp_standard"], report->fp_standard);
  EXPECT_EQ(json["k_blocked"], report->k_blocked);
  EXPECT_EQ(json["bytes_blocked"], report->bytes_blocked);
  EXPECT_EQ(json["fp_blocked"], report->fp_blocked);
}

TEST(ComputeSizeTest, RejectsWhatNoFilterBlockCanHold) {
  SizeRequest request;
  request.num_keys = 1'000'000'000;
  request.fp_rate = 1e-300;  // 1438 bits/key, k = 997
  absl::StatusOr<SizeReport> report = ComputeSize(request);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(absl::IsInvalidArgument(report.status()));
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("at most 100 bits/key and 32 probes"));

  // 57.5 bits/key and k = 40 by the formulas: 32 probes and a few more bits
  // reach the same rate.
  request.fp_rate = 1e-12;
  report = ComputeSize(request);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->k, 32);
  EXPECT_TRUE(report->k_capped);
  EXPECT_GT(report->bits_per_key, 57.5);
  EXPECT_LT(report->bits_per_key, 100);
  EXPECT_NEAR(report->fp_standard / 1e-12, 1.0, 0.01);
  EXPECT_THAT(FormatSizeText(*report), HasSubstr("the format's most"));

  request.fp_rate = 1e-9;  // 43.1 bits/key, k = 30: as the formulas say
  report = ComputeSize(request);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->k, 30);
  EXPECT_FALSE(report->k_capped);
}

// The standard layout as FilterBuilder allocates it: a few keys still get
// the layout's smallest array, 64 bits, and the FP rate it gives.
TEST(ComputeSizeTest, SmallFiltersHaveTheLayoutsMinimumSize) {
  SizeRequest request;
  request.num_keys = 3;
  request.bits_per_key = 2.5;
  absl::StatusOr<SizeReport> report = ComputeSize(request);
  ASSERT_TRUE(report.ok()) << report.status();
  const FilterSpec standard{.bits_per_key = 2.5, .layout = Layout::kStandard};
  EXPECT_EQ(report->bits, standard.BitsFor(3));
  EXPECT_EQ(report->bits, 64u);
  EXPECT_EQ(report->bytes, 8u);
  EXPECT_DOUBLE_EQ(report->fp_standard, standard.PredictedFpRate(3));

  request.bits_per_key.reset();
  request.fp_rate = 0.5;
  request.num_keys = 1;
  report = ComputeSize(request);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->bits, 64u);
}

TEST(ComputeSizeTest, RejectsAmbiguousOrMissingTargets) {
  SizeRequest request;
  request.num_keys = 100;
  EXPECT_FALSE(ComputeSize(request).ok());
  request.fp_rate = 0.01;
  request.bits_per_key = 10;
  EXPECT_FALSE(ComputeSize(request).ok());
  request.bits_per_key.reset();
  request.num_keys = 0;
  EXPECT_FALSE(ComputeSize(request).ok());
}

}  // namespace
}  // namespace bloomgate::tools
