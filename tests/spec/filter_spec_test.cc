// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_spec.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "bloomgate/allocation.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_reader.h"
#include "bloomgate/sizing.h"
#include "gtest/gtest.h"

namespace bloomgate {
namespace {

std::vector<FilterSpec> SampleSpecs() {
  return {
      {.family = FilterFamily::kNone},
      {},
      {.bits_per_key = 9.5, .layout = Layout::kStandard},
      {.bits_per_key = 0.1},
      {.bits_per_key = 12, .num_probes = 3},
      {.bits_per_key = 12, .layout = Layout::kStandard, .num_probes = 32},
      {.monkey = true},
      {.bits_per_key = 7.25, .monkey = true, .fanout = 4.5},
      {.bits_per_key = 10,
       .layout = Layout::kStandard,
       .num_probes = 5,
       .monkey = true,
       .fanout = 8},
      {.monkey = true, .mixed = true},
      {.bits_per_key = 8,
       .monkey = true,
       .fanout = 6,
       .mixed = true,
       .read_micros = 2.5},
      {.monkey = true, .mixed = true, .read_micros = 0},
      {.monkey = true,
       .mixed = true,
       .bloomgate_probe_nanos = 12,
       .ribbon_probe_nanos = 40.5},
      {.monkey = true,
       .mixed = true,
       .read_micros = 2,
       .bloomgate_probe_nanos = 6,
       .ribbon_probe_nanos = 30},
      {.monkey = true, .memory_budget_bytes = uint64_t{64} << 20},
      {.layout = Layout::kStandard,
       .monkey = true,
       .mixed = true,
       .memory_budget_bytes = 1000001},
      {.family = FilterFamily::kRocksDBBloom},
      {.family = FilterFamily::kRocksDBRibbon, .bits_per_key = 6.5},
  };
}

TEST(FilterSpecTest, NameAndParseRoundTrip) {
  std::set<std::string> names;
  for (const FilterSpec& spec : SampleSpecs()) {
    ASSERT_TRUE(spec.Validate().ok()) << spec.Name();
    const std::string name = spec.Name();
    EXPECT_TRUE(names.insert(name).second) << name;
    absl::StatusOr<FilterSpec> back = FilterSpec::Parse(name);
    ASSERT_TRUE(back.ok()) << name << ": " << back.status();
    EXPECT_EQ(*back, spec) << name;
    EXPECT_EQ(back->Name(), name);
  }
}

TEST(FilterSpecTest, CanonicalNames) {
  EXPECT_EQ(FilterSpec{}.Name(), "bloomgate:10:blocked");
  EXPECT_EQ(
      (FilterSpec{.bits_per_key = 9.5, .layout = Layout::kStandard}.Name()),
      "bloomgate:9.5:standard");
  EXPECT_EQ((FilterSpec{.num_probes = 6}.Name()),
            "bloomgate:10:blocked:probes:6");
  EXPECT_EQ((FilterSpec{.monkey = true}.Name()), "bloomgate:10:blocked:monkey");
  EXPECT_EQ((FilterSpec{.monkey = true, .fanout = 8}.Name()),
            "bloomgate:10:blocked:monkey:8");
  EXPECT_EQ((FilterSpec{.monkey = true, .mixed = true}.Name()),
            "bloomgate:10:blocked:monkey:mixed");
  EXPECT_EQ(
      (FilterSpec{.monkey = true, .mixed = true, .read_micros = 2}.Name()),
      "bloomgate:10:blocked:monkey:mixed:2");
  EXPECT_EQ((FilterSpec{.monkey = true,
                        .mixed = true,
                        .bloomgate_probe_nanos = 12,
                        .ribbon_probe_nanos = 40}
                 .Name()),
            "bloomgate:10:blocked:monkey:mixed:probe_ns:12/40");
  // Keyed fields as names once wrote them read the same.
  EXPECT_EQ(FilterSpec::Parse("bloomgate:10:probes=6:monkey:mixed:"
                              "probe_ns=12/40")
                .value(),
            FilterSpec::Parse("bloomgate:10:probes:6:monkey:mixed:"
                              "probe_ns:12/40")
                .value());
  // The fanout means nothing without monkey, and is not written.
  EXPECT_EQ((FilterSpec{.fanout = 8}.Name()), "bloomgate:10:blocked");
  EXPECT_EQ((FilterSpec{.family = FilterFamily::kRocksDBBloom}.Name()),
            "rocksdb_bloom:10");
  EXPECT_EQ((FilterSpec{.family = FilterFamily::kNone}.Name()), "none");
}

TEST(FilterSpecTest, RegistryNamesParseToTheirSpecs) {
  for (const FilterKindInfo& kind : FilterKinds()) {
    absl::StatusOr<FilterSpec> spec = FilterSpec::Parse(kind.name);
    ASSERT_TRUE(spec.ok()) << kind.name << ": " << spec.status();
    EXPECT_EQ(*spec, kind.spec) << kind.name;
    EXPECT_EQ(spec->KindName(), kind.name);
    EXPECT_FALSE(kind.description.empty());

    absl::StatusOr<FilterSpec> at_seven = FilterKindSpec(kind.name, 7);
    ASSERT_TRUE(at_seven.ok());
    EXPECT_EQ(at_seven->bits_per_key, 7);
    EXPECT_EQ(at_seven->family, kind.spec.family);
  }
  absl::StatusOr<FilterSpec> monkey = FilterSpec::Parse("bloomgate_monkey:12");
  ASSERT_TRUE(monkey.ok());
  EXPECT_EQ(*monkey, (FilterSpec{.bits_per_key = 12, .monkey = true}));
  absl::StatusOr<FilterSpec> standard =
      FilterSpec::Parse("bloomgate_standard:8:monkey");
  ASSERT_TRUE(standard.ok());
  EXPECT_EQ(standard->KindName(), "bloomgate:standard:monkey");
}

// A kind is what KindName names: the numbers do not make another kind.
TEST(FilterSpecTest, SameKindIsSameKindName) {
  for (const FilterKindInfo& a : FilterKinds()) {
    FilterSpec other_numbers = a.spec;
    other_numbers.bits_per_key = 7;
    other_numbers.fanout = 4;
    EXPECT_TRUE(a.spec.SameKind(other_numbers)) << a.name;
    for (const FilterKindInfo& b : FilterKinds()) {
      EXPECT_EQ(a.spec.SameKind(b.spec), a.name == b.name)
          << a.name << " " << b.name;
    }
  }
  // RocksDB's filters have no layout or allocation of bloomgate's.
  EXPECT_TRUE((FilterSpec{.family = FilterFamily::kRocksDBBloom}.SameKind(
      {.family = FilterFamily::kRocksDBBloom, .layout = Layout::kStandard})));
  EXPECT_FALSE(
      (FilterSpec{.layout = Layout::kStandard, .monkey = true}.SameKind(
          {.monkey = true})));
}

TEST(FilterSpecTest, ParseErrorsNameThePart) {
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"bogus", "unknown filter 'bogus'; expected one of none, bloomgate"},
           {"bloomgate:", "bits per key \"\" is not a number"},
           {"bloomgate:abc", "bits per key \"abc\" is not a number"},
           {"bloomgate:10:fancy", "unknown layout \"fancy\""},
           {"bloomgate:10:blocked:monkeys", "unknown option \"monkeys\""},
           {"bloomgate:10:probes=x", "probes \"x\" is not a whole number"},
           {"bloomgate:10:probes=17", "num_probes must be in [0, 16]"},
           {"bloomgate:10:probes", "probes needs a value after it"},
           {"bloomgate:10:probes:x", "probes \"x\" is not a whole number"},
           {"bloomgate:10:monkey:x", "fanout \"x\" is not a number"},
           {"bloomgate:10:monkey:0.5", "fanout must be"},
           {"bloomgate:10:monkey:8:9", "unexpected \"9\" at the end"},
           {"bloomgate:10:monkey:mixed:fast", "unexpected \"fast\" at the end"},
           {"bloomgate:10:monkey:mixed:-3", "read time must be"},
           {"bloomgate:10:mixed", "unknown layout \"mixed\""},
           {"bloomgate:10:monkey:mixed:probe_ns=12", "must be two times"},
           {"bloomgate:10:monkey:mixed:probe_ns=12/x",
            "Ribbon's probe time \"x\" is not a number"},
           {"bloomgate:10:monkey:mixed:probe_ns=0/40", "must both be"},
           {"bloomgate:10:monkey:mixed:probe_ns=-1/40", "must both be"},
           {"bloomgate:10:monkey:probe_ns=12/40", "probe_ns needs mixed"},
           {"bloomgate:0.01", "bits_per_key"},
           {"bloomgate_monkey:64XB", "unknown unit \"XB\""},
           {"bloomgate_monkey:xMiB", "bits per key \"xMiB\" is not a number"},
           {"bloomgate_monkey:1.5.5MiB", "size \"1.5.5\" is not a number"},
           {"bloomgate_monkey:0MiB", "a memory budget of 0 bytes"},
           {"bloomgate_monkey:-1MiB", "must be a number of bytes"},
           {"bloomgate_monkey:95B", "below the smallest filter, 96 bytes"},
           {"bloomgate:64MiB", "it needs monkey"},
           {"rocksdb_bloom:64MiB", "takes bits per key only (no layout"},
           {"none:10", "takes no options"},
           {"rocksdb_bloom:10:standard", "takes only bits per key"},
       }) {
    absl::StatusOr<FilterSpec> spec = FilterSpec::Parse(c.text);
    ASSERT_FALSE(spec.ok()) << c.text;
    EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(spec.status().message().find(c.message), std::string::npos)
        << c.text << ": " << spec.status();
  }
}

