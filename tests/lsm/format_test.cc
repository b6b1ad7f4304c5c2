// Copyright 2026 The bloomgate Authors.
//
// The small encodings: varints, data blocks, write batches, WAL records and
// the manifest, including what each parser does with damaged bytes.

#include <map>
#include <string>
#include <vector>

#include "bloomgate/lsm/write_batch.h"
#include "gtest/gtest.h"
#include "src/lsm/block.h"
#include "src/lsm/coding.h"
#include "src/lsm/manifest.h"
#include "src/lsm/wal.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;

TEST(CodingTest, VarintRoundTrip) {
  const std::vector<uint64_t> values = {
      0, 1, 127, 128, 300, (1ull << 32) - 1, 1ull << 35, UINT64_MAX};
  std::string buf;
  for (uint64_t v : values) PutVarint64(&buf, v);
  std::string_view in = buf;
  for (uint64_t v : values) {
    uint64_t got;
    ASSERT_TRUE(GetVarint64(&in, &got));
    EXPECT_EQ(got, v);
  }
  EXPECT_TRUE(in.empty());
  uint64_t got;
  std::string_view truncated("\x80\x80", 2);
  EXPECT_FALSE(GetVarint64(&truncated, &got));
  // Eleven continuation bytes never make a 64-bit value.
  std::string overlong(10, '\xff');
  overlong.push_back('\x01');
  std::string_view o = overlong;
  EXPECT_FALSE(GetVarint64(&o, &got));
}

TEST(BlockTest, FindsEveryKeyAndNoOther) {
  BlockBuilder b;
  for (int i = 0; i < 100; i += 2) {
    b.Add(Key(i), i % 10 == 0 ? ValueType::kDeletion : ValueType::kValue,
          i % 10 == 0 ? "" : "v" + std::to_string(i));
  }
  const std::string contents(b.Finish());
  absl::StatusOr<BlockReader> r = BlockReader::Parse(contents);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->num_entries(), 50u);
  for (int i = -1; i < 101; ++i) {
    bool found;
    BlockEntry e;
    ASSERT_TRUE(r->Find(Key(i), &found, &e).ok());
    EXPECT_EQ(found, i >= 0 && i < 100 && i % 2 == 0) << i;
    if (found) {
      EXPECT_EQ(e.type, i % 10 == 0 ? ValueType::kDeletion : ValueType::kValue);
      if (i % 10 != 0) {
        EXPECT_EQ(e.value, "v" + std::to_string(i));
      }
    }
  }
}

TEST(BlockTest, MalformedBlocksAreErrorsNotCrashes) {
  EXPECT_FALSE(BlockReader::Parse("").ok());
  EXPECT_FALSE(BlockReader::Parse(std::string(4, '\0')).ok());  // n = 0
  EXPECT_FALSE(BlockReader::Parse(std::string("\xff\xff\xff\xff", 4)).ok());
  BlockBuilder b;
  b.Add("a", ValueType::kValue, "1");
  b.Add("b", ValueType::kValue, "2");
  std::string contents(b.Finish());
  // Damage every byte in turn: parse and lookups may fail, never crash.
  for (size_t i = 0; i < contents.size(); ++i) {
    std::string bad = contents;
    bad[i] ^= 0x5a;
    absl::StatusOr<BlockReader> r = BlockReader::Parse(bad);
    if (!r.ok()) continue;
    bool found;
    BlockEntry e;
    (void)r->Find("a", &found, &e);
    (void)r->Find("b", &found, &e);
  }
}

class Collect final : public WriteBatch::Handler {
 public:
  void Put(std::string_view k, std::string_view v) override {
    ops.push_back("put " + std::string(k) + "=" + std::string(v));
  }
  void Delete(std::string_view k) override {
    ops.push_back("del " + std::string(k));
  }
  std::vector<std::string> ops;
};

