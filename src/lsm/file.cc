// Copyright 2026 The bloomgate Authors.

#include "src/lsm/file.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/filter/huge_pages.h"

namespace bloomgate::lsm {
namespace {

// O_DIRECT needs the offset, length and memory aligned to the device's
// logical block size; 4096 covers every common device.
constexpr size_t kDirectAlignment = 4096;
constexpr size_t kMinAlignment = 64;
constexpr size_t kWriteBufferBytes = 64 << 10;
class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(std::string name, int fd, uint64_t size, bool direct)
      : name_(std::move(name)), fd_(fd), size_(size), direct_(direct) {}
  ~PosixRandomAccessFile() override { ::close(fd_); }

  absl::Status Read(uint64_t offset, size_t n, AlignedBuffer* out,
                    ReadCost* cost) const override {
    if (offset > size_ || n > size_ - offset) {
      return absl::DataLossError(
          absl::StrCat(name_, ": read of ", n, " bytes at offset ", offset,
                       " past the end of the file (", size_, " bytes)"));
    }
    uint64_t start = offset;
    uint64_t end = offset + n;
    size_t alignment = kMinAlignment;
    if (direct_) {
      alignment = kDirectAlignment;
      start = offset / kDirectAlignment * kDirectAlignment;
      end = (end + kDirectAlignment - 1) / kDirectAlignment * kDirectAlignment;
    }
    const size_t want = end - start;
    if (out->capacity() < want || out->alignment() < alignment) {
      out->Allocate(want, alignment);
    }
    const uint64_t needed = offset + n - start;  // bytes that must arrive
    uint64_t got = 0;
    while (got < needed) {
      // Two clock reads (tens of ns through the vDSO) against a system call
      // of a microsecond or more: cheap enough to time every read, which is
      // how a caller learns what its device costs.
      const auto begin = std::chrono::steady_clock::now();
      ssize_t r = ::pread(fd_, out->base() + got, want - got, start + got);
      cost->nanos += static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              std::chrono::steady_clock::now() - begin)
              .count());
      ++cost->syscalls;
      if (r < 0) {
        if (errno == EINTR) continue;
        return absl::ErrnoToStatus(
            errno, absl::StrCat(name_, ": pread at offset ", start + got));
      }
      if (r == 0) {
        return absl::DataLossError(absl::StrCat(name_, ": file ends at offset ",
                                                start + got, ", expected ",
                                                offset + n, " bytes"));
      }
      cost->bytes += static_cast<uint64_t>(r);
      got += static_cast<uint64_t>(r);
    }
    out->SetView(offset - start, n);
    return absl::OkStatus();
  }
  uint64_t size() const override { return size_; }
  const std::string& name() const override { return name_; }
  bool direct_io() const override { return direct_; }

 private:
  const std::string name_;
  const int fd_;
  const uint64_t size_;
  const bool direct_;
};

class StringFile final : public RandomAccessFile {
 public:
  StringFile(std::string name, std::string contents)
      : name_(std::move(name)), contents_(std::move(contents)) {}
  absl::Status Read(uint64_t offset, size_t n, AlignedBuffer* out,
                    ReadCost* cost) const override {
    ++cost->syscalls;
    if (offset > contents_.size() || n > contents_.size() - offset) {
      return absl::DataLossError(absl::StrCat(
          name_, ": read of ", n, " bytes at offset ", offset,
          " past the end of the file (", contents_.size(), " bytes)"));
    }
    if (out->capacity() < n) out->Allocate(n, kMinAlignment);
    std::memcpy(out->base(), contents_.data() + offset, n);
    out->SetView(0, n);
    cost->bytes += n;
    return absl::OkStatus();
  }
  uint64_t size() const override { return contents_.size(); }
  const std::string& name() const override { return name_; }

 private:
  const std::string name_;
  const std::string contents_;
};

}  // namespace

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept {
  *this = std::move(other);
}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    Free();
    base_ = std::exchange(other.base_, nullptr);
    mapped_bytes_ = std::exchange(other.mapped_bytes_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    alignment_ = std::exchange(other.alignment_, 0);
    offset_ = std::exchange(other.offset_, 0);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

AlignedBuffer::~AlignedBuffer() { Free(); }

void AlignedBuffer::Free() {
  if (base_ == nullptr) return;
  if (mapped_bytes_ > 0) {
    ::munmap(base_, mapped_bytes_);
  } else {
    ::operator delete[](base_, std::align_val_t(alignment_));
  }
  base_ = nullptr;
  mapped_bytes_ = 0;
}

void AlignedBuffer::Allocate(size_t capacity, size_t alignment) {
  Free();
  alignment = std::max(alignment, kMinAlignment);
  capacity = std::max<size_t>(capacity, 1);
  capacity_ = capacity;
  alignment_ = alignment;
  offset_ = 0;
  size_ = 0;
  if (capacity >= internal::kHugePageBytes &&
      alignment <= internal::kHugePageBytes) {
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t bytes = (capacity + page - 1) / page * page;
    base_ = static_cast<char*>(internal::MapHugePageAligned(bytes));
    if (base_ != nullptr) {
      mapped_bytes_ = bytes;
      return;
    }
  }
  base_ = static_cast<char*>(
      ::operator new[](capacity, std::align_val_t(alignment)));
}

absl::StatusOr<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(
    const std::string& path, bool direct_io) {
  int fd = -1;
  bool direct = false;
  if (direct_io) {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECT);
    if (fd >= 0) {
      direct = true;
    } else if (errno != EINVAL) {
      return absl::ErrnoToStatus(errno, absl::StrCat(path, ": open"));
    }
  }
  if (fd < 0) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat(path, ": open"));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return absl::ErrnoToStatus(err, absl::StrCat(path, ": fstat"));
  }
  return std::unique_ptr<RandomAccessFile>(new PosixRandomAccessFile(
      path, fd, static_cast<uint64_t>(st.st_size), direct));
}

