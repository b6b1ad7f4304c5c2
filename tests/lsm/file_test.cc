// Copyright 2026 The bloomgate Authors.
//
// The file layer's errors: a failed system call's status has
// absl::ErrnoToStatus's code for its errno and names the file and the
// operation.

#include "lsm/file.h"

#include <string>

#include "gtest/gtest.h"
#include "test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::TempDir;

bool Mentions(const absl::Status& s, const std::string& text) {
  return std::string(s.message()).find(text) != std::string::npos;
}

TEST(FileTest, MissingFileIsNotFoundNamingFileAndOperation) {
  TempDir dir;
  const std::string path = dir.Sub("absent.sst");
  auto file = OpenRandomAccessFile(path, /*direct_io=*/false);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(absl::IsNotFound(file.status())) << file.status();
  EXPECT_TRUE(Mentions(file.status(), path + ": open")) << file.status();
  EXPECT_TRUE(Mentions(file.status(), "No such file")) << file.status();

  const absl::Status removed = RemoveFile(path);
  EXPECT_TRUE(absl::IsNotFound(removed)) << removed;
  EXPECT_TRUE(Mentions(removed, path + ": unlink")) << removed;
}

TEST(FileTest, ReadingAFolderIsFailedPrecondition) {
  // read(2) on a folder fails with EISDIR, which ErrnoToStatus maps to
  // FailedPrecondition.
  TempDir dir;
  std::string contents;
  ReadCost cost;
  const absl::Status s = ReadFileToString(dir.path(), &contents, &cost);
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_TRUE(Mentions(s, dir.path() + ": read")) << s;
  EXPECT_EQ(cost.syscalls, 1u);
}

TEST(FileTest, CreatingAFileInAMissingFolderIsNotFound) {
  TempDir dir;
  const std::string path = dir.Sub("no/such/folder/000001.log");
  auto file = WritableFile::Create(path);
  ASSERT_FALSE(file.ok());
  EXPECT_TRUE(absl::IsNotFound(file.status())) << file.status();
  EXPECT_TRUE(Mentions(file.status(), path + ": create")) << file.status();
}

}  // namespace
}  // namespace bloomgate::lsm
