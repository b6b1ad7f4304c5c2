// Copyright 2026 The bloomgate Authors.
//
// Debian 12's abseil is built with its own absl::string_view
// (ABSL_OPTION_USE_STD_STRING_VIEW 0), which absl::StrCat, absl::StrSplit
// and absl::Status take and std::string_view does not convert to, in either
// direction. Every layer converts with these two.

#ifndef BLOOMGATE_SRC_FILTER_ABSL_COMPAT_H_
#define BLOOMGATE_SRC_FILTER_ABSL_COMPAT_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace bloomgate {

inline absl::string_view ToAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

inline std::string_view ToStd(absl::string_view s) {
  return std::string_view(s.data(), s.size());
}

}  // namespace bloomgate

#endif  // BLOOMGATE_SRC_FILTER_ABSL_COMPAT_H_
