// Copyright 2026 The bloomgate Authors.
//
// The FilterPolicy that hands RocksDB bloomgate's filter-bits adapters, and
// its registration under the name "bloomgate". Design: docs/rocksdb-plugin.md.

#include "bloomgate/rocksdb_filter_policy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/allocation.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/convenience.h"
#include "rocksdb/env.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"
#include "src/rocksdb/builtin_filters.h"
#include "src/rocksdb/filter_bits.h"
#include "src/rocksdb/flushed_key_ranges.h"
#include "src/rocksdb/live_tree.h"
#include "src/rocksdb/reach_reader.h"
#include "src/spec/live_tree_allocation.h"
#include "src/spec/lookup_sampler.h"
#include "src/spec/pool_members.h"

namespace bloomgate {
namespace {

constexpr std::string_view kExpectedForm =
    "expected bloomgate[:<bits_per_key>[:blocked|standard][:probes:<k>]"
    "[:monkey[:<fanout>][:mixed[:<read_micros>][:probe_ns:<b>/"
    "<r>]]][:pool:<name>[:reach:on|off|<n>]]], e.g. "
    "\"bloomgate:10\", "
    "\"bloomgate:9.5:standard\", \"bloomgate:10:monkey\" or "
    "\"bloomgate:10:monkey:mixed\"";

// The end of the key space, as far as the allocation's reach needs it (past
// every key but those that begin with 256 0xff bytes): a flush's key range
// is not known when its filter's family is chosen, so it is taken to span
// the key space.
const std::string& KeySpaceEnd() {
  static const std::string* end = new std::string(256, '\xff');
  return *end;
}

// Whether `context` is a flush's output (or a recovery's, which is one):
// written to level 0, and moved down unrewritten if nothing overlaps it.
bool IsFlushOutput(const rocksdb::FilterBuildingContext& context) {
  return context.reason == rocksdb::TableFileCreationReason::kFlush ||
         context.reason == rocksdb::TableFileCreationReason::kRecovery;
}

absl::Status ValidateOptions(const RocksDBFilterOptions& options) {
  if (options.family != FilterFamily::kBloomgate) {
    return absl::InvalidArgumentError(
        absl::StrCat("a bloomgate policy builds bloomgate filters, not ",
                     options.KindName()));
  }
  return options.Validate();
}

// One class for every configuration. Name() and CompatibilityName() are
// constants, so that the filter block of any bloomgate policy is filed and
// found under the same metaindex key, and every block describes itself (its
// layout, probe count and size), so any instance reads any block. The
// configuration lives only in GetId(), which RocksDB writes to the OPTIONS
// file and parses back through the registered factory.
class BloomgateFilterPolicy final : public rocksdb::FilterPolicy {
 public:
  // `options` must be valid. A non-empty `warning` goes to the info LOG
  // once, when the first filter is built (RocksDB gives a policy no logger
  // before that).
  // With a `live_tree`, leveled compaction's files get their bits per key
  // from it (CreateRocksDBLiveTreeFilter) rather than from the assumed
  // shape. `pool` is the pool options.pool names (FilterMemoryPool::Named),
  // null for none.
  explicit BloomgateFilterPolicy(
      const RocksDBFilterOptions& options, std::string warning = "",
      std::shared_ptr<const rocksdb_internal::LiveTree> live_tree = nullptr,
      std::shared_ptr<FilterMemoryPool> pool = nullptr)
      : options_(options),
        id_(RocksDBFilterPolicyId(options)),
        warning_(std::move(warning)),
        live_tree_(std::move(live_tree)),
        pool_(std::move(pool)),
        sampler_(pool_ != nullptr && options.reach_half_life != 0
                     ? std::make_shared<LookupSampler>(options.reach_half_life)
                     : nullptr) {}

  BloomgateFilterPolicy(const BloomgateFilterPolicy&) = delete;
  BloomgateFilterPolicy& operator=(const BloomgateFilterPolicy&) = delete;

