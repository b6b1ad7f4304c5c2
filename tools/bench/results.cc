// Copyright 2026 The bloomgate Authors.

#include "tools/bench/results.h"

#include <cmath>
#include <concepts>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"

namespace bloomgate::bench {
namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// How each type of field is written: a number the run may not have measured
// (NaN, infinity) as null, kinds by their names.

OrderedJson Write(double v) {
  return std::isfinite(v) ? OrderedJson(v) : OrderedJson(nullptr);
}

template <std::integral T>
OrderedJson Write(T v) {
  return v;
}

template <typename T>
OrderedJson Write(const std::vector<T>& values) {
  OrderedJson array = OrderedJson::array();
  for (const T& v : values) array.push_back(Write(v));
  return array;
}

OrderedJson Write(EngineKind engine) { return EngineName(engine); }
OrderedJson Write(BenchmarkKind benchmark) { return BenchmarkName(benchmark); }
OrderedJson Write(const FilterSpec& filter) { return filter.KindName(); }
OrderedJson Write(const std::string& text) { return text; }

// LatencySummary's times, in the JSON's order after its count.
constexpr std::pair<std::string_view, double LatencySummary::*>
    kLatencyFields[] = {
        {"mean_us", &LatencySummary::mean_us},
        {"min_us", &LatencySummary::min_us},
        {"p50_us", &LatencySummary::p50_us},
        {"p90_us", &LatencySummary::p90_us},
        {"p99_us", &LatencySummary::p99_us},
        {"p999_us", &LatencySummary::p999_us},
        {"max_us", &LatencySummary::max_us},
};

OrderedJson Write(const LatencySummary& s) {
  OrderedJson object = {{"count", s.count}};
  for (const auto& [key, time] : kLatencyFields) {
    object[std::string(key)] = Write(s.*time);
  }
  return object;
}

OrderedJson Write(const EngineCounters& counters) {
  OrderedJson object = OrderedJson::object();
  for (const auto& [name, value] : counters) object[name] = Write(value);
  return object;
}

OrderedJson Write(const std::vector<std::pair<double, double>>& points) {
  return points;
}

// How each is read back: null (not measured) as NaN. A missing field (`j`
// null) leaves the default but for numbers. Only a kind's name can be wrong.

absl::Status Read(const OrderedJson& j, double* v) {
  *v = j.is_number() ? j.get<double>() : kNaN;
  return absl::OkStatus();
}

template <std::integral T>
absl::Status Read(const OrderedJson& j, T* v) {
  if (j.is_number() || j.is_boolean()) *v = j.get<T>();
  return absl::OkStatus();
}

template <typename T>
absl::Status Read(const OrderedJson& j, std::vector<T>* values) {
  if (!j.is_array()) return absl::OkStatus();
  values->assign(j.size(), T{});
  for (size_t i = 0; i < j.size(); ++i) {
    if (absl::Status s = Read(j[i], &(*values)[i]); !s.ok()) return s;
  }
  return absl::OkStatus();
}

template <typename Kind, typename Parse>
absl::Status ReadKind(const OrderedJson& j, Parse parse, Kind* kind) {
  if (!j.is_string()) return absl::OkStatus();
  absl::StatusOr<Kind> parsed = parse(j.get<std::string>());
  if (!parsed.ok()) return parsed.status();
  *kind = *parsed;
  return absl::OkStatus();
}

absl::Status Read(const OrderedJson& j, EngineKind* engine) {
  return ReadKind(j, &ParseEngine, engine);
}
absl::Status Read(const OrderedJson& j, BenchmarkKind* benchmark) {
  return ReadKind(j, &ParseBenchmark, benchmark);
}
absl::Status Read(const OrderedJson& j, FilterSpec* filter) {
  return ReadKind(
      j,
      [](std::string_view name) {
        return FilterKindSpec(name, FilterSpec{}.bits_per_key);
      },
      filter);
}

absl::Status Read(const OrderedJson& j, std::string* text) {
  if (j.is_string()) *text = j.get<std::string>();
  return absl::OkStatus();
}

absl::Status Read(const OrderedJson& j, LatencySummary* s) {
  if (!j.is_object()) return absl::OkStatus();
  auto field = [&](std::string_view key) {
    const auto it = j.find(std::string(key));
    return it == j.end() ? OrderedJson() : *it;
  };
  Read(field("count"), &s->count).IgnoreError();
  for (const auto& [key, time] : kLatencyFields) {
    Read(field(key), &(s->*time)).IgnoreError();
  }
  return absl::OkStatus();
}

absl::Status Read(const OrderedJson& j, EngineCounters* counters) {
  if (!j.is_object()) return absl::OkStatus();
  counters->clear();
  for (const auto& [name, value] : j.items()) {
    double v = kNaN;
    Read(value, &v).IgnoreError();
    counters->emplace_back(name, v);
  }
  return absl::OkStatus();
}

absl::Status Read(const OrderedJson& j,
                  std::vector<std::pair<double, double>>* points) {
  if (!j.is_array()) return absl::OkStatus();
  points->clear();
  for (const OrderedJson& point : j) {
    if (!point.is_array() || point.size() != 2 || !point[0].is_number() ||
        !point[1].is_number()) {
      return absl::InvalidArgumentError("a CDF point is not [x, y]");
    }
    points->emplace_back(point[0].get<double>(), point[1].get<double>());
  }
  return absl::OkStatus();
}

// One field of BenchResult in the JSON: its key, how it is written and read,
// and when a result has it.
struct ResultField {
  std::string_view key;
  OrderedJson (*write)(const BenchResult&);
  absl::Status (*read)(const OrderedJson&, BenchResult*);
  // Written only when this flag of the result is set; reading the field
  // sets it. Null: no such flag.
  bool BenchResult::*group = nullptr;
  // Written only when this holds; null: always.
  bool (*when)(const BenchResult&) = nullptr;
};

template <auto kMember>
constexpr ResultField Field(std::string_view key,
                            bool BenchResult::*group = nullptr,
                            bool (*when)(const BenchResult&) = nullptr) {
  return {key, [](const BenchResult& r) { return Write(r.*kMember); },
          [](const OrderedJson& j, BenchResult* r) {
            return Read(j, &(r->*kMember));
          },
          group, when};
}

bool IsFill(const BenchResult& r) { return IsFillBenchmark(r.benchmark); }
bool IsRead(const BenchResult& r) { return !r.lookup_dist.empty(); }
bool IsGrowth(const BenchResult& r) { return r.grown_keys > 0; }
bool HasBudget(const BenchResult& r) {
  return r.filter.memory_budget_bytes != 0;
}
bool HasEngineCounters(const BenchResult& r) {
  return !r.engine_counters.empty();
}
bool HasCdf(const BenchResult& r) { return !r.miss_latency_cdf.empty(); }

// Every field of the JSON, in the order docs/evaluation.md lists them.
constexpr ResultField kResultFields[] = {
    Field<&BenchResult::engine>("engine"),
    Field<&BenchResult::filter>("filter"),
    // The filter as it ran, with its numbers (FilterSpec::Name): read after
    // "filter", it replaces the kind's defaults.
    {"filter_spec",
     [](const BenchResult& r) { return OrderedJson(r.filter.Name()); },
     [](const OrderedJson& j, BenchResult* r) {
       return ReadKind(j, &FilterSpec::Parse, &r->filter);
     }},
    Field<&BenchResult::own_parameter>("own_parameter"),
    // The filter's memory budget in bytes, for readers of the JSON; read
    // back with "filter_spec".
    {"memory_budget_bytes",
     [](const BenchResult& r) {
       return OrderedJson(r.filter.memory_budget_bytes);
     },
     [](const OrderedJson&, BenchResult*) { return absl::OkStatus(); }, nullptr,
     &HasBudget},
    Field<&BenchResult::benchmark>("benchmark"),
    Field<&BenchResult::bloom_bits>("bloom_bits"),
    Field<&BenchResult::grown_keys>("grown_keys", nullptr, &IsGrowth),
    Field<&BenchResult::threads>("threads"),
    Field<&BenchResult::lookup_dist>("lookup_dist", nullptr, &IsRead),
    Field<&BenchResult::ops>("ops"),
    Field<&BenchResult::seconds>("seconds"),
    Field<&BenchResult::micros_per_op>("micros_per_op"),
    Field<&BenchResult::ops_per_sec>("ops_per_sec"),
    Field<&BenchResult::mb_per_sec>("mb_per_sec", nullptr, &IsFill),
    Field<&BenchResult::hits>("hits"),
    Field<&BenchResult::misses>("misses"),
    Field<&BenchResult::found>("found"),
    Field<&BenchResult::ios>("ios"),
    Field<&BenchResult::ios_per_op>("ios_per_op"),
    Field<&BenchResult::ios_per_hit>("ios_per_hit"),
    Field<&BenchResult::ios_per_miss>("ios_per_miss"),
    Field<&BenchResult::files_on_path_per_op>("files_on_path_per_op"),
    Field<&BenchResult::covering_files_per_miss>("covering_files_per_miss"),
    Field<&BenchResult::filter_checks>("filter_checks"),
    Field<&BenchResult::filter_negatives>("filter_negatives"),
    Field<&BenchResult::false_positives>("filter_false_positives"),
    Field<&BenchResult::ios_avoided_pct>("ios_avoided_pct"),
    Field<&BenchResult::fp_observed>("fp_observed"),
    Field<&BenchResult::fp_predicted>("fp_predicted"),
    Field<&BenchResult::ios_per_miss_predicted>("ios_per_miss_predicted"),
    Field<&BenchResult::ios_per_miss_floor>("ios_per_miss_floor"),
    Field<&BenchResult::ios_per_miss_mix_floor>("ios_per_miss_mix_floor"),
    Field<&BenchResult::engine_counters>("engine_counters", nullptr,
                                         &HasEngineCounters),
    Field<&BenchResult::filter_bytes>("filter_bytes"),
    Field<&BenchResult::largest_filter_bytes>("largest_filter_bytes"),
    Field<&BenchResult::bits_per_key>("bits_per_key"),
    Field<&BenchResult::sst_files>("sst_files"),
    Field<&BenchResult::tree>("tree"),
    Field<&BenchResult::files_per_level>("files_per_level"),
    Field<&BenchResult::keys_per_level>("keys_per_level"),
    Field<&BenchResult::filter_bytes_per_level>("filter_bytes_per_level"),
    Field<&BenchResult::bits_per_key_per_level>("bits_per_key_per_level"),
    Field<&BenchResult::io_latency_us>("io_latency_us"),
    Field<&BenchResult::modeled_micros_per_op>("modeled_micros_per_op"),
    Field<&BenchResult::modeled_saved_micros_per_op>(
        "modeled_saved_micros_per_op"),
    Field<&BenchResult::direct_reads>("direct_reads"),
    Field<&BenchResult::read_latency_us>("read_latency_us",
                                         &BenchResult::timed_reads),
    Field<&BenchResult::user_micros_per_op>("user_micros_per_op",
                                            &BenchResult::timed_reads),
    Field<&BenchResult::explained_micros_per_op>("explained_micros_per_op",
                                                 &BenchResult::timed_reads),
    Field<&BenchResult::avoided_read_micros_per_op>(
        "avoided_read_micros_per_op", &BenchResult::timed_reads),
    Field<&BenchResult::latency>("latency", &BenchResult::has_latency),
    Field<&BenchResult::hit_latency>("hit_latency", &BenchResult::has_latency),
    Field<&BenchResult::miss_latency>("miss_latency",
                                      &BenchResult::has_latency),
    // For the latency chart (bloomgate_plot), which reads only the JSON.
    Field<&BenchResult::miss_latency_cdf>("miss_latency_cdf",
                                          &BenchResult::has_latency, &HasCdf),
};

bool Written(const ResultField& field, const BenchResult& r) {
  return (field.group == nullptr || r.*field.group) &&
         (field.when == nullptr || field.when(r));
}

}  // namespace

