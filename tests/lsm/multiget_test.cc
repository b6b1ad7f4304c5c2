// Copyright 2026 The bloomgate Authors.
//
// Store::MultiGet answers exactly what Get answers, key by key, and counts
// exactly what the same Gets count: against a std::map model with deletes,
// overwrites, memtable hits and several levels, with and without filters,
// for batches shorter and longer than one internal chunk, with duplicates,
// with a damaged data block, and after Close.

#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "src/lsm/format.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using testing::TempDir;
using Result = absl::StatusOr<std::optional<std::string>>;

void ExpectSameCounters(const LevelStats& a, const LevelStats& b,
                        const std::string& where) {
  EXPECT_EQ(a.files_considered, b.files_considered) << where;
  EXPECT_EQ(a.skipped_by_range, b.skipped_by_range) << where;
  EXPECT_EQ(a.filter_checks, b.filter_checks) << where;
  EXPECT_EQ(a.filter_negatives, b.filter_negatives) << where;
  EXPECT_EQ(a.filter_positives, b.filter_positives) << where;
  EXPECT_EQ(a.false_positives, b.false_positives) << where;
  // The same terms, added in another order.
  EXPECT_NEAR(a.predicted_false_positives, b.predicted_false_positives,
              1e-9 * (1 + a.predicted_false_positives))
      << where;
  EXPECT_EQ(a.data_block_reads, b.data_block_reads) << where;
  EXPECT_EQ(a.data_block_bytes, b.data_block_bytes) << where;
}

void ExpectSameStats(const IoStats& gets, const IoStats& multi) {
  EXPECT_EQ(gets.gets, multi.gets);
  EXPECT_EQ(gets.hits, multi.hits);
  EXPECT_EQ(gets.misses, multi.misses);
  EXPECT_EQ(gets.memtable_hits, multi.memtable_hits);
  EXPECT_EQ(gets.hit_reads, multi.hit_reads);
  EXPECT_EQ(gets.miss_reads, multi.miss_reads);
  ExpectSameCounters(gets.total, multi.total, "total");
  ASSERT_EQ(gets.levels.size(), multi.levels.size());
  for (size_t l = 0; l < gets.levels.size(); ++l) {
    ExpectSameCounters(gets.levels[l], multi.levels[l],
                       "level " + std::to_string(l));
  }
}

// Looks `keys` up one by one and as one MultiGet, each from zeroed
// counters: the answers and the counters must agree.
std::vector<Result> CompareWithGets(Store& store,
                                    const std::vector<std::string>& keys) {
  std::vector<std::string_view> views(keys.begin(), keys.end());
  store.ResetStats();
  std::vector<Result> singles;
  for (std::string_view k : views) singles.push_back(store.Get(k));
  const IoStats after_gets = store.GetStats();
  store.ResetStats();
  std::vector<Result> batch = store.MultiGet(views);
  const IoStats after_multi = store.GetStats();
  EXPECT_EQ(batch.size(), keys.size());
  for (size_t i = 0; i < keys.size() && i < batch.size(); ++i) {
    EXPECT_EQ(batch[i].status(), singles[i].status()) << keys[i];
    if (batch[i].ok() && singles[i].ok()) {
      EXPECT_EQ(*batch[i], *singles[i]) << keys[i];
    }
  }
  ExpectSameStats(after_gets, after_multi);
  return batch;
}

class MultiGetTest : public ::testing::TestWithParam<bool> {};

