// Copyright 2026 The bloomgate Authors.
//
// The FilterPolicy that hands RocksDB bloomgate's filter-bits adapters, and
// its registration under the name "bloomgate". Design: docs/rocksdb-plugin.md.

#include "bloomgate/rocksdb_filter_policy.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "bloomgate/allocation.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/env.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"
#include "src/rocksdb/filter_bits.h"

namespace bloomgate {
namespace {

constexpr std::string_view kExpectedForm =
    "expected bloomgate[:<bits_per_key>[:blocked|standard][:monkey[:<fanout>]]"
    "], e.g. \"bloomgate:10\", \"bloomgate:9.5:standard\" or "
    "\"bloomgate:10:monkey\"";

constexpr std::string_view kMonkey = "monkey";
constexpr double kDefaultFanout = RocksDBFilterOptions{}.fanout;

// Debian's abseil has its own string_view, which absl::StrCat takes and
// std::string_view is not; this concatenates std::string_views.
std::string Cat(std::initializer_list<std::string_view> parts) {
  std::string result;
  for (std::string_view part : parts) result.append(part);
  return result;
}

std::string_view ToView(absl::string_view s) {
  return std::string_view(s.data(), s.size());
}

FilterOptions ToFilterOptions(const RocksDBFilterOptions& options,
                              double bits_per_key) {
  return FilterOptions{.bits_per_key = bits_per_key, .layout = options.layout};
}

FilterOptions ToFilterOptions(const RocksDBFilterOptions& options) {
  return ToFilterOptions(options, options.bits_per_key);
}

absl::Status ValidateOptions(const RocksDBFilterOptions& options) {
  const absl::Status valid = ValidateFilterOptions(ToFilterOptions(options));
  if (!valid.ok()) return valid;
  // Written so that NaN fails too.
  if (!(options.fanout >= kMinRocksDBFanout &&
        options.fanout <= kMaxRocksDBFanout)) {
    return absl::InvalidArgumentError(
        "fanout must be a number within [1, 1000]");
  }
  return absl::OkStatus();
}

// Fixed notation, shortest digits that round-trip: "10", "9.5", "0.1".
std::string FormatNumber(double value) {
  char buf[64];
  auto [ptr, ec] =
      std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buf, ptr - buf) : "nan";
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
  explicit BloomgateFilterPolicy(const RocksDBFilterOptions& options,
                                 std::string warning = "")
      : options_(options),
        id_(RocksDBFilterPolicyId(options)),
        warning_(std::move(warning)) {}

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
    if (!warning_.empty() && context.info_log != nullptr) {
      std::call_once(warned_, [&] {
        rocksdb::Warn(context.info_log, "%s", warning_.c_str());
      });
    }
    const double bits_per_key = BitsPerKeyFor(context);
    // Monkey gives a level no filter at all when memory is very scarce.
    if (bits_per_key == 0) return nullptr;
    // Valid by construction; a failure here would be a bug in validation.
    absl::StatusOr<FilterBuilder> builder =
        FilterBuilder::Create(ToFilterOptions(options_, bits_per_key));
    if (!builder.ok()) return nullptr;  // "no filter": still correct
    return new rocksdb_internal::BitsBuilder(
        *std::move(builder),
        context.table_options.detect_filter_construct_corruption);
  }

  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return new rocksdb_internal::BitsReader(
        std::string_view(contents.data(), contents.size()));
  }

 private:
  // The bits per key of the file `context` describes (see
  // RocksDBFilterOptions::monkey).
  double BitsPerKeyFor(const rocksdb::FilterBuildingContext& context) const {
    // Universal and FIFO compaction have sorted runs of varying sizes, not
    // levels of fixed ratio; RocksDB leaves num_levels at -1 for files
    // outside the LSM (SstFileWriter), whose level is unknown.
    if (!options_.monkey ||
        context.compaction_style != rocksdb::kCompactionStyleLevel ||
        context.num_levels < 2) {
      return options_.bits_per_key;
    }
    const std::vector<double>& bits = LevelBitsPerKey(context);
    const int last = static_cast<int>(bits.size()) - 1;
    // Flushes (level 0), L0 and an unknown level (-1): the top budget.
    if (context.level_at_creation <= 0) return bits.front();
    // Nothing below this file's key range: its keys are in the tree's
    // largest run, whatever the level number, e.g. the deepest populated
    // level of a tree not yet num_levels deep.
    if (context.is_bottommost) return bits.back();
    return bits[std::min(context.level_at_creation, last)];
  }

  // RocksDBLevelBitsPerKey(options_, context.num_levels), computed once per
  // num_levels (the fanout is the policy's): RocksDB asks for a builder per
  // SST file, and MonkeyBitsPerKey takes milliseconds the first time.
  const std::vector<double>& LevelBitsPerKey(
      const rocksdb::FilterBuildingContext& context) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = level_bits_.find(context.num_levels);
    if (it != level_bits_.end()) return it->second;
    absl::StatusOr<std::vector<double>> bits =
        RocksDBLevelBitsPerKey(options_, context.num_levels);
    if (!bits.ok()) {
      // Only a shape too extreme for the allocation (fanout^num_levels
      // overflowing) gets here: fall back to the uniform budget.
      rocksdb::Warn(context.info_log,
                    "bloomgate: %s: no level-aware allocation for %d levels "
                    "(%s); using %s bits per key at every level",
                    id_.c_str(), context.num_levels,
                    std::string(bits.status().message()).c_str(),
                    FormatNumber(options_.bits_per_key).c_str());
      bits = std::vector<double>(context.num_levels, options_.bits_per_key);
    }
    // std::map never moves its elements: the reference stays valid.
    return level_bits_.emplace(context.num_levels, *std::move(bits))
        .first->second;
  }

  const RocksDBFilterOptions options_;
  const std::string id_;
  const std::string warning_;
  mutable std::once_flag warned_;
  mutable std::mutex mu_;
  // num_levels -> bits per key of L0 .. L<num_levels - 1>. Guarded by mu_;
  // entries are never modified or erased once added.
  mutable std::map<int, std::vector<double>> level_bits_;
};

