// Copyright 2026 The bloomgate Authors.
//
// The standard (textbook) layout's probing: k positions over the whole bit
// array by enhanced double hashing (Kirsch and Mitzenmacher; Dillinger and
// Manolios), position_i = a + i*b + (i^3 - i)/6 (mod m). The cubic term keeps
// probes apart when b is 0 or shares a factor with m, where plain double
// hashing would revisit the same few bits.
//
// a and b come from the two halves of the 64-bit hash, each scaled to [0, m)
// by multiply-shift; the recurrence then stays in [0, m) with conditional
// subtraction, so no probe divides.

#ifndef BLOOMGATE_SRC_FILTER_STANDARD_BLOOM_H_
#define BLOOMGATE_SRC_FILTER_STANDARD_BLOOM_H_

#include <bit>
#include <cstdint>

namespace bloomgate::internal {

// floor(h * n / 2^64): a uniform h maps uniformly onto [0, n).
inline uint64_t ScaleToRange(uint64_t h, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * n) >> 64);
}

// Generates the probe positions of one hash; requires num_bits >= 64 and at
// most 32 probes, so that each step stays below 2 * num_bits.
class StandardProbes {
 public:
  StandardProbes(uint64_t hash, uint64_t num_bits)
      : num_bits_(num_bits),
        position_(ScaleToRange(hash, num_bits)),
        stride_(ScaleToRange(std::rotl(hash, 32), num_bits)) {}

  uint64_t position() const { return position_; }

  // Moves to probe i + 1, given that the current probe is probe i.
  void Next(int i) {
    position_ += stride_;
    if (position_ >= num_bits_) position_ -= num_bits_;
    stride_ += static_cast<uint64_t>(i) + 1;
    if (stride_ >= num_bits_) stride_ -= num_bits_;
  }

 private:
  uint64_t num_bits_;
  uint64_t position_;
  uint64_t stride_;
};

inline void StandardAdd(uint64_t hash, uint64_t num_bits, int num_probes,
                        uint8_t* bits) {
  StandardProbes probes(hash, num_bits);
  for (int i = 0; i < num_probes; ++i) {
    const uint64_t p = probes.position();
    bits[p >> 3] |= static_cast<uint8_t>(1u << (p & 7));
    probes.Next(i);
  }
}

// Early exit: each probe may be a cache miss, and most negatives stop after
// one or two.
inline bool StandardMayMatch(uint64_t hash, uint64_t num_bits, int num_probes,
                             const uint8_t* bits) {
  StandardProbes probes(hash, num_bits);
  for (int i = 0; i < num_probes; ++i) {
    const uint64_t p = probes.position();
    if ((bits[p >> 3] & (1u << (p & 7))) == 0) return false;
    probes.Next(i);
  }
  return true;
}

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_STANDARD_BLOOM_H_
