// Copyright 2026 The bloomgate Authors.

#include "tools/bench/summary.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "tools/bench/bench_options.h"

namespace bloomgate::bench {
namespace {

// The results of one engine and read benchmark that had a filter (and,
// `by_memory`, the same memory asked for).
std::vector<std::vector<const BenchResult*>> Groups(
    const std::vector<BenchResult>& results, bool by_memory) {
  std::vector<std::vector<const BenchResult*>> groups;
  for (const BenchResult& r : results) {
    if (IsFillBenchmark(r.benchmark) ||
        r.filter.family == FilterFamily::kNone || std::isnan(r.ios_per_miss)) {
      continue;
    }
    auto same = [&](const std::vector<const BenchResult*>& g) {
      return g.front()->engine == r.engine &&
             g.front()->benchmark == r.benchmark &&
             g.front()->grown_keys == r.grown_keys &&
             (!by_memory || g.front()->bloom_bits == r.bloom_bits);
    };
    auto it = std::find_if(groups.begin(), groups.end(), same);
    if (it == groups.end()) {
      groups.push_back({&r});
    } else {
      it->push_back(&r);
    }
  }
  return groups;
}

std::string Name(const BenchResult& r) { return ResultName(r); }

// "<best>, <value><unit>, <ratio>x <fewer> than <next> (<value><unit>)", or
// a tie, for the results ordered by `value` (smaller is better), each value
// to `digits` significant digits.
template <typename Value>
std::string BestAndNext(std::vector<const BenchResult*> group, Value value,
                        int digits, const char* unit, const char* fewer) {
  std::stable_sort(group.begin(), group.end(),
                   [&](const BenchResult* a, const BenchResult* b) {
                     return value(*a) < value(*b);
                   });
  const BenchResult& best = *group[0];
  const BenchResult& next = *group[1];
  const std::string best_value = absl::StrFormat("%.*g", digits, value(best));
  const std::string next_value = absl::StrFormat("%.*g", digits, value(next));
  if (best_value == next_value) {
    return absl::StrCat(Name(best), " and ", Name(next), " tie at ", best_value,
                        unit);
  }
  const std::string ratio =
      value(best) > 0 ? absl::StrFormat("%.2fx", value(next) / value(best))
                      : std::string("infinitely");
  return absl::StrCat(Name(best), ", ", best_value, unit, ", ", ratio, " ",
                      fewer, " than ", Name(next), " (", next_value, unit, ")");
}

// The filters' measured memory, and where their reads went.
std::string Conditions(const std::vector<const BenchResult*>& group) {
  double low = INFINITY, high = -INFINITY;
  double read_us = 0;
  int timed = 0;
  bool direct = true;
  for (const BenchResult* r : group) {
    low = std::min(low, r->bits_per_key);
    high = std::max(high, r->bits_per_key);
    direct &= r->direct_reads;
    if (r->timed_reads && !std::isnan(r->read_latency_us)) {
      read_us += r->read_latency_us;
      ++timed;
    }
  }
  std::string out = absl::StrFormat("filters at %.2f-%.2f bits/key", low, high);
  if (high > low * 1.005) {
    absl::StrAppend(&out, " (memories differ by more than 0.5%)");
  }
  absl::StrAppend(&out, direct ? "; reads from the device (O_DIRECT)"
                               : "; reads from the page cache");
  if (timed > 0) {
    absl::StrAppend(
        &out, absl::StrFormat(", %.1f us a read measured", read_us / timed));
  }
  std::set<uint32_t> trees;
  for (const BenchResult* r : group) trees.insert(r->tree);
  absl::StrAppend(&out,
                  trees.size() == 1
                      ? absl::StrFormat("; one tree (%04x)", *trees.begin())
                      : absl::StrCat("; ", trees.size(),
                                     " different trees (the tree column)"));
  return out;
}

// Where the group has RocksDB's Ribbon filters (alone or mixed): how close
// to the floor they can come at all, in expectation: the floor over Ribbon's
// curve over the floor itself, at that filter's memory on its files
// (BenchResult::ios_per_miss_mix_floor; docs/monkey-allocation.md, "What it
// bounds").
std::string RibbonsBound(const std::vector<const BenchResult*>& group) {
  for (const BenchResult* r : group) {
    if (r->filter.family != FilterFamily::kRocksDBRibbon && !r->filter.mixed) {
      continue;
    }
    if (!(r->ios_per_miss_floor > 0 && r->ios_per_miss_mix_floor > 0)) {
      return "";
    }
    return absl::StrFormat(
        "; no mix of Bloom and Ribbon filters reads less than %.2fx the "
        "floor in expectation (the floor over Ribbon's curve, RocksDB's "
        "overhead for these files)",
        r->ios_per_miss_mix_floor / r->ios_per_miss_floor);
  }
  return "";
}

// Each filter's reads per absent lookup over the floor at its memory, in
// run order; empty where the floor is not a bound (NaN).
std::string OverTheFloor(const std::vector<const BenchResult*>& group) {
  std::vector<std::string> cells;
  for (const BenchResult* r : group) {
    if (!(r->ios_per_miss_floor > 0)) continue;
    cells.push_back(absl::StrFormat("%s %.2fx", Name(*r),
                                    r->ios_per_miss / r->ios_per_miss_floor));
  }
  if (cells.empty()) return "";
  return absl::StrCat("\n  reads over the floor: ", absl::StrJoin(cells, ", "),
                      RibbonsBound(group));
}

}  // namespace

std::string FormatSummary(const std::vector<BenchResult>& results,
                          bool by_memory) {
  std::string out;
  for (const std::vector<const BenchResult*>& group :
       Groups(results, by_memory)) {
    if (group.size() < 2) continue;
    const BenchResult& first = *group.front();
    absl::StrAppend(
        &out, ToAbsl(EngineName(first.engine)), " ",
        ToAbsl(BenchmarkName(first.benchmark)),
        by_memory ? absl::StrCat(" at ", first.bloom_bits, " bits/key") : "",
        first.grown_keys > 0 ? absl::StrCat(" at ", first.grown_keys, " keys")
                             : "",
        ": fewest reads per absent lookup: ",
        BestAndNext(
            group, [](const BenchResult& r) { return r.ios_per_miss; }, 4, "",
            "fewer"),
        "\n  least time per lookup: ",
        BestAndNext(
            group, [](const BenchResult& r) { return r.micros_per_op; }, 3,
            " us", "less"),
        OverTheFloor(group), "\n  ", Conditions(group), "\n");
  }
  return out;
}

}  // namespace bloomgate::bench
