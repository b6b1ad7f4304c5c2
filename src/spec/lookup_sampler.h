// Copyright 2026 The bloomgate Authors.
//
// Where absent-key lookups go, measured: a pooled filter that answers "no"
// tells its LookupSampler the key, and about one call in kMeanSampleGap
// keeps it. The keys kept, each weighted by its age, are a sample of the
// absent lookups over the key space, so they outlive the files whose
// filters saw them: an output's reach is the weight of the samples in its
// key range (live_tree_allocation.h), whatever files were there before.
//
// Kept in the process only: a restart starts with no samples, and the
// allocation with none is the one that assumes every absent lookup reaches
// every file alike (docs/memory-pool.md).
//
// Not a public header.

#ifndef BLOOMGATE_SRC_SPEC_LOOKUP_SAMPLER_H_
#define BLOOMGATE_SRC_SPEC_LOOKUP_SAMPLER_H_

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace bloomgate {

// One call in this many, on average, keeps its key. The gap between two
// kept calls is drawn uniformly from [1, 2 * kMeanSampleGap - 1] per thread
// (a fixed gap could fall into step with a lookup's fixed sequence of
// probes and keep only one level's), from one countdown per thread shared
// by every sampler: a thread that probes two databases' filters samples
// each in proportion to its probes.
inline constexpr uint32_t kMeanSampleGap = 1024;

namespace spec_internal {
// Calls left until this thread keeps a key.
inline thread_local int32_t sample_countdown = kMeanSampleGap;
}  // namespace spec_internal

// A decaying sample of the keys of absent-key probes. Note is thread-safe
// and costs a thread-local decrement but once per kMeanSampleGap calls of a
// thread, which takes the sampler's mutex to keep the key; no cache line
// shared between threads is written per call.
class LookupSampler {
 public:
  // A kept key and its weight: 2^-(probes noted in the process since it was
  // kept / half_life).
  struct Sample {
    std::string key;
    double weight = 0;
  };

  // Keeps samples for about four half-lives (whose weights have fallen
  // below 1/16), within [kMinCapacity, kMaxCapacity] samples.
  explicit LookupSampler(uint64_t half_life_probes);

  LookupSampler(const LookupSampler&) = delete;
  LookupSampler& operator=(const LookupSampler&) = delete;

  // A filter answered "no" for `key`.
  void Note(std::string_view key) {
    if (--spec_internal::sample_countdown <= 0) [[unlikely]] {
      Keep(key);
    }
  }

  // The samples kept, oldest first, weighted as of now.
  std::vector<Sample> Samples() const;

  // The probes noted in the whole process since it started, as the samples
  // tell them (kMeanSampleGap per sample kept): the clock weights fade by.
  static uint64_t ProcessProbes();

  static constexpr size_t kMinCapacity = 256;
  static constexpr size_t kMaxCapacity = 65536;

 private:
  // Keeps `key` and draws this thread's next gap.
  [[gnu::noinline]] void Keep(std::string_view key);

  const uint64_t half_life_;
  const size_t capacity_;
  // std::mutex, not absl::Mutex: ThreadSanitizer sees only the locks of
  // instrumented code, and Debian's abseil is not (src/lsm/mutex.h).
  mutable std::mutex mu_;
  // Guarded by mu_: a ring of up to capacity_ samples, the key and the
  // process's sample count when it was kept.
  std::vector<std::string> keys_;
  std::vector<uint64_t> kept_at_;
  size_t next_ = 0;
};

}  // namespace bloomgate

#endif  // BLOOMGATE_SRC_SPEC_LOOKUP_SAMPLER_H_