// The "bloomgate[:...]" factory. Any string starting "bloomgate:" reaches it,
// so that a malformed one gets a precise message rather than RocksDB's
// generic "Could not load FilterPolicy".
const rocksdb::FilterPolicy* NewPolicyFromId(
    const std::string& id, std::unique_ptr<const rocksdb::FilterPolicy>* guard,
    std::string* errmsg) {
  absl::StatusOr<RocksDBFilterOptions> options = ParseRocksDBFilterPolicyId(id);
  if (!options.ok()) {
    *errmsg = std::string(ToView(options.status().message()));
    return nullptr;
  }
  guard->reset(new BloomgateFilterPolicy(*options));
  return guard->get();
}

// `what` names the number in the error message.
absl::StatusOr<double> ParseNumber(std::string_view what,
                                   std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return absl::InvalidArgumentError(
        Cat({what, " \"", text, "\" is not a number"}));
  }
  return value;
}

// Splits "a:b:c" into {"a", "b", "c"}; "" gives {""}.
std::vector<std::string_view> SplitFields(std::string_view text) {
  std::vector<std::string_view> fields;
  while (true) {
    const size_t colon = text.find(':');
    fields.push_back(text.substr(0, colon));
    if (colon == std::string_view::npos) return fields;
    text.remove_prefix(colon + 1);
  }
}

}  // namespace

absl::StatusOr<std::vector<double>> RocksDBLevelBitsPerKey(
    const RocksDBFilterOptions& options, int num_levels) {
  const absl::Status valid = ValidateOptions(options);
  if (!valid.ok()) return valid;
  if (num_levels < 1) {
    return absl::InvalidArgumentError("num_levels must be at least 1");
  }
  if (!options.monkey) {
    return std::vector<double>(num_levels, options.bits_per_key);
  }
  return MonkeyBitsPerKey(options.layout, options.bits_per_key,
                          LeveledShape(num_levels, options.fanout));
}

std::string RocksDBFilterPolicyId(const RocksDBFilterOptions& options) {
  std::string id =
      Cat({kRocksDBPolicyName, ":", FormatNumber(options.bits_per_key), ":",
           LayoutName(options.layout)});
  if (options.monkey) {
    id += Cat({":", kMonkey});
    if (options.fanout != kDefaultFanout) {
      id += Cat({":", FormatNumber(options.fanout)});
    }
  }
  return id;
}