  static const char* kClassName() { return kRocksDBPolicyName; }
  const char* Name() const override { return kClassName(); }
  const char* CompatibilityName() const override {
    return kRocksDBCompatibilityName;
  }
  std::string GetId() const override { return id_; }

  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    if (context.info_log != nullptr) {
      std::call_once(warned_, [&] {
        if (!warning_.empty()) {
          rocksdb::Warn(context.info_log, "%s", warning_.c_str());
        }
        // A kernel refused at its check: the database's owner should know
        // why bloomgate runs slower than it could.
        const std::string refused = rocksdb_internal::KernelCheckFailures();
        if (!refused.empty()) {
          rocksdb::Warn(context.info_log, "%s", refused.c_str());
        }
        if (options_.mixed) SayCosts(context.info_log);
      });
    }
    const bool verify =
        context.table_options.detect_filter_construct_corruption;
    const std::shared_ptr<const rocksdb_internal::LiveTree> tree =
        TreeFor(context);
    if (options_.mixed) return MixedBuilder(context, tree, verify);
    if (UsesLiveTree(context, tree)) {
      return SizedBuilder(LiveTreeSizer(context, tree, /*families=*/false),
                          context, verify);
    }
    return AssumedShapeBuilder(FilterFor(context), context, verify);
  }

  // bloomgate's blocks, and RocksDB's Bloom and Ribbon blocks, which a
  // mixed policy writes; with measured reach, each telling the sampler the
  // keys it answers "no" for.
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    rocksdb::FilterBitsReader* reader =
        rocksdb_internal::NewAnyFilterBitsReader(contents);
    if (sampler_ == nullptr) return reader;
    return new rocksdb_internal::ReachReader(
        std::unique_ptr<rocksdb::FilterBitsReader>(reader), sampler_);
  }

 private:
  // The times a mixed policy's cost model weighs, and where they come from:
  // nothing on this path measures them, so that a name builds the same
  // filters on every host.
  void SayCosts(rocksdb::Logger* log) const {
    const LookupCostModel model = CostModelFor(options_);
    const bool named = options_.bloomgate_probe_nanos > 0;
    rocksdb::Info(
        log,
        "bloomgate: %s: mixed families weigh a read at %g us and a probe at "
        "%g ns (bloomgate), %g ns (Ribbon), %s; Ribbon's memory overhead "
        "from this RocksDB's own sizing, per file size",
        id_.c_str(), model.read_micros, 1000 * model.families[0].probe_micros,
        1000 * model.families[1].probe_micros,
        named ? "the name's probe_ns"
              : "the defaults (bloomgate plan --calibrate measures this "
                "machine's and prints the probe_ns to name them)");
  }

  // The builder of `filter` (for a Ribbon filter, sized for files of about
  // `keys_per_file` keys); null, i.e. no filter, for kNone.
  rocksdb::FilterBitsBuilder* NewBuilder(
      const RunFilter& filter, uint64_t keys_per_file,
      const rocksdb::FilterBuildingContext& context, bool verify) const {
    switch (filter.family) {
      case FilterFamily::kRocksDBRibbon:
        return ribbons_.NewBuilder(filter.bits_per_key, keys_per_file, context);
      case FilterFamily::kBloomgate: {
        absl::StatusOr<FilterBuilder> builder =
            FilterBuilder::Create(options_.Options(std::clamp(
                filter.bits_per_key, kMinBitsPerKey, kMaxBitsPerKey)));
        if (!builder.ok()) {
          SayNoBuilder(context.info_log, builder.status());
          return nullptr;  // "no filter": still correct
        }
        return new rocksdb_internal::BitsBuilder(*std::move(builder), verify);
      }
      default:
        return nullptr;
    }
  }

