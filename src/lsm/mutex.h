// Copyright 2026 The bloomgate Authors.
//
// The LSM's locks: a reader-writer lock over std::shared_mutex, with
// abseil's thread-safety annotations so that clang's -Wthread-safety checks
// what each lock guards (as with absl::Mutex).
//
// Why not absl::Mutex: ThreadSanitizer sees a lock only when the code that
// takes it is instrumented, and Debian's abseil is a plain build. With it,
// a TSan build (-DBLOOMGATE_TSAN=ON) reports every access an absl::Mutex
// guards as a race. The standard library's locks are pthread calls, which
// TSan intercepts whoever compiled them.

#ifndef BLOOMGATE_SRC_LSM_MUTEX_H_
#define BLOOMGATE_SRC_LSM_MUTEX_H_

#include <shared_mutex>

#include "absl/base/thread_annotations.h"

namespace bloomgate::lsm {

class ABSL_LOCKABLE Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() ABSL_EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  void Unlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock(); }
  void ReaderLock() ABSL_SHARED_LOCK_FUNCTION() { mu_.lock_shared(); }
  void ReaderUnlock() ABSL_UNLOCK_FUNCTION() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds `mu` exclusively for the scope.
class ABSL_SCOPED_LOCKABLE MutexLock {
 public:
  explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->Lock();
  }
  ~MutexLock() ABSL_UNLOCK_FUNCTION() { mu_->Unlock(); }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

 private:
  Mutex* const mu_;
};

// Holds `mu` shared for the scope.
class ABSL_SCOPED_LOCKABLE ReaderMutexLock {
 public:
  explicit ReaderMutexLock(Mutex* mu) ABSL_SHARED_LOCK_FUNCTION(mu) : mu_(mu) {
    mu_->ReaderLock();
  }
  ~ReaderMutexLock() ABSL_UNLOCK_FUNCTION() { mu_->ReaderUnlock(); }
  ReaderMutexLock(const ReaderMutexLock&) = delete;
  ReaderMutexLock& operator=(const ReaderMutexLock&) = delete;

 private:
  Mutex* const mu_;
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_MUTEX_H_
