// Copyright 2026 The bloomgate Authors.

#include "tools/bench/bench_options.h"

#include <cmath>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/lsm/store.h"
#include "tools/bench/monkey.h"

namespace bloomgate::bench {
namespace {

template <typename Kind>
struct NamedKind {
  std::string_view name;
  Kind kind;
};

constexpr NamedKind<EngineKind> kEngines[] = {
    {"lsm", EngineKind::kLsm},
    {"rocksdb", EngineKind::kRocksDB},
};

constexpr NamedKind<BenchmarkKind> kBenchmarks[] = {
    {"fillrandom", BenchmarkKind::kFillRandom},
    {"fillseq", BenchmarkKind::kFillSeq},
    {"filllevels", BenchmarkKind::kFillLevels},
    {"readrandom", BenchmarkKind::kReadRandom},
    {"readmissing", BenchmarkKind::kReadMissing},
    {"multireadmissing", BenchmarkKind::kMultiReadMissing},
    {"readmixed", BenchmarkKind::kReadMixed},
    {"stats", BenchmarkKind::kStats},
    {"rewritefilters", BenchmarkKind::kRewriteFilters},
};

template <typename Kind, size_t N>
std::string_view NameOf(const NamedKind<Kind> (&table)[N], Kind kind) {
  for (const auto& entry : table) {
    if (entry.kind == kind) return entry.name;
  }
  return "unknown";
}

template <typename Kind, size_t N>
absl::StatusOr<Kind> Parse(const NamedKind<Kind> (&table)[N],
                           std::string_view what, std::string_view name) {
  std::vector<std::string> names;
  for (const auto& entry : table) {
    if (entry.name == name) return entry.kind;
    names.emplace_back(entry.name);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown ", ToAbsl(what), " '", ToAbsl(name),
                   "'; expected one of ", absl::StrJoin(names, ", ")));
}

// A comma-separated list, each item parsed by `parse_one`.
template <typename Kind, typename ParseOne>
absl::StatusOr<std::vector<Kind>> ParseList(std::string_view what,
                                            std::string_view list,
                                            ParseOne parse_one) {
  std::vector<Kind> kinds;
  for (absl::string_view item :
       absl::StrSplit(ToAbsl(list), ',', absl::SkipEmpty())) {
    absl::StatusOr<Kind> kind = parse_one(ToStd(item));
    if (!kind.ok()) return kind.status();
    kinds.push_back(*kind);
  }
  if (kinds.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("empty list of ", ToAbsl(what), "s"));
  }
  return kinds;
}

template <typename Kind, size_t N>
absl::StatusOr<std::vector<Kind>> ParseList(const NamedKind<Kind> (&table)[N],
                                            std::string_view what,
                                            std::string_view list) {
  return ParseList<Kind>(what, list, [&](std::string_view name) {
    return Parse(table, what, name);
  });
}

absl::Status Invalid(std::string_view flag, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("--", ToAbsl(flag), ": ", ToAbsl(why)));
}

// The steps of ValidateBenchOptions, in the order it takes them; each
// returns the first problem it finds.

// Something to run: benchmarks, engines and filters.
absl::Status ValidateLists(const BenchOptions& o) {
  if (o.benchmarks.empty()) return Invalid("benchmarks", "empty");
  if (o.engines.empty()) return Invalid("engine", "empty");
  if (o.filters.empty()) return Invalid("filter", "empty");
  if (o.memory_reference.empty() || o.memory_reference == "none") {
    return absl::OkStatus();
  }
  if (!o.sweep_bits.empty()) {
    return Invalid("memory_reference",
                   "does not apply with --sweep_bits, which gives every "
                   "filter each memory");
  }
  for (const FilterArg& f : o.filters) {
    if (!f.own_parameter && f.spec.family != FilterFamily::kNone &&
        f.spec.KindName() == o.memory_reference) {
      return absl::OkStatus();
    }
  }
  return Invalid("memory_reference",
                 absl::StrCat("\"", o.memory_reference,
                              "\" is not a filter of --filter without its own "
                              "parameter (or none)"));
}