std::unique_ptr<RandomAccessFile> NewStringFile(std::string name,
                                                std::string contents) {
  return std::make_unique<StringFile>(std::move(name), std::move(contents));
}

absl::StatusOr<std::unique_ptr<WritableFile>> WritableFile::Create(
    const std::string& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat(path, ": create"));
  return std::unique_ptr<WritableFile>(new WritableFile(path, fd));
}

WritableFile::WritableFile(std::string path, int fd)
    : path_(std::move(path)), fd_(fd) {}

WritableFile::~WritableFile() {
  if (fd_ >= 0) {
    (void)Flush();
    ::close(fd_);
  }
}

absl::Status WritableFile::Append(std::string_view data) {
  size_ += data.size();
  if (buffer_.size() + data.size() <= kWriteBufferBytes) {
    buffer_.append(data);
    return absl::OkStatus();
  }
  absl::Status s = Flush();
  if (!s.ok()) return s;
  if (data.size() >= kWriteBufferBytes) return WriteRaw(data);
  buffer_.append(data);
  return absl::OkStatus();
}

absl::Status WritableFile::Flush() {
  absl::Status s = WriteRaw(buffer_);
  buffer_.clear();
  return s;
}

absl::Status WritableFile::WriteRaw(std::string_view data) {
  while (!data.empty()) {
    ssize_t w = ::write(fd_, data.data(), data.size());
    if (w < 0) {
      if (errno == EINTR) continue;
      return absl::ErrnoToStatus(errno, absl::StrCat(path_, ": write"));
    }
    data.remove_prefix(static_cast<size_t>(w));
  }
  return absl::OkStatus();
}

absl::Status WritableFile::Sync() {
  absl::Status s = Flush();
  if (!s.ok()) return s;
  if (::fdatasync(fd_) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat(path_, ": fdatasync"));
  }
  return absl::OkStatus();
}

absl::Status WritableFile::Close() {
  if (fd_ < 0) return absl::OkStatus();
  absl::Status s = Flush();
  if (::close(fd_) != 0 && s.ok()) {
    s = absl::ErrnoToStatus(errno, absl::StrCat(path_, ": close"));
  }
  fd_ = -1;
  return s;
}

absl::Status ReadFileToString(const std::string& path, std::string* out,
                              ReadCost* cost) {
  out->clear();
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat(path, ": open"));
  constexpr size_t kChunk = 1 << 20;
  absl::Status s;
  for (;;) {
    size_t old = out->size();
    out->resize(old + kChunk);
    ssize_t r = ::read(fd, out->data() + old, kChunk);
    ++cost->syscalls;
    if (r < 0) {
      out->resize(old);
      if (errno == EINTR) continue;
      s = absl::ErrnoToStatus(errno, absl::StrCat(path, ": read"));
      break;
    }
    out->resize(old + static_cast<size_t>(r));
    cost->bytes += static_cast<uint64_t>(r);
    if (r == 0) break;
  }
  ::close(fd);
  return s;
}

absl::Status WriteFileSync(const std::string& path, std::string_view data) {
  auto file = WritableFile::Create(path);
  if (!file.ok()) return file.status();
  absl::Status s = (*file)->Append(data);
  if (s.ok()) s = (*file)->Sync();
  absl::Status c = (*file)->Close();
  return s.ok() ? c : s;
}

absl::Status SyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat(dir, ": open"));
  absl::Status s;
  if (::fsync(fd) != 0)
    s = absl::ErrnoToStatus(errno, absl::StrCat(dir, ": fsync"));
  ::close(fd);
  return s;
}

absl::Status RenameFile(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) {
    return absl::ErrnoToStatus(errno,
                               absl::StrCat("rename ", from, " to ", to));
  }
  return absl::OkStatus();
}

absl::Status RemoveFile(const std::string& path) {
  if (::unlink(path.c_str()) != 0) {
    return absl::ErrnoToStatus(errno, absl::StrCat(path, ": unlink"));
  }
  return absl::OkStatus();
}

absl::Status CreateDirIfMissing(const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return absl::ErrnoToStatus(errno, absl::StrCat(dir, ": mkdir"));
  }
  return absl::OkStatus();
}

bool FileExists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

absl::StatusOr<std::vector<std::string>> ListDir(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr)
    return absl::ErrnoToStatus(errno, absl::StrCat(dir, ": opendir"));
  std::vector<std::string> names;
  while (struct dirent* e = ::readdir(d)) {
    std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<std::unique_ptr<FileLock>> FileLock::Acquire(
    const std::string& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return absl::ErrnoToStatus(errno, absl::StrCat(path, ": open"));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    int err = errno;
    ::close(fd);
    if (err == EWOULDBLOCK) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, ": the store is open in another Store"));
    }
    return absl::ErrnoToStatus(err, absl::StrCat(path, ": flock"));
  }
  return std::unique_ptr<FileLock>(new FileLock(fd));
}

FileLock::~FileLock() {
  ::flock(fd_, LOCK_UN);
  ::close(fd_);
}

}  // namespace bloomgate::lsm
