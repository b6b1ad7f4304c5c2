// Copyright 2026 The bloomgate Authors.

#include "tools/bench/direct_reads.h"

#include <fcntl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/absl_compat.h"

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

namespace {

// A file of 4 KiB blocks in a folder, written buffered (a direct read of the
// same range must then see it: the kernel writes dirty pages back before an
// O_DIRECT read), then opened again with O_DIRECT; closed and removed when
// it goes.
class DirectProbeFile {
 public:
  static absl::StatusOr<std::unique_ptr<DirectProbeFile>> Create(
      const std::string& folder, std::string_view name, size_t bytes,
      bool sync) {
    std::unique_ptr<DirectProbeFile> file(new DirectProbeFile(
        (std::filesystem::path(folder) /
         absl::StrCat(".bloomgate_", ToAbsl(name), "_probe.", ::getpid()))
            .string()));
    if (file->block_ == nullptr) {
      return absl::ResourceExhaustedError("aligned_alloc");
    }
    std::memset(file->block_.get(), 'b', kAlignment);
    const int fd = ::open(file->path_.c_str(),
                          O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      return Errno(absl::StrCat("cannot create ", file->path_), errno);
    }
    bool written = true;
    for (size_t at = 0; written && at < bytes; at += kAlignment) {
      written = ::write(fd, file->block_.get(), kAlignment) ==
                static_cast<ssize_t>(kAlignment);
    }
    written = written && (!sync || ::fsync(fd) == 0);
    const int write_errno = errno;
    ::close(fd);
    if (!written) {
      return Errno(absl::StrCat("cannot write ", file->path_), write_errno);
    }
    file->fd_ = ::open(file->path_.c_str(), O_RDONLY | O_DIRECT | O_CLOEXEC);
    if (file->fd_ < 0) {
      return Errno(
          absl::StrCat("the file system of ", folder, " refuses O_DIRECT"),
          errno);
    }
    return file;
  }

  ~DirectProbeFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
  }

  // Reads the block at `offset` (a multiple of 4 KiB) with O_DIRECT: 0, or
  // the errno of the failure (EIO for a short read).
  int ReadBlock(off_t offset) {
    const ssize_t n = ::pread(fd_, block_.get(), kAlignment, offset);
    if (n == static_cast<ssize_t>(kAlignment)) return 0;
    return n < 0 ? errno : EIO;
  }

 private:
  explicit DirectProbeFile(std::string path)
      : path_(std::move(path)),
        block_(static_cast<char*>(std::aligned_alloc(kAlignment, kAlignment)),
               &std::free) {}

  std::string path_;
  int fd_ = -1;
  std::unique_ptr<char, decltype(&std::free)> block_;
};

}  // namespace

absl::Status ProbeDirectReads(const std::string& folder) {
  absl::StatusOr<std::unique_ptr<DirectProbeFile>> file =
      DirectProbeFile::Create(folder, "direct", kAlignment, /*sync=*/false);
  if (!file.ok()) return file.status();
  if (const int err = (*file)->ReadBlock(0); err != 0) {
    return Errno(absl::StrCat("O_DIRECT read in ", folder, " failed"), err);
  }
  return absl::OkStatus();
}

absl::StatusOr<double> MeasureDirectReadLatency(const std::string& folder) {
  // Synced, so that the blocks are on the device before they are timed.
  absl::StatusOr<std::unique_ptr<DirectProbeFile>> file =
      DirectProbeFile::Create(folder, "latency", kLatencyFileBytes,
                              /*sync=*/true);
  if (!file.ok()) return file.status();
  // Seeded: the same blocks every run.
  std::mt19937_64 rng(kLatencySamples);
  std::uniform_int_distribution<size_t> block(
      0, kLatencyFileBytes / kAlignment - 1);
  std::vector<double> micros;
  for (int i = 0; i < kLatencySamples; ++i) {
    const off_t offset = static_cast<off_t>(block(rng) * kAlignment);
    const auto start = std::chrono::steady_clock::now();
    if (const int err = (*file)->ReadBlock(offset); err != 0) {
      return Errno(absl::StrCat("O_DIRECT read in ", folder, " failed"), err);
    }
    micros.push_back(std::chrono::duration<double, std::micro>(
                         std::chrono::steady_clock::now() - start)
                         .count());
  }
  std::nth_element(micros.begin(), micros.begin() + micros.size() / 2,
                   micros.end());
  return micros[micros.size() / 2];
}

DirectReads ResolveDirectReads(const BenchOptions& options,
                               DirectReadsProbe probe, LatencyProbe latency) {
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
  if (!status.ok()) {
    direct.refusal = std::string(status.message());
    return direct;
  }
  absl::StatusOr<double> measured = latency(direct.folder);
  if (measured.ok()) {
    direct.read_latency_us = *measured;
  } else {
    direct.latency_error = std::string(measured.status().message());
  }
  return direct;
}

absl::Status ApplyDirectReads(const DirectReads& direct,
                              BenchOptions* options) {
  if (direct.requested && !direct.in_force && options->require_direct_reads) {
    return absl::FailedPreconditionError(
        absl::StrCat("--require_direct_reads: ", direct.refusal));
  }
  options->engine.use_direct_reads = direct.in_force;
  options->measured_read_micros = direct.read_latency_us;
  return absl::OkStatus();
}

std::string DescribeDirectReads(const DirectReads& direct) {
  if (direct.in_force) {
    const std::string latency =
        std::isnan(direct.read_latency_us)
            ? absl::StrCat("            (device latency not measured: ",
                           direct.latency_error, ")\n")
            : absl::StrFormat(
                  "            device read latency %.1f us (median of %d "
                  "random 4 KiB O_DIRECT reads of a %d MiB file)\n",
                  direct.read_latency_us, kLatencySamples,
                  kLatencyFileBytes >> 20);
    return absl::StrCat("Reads:      direct (O_DIRECT in ", direct.folder,
                        "; page cache bypassed, --use_direct_reads)\n",
                        direct.in_memory
                            ? "            (its file system keeps files in "
                              "memory: no device behind the reads)\n"
                            : "",
                        latency);
  }
  if (direct.requested) {
    return absl::StrCat(
        "Reads:      buffered (page cache): --use_direct_reads refused, ",
        direct.refusal, "\n");
  }
  return "Reads:      buffered (page cache)\n";
}

}  // namespace bloomgate::bench
