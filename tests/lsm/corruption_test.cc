// Copyright 2026 The bloomgate Authors.
//
// Damage to a store's files, seen through the Store: a flipped byte in the
// WAL or the manifest stops Open with DataLoss naming the file and offset;
// in an SSTable it stops Open (metadata), fails the Gets that need the
// damaged block (data), or degrades that file's filter, which GetStats and
// GetLiveFiles report (filter). Never a wrong value, never a crash.

#include <filesystem>
#include <map>
#include <string>

#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "src/lsm/format.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using testing::TempDir;

void FlipByte(const std::string& path, size_t offset) {
  std::string bytes = testing::ReadBytes(path);
  ASSERT_LT(offset, bytes.size());
  bytes[offset] ^= 0x20;
  testing::WriteBytes(path, bytes);
}

std::string Only(const std::string& dir, const std::string& suffix) {
  auto files = testing::FilesWithSuffix(dir, suffix);
  EXPECT_EQ(files.size(), 1u) << suffix;
  return files.empty() ? "" : files[0];
}

bool Mentions(const absl::Status& s, const std::string& what) {
  return std::string(s.message()).find(what) != std::string::npos;
}

TEST(CorruptionTest, FlippedWalByteStopsOpenNamingFileAndOffset) {
  TempDir dir;
  const std::string clean = dir.Sub("clean");
  {
    auto store = Store::Open(clean, testing::SmallOptions());
    ASSERT_TRUE(store.ok());
    ASSERT_OK((*store)->Put("a", "1"));
    ASSERT_OK((*store)->Delete("b"));
    ASSERT_OK((*store)->Put("c", std::string(30, 'c')));
    ASSERT_OK((*store)->Close());  // the writes stay in the WAL
  }
  const std::string log = Only(clean, ".log");
  const size_t size = std::filesystem::file_size(clean + "/" + log);
  ASSERT_GT(size, 40u);
  for (size_t i = 0; i < size; ++i) {
    const std::string work = dir.Sub("work");
    testing::CopyDir(clean, work);
    FlipByte(work + "/" + log, i);
    auto store = Store::Open(work, testing::SmallOptions());
    ASSERT_FALSE(store.ok()) << "byte " << i;
    EXPECT_TRUE(absl::IsDataLoss(store.status())) << store.status();
    EXPECT_TRUE(Mentions(store.status(), log)) << store.status();
    EXPECT_TRUE(Mentions(store.status(), "offset")) << store.status();
  }
}

TEST(CorruptionTest, FlippedManifestByteStopsOpen) {
  TempDir dir;
  const std::string clean = dir.Sub("clean");
  {
    auto store = Store::Open(clean, testing::SmallOptions());
    ASSERT_TRUE(store.ok());
    for (int f = 0; f < 3; ++f) {
      ASSERT_OK((*store)->Put(Key(f), "v"));
      ASSERT_OK((*store)->Flush());
    }
  }
  const size_t size = std::filesystem::file_size(clean + "/MANIFEST");
  for (size_t i = 0; i < size; ++i) {
    const std::string work = dir.Sub("work");
    testing::CopyDir(clean, work);
    FlipByte(work + "/MANIFEST", i);
    auto store = Store::Open(work, testing::SmallOptions());
    ASSERT_FALSE(store.ok()) << "byte " << i;
    EXPECT_TRUE(absl::IsDataLoss(store.status())) << store.status();
    EXPECT_TRUE(Mentions(store.status(), "MANIFEST")) << store.status();
    EXPECT_TRUE(Mentions(store.status(), "offset")) << store.status();
  }
}

TEST(CorruptionTest, MissingTableStopsOpen) {
  TempDir dir;
  {
    auto store = Store::Open(dir.path(), testing::SmallOptions());
    ASSERT_TRUE(store.ok());
    ASSERT_OK((*store)->Put("k", "v"));
    ASSERT_OK((*store)->Flush());
  }
  std::filesystem::remove(dir.Sub(Only(dir.path(), ".sst")));
  auto store = Store::Open(dir.path(), testing::SmallOptions());
  EXPECT_TRUE(absl::IsDataLoss(store.status())) << store.status();
}

TEST(CorruptionTest, FlippedTableBytesAreCaughtOrDegradeTheFilter) {
  TempDir dir;
  const std::string clean = dir.Sub("clean");
  std::map<std::string, std::string> model;
  {
    StoreOptions o = testing::SmallOptions();
    o.block_size = 256;
    auto store = Store::Open(clean, o);
    ASSERT_TRUE(store.ok());
    for (int i = 0; i < 150; ++i) {
      model[Key(i)] = "value" + std::to_string(i);
      ASSERT_OK((*store)->Put(Key(i), model[Key(i)]));
    }
    ASSERT_OK((*store)->Flush());
  }
  const std::string sst = Only(clean, ".sst");
  const std::string bytes = testing::ReadBytes(clean + "/" + sst);
  auto footer =
      DecodeFooter(std::string_view(bytes).substr(bytes.size() - kFooterSize),
                   sst, bytes.size() - kFooterSize);
  ASSERT_TRUE(footer.ok());
  int open_errors = 0, get_errors = 0, degraded = 0;
  // Every 11th byte (table_test.cc flips every byte of a table directly).
  for (size_t i = 0; i < bytes.size(); i += 11) {
    const std::string work = dir.Sub("work");
    testing::CopyDir(clean, work);
    FlipByte(work + "/" + sst, i);
    auto store = Store::Open(work, testing::SmallOptions());
    if (!store.ok()) {
      ++open_errors;
      EXPECT_TRUE(absl::IsDataLoss(store.status()) ||
                  absl::IsUnimplemented(store.status()))
          << store.status();
      EXPECT_TRUE(Mentions(store.status(), sst)) << store.status();
      EXPECT_TRUE(Mentions(store.status(), "offset")) << store.status();
      continue;
    }
    const bool in_filter =
        i >= footer->filter.offset && i < footer->filter.end();
    const IoStats s = (*store)->GetStats();
    EXPECT_EQ(s.total.degraded_filters, in_filter ? 1u : 0u) << i;
    if (in_filter) {
      ++degraded;
      auto files = (*store)->GetLiveFiles();
      ASSERT_EQ(files.size(), 1u);
      EXPECT_TRUE(absl::IsDataLoss(files[0].filter_status));
      EXPECT_TRUE(Mentions(files[0].filter_status, sst));
    }
    for (const auto& [k, v] : model) {
      auto got = (*store)->Get(k);
      if (!got.ok()) {
        ++get_errors;
        EXPECT_TRUE(absl::IsDataLoss(got.status())) << got.status();
        EXPECT_TRUE(Mentions(got.status(), sst)) << got.status();
        EXPECT_TRUE(Mentions(got.status(), "offset")) << got.status();
        continue;
      }
      ASSERT_TRUE(got->has_value()) << "byte " << i << " key " << k;
      EXPECT_EQ(**got, v) << "byte " << i;
    }
  }
  EXPECT_GT(open_errors, 0);
  EXPECT_GT(get_errors, 0);
  EXPECT_GT(degraded, 0);
}

}  // namespace
}  // namespace bloomgate::lsm
