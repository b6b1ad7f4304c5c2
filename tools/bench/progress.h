// Copyright 2026 The bloomgate Authors.
//
// A one-line progress bar on stderr, drawn only when stderr is a terminal:
// piped or redirected output stays free of carriage returns.

#ifndef BLOOMGATE_TOOLS_BENCH_PROGRESS_H_
#define BLOOMGATE_TOOLS_BENCH_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <string>

namespace bloomgate::bench {

class ProgressBar {
 public:
  // `enabled` false, or stderr not a terminal: every call does nothing.
  ProgressBar(std::string label, int64_t total, bool enabled);
  ~ProgressBar();

  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // `done` of `total` finished. Cheap unless it redraws (at most ~10 times a
  // second), so callers may call it every few thousand operations.
  void Update(int64_t done);
  // Erases the bar.
  void Finish();

 private:
  void Draw(int64_t done);

  std::string label_;
  int64_t total_;
  bool active_;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_PROGRESS_H_
