// Copyright 2026 The bloomgate Authors.
//
// `bloomgate plan --db=<path>`: what a RocksDB database's filters cost now,
// and the reads an absent-key lookup would make under each filter policy
// at a given memory. The database is opened read-only and never written.
// The model, its assumptions and its limits: docs/plan.md.

#ifndef BLOOMGATE_TOOLS_SIZER_PLAN_H_
#define BLOOMGATE_TOOLS_SIZER_PLAN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomgate/filter_options.h"

namespace bloomgate::tools {

// The memory a plan is for: a size as bloomgate::ParseByteSize reads it
// ("64MiB", "1GiB", "500MB", "4096B"; B, KiB, MiB, GiB, TiB, KB or kB, MB,
// GB, TB), and at least one byte. InvalidArgument naming the text
// otherwise.
absl::StatusOr<uint64_t> ParseMemory(std::string_view text);

// What a file's filter block is, read from its bytes.
enum class FilterKind {
  kUnread,     // not read: a partitioned or legacy filter, or no file to open
  kNone,       // the file has no filter block
  kBloomgate,  // bloomgate's block, valid (its header gives what it holds)
  kBloomgateDamaged,  // in a bloomgate policy's file, a block that fails
                      // validation: its reader answers "may match" for
                      // every key
  kRocksDBBloom,      // RocksDB's FastLocalBloom (also a hybrid's flushes)
  kRocksDBRibbon,     // RocksDB's Standard128Ribbon
};
// "unread", "none", "bloomgate", "bloomgate_damaged", "rocksdb_bloom",
// "rocksdb_ribbon".
const char* FilterKindName(FilterKind kind);

// One file's filter block as ReadFilterBlock reads it; the header fields
// only for kBloomgate.
struct FilterBlockInfo {
  FilterKind kind = FilterKind::kUnread;
  Layout layout = Layout::kBlocked;
  int num_probes = 0;
  uint64_t num_keys = 0;
  uint64_t num_bits = 0;
};

// The filter block of the SST file at `sst_path`, through RocksDB's own
// table reader (RocksDB's default options otherwise), as the file's table
// property `filter_policy` (its filter_policy_name) files it: a bloomgate
// policy's under bloomgate's compatibility name, RocksDB's Bloom and Ribbon
// policies' under theirs, any other under its own name. kUnread where RocksDB
// hands over no whole block (a partitioned filter); an error naming the path
// where RocksDB cannot open the file.
absl::StatusOr<FilterBlockInfo> ReadFilterBlock(
    const std::string& sst_path, const std::string& filter_policy);

// One live SST file, as the database describes it.
struct PlanFile {
  std::string name;  // "/000012.sst"
  int level = 0;
  std::string smallest;  // user keys
  std::string largest;
  uint64_t entries = 0;  // num_entries, deletions included
  uint64_t deletions = 0;
  uint64_t filter_bytes = 0;  // its filter block (0: none)
  std::string filter_policy;  // the table property filter_policy_name
  // Its filter block, read from the file (ReadLiveFiles); kUnread where
  // it was not, and then taken to be what its policy name says.
  FilterBlockInfo filter;
  // The expected number of times an absent-key lookup consults this
  // file's filter: the share of absent keys inside its key range
  // (docs/plan.md, "Reach"). Set by PlanFromFiles.
  double reach = 0;
};

// One level of the tree.
struct PlanLevel {
  int level = 0;
  uint64_t files = 0;
  uint64_t keys = 0;
  uint64_t filter_bytes = 0;
  // The kinds of its files' filters, FilterKindName's, "+"-joined in the
  // order of FilterKind ("rocksdb_bloom", "bloomgate+rocksdb_ribbon").
  std::string filter_kinds = "";
  // The sum of its files' reach (files of a level >= 1 do not overlap; at
  // L0 this counts each file's filter check).
  double reach = 0;
};

// What one filter policy predicts at the planned memory.
struct PolicyPlan {
  std::string name;  // rocksdb_bloom, rocksdb_ribbon, ...
  std::string description;
  // The expected false-positive data-block reads of a lookup for a key that
  // is not in the database: the sum over files of reach x FP rate.
  double reads_per_absent_lookup = 0;
  // Memory per key, in bits, that it gives each level (in the order of
  // PlanReport::levels; at L0 the key-weighted mean of its files); empty
  // where it has no per-level split (the floor).
  std::vector<double> level_bits_per_key;
  // The filter family at each level (bloom, ribbon, bloomgate, none); empty
  // for one family throughout.
  std::vector<std::string> level_family;
  // RocksDB's bits-per-key parameter, where it is not the memory (Ribbon,
  // the hybrid); 0 otherwise.
  double parameter = 0;
};

struct PlanReport {
  std::string db_path;
  std::string column_family;
  // "key ranks" or "lookups file: N keys".
  std::string reach_model;
  std::vector<PlanFile> files;  // by level, then smallest key
  std::vector<PlanLevel> levels;
  uint64_t keys = 0;                // sum of the files' entries
  uint64_t filter_bytes = 0;        // sum of the files' filter_size
  double current_bits_per_key = 0;  // 8 * filter_bytes / keys
  // The filters as they are, each file's by what its block is
  // (PlanFile::filter): bloomgate's at its header's layout, probes, keys and
  // bits; RocksDB's Bloom or Ribbon at its bit array (its block less 5
  // bytes of metadata). A file without a filter, or whose bloomgate block is
  // damaged, is read by every covering lookup. A block not read is taken to
  // be what its policy name says: RocksDB's Ribbon for "ribbonfilter",
  // bloomgate's blocked filter for a name starting with "bloomgate", else
  // RocksDB's Bloom filter.
  double current_reads_per_absent_lookup = 0;
  // The memory the predictions are for: --memory, or the filters' memory
  // now when it is not given.
  uint64_t memory_bytes = 0;
  bool memory_given = false;
  double memory_bits_per_key = 0;
  std::vector<PolicyPlan> policies;
};

struct PlanRequest {
  std::string db_path = "";
  std::string column_family = "default";
  std::optional<uint64_t> memory_bytes = std::nullopt;
  // A file of absent keys, one per line, to measure each file's reach with
  // instead of the key-rank model; empty for none.
  std::string lookups_path = "";
};

// The live files of `column_family` of the database at `db_path`, opened
// read-only (DB::OpenForReadOnly: nothing written, nothing created), each
// with its filter block read (ReadFilterBlock).
// InvalidArgument naming the path when it is not a RocksDB database, when
// RocksDB refuses the options (e.g. a custom comparator) or the column
// family does not exist.
absl::StatusOr<std::vector<PlanFile>> ReadLiveFiles(
    const std::string& db_path, const std::string& column_family);

// The plan for `files`: their reach (from `lookups` when given, else from
// the key ranks, docs/plan.md), the levels, and each policy's prediction at
// `memory_bytes` (the files' filter memory now when nullopt).
// InvalidArgument for no files, no keys, no memory to plan for, or memory
// beyond kMaxBitsPerKey per key.
absl::StatusOr<PlanReport> PlanFromFiles(
    std::vector<PlanFile> files, std::optional<uint64_t> memory_bytes,
    const std::vector<std::string>* lookups = nullptr);

// ReadLiveFiles, the lookups file if any, then PlanFromFiles.
absl::StatusOr<PlanReport> Plan(const PlanRequest& request);

std::string FormatPlanText(const PlanReport& report);
std::string FormatPlanJson(const PlanReport& report);

}  // namespace bloomgate::tools

#endif  // BLOOMGATE_TOOLS_SIZER_PLAN_H_
