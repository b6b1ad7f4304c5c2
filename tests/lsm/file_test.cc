// Copyright 2026 The bloomgate Authors.
//
// The file layer's errors: a failed system call's status has
// absl::ErrnoToStatus's code for its errno and names the file and the
// operation. And AlignedBuffer's alignment, for small buffers and for the
// large ones it maps on 2 MiB boundaries.

#include "src/lsm/file.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"

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

// Every byte of `buf`'s capacity holds what was written there.
void ExpectWritable(AlignedBuffer& buf) {
  const size_t n = buf.capacity();
  for (size_t i = 0; i < n; i += 4093) buf.base()[i] = static_cast<char>(i);
  buf.base()[n - 1] = 'z';
  for (size_t i = 0; i < n; i += 4093) {
    ASSERT_EQ(buf.base()[i], static_cast<char>(i)) << i;
  }
  ASSERT_EQ(buf.base()[n - 1], 'z');
}

uintptr_t Address(AlignedBuffer& buf) {
  return reinterpret_cast<uintptr_t>(buf.base());
}

TEST(AlignedBufferTest, SmallBuffersHaveTheirAlignment) {
  for (size_t alignment : {size_t{1}, size_t{64}, size_t{4096}}) {
    AlignedBuffer buf;
    buf.Allocate(100000, alignment);
    EXPECT_EQ(Address(buf) % std::max<size_t>(alignment, 64), 0u);
    EXPECT_EQ(buf.capacity(), 100000u);
    ExpectWritable(buf);
  }
}

TEST(AlignedBufferTest, LargeBuffersStartOnA2MiBBoundary) {
  constexpr size_t k2MiB = size_t{2} << 20;
  for (size_t capacity : {k2MiB, 3 * k2MiB + 17}) {
    AlignedBuffer buf;
    buf.Allocate(capacity, 4096);
    EXPECT_EQ(Address(buf) % k2MiB, 0u) << capacity;
    EXPECT_EQ(buf.capacity(), capacity);
    ExpectWritable(buf);
    buf.SetView(5, 10);
    EXPECT_EQ(buf.view().data(), buf.base() + 5);

    // Moved, the mapping goes with it; reallocated small, it is unmapped
    // (AddressSanitizer and the kernel would see a double free or a leak).
    AlignedBuffer moved = std::move(buf);
    EXPECT_EQ(Address(moved) % k2MiB, 0u);
    EXPECT_EQ(moved.view().size(), 10u);
    moved.Allocate(100, 64);
    EXPECT_EQ(Address(moved) % 64, 0u);
    ExpectWritable(moved);
    moved.Allocate(capacity, 64);
    EXPECT_EQ(Address(moved) % k2MiB, 0u);
    ExpectWritable(moved);
  }
}

}  // namespace
}  // namespace bloomgate::lsm
