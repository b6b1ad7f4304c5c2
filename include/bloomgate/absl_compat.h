// Copyright 2026 The bloomgate Authors.
//
// Conversions between std::string_view and absl::string_view. They are
// the same type where abseil is built with ABSL_OPTION_USE_STD_STRING_VIEW
// (the default); Debian 12's abseil is not, and there absl::StrCat,
// absl::StrSplit and absl::Status's message take and give a string_view of
// their own that std::string_view does not convert to, in either
// direction. bloomgate's API speaks std::string_view; these bridge the two.

#ifndef BLOOMGATE_ABSL_COMPAT_H_
#define BLOOMGATE_ABSL_COMPAT_H_

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

#endif  // BLOOMGATE_ABSL_COMPAT_H_