void to_json(nlohmann::ordered_json& j, const BenchResult& r) {
  j = OrderedJson::object();
  for (const ResultField& field : kResultFields) {
    if (Written(field, r)) j[std::string(field.key)] = field.write(r);
  }
}

absl::StatusOr<BenchResult> ResultFromJson(const nlohmann::ordered_json& j) {
  BenchResult r;
  for (const ResultField& field : kResultFields) {
    const auto it = j.find(std::string(field.key));
    if (it == j.end()) {
      // An optional field's absence says it was not written; any other's
      // reads as not measured.
      if (field.group == nullptr && field.when == nullptr) {
        field.read(OrderedJson(), &r).IgnoreError();
      }
      continue;
    }
    if (field.group != nullptr) r.*field.group = true;
    if (absl::Status s = field.read(*it, &r); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(ToAbsl(field.key), ": ", s.message()));
    }
  }
  return r;
}

void from_json(const nlohmann::ordered_json& j, BenchResult& r) {
  absl::StatusOr<BenchResult> result = ResultFromJson(j);
  if (!result.ok()) {
    throw std::invalid_argument(std::string(result.status().message()));
  }
  r = *std::move(result);
}

void from_json(const nlohmann::json& j, BenchResult& r) {
  from_json(OrderedJson(j), r);
}

std::string ResultName(const BenchResult& r) {
  return r.own_parameter ? r.filter.Name() : r.filter.KindName();
}

}  // namespace bloomgate::bench
