// Copyright 2026 The bloomgate Authors.
//
// `bloomgate plan` on a small RocksDB database built here: what it reads,
// what it predicts, that it writes nothing, and that its prediction for
// RocksDB's Bloom filter is what RocksDB's filters do.

#include "tools/sizer/plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "bloomgate/sizing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "tests/testing/temp_dir.h"

namespace bloomgate::tools {
namespace {

using ::testing::HasSubstr;

// The benchmark's key space: present key i is slot 2i, absent key i slot
// 2i + 1, each the slot's decimal number in 16 digits.
std::string Slot(uint64_t slot) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%016llu",
                static_cast<unsigned long long>(slot));
  return buf;
}
std::string PresentKey(uint64_t i) { return Slot(2 * i); }
std::string AbsentKey(uint64_t i) { return Slot(2 * i + 1); }

uint64_t Mix(uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

constexpr uint64_t kKeys = 40000;

rocksdb::Options DbOptions(std::shared_ptr<const rocksdb::FilterPolicy> policy =
                               std::shared_ptr<const rocksdb::FilterPolicy>(
                                   rocksdb::NewBloomFilterPolicy(10))) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.disable_auto_compactions = true;
  options.write_buffer_size = 4 << 20;
  options.target_file_size_base = 128 << 10;
  options.num_levels = 4;
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = std::move(policy);
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return options;
}

// 40,000 keys in L0 (2 files), L1 (1 file) and L2 (several files), every
// file's key range spanning most of the key space, as a random fill leaves
// it: 30,000 keys compacted into L2, then 5,000 flushed and moved into L1,
// then 2 x 2,500 flushed into L0.
void BuildDatabase(const std::string& path,
                   const rocksdb::Options& options = DbOptions()) {
  std::unique_ptr<rocksdb::DB> db;
  ASSERT_TRUE(rocksdb_compat::OpenDB(options, path, &db).ok());
  // The keys in a seeded random order (Fisher-Yates); each phase writes a
  // slice of it.
  std::vector<uint64_t> order(kKeys);
  for (uint64_t i = 0; i < kKeys; ++i) order[i] = i;
  for (uint64_t i = kKeys - 1; i > 0; --i) {
    std::swap(order[i], order[Mix(i) % (i + 1)]);
  }
  auto write = [&](uint64_t begin, uint64_t end) {
    for (uint64_t n = begin; n < end; ++n) {
      const std::string key = PresentKey(order[n]);
      ASSERT_TRUE(db->Put({}, key, "value-" + key).ok());
    }
    ASSERT_TRUE(db->Flush({}).ok());
  };
  write(0, 10000);
  write(10000, 20000);
  write(20000, 30000);
  rocksdb::CompactRangeOptions to_l2;
  to_l2.change_level = true;
  to_l2.target_level = 2;
  ASSERT_TRUE(db->CompactRange(to_l2, nullptr, nullptr).ok());
  write(30000, 35000);
  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  std::vector<std::string> l0;
  for (const auto& f : live) {
    if (f.level == 0) l0.push_back(f.name);
  }
  ASSERT_EQ(l0.size(), 1u);
  ASSERT_TRUE(db->CompactFiles(rocksdb::CompactionOptions(), l0, 1).ok());
  write(35000, 37500);
  write(37500, 40000);
  ASSERT_TRUE(db->Close().ok());
}

// Every file of the folder with its size.
std::map<std::string, uintmax_t> Listing(const std::string& path) {
  std::map<std::string, uintmax_t> files;
  for (const auto& entry : std::filesystem::directory_iterator(path)) {
    files[entry.path().filename().string()] =
        entry.is_regular_file() ? entry.file_size() : 0;
  }
  return files;
}

class PlanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test_support::TempDir("bloomgate_plan_test");
    BuildDatabase(Path());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string Path() { return dir_->Sub("db"); }

  static const PolicyPlan& Policy(const PlanReport& report,
                                  const std::string& name) {
    for (const PolicyPlan& p : report.policies) {
      if (p.name == name) return p;
    }
    ADD_FAILURE() << "no policy " << name;
    return report.policies.front();
  }

  static test_support::TempDir* dir_;
};
test_support::TempDir* PlanTest::dir_ = nullptr;

TEST_F(PlanTest, ReadsTheTreeAsWritten) {
  absl::StatusOr<PlanReport> report = Plan({.db_path = Path()});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->keys, kKeys);
  std::map<int, uint64_t> files_at, keys_at;
  uint64_t filter_bytes = 0;
  for (const PlanFile& f : report->files) {
    ++files_at[f.level];
    keys_at[f.level] += f.entries;
    filter_bytes += f.filter_bytes;
    EXPECT_GT(f.filter_bytes, 0u) << f.name;
    EXPECT_EQ(f.filter_policy, "bloomfilter");  // NewBloomFilterPolicy
    EXPECT_GT(f.reach, 0) << f.name;
    EXPECT_LE(f.reach, 1) << f.name;
  }
  EXPECT_EQ(files_at[0], 2u);
  EXPECT_EQ(files_at[1], 1u);
  EXPECT_GE(files_at[2], 2u);
  EXPECT_EQ(keys_at[0], 5000u);
  EXPECT_EQ(keys_at[1], 5000u);
  EXPECT_EQ(keys_at[2], 30000u);
  ASSERT_EQ(report->levels.size(), 3u);
  EXPECT_EQ(report->levels[2].files, files_at[2]);
  EXPECT_EQ(report->filter_bytes, filter_bytes);
  EXPECT_NEAR(report->current_bits_per_key,
              8.0 * static_cast<double>(filter_bytes) / kKeys, 1e-9);
  // The memory planned for is the filters' own when --memory is not given.
  EXPECT_FALSE(report->memory_given);
  EXPECT_EQ(report->memory_bytes, filter_bytes);
  // Every file spans nearly the key space, and L2 as a whole all of it.
  EXPECT_NEAR(report->levels[2].reach, 1.0, 0.01);
  EXPECT_NEAR(report->levels[0].reach, 2.0, 0.02);
}

TEST_F(PlanTest, PredictionsAreOrderedAsTheTheorySays) {
  absl::StatusOr<PlanReport> report = Plan({.db_path = Path()});
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->policies.size(), 6u);
  for (const PolicyPlan& p : report->policies) {
    EXPECT_GT(p.reads_per_absent_lookup, 0) << p.name;
    EXPECT_LT(p.reads_per_absent_lookup, 0.2) << p.name;
  }
  const double bloom = Policy(*report, "rocksdb_bloom").reads_per_absent_lookup;
  const double monkey =
      Policy(*report, "bloomgate_monkey").reads_per_absent_lookup;
  const double ribbon =
      Policy(*report, "rocksdb_ribbon").reads_per_absent_lookup;
  const double hybrid =
      Policy(*report, "rocksdb_hybrid").reads_per_absent_lookup;
  const double floor = Policy(*report, "floor").reads_per_absent_lookup;
  EXPECT_LE(floor, monkey);
  EXPECT_LE(monkey, bloom);
  // Ribbon buys more FP rate with the same memory; the hybrid lies between.
  EXPECT_LT(ribbon, bloom);
  EXPECT_LE(ribbon, hybrid);
  EXPECT_LE(hybrid, bloom);
  EXPECT_LE(floor, ribbon);
  // Each policy with levels spends the memory: the key-weighted mean of its
  // levels' bits per key is the planned memory.
  for (const PolicyPlan& p : report->policies) {
    if (p.level_bits_per_key.empty() || p.name == "bloomgate_mixed") continue;
    double bits = 0;
    for (size_t l = 0; l < report->levels.size(); ++l) {
      bits +=
          p.level_bits_per_key[l] * static_cast<double>(report->levels[l].keys);
    }
    EXPECT_NEAR(bits / kKeys, report->memory_bits_per_key,
                0.01 * report->memory_bits_per_key)
        << p.name;
  }
  EXPECT_EQ(Policy(*report, "rocksdb_hybrid").level_family[0], "bloom");
  EXPECT_EQ(Policy(*report, "rocksdb_hybrid").level_family[2], "ribbon");
}

