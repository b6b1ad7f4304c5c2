// Copyright 2026 The bloomgate Authors.

#include "src/lsm/stats_recorder.h"

#include <atomic>
#include <cstddef>
#include <type_traits>

namespace bloomgate::lsm {
namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

// Copies the `fields` of `from` to `to`, each read atomically.
template <typename Stats, size_t N>
void Load(const StatField<Stats> (&fields)[N], Stats& from,
          std::type_identity_t<Stats>& to) {
  for (const StatField<Stats>& f : fields) {
    if (f.count != nullptr) {
      to.*f.count = std::atomic_ref<uint64_t>(from.*f.count).load(kRelaxed);
    } else {
      to.*f.sum = std::atomic_ref<double>(from.*f.sum).load(kRelaxed);
    }
  }
}

template <typename Stats, size_t N>
void Clear(const StatField<Stats> (&fields)[N], Stats& s) {
  for (const StatField<Stats>& f : fields) {
    if (f.count != nullptr) {
      std::atomic_ref<uint64_t>(s.*f.count).store(0, kRelaxed);
    } else {
      std::atomic_ref<double>(s.*f.sum).store(0, kRelaxed);
    }
  }
}

}  // namespace

StatsRecorder::StatsRecorder(int num_levels)
    : num_levels_(num_levels), levels_(new Level[num_levels]) {}

void StatsRecorder::RecordGet(const GetTally* tallies, int levels_touched,
                              bool hit, bool memtable) {
  uint64_t reads = 0;
  for (int l = 0; l < levels_touched; ++l) {
    const GetTally& t = tallies[l];
    if (t.files_considered == 0) continue;
    LevelLookupStats& s = levels_[l].counts;
    for (const auto& f : kLevelLookupStatFields) {
      if (f.count != nullptr) {
        Add(s.*f.count, t.*f.count);
      } else {
        Add(s.*f.sum, t.*f.sum);
      }
    }
    reads += t.data_block_reads;
  }
  Add(store_.gets, 1);
  Add(hit ? store_.hits : store_.misses, 1);
  if (memtable) Add(store_.memtable_hits, 1);
  Add(hit ? store_.hit_reads : store_.miss_reads, reads);
}

void StatsRecorder::Fill(IoStats* out) const {
  for (int l = 0; l < num_levels_; ++l) {
    Load(kLevelLookupStatFields, levels_[l].counts, out->levels[l]);
  }
  Load(kStoreStatFields, store_, *out);
}

void StatsRecorder::Reset() {
  for (int l = 0; l < num_levels_; ++l) {
    Clear(kLevelLookupStatFields, levels_[l].counts);
  }
  Clear(kStoreStatFields, store_);
}

}  // namespace bloomgate::lsm
