// Copyright 2026 The bloomgate Authors.
//
// Level-aware bits per key (RocksDBFilterOptions::monkey): which budget the
// policy picks from a FilterBuildingContext, and in real databases, the
// filters RocksDB records per level, the memory they take against the
// uniform policy, the data-block reads they save, and that reads stay
// correct, also for files moved to another level after they were written.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "bloomgate/allocation.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "src/rocksdb/builtin_filters.h"
#include "src/rocksdb/filter_bits.h"
#include "tests/rocksdb/db_test_util.h"
#include "tests/testing/fp_bounds.h"

namespace bloomgate::testing_rocksdb {
namespace {

using ::bloomgate::testing::FpUpperBound;

const RocksDBFilterOptions kMonkey10{.bits_per_key = 10, .monkey = true};

std::vector<double> LevelBits(const RocksDBFilterOptions& options,
                              int num_levels) {
  absl::StatusOr<std::vector<double>> bits =
      options.LevelBitsPerKey(num_levels);
  EXPECT_TRUE(bits.ok()) << bits.status();
  return bits.ok() ? *bits : std::vector<double>(num_levels, -1.0);
}

// --- The choice of budget, without a database. ---

struct ContextSpec {
  rocksdb::CompactionStyle style = rocksdb::kCompactionStyleLevel;
  int num_levels = 4;
  int level = 0;
  bool bottommost = false;
  rocksdb::TableFileCreationReason reason =
      rocksdb::TableFileCreationReason::kCompaction;
};

// The bits per key of the builder `policy` hands RocksDB for `spec`; 0 for
// "no filter" (a null builder).
// The bits per key of the filter the builder makes of `keys` (a flush's
// builder chooses them at Finish, from the keys' range).
double BuilderBits(const rocksdb::FilterPolicy& policy, const ContextSpec& spec,
                   std::vector<std::string> keys = {"a", "b"}) {
  rocksdb::BlockBasedTableOptions table_options;
  rocksdb::FilterBuildingContext context(table_options);
  context.compaction_style = spec.style;
  context.num_levels = spec.num_levels;
  context.level_at_creation = spec.level;
  context.is_bottommost = spec.bottommost;
  context.reason = spec.reason;
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      policy.GetBuilderWithContext(context));
  if (builder == nullptr) return 0;
  auto* ours = dynamic_cast<rocksdb_internal::BitsBuilder*>(builder.get());
  EXPECT_NE(ours, nullptr);
  if (ours == nullptr) return -1;
  for (const std::string& key : keys) ours->AddKey(key);
  std::unique_ptr<const char[]> buf;
  ours->Finish(&buf);
  return ours->options().bits_per_key;
}

TEST(MonkeyLevelBitsTest, IsTheCoreAllocationForALeveledShape) {
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    for (int num_levels : {1, 3, 4, 7}) {
      for (double fanout : {10.0, 8.0}) {
        const RocksDBFilterOptions options{.bits_per_key = 10,
                                           .layout = layout,
                                           .monkey = true,
                                           .fanout = fanout};
        absl::StatusOr<std::vector<double>> expected =
            MonkeyBitsPerKey(layout, 10, LeveledShape(num_levels, fanout));
        ASSERT_TRUE(expected.ok());
        EXPECT_EQ(LevelBits(options, num_levels), *expected);
      }
    }
  }
  // Without monkey: the same everywhere.
  EXPECT_EQ(LevelBits({.bits_per_key = 7.5}, 5), std::vector<double>(5, 7.5));
  // More bits per key up the tree, about ln(10)/ln(2)^2 = 4.8 more per level.
  const std::vector<double> bits = LevelBits(kMonkey10, 4);
  for (size_t i = 1; i < bits.size(); ++i) EXPECT_GT(bits[i - 1], bits[i] + 4);
  EXPECT_LT(bits.back(), 10);

  EXPECT_FALSE(kMonkey10.LevelBitsPerKey(0).ok());
  EXPECT_FALSE(
      (RocksDBFilterOptions{.monkey = true, .fanout = 0.5}.LevelBitsPerKey(4))
          .ok());
}

