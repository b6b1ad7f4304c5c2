// Copyright 2026 The bloomgate Authors.
//
// Named points in the write path where a crash is most interesting (between
// writing a file and making it live, between renaming the manifest and
// deleting what it replaced). Tests install a hook that kills the process
// at the n-th point reached; without a hook a point costs one relaxed load.

#ifndef BLOOMGATE_SRC_LSM_CRASH_POINTS_H_
#define BLOOMGATE_SRC_LSM_CRASH_POINTS_H_

#include <atomic>

namespace bloomgate::lsm {

using CrashPointHook = void (*)(const char* point);

inline std::atomic<CrashPointHook>& CrashPointHookSlot() {
  static std::atomic<CrashPointHook> hook{nullptr};
  return hook;
}

// Installs `hook` for the whole process (nullptr removes it).
inline void SetCrashPointHook(CrashPointHook hook) {
  CrashPointHookSlot().store(hook);
}

inline void CrashPoint(const char* point) {
  if (CrashPointHook hook =
          CrashPointHookSlot().load(std::memory_order_relaxed)) {
    hook(point);
  }
}

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_CRASH_POINTS_H_
