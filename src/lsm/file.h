// Copyright 2026 The bloomgate Authors.
//
// The POSIX file layer of the LSM. Every read system call goes through
// RandomAccessFile::Read or ReadFileToString, which report how many calls
// they made: this is where the store's I/O counts come from. A failed
// system call returns absl::ErrnoToStatus's code for its errno, with a
// message naming the file and the operation.

#ifndef BLOOMGATE_SRC_LSM_FILE_H_
#define BLOOMGATE_SRC_LSM_FILE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace bloomgate::lsm {

// Read system calls made and bytes they returned.
struct ReadCost {
  uint64_t syscalls = 0;
  uint64_t bytes = 0;
  // Wall time spent in the read system calls (steady clock).
  uint64_t nanos = 0;
};

// Owns memory whose start is aligned (64 bytes at least, so a filter block
// read into it keeps its cache lines whole; 4096 for direct I/O). view() is
// the part a read asked for.
//
// A buffer of 2 MiB or more (a large filter block) is mapped on its own,
// 2 MiB aligned, and offered to the kernel's transparent huge pages
// (madvise MADV_HUGEPAGE, which the kernel honours in its "always" and
// "madvise" modes): probes spread over a filter larger than what the TLB
// maps in 4 KiB pages would otherwise add a page walk to each cache miss.
class AlignedBuffer {
 public:
  AlignedBuffer() = default;
  AlignedBuffer(AlignedBuffer&&) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&&) noexcept;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer();

  // Makes room for `capacity` bytes (contents undefined) and sets the view
  // to [0, 0).
  void Allocate(size_t capacity, size_t alignment);
  char* base() { return base_; }
  size_t capacity() const { return capacity_; }
  size_t alignment() const { return alignment_; }
  void SetView(size_t offset, size_t size) {
    offset_ = offset;
    size_ = size;
  }
  std::string_view view() const { return {base_ + offset_, size_}; }

 private:
  // Frees base_, by how it was allocated.
  void Free();

  char* base_ = nullptr;
  size_t mapped_bytes_ = 0;  // > 0: base_ is a mapping of this length
  size_t capacity_ = 0;
  size_t alignment_ = 0;
  size_t offset_ = 0;
  size_t size_ = 0;
};

// An immutable file read by offset. Thread-safe.
class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // Reads exactly `n` bytes at `offset`; out->view() is those bytes and
  // starts at out->base() unless the file uses direct I/O. Adds the system
  // calls made to *cost. DataLoss naming the file if it ends early.
  virtual absl::Status Read(uint64_t offset, size_t n, AlignedBuffer* out,
                            ReadCost* cost) const = 0;
  virtual uint64_t size() const = 0;
  virtual const std::string& name() const = 0;
  virtual bool direct_io() const { return false; }
};

// Opens `path` for positioned reads. With `direct_io`, tries O_DIRECT and
// falls back to buffered reads where the file system refuses it.
absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(
    const std::string& path, bool direct_io);
// A file held in memory (tests and fuzzers). Reads count as one call each.
std::unique_ptr<RandomAccessFile> NewStringFile(std::string name,
                                                std::string contents);

// A file written front to back. Appends are buffered; Flush hands them to
// the kernel (a process crash then loses nothing), Sync also fdatasyncs.
class WritableFile {
 public:
  // Creates or truncates `path`.
  static absl::StatusOr<std::unique_ptr<WritableFile>> Create(
      const std::string& path);
  ~WritableFile();
  WritableFile(const WritableFile&) = delete;
  WritableFile& operator=(const WritableFile&) = delete;

  absl::Status Append(std::string_view data);
  absl::Status Flush();
  absl::Status Sync();
  absl::Status Close();
  // Bytes appended so far.
  uint64_t size() const { return size_; }
  const std::string& name() const { return path_; }

 private:
  WritableFile(std::string path, int fd);
  absl::Status WriteRaw(std::string_view data);

  std::string path_;
  int fd_;
  uint64_t size_ = 0;
  std::string buffer_;
};

// Reads a whole file, counting the read calls.
absl::Status ReadFileToString(const std::string& path, std::string* out,
                              ReadCost* cost);
// Writes `data` to `path` (create/truncate) and fdatasyncs it.
absl::Status WriteFileSync(const std::string& path, std::string_view data);
absl::Status SyncDir(const std::string& dir);
absl::Status RenameFile(const std::string& from, const std::string& to);
absl::Status RemoveFile(const std::string& path);
absl::Status CreateDirIfMissing(const std::string& dir);
bool FileExists(const std::string& path);
absl::StatusOr<std::vector<std::string>> ListDir(const std::string& dir);

// An exclusive flock on <dir>/LOCK, released when destroyed.
class FileLock {
 public:
  static absl::StatusOr<std::unique_ptr<FileLock>> Acquire(
      const std::string& path);
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_FILE_H_
