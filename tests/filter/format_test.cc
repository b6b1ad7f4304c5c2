// Copyright 2026 The bloomgate Authors.
//
// Pins the filter block format (docs/filter-format.md) byte for byte, and
// checks that no bytes at all can make a reader crash or answer a wrong "no".

#include <xxhash.h>

#include <cstdint>
#include <random>
#include <string>

#include "absl/strings/escaping.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_reader.h"
#include "gtest/gtest.h"
#include "tests/filter/test_util.h"

namespace bloomgate {
namespace {

constexpr size_t kTrailer = 32;

std::string Block(Layout layout, std::initializer_list<const char*> keys) {
  FilterOptions options;
  options.layout = layout;
  absl::StatusOr<FilterBuilder> builder = FilterBuilder::Create(options);
  EXPECT_TRUE(builder.ok());
  for (const char* key : keys) builder->AddKey(key);
  return builder->Finish();
}

// Recomputes the checksum exactly as docs/filter-format.md defines it, with
// xxHash directly: XXH3-64 (seed 0) of the block without its checksum field.
void Reseal(std::string& block) {
  const size_t at = block.size() - kTrailer + 16;
  std::string covered = block.substr(0, at) + block.substr(at + 8);
  uint64_t sum = XXH3_64bits(covered.data(), covered.size());
  for (int i = 0; i < 8; ++i) block[at + i] = static_cast<char>(sum >> (8 * i));
}

// A degraded reader must say why and must match everything.
void ExpectDegraded(const std::string& bytes, absl::StatusCode code) {
  FilterReader reader(bytes);
  EXPECT_TRUE(reader.degraded());
  EXPECT_EQ(reader.status().code(), code) << reader.status();
  EXPECT_TRUE(reader.MayMatch("dog"));
  EXPECT_TRUE(reader.MayMatch("anything"));
  bool results[3];
  const uint64_t hashes[3] = {1, 2, 3};
  reader.HashMayMatchBatch(hashes, absl::MakeSpan(results));
  EXPECT_TRUE(results[0] && results[1] && results[2]);
}

TEST(FilterFormatTest, GoldenBlockedBlock) {
  const std::string block = Block(Layout::kBlocked, {"dog", "pig", "elk"});
  EXPECT_EQ(
      absl::BytesToHexString(block),
      "20002040000000000000000800000000000001880002004010000100800000000000"
      "40000000000020000000000000000000010000000003000000000000400000020000"
      "00000000030000000000000086453aaf477f1b0e0106010142474642");
}

TEST(FilterFormatTest, GoldenStandardBlock) {
  const std::string block = Block(Layout::kStandard, {"dog", "pig", "elk"});
  EXPECT_EQ(absl::BytesToHexString(block),
            "1002052801afa00540000000000000000300000000000000"
            "5007f6bacefb9e560207010142474642");
}

TEST(FilterFormatTest, TrailerFieldsAreWhereTheDocSays) {
  const std::string block = Block(Layout::kStandard, {"dog", "pig", "elk"});
  ASSERT_EQ(block.size(), 8 + kTrailer);  // 64 bits (the minimum) + trailer
  const std::string t = block.substr(8);
  EXPECT_EQ(t.substr(0, 8), std::string("\x40\0\0\0\0\0\0\0", 8));  // bits
  EXPECT_EQ(t.substr(8, 8), std::string("\x03\0\0\0\0\0\0\0", 8));  // keys
  EXPECT_EQ(t[24], 2);                                              // layout
  EXPECT_EQ(t[25], 7);                                              // probes
  EXPECT_EQ(t[26], 1);                                              // hash
  EXPECT_EQ(t[27], 1);                                              // version
  EXPECT_EQ(t.substr(28), "BGFB");
  std::string resealed = block;
  Reseal(resealed);
  EXPECT_EQ(resealed, block);  // the documented checksum is the real one
}

TEST(FilterFormatTest, ShortInputsDegrade) {
  const std::string block = Block(Layout::kBlocked, {"dog", "pig"});
  for (size_t n = 0; n < block.size(); ++n) {
    ExpectDegraded(block.substr(0, n), absl::StatusCode::kDataLoss);
    // Losing bytes at the front breaks the size check or the checksum.
    ExpectDegraded(block.substr(block.size() - n), absl::StatusCode::kDataLoss);
  }
}

TEST(FilterFormatTest, EveryFlippedBitIsDetected) {
  for (Layout layout : {Layout::kBlocked, Layout::kStandard}) {
    const std::string block = Block(layout, {"dog", "pig", "elk", "rat"});
    for (size_t bit = 0; bit < block.size() * 8; ++bit) {
      std::string bad = block;
      bad[bit / 8] ^= static_cast<char>(1 << (bit % 8));
      FilterReader reader(bad);
      ASSERT_TRUE(reader.degraded()) << "bit " << bit;
      ASSERT_TRUE(reader.MayMatch("dog"));
      ASSERT_TRUE(reader.MayMatch("never added"));
    }
  }
}

TEST(FilterFormatTest, NewerVersionIsUnimplemented) {
  std::string block = Block(Layout::kBlocked, {"dog"});
  block[block.size() - kTrailer + 27] = 2;
  Reseal(block);
  ExpectDegraded(block, absl::StatusCode::kUnimplemented);
  block[block.size() - kTrailer + 27] = 0;
  Reseal(block);
  ExpectDegraded(block, absl::StatusCode::kDataLoss);
}

TEST(FilterFormatTest, UnknownFieldsWithAValidChecksumDegrade) {
  const std::string good = Block(Layout::kBlocked, {"dog", "pig"});
  const size_t t = good.size() - kTrailer;
  struct Edit {
    size_t offset;
    char value;
    absl::StatusCode code;
  };
  for (const Edit& edit : {
           Edit{t + 24, 3, absl::StatusCode::kUnimplemented},   // layout
           Edit{t + 24, 0, absl::StatusCode::kUnimplemented},   // layout
           Edit{t + 25, 0, absl::StatusCode::kUnimplemented},   // probes
           Edit{t + 25, 17, absl::StatusCode::kUnimplemented},  // probes
           Edit{t + 26, 2, absl::StatusCode::kUnimplemented},   // hash
           Edit{t + 1, 0, absl::StatusCode::kDataLoss},         // no bits
           Edit{t + 1, 4, absl::StatusCode::kDataLoss},         // bits vs size
           Edit{t + 0, 1, absl::StatusCode::kUnimplemented},    // partial line
           Edit{t + 8, 0, absl::StatusCode::kDataLoss},  // keys but no count
       }) {
    std::string bad = good;
    bad[edit.offset] = edit.value;
    if (edit.offset == t + 8) {
      for (int i = 0; i < 8; ++i) bad[t + 8 + i] = 0;
    }
    Reseal(bad);
    SCOPED_TRACE(edit.offset - t);
    ExpectDegraded(bad, edit.code);
  }
}

TEST(FilterFormatTest, RandomBytesNeverCrash) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 5000; ++round) {
    std::string bytes(rng() % 200, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    if (round % 2 && bytes.size() >= 4) {
      bytes.replace(bytes.size() - 4, 4, "BGFB");  // get past the magic
    }
    FilterReader reader(bytes);
    ASSERT_TRUE(reader.degraded());
    ASSERT_TRUE(reader.MayMatch(testing::Key(1, round)));
  }
}

}  // namespace
}  // namespace bloomgate
