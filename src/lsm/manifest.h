// Copyright 2026 The bloomgate Authors.
//
// The manifest: the complete list of live SSTables per level, plus the
// counters recovery needs. It is small and rewritten whole after every flush
// and compaction: MANIFEST.tmp is written and fsynced, renamed over
// MANIFEST, and the folder fsynced, so a crash leaves either the old or the
// new manifest. Format: docs/sstable-format.md, "Manifest".

#ifndef BLOOMGATE_SRC_LSM_MANIFEST_H_
#define BLOOMGATE_SRC_LSM_MANIFEST_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/lsm/file.h"

namespace bloomgate::lsm {

// "BGMANIF1" read as a little-endian 64-bit number.
inline constexpr uint64_t kManifestMagic = 0x3146494e414d4742ull;
inline constexpr uint32_t kManifestFormatVersion = 1;
inline constexpr char kManifestName[] = "MANIFEST";
inline constexpr char kManifestTmpName[] = "MANIFEST.tmp";

struct FileMeta {
  int level = 0;
  uint64_t number = 0;
  uint64_t file_size = 0;
  uint64_t num_entries = 0;
  std::string smallest;
  std::string largest;
};

struct Manifest {
  // Every file the store has created is numbered below this one: the store
  // writes a manifest reserving numbers before it uses them, so a file
  // numbered at or above it was not written under this manifest.
  uint64_t next_file_number = 1;
  // WAL files numbered at least this hold writes not yet in a table.
  uint64_t log_number = 0;
  int num_levels = 0;
  // Level 0 newest first; deeper levels in key order, disjoint.
  std::vector<FileMeta> files;
};

std::string EncodeManifest(const Manifest& m);
// DataLoss naming `file` and an offset for damaged or inconsistent bytes.
absl::StatusOr<Manifest> DecodeManifest(std::string_view file,
                                        std::string_view contents);

// Replaces <dir>/MANIFEST atomically and durably.
absl::Status WriteManifest(const std::string& dir, const Manifest& m);

// "<dir>/000012.sst", "<dir>/000013.log".
std::string TableFileName(const std::string& dir, uint64_t number);
std::string LogFileName(const std::string& dir, uint64_t number);
// Parses a file name of the folder: sets *number and *is_table (true for
// .sst, false for .log). False for any other name, including one that
// spells a number differently from TableFileName/LogFileName ("999.log").
bool ParseFileName(std::string_view name, uint64_t* number, bool* is_table);

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_MANIFEST_H_
