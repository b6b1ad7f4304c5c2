// Copyright 2026 The bloomgate Authors.
//
// The Store's API: reads and writes, batches, reopen, flush and compaction
// shapes, options and lifecycle errors, and the lookup statistics.

#include "bloomgate/lsm/store.h"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bloomgate/filter_builder.h"
#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using testing::SmallOptions;
using testing::TempDir;

std::unique_ptr<Store> OpenOrDie(const std::string& dir,
                                 const StoreOptions& options) {
  auto store = Store::Open(dir, options);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? std::move(*store) : nullptr;
}

std::optional<std::string> GetOrDie(Store& store, std::string_view key) {
  auto r = store.Get(key);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : std::nullopt;
}

TEST(StoreTest, PutGetDeleteAcrossMemtableFilesAndReopen) {
  TempDir dir;
  auto store = OpenOrDie(dir.path(), SmallOptions());
  ASSERT_NE(store, nullptr);
  ASSERT_OK(store->Put("k1", "v1"));
  ASSERT_OK(store->Put("k2", "v2"));
  EXPECT_EQ(GetOrDie(*store, "k1"), "v1");
  EXPECT_EQ(GetOrDie(*store, "nope"), std::nullopt);
  ASSERT_OK(store->Flush());
  EXPECT_EQ(GetOrDie(*store, "k1"), "v1");
  ASSERT_OK(store->Delete("k1"));
  EXPECT_EQ(GetOrDie(*store, "k1"), std::nullopt);  // tombstone in memtable
  ASSERT_OK(store->Flush());
  EXPECT_EQ(GetOrDie(*store, "k1"), std::nullopt);  // tombstone in a file
  ASSERT_OK(store->Put("k2", "v2b"));
  ASSERT_OK(store->Put("", "empty key"));
  ASSERT_OK(store->Close());
  EXPECT_TRUE(absl::IsFailedPrecondition(store->Put("x", "y")));
  EXPECT_TRUE(absl::IsFailedPrecondition(store->Get("x").status()));
  EXPECT_TRUE(absl::IsFailedPrecondition(store->Close()));
  store.reset();

  store = OpenOrDie(dir.path(), SmallOptions());
  EXPECT_EQ(GetOrDie(*store, "k1"), std::nullopt);
  EXPECT_EQ(GetOrDie(*store, "k2"), "v2b");
  EXPECT_EQ(GetOrDie(*store, ""), "empty key");
}

TEST(StoreTest, WriteBatchIsAppliedInOrder) {
  TempDir dir;
  auto store = OpenOrDie(dir.path(), SmallOptions());
  WriteBatch batch;
  batch.Put("a", "1");
  batch.Put("b", "2");
  batch.Delete("a");
  batch.Put("c", "3");
  batch.Put("c", "4");
  ASSERT_OK(store->Write(batch));
  EXPECT_EQ(GetOrDie(*store, "a"), std::nullopt);
  EXPECT_EQ(GetOrDie(*store, "b"), "2");
  EXPECT_EQ(GetOrDie(*store, "c"), "4");
  WriteBatch bad;
  bad.SetContents("garbage");
  EXPECT_TRUE(absl::IsInvalidArgument(store->Write(bad)));
  ASSERT_OK(store->Write(WriteBatch()));  // empty: a no-op
}

TEST(StoreTest, LifecycleErrors) {
  TempDir dir;
  StoreOptions o = SmallOptions();
  o.create_if_missing = false;
  EXPECT_TRUE(absl::IsNotFound(Store::Open(dir.Sub("none"), o).status()));
  auto store = OpenOrDie(dir.path(), SmallOptions());
  // The folder is locked while open.
  EXPECT_TRUE(absl::IsFailedPrecondition(
      Store::Open(dir.path(), SmallOptions()).status()));
  store.reset();
  o = SmallOptions();
  o.error_if_exists = true;
  EXPECT_TRUE(absl::IsAlreadyExists(Store::Open(dir.path(), o).status()));
  o = SmallOptions();
  o.num_levels = 1;
  EXPECT_TRUE(absl::IsInvalidArgument(Store::Open(dir.Sub("x"), o).status()));
  o = SmallOptions();
  o.filter = FilterSpec{.bits_per_key = 0};
  EXPECT_TRUE(absl::IsInvalidArgument(Store::Open(dir.Sub("y"), o).status()));
  o = SmallOptions();
  o.max_bytes_for_level_multiplier = 0.5;
  EXPECT_TRUE(absl::IsInvalidArgument(Store::Open(dir.Sub("z"), o).status()));
}

