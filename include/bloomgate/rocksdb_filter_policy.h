// Copyright 2026 The bloomgate Authors.
//
// bloomgate as a RocksDB filter policy: every SST file RocksDB writes carries
// a bloomgate filter block (one per partition with partitioned filters), and
// RocksDB consults it before reading data blocks. The whole set-up:
//
//   bloomgate::RegisterRocksDBPlugin();  // once per process, before DB::Open
//   rocksdb::BlockBasedTableOptions table_options;
//   table_options.filter_policy =
//       bloomgate::NewRocksDBFilterPolicy({.bits_per_key = 10});
//   rocksdb::Options options;
//   options.table_factory.reset(
//       rocksdb::NewBlockBasedTableFactory(table_options));
//   std::unique_ptr<rocksdb::DB> db;      // RocksDB 9.7 and later;
//   rocksdb::DB::Open(options, path, &db);  // a rocksdb::DB* before 9.7
//
// Compatibility, whatever a policy is configured with (docs/rocksdb-plugin.md):
//  - a bloomgate policy reads every filter any bloomgate policy wrote (the
//    layout and probe count are stored in each block; RocksDB's Ribbon and
//    Bloom blocks of a policy of mixed families, by RocksDB's reader);
//  - RocksDB configured with its built-in filter, or none, reads a DB written
//    with bloomgate correctly, without filtering those files; bloomgate reads
//    a DB written with the built-in filter likewise. Compaction rewrites the
//    filters with the policy in force.
// Supported RocksDB: 7.0 to 11.x (tested with 7.8, 9.11, 10.10 and 11.8;
// docs/rocksdb-plugin.md).

#ifndef BLOOMGATE_ROCKSDB_FILTER_POLICY_H_
#define BLOOMGATE_ROCKSDB_FILTER_POLICY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_memory_pool.h"
#include "bloomgate/filter_spec.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/listener.h"
#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {
class ColumnFamilyHandle;
class DB;
class ObjectLibrary;
}  // namespace ROCKSDB_NAMESPACE

