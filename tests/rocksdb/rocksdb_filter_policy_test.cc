// Copyright 2026 The bloomgate Authors.
//
// The policy's names, ids, string forms and registration, and the OPTIONS
// file round trip.

#include "bloomgate/rocksdb_filter_policy.h"

#include <cmath>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bloomgate/filter_reader.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"
#include "rocksdb/utilities/options_util.h"
#include "src/rocksdb/plugin.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "table/block_based/filter_policy_internal.h"
#include "tests/rocksdb/db_test_util.h"

namespace bloomgate::testing_rocksdb {
namespace {

class RocksDBFilterPolicyTest : public testing::Test {
 protected:
  void SetUp() override { RegisterRocksDBPlugin(); }

  // CreateFromString with default ConfigOptions.
  static rocksdb::Status FromString(
      const std::string& value,
      std::shared_ptr<const rocksdb::FilterPolicy>* p) {
    rocksdb::ConfigOptions config;
    return rocksdb::FilterPolicy::CreateFromString(config, value, p);
  }
};

TEST_F(RocksDBFilterPolicyTest, NamesAreConstantAcrossConfigurations) {
  for (const RocksDBFilterOptions& options :
       {RocksDBFilterOptions{}, RocksDBFilterOptions{.bits_per_key = 3.25},
        RocksDBFilterOptions{.bits_per_key = 20,
        .layout = Layout::kStandard}}) {
    auto policy = NewRocksDBFilterPolicy(options);
    ASSERT_NE(policy, nullptr);
    EXPECT_STREQ(policy->Name(), "bloomgate");
    EXPECT_STREQ(policy->CompatibilityName(), "bloomgate");
    EXPECT_TRUE(policy->IsInstanceOf("bloomgate"));
  }
  // Distinct from RocksDB's built-in family, so neither reads the other's
  // blocks.
  std::unique_ptr<const rocksdb::FilterPolicy> builtin(
      rocksdb::NewBloomFilterPolicy(10));
  EXPECT_STRNE(builtin->CompatibilityName(), "bloomgate");
}

TEST_F(RocksDBFilterPolicyTest, GetIdRoundTrips) {
  for (const RocksDBFilterOptions& options :
       {RocksDBFilterOptions{}, RocksDBFilterOptions{.bits_per_key = 0.1},
        RocksDBFilterOptions{.bits_per_key = 9.95},
        RocksDBFilterOptions{.bits_per_key = 1.0 / 3.0},
        RocksDBFilterOptions{.bits_per_key = 100, .layout = Layout::kStandard},
        RocksDBFilterOptions{.bits_per_key = 7.3, .layout = Layout::kStandard},
        RocksDBFilterOptions{.monkey = true},
        RocksDBFilterOptions{
            .bits_per_key = 6.5, .layout = Layout::kStandard, .monkey = true},
        RocksDBFilterOptions{.monkey = true, .fanout = 8},
        RocksDBFilterOptions{
            .bits_per_key = 12, .monkey = true, .fanout = 2.5}}) {
    auto policy = NewRocksDBFilterPolicy(options);
    ASSERT_NE(policy, nullptr);
    const std::string id = policy->GetId();
    EXPECT_EQ(id, RocksDBFilterPolicyId(options));

    std::shared_ptr<const rocksdb::FilterPolicy> back;
    ASSERT_TRUE(FromString(id, &back).ok()) << id;
    ASSERT_NE(back, nullptr);
    EXPECT_EQ(back->GetId(), id);

    absl::StatusOr<RocksDBFilterOptions> parsed =
        ParseRocksDBFilterPolicyId(id);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->bits_per_key, options.bits_per_key) << id;  // exact
    EXPECT_EQ(parsed->layout, options.layout);
    EXPECT_EQ(parsed->monkey, options.monkey);
    EXPECT_EQ(parsed->fanout, options.fanout);
  }
  EXPECT_EQ(RocksDBFilterPolicyId({}), "bloomgate:10:blocked");
  EXPECT_EQ(
      RocksDBFilterPolicyId({.bits_per_key = 9.5, .layout = Layout::kStandard}),
      "bloomgate:9.5:standard");
  EXPECT_EQ(RocksDBFilterPolicyId({.monkey = true}),
            "bloomgate:10:blocked:monkey");
  EXPECT_EQ(RocksDBFilterPolicyId({.monkey = true, .fanout = 8}),
            "bloomgate:10:blocked:monkey:8");
  // The fanout means nothing without monkey, and is not written.
  EXPECT_EQ(RocksDBFilterPolicyId({.fanout = 8}), "bloomgate:10:blocked");
}

TEST_F(RocksDBFilterPolicyTest, CreateFromStringAcceptedForms) {
  struct Case {
    std::string text;
    std::string id;
  };
  for (const Case& c : std::vector<Case>{
           {"bloomgate", "bloomgate:10:blocked"},
           {"bloomgate:10", "bloomgate:10:blocked"},
           {"bloomgate:12.5", "bloomgate:12.5:blocked"},
           {"bloomgate:8:standard", "bloomgate:8:standard"},
           {"bloomgate:6:blocked", "bloomgate:6:blocked"},
           {"id=bloomgate:9.5:standard", "bloomgate:9.5:standard"},
           {"{id=bloomgate:4}", "bloomgate:4:blocked"},
           {"bloomgate:10:monkey", "bloomgate:10:blocked:monkey"},
           {"bloomgate:10:blocked:monkey", "bloomgate:10:blocked:monkey"},
           {"bloomgate:8:standard:monkey", "bloomgate:8:standard:monkey"},
           {"bloomgate:10:monkey:8", "bloomgate:10:blocked:monkey:8"},
           {"bloomgate:10:monkey:10", "bloomgate:10:blocked:monkey"},
           {"bloomgate:10:standard:monkey:4.5",
            "bloomgate:10:standard:monkey:4.5"},
           {"id=bloomgate:10:monkey", "bloomgate:10:blocked:monkey"},
           {"bloomgate:10:blocked:probes:4", "bloomgate:10:blocked:probes:4"},
           {"bloomgate:8:probes:3:monkey",
            "bloomgate:8:blocked:probes:3:monkey"},
           {"bloomgate:8:standard:probes:20", "bloomgate:8:standard:probes:20"},
           // Keyed fields as ids once wrote them.
           {"bloomgate:10:blocked:probes=4", "bloomgate:10:blocked:probes:4"},
           {"bloomgate:10:monkey:mixed:probe_ns=12/40",
            "bloomgate:10:blocked:monkey:mixed:probe_ns:12/40"},
       }) {
    std::shared_ptr<const rocksdb::FilterPolicy> policy;
    const rocksdb::Status s = FromString(c.text, &policy);
    ASSERT_TRUE(s.ok()) << c.text << ": " << s.ToString();
    ASSERT_NE(policy, nullptr) << c.text;
    EXPECT_EQ(policy->GetId(), c.id) << c.text;
  }
}

TEST_F(RocksDBFilterPolicyTest, CreateFromStringRejectsBadStringsClearly) {
  for (const char* bad : {"bloomgate:",
                          "bloomgate:abc",
                          "bloomgate:10x",
                          "bloomgate:0",
                          "bloomgate:-1",
                          "bloomgate:1000",
                          "bloomgate:nan",
                          "bloomgate:inf",
                          "bloomgate:10:",
                          "bloomgate:10:fancy",
                          "bloomgate:10:blocked:x",
                          "bloomgate::blocked",
                          "bloomgate:monkey",
                          "bloomgate:10:monkey:",
                          "bloomgate:10:monkey:x",
                          "bloomgate:10:monkey:0.5",
                          "bloomgate:10:monkey:2000",
                          "bloomgate:10:monkey:nan",
                          "bloomgate:10:monkey:8:9",
                          "bloomgate:10:monkey:blocked",
                          "bloomgate:10:blocked:monkeys",
                          "bloomgate:10:monkey:standard",
                          "bloomgate:10:blocked:standard",
                          "bloomgate:10:8",
                          "bloomgate:10:probes=",
                          "bloomgate:10:probes=17",
                          "bloomgate:10:probes=-1",
                          "bloomgate:10:monkey:probes=3"}) {
    std::shared_ptr<const rocksdb::FilterPolicy> policy;
    const rocksdb::Status s = FromString(bad, &policy);
    EXPECT_TRUE(s.IsInvalidArgument()) << bad << ": " << s.ToString();
    // The message names the string and the expected form.
    EXPECT_NE(s.ToString().find("bloomgate filter policy"), std::string::npos)
        << s.ToString();
    EXPECT_NE(s.ToString().find("expected bloomgate[:<bits_per_key>"),
              std::string::npos)
        << s.ToString();
  }
  // Not our name at all: RocksDB's own "not found", which RocksDB ignores
  // by default (ignore_unsupported_options), leaving no policy.
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  rocksdb::ConfigOptions strict;
  strict.ignore_unsupported_options = false;
  EXPECT_TRUE(
      rocksdb::FilterPolicy::CreateFromString(strict, "bloomgatex:10", &policy)
          .IsNotSupported());
  EXPECT_TRUE(FromString("bloomgatex:10", &policy).ok());
  EXPECT_EQ(policy, nullptr);
}

// RocksDB's OPTIONS-file loader drops a by-name option's parse error and
// leaves filter_policy null; a malformed bloomgate id must still stop it,
// naming the id, and so must DB::Open when handed such a policy.
TEST_F(RocksDBFilterPolicyTest, MalformedIdInAnOptionsFileIsAnError) {
  TempDir dir;
  const std::string file = dir.path() + "/OPTIONS-bad";
  {
    std::ofstream out(file);
    out << "[Version]\n  rocksdb_version=7.8.3\n  options_file_version=1.1\n"
        << "[DBOptions]\n  create_if_missing=true\n"
        << "[CFOptions \"default\"]\n"
        << "[TableOptions/BlockBasedTable \"default\"]\n"
        << "  filter_policy=bloomgate:abc\n";
  }
  rocksdb::ConfigOptions config;  // as db_bench and db_stress load it
  config.ignore_unknown_options = false;
  config.input_strings_escaped = true;
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> cf_descs;
  const rocksdb::Status load =
      rocksdb::LoadOptionsFromFile(config, file, &db_options, &cf_descs);
  EXPECT_TRUE(load.IsInvalidArgument()) << load.ToString();
  EXPECT_NE(load.ToString().find("\"bloomgate:abc\""), std::string::npos)
      << load.ToString();

  // The policy CreateFromString leaves behind on error refuses DB::Open.
  rocksdb::ConfigOptions lax;
  lax.invoke_prepare_options = false;
  std::shared_ptr<const rocksdb::FilterPolicy> refused;
  ASSERT_TRUE(
      rocksdb::FilterPolicy::CreateFromString(lax, "bloomgate:abc", &refused)
          .ok());
  ASSERT_NE(refused, nullptr);
  EXPECT_EQ(refused->GetId(), "bloomgate:abc");
  std::unique_ptr<rocksdb::DB> db;
  const rocksdb::Status open = rocksdb_compat::OpenDB(
      MakeOptions({.filter_policy = refused}), dir.path() + "/db", &db);
  EXPECT_TRUE(open.IsInvalidArgument()) << open.ToString();
  EXPECT_NE(open.ToString().find("bits per key \"abc\" is not a number"),
            std::string::npos)
      << open.ToString();
  EXPECT_EQ(db, nullptr);
}

TEST_F(RocksDBFilterPolicyTest, ParseErrorsExplainThemselves) {
  absl::StatusOr<RocksDBFilterOptions> r =
      ParseRocksDBFilterPolicyId("bloomgate:10:fancy");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().ToString().find("unknown layout \"fancy\""),
            std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate:abc");
  EXPECT_NE(r.status().ToString().find("\"abc\" is not a number"),
            std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate:10:blocked:monkeys");
  EXPECT_NE(r.status().ToString().find("unknown option \"monkeys\""),
            std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate:10:monkey:x");
  EXPECT_NE(r.status().ToString().find("fanout \"x\" is not a number"),
            std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate:10:monkey:0.5");
  EXPECT_NE(r.status().ToString().find("fanout must be"), std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate:10:monkey:8:9");
  EXPECT_NE(r.status().ToString().find("unexpected \"9\""), std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate_monkey");
  EXPECT_NE(r.status().ToString().find("not a bloomgate id"), std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate:10:probes=x");
  EXPECT_NE(r.status().ToString().find("probes \"x\" is not a whole number"),
            std::string::npos)
      << r.status();
  r = ParseRocksDBFilterPolicyId("bloomgate:0.01");
  EXPECT_NE(r.status().ToString().find("bits_per_key"), std::string::npos)
      << r.status();
}

TEST_F(RocksDBFilterPolicyTest, InvalidOptionsAreReported) {
  for (const RocksDBFilterOptions& bad :
       {RocksDBFilterOptions{.bits_per_key = 0},
        RocksDBFilterOptions{.bits_per_key = -3},
        RocksDBFilterOptions{.bits_per_key = 101},
        RocksDBFilterOptions{.layout = static_cast<Layout>(9)},
        RocksDBFilterOptions{.monkey = true, .fanout = 0.5},
        RocksDBFilterOptions{.monkey = true, .fanout = 1e6},
        RocksDBFilterOptions{.monkey = true, .fanout = std::nan("")},
        RocksDBFilterOptions{.num_probes = 17},
        RocksDBFilterOptions{.family = FilterFamily::kRocksDBBloom},
        RocksDBFilterOptions{.family = FilterFamily::kNone}}) {
    auto policy = CreateRocksDBFilterPolicy(bad);
    ASSERT_FALSE(policy.ok());
    EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

TEST_F(RocksDBFilterPolicyTest, NewPolicyClampsInvalidOptions) {
  struct Case {
    RocksDBFilterOptions asked;
    std::string id_used;
  };
  const Case cases[] = {
      {{.bits_per_key = 150}, "bloomgate:100:blocked"},
      {{.bits_per_key = 0}, "bloomgate:0.1:blocked"},
      {{.bits_per_key = -3, .layout = Layout::kStandard},
       "bloomgate:0.1:standard"},
      {{.bits_per_key = std::nan("")}, "bloomgate:10:blocked"},
      {{.layout = static_cast<Layout>(9)}, "bloomgate:10:blocked"},
      {{.monkey = true, .fanout = 0.5}, "bloomgate:10:blocked:monkey:1"},
      {{.monkey = true, .fanout = 1e6}, "bloomgate:10:blocked:monkey:1000"},
      {{.monkey = true, .fanout = std::nan("")}, "bloomgate:10:blocked:monkey"},
      {{.num_probes = 40}, "bloomgate:10:blocked:probes:16"},
      {{.layout = Layout::kStandard, .num_probes = -2},
       "bloomgate:10:standard"},
      {{.family = FilterFamily::kRocksDBRibbon}, "bloomgate:10:blocked"},
      // Valid options are used as they are.
      {{.bits_per_key = 9.5}, "bloomgate:9.5:blocked"},
      {{.num_probes = 3}, "bloomgate:10:blocked:probes:3"},
  };
  for (const Case& c : cases) {
    std::shared_ptr<const rocksdb::FilterPolicy> policy =
        NewRocksDBFilterPolicy(c.asked);
    ASSERT_NE(policy, nullptr) << c.id_used;
    EXPECT_EQ(policy->GetId(), c.id_used);
    EXPECT_EQ(RocksDBFilterPolicyId(ClampRocksDBFilterOptions(c.asked)),
              c.id_used);
    EXPECT_TRUE(
        CreateRocksDBFilterPolicy(ClampRocksDBFilterOptions(c.asked)).ok())
        << c.id_used;
  }
}

// The clamped policy filters, and says once in the DB's LOG what it did.
TEST_F(RocksDBFilterPolicyTest, ClampedPolicyWarnsOnceInTheLog) {
  TempDir dir;
  rocksdb::Options options = MakeOptions(
      {.filter_policy = NewRocksDBFilterPolicy({.bits_per_key = 150})});
  {
    std::unique_ptr<rocksdb::DB> db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    WriteFiles(*db, /*num_files=*/3, /*keys_per_file=*/100);
    const rocksdb::TablePropertiesCollection props = AllTableProperties(*db);
    ASSERT_EQ(props.size(), 3u);
    for (const auto& [file, p] : props) {
      EXPECT_EQ(p->filter_policy_name, kRocksDBPolicyName) << file;
      EXPECT_GE(p->filter_size, 100u * 100 / 8) << file;  // 100 bits per key
    }
  }
  std::ifstream log(dir.path() + "/LOG");
  std::stringstream text;
  text << log.rdbuf();
  const std::string expected =
      "bloomgate: invalid filter options (bits_per_key must be";
  const size_t first = text.str().find(expected);
  ASSERT_NE(first, std::string::npos) << text.str().substr(0, 2000);
  EXPECT_NE(text.str().find("using bloomgate:100:blocked instead", first),
            std::string::npos);
  EXPECT_EQ(text.str().find(expected, first + 1), std::string::npos);
}

// A mixed policy says once in the DB's LOG which times its cost model
// weighs and where they came from: the defaults, or the name's probe_ns.
TEST_F(RocksDBFilterPolicyTest, MixedPolicySaysItsCostsInTheLog) {
  for (const auto& [name, said] :
       std::vector<std::pair<std::string, std::string>>{
           {"bloomgate:10:monkey:mixed",
            "a read at 100 us and a probe at 10 ns (bloomgate), 34 ns "
            "(Ribbon), the defaults (bloomgate plan --calibrate"},
           {"bloomgate:10:monkey:mixed:2:probe_ns:12.5/40",
            "a read at 2 us and a probe at 12.5 ns (bloomgate), 40 ns "
            "(Ribbon), the name's probe_ns"}}) {
    std::shared_ptr<const rocksdb::FilterPolicy> policy;
    ASSERT_TRUE(FromString(name, &policy).ok()) << name;
    TempDir dir;
    {
      std::unique_ptr<rocksdb::DB> db =
          OpenDb(MakeOptions({.filter_policy = policy}), dir.path());
      ASSERT_NE(db, nullptr);
      WriteFiles(*db, /*num_files=*/2, /*keys_per_file=*/100);
    }
    std::ifstream log(dir.path() + "/LOG");
    std::stringstream text;
    text << log.rdbuf();
    const size_t first = text.str().find(said);
    ASSERT_NE(first, std::string::npos) << name << "\n"
                                        << text.str().substr(0, 2000);
    EXPECT_EQ(text.str().find(said, first + 1), std::string::npos) << name;
  }
}

// The blocks a policy builds have the probes its spec names.
TEST_F(RocksDBFilterPolicyTest, BlocksHaveTheConfiguredProbes) {
  for (const auto& [id, probes] : std::vector<std::pair<std::string, int>>{
           {"bloomgate:10", 6},
           {"bloomgate:10:probes=3", 3},
           {"bloomgate:9:standard:probes=9", 9}}) {
    std::shared_ptr<const rocksdb::FilterPolicy> policy;
    ASSERT_TRUE(FromString(id, &policy).ok()) << id;
    rocksdb::BlockBasedTableOptions table_options;
    rocksdb::FilterBuildingContext context(table_options);
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
        policy->GetBuilderWithContext(context));
    ASSERT_NE(builder, nullptr) << id;
    for (int i = 0; i < 1000; ++i) builder->AddKey("key" + std::to_string(i));
    std::unique_ptr<const char[]> buf;
    const rocksdb::Slice block = builder->Finish(&buf);
    const FilterReader reader(std::string_view(block.data(), block.size()));
    ASSERT_FALSE(reader.degraded()) << id;
    EXPECT_EQ(reader.num_probes(), probes) << id;
  }
}

TEST_F(RocksDBFilterPolicyTest, RegistrarAddsTheFactoryToAnyLibrary) {
  // A registry with only a private library: RocksDB cannot make "bloomgate"
  // until the factory is added to it.
  auto library = std::make_shared<rocksdb::ObjectLibrary>("private");
  rocksdb::ConfigOptions config;
  config.ignore_unsupported_options = false;
  config.registry = std::make_shared<rocksdb::ObjectRegistry>(library);
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  EXPECT_TRUE(
      rocksdb::FilterPolicy::CreateFromString(config, "bloomgate:10", &policy)
          .IsNotSupported());
  EXPECT_EQ(RegisterRocksDBFactories(*library, ""), 2);
  ASSERT_TRUE(
      rocksdb::FilterPolicy::CreateFromString(config, "bloomgate:10", &policy)
          .ok());
  EXPECT_EQ(policy->GetId(), "bloomgate:10:blocked");
}

// What RocksDB built with ROCKSDB_PLUGINS=bloomgate calls for every
// ObjectRegistry it creates (bloomgate.mk's bloomgate_FUNC).
TEST_F(RocksDBFilterPolicyTest, PluginEntryPointRegistersThePolicy) {
  auto library = std::make_shared<rocksdb::ObjectLibrary>("plugin");
  rocksdb::ConfigOptions config;
  config.ignore_unsupported_options = false;
  config.registry = std::make_shared<rocksdb::ObjectRegistry>(library);
  EXPECT_EQ(bloomgate_RegisterRocksDBPlugin(*library, ""), 2);
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  ASSERT_TRUE(rocksdb::FilterPolicy::CreateFromString(
                  config, "bloomgate:9.5:standard", &policy)
                  .ok());
  EXPECT_EQ(policy->GetId(), "bloomgate:9.5:standard");
  // A malformed id is an error naming it, never a DB without a filter.
  const rocksdb::Status bad =
      rocksdb::FilterPolicy::CreateFromString(config, "bloomgate:abc", &policy);
  EXPECT_TRUE(bad.IsInvalidArgument()) << bad.ToString();
  EXPECT_NE(bad.ToString().find("bloomgate:abc"), std::string::npos)
      << bad.ToString();
}

TEST_F(RocksDBFilterPolicyTest, RegisterIsIdempotent) {
  RegisterRocksDBPlugin();
  RegisterRocksDBPlugin();
  EXPECT_EQ(rocksdb::ObjectLibrary::Default()->GetFactoryCount(
                rocksdb::FilterPolicy::Type()) >= 1,
            true);
  std::vector<std::string> names;
  rocksdb::ObjectLibrary::Default()->GetFactoryNames(
      rocksdb::FilterPolicy::Type(), &names);
  int ours = 0;
  for (const std::string& n : names) ours += (n == "bloomgate");
  EXPECT_EQ(ours, 1);
}

TEST_F(RocksDBFilterPolicyTest, BlockBasedTableOptionsFromString) {
  rocksdb::ConfigOptions config;
  rocksdb::BlockBasedTableOptions table_options;
  ASSERT_TRUE(rocksdb::GetBlockBasedTableOptionsFromString(
                  config, rocksdb::BlockBasedTableOptions(),
                  "filter_policy=bloomgate:11:standard;block_size=8192",
                  &table_options)
                  .ok());
  ASSERT_NE(table_options.filter_policy, nullptr);
  EXPECT_EQ(table_options.filter_policy->GetId(), "bloomgate:11:standard");
  ASSERT_TRUE(rocksdb::GetBlockBasedTableOptionsFromString(
                  config, rocksdb::BlockBasedTableOptions(),
                  "filter_policy=bloomgate:10:monkey:8;block_size=8192",
                  &table_options)
                  .ok());
  ASSERT_NE(table_options.filter_policy, nullptr);
  EXPECT_EQ(table_options.filter_policy->GetId(),
            "bloomgate:10:blocked:monkey:8");
}

class OptionsFileRoundTripTest
    : public RocksDBFilterPolicyTest,
      public testing::WithParamInterface<RocksDBFilterOptions> {};

TEST_P(OptionsFileRoundTripTest, PolicyIsRestored) {
  TempDir dir;
  const RocksDBFilterOptions configured = GetParam();
  const std::string id = RocksDBFilterPolicyId(configured);
  {
    rocksdb::Options options =
        MakeOptions({.filter_policy = NewRocksDBFilterPolicy(configured)});
    auto db = OpenDb(options, dir.path());
    ASSERT_NE(db, nullptr);
    ASSERT_TRUE(db->Put(rocksdb::WriteOptions(), "k", "v").ok());
    ASSERT_TRUE(db->Flush(rocksdb::FlushOptions()).ok());
  }

  // The persisted OPTIONS file names the policy by its id.
  std::string options_file;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().filename().string().rfind("OPTIONS-", 0) == 0) {
      options_file = entry.path().string();
    }
  }
  ASSERT_FALSE(options_file.empty());
  std::ifstream in(options_file);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("filter_policy=" + id + "\n"), std::string::npos)
      << text.str();

  // Loads back with the policy restored, not dropped.
  PersistedOptions persisted = LoadPersistedOptions(dir.path());
  const rocksdb::ConfigOptions& config = persisted.config;
  rocksdb::DBOptions& db_options = persisted.db;
  std::vector<rocksdb::ColumnFamilyDescriptor>& cf_descs =
      persisted.column_families;
  ASSERT_EQ(cf_descs.size(), 1u);
  const auto policy = FilterPolicyOf(cf_descs[0].options);
  ASSERT_NE(policy, nullptr);
  EXPECT_EQ(policy->GetId(), id);
  EXPECT_STREQ(policy->Name(), "bloomgate");

  // And the loaded options open the DB, passing RocksDB's own check that they
  // match the persisted ones.
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  ASSERT_TRUE(rocksdb::CheckOptionsCompatibility(config, dir.path(), db_options,
                                                 cf_descs)
                  .ok());
  ASSERT_TRUE(
      rocksdb_compat::OpenDB(db_options, dir.path(), cf_descs, &handles, &db)
          .ok());
  std::string value;
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), "k", &value).ok());
  EXPECT_EQ(value, "v");
  for (auto* h : handles) ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
}

// Forwards every call to a bloomgate policy, as an application's wrapper
// (one that counts or logs) would; `forward_id` says whether it forwards
// GetId() too, or leaves Customizable's default, Name().
class WrappingPolicy : public rocksdb::FilterPolicy {
 public:
  WrappingPolicy(std::shared_ptr<const rocksdb::FilterPolicy> inner,
                 bool forward_id)
      : inner_(std::move(inner)), forward_id_(forward_id) {}

  const char* Name() const override { return inner_->Name(); }
  std::string GetId() const override {
    return forward_id_ ? inner_->GetId() : rocksdb::FilterPolicy::GetId();
  }
  const char* CompatibilityName() const override {
    return inner_->CompatibilityName();
  }
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    return inner_->GetBuilderWithContext(context);
  }
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return inner_->GetFilterBitsReader(contents);
  }

