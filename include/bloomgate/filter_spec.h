// Copyright 2026 The bloomgate Authors.
//
// One description of "which filter, how big" for every layer: the RocksDB
// policy's id ("bloomgate:10:standard:monkey"), the LSM's options, the sizer,
// the benchmarks and the evaluation tool all read and write a FilterSpec, and
// one registry (FilterKinds) maps the short names the tools accept to the
// filter they mean.
//
// A spec may also name one of RocksDB's built-in filters, so that the tools
// can put them side by side with bloomgate's; building those needs RocksDB
// and is not the filter core's business (the core only predicts their FP
// rate). FilterBuilder builds the bloomgate families.

#ifndef BLOOMGATE_FILTER_SPEC_H_
#define BLOOMGATE_FILTER_SPEC_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "bloomgate/filter_options.h"

namespace bloomgate {

// Who builds the filter.
enum class FilterFamily : uint8_t {
  kNone,           // no filter: every file whose key range covers a key is read
  kBloomgate,      // bloomgate's filter block (FilterBuilder), either layout
  kRocksDBBloom,   // RocksDB's NewBloomFilterPolicy (FastLocalBloom)
  kRocksDBRibbon,  // RocksDB's NewRibbonFilterPolicy (Standard128Ribbon)
};

// Smallest and largest level fanout a level-aware spec accepts.
inline constexpr double kMinFanout = 1;
inline constexpr double kMaxFanout = 1000;

// The time of one data-block read, in microseconds, that a cost model
// weighs a false positive with (FilterSpec::read_micros, AllocateByCost):
// from a device, the mean read bloomgate_bench measured with O_DIRECT on a
// virtio block device, 91-111 us (docs/evaluation.md); from the page
// cache, a system call and a 4 KiB copy, a microsecond or two.
inline constexpr double kDefaultDeviceReadMicros = 100;
inline constexpr double kDefaultPageCacheReadMicros = 2;

// The half-life of measured reach that a name's `reach:on` gives
// (FilterSpec::reach_half_life): samples of absent-key probes fade by half
// over this many probes answered "no" by the process's pooled filters,
// about 200,000 lookups of a tree of five levels.
inline constexpr uint64_t kDefaultReachHalfLife = uint64_t{1} << 20;

// The name of a process-wide filter memory pool (FilterSpec::pool), up to
// kMaxLength characters, kept inline rather than in a std::string so that
// a FilterSpec stays a literal type (kNoFilter and the registry's specs are
// constexpr) and copies without allocating. A longer name is kept cut, and
// marked so that FilterSpec::Validate refuses it.
class PoolName {
 public:
  static constexpr size_t kMaxLength = 64;

  constexpr PoolName() = default;
  PoolName(std::string_view name);  // NOLINT: a name reads as a string
  PoolName(const char* name)        // NOLINT: as `.pool = "app"`
      : PoolName(std::string_view(name)) {}
  PoolName(const std::string& name)  // NOLINT
      : PoolName(std::string_view(name)) {}

  std::string_view view() const { return {chars_.data(), size_}; }
  bool empty() const { return size_ == 0 && !too_long_; }
  // Whether the name it was made from was longer than kMaxLength.
  bool too_long() const { return too_long_; }

  bool operator==(const PoolName&) const = default;