  // A policy of mixed families chooses a file's family, and so its
  // builder, before the file's keys are known: with a live tree, from the
  // tree and the compaction the file is an output of (its inputs' keys and
  // key range); without one, from the assumed shape. The memory the chosen
  // filters take is what the next choices pay back (LiveTreeFilter).
  // With a live tree, a flush is the exception: it gets bloomgate's filter,
  // whose bits are chosen at Finish from the tree, once the file's keys and key
  // range are known. Taken to span the key space, a flush of keys in order
  // looked like the largest run and got a Ribbon filter of its memory; RocksDB
  // then moved it to the last level unrewritten, and the filters took 8% more
  // than the budget (tests/rocksdb/insert_order_test.cc).
  rocksdb::FilterBitsBuilder* MixedBuilder(
      const rocksdb::FilterBuildingContext& context,
      const std::shared_ptr<const rocksdb_internal::LiveTree>& tree,
      bool verify) const {
    if (!UsesLiveTree(context, tree)) {
      return AssumedShapeBuilder(FilterFor(context), context, verify);
    }
    if (IsFlushOutput(context)) {
      return SizedBuilder(LiveTreeSizer(context, tree, /*families=*/true),
                          context, verify);
    }
    const std::string& cf = context.column_family_name;
    const rocksdb_internal::LiveTreeQuery q =
        tree->QueryFor(cf, context.level_at_creation,
                       /*keys=*/tree->LastFlushKeys(cf),
                       /*first=*/"", KeySpaceEnd());
    const uint64_t keys_per_file =
        q.output.keys / std::max<uint64_t>(1, q.output.num_files);
    const RunFilter filter = ChooseLiveTreeFilter(
        options_, q.files, q.output, CostInputsFor(keys_per_file), pool_.get(),
        JoinPool(*tree, cf).get());
    return NewBuilder(filter, keys_per_file, context, verify);
  }

  // The builder of `filter`, the assumed shape's choice for the file
  // `context` describes, except that a flush whose keys lie outside every
  // key flushed before gets bloomgate's budget (at Finish, once its key
  // range is known): RocksDB will move it to the last level unrewritten,
  // where level 0's bits would stay, several times the budget when keys
  // arrive in order.
  rocksdb::FilterBitsBuilder* AssumedShapeBuilder(
      const RunFilter& filter, const rocksdb::FilterBuildingContext& context,
      bool verify) const {
    SayIfNoLiveTree(context);
    if (!options_.monkey || !IsFlushOutput(context) ||
        filter.family != FilterFamily::kBloomgate ||
        filter.bits_per_key <= options_.bits_per_key) {
      return NewBuilder(filter, kRocksDBAssumedKeysPerFile, context, verify);
    }
    return SizedBuilder(FlushSizer(context, filter.bits_per_key), context,
                        verify);
  }

  // A bloomgate builder whose options `sizer` chooses at Finish.
  rocksdb::FilterBitsBuilder* SizedBuilder(
      rocksdb_internal::BitsBuilder::Sizer sizer,
      const rocksdb::FilterBuildingContext& context, bool verify) const {
    // Valid by construction; a failure here would be a bug in validation.
    absl::StatusOr<FilterBuilder> builder =
        FilterBuilder::Create(options_.Options());
    if (!builder.ok()) {
      SayNoBuilder(context.info_log, builder.status());
      return nullptr;  // "no filter": still correct
    }
    return new rocksdb_internal::BitsBuilder(
        *std::move(builder), verify, std::move(sizer), context.info_log);
  }

  // A file left without a filter because its builder could not be made,
  // said once a policy: options validated before use make this a bug, but
  // the file is still read correctly (every lookup reads it).
  void SayNoBuilder(rocksdb::Logger* log, const absl::Status& why) const {
    if (log == nullptr) return;
    std::call_once(said_no_builder_, [&] {
      rocksdb::Warn(log,
                    "bloomgate: %s: a file goes without a filter: its "
                    "builder could not be made (%s). Said once",
                    id_.c_str(), std::string(why.message()).c_str());
    });
  }

  // AssumedShapeBuilder's choice for a flush: level 0's `level0_bits`, or
  // the budget for keys outside every key flushed before (said once per
  // column family in the info LOG, from the second such flush on: the
  // first flush of every database is one).
  // (The builder may outlive nothing of the policy's but what it holds.)
  rocksdb_internal::BitsBuilder::Sizer FlushSizer(
      const rocksdb::FilterBuildingContext& context, double level0_bits) const {
    return [flushed = flushed_, spec = options_, id = id_,
            cf = context.column_family_name, log = context.info_log,
            level0_bits, chosen = std::optional<FilterOptions>()](
               size_t num_keys, std::string_view first,
               std::string_view last) mutable {
      if (chosen.has_value()) return *chosen;
      if (num_keys == 0) return spec.Options();
      const rocksdb_internal::FlushedKeyRanges::Outside o =
          flushed->Add(cf, first, last);
      chosen = spec.Options(o.outside ? spec.bits_per_key : level0_bits);
      if (o.say && log != nullptr) {
        rocksdb::Warn(
            log,
            "bloomgate: %s: column family %s: flushes whose keys lie outside "
            "every key flushed before (keys in order) are moved to the last "
            "level unrewritten, so each gets the budget's %g bits per key, "
            "not level 0's %.1f: the level-aware gain is given up for them. "
            "With the live tree (the listener bloomgate_live_tree), files "
            "are sized from the tree itself",
            id.c_str(), cf.c_str(), spec.bits_per_key, level0_bits);
      }
      return *chosen;
    };
  }

