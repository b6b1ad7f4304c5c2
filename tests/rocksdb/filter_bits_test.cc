// Copyright 2026 The bloomgate Authors.
//
// The FilterBitsBuilder/FilterBitsReader adapters on their own, without a DB.

#include "src/rocksdb/filter_bits.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bloomgate/filter_reader.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/simd.h"
#include "bloomgate/sizing.h"
#include "gtest/gtest.h"
#include "src/rocksdb/spec_filter_policy.h"
#include "tests/testing/fp_bounds.h"

namespace bloomgate::rocksdb_internal {
namespace {

using ::bloomgate::testing::FpLowerBound;
using ::bloomgate::testing::FpUpperBound;

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

std::unique_ptr<BitsBuilder> MustBuilder(const FilterOptions& options,
                                         bool verify = false) {
  absl::StatusOr<std::unique_ptr<BitsBuilder>> builder =
      NewFilterBitsBuilder(options, verify);
  EXPECT_TRUE(builder.ok()) << builder.status();
  return builder.ok() ? *std::move(builder) : nullptr;
}

class FilterBitsLayoutTest : public ::testing::TestWithParam<Layout> {};

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
  EXPECT_LE(false_positives, FpUpperBound(p, kQueries));
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
                         ::testing::Values(Layout::kBlocked, Layout::kStandard),
                         [](const ::testing::TestParamInfo<Layout>& info) {
                           return std::string(LayoutName(info.param));
                         });

// Under every kernel this CPU runs, and for every probe count, the reader
// NewFilterBitsReader picks (the kernel's own subclass for a blocked block)
// answers exactly as the core's FilterReader, for keys of every length the
// inline hash takes and for longer ones, added and not.
TEST(FilterBitsTest, EveryKernelsReaderAnswersAsTheCore) {
  const SimdKernel saved = ActiveSimdKernel();
  std::mt19937_64 rng(20261206);
  std::vector<std::string> keys;
  for (size_t size = 0; size <= 40; ++size) {
    for (int i = 0; i < 40; ++i) {
      std::string key(size, '\0');
      for (char& c : key) c = static_cast<char>(rng());
      keys.push_back(std::move(key));
    }
  }
  for (SimdKernel kernel : {SimdKernel::kScalar, SimdKernel::kAvx2}) {
    if (!SimdKernelSupported(kernel)) continue;
    ASSERT_TRUE(SetSimdKernel(kernel).ok());
    for (int k = 1; k <= kMaxBlockedProbes; ++k) {
      auto builder = MustBuilder({.bits_per_key = 8.0, .num_probes = k});
      ASSERT_NE(builder, nullptr);
      // Half the keys added, so that both answers occur.
      for (size_t i = 0; i < keys.size(); i += 2) builder->AddKey(keys[i]);
      std::unique_ptr<const char[]> block;
      rocksdb::Status s;
      const rocksdb::Slice contents = builder->Finish(&block, &s);
      ASSERT_TRUE(s.ok()) << s.ToString();
      const FilterReader core(
          std::string_view(contents.data(), contents.size()));
      ASSERT_EQ(core.num_probes(), k);
      auto reader = NewFilterBitsReader(contents);
      int noes = 0;
      for (size_t i = 0; i < keys.size(); ++i) {
        const bool answer = reader->MayMatch(keys[i]);
        ASSERT_EQ(answer, core.MayMatch(keys[i]))
            << SimdKernelName(kernel) << ", k = " << k << ", key of "
            << keys[i].size() << " bytes";
        if (i % 2 == 0) {
          ASSERT_TRUE(answer) << "false negative";
        }
        noes += !answer;
      }
      EXPECT_GT(noes, 0) << SimdKernelName(kernel) << ", k = " << k;
      // Batches, as MultiGet passes them: every key once, in batches of 1
      // to 70 keys (more than one chunk of 32), key sizes mixed where a
      // batch spans two sizes.
      std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
      std::vector<rocksdb::Slice*> pointers;
      for (rocksdb::Slice& slice : slices) pointers.push_back(&slice);
      std::vector<char> results(keys.size(), 2);
      size_t batch = 1;
      for (size_t start = 0; start < keys.size(); start += batch) {
        batch = std::min(batch % 70 + 1, keys.size() - start);
        reader->MayMatch(static_cast<int>(batch), pointers.data() + start,
                         reinterpret_cast<bool*>(results.data() + start));
      }
      for (size_t i = 0; i < keys.size(); ++i) {
        ASSERT_EQ(results[i], core.MayMatch(keys[i]) ? 1 : 0)
            << SimdKernelName(kernel) << ", k = " << k << ", batched key " << i
            << " of " << keys[i].size() << " bytes";
      }
    }
    // A filter of no keys has no lines to probe: "no" to every key.
    auto builder = MustBuilder({.bits_per_key = 8.0});
    ASSERT_NE(builder, nullptr);
    std::unique_ptr<const char[]> block;
    rocksdb::Status s;
    auto empty = NewFilterBitsReader(builder->Finish(&block, &s));
    ASSERT_TRUE(s.ok()) << s.ToString();
    for (const std::string& key : keys) {
      ASSERT_FALSE(empty->MayMatch(key)) << SimdKernelName(kernel);
    }
  }
  ASSERT_TRUE(SetSimdKernel(saved).ok());
}

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
      absl::StatusOr<FilterBuilder> core =
          FilterBuilder::Create(builder->options());
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

TEST(FilterBitsTest, CalculateSpaceIsTheSizeOfTheBlock) {
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    for (double bits_per_key : {0.5, 7.3, 10.0, 20.0}) {
      auto builder =
          MustBuilder({.bits_per_key = bits_per_key, .layout = layout});
      ASSERT_NE(builder, nullptr);
      for (uint64_t n : {0, 1, 7, 1000, 12345}) {
        const size_t space = builder->CalculateSpace(n);
        std::unique_ptr<const char[]> block;
        EXPECT_EQ(Build(*builder, n, &block).size(), space)
            << LayoutName(layout) << " " << bits_per_key << " " << n;
        // RocksDB's contract: ApproximateNumEntries(CalculateSpace(n)) >= n.
        EXPECT_GE(builder->ApproximateNumEntries(space), n);
      }
    }
  }
}