 private:
  std::array<char, kMaxLength> chars_{};
  uint8_t size_ = 0;
  bool too_long_ = false;
};

// The fields are in the order designated initializers name them, e.g.
// FilterSpec{.bits_per_key = 12, .layout = Layout::kStandard}.
struct FilterSpec {
  FilterFamily family = FilterFamily::kBloomgate;
  // Memory per distinct key, in bits (for kRocksDBRibbon, the Bloom
  // equivalent RocksDB takes); with `monkey`, the average over the tree.
  double bits_per_key = 10;
  // kBloomgate only.
  Layout layout = Layout::kBlocked;
  // kBloomgate only: probes per key, 0 for the layout's optimum.
  int num_probes = 0;
  // kBloomgate only. Level-aware bits per key (Monkey,
  // docs/monkey-allocation.md): a file at level L of a leveled tree gets
  // LevelBitsPerKey(num_levels)[L], so that a tree of the assumed shape
  // (each level `fanout` times the one above) spends bits_per_key on
  // average and its levels' FP rates sum to the least possible.
  bool monkey = false;
  // The size ratio of adjacent levels `monkey` assumes; ignored without it.
  double fanout = 10;
  // kBloomgate with monkey only: each level's filter family too, not only
  // its bits per key. A level gets bloomgate's filter (this layout) or
  // RocksDB's Ribbon filter, whichever AllocateByCost (allocation.h) finds
  // makes an absent-key lookup fastest, probes and false-positive reads
  // counted, within the same memory budget. Ribbon filters are built by
  // RocksDB, so only the RocksDB policy builds such a spec.
  bool mixed = false;
  // With `mixed`: the time of one data-block read, in microseconds (>= 0),
  // that the cost model weighs a false positive with.
  double read_micros = kDefaultDeviceReadMicros;
  // With `mixed`: the time of one probe of a filter that answers "no", in
  // nanoseconds, of bloomgate's filter and of RocksDB's Ribbon filter, that
  // the cost model weighs a probe with; both 0 (the default) for the
  // documented defaults (kDefaultBloomgateProbeMicros and
  // kDefaultRocksDBRibbonProbeMicros in allocation.h). Nothing times probes
  // while filters are built, so the same name builds the same filters on
  // every host; `bloomgate plan --calibrate` measures this machine's and
  // prints the probe_ns field to name them. Either both 0 or both > 0.
  double bloomgate_probe_nanos = 0;
  double ribbon_probe_nanos = 0;
  // monkey only: the filters' memory in bytes, over all live files, instead
  // of bits per key (0: none, bits_per_key is the budget). An engine that
  // knows its live tree (the LSM's LevelAllocation::kLiveTree, the RocksDB
  // policy with its live tree) gives each new file its filter from what the
  // budget leaves after the other live files' filters, by the same
  // allocation: as the tree outgrows the budget, new files get fewer bits
  // (none where that reads least), and the total comes back under the
  // budget as compaction rewrites the older files. Without a live tree a
  // budget cannot be kept (the tree's keys are unknown): files then get
  // bits_per_key by the assumed shape, which the RocksDB policy says in the
  // info LOG. At least kMinMemoryBudgetBytes; bits_per_key stays at its
  // default with a budget (the name has one or the other).
  uint64_t memory_budget_bytes = 0;
  // With a memory budget: the name of a process-wide pool
  // (FilterMemoryPool, filter_memory_pool.h) whose size the budget is.
  // Every database and column family whose policy names the pool shares
  // it: the allocation runs over the union of their live trees. Letters,
  // digits, '_', '-' and '.'; empty for none.
  PoolName pool = {};
  // With a pool: where absent-key lookups go is measured (filters sample
  // the probes they answer "no") and weighs each file's share, the samples
  // fading by half over this many probes. 0 (the default): not measured,
  // every absent lookup taken to reach every file alike (key ranges alone).
  // Off by default: on RocksDB's own trees measured reach does not yet read
  // less under every workload (docs/memory-pool.md, "Measured").
  uint64_t reach_half_life = 0;