TEST(MonkeyPolicyTest, PicksTheBudgetOfTheLevelAtCreation) {
  auto policy = NewRocksDBFilterPolicy(kMonkey10);
  ASSERT_NE(policy, nullptr);
  const std::vector<double> bits = LevelBits(kMonkey10, 4);
  for (int level = 1; level < 4; ++level) {
    EXPECT_EQ(BuilderBits(*policy, {.level = level}), bits[level]) << level;
  }
  // Flushes: the top budget where keys were flushed before; the budget
  // where none were (keys in order, and the first flush): RocksDB moves
  // such a file to the last level unrewritten.
  const ContextSpec flush{.level = 0,
                          .reason = rocksdb::TableFileCreationReason::kFlush};
  EXPECT_EQ(BuilderBits(*policy, flush, {"b", "d"}), 10);
  EXPECT_EQ(BuilderBits(*policy, flush, {"c", "e"}), bits[0]);  // overlaps
  EXPECT_EQ(BuilderBits(*policy, flush, {"f", "g"}), 10);       // above
  EXPECT_EQ(BuilderBits(*policy, flush, {"a"}), 10);            // below
  EXPECT_EQ(BuilderBits(*policy, flush, {"g", "a"}), bits[0]);  // across
  // Other files of L0 and an unknown level: the top budget.
  EXPECT_EQ(BuilderBits(*policy, {.level = 0}), bits[0]);
  EXPECT_EQ(BuilderBits(*policy, {.level = -1}), bits[0]);
  // Bottommost for its key range: the last level's budget, at any level.
  EXPECT_EQ(BuilderBits(*policy, {.level = 1, .bottommost = true}), bits[3]);
  EXPECT_EQ(BuilderBits(*policy, {.level = 3, .bottommost = true}), bits[3]);
  // The tree's depth comes from the context: 7 levels, another allocation.
  const std::vector<double> bits7 = LevelBits(kMonkey10, 7);
  EXPECT_EQ(BuilderBits(*policy, {.num_levels = 7, .level = 2}), bits7[2]);
  EXPECT_EQ(BuilderBits(*policy, {.num_levels = 7, .level = 6}), bits7[6]);
  // And the first shape is still cached as it was.
  EXPECT_EQ(BuilderBits(*policy, {.level = 2}), bits[2]);
}

TEST(MonkeyPolicyTest, UniformWhereLevelsDoNotApply) {
  auto policy = NewRocksDBFilterPolicy(kMonkey10);
  ASSERT_NE(policy, nullptr);
  for (const ContextSpec& spec : {
           ContextSpec{.style = rocksdb::kCompactionStyleUniversal, .level = 3},
           ContextSpec{.style = rocksdb::kCompactionStyleFIFO, .level = 0},
           ContextSpec{.style = rocksdb::kCompactionStyleNone, .level = 2},
           // SstFileWriter: RocksDB passes no level and no num_levels.
           ContextSpec{.num_levels = -1,
           .level = -1,
           .reason = rocksdb::TableFileCreationReason::kMisc},
           ContextSpec{.num_levels = 1, .level = 0},
       }) {
    EXPECT_EQ(BuilderBits(*policy, spec), 10);
  }
  // Without monkey, every level gets the configured bits per key.
  auto uniform = NewRocksDBFilterPolicy({.bits_per_key = 10});
  for (int level = 0; level < 7; ++level) {
    EXPECT_EQ(BuilderBits(*uniform, {.num_levels = 7, .level = level}), 10);
  }
}

TEST(MonkeyPolicyTest, FallsBackToUniformForAnOverflowingShape) {
  // 1000^199 overflows a double: no allocation, the average everywhere.
  const RocksDBFilterOptions options{
      .bits_per_key = 10, .monkey = true, .fanout = 1000};
  EXPECT_FALSE(options.LevelBitsPerKey(200).ok());
  auto policy = NewRocksDBFilterPolicy(options);
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(BuilderBits(*policy, {.num_levels = 200, .level = 0}), 10);
  EXPECT_EQ(BuilderBits(*policy, {.num_levels = 200, .level = 150}), 10);
  // A shape that fits still gets its allocation.
  EXPECT_GT(BuilderBits(*policy, {.num_levels = 4, .level = 0}), 20);
}

TEST(MonkeyPolicyTest, ScarceMemoryLeavesTheLastLevelWithoutFilter) {
  const RocksDBFilterOptions options{.bits_per_key = 0.5, .monkey = true};
  auto policy = NewRocksDBFilterPolicy(options);
  ASSERT_NE(policy, nullptr);
  const std::vector<double> bits = LevelBits(options, 4);
  ASSERT_EQ(bits.back(), 0);  // MonkeyBitsPerKey's choice at this budget
  EXPECT_EQ(BuilderBits(*policy, {.level = 3}), 0);  // null builder
  EXPECT_GT(BuilderBits(*policy, {.level = 1}), 5);
}

// --- Real databases. ---

// Key i of a tree of `kUnit * 1111` keys goes to level 0, 1, 2 or 3 in the
// proportions 1 : 10 : 100 : 1000 (the leveled shape at fanout 10), spread
// so that every level spans the whole key range and every missing key falls
// inside every file.
constexpr int kNumLevels = 4;
constexpr uint64_t kUnit = 40;
constexpr uint64_t kNumKeys = kUnit * 1111;

int LevelOfKey(uint64_t i) {
  const uint64_t r = i % 1111;
  if (r == 0) return 0;
  if (r <= 10) return 1;
  if (r <= 110) return 2;
  return 3;
}

struct FileInfo {
  int level;
  uint64_t num_entries;
  uint64_t filter_size;
};

