// Copyright 2026 The bloomgate Authors.
//
// Early-return helpers for absl::Status and absl::StatusOr: abseil 20220623
// has no RETURN_IF_ERROR or ASSIGN_OR_RETURN of its own.

#ifndef BLOOMGATE_SRC_LSM_STATUS_MACROS_H_
#define BLOOMGATE_SRC_LSM_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns the status of `expr` from the enclosing function unless it is OK.
#define BLOOMGATE_LSM_RETURN_IF_ERROR(expr)     \
  do {                                          \
    if (absl::Status _st = (expr); !_st.ok()) { \
      return _st;                               \
    }                                           \
  } while (0)

// Evaluates `expr` (an absl::StatusOr<T>); returns its status from the
// enclosing function if it failed, else moves its value into `lhs`, which
// may be a declaration ("const T x"). One use per line.
#define BLOOMGATE_LSM_ASSIGN_OR_RETURN(lhs, expr)                    \
  auto BLOOMGATE_LSM_CONCAT(_so_, __LINE__) = (expr);                \
  if (!BLOOMGATE_LSM_CONCAT(_so_, __LINE__).ok()) {                  \
    return std::move(BLOOMGATE_LSM_CONCAT(_so_, __LINE__)).status(); \
  }                                                                  \
  lhs = std::move(*BLOOMGATE_LSM_CONCAT(_so_, __LINE__))

#define BLOOMGATE_LSM_CONCAT_INNER(a, b) a##b
#define BLOOMGATE_LSM_CONCAT(a, b) BLOOMGATE_LSM_CONCAT_INNER(a, b)

#endif  // BLOOMGATE_SRC_LSM_STATUS_MACROS_H_
