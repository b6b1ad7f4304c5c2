// Copyright 2026 The bloomgate Authors.
//
// The plan as text and as JSON.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "tools/sizer/plan.h"
#include "tools/sizer/size.h"

namespace bloomgate::tools {

std::string FormatPlanText(const PlanReport& r) {
  std::string out = absl::StrFormat(
      "database %s, column family %s (opened read-only)\n"
      "%d live files, %d keys; filters now %s = %.2f bits/key\n",
      r.db_path, r.column_family, r.files.size(), r.keys,
      HumanBytes(r.filter_bytes), r.current_bits_per_key);
  absl::StrAppendFormat(&out,
                        "reach: %s (docs/plan.md)\n"
                        "now: %.5f reads per absent lookup (each file's "
                        "filter as its block is: docs/plan.md)\n",
                        r.reach_model, r.current_reads_per_absent_lookup);
  if (r.policies.empty()) {
    absl::StrAppend(&out,
                    "no filters now: give --memory=<size> for predictions\n");
  } else {
    absl::StrAppendFormat(&out, "planned memory: %s = %.2f bits/key (%s)\n",
                          HumanBytes(r.memory_bytes), r.memory_bits_per_key,
                          r.memory_given ? "--memory" : "the filters' now");
  }
  absl::StrAppend(&out, "\nbits/key of memory per level:\n");
  absl::StrAppendFormat(&out, "%-5s %6s %12s %8s %8s", "level", "files", "keys",
                        "reach", "now");
  for (const PolicyPlan& p : r.policies) {
    if (!p.level_bits_per_key.empty()) {
      absl::StrAppendFormat(&out, " %17s", p.name);
    }
  }
  absl::StrAppend(&out, "\n");
  for (size_t l = 0; l < r.levels.size(); ++l) {
    const PlanLevel& level = r.levels[l];
    absl::StrAppendFormat(
        &out, "L%-4d %6d %12d %8.4f %8.2f", level.level, level.files,
        level.keys, level.reach,
        8.0 * static_cast<double>(level.filter_bytes) /
            static_cast<double>(std::max<uint64_t>(1, level.keys)));
    for (const PolicyPlan& p : r.policies) {
      if (p.level_bits_per_key.empty()) continue;
      std::string cell = absl::StrFormat("%.2f", p.level_bits_per_key[l]);
      if (!p.level_family.empty()) {
        absl::StrAppend(&cell, " ", p.level_family[l]);
      }
      absl::StrAppendFormat(&out, " %17s", cell);
    }
    absl::StrAppend(&out, "\n");
  }
  std::vector<std::string> kinds;
  for (const PlanLevel& level : r.levels) {
    kinds.push_back(absl::StrCat("L", level.level, " ", level.filter_kinds));
  }
  absl::StrAppend(&out, "filters now: ", absl::StrJoin(kinds, ", "), "\n");
  if (r.policies.empty()) return out;
  absl::StrAppendFormat(&out, "\n%-17s %12s %9s  %s\n", "policy",
                        "reads/absent", "vs bloom", "what");
  const double bloom = r.policies.front().reads_per_absent_lookup;
  for (const PolicyPlan& p : r.policies) {
    std::string what = p.description;
    if (p.parameter > 0) {
      absl::StrAppendFormat(&what, "; parameter %.2f", p.parameter);
    }
    absl::StrAppendFormat(
        &out, "%-17s %12.5f %8.3fx  %s\n", p.name, p.reads_per_absent_lookup,
        bloom > 0 ? p.reads_per_absent_lookup / bloom : 0.0, what);
  }
  return out;
}

std::string FormatPlanJson(const PlanReport& r) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  for (const PlanLevel& l : r.levels) {
    levels.push_back({{"level", l.level},
                      {"files", l.files},
                      {"keys", l.keys},
                      {"filter_bytes", l.filter_bytes},
                      {"filter_kinds", l.filter_kinds},
                      {"reach", l.reach}});
  }
  nlohmann::ordered_json policies = nlohmann::ordered_json::array();
  for (const PolicyPlan& p : r.policies) {
    nlohmann::ordered_json policy = {
        {"name", p.name},
        {"description", p.description},
        {"reads_per_absent_lookup", p.reads_per_absent_lookup},
        {"level_bits_per_key", p.level_bits_per_key}};
    if (!p.level_family.empty()) policy["level_family"] = p.level_family;
    if (p.parameter > 0) policy["parameter"] = p.parameter;
    policies.push_back(std::move(policy));
  }
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const PlanFile& f : r.files) {
    files.push_back({{"name", f.name},
                     {"level", f.level},
                     {"entries", f.entries},
                     {"deletions", f.deletions},
                     {"filter_bytes", f.filter_bytes},
                     {"filter_policy", f.filter_policy},
                     {"filter_kind", FilterKindName(f.filter.kind)},
                     {"reach", f.reach}});
  }
  const nlohmann::ordered_json json = {
      {"db", r.db_path},
      {"column_family", r.column_family},
      {"reach_model", r.reach_model},
      {"files", r.files.size()},
      {"keys", r.keys},
      {"filter_bytes", r.filter_bytes},
      {"bits_per_key", r.current_bits_per_key},
      {"current_reads_per_absent_lookup", r.current_reads_per_absent_lookup},
      {"memory_bytes", r.memory_bytes},
      {"memory_given", r.memory_given},
      {"memory_bits_per_key", r.memory_bits_per_key},
      {"levels", levels},
      {"policies", policies},
      {"live_files", files},
  };
  return json.dump(2) + "\n";
}

}  // namespace bloomgate::tools
