// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_spec.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/allocation.h"
#include "bloomgate/sizing.h"
#include "src/filter/format.h"

namespace bloomgate {
namespace {

constexpr absl::string_view kMonkey = "monkey";
constexpr absl::string_view kMixed = "mixed";
// Keyed fields: the key, then its value in the next field.
constexpr absl::string_view kProbes = "probes";
constexpr absl::string_view kProbeTimes = "probe_ns";
constexpr absl::string_view kPool = "pool";
constexpr absl::string_view kReach = "reach";
constexpr absl::string_view kReachOff = "off";
constexpr absl::string_view kReachOn = "on";

static_assert(kMinMemoryBudgetBytes ==
              internal::kLineBits / 8 + internal::kTrailerSize);

// Byte units, largest binary first (FormatByteSize takes the first that
// divides).
struct ByteUnit {
  absl::string_view name;
  uint64_t bytes;
};
constexpr ByteUnit kByteUnits[] = {
    {"TiB", uint64_t{1} << 40},
    {"GiB", uint64_t{1} << 30},
    {"MiB", uint64_t{1} << 20},
    {"KiB", uint64_t{1} << 10},
    {"T", uint64_t{1} << 40},
    {"G", uint64_t{1} << 30},
    {"M", uint64_t{1} << 20},
    {"K", uint64_t{1} << 10},
    {"TB", 1000000000000},
    {"GB", 1000000000},
    {"MB", 1000000},
    {"kB", 1000},
    {"KB", 1000},
    {"B", 1},
    {"", 1},
};
constexpr size_t kFormattedUnits = 4;  // TiB .. KiB

constexpr FilterKindInfo kKinds[] = {
    {"none", {.family = FilterFamily::kNone}, "no filter: every file is read"},
    {"bloomgate", {}, "bloomgate, blocked layout (one cache line per key)"},
    {"bloomgate_standard",
     {.layout = Layout::kStandard},
     "bloomgate, textbook layout (probes anywhere)"},
    {"bloomgate_monkey",
     {.monkey = true},
     "bloomgate, blocked, level-aware bits per key (Monkey)"},
    {"bloomgate_mixed",
     {.monkey = true, .mixed = true},
     "bloomgate_monkey whose levels may get RocksDB's Ribbon filter instead, "
     "each level's family chosen by the expected lookup time (RocksDB only)"},
    {"rocksdb_bloom",
     {.family = FilterFamily::kRocksDBBloom},
     "RocksDB's built-in Bloom filter (FastLocalBloom)"},
    {"rocksdb_ribbon",
     {.family = FilterFamily::kRocksDBRibbon},
     "RocksDB's built-in Ribbon filter"},
};

const FilterKindInfo* FindKind(std::string_view name) {
  for (const FilterKindInfo& kind : kKinds) {
    if (kind.name == name) return &kind;
  }
  return nullptr;
}

std::string KindList() {
  std::vector<absl::string_view> names;
  for (const FilterKindInfo& kind : kKinds) names.push_back(ToAbsl(kind.name));
  return absl::StrJoin(names, ", ");
}

// Fixed notation, shortest digits that round-trip: "10", "9.5", "0.1".
std::string FormatNumber(double value) {
  char buf[64];
  auto [ptr, ec] =
      std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buf, ptr - buf) : "nan";
}

// `what` names the number in the error message.
absl::StatusOr<double> ParseNumber(absl::string_view what,
                                   absl::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " \"", text, "\" is not a number"));
  }
  return value;
}

absl::StatusOr<int> ParseProbes(absl::string_view text) {
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return absl::InvalidArgumentError(
        absl::StrCat("probes \"", text, "\" is not a whole number"));
  }
  return value;
}

bool IsBloomgate(const FilterSpec& spec) {
  return spec.family == FilterFamily::kBloomgate;
}