namespace bloomgate {

// A policy's configuration: a FilterSpec of the bloomgate family
// (filter_spec.h). With `monkey`, leveled compaction and a file created at
// level L gets LevelFilters(*this, num_levels)[L] (allocation.h): more bits
// per key in the
// small upper levels, fewer in the large last one, the same memory in total
// when the tree has the assumed shape. Set `fanout` to the column family's
// max_bytes_for_level_multiplier, which RocksDB does not pass to filter
// policies. Flushes and L0 take the top level's budget, files known to be
// bottommost the last level's, universal and FIFO compaction and files
// outside the LSM (SstFileWriter) the average. With `mixed` as well, each
// level's family too: bloomgate's filter or RocksDB's Ribbon filter, built
// by RocksDB's own builder, whichever makes an absent-key lookup fastest
// at `read_micros` a read. docs/rocksdb-plugin.md ("Level-aware bits per
// key", "Mixed families") has the details.
using RocksDBFilterOptions = FilterSpec;

inline constexpr double kMinRocksDBFanout = kMinFanout;
inline constexpr double kMaxRocksDBFanout = kMaxFanout;

// FilterPolicy::Name() of every bloomgate policy, and so
// TableProperties::filter_policy_name of the files it writes.
inline constexpr char kRocksDBPolicyName[] = "bloomgate";
// FilterPolicy::CompatibilityName() of every bloomgate policy. RocksDB files
// the filter block under "fullfilter.bloomgate" / "partitionedfilter.bloomgate"
// in the table's metaindex and looks it up by this name, so it is part of the
// on-disk format and never changes.
inline constexpr char kRocksDBCompatibilityName[] = "bloomgate";
// The name of the listener that keeps a database's live tree for the
// level-aware policies created by name (":monkey"): with it in DBOptions,
// e.g. "listeners={bloomgate_live_tree}" in an OPTIONS file or options
// string (RegisterRocksDBPlugin makes the name known), those policies size
// every file from the live tree, as CreateRocksDBLiveTreeFilter's pair
// does; without it, from an assumed tree shape. RocksDB writes it back to
// the OPTIONS file it persists. One per database; a database whose info LOG
// (DBOptions::info_log) is shared with another open database cannot be
// told apart from it, and keeps the assumed shape.
inline constexpr char kRocksDBListenerName[] = "bloomgate_live_tree";

// The policy for `options`; InvalidArgument naming the offending field when
// options.Validate() rejects them or the family is not kBloomgate. For
// options that come from configuration, where a typo must be an error.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
CreateRocksDBFilterPolicy(const RocksDBFilterOptions& options);

// The policy for ClampRocksDBFilterOptions(options): never null, so a typo
// (150 bits per key) cannot silently turn filtering off, which is what
// RocksDB makes of a null policy. Like RocksDB's NewBloomFilterPolicy, it
// clamps out-of-range values; unlike it, it says so: the first filter built
// writes one warning, naming the options asked for and those used, to the
// DB's info LOG. GetId() names the options used.
std::shared_ptr<const rocksdb::FilterPolicy> NewRocksDBFilterPolicy(
    const RocksDBFilterOptions& options = {});

// --- What a mixed policy measures (FilterSpec::mixed). ---

// A mixed policy without a live tree sizes its filters, and takes Ribbon's
// overhead, for files of about this many keys.
inline constexpr uint64_t kRocksDBAssumedKeysPerFile = 50000;

// The cost model's input a mixed policy takes from the RocksDB it runs in,
// for files of about `file_keys` keys: Ribbon's memory overhead
// (PredictedRibbonFpRate), from RocksDB's own sizing: its Ribbon builder's
// CalculateSpace and EstimatedFpRate at parameters 8, 12, 16 and 20, the
// memory per key over the bits of FP rate it buys, less 1; computed once per
// quarter octave of key counts. Deterministic for a RocksDB release (no
// clock is read): the probe times are the spec's or the defaults
// (CostModelFor). Thread-safe.
CostInputs CostInputsFor(uint64_t file_keys);

// --- Any filter, for comparisons at equal memory (bloomgate_bench). ---

// The policy for `spec` at its bits per key: null for kNone;
// NewBloomFilterPolicy(bits) for kRocksDBBloom; NewRibbonFilterPolicy(bits,
// -1) for kRocksDBRibbon, i.e. Ribbon for every file (the default, 0, would
// build Bloom filters for flushes); CreateRocksDBFilterPolicy(spec) for
// kBloomgate, with its InvalidArgument for a spec it rejects.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
CreateFilterPolicyForSpec(const FilterSpec& spec);

// The bytes of the filter CreateFilterPolicyForSpec(spec) builds over
// `num_keys` distinct keys: for bloomgate's uniform filters exactly what
// FilterBuilder allocates (FilterSpec::BlockBytes); for the others measured
// by building one under RocksDB's default BlockBasedTableOptions, as a
// database gets them (optimize_filters_for_memory on from RocksDB 9.2). 0
// for kNone or no keys; InvalidArgument for an invalid spec.
absl::StatusOr<uint64_t> MeasureFilterBytes(const FilterSpec& spec,
                                            uint64_t num_keys);

// `kind` at the parameter whose filters, one for each count of keys in
// `filter_keys` (e.g. a tree's files), take `bits_per_key` bits of memory
// per key over all of them: bisection (ParameterForMemory) on
// MeasureFilterBytes of those filters, the parameter in thousandths. For
// bloomgate that is a little below the memory (a block's header and whole
// cache lines); RocksDB's Ribbon takes the Bloom filter whose FP rate it is
// to match (NewRibbonFilterPolicy's bloom_equivalent_bits_per_key) and uses
// about 30% less memory, more per key in small filters. A level-aware spec
// takes bits_per_key as its budget; kNone is as it is. InvalidArgument for
// no keys, bits_per_key outside what the family can take (bloomgate:
// kMinBitsPerKey to kMaxBitsPerKey; RocksDB's: the memory of parameters 1
// to 100) or an invalid kind.
absl::StatusOr<FilterSpec> SpecForMemory(
    const FilterSpec& kind, double bits_per_key,
    absl::Span<const uint64_t> filter_keys);

// Level-aware filters from the live tree, for leveled compaction: each SST
// file's bits per key is chosen when its filter is finished, from the
// column family's live files (levels, key counts and ranges, and what
// their filters already hold), so that the live filters' memory stays at
// options.bits_per_key times the live keys whatever shape compaction gives
// the tree (dynamic level bytes on or off, any num_levels). The allocation
// and its derivation: docs/monkey-allocation.md.
struct RocksDBLiveTreeFilter {
  // For BlockBasedTableOptions::filter_policy. Its GetId() is that of
  // NewRocksDBFilterPolicy(options): a policy re-created from an OPTIONS
  // file finds the live tree through the listener RocksDB re-creates from
  // the same file (kRocksDBListenerName).
  std::shared_ptr<const rocksdb::FilterPolicy> policy;
  // For DBOptions::listeners of the same database: after every flush and
  // compaction it reads the live files (DB::GetLiveFilesMetaData) and the
  // new files' filter sizes, and before the first it reads the live files
  // too. Files written before it was added count as holding their share.
  // RocksDB does not call listeners for DB::CompactFiles
  // (docs/rocksdb-plugin.md, "Limitations").
  std::shared_ptr<rocksdb::EventListener> listener;
};

// The pair for `options`, which must be level-aware (options.monkey); one
// pair per database. Universal and FIFO compaction, and files outside the
// LSM, are treated as by NewRocksDBFilterPolicy. With a memory budget
// (options.memory_budget_bytes) each file gets what the budget leaves
// (LiveTreeFilter). A file the allocation would leave without a filter
// gets the smallest (kMinBitsPerKey, one 64-byte line per 5,120 keys):
// RocksDB cannot drop a filter once its keys are in; the info LOG says so
// once. With options.mixed a file's
// family and bits are chosen before its keys are known, when no filter
// can still be chosen. InvalidArgument as
// CreateRocksDBFilterPolicy, and without options.monkey.
absl::StatusOr<RocksDBLiveTreeFilter> CreateRocksDBLiveTreeFilter(
    const RocksDBFilterOptions& options);

// What a column family's filters take now, and the budget its policy
// keeps them to.
struct FilterMemory {
  // Over the live SST files: their filter blocks' bytes
  // (TableProperties::filter_size, every partition of a partitioned filter
  // and RocksDB's own filters too), their entries, and how many there are.
  uint64_t filter_bytes = 0;
  uint64_t keys = 0;
  uint64_t files = 0;
  // The memory budget of the column family's filter policy if it is a
  // bloomgate policy with one (FilterSpec::memory_budget_bytes), else 0.
  // With a pool, the pool's size, which every database and column family
  // in it shares.
  uint64_t budget_bytes = 0;
  // The pool the policy names (FilterSpec::pool), empty for none, and what
  // the pool's filters take over every database and column family in it
  // (all zero if none has joined yet: a database joins at its first flush
  // or compaction).
  std::string pool;
  FilterMemoryPool::Usage pool_usage;
};

// The filter memory of `column_family` of `db` (null: the default column
// family), read from the live files' table properties
// (DB::GetPropertiesOfAllTables: for files not in the table cache, a read
// of their properties block). A budgeted policy keeps filter_bytes within
// budget_bytes plus one file's filter while compaction keeps up
// (docs/rocksdb-plugin.md, "A memory budget"). RocksDB's error, with the
// database's path, when the properties cannot be read.
absl::StatusOr<FilterMemory> GetFilterMemory(
    rocksdb::DB& db, rocksdb::ColumnFamilyHandle* column_family = nullptr);

// `options` with every invalid field brought to the nearest valid value:
// the family to kBloomgate, bits_per_key into [kMinBitsPerKey,
// kMaxBitsPerKey], num_probes into [0, the layout's maximum], fanout into
// [kMinFanout, kMaxFanout], an unknown layout to kBlocked, a memory budget
// up to kMinMemoryBudgetBytes (and bits_per_key beside it to its default;
// without monkey, the budget dropped); a NaN to the field's default. Valid
// options come back unchanged.
RocksDBFilterOptions ClampRocksDBFilterOptions(
    const RocksDBFilterOptions& options);

// A policy's GetId(), which also names it in RocksDB's OPTIONS file:
// options.Name(), e.g. "bloomgate:10:blocked", "bloomgate:10:blocked:monkey"
// or "bloomgate:9.5:standard:monkey:8" (FilterSpec::Name).
std::string RocksDBFilterPolicyId(const RocksDBFilterOptions& options);

// Parses the strings that name a bloomgate policy: FilterSpec::Parse's
// grammar with the kind "bloomgate":
//   "bloomgate"                         10 bits per key, blocked
//   "bloomgate:<bits_per_key>"          blocked, e.g. "bloomgate:9.5"
//   "bloomgate:<bits_per_key>:<layout>" layout "blocked" or "standard"
// each optionally followed by
//   ":probes:<k>"                       k probes instead of the optimum
//   ":monkey"                           level-aware, fanout 10
//   ":monkey:<fanout>"                  level-aware, e.g.
//   "bloomgate:10:monkey:8"
// and after the monkey part, optionally
//   ":mixed"                            each level's family by cost, reads
//                                       of 100 us
//   ":mixed:<read_micros>"              ... of read_micros, e.g.
//   "bloomgate:10:monkey:mixed:2"
//   ":probe_ns:<b>/<r>"                 after the mixed part: probes of
//                                       bloomgate's filter and Ribbon's
//                                       weighed at b and r nanoseconds
// and last, with a memory budget where the bits per key stand,
//   ":pool:<name>"                      the budget is a pool's that every
//                                       database naming it shares, spent
//                                       by key ranges
//                                       (filter_memory_pool.h), e.g.
//   "bloomgate:256MiB:monkey:mixed:pool:app"
//   ":pool:<name>:reach:on"             ... by measured reach (or
//                                       ":reach:<half-life in probes>")
// e.g. "bloomgate:10:monkey", "bloomgate:10:standard:monkey". A keyed
// field may also be written with '=' (":probes=4", ":pool=app"), as ids
// once were; an id never holds one: RocksDB's OPTIONS file braces such a
// value, and reading it back drops the policy (7.8), silently, so that a
// reopened database would run without filters.
// InvalidArgument, saying what is wrong and what is expected, otherwise.
absl::StatusOr<RocksDBFilterOptions> ParseRocksDBFilterPolicyId(
    std::string_view id);

// Makes the strings above work wherever RocksDB creates a filter policy from
// text: FilterPolicy::CreateFromString ("bloomgate:10", or
// "id=bloomgate:10:standard"), GetBlockBasedTableOptionsFromString, and
// OPTIONS files read by LoadLatestOptions / LoadOptionsFromFile; and the
// listener kRocksDBListenerName wherever RocksDB creates listeners from
// text (EventListener::CreateFromString, "listeners=" in DBOptions). Without
// it, those calls still return OK but leave filter_policy null: the DB runs
// with no filter at all, silently (ConfigOptions::ignore_unsupported_options is
// true by default); with ignore_unsupported_options = false they fail with
// NotSupported.
// Registers a factory in RocksDB's default ObjectLibrary. Idempotent and
// thread-safe; call it before the first DB::Open or options parse.
void RegisterRocksDBPlugin();

// The same factory, into `library`: a RocksDB RegistrarFunc, for
// ObjectRegistry::AddLibrary("bloomgate", RegisterRocksDBFactories, "") or a
// static plug-in list. Returns the number of factories added (2: the
// policy's and the listener's). Unlike
// RegisterRocksDBPlugin, each call adds the factory again.
int RegisterRocksDBFactories(rocksdb::ObjectLibrary& library,
                             const std::string& arg);

}  // namespace bloomgate

#endif  // BLOOMGATE_ROCKSDB_FILTER_POLICY_H_
