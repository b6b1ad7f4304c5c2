// Copyright 2026 The bloomgate Authors.
//
// RocksDB's built-in filter blocks inside a bloomgate policy: telling them
// from bloomgate's, reading both safely, and RocksDB's Ribbon filter sized
// to a memory.

#include "src/rocksdb/builtin_filters.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "bloomgate/filter_spec.h"
#include "gtest/gtest.h"
#include "rocksdb/table.h"
#include "src/rocksdb/spec_filter_policy.h"

namespace bloomgate::rocksdb_internal {
namespace {

std::string Key(uint64_t i) { return "key" + std::to_string(i); }

// A block of `spec`'s family over keys [0, n).
std::string Block(const FilterSpec& spec, uint64_t n) {
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
      NewSpecBitsBuilder(spec);
  EXPECT_NE(builder, nullptr) << spec.Name();
  if (builder == nullptr) return "";
  for (uint64_t i = 0; i < n; ++i) builder->AddKey(Key(i));
  std::unique_ptr<const char[]> buf;
  return builder->Finish(&buf).ToString();
}

constexpr FilterSpec kBloomgate{};
constexpr FilterSpec kRocksDBBloom{.family = FilterFamily::kRocksDBBloom};
constexpr FilterSpec kRocksDBRibbon{.family = FilterFamily::kRocksDBRibbon};

TEST(BuiltinFiltersTest, TellsRocksDBsBlocksFromBloomgates) {
  EXPECT_TRUE(IsBuiltinFilterBlock(Block(kRocksDBBloom, 5000)));
  EXPECT_TRUE(IsBuiltinFilterBlock(Block(kRocksDBRibbon, 5000)));
  EXPECT_FALSE(IsBuiltinFilterBlock(Block(kBloomgate, 5000)));
  EXPECT_FALSE(IsBuiltinFilterBlock(""));
  EXPECT_FALSE(IsBuiltinFilterBlock(std::string(5, '\xff')));
  // A bloomgate block whose checksum no longer matches is still
  // bloomgate's, by its magic; so is one whose last byte before the
  // magic reads like RocksDB's Ribbon marker.
  std::string damaged = Block(kBloomgate, 5000);
  damaged[10] ^= 1;
  EXPECT_FALSE(IsBuiltinFilterBlock(damaged));
  damaged[damaged.size() - 5] = static_cast<char>(-2);
  EXPECT_FALSE(IsBuiltinFilterBlock(damaged));
}

TEST(BuiltinFiltersTest, NamesEachBlocksKind) {
  EXPECT_EQ(KindOfFilterBlock(Block(kRocksDBBloom, 5000)),
            FilterBlockKind::kRocksDBBloom);
  EXPECT_EQ(KindOfFilterBlock(Block(kRocksDBRibbon, 5000)),
            FilterBlockKind::kRocksDBRibbon);
  EXPECT_EQ(KindOfFilterBlock(Block(kBloomgate, 5000)),
            FilterBlockKind::kBloomgate);
  EXPECT_EQ(
      KindOfFilterBlock(Block(FilterSpec{.layout = Layout::kStandard}, 5000)),
      FilterBlockKind::kBloomgate);
  EXPECT_EQ(KindOfFilterBlock(""), FilterBlockKind::kOther);
  // RocksDB's legacy full-filter blocks end in their probe count and their
  // number of cache lines, no marker.
  std::string legacy(4096, '\0');
  legacy += std::string("\x06\x00\x10\x00\x00", 5);
  EXPECT_EQ(KindOfFilterBlock(legacy), FilterBlockKind::kOther);
}

// Every block a bloomgate policy may meet is read without a false
// negative; what the reader cannot read answers "may match".
TEST(BuiltinFiltersTest, ReadsEveryFamilyAndDegradesTheRest) {
  constexpr uint64_t kKeys = 5000;
  for (const FilterSpec& spec : {kBloomgate, kRocksDBBloom, kRocksDBRibbon}) {
    const std::string block = Block(spec, kKeys);
    std::unique_ptr<rocksdb::FilterBitsReader> reader(
        NewAnyFilterBitsReader(block));
    int negatives = 0;
    for (uint64_t i = 0; i < kKeys; ++i) {
      ASSERT_TRUE(reader->MayMatch(Key(i))) << spec.Name() << " " << i;
      negatives += !reader->MayMatch(Key(kKeys + i));
    }
    // At 10 bits per key at most a few percent of absent keys get through.
    EXPECT_GT(negatives, static_cast<int>(kKeys * 9 / 10)) << spec.Name();
  }
  std::string damaged = Block(kBloomgate, kKeys);
  damaged[10] ^= 1;
  for (const std::string& block :
       {damaged, std::string("garbage"), std::string(64, '\0')}) {
    std::unique_ptr<rocksdb::FilterBitsReader> reader(
        NewAnyFilterBitsReader(block));
    for (uint64_t i = 0; i < 100; ++i) ASSERT_TRUE(reader->MayMatch(Key(i)));
  }
}

// The policy's Ribbon levels take the memory asked for, by RocksDB's own
// sizing, and the parameter search refuses what Ribbon cannot take.
TEST(BuiltinFiltersTest, RibbonBuildersTakeTheMemoryAskedFor) {
  RibbonPolicies ribbons;
  rocksdb::BlockBasedTableOptions table_options;
  rocksdb::FilterBuildingContext context(table_options);
  constexpr uint64_t kKeys = 20000;
  for (double bits : {4.0, 7.5, 10.0, 16.0}) {
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
        ribbons.NewBuilder(bits, kKeys, context));
    ASSERT_NE(builder, nullptr) << bits;
    for (uint64_t i = 0; i < kKeys; ++i) builder->AddKey(Key(i));
    std::unique_ptr<const char[]> buf;
    const rocksdb::Slice block = builder->Finish(&buf);
    EXPECT_TRUE(
        IsBuiltinFilterBlock(std::string_view(block.data(), block.size())));
    EXPECT_NEAR(static_cast<double>(block.size()) * 8 / kKeys, bits,
                0.01 * bits);  // Ribbon's memory grows in small steps
  }
  auto bytes = [](double parameter) -> absl::StatusOr<uint64_t> {
    return MeasureFilterBytes(
        {.family = FilterFamily::kRocksDBRibbon, .bits_per_key = parameter},
        kKeys);
  };
  EXPECT_EQ(RibbonParameterForMemory(0.1, kKeys, bytes).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(RibbonParameterForMemory(90, kKeys, bytes).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace bloomgate::rocksdb_internal