// Every live SST file's level and filter, from the live files' metadata and
// their table properties.
std::vector<FileInfo> Files(rocksdb::DB& db) {
  std::vector<rocksdb::LiveFileMetaData> live;
  db.GetLiveFilesMetaData(&live);
  const rocksdb::TablePropertiesCollection props = AllTableProperties(db);
  std::vector<FileInfo> files;
  for (const rocksdb::LiveFileMetaData& f : live) {
    auto it = props.find(f.db_path + f.name);
    EXPECT_NE(it, props.end()) << f.db_path << f.name;
    if (it == props.end()) continue;
    files.push_back(
        {f.level, it->second->num_filter_entries, it->second->filter_size});
  }
  return files;
}

uint64_t TotalFilterBytes(rocksdb::DB& db) {
  uint64_t total = 0;
  for (const FileInfo& f : Files(db)) total += f.filter_size;
  return total;
}

// The exact size of the bloomgate block for `num_keys` at `bits_per_key`.
uint64_t BlockSize(Layout layout, double bits_per_key, uint64_t num_keys) {
  absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(
      FilterOptions{.bits_per_key = bits_per_key, .layout = layout});
  EXPECT_TRUE(builder.ok()) << builder.status();
  return builder.ok() ? builder->BlockSize(num_keys) : 0;
}

rocksdb::Options LeveledOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy) {
  DbOptionsSpec spec{.filter_policy = std::move(policy),
                     .no_block_cache = true};
  rocksdb::Options options = MakeOptions(spec);
  options.num_levels = kNumLevels;
  return options;
}

// Writes the keys of `level` into a new L0 file and, for levels 1 and up,
// compacts that file alone into `level`, so that RocksDB builds its filter
// for that level.
void WriteLevel(rocksdb::DB& db, int level) {
  for (uint64_t i = 0; i < kNumKeys; ++i) {
    if (LevelOfKey(i) != level) continue;
    ASSERT_TRUE(db.Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
  }
  ASSERT_TRUE(db.Flush(rocksdb::FlushOptions()).ok());
  if (level == 0) return;
  rocksdb::ColumnFamilyMetaData meta;
  db.GetColumnFamilyMetaData(&meta);
  ASSERT_EQ(meta.levels[0].files.size(), 1u);
  ASSERT_TRUE(db.CompactFiles(rocksdb::CompactionOptions(),
                              {meta.levels[0].files[0].name}, level)
                  .ok());
}

// Bottom level first, as a growing tree fills them.
void WriteTree(rocksdb::DB& db) {
  for (int level = kNumLevels - 1; level >= 0; --level) {
    WriteLevel(db, level);
  }
}

// Of every `step`-th key.
void ExpectReadsCorrect(rocksdb::DB& db, uint64_t step = 1) {
  std::string value;
  for (uint64_t i = 0; i < kNumKeys; i += step) {
    ASSERT_TRUE(db.Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
    ASSERT_EQ(value, Value(Key(i)));
    ASSERT_TRUE(
        db.Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound())
        << i;
  }
}

// Data blocks read by Gets of every missing key (no block cache: every
// data-block access is a read; filters and indexes stay in the table
// readers).
uint64_t MissingKeyDataBlockReads(rocksdb::DB& db) {
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableCount);
  rocksdb::get_perf_context()->Reset();
  std::string value;
  for (uint64_t i = 0; i < kNumKeys; ++i) {
    EXPECT_TRUE(
        db.Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound());
  }
  const rocksdb::PerfContext& perf = *rocksdb::get_perf_context();
  const uint64_t reads = perf.block_read_count - perf.index_block_read_count -
                         perf.filter_block_read_count;
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
  return reads;
}

TEST(MonkeyDbTest, FiltersFollowTheLevelAtCreation) {
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    SCOPED_TRACE(LayoutName(layout));
    const RocksDBFilterOptions monkey{
        .bits_per_key = 10, .layout = layout, .monkey = true};
    TempDir dir;
    auto db =
        OpenDb(LeveledOptions(NewRocksDBFilterPolicy(monkey)), dir.path());
    ASSERT_NE(db, nullptr);
    WriteTree(*db);

    const std::vector<double> bits = LevelBits(monkey, kNumLevels);
    const std::vector<FileInfo> files = Files(*db);
    ASSERT_EQ(files.size(), static_cast<size_t>(kNumLevels));
    std::map<int, double> measured;  // level -> filter bits per key
    for (const FileInfo& f : files) {
      SCOPED_TRACE(f.level);
      constexpr uint64_t kKeysPerUnit[kNumLevels] = {1, 10, 100, 1000};
      EXPECT_EQ(f.num_entries, kUnit * kKeysPerUnit[f.level]);
      // Exactly the block the core builds at this level's budget.
      EXPECT_EQ(f.filter_size, BlockSize(layout, bits[f.level], f.num_entries));
      measured[f.level] = 8.0 * f.filter_size / f.num_entries;
    }
    ASSERT_EQ(measured.size(), static_cast<size_t>(kNumLevels));
    // Larger levels, fewer bits per key (by about 5 per level; block
    // headers and cache-line rounding add a little on small files).
    for (int level = 1; level < kNumLevels; ++level) {
      EXPECT_GT(measured[level - 1], measured[level] + 3) << level;
    }
    ExpectReadsCorrect(*db);
  }
}