  // The canonical name, which Parse reads back as an equal spec:
  //   "none"
  //   "bloomgate:<bits_per_key or memory_budget_bytes>:<layout>[:probes:<k>]
  //       [:monkey[:<fanout>][:mixed[:<read_micros>]
  //       [:probe_ns:<bloomgate_probe_nanos>/<ribbon_probe_nanos>]]
  //       [:pool:<pool>[:reach:on|<reach_half_life>]]]"
  //   "rocksdb_bloom:<bits_per_key>", "rocksdb_ribbon:<bits_per_key>"
  // with numbers in the shortest decimal that reads back as the same double;
  // ":probes" only when num_probes != 0, the fanout only when not 10, the
  // read time only when not kDefaultDeviceReadMicros, the probe times only
  // when given, e.g. "bloomgate:10:blocked", "bloomgate:9.5:standard:monkey:8",
  // "bloomgate:10:blocked:monkey:mixed:2",
  // "bloomgate:10:blocked:monkey:mixed:probe_ns:12/40",
  // "bloomgate:64MiB:blocked:monkey" (the budget as FormatByteSize
  // writes it), "bloomgate:256MiB:blocked:monkey:mixed:pool:app"; the
  // reach only when measured, "on" for kDefaultReachHalfLife.
  std::string Name() const;

  // The registry name (FilterKinds) that describes this spec's family,
  // layout and level allocation, e.g. "bloomgate_monkey"; the name without
  // its numbers ("bloomgate:standard:monkey") when no registry name does.
  std::string KindName() const;

  // Whether `other` is of the same kind, i.e. has the same KindName: the
  // same family and, for bloomgate's own, the same layout, level allocation
  // and choice of families, whatever the numbers.
  bool SameKind(const FilterSpec& other) const;

  // Parses
  //   <kind>[:<bits_per_key or memory budget>[:<layout>][:probes:<k>]
  //       [:monkey[:<fanout>][:mixed[:<read_micros>][:probe_ns:<b>/<r>]]
  //       [:pool:<name>[:reach:on|off|<half-life>]]]]
  // where <kind> is a registry name (FilterKinds). The kind gives the
  // defaults: "bloomgate" is blocked at 10 bits per key, "bloomgate_monkey"
  // the same with monkey, "bloomgate_mixed" with monkey and mixed,
  // "rocksdb_bloom:12" RocksDB's Bloom at 12. Layout, probes, monkey and
  // mixed are for bloomgate kinds only, "none" takes nothing. A size with
  // a unit where the bits per key stand is a memory budget
  // (ParseByteSize): "bloomgate_monkey:64MiB",
  // "bloomgate:1GiB:monkey:mixed".
  // Reads every Name(). InvalidArgument naming the part that is wrong, and
  // for a spec that Validate rejects.
  static absl::StatusOr<FilterSpec> Parse(std::string_view text);

  // OK, or InvalidArgument naming the field: bits_per_key or num_probes as
  // ValidateFilterOptions has them, the fanout outside [kMinFanout,
  // kMaxFanout], mixed without monkey, read_micros negative or not finite,
  // probe times negative, not finite, given without mixed or only one of
  // the two, an unknown family or layout; a memory budget without monkey,
  // below kMinMemoryBudgetBytes, or with bits_per_key not at its default;
  // a pool without a memory budget or with a name of other characters, a
  // reach half-life other than the default without a pool.
  // A kNone spec is always valid.
  absl::Status Validate() const;

  // The core's options for a bloomgate block of this spec at `bits` bits
  // per key (a level's share under monkey).
  FilterOptions Options(double bits) const;
  FilterOptions Options() const { return Options(bits_per_key); }

  // Bits per key of the files at each level L0 .. L<num_levels - 1>, top
  // first: with monkey, MonkeyBitsPerKey(layout, bits_per_key,
  // LeveledShape(num_levels, fanout)) (with mixed, the memory per key of
  // LevelFilters' choices); otherwise bits_per_key at every level. A 0 means
  // no filter at that level. InvalidArgument for an invalid
  // spec, a kNone spec or num_levels < 1.
  absl::StatusOr<std::vector<double>> LevelBitsPerKey(int num_levels) const;

  // The bit array a filter of this spec at `bits` bits per key gets for
  // `num_keys` distinct keys: exactly what FilterBuilder allocates for
  // bloomgate (whole 512-bit lines for the blocked layout); for RocksDB's
  // Bloom, whole 512-bit lines as well; for Ribbon, num_keys * bits (its
  // Bloom-equivalent memory). 0 for no keys or kNone.
  uint64_t BitsFor(uint64_t num_keys, double bits) const;
  uint64_t BitsFor(uint64_t num_keys) const {
    return BitsFor(num_keys, bits_per_key);
  }

