// Copyright 2026 The bloomgate Authors.

#include "tools/probe_times/probe_times.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/slice.h"
#include "rocksdb/table.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate {
namespace {

// Key i: its 8 bytes, then "bg", so that the absent keys (i >= keys) are
// none of the filter's.
std::string Key(uint64_t i) {
  std::string key(sizeof(i) + 2, 'g');
  std::memcpy(key.data(), &i, sizeof(i));
  key[sizeof(i)] = 'b';
  return key;
}

// The median ns per MayMatch of an absent key of `spec`'s filter, built by
// its RocksDB policy as a table builder would.
absl::StatusOr<double> ProbeNanos(const FilterSpec& spec, uint64_t keys,
                                  int rounds) {
  absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
      CreateFilterPolicyForSpec(spec);
  if (!policy.ok()) return policy.status();
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy = *policy;
  const rocksdb::FilterBuildingContext context(table_options);
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      *policy == nullptr ? nullptr : (*policy)->GetBuilderWithContext(context));
  if (builder == nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat(spec.Name(), " builds no filter to time"));
  }
  for (uint64_t i = 0; i < keys; ++i) builder->AddKey(Key(i));
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice block = builder->Finish(&buf);
  builder.reset();
  std::unique_ptr<rocksdb::FilterBitsReader> reader(
      (*policy)->GetFilterBitsReader(block));
  std::vector<std::string> absent;
  absent.reserve(keys);
  for (uint64_t i = 0; i < keys; ++i) absent.push_back(Key(keys + i));

  std::vector<double> nanos(std::max(rounds, 1));
  uint64_t positives = 0;  // used, so that the checks are not optimised away
  for (double& round : nanos) {
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& key : absent) positives += reader->MayMatch(key);
    const std::chrono::duration<double, std::nano> took =
        std::chrono::steady_clock::now() - start;
    round = took.count() / static_cast<double>(absent.size());
  }
  if (positives == nanos.size() * absent.size()) {
    return absl::FailedPreconditionError(absl::StrCat(
        spec.Name(), "'s filter matched every absent key: nothing to time"));
  }
  std::sort(nanos.begin(), nanos.end());
  return nanos[nanos.size() / 2];
}

}  // namespace

std::string ProbeTimes::NameField() const {
  return absl::StrFormat("probe_ns:%.1f/%.1f", bloomgate_nanos, ribbon_nanos);
}

absl::StatusOr<ProbeTimes> MeasureProbeTimes(uint64_t keys, int rounds) {
  absl::StatusOr<double> bloomgate =
      ProbeNanos(FilterSpec{.bits_per_key = 10}, keys, rounds);
  if (!bloomgate.ok()) return bloomgate.status();
  absl::StatusOr<double> ribbon = ProbeNanos(
      FilterSpec{.family = FilterFamily::kRocksDBRibbon, .bits_per_key = 10},
      keys, rounds);
  if (!ribbon.ok()) return ribbon.status();
  return ProbeTimes{.bloomgate_nanos = *bloomgate, .ribbon_nanos = *ribbon};
}

}  // namespace bloomgate