  // The live tree of the database `context` is of: the policy's own
  // (CreateRocksDBLiveTreeFilter), or, for a level-aware policy made by
  // name, the one the listener made by name keeps for that database
  // (LiveTreeRegistry, found by the database's info LOG). Null if neither.
  std::shared_ptr<const rocksdb_internal::LiveTree> TreeFor(
      const rocksdb::FilterBuildingContext& context) const {
    if (live_tree_ != nullptr || !options_.monkey) return live_tree_;
    return rocksdb_internal::LiveTreeRegistry::Find(context.info_log);
  }

  // A level-aware policy of leveled compaction writing a compaction's
  // output without a live tree assumes the tree's shape: said once in the
  // info LOG, with the way to the tree. (A flush may come before the
  // listener's first callback, a compaction never does.)
  void SayIfNoLiveTree(const rocksdb::FilterBuildingContext& context) const {
    if (!options_.monkey || context.info_log == nullptr) return;
    // A budget is kept only with the tree: said at the first file.
    if (options_.memory_budget_bytes != 0 && TreeFor(context) == nullptr) {
      std::call_once(said_no_tree_, [&] {
        rocksdb::Warn(
            context.info_log,
            "bloomgate: %s: no live tree for this database, so the memory "
            "budget cannot be kept (the tree's keys are unknown): files get "
            "%g bits per key by an assumed tree shape. Add the listener %s "
            "(listeners={%s} in DBOptions, or CreateRocksDBLiveTreeFilter in "
            "code)",
            id_.c_str(), options_.bits_per_key, kRocksDBListenerName,
            kRocksDBListenerName);
      });
      return;
    }
    if (context.compaction_style != rocksdb::kCompactionStyleLevel ||
        context.reason != rocksdb::TableFileCreationReason::kCompaction) {
      return;
    }
    std::call_once(said_no_tree_, [&] {
      rocksdb::Warn(
          context.info_log,
          "bloomgate: %s: no live tree for this database, so the filters' "
          "bits per level assume a tree of %d levels, each %g times the one "
          "above: their memory keeps to the budget only on a tree of that "
          "shape. To size every file from the live tree, add the listener "
          "%s to the database (listeners={%s} in DBOptions of an OPTIONS "
          "file or options string, or CreateRocksDBLiveTreeFilter in code)",
          id_.c_str(), context.num_levels, options_.fanout,
          kRocksDBListenerName, kRocksDBListenerName);
    });
  }

  // Whether the file `context` describes takes its bits per key from the
  // live tree `tree`: leveled compaction, a known level, and a live tree.
  bool UsesLiveTree(
      const rocksdb::FilterBuildingContext& context,
      const std::shared_ptr<const rocksdb_internal::LiveTree>& tree) const {
    return tree != nullptr && options_.monkey &&
           context.compaction_style == rocksdb::kCompactionStyleLevel &&
           context.num_levels >= 2 && context.level_at_creation >= 0;
  }