TEST(StoreTest, FlushesAndCompactionsBuildLevels) {
  TempDir dir;
  auto store = OpenOrDie(dir.path(), SmallOptions());
  const std::string value(100, 'v');
  for (int i = 0; i < 20000; ++i) {
    ASSERT_OK(store->Put(Key((i * 7919) % 20000), value + std::to_string(i)));
  }
  IoStats stats = store->GetStats();
  EXPECT_GT(stats.flushes, 20u);
  EXPECT_GT(stats.compactions, 5u);
  EXPECT_LT(stats.levels[0].num_files, 3u);  // trigger is 3
  EXPECT_GT(stats.levels[2].num_files + stats.levels[3].num_files, 0u);
  // Level sizes respect their targets after the compactions ran.
  EXPECT_LE(stats.levels[1].file_bytes, 64u << 10);
  // Deeper levels are sorted runs.
  std::vector<FileInfo> files = store->GetLiveFiles();
  for (size_t i = 1; i < files.size(); ++i) {
    if (files[i].level == files[i - 1].level && files[i].level > 0) {
      EXPECT_LT(files[i - 1].largest_key, files[i].smallest_key);
    }
  }
  for (int i = 0; i < 20000; i += 37) {
    auto v = GetOrDie(*store, Key(i));
    ASSERT_TRUE(v.has_value()) << i;
  }
  // Only live files stay in the folder.
  EXPECT_EQ(testing::FilesWithSuffix(dir.path(), ".sst").size(), files.size());
  EXPECT_EQ(testing::FilesWithSuffix(dir.path(), ".log").size(), 1u);
}

TEST(StoreTest, FullCompactionDropsTombstonesAndShadowedValues) {
  TempDir dir;
  StoreOptions o = SmallOptions();
  o.disable_auto_compactions = true;
  auto store = OpenOrDie(dir.path(), o);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 500; ++i) {
      ASSERT_OK(store->Put(Key(i), "r" + std::to_string(round)));
    }
    ASSERT_OK(store->Flush());
  }
  for (int i = 0; i < 500; i += 2) ASSERT_OK(store->Delete(Key(i)));
  ASSERT_OK(store->Flush());
  IoStats before = store->GetStats();
  EXPECT_EQ(before.levels[0].num_files, before.total.num_files);
  EXPECT_GE(before.levels[0].num_files, 4u);
  ASSERT_OK(store->Compact());
  IoStats after = store->GetStats();
  EXPECT_EQ(after.levels[0].num_files, 0u);
  EXPECT_EQ(after.levels[1].num_files, after.total.num_files);
  EXPECT_EQ(after.total.num_entries, 250u);  // no tombstones, no old values
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(GetOrDie(*store, Key(i)),
              i % 2 == 0 ? std::nullopt : std::optional<std::string>("r2"));
  }
  // A second full compaction stays at the deepest level.
  ASSERT_OK(store->Compact());
  EXPECT_EQ(store->GetStats().levels[1].num_entries, 250u);
}

// The statistics of a lookup, file by file: with filters, a hit in the
// oldest of N level-0 files costs one read plus false positives, and the
// counts add up.
TEST(StoreTest, LookupStatisticsAddUp) {
  TempDir dir;
  StoreOptions o = SmallOptions();
  o.disable_auto_compactions = true;
  o.write_buffer_size = 1 << 20;
  auto store = OpenOrDie(dir.path(), o);
  // 8 files with interleaved keys: every file's range covers every lookup.
  for (int f = 0; f < 8; ++f) {
    for (int i = 0; i < 1000; ++i) ASSERT_OK(store->Put(Key(i * 8 + f), "v"));
    ASSERT_OK(store->Flush());
  }
  store->ResetStats();
  // Keys inside every file's range: [Key(7), Key(7992)].
  for (int i = 1; i <= 998; ++i) {
    ASSERT_TRUE(GetOrDie(*store, Key(i * 8)).has_value());  // oldest file
  }
  for (int i = 1; i <= 998; ++i) {
    ASSERT_FALSE(GetOrDie(*store, Key(i * 8 + 1) + "x").has_value());
  }
  const IoStats s = store->GetStats();
  const LevelStats& t = s.total;
  EXPECT_EQ(s.gets, 1996u);
  EXPECT_EQ(s.hits, 998u);
  EXPECT_EQ(s.misses, 998u);
  EXPECT_EQ(t.files_considered, 1996u * 8);
  EXPECT_EQ(t.skipped_by_range, 0u);
  EXPECT_EQ(t.filter_checks, 1996u * 8);
  EXPECT_EQ(t.filter_negatives + t.filter_positives, t.filter_checks);
  EXPECT_EQ(t.data_block_reads, t.filter_positives);
  EXPECT_EQ(t.filter_positives - t.false_positives, 998u);  // the hits
  EXPECT_EQ(s.hit_reads + s.miss_reads, t.data_block_reads);
  EXPECT_GE(s.ReadsPerHit(), 1.0);
  EXPECT_LT(s.ReadsPerHit(), 1.2);
  EXPECT_LT(s.ReadsPerMiss(), 0.2);
  EXPECT_EQ(t.num_files, 8u);
  EXPECT_GT(t.filter_bytes, 8 * 1000 * 10 / 8u);
  EXPECT_EQ(t.filter_keys, 8000u);
  EXPECT_EQ(store->FilterMemoryBytes(), t.filter_bytes);
  EXPECT_FALSE(s.ToString().empty());
  store->ResetStats();
  EXPECT_EQ(store->GetStats().gets, 0u);
  EXPECT_EQ(store->GetStats().total.num_files, 8u);  // shape is not reset
}

