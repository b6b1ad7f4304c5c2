// Copyright 2026 The bloomgate Authors.
//
// The FilterBitsBuilder/FilterBitsReader adapters on their own, without a DB.

#include "src/rocksdb/filter_bits.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bloomgate/filter_reader.h"
#include "bloomgate/sizing.h"
#include "gtest/gtest.h"

namespace bloomgate::rocksdb_internal {
namespace {

std::string Key(uint64_t i) { return "key" + std::to_string(i); }
std::string MissingKey(uint64_t i) { return "missing" + std::to_string(i); }

// Adds keys [0, n) and finishes; `block` owns the bytes.
rocksdb::Slice Build(rocksdb::FilterBitsBuilder& builder, uint64_t n,
                     std::unique_ptr<const char[]>* block) {
  for (uint64_t i = 0; i < n; ++i) builder.AddKey(Key(i));
  rocksdb::Status s;
  rocksdb::Slice contents = builder.Finish(block, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return contents;
}

std::unique_ptr<rocksdb::FilterBitsBuilder> MustBuilder(
    const FilterOptions& options, bool verify = false) {
  absl::StatusOr<std::unique_ptr<rocksdb::FilterBitsBuilder>> builder =
      NewFilterBitsBuilder(options, verify);
  EXPECT_TRUE(builder.ok()) << builder.status();
  return builder.ok() ? *std::move(builder) : nullptr;
}

// Upper bound on the number of false positives among `queries` missing keys
// for a filter whose predicted FP rate is `p`: the binomial mean plus six
// standard deviations (a spurious failure about once in 10^9 runs), plus one
// for tiny means.
double FpBound(double p, int queries) {
  return queries * p + 6.0 * std::sqrt(queries * p * (1.0 - p)) + 1.0;
}

class FilterBitsLayoutTest : public testing::TestWithParam<Layout> {};

TEST_P(FilterBitsLayoutTest, NoFalseNegativesAndFpRateNearFormula) {
  const FilterOptions options{.bits_per_key = 10.0, .layout = GetParam()};
  auto builder = MustBuilder(options);
  ASSERT_NE(builder, nullptr);
  constexpr uint64_t kKeys = 20000;
  constexpr int kQueries = 100000;
  std::unique_ptr<const char[]> block;
  const rocksdb::Slice contents = Build(*builder, kKeys, &block);
  auto reader = NewFilterBitsReader(contents);

  for (uint64_t i = 0; i < kKeys; ++i) {
    ASSERT_TRUE(reader->MayMatch(Key(i))) << "false negative: " << Key(i);
  }
  int false_positives = 0;
  for (int i = 0; i < kQueries; ++i) {
    false_positives += reader->MayMatch(MissingKey(i));
  }
  const FilterReader core(std::string_view(contents.data(), contents.size()));
  ASSERT_FALSE(core.degraded()) << core.status();
  const double p =
      PredictedFpRate(GetParam(), core.bits_per_key(), core.num_probes());
  EXPECT_LE(false_positives, FpBound(p, kQueries));
  // And it really filters: far below "may match everything".
  EXPECT_GT(false_positives, 0);
  EXPECT_LT(false_positives, kQueries / 50) << "filter not taking effect?";
}

TEST_P(FilterBitsLayoutTest, BatchedMayMatchEqualsSingleQueries) {
  const FilterOptions options{.bits_per_key = 6.0, .layout = GetParam()};
  auto builder = MustBuilder(options);
  ASSERT_NE(builder, nullptr);
  std::unique_ptr<const char[]> block;
  auto reader = NewFilterBitsReader(Build(*builder, 3000, &block));

  // Mixed present and missing keys, in batch sizes around the chunk size
  // (64) and MultiGet's 32.
  for (int batch : {1, 7, 32, 63, 64, 65, 200}) {
    std::vector<std::string> keys;
    for (int i = 0; i < batch; ++i) {
      keys.push_back(i % 3 == 0 ? Key(i * 11) : MissingKey(i * 13 + batch));
    }
    std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
    std::vector<rocksdb::Slice*> pointers;
    for (auto& s : slices) pointers.push_back(&s);
    std::unique_ptr<bool[]> results(new bool[batch]);
    reader->MayMatch(batch, pointers.data(), results.get());
    for (int i = 0; i < batch; ++i) {
      EXPECT_EQ(results[i], reader->MayMatch(keys[i]))
          << "batch " << batch << " key " << keys[i];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, FilterBitsLayoutTest,
                         testing::Values(Layout::kBlocked, Layout::kStandard),
                         [](const testing::TestParamInfo<Layout>& info) {
                           return std::string(LayoutName(info.param));
                         });

TEST(FilterBitsTest, RepeatedKeysCountOnce) {
  auto builder = MustBuilder({});
  ASSERT_NE(builder, nullptr);
  for (const char* key : {"a", "a", "b", "c", "c", "c"}) builder->AddKey(key);
  EXPECT_EQ(builder->EstimateEntriesAdded(), 3u);
  std::unique_ptr<const char[]> block;
  const rocksdb::Slice contents = builder->Finish(&block);
  EXPECT_EQ(builder->EstimateEntriesAdded(), 0u) << "Finish empties";
  const FilterReader core(std::string_view(contents.data(), contents.size()));
  EXPECT_EQ(core.num_keys(), 3u);
}

TEST(FilterBitsTest, ReadsBlocksOfEveryConfiguration) {
  // Whatever the writer's options, the block carries them: one reader type
  // reads all.
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    for (double bits : {1.0, 4.5, 10.0, 23.0}) {
      auto builder = MustBuilder({.bits_per_key = bits, .layout = layout});
      ASSERT_NE(builder, nullptr);
      std::unique_ptr<const char[]> block;
      auto reader = NewFilterBitsReader(Build(*builder, 500, &block));
      for (uint64_t i = 0; i < 500; ++i) {
        ASSERT_TRUE(reader->MayMatch(Key(i))) << LayoutName(layout) << bits;
      }
    }
  }
}

TEST(FilterBitsTest, EmptyFilterMatchesNothing) {
  auto builder = MustBuilder({});
  ASSERT_NE(builder, nullptr);
  std::unique_ptr<const char[]> block;
  auto reader = NewFilterBitsReader(Build(*builder, 0, &block));
  EXPECT_FALSE(reader->MayMatch("anything"));
}

TEST(FilterBitsTest, DamagedBytesDegradeToMayMatch) {
  auto builder = MustBuilder({});
  ASSERT_NE(builder, nullptr);
  std::unique_ptr<const char[]> block;
  const rocksdb::Slice contents = Build(*builder, 1000, &block);
  std::string bytes = contents.ToString();

  std::vector<std::string> damaged = {"",
                                      "x",
                                      bytes.substr(0, 10),
                                      bytes.substr(0, bytes.size() - 1),
                                      bytes + "extra",
                                      std::string(64, '\0')};
  for (size_t pos : {size_t{0}, bytes.size() / 2, bytes.size() - 1}) {
    std::string flipped = bytes;
    flipped[pos] ^= 0x10;
    damaged.push_back(flipped);
  }
  for (const std::string& d : damaged) {
    auto reader = NewFilterBitsReader(d);
    EXPECT_TRUE(static_cast<BitsReader*>(reader.get())->reader().degraded());
    for (int i = 0; i < 100; ++i) {
      EXPECT_TRUE(reader->MayMatch(MissingKey(i)));
    }
    const std::string missing = MissingKey(7);
    rocksdb::Slice one(missing);
    rocksdb::Slice* keys[1] = {&one};
    bool result = false;
    reader->MayMatch(1, keys, &result);
    EXPECT_TRUE(result);
  }
}

TEST(FilterBitsTest, ApproximateNumEntriesInvertsBlockSize) {
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    auto builder = MustBuilder({.bits_per_key = 10.0, .layout = layout});
    ASSERT_NE(builder, nullptr);
    EXPECT_EQ(builder->ApproximateNumEntries(0), 0u);
    for (size_t bytes : {size_t{40}, size_t{100}, size_t{4096}, size_t{1} << 20,
                         size_t{1} << 30}) {
      const size_t n = builder->ApproximateNumEntries(bytes);
      auto* bits = static_cast<BitsBuilder*>(builder.get());
      absl::StatusOr<FilterBuilder> core =
          FilterBuilder::Create(bits->options());
      ASSERT_TRUE(core.ok());
      EXPECT_LE(core->BlockSize(n), bytes);
      EXPECT_GT(core->BlockSize(n + 1), bytes);
      // About bytes * 8 / 10 keys once the fixed trailer is negligible.
      if (bytes >= 4096) {
        EXPECT_GT(static_cast<double>(n), bytes * 8 / 10.0 * 0.9);
      }
    }
  }
}

TEST(FilterBitsTest, InvalidOptionsAreRejected) {
  EXPECT_FALSE(NewFilterBitsBuilder({.bits_per_key = 0.0}).ok());
  EXPECT_FALSE(NewFilterBitsBuilder({.bits_per_key = std::nan("")}).ok());
  EXPECT_FALSE(NewFilterBitsBuilder({.bits_per_key = 1000.0}).ok());
  EXPECT_FALSE(NewFilterBitsBuilder({.num_probes = -1}).ok());
  EXPECT_EQ(NewFilterBitsBuilder({.bits_per_key = 0.0}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(FilterBitsTest, PostVerifyAcceptsTheBuiltBlockOnly) {
  auto builder = MustBuilder({}, /*verify=*/true);
  ASSERT_NE(builder, nullptr);
  std::unique_ptr<const char[]> block;
  const std::string good = Build(*builder, 2000, &block).ToString();
  EXPECT_TRUE(builder->MaybePostVerify(good).ok());
  // RocksDB verifies each partition twice; the second call has nothing left
  // to check.
  EXPECT_TRUE(builder->MaybePostVerify(good).ok());

  // A block damaged after construction.
  Build(*builder, 2000, &block);
  std::string damaged = good;
  damaged[damaged.size() / 3] ^= 0x01;
  EXPECT_TRUE(builder->MaybePostVerify(damaged).IsCorruption());

  // A valid block of other keys: same count, but it misses ours.
  auto other = MustBuilder({});
  std::unique_ptr<const char[]> other_block;
  for (int i = 0; i < 2000; ++i) other->AddKey(MissingKey(i));
  const rocksdb::Slice other_contents = other->Finish(&other_block);
  Build(*builder, 2000, &block);
  EXPECT_TRUE(builder->MaybePostVerify(other_contents).IsCorruption());

  // Without verification nothing is checked.
  auto plain = MustBuilder({}, /*verify=*/false);
  Build(*plain, 10, &block);
  EXPECT_TRUE(plain->MaybePostVerify(damaged).ok());
}

TEST(FilterBitsTest, BuiltinFiltersThroughTheSameInterface) {
  for (BuiltinFilter kind : {BuiltinFilter::kBloom, BuiltinFilter::kRibbon}) {
    auto builder = NewBuiltinFilterBitsBuilder(kind, 10.0);
    ASSERT_NE(builder, nullptr);
    std::unique_ptr<const char[]> block;
    auto reader = NewBuiltinFilterBitsReader(Build(*builder, 5000, &block));
    ASSERT_NE(reader, nullptr);
    for (uint64_t i = 0; i < 5000; ++i) ASSERT_TRUE(reader->MayMatch(Key(i)));
    int false_positives = 0;
    for (int i = 0; i < 10000; ++i) {
      false_positives += reader->MayMatch(MissingKey(i));
    }
    EXPECT_LT(false_positives, 10000 / 50);
  }
}

}  // namespace
}  // namespace bloomgate::rocksdb_internal