  // Chooses a file's filter once its keys are known: LiveTreeBitsPerKey
  // over the column family's live files, once per file (the partitions of
  // a partitioned filter share it). With `families`, a mixed policy's
  // choice (LiveTreeFilter) for a file already given bloomgate's family:
  // the memory per key it chooses, whichever family it would now prefer.
  // RocksDB cannot take "no filter" at that point, so a file the
  // allocation leaves without one gets the smallest filter.
  rocksdb_internal::BitsBuilder::Sizer LiveTreeSizer(
      const rocksdb::FilterBuildingContext& context,
      std::shared_ptr<const rocksdb_internal::LiveTree> tree,
      bool families) const {
    std::shared_ptr<const PoolMember> member =
        JoinPool(*tree, context.column_family_name);
    return [tree = std::move(tree), spec = options_, pool = pool_,
            member = std::move(member), cf = context.column_family_name,
            level = context.level_at_creation, families,
            said = said_over_budget_, log = context.info_log,
            chosen = std::optional<FilterOptions>()](
               size_t num_keys, std::string_view first,
               std::string_view last) mutable {
      if (chosen.has_value()) return *chosen;
      if (num_keys == 0) return spec.Options();
      const rocksdb_internal::LiveTreeQuery q =
          tree->QueryFor(cf, level, num_keys, first, last);
      const double bits = ChooseLiveTreeFilter(
                              spec, q.files, q.output,
                              families ? CostInputsFor(num_keys) : CostInputs{},
                              pool.get(), member.get())
                              .bits_per_key;
      if (bits <= 0) SayOverBudget(*said, log, spec, num_keys);
      chosen = spec.Options(std::clamp(bits, kMinBitsPerKey, kMaxBitsPerKey));
      return *chosen;
    };
  }

  // The member `cf` of the database `tree` keeps is in the policy's pool;
  // null without a pool.
  std::shared_ptr<const PoolMember> JoinPool(
      const rocksdb_internal::LiveTree& tree, const std::string& cf) const {
    if (pool_ == nullptr) return nullptr;
    return tree.JoinPool(cf, *pool_, sampler_);
  }

  // Says, once a policy, that the allocation left a file of `num_keys` keys
  // without a filter, which RocksDB cannot take once its keys are in: with
  // a budget, the memory is spent; without, the file's run is not worth a
  // filter.
  static void SayOverBudget(std::once_flag& said, rocksdb::Logger* log,
                            const FilterSpec& spec, size_t num_keys) {
    if (log == nullptr) return;
    std::call_once(said, [&] {
      rocksdb::Warn(
          log,
          "bloomgate: %s: the allocation leaves a file of %zu keys without "
          "a filter (%s); RocksDB cannot drop a filter once its keys are in, "
          "so it gets the smallest, %g bits per key. Said once",
          RocksDBFilterPolicyId(spec).c_str(), num_keys,
          spec.memory_budget_bytes != 0
              ? "the other live filters hold the memory budget"
              : "its run is not worth one",
          kMinBitsPerKey);
    });
  }

  // The filter of the file `context` describes, by the assumed shape (see
  // RocksDBFilterOptions::monkey).
  RunFilter FilterFor(const rocksdb::FilterBuildingContext& context) const {
    // Universal and FIFO compaction have sorted runs of varying sizes, not
    // levels of fixed ratio; RocksDB leaves num_levels at -1 for files
    // outside the LSM (SstFileWriter), whose level is unknown. They get the
    // average in bloomgate's family.
    if (!options_.monkey ||
        context.compaction_style != rocksdb::kCompactionStyleLevel ||
        context.num_levels < 2) {
      return {.family = FilterFamily::kBloomgate,
              .layout = options_.layout,
              .bits_per_key = options_.bits_per_key};
    }
    const std::vector<RunFilter>& filters = LevelFilters(context);
    const int last = static_cast<int>(filters.size()) - 1;
    // Flushes (level 0), L0 and an unknown level (-1): the top budget.
    if (context.level_at_creation <= 0) return filters.front();
    // Nothing below this file's key range: its keys are in the tree's
    // largest run, whatever the level number, e.g. the deepest populated
    // level of a tree not yet num_levels deep.
    if (context.is_bottommost) return filters.back();
    return filters[std::min(context.level_at_creation, last)];
  }

