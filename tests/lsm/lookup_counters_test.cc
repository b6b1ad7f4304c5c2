// Copyright 2026 The bloomgate Authors.

#include <set>
#include <string_view>

#include "bloomgate/lsm/stats.h"
#include "gtest/gtest.h"

namespace bloomgate::lsm {
namespace {

// Each row names a field of its own, under a name of its own: a row copied
// and half edited would report one counter twice.
TEST(LookupCountersTest, EveryRowIsItsOwnCounter) {
  std::set<std::string_view> names;
  for (const auto& field : kLookupCounterFields) {
    EXPECT_TRUE(names.insert(field.name).second) << field.name;
    EXPECT_FALSE(field.description.empty()) << field.name;
    LookupCounters counters;
    counters.*field.count = 1;
    int set = 0;
    for (const auto& other : kLookupCounterFields) {
      set += counters.*other.count == 1;
    }
    EXPECT_EQ(set, 1) << field.name;
  }
}

TEST(LookupCountersTest, DeltaIsCounterByCounterWithTheLaterFlags) {
  LookupCounters before, after;
  uint64_t value = 1;
  for (const auto& field : kLookupCounterFields) {
    before.*field.count = value;
    after.*field.count = 3 * value + 1;
    ++value;
  }
  after.files_on_path_known = true;
  before.read_nanos_known = true;
  const LookupCounters delta = after.Since(before);
  for (const auto& field : kLookupCounterFields) {
    EXPECT_EQ(delta.*field.count, after.*field.count - before.*field.count)
        << field.name;
  }
  EXPECT_TRUE(delta.files_on_path_known);
  EXPECT_FALSE(delta.read_nanos_known);
}

// The store's lookup counters over all levels: files on the path are the
// files considered less those their key range excluded.
TEST(LookupCountersTest, TheStoreDerivesThemFromItsTotals) {
  IoStats stats;
  stats.total.files_considered = 10;
  stats.total.skipped_by_range = 3;
  stats.total.filter_checks = 6;
  stats.total.filter_negatives = 4;
  stats.total.filter_positives = 2;
  stats.total.false_positives = 1;
  stats.total.data_block_read_nanos = 900;
  stats.hit_reads = 5;
  stats.miss_reads = 2;
  const LookupCounters c = stats.Lookups();
  EXPECT_EQ(c.files_on_path, 7u);
  EXPECT_EQ(c.filter_checks, 6u);
  EXPECT_EQ(c.filter_negatives, 4u);
  EXPECT_EQ(c.filter_positives, 2u);
  EXPECT_EQ(c.false_positives, 1u);
  EXPECT_EQ(c.hit_reads, 5u);
  EXPECT_EQ(c.miss_reads, 2u);
  EXPECT_EQ(c.data_block_read_nanos, 900u);
  EXPECT_TRUE(c.files_on_path_known);
  EXPECT_TRUE(c.read_nanos_known);
}

}  // namespace
}  // namespace bloomgate::lsm
