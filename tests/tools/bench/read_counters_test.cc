// Copyright 2026 The bloomgate Authors.

#include "tools/bench/read_counters.h"

#include <set>
#include <string_view>

#include "gtest/gtest.h"

namespace bloomgate::bench {
namespace {

// Each row names a field of its own, under a name of its own: a row copied
// and half edited would report one counter twice.
TEST(ReadCountersTest, EveryRowIsItsOwnCounter) {
  std::set<std::string_view> names;
  for (const ReadCounterField& field : kReadCounterFields) {
    EXPECT_TRUE(names.insert(field.name).second) << field.name;
    EXPECT_FALSE(field.description.empty()) << field.name;
    ReadCounters counters;
    counters.*field.count = 1;
    int set = 0;
    for (const ReadCounterField& other : kReadCounterFields) {
      set += counters.*other.count == 1;
    }
    EXPECT_EQ(set, 1) << field.name;
  }
}

TEST(ReadCountersTest, DeltaIsCounterByCounterWithTheLaterFlags) {
  ReadCounters before, after;
  uint64_t value = 1;
  for (const ReadCounterField& field : kReadCounterFields) {
    before.*field.count = value;
    after.*field.count = 3 * value + 1;
    ++value;
  }
  after.files_on_path_known = true;
  before.read_nanos_known = true;
  const ReadCounters delta = CounterDelta(before, after);
  for (const ReadCounterField& field : kReadCounterFields) {
    EXPECT_EQ(delta.*field.count, after.*field.count - before.*field.count)
        << field.name;
  }
  EXPECT_TRUE(delta.files_on_path_known);
  EXPECT_FALSE(delta.read_nanos_known);
}

}  // namespace
}  // namespace bloomgate::bench