TEST_F(PlanTest, MoreMemoryFewerReads) {
  absl::StatusOr<PlanReport> less =
      Plan({.db_path = Path(), .memory_bytes = 40000});
  absl::StatusOr<PlanReport> more =
      Plan({.db_path = Path(), .memory_bytes = 80000});
  ASSERT_TRUE(less.ok()) << less.status();
  ASSERT_TRUE(more.ok()) << more.status();
  EXPECT_TRUE(more->memory_given);
  EXPECT_NEAR(more->memory_bits_per_key, 16.0, 1e-9);
  ASSERT_EQ(less->policies.size(), more->policies.size());
  for (size_t i = 0; i < less->policies.size(); ++i) {
    EXPECT_LT(more->policies[i].reads_per_absent_lookup,
              less->policies[i].reads_per_absent_lookup)
        << more->policies[i].name;
  }
}

TEST_F(PlanTest, LeavesTheDatabaseAsItWas) {
  const auto before = Listing(Path());
  ASSERT_TRUE(Plan({.db_path = Path()}).ok());
  ASSERT_TRUE(Plan({.db_path = Path(), .memory_bytes = 100000}).ok());
  EXPECT_EQ(Listing(Path()), before);
}

constexpr uint64_t kLookups = 100000;

// The absent keys the measurements look up.
std::vector<std::string> AbsentLookups() {
  std::vector<std::string> lookups;
  for (uint64_t n = 0; n < kLookups; ++n) {
    lookups.push_back(AbsentKey(Mix(n + 12345) % (kKeys - 1)));
  }
  return lookups;
}

// The data-block reads per absent-key lookup of the database at `path`
// opened with `options`, as RocksDB counts them: every absent-key Get that
// passes a file's filter is one BLOOM_FILTER_FULL_POSITIVE (none is a true
// positive), a data-block read that finds nothing, as the benchmark counts
// reads. -1 on a failure, which the test has reported.
double MeasuredReadsPerAbsentLookup(const std::string& path,
                                    rocksdb::Options options) {
  options.create_if_missing = false;
  options.statistics = rocksdb::CreateDBStatistics();
  std::unique_ptr<rocksdb::DB> db;
  EXPECT_TRUE(rocksdb_compat::OpenDB(options, path, &db).ok());
  if (db == nullptr) return -1;
  std::string value;
  for (const std::string& key : AbsentLookups()) {
    EXPECT_TRUE(db->Get({}, key, &value).IsNotFound()) << key;
  }
  EXPECT_EQ(options.statistics->getTickerCount(
                rocksdb::BLOOM_FILTER_FULL_TRUE_POSITIVE),
            0u);
  return static_cast<double>(options.statistics->getTickerCount(
             rocksdb::BLOOM_FILTER_FULL_POSITIVE)) /
         kLookups;
}

// How far a measured count may fall from a prediction `predicted` of reads
// per lookup over kLookups lookups: the count is a sum of independent
// Bernoulli trials whose variance is at most its mean, so 4 standard
// deviations, plus 10% for the model (the FP formulas and the reach
// estimated from key ranks).
double Bound(double predicted) {
  return 4 * std::sqrt(predicted * kLookups) / kLookups + 0.1 * predicted;
}

// The lookups as a file for --lookups, at `path`.
void WriteLookups(const std::string& path) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  ASSERT_NE(out, nullptr);
  for (const std::string& key : AbsentLookups()) {
    std::fprintf(out, "%s\n", key.c_str());
  }
  std::fclose(out);
}

