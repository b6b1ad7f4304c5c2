// Copyright 2026 The bloomgate Authors.
//
// MeasureCosts: what a mixed policy's cost model takes from this machine and
// this RocksDB rather than from constants (bloomgate/allocation.h,
// MeasuredCosts).

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/const_init.h"
#include "absl/synchronization/mutex.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/slice.h"
#include "src/rocksdb/builtin_filters.h"
#include "src/rocksdb/spec_filter_policy.h"

namespace bloomgate {
namespace {

// The calibration's filters: 2^16 keys at 10 bits per key (Ribbon at its
// parameter 10), 80 KB of bloomgate's or ~58 KB of Ribbon's, in the L2 cache
// of most servers as a block cache's hot filters are; probed with 2^16
// absent keys, five times, the median kept.
constexpr uint64_t kCalibrationKeys = uint64_t{1} << 16;
constexpr int kCalibrationRounds = 5;

// Key i: its 8 bytes, then "bg" so that no key is a sample build's.
std::string CalibrationKey(uint64_t i) {
  std::string key(sizeof(i) + 2, 'g');
  std::memcpy(key.data(), &i, sizeof(i));
  key[sizeof(i)] = 'b';
  return key;
}

// Median ns per MayMatch of an absent key, through RocksDB's FilterBitsReader
// as RocksDB calls it on Get, of `spec`'s filter over kCalibrationKeys keys.
// NaN where the spec builds no filter.
double ProbeNanos(const FilterSpec& spec) {
  std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
      rocksdb_internal::NewSpecBitsBuilder(spec);
  if (builder == nullptr) return std::nan("");
  for (uint64_t i = 0; i < kCalibrationKeys; ++i) {
    builder->AddKey(CalibrationKey(i));
  }
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice block = builder->Finish(&buf);
  std::unique_ptr<rocksdb::FilterBitsReader> reader =
      rocksdb_internal::NewSpecBitsReader(spec, block);
  std::vector<std::string> absent;
  absent.reserve(kCalibrationKeys);
  for (uint64_t i = 0; i < kCalibrationKeys; ++i) {
    absent.push_back(CalibrationKey(kCalibrationKeys + i));
  }
  std::array<double, kCalibrationRounds> nanos{};
  uint64_t hits = 0;  // used, so that the probes are not optimised away
  for (double& round : nanos) {
    const auto start = std::chrono::steady_clock::now();
    for (const std::string& key : absent) hits += reader->MayMatch(key);
    const std::chrono::duration<double, std::nano> took =
        std::chrono::steady_clock::now() - start;
    round = took.count() / static_cast<double>(absent.size());
  }
  std::sort(nanos.begin(), nanos.end());
  // Every probe answering "may match" would mean no filter at all.
  if (hits == kCalibrationRounds * kCalibrationKeys) return std::nan("");
  return nanos[kCalibrationRounds / 2];
}

// The probe times, measured once per process.
struct ProbeTimes {
  double bloomgate_micros = kDefaultBloomgateProbeMicros;
  double ribbon_micros = kDefaultRocksDBRibbonProbeMicros;
};

ProbeTimes CalibrateProbes() {
  ProbeTimes times;
  const double bloomgate = ProbeNanos(FilterSpec{});
  const double ribbon =
      ProbeNanos(FilterSpec{.family = FilterFamily::kRocksDBRibbon});
  if (std::isfinite(bloomgate) && bloomgate > 0) {
    times.bloomgate_micros = bloomgate / 1000;
  }
  if (std::isfinite(ribbon) && ribbon > 0) times.ribbon_micros = ribbon / 1000;
  return times;
}

const ProbeTimes& MeasuredProbeTimes() {
  static const ProbeTimes* times = new ProbeTimes(CalibrateProbes());
  return *times;
}

// Ribbon's overhead for filters of `num_keys` keys, as RocksDB sizes them
// and rates them: over the parameters a mixed policy's Ribbon levels take,
// the memory per key over the bits of FP rate it buys, less 1.
double RibbonOverheadFromRocksDB(uint64_t num_keys) {
  double bits = 0;
  double fp_bits = 0;
  for (double parameter : {8.0, 12.0, 16.0, 20.0}) {
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder =
        rocksdb_internal::NewSpecBitsBuilder(
            {.family = FilterFamily::kRocksDBRibbon,
             .bits_per_key = parameter});
    if (builder == nullptr) continue;
    const uint64_t bytes = rocksdb_internal::BuiltinSpace(*builder, num_keys);
    const double fp =
        rocksdb_internal::BuiltinFpRate(*builder, num_keys, bytes);
    if (!(fp > 0 && fp < 1)) continue;
    bits += 8.0 * static_cast<double>(bytes) / static_cast<double>(num_keys);
    fp_bits += -std::log2(fp);
  }
  if (!(fp_bits > 0)) return kRibbonSlotOverhead;
  return std::max(0.0, bits / fp_bits - 1);
}

// RibbonOverheadFromRocksDB at the size class of `num_keys` (quarter
// octaves: within 19% of it), computed once per class.
double RibbonOverhead(uint64_t num_keys) {
  const int size_class = static_cast<int>(
      std::lround(4 * std::log2(std::max<uint64_t>(num_keys, 1))));
  static absl::Mutex mu(absl::kConstInit);
  static auto* by_class = new std::map<int, double>();
  absl::MutexLock lock(&mu);
  auto it = by_class->find(size_class);
  if (it == by_class->end()) {
    const auto keys = static_cast<uint64_t>(
        std::llround(std::exp2(static_cast<double>(size_class) / 4)));
    it = by_class
             ->emplace(size_class,
                       RibbonOverheadFromRocksDB(std::max<uint64_t>(keys, 1)))
             .first;
  }
  return it->second;
}

}  // namespace

MeasuredCosts MeasureCosts(uint64_t file_keys) {
  const ProbeTimes& probes = MeasuredProbeTimes();
  return {.bloomgate_probe_micros = probes.bloomgate_micros,
          .ribbon_probe_micros = probes.ribbon_micros,
          .ribbon_overhead = RibbonOverhead(file_keys)};
}

}  // namespace bloomgate
