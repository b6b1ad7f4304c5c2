// Copyright 2026 The bloomgate Authors.

#include "tools/bench/workload.h"

#include <algorithm>
#include <cstring>

namespace bloomgate::bench {

uint64_t StreamSeed(uint64_t seed, uint64_t stream, uint64_t thread) {
  Random64 mix(seed ^ (stream * 0x9e3779b97f4a7c15ULL) ^
               (thread * 0xc2b2ae3d27d4eb4fULL));
  return mix.Next();
}

void KeySpace::Slot(int64_t slot, std::string* key) const {
  key->assign(static_cast<size_t>(key_size_), '0');
  // Write the digits from the right; ValidateBenchOptions made sure they fit.
  auto value = static_cast<uint64_t>(slot);
  for (int pos = key_size_ - 1; pos >= 0 && value != 0; --pos) {
    (*key)[static_cast<size_t>(pos)] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
}

ValueSource::ValueSource(int value_size, uint64_t seed)
    : value_size_(value_size) {
  // 1 MiB plus one value, so that every start offset below 1 MiB fits.
  buffer_.resize((size_t{1} << 20) + static_cast<size_t>(value_size));
  Random64 random(seed);
  for (size_t i = 0; i < buffer_.size(); i += 8) {
    uint64_t word = random.Next();
    std::memcpy(&buffer_[i], &word, std::min<size_t>(8, buffer_.size() - i));
  }
}

std::string_view ValueSource::ValueFor(int64_t i) const {
  size_t offset = (static_cast<uint64_t>(i) * 0x9e3779b97f4a7c15ULL) >> 44;
  return std::string_view(buffer_).substr(offset,
                                          static_cast<size_t>(value_size_));
}

std::vector<int64_t> FillOrder(int64_t num, bool random, uint64_t seed) {
  std::vector<int64_t> order(static_cast<size_t>(num));
  for (int64_t i = 0; i < num; ++i) order[static_cast<size_t>(i)] = i;
  if (random) {
    Random64 rng(seed);
    for (int64_t i = num - 1; i > 0; --i) {
      auto j = static_cast<int64_t>(rng.Uniform(static_cast<uint64_t>(i + 1)));
      std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(j)]);
    }
  }
  return order;
}

}  // namespace bloomgate::bench