// The keys, values and lookups of the workload.
absl::Status ValidateWorkload(const BenchOptions& o) {
  if (o.num < 2) return Invalid("num", "must be at least 2");
  if (o.reads < 0) return Invalid("reads", "must not be negative");
  if (o.filterless_reads < 0) {
    return Invalid("filterless_reads", "must not be negative");
  }
  if (o.key_size < 1 || o.key_size > 1024) {
    return Invalid("key_size", "must be in [1, 1024]");
  }
  if (o.grow_to != 0) {
    if (o.grow_to <= o.num) {
      return Invalid("grow_to", absl::StrCat("must be more than --num=", o.num,
                                             " (or 0: no growth)"));
    }
    if (o.grow_steps < 2 || o.grow_steps > 64) {
      return Invalid("grow_steps", "must be in [2, 64]");
    }
    if (o.grow_to - o.num < o.grow_steps - 1) {
      return Invalid("grow_steps", "more steps than keys to add");
    }
    if (!o.sweep_bits.empty()) {
      return Invalid("grow_to", "grows at one memory: not with --sweep_bits");
    }
    if (o.use_existing_db) {
      return Invalid("grow_to",
                     "grows fresh databases: not with "
                     "--use_existing_db");
    }
  }
  // Keys are decimal slot numbers (workload.h): 2 * keys slots must fit.
  const int64_t keys = KeySpaceKeys(o);
  if (std::to_string(2 * keys - 1).size() > static_cast<size_t>(o.key_size)) {
    return Invalid("key_size",
                   absl::StrCat("too small for ", keys, " keys: needs ",
                                std::to_string(2 * keys - 1).size(), " bytes"));
  }
  if (o.value_size < 0 || o.value_size > (1 << 20)) {
    return Invalid("value_size", "must be in [0, 1048576]");
  }
  if (!(o.negative_ratio >= 0 && o.negative_ratio <= 1)) {
    return Invalid("negative_ratio", "must be in [0, 1]");
  }
  if (!(o.bloom_bits >= 0.1 && o.bloom_bits <= 100)) {
    return Invalid("bloom_bits", "must be in [0.1, 100]");
  }
  for (double bits : o.sweep_bits) {
    if (!(bits >= 0.1 && bits <= 100)) {
      return Invalid("sweep_bits", "every memory must be in [0.1, 100]");
    }
  }
  if (o.batch_size < 1 || o.batch_size > 100000) {
    return Invalid("batch_size", "must be in [1, 100000]");
  }
  if (o.threads < 1 || o.threads > 256) {
    return Invalid("threads", "must be in [1, 256]");
  }
  if (o.multiget_batch < 1 || o.multiget_batch > 10000) {
    return Invalid("multiget_batch", "must be in [1, 10000]");
  }
  return absl::OkStatus();
}

// What the engines run on: their settings, and the device the latency
// model stands for.
absl::Status ValidateEngineSettings(const BenchOptions& o) {
  if (o.engine.write_buffer_size < 64 << 10) {
    return Invalid("write_buffer_size", "must be at least 65536");
  }
  if (o.engine.target_file_size_base < 64 << 10) {
    return Invalid("target_file_size_base", "must be at least 65536");
  }
  if (o.engine.max_bytes_for_level_base < 64 << 10) {
    return Invalid("max_bytes_for_level_base", "must be at least 65536");
  }
  if (!(o.engine.max_bytes_for_level_multiplier >= 2 &&
        o.engine.max_bytes_for_level_multiplier <= 1000)) {
    return Invalid("max_bytes_for_level_multiplier", "must be in [2, 1000]");
  }
  if (o.engine.num_levels < 2 || o.engine.num_levels > 20) {
    return Invalid("num_levels", "must be in [2, 20]");
  }
  if (o.engine.cache_size < 0)
    return Invalid("cache_size", "must not be negative");
  if (!(o.io_latency_us >= 0 && o.io_latency_us <= 1e7)) {
    return Invalid("io_latency_us", "must be in [0, 10000000]");
  }
  if (o.read_micros.has_value() &&
      !(*o.read_micros >= 0 && *o.read_micros <= 1e7)) {
    return Invalid("read_micros", "must be in [0, 10000000]");
  }
  return absl::OkStatus();
}

// The tree filllevels builds and level-aware filters allocate for.
absl::Status ValidateLevels(const BenchOptions& o) {
  for (BenchmarkKind b : o.benchmarks) {
    if (b != BenchmarkKind::kFillLevels) continue;
    // Compactions of their own would reshape the tree being built.
    if (!o.engine.disable_auto_compactions) {
      return Invalid("benchmarks",
                     "filllevels needs --disable_auto_compactions=true");
    }
    absl::StatusOr<std::vector<int64_t>> weights = LevelWeights(
        o.engine.num_levels, o.engine.max_bytes_for_level_multiplier, o.num);
    if (!weights.ok())
      return Invalid("num", std::string(weights.status().message()));
  }
  for (const FilterArg& f : o.filters) {
    if (!f.spec.monkey) continue;
    absl::StatusOr<std::vector<double>> bits =
        FilterForRun(f, o).LevelBitsPerKey(o.engine.num_levels);
    if (!bits.ok()) {
      return Invalid("filter", absl::StrCat(f.spec.KindName(), ": ",
                                            bits.status().message()));
    }
  }
  return absl::OkStatus();
}

// Flags that need another flag.
absl::Status ValidateFlagPairs(const BenchOptions& o) {
  if (o.require_direct_reads && !o.engine.use_direct_reads) {
    return Invalid("require_direct_reads", "needs --use_direct_reads");
  }
  if (o.use_existing_db && o.db.empty()) {
    return Invalid("use_existing_db", "needs --db");
  }
  return absl::OkStatus();
}

