// Copyright 2026 The bloomgate Authors.
//
// The FilterPolicy that hands RocksDB bloomgate's filter-bits adapters, and
// its registration under the name "bloomgate". Design: docs/rocksdb-plugin.md.

#include "bloomgate/rocksdb_filter_policy.h"

#include <charconv>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/object_registry.h"
#include "src/rocksdb/filter_bits.h"

namespace bloomgate {
namespace {

constexpr std::string_view kExpectedForm =
    "expected bloomgate[:<bits_per_key>[:blocked|standard]], e.g. "
    "\"bloomgate:10\" or \"bloomgate:9.5:standard\"";

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

FilterOptions ToFilterOptions(const RocksDBFilterOptions& options) {
  return FilterOptions{.bits_per_key = options.bits_per_key,
                       .layout = options.layout};
}

// One class for every configuration. Name() and CompatibilityName() are
// constants, so that the filter block of any bloomgate policy is filed and
// found under the same metaindex key, and every block describes itself (its
// layout, probe count and size), so any instance reads any block. The
// configuration lives only in GetId(), which RocksDB writes to the OPTIONS
// file and parses back through the registered factory.
class BloomgateFilterPolicy final : public rocksdb::FilterPolicy {
 public:
  // `options` must be valid.
  explicit BloomgateFilterPolicy(const RocksDBFilterOptions& options)
      : options_(options), id_(RocksDBFilterPolicyId(options)) {}

  static const char* kClassName() { return kRocksDBPolicyName; }
  const char* Name() const override { return kClassName(); }
  const char* CompatibilityName() const override {
    return kRocksDBCompatibilityName;
  }
  std::string GetId() const override { return id_; }

  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    // Valid by construction; a failure here would be a bug in validation.
    absl::StatusOr<FilterBuilder> builder =
        FilterBuilder::Create(ToFilterOptions(options_));
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
  const RocksDBFilterOptions options_;
  const std::string id_;
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

absl::StatusOr<double> ParseBitsPerKey(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return absl::InvalidArgumentError(
        Cat({"bits per key \"", text, "\" is not a number"}));
  }
  return value;
}

}  // namespace

std::string RocksDBFilterPolicyId(const RocksDBFilterOptions& options) {
  // Fixed notation, shortest digits that round-trip: "10", "9.5", "0.1".
  char buf[64];
  auto [ptr, ec] = std::to_chars(buf, buf + sizeof(buf), options.bits_per_key,
                                 std::chars_format::fixed);
  const std::string_view bits =
      ec == std::errc() ? std::string_view(buf, ptr - buf) : "nan";
  return Cat({kRocksDBPolicyName, ":", bits, ":", LayoutName(options.layout)});
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
    const size_t colon = id.find(':');
    absl::StatusOr<double> bits = ParseBitsPerKey(id.substr(0, colon));
    if (!bits.ok()) return error(ToView(bits.status().message()));
    options.bits_per_key = *bits;
    if (colon != std::string_view::npos) {
      const std::string_view layout_name = id.substr(colon + 1);
      absl::StatusOr<Layout> layout = ParseLayout(layout_name);
      if (!layout.ok()) {
        return error(Cat({"unknown layout \"", layout_name, "\""}));
      }
      options.layout = *layout;
    }
  }
  const absl::Status valid = ValidateFilterOptions(ToFilterOptions(options));
  if (!valid.ok()) return error(ToView(valid.message()));
  return options;
}

absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>>
CreateRocksDBFilterPolicy(const RocksDBFilterOptions& options) {
  const absl::Status valid = ValidateFilterOptions(ToFilterOptions(options));
  if (!valid.ok()) return valid;
  return std::make_shared<const BloomgateFilterPolicy>(options);
}

std::shared_ptr<const rocksdb::FilterPolicy> NewRocksDBFilterPolicy(
    const RocksDBFilterOptions& options) {
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      CreateRocksDBFilterPolicy(options);
  return policy.ok() ? *std::move(policy) : nullptr;
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
