// Copyright 2026 The bloomgate Authors.
//
// MeasureCosts: the mixed policy's probe times and Ribbon's overhead come
// from this machine and this RocksDB, and the overhead predicts what
// RocksDB's Ribbon filters do.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>

#include "bloomgate/allocation.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/slice.h"
#include "src/rocksdb/spec_filter_policy.h"

namespace bloomgate {
namespace {

std::string Key(uint64_t i) {
  std::string key(sizeof(i), '\0');
  std::memcpy(key.data(), &i, sizeof(i));
  return key;
}

// RocksDB keeps more slots per key as filters grow (its banding
// configuration), so the overhead rises with the file's keys.
TEST(CostInputsTest, RibbonsOverheadComesFromRocksDBPerFileSize) {
  double previous = 0;
  double first = 0;
  for (uint64_t keys : {uint64_t{1} << 13, uint64_t{1} << 16, uint64_t{1} << 20,
                        uint64_t{1} << 24}) {
    const double overhead = CostInputsFor(keys).ribbon_overhead;
    std::cout << "[ figures  ] Ribbon overhead at " << keys
              << " keys: " << overhead << "\n";
    EXPECT_GT(overhead, 0) << keys;
    EXPECT_LT(overhead, 0.15) << keys;
    EXPECT_GE(overhead, previous) << keys;
    if (first == 0) first = overhead;
    previous = overhead;
  }
  // From RocksDB, not a constant taken by mistake (kRibbonSlotOverhead is
  // the fallback where RocksDB builds no Ribbon filter): the overhead grows.
  EXPECT_GT(previous, first * 1.2);
  // One value per size class.
  EXPECT_EQ(CostInputsFor(50000).ribbon_overhead,
            CostInputsFor(50001).ribbon_overhead);
}

// The curve at the measured overhead predicts a real Ribbon filter's FP
// rate within what the curve promises (PredictedRibbonFpRate: up to 6%
// above it between whole columns) and the count's own noise.
TEST(CostInputsTest, TheOverheadPredictsRocksDBsRibbonFilters) {
  constexpr uint64_t kKeys = 20000;  // a 1 MiB file of small values
  constexpr uint64_t kQueries = 1 << 20;
  const double overhead = CostInputsFor(kKeys).ribbon_overhead;
  for (double parameter : {10.0, 14.0}) {
    SCOPED_TRACE(::testing::Message() << "parameter " << parameter);
    const FilterSpec spec{.family = FilterFamily::kRocksDBRibbon,
                          .bits_per_key = parameter};
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
        rocksdb_internal::NewSpecBitsBuilder(spec);
    ASSERT_NE(builder, nullptr);
    for (uint64_t i = 0; i < kKeys; ++i) builder->AddKey(Key(i));
    std::unique_ptr<const char[]> buf;
    const rocksdb::Slice block = builder->Finish(&buf);
    std::unique_ptr<rocksdb::FilterBitsReader> reader =
        rocksdb_internal::NewSpecBitsReader(spec, block);
    uint64_t positives = 0;
    for (uint64_t i = 0; i < kQueries; ++i) {
      positives += reader->MayMatch(Key(kKeys + i));
    }
    const double bits = 8.0 * static_cast<double>(block.size()) / kKeys;
    const double predicted = PredictedRibbonFpRate(bits, overhead);
    const double measured = static_cast<double>(positives) / kQueries;
    // Five standard deviations of a binomial count at the predicted rate.
    const double noise = 5 * std::sqrt(predicted / kQueries);
    std::cout << "[ figures  ] " << bits << " bits/key: FP " << measured
              << ", predicted " << predicted << "\n";
    EXPECT_LE(measured, predicted * 1.06 + noise);
    EXPECT_GE(measured, predicted - noise);
  }
}

TEST(CostInputsTest, ASpecsOwnProbeTimesWinOverTheDefaults) {
  absl::StatusOr<FilterSpec> spec =
      FilterSpec::Parse("bloomgate:10:monkey:mixed:probe_ns=12/40");
  ASSERT_TRUE(spec.ok()) << spec.status();
  const CostInputs inputs = CostInputsFor(50000);
  const LookupCostModel model = CostModelFor(*spec, inputs);
  ASSERT_EQ(model.families.size(), 2u);
  EXPECT_DOUBLE_EQ(model.families[0].probe_micros, 0.012);
  EXPECT_DOUBLE_EQ(model.families[1].probe_micros, 0.040);
  EXPECT_EQ(model.ribbon_overhead, inputs.ribbon_overhead);
  const LookupCostModel unset =
      CostModelFor(FilterSpec{.monkey = true, .mixed = true}, inputs);
  EXPECT_EQ(unset.families[0].probe_micros, kDefaultBloomgateProbeMicros);
  EXPECT_EQ(unset.families[1].probe_micros, kDefaultRocksDBRibbonProbeMicros);
}

}  // namespace
}  // namespace bloomgate
