// Copyright 2026 The bloomgate Authors.

#include "tools/bench/workload.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bloomgate/absl_compat.h"

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

namespace {

// A fraction given as text, in [lo, hi]; `what` names it in the error.
absl::StatusOr<double> ParseFraction(absl::string_view what,
                                     absl::string_view text, double lo,
                                     double hi, bool lo_open) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  const bool in_range =
      lo_open ? value > lo && value <= hi : value >= lo && value <= hi;
  if (text.empty() || ec != std::errc() || ptr != end || !in_range) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " \"", text, "\" must be a number in ",
                     lo_open ? "(" : "[", lo, ", ", hi, "]"));
  }
  return value;
}

constexpr absl::string_view kDistForms =
    "expected uniform, zipfian:<theta>, hotspot:<key fraction>:<lookup "
    "fraction> or latest:<key fraction>";

}  // namespace

std::string LookupDistribution::Name() const {
  switch (kind) {
    case Kind::kUniform:
      return "uniform";
    case Kind::kZipfian:
      return absl::StrFormat("zipfian:%g", theta);
    case Kind::kHotspot:
      return absl::StrFormat("hotspot:%g:%g", key_fraction, lookup_fraction);
    case Kind::kLatest:
      return absl::StrFormat("latest:%g", key_fraction);
  }
  return "?";
}

absl::StatusOr<LookupDistribution> LookupDistribution::Parse(
    std::string_view text) {
  const std::vector<absl::string_view> f = absl::StrSplit(ToAbsl(text), ':');
  auto error = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("lookup distribution \"",
                                                   ToAbsl(text), "\": ", what,
                                                   "; ", kDistForms));
  };
  LookupDistribution d;
  if (f[0] == "uniform" && f.size() == 1) return d;
  if (f[0] == "zipfian" && f.size() == 2) {
    // theta = 1 makes the generator's alpha infinite.
    absl::StatusOr<double> theta = ParseFraction("theta", f[1], 0, 0.999999,
                                                 /*lo_open=*/true);
    if (!theta.ok()) return error(theta.status().message());
    d.kind = Kind::kZipfian;
    d.theta = *theta;
    return d;
  }
  if ((f[0] == "hotspot" && f.size() == 3) ||
      (f[0] == "latest" && f.size() == 2)) {
    absl::StatusOr<double> keys =
        ParseFraction("key fraction", f[1], 0, 1, /*lo_open=*/true);
    if (!keys.ok()) return error(keys.status().message());
    d.key_fraction = *keys;
    d.kind = f[0] == "latest" ? Kind::kLatest : Kind::kHotspot;
    if (d.kind == Kind::kLatest) return d;
    absl::StatusOr<double> lookups =
        ParseFraction("lookup fraction", f[2], 0, 1, /*lo_open=*/false);
    if (!lookups.ok()) return error(lookups.status().message());
    d.lookup_fraction = *lookups;
    return d;
  }
  return error("unknown form");
}

IndexPicker::IndexPicker(const LookupDistribution& dist, int64_t n)
    : dist_(dist), n_(std::max<int64_t>(n, 1)) {
  if (dist_.kind != LookupDistribution::Kind::kZipfian) return;
  const double theta = dist_.theta;
  for (int64_t i = 1; i <= n_; ++i) {
    zetan_ += 1.0 / std::pow(static_cast<double>(i), theta);
  }
  const double zeta2 = 1.0 + 1.0 / std::pow(2.0, theta);
  alpha_ = 1.0 / (1.0 - theta);
  eta_ = (1.0 - std::pow(2.0 / static_cast<double>(n_), 1.0 - theta)) /
         (1.0 - zeta2 / zetan_);
  half_pow_theta_ = 1.0 + std::pow(0.5, theta);
}

int64_t IndexPicker::Pick(Random64& random) const {
  using Kind = LookupDistribution::Kind;
  const auto n = static_cast<uint64_t>(n_);
  switch (dist_.kind) {
    case Kind::kUniform:
      return static_cast<int64_t>(random.Uniform(n));
    case Kind::kZipfian: {
      const double u = random.NextDouble();
      const double uz = u * zetan_;
      if (uz < 1.0) return 0;
      if (uz < half_pow_theta_) return std::min<int64_t>(1, n_ - 1);
      const auto r = static_cast<int64_t>(
          static_cast<double>(n_) * std::pow(eta_ * u - eta_ + 1.0, alpha_));
      return std::clamp<int64_t>(r, 0, n_ - 1);
    }
    case Kind::kHotspot: {
      const auto hot = std::clamp<uint64_t>(
          static_cast<uint64_t>(dist_.key_fraction * static_cast<double>(n)), 1,
          n);
      if (hot == n || random.NextDouble() < dist_.lookup_fraction) {
        return static_cast<int64_t>(random.Uniform(hot));
      }
      return static_cast<int64_t>(hot + random.Uniform(n - hot));
    }
    case Kind::kLatest: {
      const auto last = std::clamp<uint64_t>(
          static_cast<uint64_t>(dist_.key_fraction * static_cast<double>(n)), 1,
          n);
      return static_cast<int64_t>(n - last + random.Uniform(last));
    }
  }
  return 0;
}

}  // namespace bloomgate::bench
