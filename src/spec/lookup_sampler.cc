// Copyright 2026 The bloomgate Authors.

#include "src/spec/lookup_sampler.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace bloomgate {
namespace {

// Samples kept in the whole process: the clock of every weight.
std::atomic<uint64_t> kept_in_process{0};

// The next gap of this thread, uniform in [1, 2 * kMeanSampleGap - 1]:
// xorshift64*, from the same seed in every thread, so that one thread's
// sequence of calls keeps the same keys in every run.
int32_t NextGap() {
  thread_local uint64_t state = 0x9e3779b97f4a7c15;
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  const uint64_t r = (state * 0x2545f4914f6cdd1d) >> 32;
  return 1 + static_cast<int32_t>(r % (2 * kMeanSampleGap - 1));
}

}  // namespace

LookupSampler::LookupSampler(uint64_t half_life_probes)
    : half_life_(std::max<uint64_t>(1, half_life_probes)),
      capacity_(std::clamp<uint64_t>(4 * half_life_ / kMeanSampleGap,
                                     kMinCapacity, kMaxCapacity)) {}

void LookupSampler::Keep(std::string_view key) {
  spec_internal::sample_countdown = NextGap();
  const uint64_t at = kept_in_process.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> l(mu_);
  if (keys_.size() < capacity_) {
    keys_.emplace_back(key);
    kept_at_.push_back(at);
    return;
  }
  // The oldest gives way; assign reuses its buffer.
  keys_[next_].assign(key.data(), key.size());
  kept_at_[next_] = at;
  next_ = (next_ + 1) % capacity_;
}

std::vector<LookupSampler::Sample> LookupSampler::Samples() const {
  const uint64_t now = kept_in_process.load(std::memory_order_relaxed);
  std::lock_guard<std::mutex> l(mu_);
  std::vector<Sample> samples;
  samples.reserve(keys_.size());
  for (size_t i = 0; i < keys_.size(); ++i) {
    const size_t j = (next_ + i) % keys_.size();
    // A key kept since `now` was read is of age 0.
    const uint64_t age = now > kept_at_[j] ? now - kept_at_[j] : 0;
    const double age_probes =
        static_cast<double>(age) * static_cast<double>(kMeanSampleGap);
    samples.push_back(
        {keys_[j], std::exp2(-age_probes / static_cast<double>(half_life_))});
  }
  return samples;
}

uint64_t LookupSampler::ProcessProbes() {
  return kept_in_process.load(std::memory_order_relaxed) * kMeanSampleGap;
}

}  // namespace bloomgate