  // bloomgate::LevelFilters(options_, context.num_levels), computed once
  // per num_levels (the fanout is the policy's): RocksDB asks for a builder
  // per SST file, and the allocation takes milliseconds the first time.
  const std::vector<RunFilter>& LevelFilters(
      const rocksdb::FilterBuildingContext& context) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = level_filters_.find(context.num_levels);
    if (it != level_filters_.end()) return it->second;
    absl::StatusOr<std::vector<RunFilter>> filters =
        bloomgate::LevelFilters(options_, context.num_levels,
                                CostInputsFor(kRocksDBAssumedKeysPerFile));
    if (!filters.ok()) {
      // Only a shape too extreme for the allocation (fanout^num_levels
      // overflowing) gets here: fall back to the uniform budget.
      rocksdb::Warn(context.info_log,
                    "bloomgate: %s: no level-aware allocation for %d levels "
                    "(%s); using %g bits per key at every level",
                    id_.c_str(), context.num_levels,
                    std::string(filters.status().message()).c_str(),
                    options_.bits_per_key);
      filters = std::vector<RunFilter>(context.num_levels,
                                       {.family = FilterFamily::kBloomgate,
                                        .layout = options_.layout,
                                        .bits_per_key = options_.bits_per_key});
    }
    // std::map never moves its elements: the reference stays valid.
    return level_filters_.emplace(context.num_levels, *std::move(filters))
        .first->second;
  }

  const RocksDBFilterOptions options_;
  const std::string id_;
  const std::string warning_;
  const std::shared_ptr<const rocksdb_internal::LiveTree> live_tree_;
  const std::shared_ptr<FilterMemoryPool> pool_;
  // With a pool and measured reach: the keys this policy's filters answer
  // "no" for, shared with its readers.
  const std::shared_ptr<LookupSampler> sampler_;
  mutable std::once_flag warned_;
  mutable std::once_flag said_no_tree_;
  mutable std::once_flag said_no_builder_;
  // Shared with the sizers, which may outlive nothing else of the policy.
  const std::shared_ptr<std::once_flag> said_over_budget_ =
      std::make_shared<std::once_flag>();
  // Without a live tree: the keys flushed so far, per column family.
  const std::shared_ptr<rocksdb_internal::FlushedKeyRanges> flushed_ =
      std::make_shared<rocksdb_internal::FlushedKeyRanges>();
  mutable std::mutex mu_;
  // num_levels -> the filters of L0 .. L<num_levels - 1>. Guarded by mu_;
  // entries are never modified or erased once added.
  mutable std::map<int, std::vector<RunFilter>> level_filters_;
  // A mixed policy's Ribbon levels are RocksDB's.
  mutable rocksdb_internal::RibbonPolicies ribbons_;
};

// The policy for valid `options`, in `options.pool` if it names one
// (FilterMemoryPool::Named, whose size conflict is the error), with
// `live_tree` if given; a non-empty `warning` goes to the info LOG once.
absl::StatusOr<std::unique_ptr<BloomgateFilterPolicy>> MakePolicy(
    const RocksDBFilterOptions& options, std::string warning = "",
    std::shared_ptr<const rocksdb_internal::LiveTree> live_tree = nullptr) {
  const absl::Status valid = ValidateOptions(options);
  if (!valid.ok()) return valid;
  std::shared_ptr<FilterMemoryPool> pool;
  if (!options.pool.empty()) {
    absl::StatusOr<std::shared_ptr<FilterMemoryPool>> named =
        FilterMemoryPool::Named(options.pool.view(),
                                options.memory_budget_bytes,
                                RocksDBFilterPolicyId(options));
    if (!named.ok()) return named.status();
    pool = *std::move(named);
  }
  return std::make_unique<BloomgateFilterPolicy>(
      options, std::move(warning), std::move(live_tree), std::move(pool));
}

// What a malformed "bloomgate:..." id makes: a policy that refuses to be
// used, with the parser's message. A factory error would not do: RocksDB's
// OPTIONS-file loader drops parse errors of by-name options such as
// filter_policy and leaves the policy null (BlockBasedTableFactory::
// ParseOption, 7.x to 11.x), and the DB would run without filters. This
// policy fails PrepareOptions, which loading options and CreateFromString
// run, and ValidateOptions, which DB::Open runs; it builds no filter and
// still reads bloomgate blocks.
class RefusedFilterPolicy final : public rocksdb::FilterPolicy {
 public:
  RefusedFilterPolicy(std::string id, std::string why)
      : id_(std::move(id)), why_(std::move(why)) {}