// Whether `field` is a number (a fanout or a read time), not a keyword.
bool IsNumber(absl::string_view field) {
  return !field.empty() &&
         (std::isdigit(static_cast<unsigned char>(field.front())) ||
          field.front() == '.' || field.front() == '-' || field.front() == '+');
}

// Whether a spec's first number field is a byte size: it ends in a letter.
bool IsByteSize(absl::string_view field) {
  return IsNumber(field) &&
         std::isalpha(static_cast<unsigned char>(field.back()));
}

// "<bloomgate>/<ribbon>", nanoseconds, into spec's probe times.
absl::Status ParseProbeTimes(absl::string_view text, FilterSpec& spec) {
  const std::vector<absl::string_view> times = absl::StrSplit(text, '/');
  if (times.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("probe_ns \"", text,
                     "\" must be two times, <bloomgate>/<ribbon> nanoseconds"));
  }
  absl::StatusOr<double> bloomgate =
      ParseNumber("bloomgate's probe time", times[0]);
  if (!bloomgate.ok()) return bloomgate.status();
  absl::StatusOr<double> ribbon = ParseNumber("Ribbon's probe time", times[1]);
  if (!ribbon.ok()) return ribbon.status();
  spec.bloomgate_probe_nanos = *bloomgate;
  spec.ribbon_probe_nanos = *ribbon;
  return absl::OkStatus();
}

// "on", "off" or a half-life in probes, into spec's reach half-life.
absl::Status ParseReach(absl::string_view text, FilterSpec& spec) {
  if (text == kReachOff || text == kReachOn) {
    spec.reach_half_life = text == kReachOn ? kDefaultReachHalfLife : 0;
    return absl::OkStatus();
  }
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("reach \"", text,
                     "\" is neither on, off nor a half-life of > 0 probes"));
  }
  spec.reach_half_life = value;
  return absl::OkStatus();
}

// The optional fields after a bloomgate spec's bits per key, in order:
// [<layout>][:probes:<k>][:monkey[:<fanout>][:mixed[:<read_micros>]
// [:probe_ns:<b>/<r>]]][:pool:<name>[:reach:off|<half-life>]]. A keyed
// field may also be written <key>=<value> (probes=4), as names were once
// written; Name() writes <key>:<value>, since RocksDB's OPTIONS file drops
// a policy whose id holds '=' when it reads the file back.
absl::Status ParseBloomgateFields(absl::Span<const absl::string_view> fields,
                                  FilterSpec& spec) {
  size_t i = 0;
  auto at = [&](absl::string_view value) {
    return i < fields.size() && fields[i] == value;
  };
  // Whether a keyed field `key` is next, in either form.
  auto at_key = [&](absl::string_view key) {
    return i < fields.size() &&
           (fields[i] == key || (absl::StartsWith(fields[i], key) &&
                                 fields[i].substr(key.size(), 1) == "="));
  };
  // The value of the keyed field `key` that at_key found, consumed.
  auto take = [&](absl::string_view key) -> absl::StatusOr<absl::string_view> {
    if (fields[i] != key) return fields[i++].substr(key.size() + 1);
    if (i + 1 >= fields.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat(key, " needs a value after it"));
    }
    i += 2;
    return fields[i - 1];
  };
  // The pool's fields end the name; Validate says what they need.
  auto at_pool = [&] { return at_key(kPool) || at_key(kReach); };
  if (i < fields.size() && !at(kMonkey) && !at_key(kProbes) && !at_pool()) {
    absl::StatusOr<Layout> layout = ParseLayout(ToStd(fields[i]));
    if (!layout.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown layout \"", fields[i],
                       "\" (expected blocked, standard, probes:<k> or "
                       "monkey)"));
    }
    spec.layout = *layout;
    ++i;
  }
  if (at_key(kProbes)) {
    absl::StatusOr<absl::string_view> text = take(kProbes);
    if (!text.ok()) return text.status();
    absl::StatusOr<int> probes = ParseProbes(*text);
    if (!probes.ok()) return probes.status();
    spec.num_probes = *probes;
  }
  if (i < fields.size() && !at_pool()) {
    if (!at(kMonkey)) {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown option \"", fields[i],
                       "\" (expected probes:<k> or monkey)"));
    }
    spec.monkey = true;
    ++i;
    if (at_key(kProbeTimes)) {
      return absl::InvalidArgumentError(
          "probe times are for mixed families: probe_ns needs mixed");
    }
    if (i < fields.size() && !at(kMixed) && !at_pool()) {
      absl::StatusOr<double> fanout = ParseNumber("fanout", fields[i++]);
      if (!fanout.ok()) return fanout.status();
      spec.fanout = *fanout;
    }
    if (at(kMixed)) {
      spec.mixed = true;
      ++i;
      if (i < fields.size() && IsNumber(fields[i])) {
        absl::StatusOr<double> read = ParseNumber("read time", fields[i++]);
        if (!read.ok()) return read.status();
        spec.read_micros = *read;
      }
      if (at_key(kProbeTimes)) {
        absl::StatusOr<absl::string_view> text = take(kProbeTimes);
        if (!text.ok()) return text.status();
        if (absl::Status s = ParseProbeTimes(*text, spec); !s.ok()) return s;
      }
    }
  }
  if (at_key(kPool)) {
    absl::StatusOr<absl::string_view> pool = take(kPool);
    if (!pool.ok()) return pool.status();
    if (pool->empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("pool name \"\" must be 1 to ", PoolName::kMaxLength,
                       " letters, digits, '_', '-' or '.'"));
    }
    spec.pool = ToStd(*pool);
  }
  if (at_key(kReach)) {
    absl::StatusOr<absl::string_view> reach = take(kReach);
    if (!reach.ok()) return reach.status();
    if (absl::Status s = ParseReach(*reach, spec); !s.ok()) return s;
  }
  if (i < fields.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected \"", fields[i], "\" at the end"));
  }
  return absl::OkStatus();
}

