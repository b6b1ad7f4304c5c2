// Copyright 2026 The bloomgate Authors.

#include "tools/bench/scratch_dir.h"

#include <errno.h>
#include <stdlib.h>

#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"

namespace bloomgate::bench {

absl::StatusOr<std::string> CreateScratchDir(std::string_view prefix) {
  std::error_code ec;
  const std::filesystem::path temp = std::filesystem::temp_directory_path(ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("no temporary directory: ", ec.message()));
  }
  std::string pattern =
      (temp / absl::StrCat(ToAbsl(prefix), ".XXXXXX")).string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::ErrnoToStatus(
        errno, absl::StrCat("cannot create a temporary folder ", pattern));
  }
  return pattern;
}

}  // namespace bloomgate::bench
