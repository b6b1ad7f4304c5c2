// Copyright 2026 The bloomgate Authors.
//
// Debian 12's abseil is built with its own absl::string_view
// (ABSL_OPTION_USE_STD_STRING_VIEW 0), which absl::StrCat and absl::StrSplit
// take and std::string_view does not convert to.

#ifndef BLOOMGATE_TOOLS_BENCH_ABSL_COMPAT_H_
#define BLOOMGATE_TOOLS_BENCH_ABSL_COMPAT_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace bloomgate::bench {

inline absl::string_view Sv(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_ABSL_COMPAT_H_