// The prediction for the filters as they are against RocksDB's own count
// of them.
TEST_F(PlanTest, PredictionMatchesRocksDBsFilters) {
  absl::StatusOr<PlanReport> report = Plan({.db_path = Path()});
  ASSERT_TRUE(report.ok()) << report.status();
  const double measured = MeasuredReadsPerAbsentLookup(Path(), DbOptions());
  const double predicted = report->current_reads_per_absent_lookup;
  const double bound = Bound(predicted);
  EXPECT_NEAR(measured, predicted, bound);
  RecordProperty("measured", absl::StrFormat("%.5f", measured));
  RecordProperty("predicted", absl::StrFormat("%.5f", predicted));

  // At the filters' own memory RocksDB Bloom's uniform plan is the same
  // filters, up to their rounding to whole cache lines, which these small
  // files (2,000 to 5,000 keys) feel.
  EXPECT_NEAR(Policy(*report, "rocksdb_bloom").reads_per_absent_lookup,
              predicted, 0.1 * predicted);

  // With the lookups themselves as the sample, each file's reach is counted.
  const std::string sample = dir_->Sub("lookups.txt");
  WriteLookups(sample);
  absl::StatusOr<PlanReport> sampled =
      Plan({.db_path = Path(), .lookups_path = sample});
  ASSERT_TRUE(sampled.ok()) << sampled.status();
  EXPECT_THAT(sampled->reach_model, HasSubstr("100000 keys"));
  EXPECT_NEAR(measured, sampled->current_reads_per_absent_lookup, bound);
}

TEST_F(PlanTest, JsonHasTheSame) {
  absl::StatusOr<PlanReport> report =
      Plan({.db_path = Path(), .memory_bytes = 50000});
  ASSERT_TRUE(report.ok()) << report.status();
  const nlohmann::json json = nlohmann::json::parse(FormatPlanJson(*report));
  EXPECT_EQ(json["keys"], kKeys);
  EXPECT_EQ(json["memory_bytes"], 50000);
  EXPECT_EQ(json["levels"].size(), 3u);
  ASSERT_EQ(json["policies"].size(), report->policies.size());
  EXPECT_EQ(json["policies"][0]["name"], "rocksdb_bloom");
  EXPECT_DOUBLE_EQ(json["policies"][0]["reads_per_absent_lookup"],
                   report->policies[0].reads_per_absent_lookup);
  const std::string text = FormatPlanText(*report);
  EXPECT_THAT(text, HasSubstr("bloomgate_monkey"));
  EXPECT_THAT(text, HasSubstr("40000 keys"));
}

TEST_F(PlanTest, RejectsWhatIsNotADatabase) {
  test_support::TempDir empty("bloomgate_plan_empty");
  absl::StatusOr<PlanReport> report = Plan({.db_path = empty.path()});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr(empty.path()));
  EXPECT_THAT(report.status().message(), HasSubstr("not a RocksDB database"));
  EXPECT_TRUE(std::filesystem::is_empty(empty.path()));

  report = Plan({.db_path = empty.Sub("missing")});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("no such directory"));
  EXPECT_FALSE(std::filesystem::exists(empty.Sub("missing")));

  report = Plan({.db_path = Path(), .column_family = "nope"});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("no column family"));

  report = Plan({.db_path = Path(), .lookups_path = empty.Sub("none.txt")});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("lookups file"));

  // More memory than any filter takes.
  report = Plan({.db_path = Path(), .memory_bytes = uint64_t{1} << 30});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("bits per key"));

  // A database without SST files: nothing to plan.
  const std::string fresh = empty.Sub("fresh");
  {
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(rocksdb_compat::OpenDB(DbOptions(), fresh, &db).ok());
    ASSERT_TRUE(db->Close().ok());
  }
  report = Plan({.db_path = fresh});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr(fresh + ": "));
  EXPECT_THAT(report.status().message(), HasSubstr("no live SST files"));
}