TEST(StoreTest, WithoutFiltersEveryFileInRangeIsRead) {
  TempDir dir;
  StoreOptions o = SmallOptions();
  o.disable_auto_compactions = true;
  o.filter = kNoFilter;
  auto store = OpenOrDie(dir.path(), o);
  for (int f = 0; f < 5; ++f) {
    for (int i = 0; i < 100; ++i) ASSERT_OK(store->Put(Key(i * 5 + f), "v"));
    ASSERT_OK(store->Flush());
  }
  ASSERT_OK(store->Put(Key(999999), "v"));  // a file with a far range
  ASSERT_OK(store->Flush());
  store->ResetStats();
  ASSERT_FALSE(GetOrDie(*store, Key(7) + "x").has_value());
  const IoStats s = store->GetStats();
  EXPECT_EQ(s.total.files_considered, 6u);
  EXPECT_EQ(s.total.skipped_by_range, 1u);
  EXPECT_EQ(s.total.filter_checks, 0u);
  EXPECT_EQ(s.total.data_block_reads, 5u);
  EXPECT_EQ(s.total.filter_bytes, 0u);
}

// Tables keep the filter they were written with: a store reopened with
// other filter options (or none) reads old and new tables alike.
TEST(StoreTest, TablesWithDifferentFiltersMix) {
  TempDir dir;
  StoreOptions o = SmallOptions();
  o.disable_auto_compactions = true;
  o.write_buffer_size = 1 << 20;
  const std::vector<FilterSpec> filters = {
      FilterSpec{}, kNoFilter,
      FilterSpec{.bits_per_key = 4, .layout = Layout::kStandard},
      FilterSpec{.bits_per_key = 20}};
  for (size_t f = 0; f < filters.size(); ++f) {
    o.filter = filters[f];
    auto store = OpenOrDie(dir.path(), o);
    for (int i = 0; i < 300; ++i) {
      ASSERT_OK(store->Put(Key(i * 4 + f), "f" + std::to_string(f)));
    }
    ASSERT_OK(store->Flush());
  }
  o.filter = kNoFilter;
  auto store = OpenOrDie(dir.path(), o);
  const IoStats s = store->GetStats();
  EXPECT_EQ(s.levels[0].num_files, 4u);
  EXPECT_EQ(s.total.degraded_filters, 0u);
  std::vector<FileInfo> files = store->GetLiveFiles();
  int unfiltered = 0;
  for (const FileInfo& f : files) unfiltered += f.filter_bytes == 0;
  EXPECT_EQ(unfiltered, 1);
  for (int i = 0; i < 1200; ++i) {
    EXPECT_EQ(GetOrDie(*store, Key(i)), "f" + std::to_string(i % 4));
  }
  // A full compaction rewrites everything with the current options.
  ASSERT_OK(store->Compact());
  EXPECT_EQ(store->GetStats().total.filter_bytes, 0u);
  for (int i = 0; i < 1200; i += 7) {
    EXPECT_EQ(GetOrDie(*store, Key(i)), "f" + std::to_string(i % 4));
  }
}

// Level-aware filters with compactions only where a test asks, and one file
// per flush of up to 1 MiB.
StoreOptions ManualLevelsOptions(std::vector<FilterSpec> level_filters) {
  StoreOptions o = SmallOptions();
  o.disable_auto_compactions = true;
  o.write_buffer_size = 1 << 20;
  o.target_file_size = 1 << 20;
  o.level_filters = std::move(level_filters);
  return o;
}