// The same tree with bloomgate:10 and bloomgate:10:monkey: about the same
// filter memory, fewer wasted reads for missing keys, as the allocation
// predicts. Figures quoted in docs/rocksdb-plugin.md come from this test's
// output.
TEST(MonkeyDbTest, SameMemoryFewerReadsThanUniform) {
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    SCOPED_TRACE(LayoutName(layout));
    struct Run {
      uint64_t filter_bytes;
      uint64_t reads;
      double predicted_fp_sum;
    };
    auto run = [&](const RocksDBFilterOptions& options) {
      TempDir dir;
      auto db =
          OpenDb(LeveledOptions(NewRocksDBFilterPolicy(options)), dir.path());
      EXPECT_NE(db, nullptr);
      WriteTree(*db);
      return Run{TotalFilterBytes(*db), MissingKeyDataBlockReads(*db),
                 SumOfFpRates(layout, LevelBits(options, kNumLevels))};
    };
    const Run uniform = run({.bits_per_key = 10, .layout = layout});
    const Run monkey =
        run({.bits_per_key = 10, .layout = layout, .monkey = true});

    // Memory: 1 : 10 : 100 : 1000 is the shape the allocation assumes, so
    // the same total within 1% (cache-line rounding of the small files).
    const double memory_ratio =
        static_cast<double>(monkey.filter_bytes) / uniform.filter_bytes;
    EXPECT_NEAR(memory_ratio, 1.0, 0.01);
    // Wasted reads: each within the binomial bound of its prediction (one
    // filter check per level per missing key), and Monkey well below.
    for (const Run& r : {uniform, monkey}) {
      EXPECT_LE(
          static_cast<double>(r.reads),
          FpUpperBound(r.predicted_fp_sum, static_cast<double>(kNumKeys)));
    }
    EXPECT_LT(2 * monkey.reads, uniform.reads);
    std::cout << "[ figures  ] " << LayoutName(layout) << ", " << kNumKeys
              << " keys in 4 levels (1:10:100:1000), " << kNumKeys
              << " missing-key Gets: uniform " << uniform.filter_bytes
              << " filter bytes, " << uniform.reads
              << " data-block reads (predicted "
              << uniform.predicted_fp_sum * kNumKeys << "); monkey "
              << monkey.filter_bytes << " bytes (x" << memory_ratio << "), "
              << monkey.reads << " reads (predicted "
              << monkey.predicted_fp_sum * kNumKeys << ")\n";
  }
}

// A file keeps the filter it was written with when RocksDB moves it to
// another level without rewriting it (a trivial move, or CompactRange's
// change_level): the block describes itself, and reads stay correct.
TEST(MonkeyDbTest, MovedFilesKeepWorking) {
  TempDir dir;
  rocksdb::Options options = LeveledOptions(NewRocksDBFilterPolicy(kMonkey10));
  options.statistics = rocksdb::CreateDBStatistics();
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  for (uint64_t i = 0; i < kNumKeys; ++i) {
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), Key(i), Value(Key(i))).ok());
  }
  ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  const std::vector<FileInfo> before = Files(*db);
  ASSERT_EQ(before.size(), 1u);
  ASSERT_EQ(before[0].level, 0);

  // One L0 file and nothing below: L0 -> L1 is a trivial move, then
  // change_level moves it on to the last level.
  rocksdb::CompactRangeOptions compact;
  compact.change_level = true;
  compact.target_level = kNumLevels - 1;
  ASSERT_TRUE(db->CompactRange(compact, nullptr, nullptr).ok());
  const std::vector<FileInfo> after = Files(*db);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].level, kNumLevels - 1);
  // Not rewritten: still the flush's filter, which has the budget: the
  // first flush, with nothing below it, is one RocksDB moves down.
  EXPECT_EQ(after[0].filter_size, before[0].filter_size);
  EXPECT_EQ(after[0].filter_size,
            BlockSize(Layout::kBlocked, kMonkey10.bits_per_key, kNumKeys));

  ExpectReadsCorrect(*db);
  // And the filter still filters: almost every missing key skipped the file.
  const uint64_t useful =
      options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
  EXPECT_GT(useful, kNumKeys * 99 / 100);

  // Reopened with the uniform policy: reads the same block.
  db.reset();
  db = OpenDb(LeveledOptions(NewRocksDBFilterPolicy({.bits_per_key = 10})),
              dir.path());
  ASSERT_NE(db, nullptr);
  ExpectReadsCorrect(*db);
}

