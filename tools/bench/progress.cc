// Copyright 2026 The bloomgate Authors.

#include "tools/bench/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <utility>

namespace bloomgate::bench {
namespace {
constexpr int kWidth = 40;
}  // namespace

ProgressBar::ProgressBar(std::string label, int64_t total, bool enabled)
    : label_(std::move(label)),
      total_(std::max<int64_t>(total, 1)),
      active_(enabled && isatty(STDERR_FILENO) == 1) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Update(int64_t done) {
  if (!active_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  Draw(done);
}

void ProgressBar::Draw(int64_t done) {
  done = std::clamp<int64_t>(done, 0, total_);
  int filled = static_cast<int>(done * kWidth / total_);
  char bar[kWidth + 1];
  for (int i = 0; i < kWidth; ++i) bar[i] = i < filled ? '=' : ' ';
  if (filled < kWidth) bar[filled] = '>';
  bar[kWidth] = '\0';
  std::fprintf(stderr, "\r%-28s [%s] %3d%%", label_.c_str(), bar,
               static_cast<int>(done * 100 / total_));
  std::fflush(stderr);
}

void ProgressBar::Finish() {
  if (!active_) return;
  // Blank the line and return to its start, so the next output is clean.
  std::fprintf(stderr, "\r%*s\r", 28 + kWidth + 8, "");
  std::fflush(stderr);
  active_ = false;
}

}  // namespace bloomgate::bench