absl::StatusOr<RocksDBFilterOptions> ParseRocksDBFilterPolicyId(
    std::string_view id) {
  const std::string_view whole = id;
  auto error = [&](std::string_view what) {
    return absl::InvalidArgumentError(Cat({"bloomgate filter policy \"", whole,
                                           "\": ", what, "; ", kExpectedForm}));
  };
  const std::string_view name = kRocksDBPolicyName;
  if (id.substr(0, name.size()) != name) return error("not a bloomgate id");
  id.remove_prefix(name.size());
  RocksDBFilterOptions options;
  if (!id.empty()) {
    if (id.front() != ':') return error("not a bloomgate id");
    id.remove_prefix(1);
    // <bits_per_key>[:<layout>][:monkey[:<fanout>]]
    const std::vector<std::string_view> fields = SplitFields(id);
    size_t i = 0;
    absl::StatusOr<double> bits = ParseNumber("bits per key", fields[i++]);
    if (!bits.ok()) return error(ToView(bits.status().message()));
    options.bits_per_key = *bits;
    if (i < fields.size() && fields[i] != kMonkey) {
      absl::StatusOr<Layout> layout = ParseLayout(fields[i]);
      if (!layout.ok()) {
        return error(Cat({"unknown layout \"", fields[i],
                          "\" (expected blocked, standard or monkey)"}));
      }
      options.layout = *layout;
      ++i;
    }
    if (i < fields.size()) {
      if (fields[i] != kMonkey) {
        return error(
            Cat({"unknown option \"", fields[i], "\" (expected monkey)"}));
      }
      options.monkey = true;
      ++i;
      if (i < fields.size()) {
        absl::StatusOr<double> fanout = ParseNumber("fanout", fields[i++]);
        if (!fanout.ok()) return error(ToView(fanout.status().message()));
        options.fanout = *fanout;
      }
    }
    if (i < fields.size()) {
      return error(Cat({"unexpected \"", fields[i], "\" at the end"}));
    }
  }
  const absl::Status valid = ValidateOptions(options);
  if (!valid.ok()) return error(ToView(valid.message()));
  return options;
}

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
CreateRocksDBFilterPolicy(const RocksDBFilterOptions& options) {
  const absl::Status valid = ValidateOptions(options);
  if (!valid.ok()) return valid;
  return std::make_shared<const BloomgateFilterPolicy>(options);
}

RocksDBFilterOptions ClampRocksDBFilterOptions(
    const RocksDBFilterOptions& options) {
  const RocksDBFilterOptions defaults;
  auto clamp = [](double value, double lo, double hi, double if_nan) {
    return std::isnan(value) ? if_nan : std::clamp(value, lo, hi);
  };
  RocksDBFilterOptions clamped = options;
  clamped.bits_per_key = clamp(options.bits_per_key, kMinBitsPerKey,
                               kMaxBitsPerKey, defaults.bits_per_key);
  clamped.fanout = clamp(options.fanout, kMinRocksDBFanout, kMaxRocksDBFanout,
                         defaults.fanout);
  if (options.layout != Layout::kBlocked &&
      options.layout != Layout::kStandard) {
    clamped.layout = defaults.layout;
  }
  return clamped;
}

std::shared_ptr<const rocksdb::FilterPolicy> NewRocksDBFilterPolicy(
    const RocksDBFilterOptions& options) {
  const absl::Status valid = ValidateOptions(options);
  if (valid.ok()) return std::make_shared<const BloomgateFilterPolicy>(options);
  const RocksDBFilterOptions clamped = ClampRocksDBFilterOptions(options);
  return std::make_shared<const BloomgateFilterPolicy>(
      clamped,
      Cat({"bloomgate: invalid filter options (", ToView(valid.message()),
           "); using ", RocksDBFilterPolicyId(clamped), " instead"}));
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
  return 1;
}

void RegisterRocksDBPlugin() {
  static std::once_flag once;
  std::call_once(once, [] {
    RegisterRocksDBFactories(*rocksdb::ObjectLibrary::Default(), "");
  });
}

}  // namespace bloomgate