// RocksDB 10.9 and later call CalculateSpace after every data block, with
// the keys so far. A sizer (the live-tree policy's) must still choose from
// the whole block's keys and key range, at Finish.
TEST(FilterBitsTest, SizerChoosesAtFinishFromAllTheKeys) {
  struct Call {
    size_t num_keys;
    std::string first, last;
  };
  std::vector<Call> calls;
  absl::StatusOr<FilterBuilder> core = FilterBuilder::Create({});
  absl::StatusOr<FilterBuilder> reference = FilterBuilder::Create({});
  ASSERT_TRUE(core.ok() && reference.ok());
  BitsBuilder builder(
      *std::move(core), /*verify_after_build=*/false,
      [&](size_t n, std::string_view first, std::string_view last) {
        calls.push_back({n, std::string(first), std::string(last)});
        return FilterOptions{.bits_per_key = 6};
      });
  for (char c = 'a'; c <= 'z'; ++c) {
    builder.AddKey(std::string(1, c));
    // The estimate is at the builder's options until a sizer has chosen.
    const size_t n = builder.EstimateEntriesAdded();
    EXPECT_EQ(builder.CalculateSpace(n), reference->BlockSize(n));
  }
  EXPECT_TRUE(calls.empty());
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice block = builder.Finish(&buf);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].num_keys, 26u);
  EXPECT_EQ(calls[0].first, "a");
  EXPECT_EQ(calls[0].last, "z");
  const FilterReader reader(std::string_view(block.data(), block.size()));
  ASSERT_FALSE(reader.degraded());
  EXPECT_EQ(block.size(), builder.CalculateSpace(26));  // now at 6 bits/key
}

