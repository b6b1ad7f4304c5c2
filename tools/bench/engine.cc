// Copyright 2026 The bloomgate Authors.

#include "tools/bench/engine.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"

namespace bloomgate::bench {

absl::StatusOr<std::unique_ptr<Engine>> OpenEngine(
    EngineKind kind, const EngineOptions& options) {
  if (!EngineSupports(kind, options.filter)) {
    return absl::InvalidArgumentError(
        absl::StrCat("engine ", ToAbsl(EngineName(kind)), " cannot use filter ",
                     options.filter.KindName()));
  }
  switch (kind) {
    case EngineKind::kRocksDB:
      return OpenRocksDBEngine(options);
    case EngineKind::kLsm:
      return OpenLsmEngine(options);
  }
  return absl::InvalidArgumentError("unknown engine");
}

EngineCounters CounterDelta(const EngineCounters& before,
                            const EngineCounters& after) {
  absl::flat_hash_map<std::string, double> start(before.begin(), before.end());
  EngineCounters delta;
  delta.reserve(after.size());
  for (const auto& [name, value] : after) {
    const auto it = start.find(name);
    delta.emplace_back(name, value - (it == start.end() ? 0 : it->second));
  }
  return delta;
}

bool Covers(const FileInfo& file, std::string_view key) {
  return file.smallest_key <= key && key <= file.largest_key;
}

}  // namespace bloomgate::bench