// With scarce memory the last level gets no filter at all; RocksDB then
// reads those files unfiltered and results stay correct.
TEST(MonkeyDbTest, LevelWithoutFilterStillReadsCorrectly) {
  const RocksDBFilterOptions scarce{.bits_per_key = 0.5, .monkey = true};
  ASSERT_EQ(LevelBits(scarce, kNumLevels).back(), 0);
  TempDir dir;
  auto db = OpenDb(LeveledOptions(NewRocksDBFilterPolicy(scarce)), dir.path());
  ASSERT_NE(db, nullptr);
  WriteTree(*db);
  for (const FileInfo& f : Files(*db)) {
    if (f.level == kNumLevels - 1) {
      EXPECT_EQ(f.filter_size, 0u);
    } else {
      EXPECT_GT(f.filter_size, 0u) << f.level;
    }
  }
  ExpectReadsCorrect(*db);
}

// The keys automatic-compaction tests write, in scrambled order.
constexpr uint64_t kAutoKeys = 100000;

// A DB in `dir` with `options`, holding kAutoKeys keys once its flushes and
// the compactions RocksDB scheduled for them have settled; null after a
// failed expectation.
std::unique_ptr<rocksdb::DB> FillUnderAutomaticCompactions(
    const rocksdb::Options& options, const std::string& dir) {
  auto db = OpenDb(options, dir);
  EXPECT_NE(db, nullptr);
  if (db == nullptr) return nullptr;
  PutScrambled(*db, kAutoKeys);
  if (::testing::Test::HasFatalFailure()) return nullptr;
  EXPECT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  WaitForBackgroundWork(*db);
  return db;
}

// Every one of the kAutoKeys keys is found, and no missing key.
void ExpectAutoKeysRead(rocksdb::DB& db) {
  std::string value;
  for (uint64_t i = 0; i < kAutoKeys; ++i) {
    ASSERT_TRUE(db.Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
    ASSERT_TRUE(
        db.Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound())
        << i;
  }
}

// Records the context of every builder RocksDB asks `inner` for and the
// bits per key of the builder it got, so a test can check the choices made
// by compactions it does not schedule itself.
class RecordingPolicy : public rocksdb::FilterPolicy {
 public:
  struct Choice {
    int level;
    bool bottommost;
    rocksdb::TableFileCreationReason reason;
    // kBloomgate, kNone (a null builder) or, from a policy of mixed
    // families, kRocksDBRibbon (any builder not bloomgate's).
    FilterFamily family;
    double bits_per_key;  // bloomgate's builders only; 0 otherwise
  };

  explicit RecordingPolicy(std::shared_ptr<const rocksdb::FilterPolicy> inner)
      : inner_(std::move(inner)) {}

  const char* Name() const override { return inner_->Name(); }
  // The OPTIONS file names a policy by GetId(); RocksDB re-reads it and,
  // from 10.2, fails DB::Open unless the id reads back as an equal policy.
  std::string GetId() const override { return inner_->GetId(); }
  const char* CompatibilityName() const override {
    return inner_->CompatibilityName();
  }
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    rocksdb::FilterBitsBuilder* builder =
        inner_->GetBuilderWithContext(context);
    auto* ours = dynamic_cast<rocksdb_internal::BitsBuilder*>(builder);
    const FilterFamily family = builder == nullptr ? FilterFamily::kNone
                                : ours != nullptr
                                    ? FilterFamily::kBloomgate
                                    : FilterFamily::kRocksDBRibbon;
    std::lock_guard<std::mutex> lock(mu_);
    choices_.push_back({context.level_at_creation, context.is_bottommost,
                        context.reason, family,
                        ours != nullptr ? ours->options().bits_per_key : 0});
    return builder;
  }
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return inner_->GetFilterBitsReader(contents);
  }

  std::vector<Choice> choices() const {
    std::lock_guard<std::mutex> lock(mu_);
    return choices_;
  }

 private:
  const std::shared_ptr<const rocksdb::FilterPolicy> inner_;
  mutable std::mutex mu_;
  mutable std::vector<Choice> choices_;
};