// `now` reads each file's filter as what its block is, whatever policy
// wrote it: for each policy, the tree above (L0, L1, L2) written with it,
// the kinds plan reads at each level, and its `now` against RocksDB's count
// of the filters' positives.
struct NowCase {
  const char* name;
  // The policy: RocksDB's by a factory, bloomgate's by its name, with the
  // live tree's listener where `live_tree`.
  std::function<const rocksdb::FilterPolicy*()> rocksdb_policy;
  const char* bloomgate_name;
  bool live_tree;
  // FilterKindName of each level's filters, L0 to L2.
  std::vector<std::string> level_kinds;
  // Whether the policy's name alone (every block taken to be what the name
  // writes) misreads the tree beyond the bound, as it does a policy that
  // writes two families: what reading the blocks changes.
  bool name_misreads;

  friend void PrintTo(const NowCase& c, std::ostream* os) { *os << c.name; }
};

class PlanNowTest : public ::testing::TestWithParam<NowCase> {
 protected:
  static rocksdb::Options Options() {
    const NowCase& c = GetParam();
    if (c.rocksdb_policy) {
      return DbOptions(
          std::shared_ptr<const rocksdb::FilterPolicy>(c.rocksdb_policy()));
    }
    absl::StatusOr<RocksDBFilterOptions> named =
        ParseRocksDBFilterPolicyId(c.bloomgate_name);
    EXPECT_TRUE(named.ok()) << named.status();
    if (!c.live_tree) {
      absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
          CreateRocksDBFilterPolicy(named.value_or(RocksDBFilterOptions{}));
      EXPECT_TRUE(policy.ok()) << policy.status();
      return DbOptions(policy.value_or(nullptr));
    }
    absl::StatusOr<RocksDBLiveTreeFilter> pair =
        CreateRocksDBLiveTreeFilter(named.value_or(RocksDBFilterOptions{}));
    EXPECT_TRUE(pair.ok()) << pair.status();
    if (!pair.ok()) return DbOptions();
    rocksdb::Options options = DbOptions(pair->policy);
    options.listeners.push_back(pair->listener);
    return options;
  }
};

TEST_P(PlanNowTest, ReadsEachFilterAsItsBlockIs) {
  test_support::TempDir dir("bloomgate_plan_now_test");
  const std::string path = dir.Sub("db");
  const rocksdb::Options options = Options();
  BuildDatabase(path, options);
  absl::StatusOr<PlanReport> report = Plan({.db_path = path});
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->levels.size(), 3u);
  for (size_t l = 0; l < 3; ++l) {
    EXPECT_EQ(report->levels[l].filter_kinds, GetParam().level_kinds[l])
        << "L" << l;
  }

  const double measured = MeasuredReadsPerAbsentLookup(path, options);
  const double predicted = report->current_reads_per_absent_lookup;
  EXPECT_NEAR(measured, predicted, Bound(predicted));
  const std::string sample = dir.Sub("lookups.txt");
  WriteLookups(sample);
  absl::StatusOr<PlanReport> sampled =
      Plan({.db_path = path, .lookups_path = sample});
  ASSERT_TRUE(sampled.ok()) << sampled.status();
  EXPECT_NEAR(measured, sampled->current_reads_per_absent_lookup,
              Bound(sampled->current_reads_per_absent_lookup));

  // What the policy's name alone would have said (every block unread).
  std::vector<PlanFile> unread = report->files;
  for (PlanFile& f : unread) f.filter = {};
  absl::StatusOr<PlanReport> named = PlanFromFiles(unread, std::nullopt);
  ASSERT_TRUE(named.ok()) << named.status();
  const double by_name = named->current_reads_per_absent_lookup;
  if (GetParam().name_misreads) {
    EXPECT_GT(std::abs(measured - by_name), Bound(by_name));
  }
  RecordProperty("measured", absl::StrFormat("%.5f", measured));
  RecordProperty("predicted", absl::StrFormat("%.5f", predicted));
  RecordProperty("by_name", absl::StrFormat("%.5f", by_name));
}

