// Copyright 2026 The bloomgate Authors.
//
// --help for the command-line tools.

#ifndef BLOOMGATE_TOOLS_FLAGS_USAGE_H_
#define BLOOMGATE_TOOLS_FLAGS_USAGE_H_

#include <string>
#include <vector>

#include "absl/flags/parse.h"
#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace bloomgate::tools {

// Sets the program's usage message, and what --help shows: the flags defined
// in `flags_file` (pass __FILE__ from the file that defines them), each file
// named by its base name. (absl otherwise lists only a file named after the
// program, and names it by the path the compiler was given: the build
// machine's source folder, which means nothing to a user.)
inline void SetToolUsage(absl::string_view message,
                         absl::string_view flags_file) {
  auto base_name = [](absl::string_view file) {
    const size_t slash = file.rfind('/');
    return std::string(
        slash == absl::string_view::npos ? file : file.substr(slash + 1));
  };
  absl::FlagsUsageConfig config;
  config.normalize_filename = base_name;
  auto is_flags_file = [own = base_name(flags_file)](absl::string_view file) {
    return file == own;
  };
  config.contains_help_flags = is_flags_file;
  config.contains_helpshort_flags = is_flags_file;
  config.contains_helppackage_flags = is_flags_file;
  absl::SetFlagsUsageConfig(config);
  absl::SetProgramUsageMessage(message);
}

// Parses the command line into the flags (absl::ParseCommandLine, which
// handles --help). The tools take flags only: InvalidArgument naming the
// first other argument.
inline absl::Status ParseToolFlags(int argc, char** argv) {
  std::vector<char*> positional = absl::ParseCommandLine(argc, argv);
  if (positional.size() > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected argument '", positional[1], "'"));
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::tools

#endif  // BLOOMGATE_TOOLS_FLAGS_USAGE_H_