absl::Status ValidateProbeTimes(const FilterSpec& spec) {
  const double bloomgate = spec.bloomgate_probe_nanos;
  const double ribbon = spec.ribbon_probe_nanos;
  if (bloomgate == 0 && ribbon == 0) return absl::OkStatus();
  if (!spec.mixed) {
    return absl::InvalidArgumentError(
        "probe times are for mixed families: probe_ns needs mixed");
  }
  // Written so that NaN fails too.
  if (!(bloomgate > 0 && std::isfinite(bloomgate) && ribbon > 0 &&
        std::isfinite(ribbon))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "probe times must both be finite numbers > 0 nanoseconds (or both 0, "
        "the defaults), got ",
        bloomgate, "/", ribbon));
  }
  return absl::OkStatus();
}

absl::Status ValidateMemoryBudget(const FilterSpec& spec) {
  if (spec.memory_budget_bytes == 0) return absl::OkStatus();
  if (!spec.monkey) {
    return absl::InvalidArgumentError(
        "a memory budget is shared out by level: it needs monkey");
  }
  if (spec.memory_budget_bytes < kMinMemoryBudgetBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("memory budget of ", spec.memory_budget_bytes,
                     " bytes is below the smallest filter, ",
                     kMinMemoryBudgetBytes, " bytes"));
  }
  if (spec.bits_per_key != FilterSpec{}.bits_per_key) {
    return absl::InvalidArgumentError(
        "a memory budget replaces bits per key: give one or the other");
  }
  return absl::OkStatus();
}