TEST(FilterBitsTest, EstimatedFpRateIsTheCoreModel) {
  constexpr uint64_t kKeys = 20000;
  constexpr int kQueries = 100000;
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    for (double bits_per_key : {4.0, 10.0}) {
      auto builder =
          MustBuilder({.bits_per_key = bits_per_key, .layout = layout});
      ASSERT_NE(builder, nullptr);
      const double estimate =
          builder->EstimatedFpRate(kKeys, builder->CalculateSpace(kKeys));
      std::unique_ptr<const char[]> block;
      const rocksdb::Slice contents = Build(*builder, kKeys, &block);
      const FilterReader core(
          std::string_view(contents.data(), contents.size()));
      ASSERT_FALSE(core.degraded());
      // The bit array of the block, by the formula the sizing docs give.
      EXPECT_DOUBLE_EQ(estimate, PredictedFpRate(layout, core.bits_per_key(),
                                                 core.num_probes()));
      auto reader = NewFilterBitsReader(contents);
      int false_positives = 0;
      for (int i = 0; i < kQueries; ++i) {
        false_positives += reader->MayMatch(MissingKey(i));
      }
      EXPECT_LE(false_positives, FpUpperBound(estimate, kQueries));
      EXPECT_GE(false_positives, FpLowerBound(estimate, kQueries));
    }
  }
  auto builder = MustBuilder({});
  EXPECT_EQ(builder->EstimatedFpRate(0, builder->CalculateSpace(0)), 0.0);
  EXPECT_EQ(builder->EstimatedFpRate(100, 1), 1.0);
  // More bytes for the same keys: fewer false positives.
  EXPECT_LT(builder->EstimatedFpRate(1000, 2000),
            builder->EstimatedFpRate(1000, 1000));
}

// One call of AddKey or AddKeyAndAlt.
struct Add {
  std::string key;
  std::optional<std::string> alt;
};

// A sorted run of keys, each with its 3-byte prefix as the alternate,
// prefixes shared by runs of keys, repeated keys, keys that are their own
// prefix, and a few plain AddKey calls between.
std::vector<Add> PrefixedKeys(uint64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < n; ++i) {
    char prefix[4] = {static_cast<char>('a' + rng() % 4),
                      static_cast<char>('a' + rng() % 4),
                      static_cast<char>('a' + rng() % 4), 0};
    // A key that is its own prefix, now and then.
    keys.push_back(rng() % 16 == 0 ? std::string(prefix)
                                   : prefix + std::to_string(rng() % 5000));
  }
  std::sort(keys.begin(), keys.end());
  std::vector<Add> adds;
  for (const std::string& key : keys) {
    const int copies = rng() % 8 == 0 ? 2 : 1;  // repeats, as RocksDB sends
    for (int c = 0; c < copies; ++c) {
      if (rng() % 10 == 0) {
        adds.push_back({key, std::nullopt});
      } else {
        adds.push_back({key, key.substr(0, 3)});
      }
    }
  }
  return adds;
}

void Apply(rocksdb::FilterBitsBuilder& builder, const std::vector<Add>& adds) {
  for (const Add& add : adds) {
    if (add.alt.has_value()) {
#if BLOOMGATE_ROCKSDB_HAS_ADD_KEY_AND_ALT
      builder.AddKeyAndAlt(add.key, *add.alt);
#else
      static_cast<BitsBuilder&>(builder).AddKeyAndAlt(add.key, *add.alt);
#endif
    } else {
      builder.AddKey(add.key);
    }
  }
}

// Finishes the block into `block`, checks that construction and RocksDB's
// post-verification pass, and returns a reader over it.
std::unique_ptr<rocksdb::FilterBitsReader> FinishAndVerify(
    BitsBuilder& builder, std::unique_ptr<const char[]>* block) {
  rocksdb::Status s;
  const rocksdb::Slice contents = builder.Finish(block, &s);
  EXPECT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(builder.MaybePostVerify(contents).ok());
  return NewFilterBitsReader(contents);
}