 private:
  const std::shared_ptr<const rocksdb::FilterPolicy> inner_;
  const bool forward_id_;
};

// What RocksDB does when it persists an OPTIONS file: re-read it and compare
// with the options in use. A mismatch fails DB::Open from 10.2; before, the
// OPTIONS file was left unwritten and only the info LOG said why. Every
// bloomgate policy must pass, whatever options it was asked for.
rocksdb::Status CheckPersistedOptions(
    std::shared_ptr<const rocksdb::FilterPolicy> policy,
    const std::string& path) {
  rocksdb::Options options = MakeOptions({.filter_policy = std::move(policy)});
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = rocksdb_compat::OpenDB(options, path, &db);
  if (!s.ok()) return s;
  // The options in use, as sanitized by DB::Open, are what RocksDB wrote.
  const rocksdb::DBOptions db_options = db->GetDBOptions();
  const rocksdb::ColumnFamilyOptions cf_options = db->GetOptions();
  db.reset();
  rocksdb::ConfigOptions config;
  config.sanity_level = rocksdb::ConfigOptions::kSanityLevelExactMatch;
  return rocksdb::CheckOptionsCompatibility(
      config, path, db_options,
      {rocksdb::ColumnFamilyDescriptor(rocksdb::kDefaultColumnFamilyName,
                                       cf_options)});
}

