// Copyright 2026 The bloomgate Authors.
//
// Level-aware filters keep their memory budget whatever order keys arrive
// in. With keys in order, RocksDB moves flushed files down to the last level
// without rewriting them (trivial moves), so a file keeps the filter it was
// flushed with wherever it ends up. The live tree's routes are tried with
// keys in order, in reverse and scrambled: by name with the listener made by
// name, and in code; Bloom alone and mixed families. The assumed shape (by
// name, no listener) with keys in order and in reverse: on scrambled keys its
// memory is the shape's, not the budget (docs/monkey-allocation.md). Each
// keeps the filters' total (from the table properties, as sst_dump reads
// them) within 3% of the budget, and makes no more reads per absent lookup
// than uniform bloomgate filters at the same measured memory, on the same
// insert order, beyond the noise.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/utilities/options_util.h"
#include "tests/rocksdb/db_test_util.h"

namespace bloomgate::testing_rocksdb {
namespace {

constexpr double kBudget = 10;
// Not a multiple of 7919 (KeyOrder::kScrambled).
constexpr uint64_t kKeys = 60000;
// Files of a few thousand keys, so that rounding a filter up to whole
// 64-byte lines costs about 1% of its memory, not the 5% of 1,000 keys.
constexpr uint64_t kFlushEvery = 3000;

enum class Route {
  kByName,  // the assumed shape
  kByNameMixed,
  kByNameWithListener,  // policy and listener by name: the live tree
  kByNameWithListenerMixed,
  kLiveTree,  // CreateRocksDBLiveTreeFilter
  kLiveTreeMixed,
};

struct OrderParam {
  KeyOrder order;
  Route route;
};

std::string RouteName(Route route) {
  switch (route) {
    case Route::kByName:
      return "ByName";
    case Route::kByNameMixed:
      return "ByNameMixed";
    case Route::kByNameWithListener:
      return "ByNameWithListener";
    case Route::kByNameWithListenerMixed:
      return "ByNameWithListenerMixed";
    case Route::kLiveTree:
      return "LiveTree";
    case Route::kLiveTreeMixed:
      return "LiveTreeMixed";
  }
  return "";
}

std::string OrderName(KeyOrder order) {
  switch (order) {
    case KeyOrder::kAscending:
      return "Ascending";
    case KeyOrder::kDescending:
      return "Descending";
    case KeyOrder::kScrambled:
      return "Scrambled";
  }
  return "";
}

struct FillResult {
  FilterTotals filters;
  // Filter answers "may match" to absent keys: each one a read.
  uint64_t absent_positives = 0;
  // Each level's files and bits per key, for the test's output.
  std::string levels;
};

// Fills a fresh database in `order` with `options`, checks every key, and
// counts the filters' "may match" answers to the absent keys.
FillResult FillAndRead(rocksdb::Options options, KeyOrder order) {
  TempDir dir;
  auto db = OpenDb(options, dir.path());
  EXPECT_NE(db, nullptr);
  if (db == nullptr) return {};
  PutInOrder(*db, kKeys, order, kFlushEvery);
  FillResult run;
  run.filters = AllFilters(*db);
  for (const auto& [level, f] : FiltersByLevel(*db)) {
    run.levels += absl::StrFormat(" L%d %d files %.2f bits/key;", level,
                                  f.files, f.BitsPerKey());
  }

  std::string value;
  for (uint64_t i = 0; i < kKeys; i += 7) {
    EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), Key(i), &value).ok()) << i;
  }
  const uint64_t before = Ticker(options, rocksdb::BLOOM_FILTER_FULL_POSITIVE);
  for (uint64_t i = 0; i < kKeys; ++i) {
    EXPECT_TRUE(
        db->Get(rocksdb::ReadOptions(), MissingKey(i), &value).IsNotFound());
  }
  run.absent_positives =
      Ticker(options, rocksdb::BLOOM_FILTER_FULL_POSITIVE) - before;
  return run;
}