TEST(WriteBatchTest, RoundTripAndDamage) {
  WriteBatch b;
  b.Put("k1", "v1");
  b.Delete("k2");
  b.Put("", "");
  EXPECT_EQ(b.Count(), 3u);
  Collect c;
  ASSERT_TRUE(b.Iterate(c).ok());
  EXPECT_EQ(c.ops, (std::vector<std::string>{"put k1=v1", "del k2", "put ="}));
  WriteBatch copy;
  copy.SetContents(b.Contents());
  Collect c2;
  ASSERT_TRUE(copy.Iterate(c2).ok());
  EXPECT_EQ(c2.ops, c.ops);
  // Truncations are always detected.
  const std::string rep(b.Contents());
  for (size_t n = 0; n < rep.size(); ++n) {
    WriteBatch t;
    t.SetContents(rep.substr(0, n));
    Collect ct;
    EXPECT_FALSE(t.Iterate(ct).ok()) << n;
  }
  b.Clear();
  EXPECT_EQ(b.Count(), 0u);
}

// Writes records through LogWriter into a real file and returns its bytes.
std::string MakeLog(const testing::TempDir& dir,
                    const std::vector<std::string>& records) {
  const std::string path = dir.Sub("000001.log");
  auto file = WritableFile::Create(path);
  EXPECT_TRUE(file.ok());
  LogWriter w(std::move(*file));
  for (const std::string& r : records) EXPECT_TRUE(w.AddRecord(r, false).ok());
  EXPECT_TRUE(w.Close().ok());
  return testing::ReadBytes(path);
}

std::vector<std::string> Parse(const std::string& log, absl::Status* status,
                               LogParseResult* result) {
  std::vector<std::string> out;
  *status = ParseLog(
      "000001.log", log,
      [&](std::string_view payload, uint64_t) {
        out.emplace_back(payload);
        return absl::OkStatus();
      },
      result);
  return out;
}

TEST(WalTest, RoundTripAndTruncatedTail) {
  testing::TempDir dir;
  const std::vector<std::string> records = {"first", "", std::string(5000, 'x'),
                                            "last"};
  const std::string log = MakeLog(dir, records);
  absl::Status s;
  LogParseResult result;
  EXPECT_EQ(Parse(log, &s, &result), records);
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(result.truncated_tail_bytes, 0u);
  // A crash mid-append leaves a prefix: every complete record survives and
  // the partial one is ignored, for every cut point.
  for (size_t cut = 0; cut < log.size(); ++cut) {
    std::vector<std::string> got = Parse(log.substr(0, cut), &s, &result);
    ASSERT_TRUE(s.ok()) << cut << ": " << s;
    size_t complete = 0, end = 0;
    while (complete < records.size() &&
           end + kLogHeaderSize + records[complete].size() <= cut) {
      end += kLogHeaderSize + records[complete].size();
      ++complete;
    }
    ASSERT_EQ(got.size(), complete) << cut;
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], records[i]);
    EXPECT_EQ(result.truncated_tail_bytes, cut - end);
  }
}

TEST(WalTest, ZeroTailAfterAMachineCrashIsIgnored) {
  testing::TempDir dir;
  const std::string log = MakeLog(dir, {"alpha", "beta"});
  for (size_t zeros : {1, 11, 12, 40, 4096}) {
    absl::Status s;
    LogParseResult result;
    EXPECT_EQ(Parse(log + std::string(zeros, '\0'), &s, &result),
              (std::vector<std::string>{"alpha", "beta"}));
    EXPECT_TRUE(s.ok()) << s;
    EXPECT_EQ(result.truncated_tail_bytes, zeros);
  }
  // A zeroed header before real bytes is damage, not a tail.
  absl::Status s;
  LogParseResult result;
  Parse(std::string(12, '\0') + log, &s, &result);
  EXPECT_TRUE(absl::IsDataLoss(s)) << s;
}

TEST(WalTest, EveryFlippedByteIsDetected) {
  testing::TempDir dir;
  const std::string log = MakeLog(dir, {"alpha", "beta", "gamma-delta"});
  for (size_t i = 0; i < log.size(); ++i) {
    std::string bad = log;
    bad[i] ^= 0x01;
    absl::Status s;
    LogParseResult result;
    Parse(bad, &s, &result);
    ASSERT_TRUE(absl::IsDataLoss(s)) << "byte " << i << ": " << s;
    EXPECT_NE(s.message().find("000001.log"), std::string::npos);
    EXPECT_NE(s.message().find("offset"), std::string::npos);
  }
}