TEST_F(RocksDBFilterPolicyTest, EveryPolicyPassesRocksDBsOptionsCheck) {
  auto live_tree =
      CreateRocksDBLiveTreeFilter({.bits_per_key = 10, .monkey = true});
  ASSERT_TRUE(live_tree.ok()) << live_tree.status();
  const std::vector<
      std::pair<std::string, std::shared_ptr<const rocksdb::FilterPolicy>>>
      policies = {
          {"default", NewRocksDBFilterPolicy()},
          {"clamped",
           NewRocksDBFilterPolicy({.bits_per_key = 150, .num_probes = 99})},
          {"probes",
           NewRocksDBFilterPolicy({.bits_per_key = 7.5, .num_probes = 3})},
          {"live tree", live_tree->policy},
          {"wrapper forwarding GetId",
           std::make_shared<WrappingPolicy>(NewRocksDBFilterPolicy(), true)},
      };
  for (const auto& [what, policy] : policies) {
    SCOPED_TRACE(what);
    TempDir dir;
    const rocksdb::Status s = CheckPersistedOptions(policy, dir.path());
    EXPECT_TRUE(s.ok()) << policy->GetId() << ": " << s.ToString();
  }
}

// A wrapper that leaves GetId() at Name() is persisted as "bloomgate", which
// reads back as bloomgate's default policy, whose id differs: from 10.2
// DB::Open fails, before it the DB runs without an OPTIONS file.
// docs/rocksdb-plugin.md says to forward GetId().
TEST_F(RocksDBFilterPolicyTest, AWrapperMustForwardGetId) {
  TempDir dir;
  const rocksdb::Status s = CheckPersistedOptions(
      std::make_shared<WrappingPolicy>(NewRocksDBFilterPolicy(), false),
      dir.path());
  EXPECT_FALSE(s.ok());
  if (BLOOMGATE_ROCKSDB_OPTIONS_MISMATCH_FAILS_OPEN) {
    EXPECT_NE(s.ToString().find("filter_policy"), std::string::npos)
        << s.ToString();
  } else {
    EXPECT_TRUE(s.IsNotFound()) << s.ToString();  // no OPTIONS file
  }
}

INSTANTIATE_TEST_SUITE_P(
    Configurations, OptionsFileRoundTripTest,
    testing::Values(
        RocksDBFilterOptions{.bits_per_key = 9.5, .layout = Layout::kStandard},
        RocksDBFilterOptions{.bits_per_key = 10, .monkey = true},
        RocksDBFilterOptions{.bits_per_key = 8,
                             .layout = Layout::kStandard,
                             .monkey = true,
                             .fanout = 6},
        // The keyed fields: an id holding '=' would be braced
        // in the file and dropped when read back.
        RocksDBFilterOptions{.num_probes = 4},
        RocksDBFilterOptions{.monkey = true,
                             .mixed = true,
                             .bloomgate_probe_nanos = 12,
                             .ribbon_probe_nanos = 40},
        RocksDBFilterOptions{.monkey = true,
                             .memory_budget_bytes = 1 << 20,
                             .pool = "round-trip",
                             .reach_half_life = kDefaultReachHalfLife}));

}  // namespace
}  // namespace bloomgate::testing_rocksdb