INSTANTIATE_TEST_SUITE_P(
    Policies, PlanNowTest,
    ::testing::Values(
        NowCase{"rocksdb_ribbon",
                [] { return rocksdb::NewRibbonFilterPolicy(10, -1); },
                "",
                false,
                {"rocksdb_ribbon", "rocksdb_ribbon", "rocksdb_ribbon"},
                false},
        // The hybrid: Bloom on level 0, Ribbon below.
        NowCase{"rocksdb_hybrid",
                [] { return rocksdb::NewRibbonFilterPolicy(10, 1); },
                "",
                false,
                {"rocksdb_bloom", "rocksdb_ribbon", "rocksdb_ribbon"},
                true},
        NowCase{"bloomgate",
                nullptr,
                "bloomgate:10",
                false,
                {"bloomgate", "bloomgate", "bloomgate"},
                false},
        NowCase{"bloomgate_standard",
                nullptr,
                "bloomgate:10:standard",
                false,
                {"bloomgate", "bloomgate", "bloomgate"},
                false},
        // On the live tree, with probes of Ribbon's filter taken to cost
        // next to nothing beside bloomgate's: every compaction's output
        // gets Ribbon's filter, every flush bloomgate's (a flush's family
        // is chosen before its keys are known). All under the one policy
        // name "bloomgate".
        NowCase{"bloomgate_mixed",
                nullptr,
                "bloomgate:10:monkey:mixed:probe_ns=1000/1",
                true,
                {"bloomgate", "rocksdb_ribbon", "rocksdb_ribbon"},
                true}),
    [](const ::testing::TestParamInfo<NowCase>& info) {
      return std::string(info.param.name);
    });

// --column_family: the files of that column family only.
TEST(PlanColumnFamilyTest, ReadsTheColumnFamilyAsked) {
  test_support::TempDir dir("bloomgate_plan_cf");
  const std::string path = dir.Sub("db");
  {
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(rocksdb_compat::OpenDB(DbOptions(), path, &db).ok());
    rocksdb::ColumnFamilyHandle* cf = nullptr;
    ASSERT_TRUE(db->CreateColumnFamily(DbOptions(), "cf1", &cf).ok());
    for (uint64_t i = 0; i < 3000; ++i) {
      ASSERT_TRUE(db->Put({}, cf, PresentKey(i), "v").ok());
      if (i < 1000) {
        ASSERT_TRUE(db->Put({}, PresentKey(i), "v").ok());
      }
    }
    ASSERT_TRUE(db->Flush({}, cf).ok());
    ASSERT_TRUE(db->Flush({}).ok());
    ASSERT_TRUE(db->DestroyColumnFamilyHandle(cf).ok());
    ASSERT_TRUE(db->Close().ok());
  }
  absl::StatusOr<PlanReport> cf1 =
      Plan({.db_path = path, .column_family = "cf1"});
  ASSERT_TRUE(cf1.ok()) << cf1.status();
  EXPECT_EQ(cf1->keys, 3000u);
  EXPECT_EQ(cf1->column_family, "cf1");
  absl::StatusOr<PlanReport> main = Plan({.db_path = path});
  ASSERT_TRUE(main.ok()) << main.status();
  EXPECT_EQ(main->keys, 1000u);
}

// A database whose options RocksDB's defaults cannot open: an error that
// names the path and says why, and the database as it was.
TEST(PlanOptionsTest, NamesThePathWhenTheOptionsDoNotOpenIt) {
  test_support::TempDir dir("bloomgate_plan_comparator");
  const std::string path = dir.Sub("db");
  {
    rocksdb::Options options = DbOptions();
    options.comparator = rocksdb::ReverseBytewiseComparator();
    std::unique_ptr<rocksdb::DB> db;
    ASSERT_TRUE(rocksdb_compat::OpenDB(options, path, &db).ok());
    ASSERT_TRUE(db->Put({}, "a", "v").ok());
    ASSERT_TRUE(db->Flush({}).ok());
    ASSERT_TRUE(db->Close().ok());
  }
  const auto before = Listing(path);
  absl::StatusOr<PlanReport> report = Plan({.db_path = path});
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(report.status().message(), HasSubstr("cannot open " + path));
  EXPECT_THAT(report.status().message(), HasSubstr("comparator"));
  EXPECT_EQ(Listing(path), before);
}