// Automatic leveled compaction with small buffers and levels: the policy
// sees the real contexts of flushes and of compactions RocksDB schedules
// itself, gives each the budget of its level (the last level's when nothing
// lies below it), and every live file's filter is one of the allocation's.
TEST(MonkeyDbTest, AutomaticCompactionsUseTheirLevelsBudgets) {
  TempDir dir;
  auto recorder =
      std::make_shared<RecordingPolicy>(NewRocksDBFilterPolicy(kMonkey10));
  rocksdb::Options options = LeveledOptions(recorder);
  options.disable_auto_compactions = false;
  options.write_buffer_size = 32 << 10;
  options.target_file_size_base = 32 << 10;
  options.max_bytes_for_level_base = 64 << 10;
  options.level0_file_num_compaction_trigger = 2;
  auto db = FillUnderAutomaticCompactions(options, dir.path());
  ASSERT_NE(db, nullptr);

  const std::vector<double> bits = LevelBits(kMonkey10, kNumLevels);
  // Which levels compactions wrote to, and whether anything lay below them,
  // depends on when they ran (and on the release: dynamic level bytes is the
  // default from 8.4); the budget each got follows from both.
  const size_t last = bits.size() - 1;
  int flushes = 0, compactions_below_l0 = 0;
  for (const RecordingPolicy::Choice& c : recorder->choices()) {
    SCOPED_TRACE(::testing::Message()
                 << "level " << c.level << ", bottommost " << c.bottommost);
    EXPECT_EQ(c.family, FilterFamily::kBloomgate);
    if (c.reason == rocksdb::TableFileCreationReason::kFlush) {
      // Sized at Finish, by their keys (PicksTheBudgetOfTheLevelAtCreation).
    } else if (c.level <= 0) {  // intra-L0 compactions
      EXPECT_EQ(c.bits_per_key, bits.front());
    } else {
      EXPECT_EQ(c.bits_per_key, c.bottommost
                                    ? bits.back()
                                    : bits[std::min<size_t>(c.level, last)]);
    }
    flushes += c.reason == rocksdb::TableFileCreationReason::kFlush;
    compactions_below_l0 +=
        c.reason == rocksdb::TableFileCreationReason::kCompaction &&
        c.level >= 1;
  }
  // 100,000 keys in 32 KiB memtables: many flushes, and the compactions
  // they trigger, whose budgets (below L0's) differ from the flushes'.
  EXPECT_GT(flushes, 2);
  EXPECT_GT(compactions_below_l0, 0);

  std::map<int, int> files_per_level;
  for (const FileInfo& f : Files(*db)) {
    ++files_per_level[f.level];
    int matches = 0;
    for (double b : bits) {
      if (f.filter_size == BlockSize(Layout::kBlocked, b, f.num_entries)) {
        ++matches;
        break;
      }
    }
    EXPECT_EQ(matches, 1) << "level " << f.level << ": " << f.filter_size
                          << " bytes for " << f.num_entries << " keys";
  }
  // Never fewer than two levels for 100,000 keys in 32 KiB files.
  EXPECT_GE(files_per_level.size(), 2u);
  for (const auto& [level, n] : files_per_level) {
    std::cout << "[ figures  ] L" << level << ": " << n << " files\n";
  }
  ExpectAutoKeysRead(*db);
}

// --- Mixed families (RocksDBFilterOptions::mixed): each level's family by
// the cost model, RocksDB's Ribbon builder for Ribbon levels. ---

const RocksDBFilterOptions kMixed10{
    .bits_per_key = 10, .monkey = true, .mixed = true};

// The filters LevelFilters chooses for the test's tree: at the default
// Ribbon overhead, or at the one the policy takes from RocksDB
// (CostInputsFor) to compare with its choices.
std::vector<RunFilter> MixedLevels(const RocksDBFilterOptions& options,
                                   const CostInputs& costs = {}) {
  absl::StatusOr<std::vector<RunFilter>> filters =
      LevelFilters(options, kNumLevels, costs);
  EXPECT_TRUE(filters.ok()) << filters.status();
  return filters.ok() ? *filters : std::vector<RunFilter>(kNumLevels);
}

// Reads from a device (the default read time): the large last level's
// memory buys more as Ribbon, the small top levels' as bloomgate's Bloom,
// whose probes cost less. From the page cache, Ribbon's probes cost more
// than its false positives save: bloomgate everywhere.
TEST(MixedPolicyTest, TheCostModelPutsRibbonWhereTheMemoryIs) {
  const std::vector<RunFilter> device = MixedLevels(kMixed10);
  EXPECT_EQ(device.front().family, FilterFamily::kBloomgate);
  EXPECT_EQ(device.back().family, FilterFamily::kRocksDBRibbon);
  RocksDBFilterOptions cached = kMixed10;
  cached.read_micros = kDefaultPageCacheReadMicros;
  for (const RunFilter& f : MixedLevels(cached)) {
    EXPECT_EQ(f.family, FilterFamily::kBloomgate);
  }
}