absl::Status ValidatePool(const FilterSpec& spec) {
  const std::string_view name = spec.pool.view();
  if (spec.pool.empty()) {
    if (spec.reach_half_life == 0) return absl::OkStatus();
    return absl::InvalidArgumentError(
        "measured reach weighs a pool's files: reach needs pool:<name>");
  }
  const bool well_formed =
      !name.empty() && !spec.pool.too_long() &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
               c == '-' || c == '.';
      });
  if (!well_formed) {
    return absl::InvalidArgumentError(absl::StrCat(
        "pool name \"", ToAbsl(name), spec.pool.too_long() ? "..." : "",
        "\" must be 1 to ", PoolName::kMaxLength,
        " letters, digits, '_', '-' or '.'"));
  }
  if (spec.memory_budget_bytes == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("pool \"", ToAbsl(name),
                     "\" needs its size where the bits per key stand, e.g. "
                     "bloomgate:256MiB:monkey:pool:",
                     ToAbsl(name)));
  }
  return absl::OkStatus();
}

// OptimalNumProbes takes only what a block can hold.
double ClampBits(double bits) {
  return std::clamp(bits, kMinBitsPerKey, kMaxBitsPerKey);
}

}  // namespace

PoolName::PoolName(std::string_view name)
    : size_(static_cast<uint8_t>(std::min(name.size(), kMaxLength))),
      too_long_(name.size() > kMaxLength) {
  std::copy_n(name.data(), size_, chars_.data());
}

std::string FilterSpec::Name() const {
  switch (family) {
    case FilterFamily::kNone:
      return "none";
    case FilterFamily::kRocksDBBloom:
    case FilterFamily::kRocksDBRibbon:
      return absl::StrCat(KindName(), ":", FormatNumber(bits_per_key));
    case FilterFamily::kBloomgate:
      break;
  }
  std::string name = absl::StrCat("bloomgate:",
                                  memory_budget_bytes != 0
                                      ? FormatByteSize(memory_budget_bytes)
                                      : FormatNumber(bits_per_key),
                                  ":", LayoutName(layout));
  if (num_probes != 0) absl::StrAppend(&name, ":", kProbes, ":", num_probes);
  if (monkey) {
    absl::StrAppend(&name, ":", kMonkey);
    if (fanout != FilterSpec{}.fanout) {
      absl::StrAppend(&name, ":", FormatNumber(fanout));
    }
    if (mixed) {
      absl::StrAppend(&name, ":", kMixed);
      if (read_micros != FilterSpec{}.read_micros) {
        absl::StrAppend(&name, ":", FormatNumber(read_micros));
      }
      if (bloomgate_probe_nanos != 0 || ribbon_probe_nanos != 0) {
        absl::StrAppend(&name, ":", kProbeTimes, ":",
                        FormatNumber(bloomgate_probe_nanos), "/",
                        FormatNumber(ribbon_probe_nanos));
      }
    }
  }
  if (!pool.empty()) {
    absl::StrAppend(&name, ":", kPool, ":", ToAbsl(pool.view()));
    if (reach_half_life != 0) {
      absl::StrAppend(&name, ":", kReach, ":",
                      reach_half_life == kDefaultReachHalfLife
                          ? std::string(kReachOn)
                          : absl::StrCat(reach_half_life));
    }
  }
  return name;
}

std::string FilterSpec::KindName() const {
  for (const FilterKindInfo& kind : kKinds) {
    if (kind.spec.SameKind(*this)) return std::string(kind.name);
  }
  return absl::StrCat("bloomgate:", LayoutName(layout), monkey ? ":monkey" : "",
                      mixed ? ":mixed" : "");
}

bool FilterSpec::SameKind(const FilterSpec& other) const {
  return family == other.family &&
         (!IsBloomgate(*this) ||
          (layout == other.layout && monkey == other.monkey &&
           mixed == other.mixed));
}

