// Copyright 2026 The bloomgate Authors.
//
// What Open does with a folder an operator or a disk has changed: a missing
// MANIFEST, stray files, tables the manifest does not know, WALs cut short.
// The store never removes a file it cannot prove obsolete, and every error
// names what it found.

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "src/lsm/manifest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using testing::TempDir;

bool Mentions(const absl::Status& s, const std::string& what) {
  return std::string(s.message()).find(what) != std::string::npos;
}

std::set<std::string> Names(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    out.insert(e.path().filename().string());
  }
  return out;
}

// A closed store of `n` keys over several tables and levels, with its last
// writes only in the WAL.
void MakeStore(const std::string& dir, int n) {
  auto store = Store::Open(dir, testing::SmallOptions());
  ASSERT_TRUE(store.ok()) << store.status();
  for (int i = 0; i < n; ++i) {
    ASSERT_OK((*store)->Put(Key(i), std::string(40, 'a' + i % 26)));
  }
  ASSERT_OK((*store)->Close());
}

void ExpectAllKeys(Store& store, int n) {
  for (int i = 0; i < n; ++i) {
    auto v = store.Get(Key(i));
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_TRUE(v->has_value()) << Key(i);
    EXPECT_EQ(**v, std::string(40, 'a' + i % 26));
  }
}

Manifest ReadManifest(const std::string& dir) {
  auto m = DecodeManifest("MANIFEST", testing::ReadBytes(dir + "/MANIFEST"));
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : Manifest();
}

TEST(RecoveryTest, MissingManifestRefusesToOpenAndRemovesNothing) {
  TempDir dir;
  MakeStore(dir.path(), 3000);
  std::filesystem::remove(dir.Sub("MANIFEST"));
  const std::set<std::string> before = Names(dir.path());
  ASSERT_GT(testing::FilesWithSuffix(dir.path(), ".sst").size(), 3u);

  for (bool create : {true, false}) {
    StoreOptions o = testing::SmallOptions();
    o.create_if_missing = create;
    auto store = Store::Open(dir.path(), o);
    ASSERT_FALSE(store.ok());
    EXPECT_TRUE(absl::IsDataLoss(store.status())) << store.status();
    EXPECT_TRUE(Mentions(store.status(), "no MANIFEST")) << store.status();
    EXPECT_TRUE(Mentions(store.status(), "table files")) << store.status();
    EXPECT_TRUE(Mentions(store.status(), ".sst")) << store.status();
    EXPECT_TRUE(Mentions(store.status(), dir.path())) << store.status();
    EXPECT_EQ(Names(dir.path()), before);
  }
}

TEST(RecoveryTest, NoStoreWithoutCreateIfMissingSaysWhatTheFolderHolds) {
  TempDir dir;
  testing::WriteBytes(dir.Sub("notes.txt"), "x");
  StoreOptions o = testing::SmallOptions();
  o.create_if_missing = false;
  auto store = Store::Open(dir.path(), o);
  EXPECT_TRUE(absl::IsNotFound(store.status())) << store.status();
  EXPECT_TRUE(Mentions(store.status(), "1 other files")) << store.status();
  EXPECT_EQ(Names(dir.path()), (std::set<std::string>{"LOCK", "notes.txt"}));

  auto missing = Store::Open(dir.Sub("nothing"), o);
  EXPECT_TRUE(absl::IsNotFound(missing.status())) << missing.status();
  EXPECT_TRUE(Mentions(missing.status(), "nothing")) << missing.status();
}