  // Probes per key of a filter of this spec at `bits` bits per key:
  // num_probes if set, else the layout's optimum for `bits` brought into
  // [kMinBitsPerKey, kMaxBitsPerKey] (RocksDB's filters: a blocked Bloom
  // filter's optimum). 0 for kNone.
  int NumProbes(double bits) const;
  int NumProbes() const { return NumProbes(bits_per_key); }

  // The predicted false-positive rate of a filter of this spec at `bits`
  // bits per key holding `num_keys` distinct keys (sizing.h's
  // PredictedFilterFpRate of BitsFor(num_keys, bits) bits and
  // NumProbes(bits) probes; RocksDB's filters as a blocked Bloom filter). 1
  // for kNone or bits <= 0, 0 for no keys.
  double PredictedFpRate(uint64_t num_keys, double bits) const;
  double PredictedFpRate(uint64_t num_keys) const {
    return PredictedFpRate(num_keys, bits_per_key);
  }

  // kBloomgate only (0 otherwise): the bytes of the filter block
  // (docs/filter-format.md) FilterBuilder writes for `num_keys` distinct
  // keys at `bits` bits per key, i.e. BitsFor(num_keys, bits) in whole bytes
  // and the block's trailer.
  uint64_t BlockBytes(uint64_t num_keys, double bits) const;

  // kBloomgate only: the predicted false-positive rate of a filter block of
  // this spec's layout that holds `num_keys` distinct keys in `block_bytes`
  // bytes (as BlockBytes counts them), probed `probes` times a key. For
  // a block whose probe count is not known, 0 takes NumProbes at the
  // block's own bits per key, block_bytes * 8 / num_keys. 0 for no keys, 1
  // for a block with no bit array.
  double PredictedBlockFpRate(uint64_t num_keys, uint64_t block_bytes,
                              int probes = 0) const;

  bool operator==(const FilterSpec&) const = default;
};

// The least memory budget a spec takes (FilterSpec::memory_budget_bytes):
// one file's smallest filter block, a 512-bit line and the block's 32-byte
// trailer (docs/filter-format.md). A budget a tree outgrows is no error:
// its newest files go without filters until compaction frees memory.
inline constexpr uint64_t kMinMemoryBudgetBytes = 64 + 32;

// A byte count with its unit: "64MiB", "1.5GiB", "500MB", "4096B", "4096"
// (bytes); binary units KiB, MiB, GiB, TiB (also K, M, G, T), decimal kB, MB,
// GB, TB. The bytes rounded to the nearest whole byte; InvalidArgument
// naming the text for an unknown unit, a negative or non-finite number, or
// one over 2^63 bytes.
absl::StatusOr<uint64_t> ParseByteSize(std::string_view text);

// `bytes` in the largest binary unit that holds it whole: "64MiB", "1536MiB",
// "4095B". ParseByteSize reads it back.
std::string FormatByteSize(uint64_t bytes);

// The spec of "no filter".
inline constexpr FilterSpec kNoFilter{.family = FilterFamily::kNone};

// One registry entry: a short name, the spec it stands for (at the default
// 10 bits per key) and what it is.
struct FilterKindInfo {
  std::string_view name;
  FilterSpec spec;
  std::string_view description;
};

// Every named kind, in the order the tools list them: none, bloomgate,
// bloomgate_standard, bloomgate_monkey, bloomgate_mixed, rocksdb_bloom,
// rocksdb_ribbon.
absl::Span<const FilterKindInfo> FilterKinds();

// The spec a registry name stands for, at `bits_per_key`; InvalidArgument
// listing the names for an unknown one.
absl::StatusOr<FilterSpec> FilterKindSpec(std::string_view name,
                                          double bits_per_key);

}  // namespace bloomgate

#endif  // BLOOMGATE_FILTER_SPEC_H_