// Every engine runs at least one of the filters.
absl::Status ValidateEngineFilters(const BenchOptions& o) {
  for (EngineKind engine : o.engines) {
    bool any = false;
    for (const FilterArg& filter : o.filters) {
      any |= EngineSupports(engine, filter.spec);
    }
    if (!any) {
      return Invalid("filter",
                     absl::StrCat("none of the filters runs on --engine=",
                                  ToAbsl(EngineName(engine))));
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::string_view EngineName(EngineKind engine) {
  return NameOf(kEngines, engine);
}
std::string_view BenchmarkName(BenchmarkKind benchmark) {
  return NameOf(kBenchmarks, benchmark);
}

bool IsFillBenchmark(BenchmarkKind benchmark) {
  return benchmark == BenchmarkKind::kFillRandom ||
         benchmark == BenchmarkKind::kFillSeq ||
         benchmark == BenchmarkKind::kFillLevels;
}

absl::StatusOr<EngineKind> ParseEngine(std::string_view name) {
  return Parse(kEngines, "engine", name);
}
absl::StatusOr<BenchmarkKind> ParseBenchmark(std::string_view name) {
  return Parse(kBenchmarks, "benchmark", name);
}
absl::StatusOr<std::vector<EngineKind>> ParseEngineList(std::string_view list) {
  return ParseList(kEngines, "engine", list);
}
absl::StatusOr<std::vector<FilterArg>> ParseFilterList(std::string_view list) {
  return ParseList<FilterArg>(
      "filter", list, [](std::string_view item) -> absl::StatusOr<FilterArg> {
        if (item.find(':') == std::string_view::npos) {
          absl::StatusOr<FilterSpec> kind =
              FilterKindSpec(item, FilterSpec{}.bits_per_key);
          if (!kind.ok()) return kind.status();
          return FilterArg{.spec = *kind};
        }
        absl::StatusOr<FilterSpec> spec = FilterSpec::Parse(item);
        if (!spec.ok()) return spec.status();
        return FilterArg{.spec = *spec,
                         .own_parameter = spec->family != FilterFamily::kNone};
      });
}
absl::StatusOr<std::vector<BenchmarkKind>> ParseBenchmarkList(
    std::string_view list) {
  return ParseList(kBenchmarks, "benchmark", list);
}

bool EngineSupports(EngineKind engine, const FilterSpec& filter) {
  switch (engine) {
    case EngineKind::kLsm:
      return lsm::BuildsFilter(filter);
    case EngineKind::kRocksDB:
      return true;
  }
  return false;
}

FilterSpec FilterForRun(const FilterArg& filter, const BenchOptions& options,
                        std::optional<double> bits) {
  FilterSpec spec = filter.spec;
  if (filter.own_parameter) {
    // A name that gives the memory, not the read and probe times, e.g.
    // bloomgate_mixed:64MiB, takes the run's.
    if (spec.mixed && spec.read_micros == kDefaultDeviceReadMicros) {
      spec.read_micros = ReadMicros(options);
    }
    if (spec.mixed && spec.bloomgate_probe_nanos == 0) {
      spec.bloomgate_probe_nanos = options.bloomgate_probe_nanos;
      spec.ribbon_probe_nanos = options.ribbon_probe_nanos;
    }
    return spec;
  }
  spec.bits_per_key = bits.value_or(options.bloom_bits);
  if (spec.monkey) spec.fanout = options.engine.max_bytes_for_level_multiplier;
  if (spec.mixed) {
    spec.read_micros = ReadMicros(options);
    spec.bloomgate_probe_nanos = options.bloomgate_probe_nanos;
    spec.ribbon_probe_nanos = options.ribbon_probe_nanos;
  }
  return spec;
}

double ReadMicros(const BenchOptions& options) {
  if (options.read_micros.has_value()) return *options.read_micros;
  if (!options.engine.use_direct_reads) return kDefaultPageCacheReadMicros;
  return std::isnan(options.measured_read_micros)
             ? kDefaultDeviceReadMicros
             : options.measured_read_micros;
}

std::vector<int64_t> GrowthSteps(int64_t num, int64_t grow_to, int steps) {
  std::vector<int64_t> keys;
  const double ratio = static_cast<double>(grow_to) / static_cast<double>(num);
  for (int i = 0; i < steps; ++i) {
    const double at =
        static_cast<double>(num) * std::pow(ratio, i / (steps - 1.0));
    int64_t n = i == steps - 1 ? grow_to : std::llround(at);
    if (!keys.empty()) n = std::max(n, keys.back() + 1);
    keys.push_back(std::min(n, grow_to));
  }
  return keys;
}

int64_t KeySpaceKeys(const BenchOptions& o) {
  return o.grow_to > 0 ? o.grow_to : o.num;
}

absl::Status ValidateBenchOptions(const BenchOptions& o) {
  for (absl::Status (*validate)(const BenchOptions&) :
       {ValidateLists, ValidateWorkload, ValidateEngineSettings, ValidateLevels,
        ValidateFlagPairs, ValidateEngineFilters}) {
    if (absl::Status s = validate(o); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::bench