TEST(FilterSpecTest, ByteSizes) {
  struct Case {
    const char* text;
    uint64_t bytes;
  };
  for (const Case& c : std::vector<Case>{
           {"4096", 4096},
           {"4096B", 4096},
           {"64KiB", 64 << 10},
           {"64K", 64 << 10},
           {"64MiB", 64 << 20},
           {"1.5GiB", uint64_t{3} << 29},
           {"2TiB", uint64_t{2} << 40},
           {"500MB", 500000000},
           {"3kB", 3000},
           {"0.5B", 1},  // nearest byte, halves up
       }) {
    absl::StatusOr<uint64_t> bytes = ParseByteSize(c.text);
    ASSERT_TRUE(bytes.ok()) << c.text << ": " << bytes.status();
    EXPECT_EQ(*bytes, c.bytes) << c.text;
  }
  EXPECT_EQ(FormatByteSize(64 << 20), "64MiB");
  EXPECT_EQ(FormatByteSize(uint64_t{3} << 29), "1536MiB");
  EXPECT_EQ(FormatByteSize(1000000), "1000000B");  // not whole KiB
  EXPECT_EQ(FormatByteSize(2048), "2KiB");
  EXPECT_EQ(FormatByteSize(0), "0B");
  for (uint64_t bytes : {uint64_t{0}, uint64_t{1}, uint64_t{4095},
                         uint64_t{1} << 40, (uint64_t{1} << 40) + 1024}) {
    EXPECT_EQ(ParseByteSize(FormatByteSize(bytes)).value_or(~0ull), bytes);
  }
  EXPECT_FALSE(ParseByteSize("1e30GiB").ok());
  EXPECT_FALSE(ParseByteSize("nanMiB").ok());
  EXPECT_FALSE(ParseByteSize("MiB").ok());
}

