// Copyright 2026 The bloomgate Authors.

#include "engine.h"

#include "absl/strings/str_cat.h"
#include "absl_compat.h"

namespace bloomgate::bench {

absl::StatusOr<std::unique_ptr<Engine>> OpenEngine(
    EngineKind kind, const EngineOptions& options) {
  if (!EngineSupports(kind, options.filter)) {
    return absl::InvalidArgumentError(
        absl::StrCat("engine ", Sv(EngineName(kind)), " cannot use filter ",
                     FilterName(options.filter)));
  }
  switch (kind) {
    case EngineKind::kRocksDB:
      return OpenRocksDBEngine(options);
    case EngineKind::kLsm:
      return OpenLsmEngine(options);
  }
  return absl::InvalidArgumentError("unknown engine");
}

int CountCoveringFiles(const EngineShape& shape, std::string_view key) {
  int count = 0;
  for (const FileInfo& file : shape.files) {
    if (file.smallest <= key && key <= file.largest) ++count;
  }
  return count;
}

}  // namespace bloomgate::bench
