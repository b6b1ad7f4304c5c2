// Copyright 2026 The bloomgate Authors.
//
// The keys, values and lookup streams of a run. Everything is a pure function
// of --seed, so two engines (or two filters) see exactly the same workload and
// a run can be repeated bit for bit.

#ifndef BLOOMGATE_TOOLS_BENCH_WORKLOAD_H_
#define BLOOMGATE_TOOLS_BENCH_WORKLOAD_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace bloomgate::bench {

// splitmix64: tiny, fast and fully specified, unlike the std:: distributions
// whose output differs between standard libraries.
class Random64 {
 public:
  explicit Random64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below
  // n / 2^64, far under anything a benchmark can see).
  uint64_t Uniform(uint64_t n) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * n) >>
                                 64);
  }
  // Uniform in [0, 1).
  double NextDouble() { return (Next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// A seed for one stream of one benchmark, so that streams are independent of
// each other and of the order the benchmarks run in.
uint64_t StreamSeed(uint64_t seed, uint64_t stream, uint64_t thread);

// The key space. Key slot s is the decimal number s, zero-padded to key_size
// bytes, so keys sort like their slots. Present key i (i in [0, num)) is slot
// 2i; absent key i (i in [0, num - 1)) is slot 2i + 1, which no fill writes
// and which sorts strictly between present keys i and i + 1. Every absent key
// therefore lies inside the key range of every file that holds keys on both
// sides of it: a missing lookup is never answered by a key-range check alone,
// which is what makes it a test of the filter.
class KeySpace {
 public:
  KeySpace(int64_t num, int key_size) : num_(num), key_size_(key_size) {}

  int64_t num() const { return num_; }
  int64_t num_absent() const { return num_ - 1; }

  void PresentKey(int64_t i, std::string* key) const { Slot(2 * i, key); }
  void AbsentKey(int64_t i, std::string* key) const { Slot(2 * i + 1, key); }

 private:
  void Slot(int64_t slot, std::string* key) const;

  int64_t num_;
  int key_size_;
};

// Values: value_size bytes cut from a fixed pseudo-random buffer at a
// position derived from the key index (incompressible, like db_bench's).
class ValueSource {
 public:
  ValueSource(int value_size, uint64_t seed);
  std::string_view ValueFor(int64_t i) const;

 private:
  int value_size_;
  std::string buffer_;
};

// The order a fill writes the present keys in: 0..num-1 for fillseq, a
// seeded Fisher-Yates shuffle of it for fillrandom.
std::vector<int64_t> FillOrder(int64_t num, bool random, uint64_t seed);

// Where a read benchmark's lookups fall in the key order (--lookup_dist),
// present and absent keys alike. The order is the keys' own, unscrambled,
// so that hot keys share files, as a service's hot range does.
struct LookupDistribution {
  enum class Kind {
    kUniform,  // every key alike
    // Rank r (key r of the order) with probability proportional to
    // 1 / (r + 1)^theta (Gray et al.'s generator, as YCSB's).
    kZipfian,
    // `lookup_fraction` of the lookups uniform over the first
    // `key_fraction` of the keys, the rest uniform over the others.
    kHotspot,
    // Uniform over the last `key_fraction` of the keys: the newest under
    // fillseq.
    kLatest,
  };
  Kind kind = Kind::kUniform;
  double theta = 0;            // kZipfian, in (0, 1)
  double key_fraction = 0;     // kHotspot, kLatest, in (0, 1]
  double lookup_fraction = 0;  // kHotspot, in [0, 1]

  // "uniform", "zipfian:<theta>", "hotspot:<key fraction>:<lookup
  // fraction>", "latest:<key fraction>": what Parse reads.
  std::string Name() const;
  // InvalidArgument naming the part that is wrong.
  static absl::StatusOr<LookupDistribution> Parse(std::string_view text);

  bool operator==(const LookupDistribution&) const = default;
};

// Draws indexes in [0, n) by a LookupDistribution. Zipfian's constants are
// computed once per n (O(n)).
class IndexPicker {
 public:
  IndexPicker(const LookupDistribution& dist, int64_t n);
  int64_t Pick(Random64& random) const;

 private:
  LookupDistribution dist_;
  int64_t n_;
  // kZipfian: zeta(n, theta), alpha, eta and zeta(2, theta)'s term.
  double zetan_ = 0, alpha_ = 0, eta_ = 0, half_pow_theta_ = 0;
};

// One lookup of a read benchmark.
struct Lookup {
  int64_t index;  // present or absent key index
  bool absent;
};

// The lookups of one thread of a read benchmark: each is absent with
// probability `negative_ratio` (1 for readmissing, 0 for readrandom), and its
// index is drawn by `dist` over the present or absent keys.
class LookupStream {
 public:
  LookupStream(const KeySpace& keys, double negative_ratio, uint64_t seed,
               const LookupDistribution& dist = {})
      : negative_ratio_(negative_ratio),
        random_(seed),
        present_(dist, keys.num()),
        absent_(dist, keys.num_absent()) {}

  Lookup Next() {
    Lookup lookup;
    lookup.absent =
        negative_ratio_ >= 1.0 ||
        (negative_ratio_ > 0.0 && random_.NextDouble() < negative_ratio_);
    lookup.index = (lookup.absent ? absent_ : present_).Pick(random_);
    return lookup;
  }

 private:
  double negative_ratio_;
  Random64 random_;
  IndexPicker present_;
  IndexPicker absent_;
};

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_WORKLOAD_H_