TEST(FilterSpecTest, MemoryBudgetByName) {
  absl::StatusOr<FilterSpec> spec = FilterSpec::Parse("bloomgate_monkey:64MiB");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->memory_budget_bytes, uint64_t{64} << 20);
  EXPECT_TRUE(spec->monkey);
  EXPECT_EQ(spec->bits_per_key, FilterSpec{}.bits_per_key);
  EXPECT_EQ(spec->Name(), "bloomgate:64MiB:blocked:monkey");
  spec = FilterSpec::Parse("bloomgate:1GiB:monkey:mixed");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->memory_budget_bytes, uint64_t{1} << 30);
  EXPECT_TRUE(spec->mixed);
  // One or the other: a budget with bits per key set is refused, not
  // silently one of them.
  FilterSpec both{
      .bits_per_key = 12, .monkey = true, .memory_budget_bytes = 1 << 20};
  EXPECT_FALSE(both.Validate().ok());
}

TEST(FilterSpecTest, ValidateRejectsWhatNoFilterCanBe) {
  EXPECT_FALSE((FilterSpec{.bits_per_key = NAN}.Validate().ok()));
  EXPECT_FALSE((FilterSpec{.layout = static_cast<Layout>(9)}.Validate().ok()));
  EXPECT_FALSE((FilterSpec{.monkey = true, .fanout = NAN}.Validate().ok()));
  EXPECT_FALSE(
      (FilterSpec{.family = FilterFamily::kRocksDBBloom, .monkey = true}
           .Validate()
           .ok()));
  EXPECT_FALSE(
      (FilterSpec{.family = static_cast<FilterFamily>(9)}.Validate().ok()));
  // Mixed families are level-aware, bloomgate's, and weigh reads by a time.
  EXPECT_FALSE((FilterSpec{.mixed = true}.Validate().ok()));
  EXPECT_FALSE(
      (FilterSpec{.family = FilterFamily::kRocksDBRibbon, .mixed = true}
           .Validate()
           .ok()));
  EXPECT_FALSE((FilterSpec{.monkey = true, .mixed = true, .read_micros = -1}
                    .Validate()
                    .ok()));
  EXPECT_FALSE(
      (FilterSpec{.monkey = true, .mixed = true, .read_micros = INFINITY}
           .Validate()
           .ok()));
  // Probe times: both or neither, for mixed families only.
  EXPECT_FALSE(
      (FilterSpec{.bloomgate_probe_nanos = 10, .ribbon_probe_nanos = 30}
           .Validate()
           .ok()));
  EXPECT_FALSE((FilterSpec{.monkey = true,
                           .mixed = true,
                           .bloomgate_probe_nanos = 10,
                           .ribbon_probe_nanos = NAN}
                    .Validate()
                    .ok()));
  EXPECT_TRUE((FilterSpec{.family = FilterFamily::kNone, .bits_per_key = NAN}
                   .Validate()
                   .ok()));
}