// Level-aware filters: flushes build level 0's filter, compactions their
// output level's, and a level may have none.
TEST(StoreTest, LevelFiltersFollowTheOutputLevel) {
  TempDir dir;
  StoreOptions o = ManualLevelsOptions({FilterSpec{.bits_per_key = 20},
                                        FilterSpec{.bits_per_key = 5},
                                        kNoFilter, kNoFilter});
  auto bits_per_key = [](const FileInfo& f) {
    return static_cast<double>(f.filter_bytes) * 8 / f.num_entries;
  };
  {
    auto store = OpenOrDie(dir.path(), o);
    for (int i = 0; i < 4000; ++i) ASSERT_OK(store->Put(Key(i), "v"));
    ASSERT_OK(store->Flush());
    std::vector<FileInfo> files = store->GetLiveFiles();
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].level, 0);
    EXPECT_GE(bits_per_key(files[0]), 20.0);
    EXPECT_LT(bits_per_key(files[0]), 21.5);
    ASSERT_OK(store->Compact());  // into level 1
    files = store->GetLiveFiles();
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].level, 1);
    EXPECT_GE(bits_per_key(files[0]), 5.0);
    EXPECT_LT(bits_per_key(files[0]), 6.5);
  }
  // Reopened with no filter at level 1, a rewrite drops the filter there.
  o.level_filters[1] = kNoFilter;
  auto store = OpenOrDie(dir.path(), o);
  ASSERT_OK(store->Compact());
  const IoStats s = store->GetStats();
  EXPECT_EQ(s.levels[1].num_files, 1u);
  EXPECT_EQ(s.levels[1].filter_bytes, 0u);
  for (int i = 0; i < 4000; i += 11) ASSERT_EQ(GetOrDie(*store, Key(i)), "v");
  EXPECT_EQ(store->GetStats().total.filter_checks, 0u);

  StoreOptions bad = SmallOptions();
  bad.level_filters = {FilterSpec{}, FilterSpec{}};  // num_levels is 4
  EXPECT_TRUE(
      absl::IsInvalidArgument(Store::Open(dir.Sub("b1"), bad).status()));
  bad.level_filters = {FilterSpec{}, FilterSpec{.bits_per_key = -3}, kNoFilter,
                       kNoFilter};
  EXPECT_TRUE(
      absl::IsInvalidArgument(Store::Open(dir.Sub("b2"), bad).status()));
}

// A level-aware spec for the assumed shape: every level's tables get the
// spec's share for that level, computed by the store from num_levels and
// the fanout.
TEST(StoreTest, AMonkeySpecGivesEachLevelItsShare) {
  TempDir dir;
  StoreOptions o = ManualLevelsOptions({});
  o.filter = FilterSpec{.bits_per_key = 10, .monkey = true, .fanout = 10};
  o.level_allocation = StoreOptions::LevelAllocation::kAssumedShape;
  absl::StatusOr<std::vector<double>> bits =
      o.filter.LevelBitsPerKey(o.num_levels);
  ASSERT_TRUE(bits.ok());
  ASSERT_GT((*bits)[0], (*bits)[3]);  // more bits in the small top level
  auto store = OpenOrDie(dir.path(), o);
  for (int i = 0; i < 3000; ++i) ASSERT_OK(store->Put(Key(i), "v"));
  ASSERT_OK(store->CompactLevel0To(3));
  for (int i = 0; i < 300; ++i) ASSERT_OK(store->Put(Key(2 * i + 1), "w"));
  ASSERT_OK(store->Flush());
  std::map<int, int> files_checked;
  for (const FileInfo& f : store->GetLiveFiles()) {
    absl::StatusOr<FilterBuilder> builder =
        FilterBuilder::Create(o.filter.Options((*bits)[f.level]));
    ASSERT_TRUE(builder.ok());
    EXPECT_EQ(f.filter_bytes, builder->BlockSize(f.num_entries))
        << "level " << f.level;
    ++files_checked[f.level];
  }
  EXPECT_EQ(files_checked[0], 1);
  EXPECT_GE(files_checked[3], 1);
  for (int i = 0; i < 3000; i += 7) {
    ASSERT_EQ(GetOrDie(*store, Key(i)), i % 2 == 1 && i < 600 ? "w" : "v");
  }
}