TEST(ParseMemoryTest, ReadsUnits) {
  EXPECT_EQ(*ParseMemory("4096B"), 4096u);
  EXPECT_EQ(*ParseMemory("64MiB"), uint64_t{64} << 20);
  EXPECT_EQ(*ParseMemory("1GiB"), uint64_t{1} << 30);
  EXPECT_EQ(*ParseMemory("2TiB"), uint64_t{2} << 40);
  EXPECT_EQ(*ParseMemory("1.5KiB"), 1536u);
  EXPECT_EQ(*ParseMemory("500MB"), 500000000u);
  EXPECT_EQ(*ParseMemory("2kB"), 2000u);
  EXPECT_EQ(*ParseMemory("2KB"), 2000u);
  EXPECT_EQ(*ParseMemory("3GB"), 3000000000u);
  EXPECT_EQ(*ParseMemory("1TB"), 1000000000000u);
}

TEST(ParseMemoryTest, RejectsWhatIsNotAMemory) {
  for (const char* bad : {"", "0MiB", "0B", "0.1B", "12XB", "64mib", "abc",
                          "MiB", "-5MB", "1..5MB", "99999999TiB", "8 MiB"}) {
    absl::StatusOr<uint64_t> size = ParseMemory(bad);
    EXPECT_FALSE(size.ok()) << bad;
    if (!size.ok()) {
      EXPECT_THAT(size.status().message(),
                  HasSubstr("\"" + std::string(bad) + "\""));
    }
  }
  EXPECT_THAT(ParseMemory("0MiB").status().message(), HasSubstr("no memory"));
}

// The key-rank model on files made up here: an L0 file over the lower half
// of an L1 level's keys is reached by the lookups that fall among those
// 2,000 keys and its own 100, out of all 4,100.
TEST(PlanFromFilesTest, ReachIsTheShareOfKeysInTheRange) {
  std::vector<PlanFile> files;
  for (int i = 0; i < 4; ++i) {
    PlanFile f;
    f.name = "/l1_" + std::to_string(i);
    f.level = 1;
    f.smallest = PresentKey(i * 1000);
    f.largest = PresentKey(i * 1000 + 999);
    f.entries = 1000;
    f.filter_bytes = 1250;
    files.push_back(f);
  }
  PlanFile l0;
  l0.name = "/l0";
  l0.level = 0;
  l0.smallest = PresentKey(0);
  l0.largest = PresentKey(1999);
  l0.entries = 100;
  l0.filter_bytes = 125;
  files.push_back(l0);
  absl::StatusOr<PlanReport> report = PlanFromFiles(files, std::nullopt);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->levels.size(), 2u);
  EXPECT_NEAR(report->levels[0].reach, 2100.0 / 4100, 0.001);
  EXPECT_NEAR(report->levels[1].reach, 1.0, 0.01);
  EXPECT_EQ(report->keys, 4100u);
  EXPECT_NEAR(report->memory_bits_per_key, 10.0, 1e-9);

  EXPECT_FALSE(PlanFromFiles({}, std::nullopt).ok());
  // No filters and no memory: the tree, and no predictions.
  for (PlanFile& f : files) f.filter_bytes = 0;
  report = PlanFromFiles(files, std::nullopt);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->policies.empty());
  EXPECT_NEAR(report->current_reads_per_absent_lookup, 1 + 2100.0 / 4100,
              0.001);
}

