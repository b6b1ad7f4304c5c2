// Copyright 2026 The bloomgate Authors.

#include "tools/bench/scratch_dir.h"

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace bloomgate::bench {
namespace {

TEST(ScratchDirTest, EachCallMakesANewFolderInTheTemporaryDirectory) {
  absl::StatusOr<std::string> a = CreateScratchDir("bloomgate_scratch_test");
  absl::StatusOr<std::string> b = CreateScratchDir("bloomgate_scratch_test");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_NE(*a, *b);
  for (const std::string& dir : {*a, *b}) {
    EXPECT_TRUE(std::filesystem::is_directory(dir)) << dir;
    EXPECT_TRUE(std::filesystem::is_empty(dir)) << dir;
    const std::filesystem::path path(dir);
    EXPECT_EQ(path.parent_path(), std::filesystem::temp_directory_path());
    EXPECT_EQ(path.filename().string().rfind("bloomgate_scratch_test.", 0), 0u)
        << dir;
    std::filesystem::remove_all(dir);
  }
}

}  // namespace
}  // namespace bloomgate::bench