absl::StatusOr<FilterSpec> FilterSpec::Parse(std::string_view text) {
  const std::vector<absl::string_view> fields =
      absl::StrSplit(ToAbsl(text), ':');
  const FilterKindInfo* kind = FindKind(ToStd(fields[0]));
  if (kind == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown filter '", fields[0], "'; expected one of ", KindList()));
  }
  FilterSpec spec = kind->spec;
  if (fields.size() > 1) {
    if (spec.family == FilterFamily::kNone) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"", ToAbsl(kind->name), "\" takes no options"));
    }
    if (IsByteSize(fields[1])) {
      absl::StatusOr<uint64_t> budget = ParseByteSize(ToStd(fields[1]));
      if (!budget.ok()) return budget.status();
      if (*budget == 0) {
        return absl::InvalidArgumentError(
            "a memory budget of 0 bytes holds no filter (use \"none\")");
      }
      spec.memory_budget_bytes = *budget;
    } else {
      absl::StatusOr<double> bits = ParseNumber("bits per key", fields[1]);
      if (!bits.ok()) return bits.status();
      spec.bits_per_key = *bits;
    }
    const absl::Span<const absl::string_view> rest =
        absl::MakeConstSpan(fields).subspan(2);
    if (IsBloomgate(spec)) {
      if (absl::Status s = ParseBloomgateFields(rest, spec); !s.ok()) return s;
    } else if (!rest.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected \"", rest.front(),
                       "\": ", ToAbsl(kind->name), " takes only bits per key"));
    }
  }
  if (absl::Status s = spec.Validate(); !s.ok()) return s;
  return spec;
}

absl::Status FilterSpec::Validate() const {
  switch (family) {
    case FilterFamily::kNone:
      return absl::OkStatus();
    case FilterFamily::kBloomgate:
    case FilterFamily::kRocksDBBloom:
    case FilterFamily::kRocksDBRibbon:
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("unknown filter family ", static_cast<int>(family)));
  }
  if (absl::Status s = ValidateFilterOptions(Options()); !s.ok()) return s;
  if (!IsBloomgate(*this) &&
      (layout != Layout::kBlocked || num_probes != 0 || monkey || mixed ||
       memory_budget_bytes != 0 || !pool.empty())) {
    return absl::InvalidArgumentError(
        absl::StrCat(KindName(),
                     " takes bits per key only (no layout, probes, monkey, "
                     "mixed, memory budget or pool)"));
  }
  if (mixed && !monkey) {
    return absl::InvalidArgumentError(
        "mixed families are level-aware: mixed needs monkey");
  }
  if (mixed && !(read_micros >= 0 && std::isfinite(read_micros))) {
    return absl::InvalidArgumentError(
        absl::StrCat("read time must be a finite number >= 0 microseconds, "
                     "got ",
                     read_micros));
  }
  if (absl::Status s = ValidateProbeTimes(*this); !s.ok()) return s;
  if (absl::Status s = ValidateMemoryBudget(*this); !s.ok()) return s;
  if (absl::Status s = ValidatePool(*this); !s.ok()) return s;
  // Written so that NaN fails too.
  if (monkey && !(fanout >= kMinFanout && fanout <= kMaxFanout)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fanout must be a number within [", kMinFanout, ", ", kMaxFanout, "]"));
  }
  return absl::OkStatus();
}

FilterOptions FilterSpec::Options(double bits) const {
  return FilterOptions{
      .bits_per_key = bits, .layout = layout, .num_probes = num_probes};
}

absl::StatusOr<std::vector<double>> FilterSpec::LevelBitsPerKey(
    int num_levels) const {
  if (absl::Status s = Validate(); !s.ok()) return s;
  if (family == FilterFamily::kNone) {
    return absl::InvalidArgumentError("no filter, no bits per key");
  }
  if (num_levels < 1) {
    return absl::InvalidArgumentError("num_levels must be at least 1");
  }
  if (!monkey) return std::vector<double>(num_levels, bits_per_key);
  if (mixed) {
    absl::StatusOr<std::vector<RunFilter>> filters =
        LevelFilters(*this, num_levels);
    if (!filters.ok()) return filters.status();
    std::vector<double> bits;
    for (const RunFilter& f : *filters) bits.push_back(f.bits_per_key);
    return bits;
  }
  return MonkeyBitsPerKey(layout, bits_per_key,
                          LeveledShape(num_levels, fanout));
}