  const char* Name() const override { return kRocksDBPolicyName; }
  const char* CompatibilityName() const override {
    return kRocksDBCompatibilityName;
  }
  std::string GetId() const override { return id_; }

  rocksdb::Status PrepareOptions(
      const rocksdb::ConfigOptions& /*config_options*/) override {
    return rocksdb::Status::InvalidArgument(why_);
  }
  rocksdb::Status ValidateOptions(
      const rocksdb::DBOptions& /*db_opts*/,
      const rocksdb::ColumnFamilyOptions& /*cf_opts*/) const override {
    return rocksdb::Status::InvalidArgument(why_);
  }

  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& /*context*/) const override {
    return nullptr;
  }
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return rocksdb_internal::NewAnyFilterBitsReader(contents);
  }

 private:
  const std::string id_;
  const std::string why_;
};

// The "bloomgate[:...]" factory. Any string starting "bloomgate:" reaches it,
// so that a malformed one gets a precise message rather than RocksDB's
// generic "Could not load FilterPolicy".
const rocksdb::FilterPolicy* NewPolicyFromId(
    const std::string& id, std::unique_ptr<const rocksdb::FilterPolicy>* guard,
    std::string* /*errmsg*/) {
  const absl::StatusOr<RocksDBFilterOptions> options =
      ParseRocksDBFilterPolicyId(id);
  absl::StatusOr<std::unique_ptr<BloomgateFilterPolicy>> policy =
      options.ok() ? MakePolicy(*options) : options.status();
  if (policy.ok()) {
    guard->reset(policy->release());
  } else {
    guard->reset(
        new RefusedFilterPolicy(id, std::string(policy.status().message())));
  }
  return guard->get();
}

// The factory behind kRocksDBListenerName: that name makes a listener,
// any other name in bloomgate's namespace is an error that names it.
rocksdb::EventListener* NewListenerFromName(
    const std::string& name, std::unique_ptr<rocksdb::EventListener>* guard,
    std::string* errmsg) {
  if (name != kRocksDBListenerName) {
    *errmsg = absl::StrCat("bloomgate: unknown listener \"", name,
                           "\"; the live-tree listener is \"",
                           kRocksDBListenerName, "\"");
    return nullptr;
  }
  guard->reset(new rocksdb_internal::LiveTreeListener(
      std::make_shared<rocksdb_internal::LiveTree>()));
  return guard->get();
}

}  // namespace

std::string RocksDBFilterPolicyId(const RocksDBFilterOptions& options) {
  return options.Name();
}

absl::StatusOr<RocksDBFilterOptions> ParseRocksDBFilterPolicyId(
    std::string_view id) {
  const std::string_view whole = id;
  auto error = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat("bloomgate filter policy \"", ToAbsl(whole), "\": ", what,
                     "; ", ToAbsl(kExpectedForm)));
  };
  const std::string_view name = kRocksDBPolicyName;
  if (id.substr(0, name.size()) != name) return error("not a bloomgate id");
  id.remove_prefix(name.size());
  if (!id.empty() && id.front() != ':') return error("not a bloomgate id");
  absl::StatusOr<FilterSpec> spec = FilterSpec::Parse(whole);
  if (!spec.ok()) return error(spec.status().message());
  return *spec;
}

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
CreateRocksDBFilterPolicy(const RocksDBFilterOptions& options) {
  absl::StatusOr<std::unique_ptr<BloomgateFilterPolicy>> policy =
      MakePolicy(options);
  if (!policy.ok()) return policy.status();
  return std::shared_ptr<const rocksdb::FilterPolicy>(*std::move(policy));
}

