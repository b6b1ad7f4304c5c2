// Copyright 2026 The bloomgate Authors.
//
// CreateFilterPolicyForSpec: the policy of every filter kind of the registry,
// as the tools and the benchmarks get it; SpecForMemory: every family at the
// same measured memory.

#include "src/rocksdb/spec_filter_policy.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"

namespace bloomgate::rocksdb_internal {
namespace {

TEST(SpecFilterPolicyTest, EveryKindHasItsPolicy) {
  for (const FilterKindInfo& kind : FilterKinds()) {
    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
        CreateFilterPolicyForSpec(kind.spec);
    ASSERT_TRUE(policy.ok()) << kind.name << ": " << policy.status();
    if (kind.spec.family == FilterFamily::kNone) {
      EXPECT_EQ(*policy, nullptr);
      continue;
    }
    ASSERT_NE(*policy, nullptr) << kind.name;
    const bool bloomgate = kind.spec.family == FilterFamily::kBloomgate;
    EXPECT_EQ(std::string((*policy)->CompatibilityName()) ==
                  kRocksDBCompatibilityName,
              bloomgate)
        << kind.name;
  }
}

TEST(SpecFilterPolicyTest, RejectsWhatTheBloomgatePolicyRejects) {
  EXPECT_FALSE(CreateFilterPolicyForSpec({.bits_per_key = 1000}).ok());
}

// Whatever the family, the filters of the spec SpecForMemory gives take the
// memory asked for, measured by building one: within 0.5%, the tools'
// mark of a run off its memory.
TEST(SpecFilterPolicyTest, EveryFamilyTakesTheMemoryAskedFor) {
  constexpr uint64_t kKeys = 20000;
  for (double bits : {6.0, 10.0, 14.0}) {
    for (const FilterKindInfo& kind : FilterKinds()) {
      if (kind.spec.family == FilterFamily::kNone) continue;
      absl::StatusOr<FilterSpec> spec = SpecForMemory(kind.spec, bits, {kKeys});
      ASSERT_TRUE(spec.ok()) << kind.name << ": " << spec.status();
      if (kind.spec.monkey) {  // a budget, which its allocation keeps
        EXPECT_EQ(spec->bits_per_key, bits) << spec->Name();
        continue;
      }
      absl::StatusOr<uint64_t> bytes = MeasureFilterBytes(*spec, kKeys);
      ASSERT_TRUE(bytes.ok()) << bytes.status();
      const double measured = static_cast<double>(*bytes) * 8 / kKeys;
      EXPECT_NEAR(measured, bits, bits * 0.005) << spec->Name();
      switch (kind.spec.family) {
        case FilterFamily::kRocksDBRibbon:
          // Its parameter is the Bloom filter it matches, which takes more.
          EXPECT_GT(spec->bits_per_key, bits * 1.2) << spec->Name();
          break;
        case FilterFamily::kBloomgate:
          // A block's header and whole lines come on top of the bits.
          EXPECT_LT(spec->bits_per_key, bits) << spec->Name();
          break;
        default:
          EXPECT_NEAR(spec->bits_per_key, bits, 0.1) << spec->Name();
      }
    }
  }
}

// What MeasureFilterBytes says of bloomgate's blocks is what the policy
// writes.
TEST(SpecFilterPolicyTest, BloomgatesMeasuredBytesAreItsBlocks) {
  for (const FilterSpec& spec : {FilterSpec{}, FilterSpec{.bits_per_key = 6.3,
                                               .layout = Layout::kStandard}}) {
    for (uint64_t keys : {1u, 999u, 20000u}) {
      std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
          rocksdb_internal::NewSpecBitsBuilder(spec);
      ASSERT_NE(builder, nullptr);
      for (uint64_t i = 0; i < keys; ++i) builder->AddKey(std::to_string(i));
      std::unique_ptr<const char[]> buf;
      EXPECT_EQ(*MeasureFilterBytes(spec, keys), builder->Finish(&buf).size())
          << spec.Name() << ", " << keys << " keys";
    }
  }
}

// Small filters cost Ribbon more per key: sized for a tree's files of many
// sizes, the memory over all of them is what was asked for.
TEST(SpecFilterPolicyTest, RibbonIsSizedOverFilesOfEverySize) {
  const FilterSpec ribbon{.family = FilterFamily::kRocksDBRibbon};
  // Files of fewer than a thousand keys too, which Ribbon builds as Bloom
  // filters: measured as they are.
  const std::vector<uint64_t> files = {300, 1500, 3000, 3000, 12000, 40000};
  absl::StatusOr<FilterSpec> spec = SpecForMemory(ribbon, 10, files);
  ASSERT_TRUE(spec.ok()) << spec.status();
  uint64_t bytes = 0, keys = 0;
  for (uint64_t n : files) {
    bytes += *MeasureFilterBytes(*spec, n);
    keys += n;
  }
  EXPECT_NEAR(static_cast<double>(bytes) * 8 / static_cast<double>(keys), 10,
              0.05);
  // And so are bloomgate's and RocksDB's Bloom filters.
  for (const FilterSpec& kind :
       {FilterSpec{}, FilterSpec{.family = FilterFamily::kRocksDBBloom}}) {
    absl::StatusOr<FilterSpec> sized = SpecForMemory(kind, 10, files);
    ASSERT_TRUE(sized.ok()) << sized.status();
    uint64_t kind_bytes = 0;
    for (uint64_t n : files) kind_bytes += *MeasureFilterBytes(*sized, n);
    EXPECT_NEAR(static_cast<double>(kind_bytes) * 8 / static_cast<double>(keys),
                10, 0.05)
        << sized->Name();
  }
}

// The parameter read back from the spec's name gives the same filter.
TEST(SpecFilterPolicyTest, RibbonsParameterReadsBackFromItsName) {
  const FilterSpec ribbon{.family = FilterFamily::kRocksDBRibbon};
  absl::StatusOr<FilterSpec> spec = SpecForMemory(ribbon, 10, {20000});
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::StatusOr<FilterSpec> parsed = FilterSpec::Parse(spec->Name());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, *spec);
}

TEST(SpecFilterPolicyTest, MemoryOutsideWhatAFamilyTakesIsRefused) {
  const FilterSpec ribbon{.family = FilterFamily::kRocksDBRibbon};
  EXPECT_EQ(SpecForMemory(ribbon, 0.2, {20000}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SpecForMemory(ribbon, 99, {20000}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SpecForMemory(FilterSpec{}, 1000, {20000}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SpecForMemory(kNoFilter, 10, {20000})->family, FilterFamily::kNone);
  EXPECT_EQ(SpecForMemory(ribbon, 10, {}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(*MeasureFilterBytes(kNoFilter, 100), 0u);
  EXPECT_EQ(*MeasureFilterBytes(FilterSpec{}, 0), 0u);
}

}  // namespace
}  // namespace bloomgate::rocksdb_internal