// The builder the policy hands RocksDB for each level writes that level's
// family at its memory: RocksDB's Ribbon block or bloomgate's.
TEST(MixedPolicyTest, EachLevelGetsItsFamilysBuilderAtItsMemory) {
  auto policy = NewRocksDBFilterPolicy(kMixed10);
  const std::vector<RunFilter> levels =
      MixedLevels(kMixed10, CostInputsFor(kRocksDBAssumedKeysPerFile));
  constexpr uint64_t kKeys = kRocksDBAssumedKeysPerFile;
  for (int level = 0; level < kNumLevels; ++level) {
    SCOPED_TRACE(::testing::Message() << "level " << level);
    rocksdb::BlockBasedTableOptions table_options;
    rocksdb::FilterBuildingContext context(table_options);
    context.compaction_style = rocksdb::kCompactionStyleLevel;
    context.num_levels = kNumLevels;
    context.level_at_creation = level;
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
        policy->GetBuilderWithContext(context));
    ASSERT_NE(builder, nullptr);
    for (uint64_t i = 0; i < kKeys; ++i) builder->AddKey(Key(i));
    std::unique_ptr<const char[]> buf;
    const rocksdb::Slice block = builder->Finish(&buf);
    const bool ribbon = levels[level].family == FilterFamily::kRocksDBRibbon;
    EXPECT_EQ(rocksdb_internal::IsBuiltinFilterBlock(
                  std::string_view(block.data(), block.size())),
              ribbon);
    EXPECT_NEAR(static_cast<double>(block.size()) * 8 / kKeys,
                levels[level].bits_per_key, 0.02 * levels[level].bits_per_key);
    // Any bloomgate policy reads either block: no false negatives.
    std::unique_ptr<rocksdb::FilterBitsReader> reader(
        NewRocksDBFilterPolicy()->GetFilterBitsReader(block));
    for (uint64_t i = 0; i < kKeys; i += 7) {
      ASSERT_TRUE(reader->MayMatch(Key(i))) << i;
    }
  }
}

// A tree written level by level with the mixed policy, by name as an
// OPTIONS file gives it, for full and for partitioned filters: every
// configuration reads it correctly through Get, MultiGet and iterators,
// prefix seeks included, and any bloomgate policy uses both families'
// filters.
class MixedDbTest : public ::testing::TestWithParam<bool /*partitioned*/> {
 protected:
  rocksdb::Options Options(std::shared_ptr<const rocksdb::FilterPolicy> p) {
    rocksdb::Options options = MakeOptions({.filter_policy = std::move(p),
                                            .partitioned = GetParam(),
                                            .no_block_cache = true});
    options.num_levels = kNumLevels;
    // "key" and 6 of the 8 digits: 100 numbers a prefix.
    options.prefix_extractor.reset(rocksdb::NewCappedPrefixTransform(9));
    return options;
  }

  // Every key found by Get, MultiGet, a full scan and a prefix seek;
  // missing keys by none.
  // Gets of every kStep-th key.
  static constexpr uint64_t kStep = 4;

  void ExpectEveryReadCorrect(rocksdb::DB& db) {
    ExpectReadsCorrect(db, kStep);
    std::vector<rocksdb::Slice> keys;
    std::vector<std::string> storage;
    for (uint64_t i = 0; i < kNumKeys; i += 97) {
      storage.push_back(Key(i));
      storage.push_back(MissingKey(i));
    }
    keys.assign(storage.begin(), storage.end());
    std::vector<rocksdb::PinnableSlice> values(keys.size());
    std::vector<rocksdb::Status> statuses(keys.size());
    db.MultiGet(rocksdb::ReadOptions(), db.DefaultColumnFamily(), keys.size(),
                keys.data(), values.data(), statuses.data());
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_EQ(statuses[i].ok(), i % 2 == 0) << storage[i];
    }
    std::unique_ptr<rocksdb::Iterator> all(
        db.NewIterator(rocksdb::ReadOptions()));
    uint64_t scanned = 0;
    for (all->SeekToFirst(); all->Valid(); all->Next()) ++scanned;
    ASSERT_TRUE(all->status().ok());
    EXPECT_EQ(scanned, kNumKeys);
    rocksdb::ReadOptions same_prefix;
    same_prefix.prefix_same_as_start = true;
    for (uint64_t i = 0; i < kNumKeys; i += 1013) {
      const std::string prefix = Key(i).substr(0, 9);
      std::unique_ptr<rocksdb::Iterator> it(db.NewIterator(same_prefix));
      uint64_t found = 0;
      for (it->Seek(prefix); it->Valid(); it->Next()) {
        ASSERT_EQ(it->key().ToString().substr(0, 9), prefix);
        ++found;
      }
      ASSERT_TRUE(it->status().ok());
      EXPECT_EQ(found, 50u) << prefix;  // 100 numbers, every other present
    }
  }
};