TEST(StoreTest, OnlyBloomgateFiltersCanBeBuilt) {
  TempDir dir;
  StoreOptions o = SmallOptions();
  o.filter = FilterSpec{.family = FilterFamily::kRocksDBBloom};
  absl::Status s = Store::Open(dir.Sub("a"), o).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_NE(s.message().find("filter: the LSM builds bloomgate filters only"),
            std::string::npos)
      << s;
  // Nor mixed families, whose Ribbon levels RocksDB builds.
  o.filter = FilterSpec{.monkey = true, .mixed = true};
  s = Store::Open(dir.Sub("c"), o).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s));
  EXPECT_NE(s.message().find("the LSM builds bloomgate filters only"),
            std::string::npos)
      << s;
  o = SmallOptions();
  o.filter = FilterSpec{.monkey = true, .fanout = 0.5};
  EXPECT_TRUE(absl::IsInvalidArgument(Store::Open(dir.Sub("b"), o).status()));
}

// CompactLevel0To builds a tree level by level, deepest first, each level
// with its own filter; newer values above older ones stay visible.
TEST(StoreTest, CompactLevel0ToPutsEachLevelInPlace) {
  TempDir dir;
  StoreOptions o = ManualLevelsOptions(
      {FilterSpec{.bits_per_key = 20}, FilterSpec{.bits_per_key = 15},
       FilterSpec{.bits_per_key = 10}, kNoFilter});
  auto store = OpenOrDie(dir.path(), o);
  // Level 3 (no filter), then 2, then 1; the same key in several levels
  // gets newer values higher up.
  for (int level = 3; level >= 1; --level) {
    for (int i = 0; i < 1000 * level; ++i) {
      ASSERT_OK(store->Put(Key(i), "L" + std::to_string(level)));
    }
    ASSERT_OK(store->CompactLevel0To(level));
  }
  for (int i = 1000; i < 1100; ++i) ASSERT_OK(store->Put(Key(i), "mem"));
  std::map<int, double> bits;  // level -> filter bits per key
  std::map<int, uint64_t> entries;
  for (const FileInfo& f : store->GetLiveFiles()) {
    entries[f.level] += f.num_entries;
    bits[f.level] = static_cast<double>(f.filter_bytes) * 8 / f.num_entries;
  }
  EXPECT_EQ(entries,
            (std::map<int, uint64_t>{{1, 1000}, {2, 2000}, {3, 3000}}));
  EXPECT_GE(bits[1], 15.0);
  EXPECT_LT(bits[1], 16.5);
  EXPECT_GE(bits[2], 10.0);
  EXPECT_LT(bits[2], 11.5);
  EXPECT_EQ(bits[3], 0.0);
  EXPECT_EQ(GetOrDie(*store, Key(5)), "L1");
  EXPECT_EQ(GetOrDie(*store, Key(1050)), "mem");
  EXPECT_EQ(GetOrDie(*store, Key(1500)), "L2");
  EXPECT_EQ(GetOrDie(*store, Key(2500)), "L3");

  // Level 1 holds files: level 0 may not skip over it.
  EXPECT_TRUE(absl::IsFailedPrecondition(store->CompactLevel0To(2)));
  EXPECT_TRUE(absl::IsInvalidArgument(store->CompactLevel0To(0)));
  EXPECT_TRUE(absl::IsInvalidArgument(store->CompactLevel0To(4)));
  // Into level 1 again: merged with what is there, the newest value wins.
  ASSERT_OK(store->CompactLevel0To(1));
  EXPECT_EQ(GetOrDie(*store, Key(1050)), "mem");
  EXPECT_EQ(GetOrDie(*store, Key(5)), "L1");
  EXPECT_EQ(store->GetStats().levels[0].num_files, 0u);
}

TEST(StoreTest, DirectIoReadsTheSameData) {
  TempDir dir("/tmp");  // tmpfs may refuse O_DIRECT; ext4 takes it
  StoreOptions o = SmallOptions();
  o.use_direct_reads = true;
  auto store = OpenOrDie(dir.path(), o);
  for (int i = 0; i < 5000; ++i) ASSERT_OK(store->Put(Key(i), Key(i * 3)));
  ASSERT_OK(store->Compact());
  store->ResetStats();
  for (int i = 0; i < 5000; i += 13) {
    ASSERT_EQ(GetOrDie(*store, Key(i)), Key(i * 3));
  }
  const IoStats s = store->GetStats();
  // One read per hit whether or not O_DIRECT was granted; with it, a read
  // transfers whole 4 KiB pages (fewer only at the end of a file).
  EXPECT_EQ(s.hit_reads, s.hits);
  if (store->direct_reads()) {
    EXPECT_GE(s.total.data_block_bytes, 4096 * (s.hits - 5));
  }
  std::printf("direct I/O %s\n", store->direct_reads() ? "granted" : "refused");
}

}  // namespace
}  // namespace bloomgate::lsm