// `now` takes each file's filter at what its block says, and a block whose
// reader matches every key at an FP rate of 1.
TEST(PlanFromFilesTest, NowReadsEachBlockByItsKind) {
  PlanFile f;
  f.name = "/l1";
  f.level = 1;
  f.smallest = PresentKey(0);
  f.largest = PresentKey(9999);
  f.entries = 10000;
  f.filter_bytes = 12500;
  f.filter_policy = "bloomgate";
  f.filter = {.kind = FilterKind::kBloomgate,
              .layout = Layout::kStandard,
              .num_probes = 3,
              .num_keys = 9000,
              .num_bits = 99000};
  absl::StatusOr<PlanReport> report = PlanFromFiles({f}, std::nullopt);
  ASSERT_TRUE(report.ok()) << report.status();
  const double reach = report->files[0].reach;
  EXPECT_GT(reach, 0.99);
  EXPECT_DOUBLE_EQ(
      report->current_reads_per_absent_lookup,
      reach * PredictedFilterFpRate(Layout::kStandard, 9000, 99000, 3));
  EXPECT_EQ(report->levels[0].filter_kinds, "bloomgate");

  f.filter = {.kind = FilterKind::kBloomgateDamaged};
  report = PlanFromFiles({f}, std::nullopt);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_DOUBLE_EQ(report->current_reads_per_absent_lookup, reach);

  // One Ribbon block and one Bloom block in one bloomgate policy's level:
  // each read as what it is, whatever the name says.
  PlanFile ribbon = f, bloom = f;
  ribbon.filter = {.kind = FilterKind::kRocksDBRibbon};
  bloom.filter = {.kind = FilterKind::kRocksDBBloom};
  bloom.name = "/l1b";
  bloom.smallest = PresentKey(10000);
  bloom.largest = PresentKey(19999);
  report = PlanFromFiles({ribbon, bloom}, std::nullopt);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->levels[0].filter_kinds, "rocksdb_bloom+rocksdb_ribbon");
  ribbon.filter_policy = "ribbonfilter";
  bloom.filter_policy = "bloomfilter";
  ribbon.filter = bloom.filter = {};  // unread: by the names, the same
  absl::StatusOr<PlanReport> named =
      PlanFromFiles({ribbon, bloom}, std::nullopt);
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_DOUBLE_EQ(report->current_reads_per_absent_lookup,
                   named->current_reads_per_absent_lookup);
  EXPECT_EQ(named->levels[0].filter_kinds, "unread");
}

// A tree of level-0 files alone, all alike: every lookup passes every
// filter, so level-aware memory is uniform memory, and RocksDB's hybrid
// (Bloom in L0) is its Bloom filter; each takes the same memory.
TEST(PlanFromFilesTest, AllLevelZeroIsUniform) {
  std::vector<PlanFile> files;
  for (int i = 0; i < 8; ++i) {
    PlanFile f;
    f.name = "/l0_" + std::to_string(i);
    f.level = 0;
    f.smallest = PresentKey(i);
    f.largest = PresentKey(999990 + i);
    f.entries = 50000;
    f.filter_bytes = 62500;
    files.push_back(f);
  }
  absl::StatusOr<PlanReport> report = PlanFromFiles(files, std::nullopt);
  ASSERT_TRUE(report.ok()) << report.status();
  std::map<std::string, double> reads;
  for (const PolicyPlan& p : report->policies) {
    reads[p.name] = p.reads_per_absent_lookup;
  }
  EXPECT_NEAR(report->levels[0].reach, 8, 0.01);
  EXPECT_DOUBLE_EQ(reads["rocksdb_hybrid"], reads["rocksdb_bloom"]);
  EXPECT_NEAR(reads["bloomgate_monkey"], reads["rocksdb_bloom"],
              0.002 * reads["rocksdb_bloom"]);
  EXPECT_NEAR(reads["rocksdb_bloom"], 8 * 0.0097, 8 * 0.0005);
  EXPECT_LT(reads["floor"], reads["rocksdb_ribbon"]);
}

}  // namespace
}  // namespace bloomgate::tools