// BitsFor and PredictedFpRate describe the block FilterBuilder writes, for
// every layout, size and probe count: the sizer and the tools rely on it.
TEST(FilterSpecTest, BitsAndFpRateAreWhatTheBuilderWrites) {
  for (const FilterSpec& spec : SampleSpecs()) {
    if (spec.family != FilterFamily::kBloomgate) continue;
    for (uint64_t keys : {1, 7, 100, 1000, 12345}) {
      absl::StatusOr<FilterBuilder> builder =
          FilterBuilder::Create(spec.Options());
      ASSERT_TRUE(builder.ok());
      for (uint64_t i = 0; i < keys; ++i) builder->AddHash(i * 0x9E3779B9u);
      const std::string block = builder->Finish();
      const FilterReader reader(block);
      ASSERT_FALSE(reader.degraded());
      EXPECT_EQ(spec.BitsFor(keys), reader.num_bits())
          << spec.Name() << " keys=" << keys;
      EXPECT_DOUBLE_EQ(spec.PredictedFpRate(keys),
                       PredictedFpRate(spec.layout, reader.bits_per_key(),
                                       reader.num_probes()))
          << spec.Name() << " keys=" << keys;
      EXPECT_EQ(spec.BlockBytes(keys, spec.bits_per_key), block.size())
          << spec.Name() << " keys=" << keys;
      EXPECT_EQ(
          spec.PredictedBlockFpRate(keys, block.size(), reader.num_probes()),
          builder->PredictedFpRate(keys, block.size()))
          << spec.Name() << " keys=" << keys;
    }
  }
}

TEST(FilterSpecTest, FpRateEdgeCases) {
  const FilterSpec spec;
  EXPECT_EQ(spec.PredictedFpRate(0), 0.0);
  EXPECT_EQ(spec.PredictedFpRate(100, 0), 1.0);
  EXPECT_EQ((FilterSpec{.family = FilterFamily::kNone}.PredictedFpRate(100)),
            1.0);
  EXPECT_EQ((FilterSpec{.family = FilterFamily::kNone}.BitsFor(100)), 0u);
  // RocksDB's Bloom: whole 512-bit lines, a blocked filter's FP rate.
  const FilterSpec rocksdb{.family = FilterFamily::kRocksDBBloom};
  EXPECT_EQ(rocksdb.BitsFor(1000), 10240u);
  EXPECT_DOUBLE_EQ(rocksdb.PredictedFpRate(1000),
                   PredictedFpRate(Layout::kBlocked, 10.24,
                                   OptimalNumProbes(Layout::kBlocked, 10)));
}

TEST(FilterSpecTest, LevelBitsPerKey) {
  absl::StatusOr<std::vector<double>> uniform = FilterSpec{}.LevelBitsPerKey(3);
  ASSERT_TRUE(uniform.ok());
  EXPECT_EQ(*uniform, std::vector<double>(3, 10.0));

  const FilterSpec monkey{.monkey = true, .fanout = 8};
  absl::StatusOr<std::vector<double>> levels = monkey.LevelBitsPerKey(4);
  ASSERT_TRUE(levels.ok());
  absl::StatusOr<std::vector<double>> expected =
      MonkeyBitsPerKey(Layout::kBlocked, 10, LeveledShape(4, 8));
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(*levels, *expected);

  EXPECT_FALSE(FilterSpec{}.LevelBitsPerKey(0).ok());
  EXPECT_FALSE(
      (FilterSpec{.family = FilterFamily::kNone}.LevelBitsPerKey(3).ok()));
  EXPECT_FALSE((FilterSpec{.bits_per_key = 0}.LevelBitsPerKey(3).ok()));
}

}  // namespace
}  // namespace bloomgate