// The bits per key at which bloomgate's blocks for files of `filters`'s
// keys take the memory those filters took (bisection on BlockSize).
double UniformBitsPerKey(const FilterTotals& filters) {
  double lo = kMinBitsPerKey, hi = kMaxBitsPerKey;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    absl::StatusOr<FilterBuilder> builder =
        FilterBuilder::Create({.bits_per_key = mid});
    EXPECT_TRUE(builder.ok()) << builder.status();
    if (!builder.ok()) return mid;
    uint64_t bytes = 0;
    for (uint64_t keys : filters.file_keys) bytes += builder->BlockSize(keys);
    (bytes > filters.filter_bytes ? hi : lo) = mid;
  }
  return lo;
}

class InsertOrderTest : public ::testing::TestWithParam<OrderParam> {};

std::vector<OrderParam> AllOrdersAndRoutes() {
  std::vector<OrderParam> params;
  for (KeyOrder order :
       {KeyOrder::kAscending, KeyOrder::kDescending, KeyOrder::kScrambled}) {
    for (Route route :
         {Route::kByName, Route::kByNameMixed, Route::kByNameWithListener,
          Route::kByNameWithListenerMixed, Route::kLiveTree,
          Route::kLiveTreeMixed}) {
      const bool assumed_shape =
          route == Route::kByName || route == Route::kByNameMixed;
      if (assumed_shape && order == KeyOrder::kScrambled) continue;
      params.push_back({order, route});
    }
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(OrdersAndRoutes, InsertOrderTest,
                         ::testing::ValuesIn(AllOrdersAndRoutes()),
                         [](const auto& info) {
                           return OrderName(info.param.order) +
                                  RouteName(info.param.route);
                         });

bool IsMixed(Route route) {
  return route == Route::kByNameMixed ||
         route == Route::kByNameWithListenerMixed ||
         route == Route::kLiveTreeMixed;
}

// The tree's options with the level-aware policy (and listener) set up the
// way `route` sets them up.
rocksdb::Options RouteOptions(Route route) {
  const bool mixed = IsMixed(route);
  if (route == Route::kLiveTree || route == Route::kLiveTreeMixed) {
    absl::StatusOr<RocksDBLiveTreeFilter> live = CreateRocksDBLiveTreeFilter(
        {.bits_per_key = kBudget, .monkey = true, .mixed = mixed});
    EXPECT_TRUE(live.ok()) << live.status();
    if (!live.ok()) return {};
    rocksdb::Options options = SmallLeveledTreeOptions(live->policy);
    options.listeners.push_back(live->listener);
    return options;
  }
  rocksdb::Options options = SmallLeveledTreeOptions(
      ByName(mixed ? "bloomgate:10:monkey:mixed" : "bloomgate:10:monkey"));
  if (route == Route::kByNameWithListener ||
      route == Route::kByNameWithListenerMixed) {
    options.listeners.push_back(ListenerByName());
  }
  return options;
}

TEST_P(InsertOrderTest, KeepsTheBudgetAndReadsNoMoreThanUniform) {
  const OrderParam param = GetParam();
  const rocksdb::Options options = RouteOptions(param.route);
  if (HasFailure()) return;
  const FillResult level_aware = FillAndRead(options, param.order);
  if (HasFailure()) return;
  const double bits = level_aware.filters.BitsPerKey();
  std::cout << "[ figures  ]  level-aware:" << level_aware.levels << "\n";
  EXPECT_EQ(level_aware.filters.keys, kKeys);
  EXPECT_NEAR(bits, kBudget, 0.03 * kBudget);

  // Uniform bloomgate filters at the memory the level-aware ones took, on
  // files of the same keys.
  const FillResult uniform = FillAndRead(
      SmallLeveledTreeOptions(ByName(absl::StrFormat(
          "bloomgate:%.6f",
          // Rounded down, so that the name's rounding cannot tip a block
          // over to one more cache line.
          std::floor(UniformBitsPerKey(level_aware.filters) * 1e6) / 1e6))),
      param.order);
  if (HasFailure()) return;
  const double a = static_cast<double>(level_aware.absent_positives);
  const double u = static_cast<double>(uniform.absent_positives);
  std::cout << absl::StrFormat(
      "[ figures  ] %s %s: %.3f bits/key in %d files, %.0f positives; "
      "uniform %.3f bits/key in %d files, %.0f positives\n",
      OrderName(param.order), RouteName(param.route), bits,
      level_aware.filters.files, a, uniform.filters.BitsPerKey(),
      uniform.filters.files, u);
  std::cout << "[ figures  ]  uniform:" << uniform.levels << "\n";
  // Each count is a sum of independent coin flips, so its standard
  // deviation is at most its square root; four of them, with 3% more for
  // the trees' file boundaries, which filter sizes shift.
  EXPECT_LE(a, 1.03 * u + 4 * std::sqrt(a + u));
}

// By name and in code, the live tree is one implementation: on trees grown
// from the same keys in the same order, the two routes' filters take the
// same memory and make as many reads per absent lookup, within the noise
// and the 10% that background compactions' timing may shift file
// boundaries by.
TEST(RoutesTest, ByNameReadsAsTheCodeRouteDoes) {
  for (const auto& [by_name, in_code] :
       {std::pair{Route::kByNameWithListener, Route::kLiveTree},
        std::pair{Route::kByNameWithListenerMixed, Route::kLiveTreeMixed}}) {
    SCOPED_TRACE(RouteName(by_name));
    const FillResult name =
        FillAndRead(RouteOptions(by_name), KeyOrder::kScrambled);
    const FillResult code =
        FillAndRead(RouteOptions(in_code), KeyOrder::kScrambled);
    if (HasFailure()) return;
    EXPECT_NEAR(name.filters.BitsPerKey(), code.filters.BitsPerKey(),
                0.02 * kBudget);
    const double a = static_cast<double>(name.absent_positives);
    const double c = static_cast<double>(code.absent_positives);
    std::cout << absl::StrFormat(
        "[ figures  ] %s: %.3f bits/key, %.0f positives; %s: %.3f "
        "bits/key, %.0f positives\n",
        RouteName(by_name), name.filters.BitsPerKey(), a, RouteName(in_code),
        code.filters.BitsPerKey(), c);
    // Each count's standard deviation is at most its square root.
    EXPECT_LE(std::abs(a - c), 0.1 * std::max(a, c) + 4 * std::sqrt(a + c));
  }
}

// By name, the listener and the policy are the whole set-up: RocksDB writes
// both to the OPTIONS file, loads them back, and the loaded pair follows the
// live tree of the reopened database (the memory of a scrambled fill, which
// the assumed shape misses, keeps to the budget).
TEST(ListenerByNameTest, RoundTripsThroughTheOptionsFile) {
  TempDir dir;
  {
    // Opened and closed: the OPTIONS file is written. (A key written here
    // would be flushed at the next open, one more level-0 file, which the
    // test's tree would keep at the end: an L0 file holds its level's share,
    // and the total is then a few percent over until it is compacted.)
    rocksdb::Options options =
        SmallLeveledTreeOptions(ByName("bloomgate:10:monkey"));
    options.listeners.push_back(ListenerByName());
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
  }
  const PersistedOptions persisted = LoadPersistedOptions(dir.path());
  const rocksdb::DBOptions& db_options = persisted.db;
  const std::vector<rocksdb::ColumnFamilyDescriptor>& cf_descs =
      persisted.column_families;
  ASSERT_EQ(db_options.listeners.size(), 1u);
  EXPECT_STREQ(db_options.listeners[0]->Name(), kRocksDBListenerName);
  ASSERT_EQ(cf_descs.size(), 1u);
  const auto policy = FilterPolicyOf(cf_descs[0].options);
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->GetId(), "bloomgate:10:blocked:monkey");

  rocksdb::Options options(db_options, cf_descs[0].options);
  options.statistics = rocksdb::CreateDBStatistics();
  auto db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  PutInOrder(*db, kKeys, KeyOrder::kScrambled, kFlushEvery);
  EXPECT_NEAR(AllFilters(*db).BitsPerKey(), kBudget, 0.03 * kBudget);
  EXPECT_EQ(InfoLog(dir.path()).find("no live tree"), std::string::npos);
}

// Without the listener, a level-aware policy by name says in the info LOG
// that it assumes a shape, and how to add the tree; with keys in order, that
// it gives flushes the budget.
TEST(ListenerByNameTest, WithoutItTheLogSaysWhatIsAssumed) {
  TempDir ordered, scrambled;
  for (const auto& [dir, order] :
       {std::pair{&ordered, KeyOrder::kAscending},
        std::pair{&scrambled, KeyOrder::kScrambled}}) {
    auto db = OpenDb(SmallLeveledTreeOptions(ByName("bloomgate:10:monkey")),
                     dir->path());
    ASSERT_NE(db, nullptr);
    PutInOrder(*db, kKeys, order, kFlushEvery);
  }
  const std::string log = InfoLog(scrambled.path());
  EXPECT_NE(log.find("bloomgate: bloomgate:10:blocked:monkey: no live tree "
                     "for this database"),
            std::string::npos);
  EXPECT_NE(log.find("listeners={bloomgate_live_tree}"), std::string::npos);
  EXPECT_EQ(log.find("flushes whose keys lie outside"), std::string::npos);
  EXPECT_NE(InfoLog(ordered.path())
                .find("flushes whose keys lie outside every key flushed "
                      "before (keys in order) are moved to the last level "
                      "unrewritten, so each gets the budget's 10 bits per "
                      "key"),
            std::string::npos);
}

// A misspelt listener name stops the set-up with a message naming it,
// wherever RocksDB reads listeners from text; RocksDB would otherwise drop
// the name (it parses "listeners=" ignoring names no factory matches), and
// the policies would keep the assumed shape.
TEST(ListenerByNameTest, AMisspeltNameIsAnErrorThatNamesIt) {
  RegisterRocksDBPlugin();
  rocksdb::ConfigOptions config;
  for (const char* name : {"bloomgate_live_tre", "bloomgate_livetree",
                           "bloomgate", "bloomgate_"}) {
    SCOPED_TRACE(name);
    rocksdb::DBOptions db_options;
    const rocksdb::Status s = rocksdb::GetDBOptionsFromString(
        config, rocksdb::DBOptions(), absl::StrCat("listeners={", name, "}"),
        &db_options);
    EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
    EXPECT_NE(s.ToString().find(absl::StrCat("unknown listener \"", name,
                                             "\"; the live-tree listener "
                                             "is \"bloomgate_live_tree\"")),
              std::string::npos)
        << s.ToString();
  }

  // The same name in an OPTIONS file: LoadOptionsFromFile refuses it.
  TempDir dir;
  {
    rocksdb::Options options =
        SmallLeveledTreeOptions(ByName("bloomgate:10:monkey"));
    options.listeners.push_back(ListenerByName());
    ASSERT_NE(OpenDb(options, dir.path()), nullptr);
  }
  std::string file;
  ASSERT_TRUE(rocksdb::GetLatestOptionsFileName(dir.path(),
                                                rocksdb::Env::Default(), &file)
                  .ok());
  const std::string path = dir.path() + "/" + file;
  std::stringstream text;
  text << std::ifstream(path).rdbuf();
  std::string options_file = text.str();
  const size_t at = options_file.find("bloomgate_live_tree");
  ASSERT_NE(at, std::string::npos);
  options_file.replace(at, std::string("bloomgate_live_tree").size(),
                       "bloomgate_live_tre");
  std::ofstream(path, std::ios::trunc) << options_file;

  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  const rocksdb::Status s =
      rocksdb::LoadOptionsFromFile(config, path, &db_options, &families);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("unknown listener \"bloomgate_live_tre\""),
            std::string::npos)
      << s.ToString();
}

}  // namespace
}  // namespace bloomgate::testing_rocksdb