TEST(FilterBitsTest, AddKeyAndAltAddsBothAndCountsEachOnce) {
  for (bool verify : {false, true}) {
    auto builder = MustBuilder({}, verify);
    ASSERT_NE(builder, nullptr);
    // The cases of RocksDB's contract, one by one.
    builder->AddKeyAndAlt("abc1", "abc");  // 2: both new
    builder->AddKeyAndAlt("abc1", "abc");  // repeat of both: 0
    builder->AddKeyAndAlt("abc2", "abc");  // same prefix: 1
    builder->AddKeyAndAlt("abd", "abd");   // the key is its own prefix: 1
    builder->AddKeyAndAlt("abd", "abd");   // and again: 0
    builder->AddKey("abe");                // 1
    builder->AddKeyAndAlt("abf1", "abf");  // 2
    // A whole key equal to the previous prefix (the end of a prefix group
    // under a reverse comparator): 0 for the key, 1 for its prefix.
    builder->AddKeyAndAlt("abf", "ab");
    EXPECT_EQ(builder->EstimateEntriesAdded(), 8u) << verify;
    std::unique_ptr<const char[]> block;
    auto reader = FinishAndVerify(*builder, &block);
    for (const char* entry :
         {"abc1", "abc", "abc2", "abd", "abe", "abf1", "abf", "ab"}) {
      EXPECT_TRUE(reader->MayMatch(entry)) << entry;
    }
    // Finish forgets the last prefix: it counts again in the next block.
    builder->AddKeyAndAlt("abf2", "abf");
    EXPECT_EQ(builder->EstimateEntriesAdded(), 2u);
  }
}

TEST(FilterBitsTest, AddKeyAndAltFindsEveryKeyAndPrefix) {
  const std::vector<Add> adds = PrefixedKeys(20000, /*seed=*/7);
  for (bool verify : {false, true}) {
    auto builder = MustBuilder({}, verify);
    ASSERT_NE(builder, nullptr);
    Apply(*builder, adds);
    std::unique_ptr<const char[]> block;
    auto reader = FinishAndVerify(*builder, &block);
    for (const Add& add : adds) {
      ASSERT_TRUE(reader->MayMatch(add.key)) << add.key;
      if (add.alt.has_value()) {
        ASSERT_TRUE(reader->MayMatch(*add.alt)) << *add.alt;
      }
    }
  }
}

#if BLOOMGATE_ROCKSDB_HAS_ADD_KEY_AND_ALT
// The same calls give the same entry count as RocksDB's own Bloom builder,
// which is what TableProperties::num_filter_entries records.
TEST(FilterBitsTest, AddKeyAndAltCountsAsTheBuiltinFilter) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const std::vector<Add> adds = PrefixedKeys(5000, seed);
    auto ours = MustBuilder({});
    auto builtin = NewSpecBitsBuilder(
        {.family = FilterFamily::kRocksDBBloom, .bits_per_key = 10.0});
    ASSERT_NE(ours, nullptr);
    ASSERT_NE(builtin, nullptr);
    Apply(*ours, adds);
    Apply(*builtin, adds);
    EXPECT_EQ(ours->EstimateEntriesAdded(), builtin->EstimateEntriesAdded())
        << "seed " << seed;
  }
}
#endif

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

// Every family the benchmarks compare, through the same interface.
TEST(FilterBitsTest, EveryFamilyThroughTheSameInterface) {
  for (FilterFamily family :
       {FilterFamily::kBloomgate, FilterFamily::kRocksDBBloom,
        FilterFamily::kRocksDBRibbon}) {
    const FilterSpec spec{.family = family, .bits_per_key = 10.0};
    auto builder = NewSpecBitsBuilder(spec);
    ASSERT_NE(builder, nullptr) << spec.Name();
    std::unique_ptr<const char[]> block;
    auto reader = NewSpecBitsReader(spec, Build(*builder, 5000, &block));
    ASSERT_NE(reader, nullptr);
    for (uint64_t i = 0; i < 5000; ++i) ASSERT_TRUE(reader->MayMatch(Key(i)));
    int false_positives = 0;
    for (int i = 0; i < 10000; ++i) {
      false_positives += reader->MayMatch(MissingKey(i));
    }
    EXPECT_LE(false_positives, FpUpperBound(spec.PredictedFpRate(5000), 10000))
        << spec.Name();
  }
  EXPECT_EQ(NewSpecBitsBuilder({.family = FilterFamily::kNone}), nullptr);
  EXPECT_EQ(NewSpecBitsBuilder({.bits_per_key = 0}), nullptr);
}

}  // namespace
}  // namespace bloomgate::rocksdb_internal