TEST_P(MixedDbTest, EveryPolicyReadsATreeOfMixedFamilies) {
  TempDir dir;
  RegisterRocksDBPlugin();
  rocksdb::ConfigOptions config;
  config.ignore_unsupported_options = false;
  std::shared_ptr<const rocksdb::FilterPolicy> by_name;
  ASSERT_TRUE(rocksdb::FilterPolicy::CreateFromString(
                  config, "bloomgate:10:monkey:mixed", &by_name)
                  .ok());
  ASSERT_EQ(by_name->GetId(), "bloomgate:10:blocked:monkey:mixed");
  auto recorder = std::make_shared<RecordingPolicy>(by_name);
  {
    const rocksdb::Options options = Options(recorder);
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    WriteTree(*db);
    if (HasFatalFailure()) return;
    ExpectEveryReadCorrect(*db);
    // Each missing key's lookup consults a filter at every level: nearly
    // all of them say no.
    EXPECT_GT(Ticker(options, rocksdb::BLOOM_FILTER_USEFUL),
              kNumKeys / kStep * kNumLevels * 95 / 100);
  }
  const std::vector<RunFilter> levels =
      MixedLevels(kMixed10, CostInputsFor(kRocksDBAssumedKeysPerFile));
  std::set<FilterFamily> families;
  for (const RecordingPolicy::Choice& c : recorder->choices()) {
    families.insert(c.family);
    if (c.reason == rocksdb::TableFileCreationReason::kCompaction) {
      EXPECT_EQ(c.family, levels[c.level].family) << "level " << c.level;
    }
  }
  EXPECT_TRUE(families.contains(FilterFamily::kRocksDBRibbon));
  EXPECT_TRUE(families.contains(FilterFamily::kBloomgate));

  // A bloomgate policy of another configuration uses both families.
  {
    const rocksdb::Options options = Options(NewRocksDBFilterPolicy(
        {.bits_per_key = 6, .layout = Layout::kStandard}));
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    ExpectEveryReadCorrect(*db);
    EXPECT_GT(Ticker(options, rocksdb::BLOOM_FILTER_USEFUL),
              kNumKeys / kStep * kNumLevels * 95 / 100);
  }
  // RocksDB's built-in filter and no filter: correct, without filtering.
  for (auto policy : {std::shared_ptr<const rocksdb::FilterPolicy>(
                          rocksdb::NewBloomFilterPolicy(10)),
                      std::shared_ptr<const rocksdb::FilterPolicy>()}) {
    const rocksdb::Options options = Options(policy);
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    ExpectEveryReadCorrect(*db);
    EXPECT_EQ(Ticker(options, rocksdb::BLOOM_FILTER_USEFUL), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(FullAndPartitioned, MixedDbTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "partitioned" : "full";
                         });

// From the live tree, under RocksDB's own compactions: both families get
// built, the filters stay near the budget, and reads are correct.
TEST(MixedDbTest, LiveTreeChoosesFamiliesUnderAutomaticCompactions) {
  absl::StatusOr<RocksDBLiveTreeFilter> live =
      CreateRocksDBLiveTreeFilter(kMixed10);
  ASSERT_TRUE(live.ok()) << live.status();
  TempDir dir;
  auto recorder = std::make_shared<RecordingPolicy>(live->policy);
  rocksdb::Options options = LeveledOptions(recorder);
  options.listeners.push_back(live->listener);
  options.disable_auto_compactions = false;
  options.write_buffer_size = 64 << 10;
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 128 << 10;
  auto db = FillUnderAutomaticCompactions(options, dir.path());
  ASSERT_NE(db, nullptr);

  std::set<FilterFamily> families;
  for (const RecordingPolicy::Choice& c : recorder->choices()) {
    families.insert(c.family);
  }
  EXPECT_TRUE(families.contains(FilterFamily::kRocksDBRibbon));
  EXPECT_TRUE(families.contains(FilterFamily::kBloomgate));
  uint64_t keys = 0;
  for (const FileInfo& f : Files(*db)) keys += f.num_entries;
  const double bits = 8.0 * static_cast<double>(TotalFilterBytes(*db)) /
                      static_cast<double>(keys);
  std::cout << "[ figures  ] mixed live tree: " << bits << " bits/key\n";
  // The choices are made before each file's keys are known (flushes from
  // the last one's), so the budget is kept less tightly than by bloomgate
  // alone, which sizes at Finish.
  EXPECT_NEAR(bits, 10, 1.0);
  ExpectAutoKeysRead(*db);
}

// Mixed families name what is wrong, in code and by name.
TEST(MixedPolicyTest, BadSpecsAreRefusedByName) {
  RegisterRocksDBPlugin();
  for (std::string_view id :
       {"bloomgate:10:mixed", "bloomgate:10:monkey:mixed:-1",
        "bloomgate:10:monkey:mixd", "bloomgate:10:monkey:mixed:fast"}) {
    absl::StatusOr<RocksDBFilterOptions> parsed =
        ParseRocksDBFilterPolicyId(id);
    EXPECT_EQ(parsed.status().code(), absl::StatusCode::kInvalidArgument) << id;
    std::shared_ptr<const rocksdb::FilterPolicy> policy;
    rocksdb::ConfigOptions config;
    config.ignore_unsupported_options = false;
    EXPECT_FALSE(rocksdb::FilterPolicy::CreateFromString(
                     config, std::string(id), &policy)
                     .ok())
        << id;
  }
  EXPECT_EQ(CreateRocksDBFilterPolicy({.bits_per_key = 10, .mixed = true})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(CreateRocksDBLiveTreeFilter({.bits_per_key = 10,
                                         .monkey = true,
                                         .mixed = true,
                                         .read_micros = std::nan("")})
                .status()
                .code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace bloomgate::testing_rocksdb