TEST(RecoveryTest, StrayFilesWithOtherSpellingsAreIgnoredAndKept) {
  TempDir dir;
  MakeStore(dir.path(), 500);
  const std::vector<std::string> strays = {
      "999.log", "0999.log",  "0000000000000000000999.log",
      "7.sst",   "notes.txt", "000012.sst.bak"};
  for (const std::string& s : strays) testing::WriteBytes(dir.Sub(s), "junk");

  for (int round = 0; round < 2; ++round) {
    auto store = Store::Open(dir.path(), testing::SmallOptions());
    ASSERT_TRUE(store.ok()) << store.status();
    ExpectAllKeys(**store, 500);
    const RecoveryReport& r = (*store)->recovery();
    EXPECT_EQ(
        std::set<std::string>(r.ignored_files.begin(), r.ignored_files.end()),
        std::set<std::string>(strays.begin(), strays.end()))
        << r.ToString();
    for (const std::string& s : strays) {
      EXPECT_EQ(testing::ReadBytes(dir.Sub(s)), "junk") << s;
    }
    ASSERT_OK((*store)->Close());
  }
}

TEST(RecoveryTest, UnknownTableAboveTheNextFileNumberRefusesToOpen) {
  TempDir dir;
  MakeStore(dir.path(), 2000);
  const Manifest m = ReadManifest(dir.path());
  ASSERT_FALSE(m.files.empty());
  // A table the manifest never knew of, e.g. because an older MANIFEST was
  // put back: it may hold the newest data.
  const std::string name =
      std::filesystem::path(TableFileName("", m.next_file_number + 5))
          .filename()
          .string();
  std::filesystem::copy_file(TableFileName(dir.path(), m.files.back().number),
                             dir.Sub(name));
  const std::set<std::string> before = Names(dir.path());

  auto store = Store::Open(dir.path(), testing::SmallOptions());
  ASSERT_FALSE(store.ok());
  EXPECT_TRUE(absl::IsDataLoss(store.status())) << store.status();
  EXPECT_TRUE(Mentions(store.status(), name)) << store.status();
  EXPECT_TRUE(Mentions(store.status(), "MANIFEST")) << store.status();
  EXPECT_EQ(Names(dir.path()), before);
}

TEST(RecoveryTest, LeftoverTableTheStoreWroteIsRemoved) {
  TempDir dir;
  MakeStore(dir.path(), 2000);
  const Manifest m = ReadManifest(dir.path());
  std::set<uint64_t> used;
  for (const FileMeta& f : m.files) used.insert(f.number);
  // An output of a compaction that never installed: numbered below the
  // manifest's next file number, listed nowhere.
  uint64_t leftover = m.next_file_number - 1;
  while (used.count(leftover)) --leftover;
  const std::string path = TableFileName(dir.path(), leftover);
  std::filesystem::copy_file(TableFileName(dir.path(), m.files[0].number),
                             path);

  auto store = Store::Open(dir.path(), testing::SmallOptions());
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_FALSE(std::filesystem::exists(path));
  const std::vector<std::string>& removed = (*store)->recovery().removed_files;
  EXPECT_NE(std::find(removed.begin(), removed.end(),
                      std::filesystem::path(path).filename().string()),
            removed.end());
  ExpectAllKeys(**store, 2000);
  // Every live table is still there.
  for (const FileInfo& f : (*store)->GetLiveFiles()) {
    EXPECT_TRUE(std::filesystem::exists(f.path)) << f.path;
  }
}

TEST(RecoveryTest, EveryFileTheStoreCreatesIsBelowTheManifestsNextNumber) {
  TempDir dir;
  auto store = Store::Open(dir.path(), testing::SmallOptions());
  ASSERT_TRUE(store.ok()) << store.status();
  // A new store writes its manifest before any other file.
  EXPECT_TRUE(std::filesystem::exists(dir.Sub("MANIFEST")));
  for (int i = 0; i < 5000; ++i) {
    ASSERT_OK((*store)->Put(Key(i * 7919 % 5000), std::string(30, 'v')));
    if (i % 250 != 0) continue;
    // At any moment, whatever a crash would leave is numbered below the
    // durable manifest's next file number.
    const Manifest m = ReadManifest(dir.path());
    for (const std::string& name : Names(dir.path())) {
      uint64_t number;
      bool is_table;
      if (ParseFileName(name, &number, &is_table)) {
        EXPECT_LT(number, m.next_file_number) << name;
      }
    }
  }
  ASSERT_OK((*store)->Close());
}

