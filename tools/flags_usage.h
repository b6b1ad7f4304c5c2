// Copyright 2026 The bloomgate Authors.
//
// --help for the command-line tools.

#ifndef BLOOMGATE_TOOLS_FLAGS_USAGE_H_
#define BLOOMGATE_TOOLS_FLAGS_USAGE_H_

#include <string>

#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/string_view.h"

namespace bloomgate::tools {

// Sets the program's usage message, and makes --help name the file that
// defines each flag by its base name. (absl prints the path the compiler was
// given: the build machine's source folder, which means nothing to a user.)
inline void SetToolUsage(absl::string_view message) {
  absl::FlagsUsageConfig config;
  config.normalize_filename = [](absl::string_view file) {
    const size_t slash = file.rfind('/');
    return std::string(
        slash == absl::string_view::npos ? file : file.substr(slash + 1));
  };
  absl::SetFlagsUsageConfig(config);
  absl::SetProgramUsageMessage(message);
}

}  // namespace bloomgate::tools

#endif  // BLOOMGATE_TOOLS_FLAGS_USAGE_H_