Manifest SampleManifest() {
  Manifest m;
  m.next_file_number = 20;
  m.log_number = 19;
  m.num_levels = 4;
  m.files = {{0, 12, 1000, 10, "a", "m"},
             {0, 11, 900, 9, "b", "z"},
             {1, 5, 5000, 50, "a", "f"},
             {1, 6, 5000, 50, "g", "p"},
             {3, 2, 70000, 700, "", "zzz"}};
  return m;
}

TEST(ManifestTest, RoundTrip) {
  const Manifest m = SampleManifest();
  absl::StatusOr<Manifest> got = DecodeManifest("MANIFEST", EncodeManifest(m));
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->next_file_number, 20u);
  EXPECT_EQ(got->log_number, 19u);
  EXPECT_EQ(got->num_levels, 4);
  ASSERT_EQ(got->files.size(), m.files.size());
  for (size_t i = 0; i < m.files.size(); ++i) {
    EXPECT_EQ(got->files[i].level, m.files[i].level);
    EXPECT_EQ(got->files[i].number, m.files[i].number);
    EXPECT_EQ(got->files[i].file_size, m.files[i].file_size);
    EXPECT_EQ(got->files[i].num_entries, m.files[i].num_entries);
    EXPECT_EQ(got->files[i].smallest, m.files[i].smallest);
    EXPECT_EQ(got->files[i].largest, m.files[i].largest);
  }
}

TEST(ManifestTest, EveryFlippedByteAndTruncationIsDetected) {
  const std::string bytes = EncodeManifest(SampleManifest());
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::string bad = bytes;
    bad[i] ^= 0x10;
    absl::StatusOr<Manifest> got = DecodeManifest("dir/MANIFEST", bad);
    ASSERT_FALSE(got.ok()) << "byte " << i;
    EXPECT_TRUE(absl::IsDataLoss(got.status())) << got.status();
    EXPECT_NE(got.status().message().find("dir/MANIFEST"), std::string::npos);
    EXPECT_NE(got.status().message().find("offset"), std::string::npos);
  }
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeManifest("MANIFEST", bytes.substr(0, n)).ok()) << n;
  }
}

TEST(ManifestTest, InconsistentListsAreRejected) {
  Manifest overlap = SampleManifest();
  overlap.files[3].smallest = "e";  // overlaps the level-1 file before it
  EXPECT_TRUE(absl::IsDataLoss(
      DecodeManifest("MANIFEST", EncodeManifest(overlap)).status()));
  Manifest dup = SampleManifest();
  dup.files[1].number = 12;
  EXPECT_FALSE(DecodeManifest("MANIFEST", EncodeManifest(dup)).ok());
  Manifest level = SampleManifest();
  level.files[4].level = 4;
  EXPECT_FALSE(DecodeManifest("MANIFEST", EncodeManifest(level)).ok());
}

TEST(FileNameTest, RoundTrip) {
  uint64_t n;
  bool is_table;
  EXPECT_TRUE(ParseFileName("000123.sst", &n, &is_table));
  EXPECT_EQ(n, 123u);
  EXPECT_TRUE(is_table);
  EXPECT_TRUE(ParseFileName("1234567.log", &n, &is_table));
  EXPECT_EQ(n, 1234567u);
  EXPECT_FALSE(is_table);
  EXPECT_FALSE(ParseFileName("MANIFEST", &n, &is_table));
  EXPECT_FALSE(ParseFileName("12a.sst", &n, &is_table));
  EXPECT_FALSE(ParseFileName(".sst", &n, &is_table));
  EXPECT_EQ(TableFileName("d", 7), "d/000007.sst");
  EXPECT_EQ(LogFileName("d", 7), "d/000007.log");
}

}  // namespace
}  // namespace bloomgate::lsm