// A WAL whose last record lost its end, as a crash mid-append leaves it.
std::string CutLastWalRecord(const std::string& dir, size_t* cut_offset) {
  auto logs = testing::FilesWithSuffix(dir, ".log");
  EXPECT_EQ(logs.size(), 1u);
  const std::string path = dir + "/" + logs.at(0);
  const std::string bytes = testing::ReadBytes(path);
  *cut_offset = bytes.size() - 5;
  testing::WriteBytes(path, bytes.substr(0, *cut_offset));
  return logs.at(0);
}

TEST(RecoveryTest, IncompleteWalTailIsReportedOrRefused) {
  TempDir dir;
  {
    auto store = Store::Open(dir.path(), testing::SmallOptions());
    ASSERT_TRUE(store.ok());
    ASSERT_OK((*store)->Put("a", "1"));
    ASSERT_OK((*store)->Put("b", "2"));
    ASSERT_OK((*store)->Put("c", "3"));
    ASSERT_OK((*store)->Close());
  }
  size_t cut;
  const std::string log = CutLastWalRecord(dir.path(), &cut);
  const std::set<std::string> before = Names(dir.path());

  StoreOptions strict = testing::SmallOptions();
  strict.wal_recovery = WalRecovery::kAbsoluteConsistency;
  auto refused = Store::Open(dir.path(), strict);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::IsDataLoss(refused.status())) << refused.status();
  EXPECT_TRUE(Mentions(refused.status(), log)) << refused.status();
  EXPECT_TRUE(Mentions(refused.status(), "offset")) << refused.status();
  EXPECT_EQ(Names(dir.path()), before);

  auto store = Store::Open(dir.path(), testing::SmallOptions());
  ASSERT_TRUE(store.ok()) << store.status();
  const RecoveryReport& r = (*store)->recovery();
  EXPECT_EQ(r.wal_files_replayed, 1u);
  EXPECT_EQ(r.wal_records_replayed, 2u);
  // The cut record's header (12 bytes) and payload, less the 5 bytes cut.
  EXPECT_GT(r.wal_tail_bytes_dropped, 0u);
  ASSERT_EQ(r.wal_tails_dropped.size(), 1u);
  EXPECT_TRUE(r.ToString().find("dropped " +
                                std::to_string(r.wal_tail_bytes_dropped)) !=
              std::string::npos)
      << r.ToString();
  EXPECT_EQ(**(*store)->Get("a"), "1");
  EXPECT_EQ(**(*store)->Get("b"), "2");
  EXPECT_FALSE((*store)->Get("c")->has_value());
}

TEST(RecoveryTest, CleanReopenReportsTheReplayAndRemovesTheOldWal) {
  TempDir dir;
  MakeStore(dir.path(), 100);
  const auto old_logs = testing::FilesWithSuffix(dir.path(), ".log");
  ASSERT_EQ(old_logs.size(), 1u);
  auto store = Store::Open(dir.path(), testing::SmallOptions());
  ASSERT_TRUE(store.ok()) << store.status();
  const RecoveryReport& r = (*store)->recovery();
  EXPECT_EQ(r.wal_files_replayed, 1u);
  EXPECT_GT(r.wal_records_replayed, 0u);
  EXPECT_EQ(r.wal_tail_bytes_dropped, 0u);
  EXPECT_TRUE(r.ignored_files.empty());
  EXPECT_NE(
      std::find(r.removed_files.begin(), r.removed_files.end(), old_logs[0]),
      r.removed_files.end());
  EXPECT_FALSE(std::filesystem::exists(dir.Sub(old_logs[0])));
  ExpectAllKeys(**store, 100);
}

}  // namespace
}  // namespace bloomgate::lsm
