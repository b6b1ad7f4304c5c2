// Copyright 2026 The bloomgate Authors.

#include "tools/bench/direct_reads.h"

#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "absl/strings/str_cat.h"

namespace bloomgate::bench {
namespace {

// O_DIRECT wants the offset, length and memory aligned to the logical block
// size; 4096 covers every common device (and is what both engines use).
constexpr size_t kAlignment = 4096;

constexpr long kTmpfsMagic = 0x01021994;
constexpr long kRamfsMagic = 0x858458f6;

bool InMemory(const std::string& folder) {
  struct statfs fs {};
  if (::statfs(folder.c_str(), &fs) != 0) return false;
  const long type = static_cast<long>(fs.f_type);
  return type == kTmpfsMagic || type == kRamfsMagic;
}

absl::Status Errno(const std::string& what, int err) {
  return absl::FailedPreconditionError(
      absl::StrCat(what, ": ", std::strerror(err)));
}

}  // namespace

absl::Status ProbeDirectReads(const std::string& folder) {
  const std::string path =
      (std::filesystem::path(folder) /
       absl::StrCat(".bloomgate_direct_probe.", ::getpid()))
          .string();
  std::unique_ptr<char, decltype(&std::free)> buffer(
      static_cast<char*>(std::aligned_alloc(kAlignment, kAlignment)),
      &std::free);
  if (buffer == nullptr) return absl::ResourceExhaustedError("aligned_alloc");
  std::memset(buffer.get(), 'b', kAlignment);
  // Written buffered: a direct read of the same range must then see it (the
  // kernel writes dirty pages back before an O_DIRECT read).
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Errno(absl::StrCat("cannot create ", path), errno);
  const bool written =
      ::write(fd, buffer.get(), kAlignment) == static_cast<ssize_t>(kAlignment);
  const int write_errno = errno;
  ::close(fd);
  absl::Status status;
  if (!written) {
    status = Errno(absl::StrCat("cannot write ", path), write_errno);
  } else {
    fd = ::open(path.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (fd < 0) {
      status = Errno(
          absl::StrCat("the file system of ", folder, " refuses O_DIRECT"),
          errno);
    } else {
      const ssize_t n = ::pread(fd, buffer.get(), kAlignment, 0);
      if (n != static_cast<ssize_t>(kAlignment)) {
        status = Errno(absl::StrCat("O_DIRECT read in ", folder, " failed"),
                       n < 0 ? errno : EIO);
      }
      ::close(fd);
    }
  }
  ::unlink(path.c_str());
  return status;
}

DirectReads ResolveDirectReads(const BenchOptions& options,
                               DirectReadsProbe probe) {
  DirectReads direct;
  direct.requested = options.engine.use_direct_reads;
  if (!direct.requested) return direct;
  std::error_code ec;
  if (options.db.empty()) {
    direct.folder = std::filesystem::temp_directory_path(ec).string();
  } else {
    direct.folder = options.db;
    std::filesystem::create_directories(direct.folder, ec);
  }
  if (ec) {
    direct.refusal =
        absl::StrCat("cannot prepare ", direct.folder, ": ", ec.message());
    return direct;
  }
  direct.in_memory = InMemory(direct.folder);
  absl::Status status = probe(direct.folder);
  direct.in_force = status.ok();
  if (!status.ok()) direct.refusal = std::string(status.message());
  return direct;
}

absl::Status ApplyDirectReads(const DirectReads& direct,
                              BenchOptions* options) {
  if (direct.requested && !direct.in_force && options->require_direct_reads) {
    return absl::FailedPreconditionError(
        absl::StrCat("--require_direct_reads: ", direct.refusal));
  }
  options->engine.use_direct_reads = direct.in_force;
  return absl::OkStatus();
}

std::string DescribeDirectReads(const DirectReads& direct) {
  if (direct.in_force) {
    return absl::StrCat("Reads:      direct (O_DIRECT in ", direct.folder,
                        "; page cache bypassed, --use_direct_reads)\n",
                        direct.in_memory
                            ? "            (its file system keeps files in "
                              "memory: no device behind the reads)\n"
                            : "");
  }
  if (direct.requested) {
    return absl::StrCat(
        "Reads:      buffered (page cache): --use_direct_reads refused, ",
        direct.refusal, "\n");
  }
  return "Reads:      buffered (page cache)\n";
}

}  // namespace bloomgate::bench