TEST_P(MultiGetTest, AgreesWithGetAndTheModel) {
  TempDir dir;
  StoreOptions options = testing::SmallOptions();
  if (!GetParam()) options.filter = kNoFilter;
  auto store = Store::Open(dir.path(), options);
  ASSERT_TRUE(store.ok()) << store.status();
  std::map<std::string, std::string> model;
  std::mt19937_64 rng(17);
  constexpr int kKeySpace = 3000;
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < 1500; ++i) {
      const std::string key = Key(rng() % kKeySpace);
      if (rng() % 5 == 0) {
        ASSERT_OK((*store)->Delete(key));
        model.erase(key);
      } else {
        const std::string value = "r" + std::to_string(round) + "i" +
                                  std::to_string(i) +
                                  std::string(rng() % 40, 'v');
        ASSERT_OK((*store)->Put(key, value));
        model[key] = value;
      }
    }
    // Batches of several lengths, of present, deleted and never-written
    // keys, with duplicates; some keys are still in the memtable.
    for (size_t length : {size_t{0}, size_t{1}, size_t{7}, size_t{255},
                          size_t{256}, size_t{257}, size_t{1000}}) {
      std::vector<std::string> keys;
      for (size_t i = 0; i < length; ++i) {
        keys.push_back(i > 0 && rng() % 10 == 0 ? keys[rng() % i]
                                                : Key(rng() % (2 * kKeySpace)));
      }
      std::vector<Result> got = CompareWithGets(**store, keys);
      ASSERT_EQ(got.size(), length);
      for (size_t i = 0; i < length; ++i) {
        ASSERT_TRUE(got[i].ok()) << got[i].status();
        auto it = model.find(keys[i]);
        if (it == model.end()) {
          EXPECT_FALSE(got[i]->has_value()) << keys[i];
        } else {
          ASSERT_TRUE(got[i]->has_value()) << keys[i];
          EXPECT_EQ(**got[i], it->second);
        }
      }
    }
  }
  // The workload made a tree with files at more than one level.
  int levels_with_files = 0;
  for (const LevelStats& l : (*store)->GetStats().levels) {
    levels_with_files += l.num_files > 0;
  }
  EXPECT_GE(levels_with_files, 2);
}

INSTANTIATE_TEST_SUITE_P(Filters, MultiGetTest, ::testing::Bool(),
                         [](const auto& info) {
                           return info.param ? "filter" : "nofilter";
                         });

TEST(MultiGetErrorsTest, DamagedBlockFailsTheSameKeysAsGet) {
  TempDir dir;
  StoreOptions options = testing::SmallOptions();
  options.block_size = 256;
  {
    auto store = Store::Open(dir.path(), options);
    ASSERT_TRUE(store.ok());
    for (int i = 0; i < 200; ++i) {
      ASSERT_OK((*store)->Put(Key(i), "value" + std::to_string(i)));
    }
    ASSERT_OK((*store)->Flush());
  }
  // Flip a byte in the first data block of a table.
  auto tables = testing::FilesWithSuffix(dir.path(), ".sst");
  ASSERT_FALSE(tables.empty());
  std::string bytes = testing::ReadBytes(dir.Sub(tables[0]));
  bytes[10] ^= 0x40;
  testing::WriteBytes(dir.Sub(tables[0]), bytes);

  auto store = Store::Open(dir.path(), options);
  ASSERT_TRUE(store.ok()) << store.status();
  std::vector<std::string> keys;
  for (int i = 0; i < 220; ++i) keys.push_back(Key(i));
  std::vector<Result> got = CompareWithGets(**store, keys);
  int errors = 0;
  for (const Result& r : got) {
    if (r.ok()) continue;
    ++errors;
    EXPECT_TRUE(absl::IsDataLoss(r.status())) << r.status();
  }
  EXPECT_GT(errors, 0);
  EXPECT_LT(errors, 200);
}

TEST(MultiGetErrorsTest, ClosedStoreFailsEveryKey) {
  TempDir dir;
  auto store = Store::Open(dir.path(), testing::SmallOptions());
  ASSERT_TRUE(store.ok());
  ASSERT_OK((*store)->Put("a", "1"));
  EXPECT_TRUE((*store)->MultiGet({}).empty());
  ASSERT_OK((*store)->Close());
  std::vector<std::string_view> keys = {"a", "b", "a"};
  std::vector<Result> got = (*store)->MultiGet(keys);
  ASSERT_EQ(got.size(), 3u);
  for (const Result& r : got) {
    EXPECT_TRUE(absl::IsFailedPrecondition(r.status())) << r.status();
  }
}

}  // namespace
}  // namespace bloomgate::lsm