uint64_t FilterSpec::BitsFor(uint64_t num_keys, double bits) const {
  switch (family) {
    case FilterFamily::kNone:
      return 0;
    case FilterFamily::kBloomgate:
      return internal::NumBitsFor(layout, bits, num_keys);
    case FilterFamily::kRocksDBBloom:
      return internal::NumBitsFor(Layout::kBlocked, bits, num_keys);
    case FilterFamily::kRocksDBRibbon:
      return static_cast<uint64_t>(
          std::ceil(static_cast<double>(num_keys) * bits));
  }
  return 0;
}

int FilterSpec::NumProbes(double bits) const {
  if (family == FilterFamily::kNone) return 0;
  if (IsBloomgate(*this) && num_probes != 0) return num_probes;
  return OptimalNumProbes(IsBloomgate(*this) ? layout : Layout::kBlocked,
                          ClampBits(bits));
}

double FilterSpec::PredictedFpRate(uint64_t num_keys, double bits) const {
  if (family == FilterFamily::kNone || !(bits > 0)) return 1.0;
  return PredictedFilterFpRate(IsBloomgate(*this) ? layout : Layout::kBlocked,
                               num_keys, BitsFor(num_keys, bits),
                               NumProbes(bits));
}

uint64_t FilterSpec::BlockBytes(uint64_t num_keys, double bits) const {
  if (!IsBloomgate(*this)) return 0;
  return internal::BlockBytes(BitsFor(num_keys, bits));
}

double FilterSpec::PredictedBlockFpRate(uint64_t num_keys, uint64_t block_bytes,
                                        int probes) const {
  if (probes == 0 && num_keys > 0) {
    probes = NumProbes(8.0 * static_cast<double>(block_bytes) /
                       static_cast<double>(num_keys));
  }
  return PredictedFilterFpRate(layout, num_keys,
                               internal::BlockArrayBits(block_bytes), probes);
}

absl::StatusOr<uint64_t> ParseByteSize(std::string_view text) {
  const absl::string_view t = ToAbsl(text);
  size_t digits = t.size();
  while (digits > 0 &&
         std::isalpha(static_cast<unsigned char>(t[digits - 1]))) {
    --digits;
  }
  const absl::string_view unit = t.substr(digits);
  const ByteUnit* found = nullptr;
  for (const ByteUnit& u : kByteUnits) {
    if (u.name == unit) found = &u;
  }
  if (found == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("size \"", t, "\": unknown unit \"", unit,
                     "\" (expected B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)"));
  }
  absl::StatusOr<double> number = ParseNumber("size", t.substr(0, digits));
  if (!number.ok()) return number.status();
  const double bytes = std::round(*number * static_cast<double>(found->bytes));
  // Written so that NaN fails too.
  if (!(bytes >= 0 && bytes <= 0x1p63)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "size \"", t, "\" must be a number of bytes in [0, 2^63]"));
  }
  return static_cast<uint64_t>(bytes);
}

std::string FormatByteSize(uint64_t bytes) {
  for (size_t i = 0; i < kFormattedUnits; ++i) {
    const ByteUnit& u = kByteUnits[i];
    if (bytes != 0 && bytes % u.bytes == 0) {
      return absl::StrCat(bytes / u.bytes, u.name);
    }
  }
  return absl::StrCat(bytes, "B");
}

absl::Span<const FilterKindInfo> FilterKinds() { return kKinds; }

absl::StatusOr<FilterSpec> FilterKindSpec(std::string_view name,
                                          double bits_per_key) {
  const FilterKindInfo* kind = FindKind(name);
  if (kind == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown filter '", ToAbsl(name), "'; expected one of ", KindList()));
  }
  FilterSpec spec = kind->spec;
  spec.bits_per_key = bits_per_key;
  return spec;
}

}  // namespace bloomgate