RocksDBFilterOptions ClampRocksDBFilterOptions(
    const RocksDBFilterOptions& options) {
  const RocksDBFilterOptions defaults;
  auto clamp = [](double value, double lo, double hi, double if_nan) {
    return std::isnan(value) ? if_nan : std::clamp(value, lo, hi);
  };
  RocksDBFilterOptions clamped = options;
  clamped.family = FilterFamily::kBloomgate;
  clamped.bits_per_key = clamp(options.bits_per_key, kMinBitsPerKey,
                               kMaxBitsPerKey, defaults.bits_per_key);
  clamped.fanout =
      clamp(options.fanout, kMinFanout, kMaxFanout, defaults.fanout);
  if (options.layout != Layout::kBlocked &&
      options.layout != Layout::kStandard) {
    clamped.layout = defaults.layout;
  }
  const int max_probes = clamped.layout == Layout::kBlocked
                             ? kMaxBlockedProbes
                             : kMaxStandardProbes;
  clamped.num_probes = std::clamp(options.num_probes, 0, max_probes);
  if (!clamped.monkey) {
    clamped.memory_budget_bytes = 0;
    clamped.pool = {};
  } else if (clamped.memory_budget_bytes != 0) {
    clamped.memory_budget_bytes =
        std::max(clamped.memory_budget_bytes, kMinMemoryBudgetBytes);
    clamped.bits_per_key = defaults.bits_per_key;
  }
  // A pool without a budget, or of a malformed name: the pool dropped.
  if (!clamped.Validate().ok()) {
    clamped.pool = {};
    clamped.reach_half_life = defaults.reach_half_life;
  }
  return clamped;
}

std::shared_ptr<const rocksdb::FilterPolicy> NewRocksDBFilterPolicy(
    const RocksDBFilterOptions& options) {
  absl::StatusOr<std::unique_ptr<BloomgateFilterPolicy>> policy =
      MakePolicy(options);
  if (policy.ok()) return *std::move(policy);
  RocksDBFilterOptions clamped = ClampRocksDBFilterOptions(options);
  std::string warning = absl::StrCat(
      "bloomgate: invalid filter options (", policy.status().message(),
      "); using ", RocksDBFilterPolicyId(clamped), " instead");
  policy = MakePolicy(clamped, warning);
  if (policy.ok()) return *std::move(policy);
  // Valid options whose pool exists at another size: the budget alone.
  clamped.pool = {};
  clamped.reach_half_life = 0;
  warning = absl::StrCat("bloomgate: ", policy.status().message(), "; using ",
                         RocksDBFilterPolicyId(clamped), " instead");
  return *MakePolicy(clamped, warning);
}

absl::StatusOr<RocksDBLiveTreeFilter> CreateRocksDBLiveTreeFilter(
    const RocksDBFilterOptions& options) {
  if (absl::Status valid = ValidateOptions(options); !valid.ok()) return valid;
  if (!options.monkey) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a live-tree filter is level-aware: ", RocksDBFilterPolicyId(options),
        " has no :monkey"));
  }
  auto tree = std::make_shared<rocksdb_internal::LiveTree>();
  absl::StatusOr<std::unique_ptr<BloomgateFilterPolicy>> policy =
      MakePolicy(options, "", tree);
  if (!policy.ok()) return policy.status();
  RocksDBLiveTreeFilter filter;
  filter.policy = *std::move(policy);
  filter.listener = std::make_shared<rocksdb_internal::LiveTreeListener>(tree);
  return filter;
}

int RegisterRocksDBFactories(rocksdb::ObjectLibrary& library,
                             const std::string& /*arg*/) {
  // Matches "bloomgate" and "bloomgate:<anything>" (RocksDB's PatternEntry:
  // the name, then optionally ":" and zero or more characters).
  library.AddFactory<const rocksdb::FilterPolicy>(
      rocksdb::ObjectLibrary::PatternEntry(kRocksDBPolicyName,
                                           /*optional=*/true)
          .AddSeparator(":", /*at_least_one=*/false),
      NewPolicyFromId);
  // Matches "bloomgate" and "bloomgate_<anything>", so that a misspelt
  // listener name is an error: RocksDB parses "listeners=" ignoring names no
  // factory matches, which would drop the live tree silently.
  library.AddFactory<rocksdb::EventListener>(
      rocksdb::ObjectLibrary::PatternEntry(kRocksDBPolicyName,
                                           /*optional=*/true)
          .AddSeparator("_", /*at_least_one=*/false),
      NewListenerFromName);
  return 2;
}

void RegisterRocksDBPlugin() {
  static std::once_flag once;
  std::call_once(once, [] {
    RegisterRocksDBFactories(*rocksdb::ObjectLibrary::Default(), "");
  });
}

}  // namespace bloomgate
