// Copyright 2026 The bloomgate Authors.

#include "src/lsm/manifest.h"

#include <cstdio>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/absl_compat.h"
#include "src/lsm/coding.h"
#include "src/lsm/crash_points.h"
#include "src/lsm/status_macros.h"

namespace bloomgate::lsm {

// Sanity limits that keep a damaged (but checksum-colliding) or fuzzed
// manifest from asking for absurd allocations.
constexpr int kMaxLevels = 64;

std::string EncodeManifest(const Manifest& m) {
  std::string out;
  PutFixed64(&out, kManifestMagic);
  PutFixed32(&out, kManifestFormatVersion);
  PutFixed64(&out, m.next_file_number);
  PutFixed64(&out, m.log_number);
  PutFixed32(&out, static_cast<uint32_t>(m.num_levels));
  PutFixed32(&out, static_cast<uint32_t>(m.files.size()));
  for (const FileMeta& f : m.files) {
    PutFixed32(&out, static_cast<uint32_t>(f.level));
    PutFixed64(&out, f.number);
    PutFixed64(&out, f.file_size);
    PutFixed64(&out, f.num_entries);
    PutLengthPrefixed(&out, f.smallest);
    PutLengthPrefixed(&out, f.largest);
  }
  PutFixed32(&out, Checksum(out));
  return out;
}

namespace {

absl::Status ManifestError(std::string_view file, uint64_t offset,
                           std::string_view what) {
  return absl::DataLossError(
      absl::StrCat(ToAbsl(file), ": ", ToAbsl(what), " (offset ", offset, ")"));
}

// The steps of DecodeManifest: the frame (size, magic number, checksum),
// the header, then each file entry.

// The bytes between the magic number and the checksum, once both check
// out.
absl::StatusOr<std::string_view> ManifestBody(std::string_view file,
                                              std::string_view contents) {
  constexpr size_t kFixedHeader = 8 + 4 + 8 + 8 + 4 + 4;
  if (contents.size() < kFixedHeader + 4) {
    return ManifestError(
        file, 0,
        absl::StrCat("manifest is truncated (", contents.size(), " bytes)"));
  }
  if (DecodeFixed64(contents.data()) != kManifestMagic) {
    return ManifestError(file, 0,
                         "not a bloomgate manifest (bad magic number)");
  }
  const size_t body = contents.size() - 4;
  if (DecodeFixed32(contents.data() + body) !=
      Checksum(contents.substr(0, body))) {
    return ManifestError(file, body, "manifest checksum mismatch");
  }
  return contents.substr(8, body - 8);
}

// File entry `i`, at offset `at`, from the front of *in into m->files,
// checked against the entries before it (whose numbers are *numbers).
absl::Status DecodeFileEntry(std::string_view file, uint64_t at, uint32_t i,
                             std::string_view* in, std::set<uint64_t>* numbers,
                             Manifest* m) {
  FileMeta f;
  uint32_t level;
  std::string_view smallest, largest;
  if (!GetFixed32(in, &level) || !GetFixed64(in, &f.number) ||
      !GetFixed64(in, &f.file_size) || !GetFixed64(in, &f.num_entries) ||
      !GetLengthPrefixed(in, &smallest) || !GetLengthPrefixed(in, &largest)) {
    return ManifestError(file, at, absl::StrCat("malformed file entry ", i));
  }
  f.level = static_cast<int>(level);
  f.smallest = smallest;
  f.largest = largest;
  if (level >= static_cast<uint32_t>(m->num_levels) ||
      f.number >= m->next_file_number || f.smallest > f.largest ||
      !numbers->insert(f.number).second) {
    return ManifestError(file, at, absl::StrCat("inconsistent file entry ", i));
  }
  // Levels are listed in order; a deeper level is one sorted run.
  if (!m->files.empty()) {
    const FileMeta& prev = m->files.back();
    if (prev.level > f.level ||
        (prev.level == f.level && f.level > 0 && prev.largest >= f.smallest)) {
      return ManifestError(file, at,
                           absl::StrCat("file entry ", i, " is out of order"));
    }
  }
  m->files.push_back(std::move(f));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Manifest> DecodeManifest(std::string_view file,
                                        std::string_view contents) {
  absl::StatusOr<std::string_view> body = ManifestBody(file, contents);
  if (!body.ok()) return body.status();
  std::string_view in = *body;
  auto offset = [&] {
    return static_cast<uint64_t>(in.data() - contents.data());
  };
  uint32_t version, num_levels, count;
  Manifest m;
  GetFixed32(&in, &version);
  if (version != kManifestFormatVersion) {
    return absl::UnimplementedError(absl::StrCat(ToAbsl(file),
                                                 ": manifest format version ",
                                                 version, " is not supported"));
  }
  GetFixed64(&in, &m.next_file_number);
  GetFixed64(&in, &m.log_number);
  GetFixed32(&in, &num_levels);
  GetFixed32(&in, &count);
  if (num_levels < 2 || num_levels > kMaxLevels) {
    return ManifestError(file, offset() - 8, "bad number of levels");
  }
  m.num_levels = static_cast<int>(num_levels);
  // Each file takes at least 30 bytes.
  if (count > in.size() / 30) {
    return ManifestError(file, offset() - 4, "bad file count");
  }
  std::set<uint64_t> numbers;
  for (uint32_t i = 0; i < count; ++i) {
    if (absl::Status s = DecodeFileEntry(file, offset(), i, &in, &numbers, &m);
        !s.ok()) {
      return s;
    }
  }
  if (!in.empty()) return ManifestError(file, offset(), "trailing bytes");
  if (m.log_number >= m.next_file_number) {
    return ManifestError(file, 20,
                         "log number is not below the next file number");
  }
  return m;
}

absl::Status WriteManifest(const std::string& dir, const Manifest& m) {
  const std::string tmp = absl::StrCat(dir, "/", kManifestTmpName);
  BLOOMGATE_LSM_RETURN_IF_ERROR(WriteFileSync(tmp, EncodeManifest(m)));
  CrashPoint("manifest:tmp-synced");
  BLOOMGATE_LSM_RETURN_IF_ERROR(
      RenameFile(tmp, absl::StrCat(dir, "/", kManifestName)));
  CrashPoint("manifest:renamed");
  return SyncDir(dir);
}

std::string TableFileName(const std::string& dir, uint64_t number) {
  return absl::StrFormat("%s/%06d.sst", dir, number);
}

std::string LogFileName(const std::string& dir, uint64_t number) {
  return absl::StrFormat("%s/%06d.log", dir, number);
}

bool ParseFileName(std::string_view name, uint64_t* number, bool* is_table) {
  if (name.size() < 5) return false;
  std::string_view ext = name.substr(name.size() - 4);
  if (ext == ".sst") {
    *is_table = true;
  } else if (ext == ".log") {
    *is_table = false;
  } else {
    return false;
  }
  std::string_view digits = name.substr(0, name.size() - 4);
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
  }
  // Only the exact spelling the store writes ("000999.log", not "999.log"
  // or "0000999.log"): Open removes files by these names, so a name that
  // merely parses to one of the store's numbers must not pass for it.
  return absl::SimpleAtoi(ToAbsl(digits), number) &&
         ToAbsl(digits) == absl::StrFormat("%06d", *number);
}

}  // namespace bloomgate::lsm
