// Copyright 2026 The bloomgate Authors.

#include "lsm/live_allocation.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "absl/status/statusor.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"

namespace bloomgate::lsm {
namespace {

// A table, or the output: its key range and key count.
struct Piece {
  std::string_view smallest;
  std::string_view largest;
  uint64_t keys;
};

// One run of the allocation: a level-0 table, or a level >= 1.
struct Run {
  uint64_t keys = 0;
  std::vector<Piece> pieces;
  // The live tables of the run other than the output (their memory is
  // already spent).
  std::vector<const Table*> tables;
};

// The share of `largest`'s keys in pieces that overlap one of `run`'s: how
// many lookups spread like the keys fall in the run's key range.
double Reach(const Run& run, const Run& largest) {
  if (&run == &largest || largest.keys == 0) return 1;
  uint64_t covered = 0;
  for (const Piece& d : largest.pieces) {
    for (const Piece& p : run.pieces) {
      if (d.largest >= p.smallest && d.smallest <= p.largest) {
        covered += d.keys;
        break;
      }
    }
  }
  return static_cast<double>(covered) / static_cast<double>(largest.keys);
}

// The bits per key to ask for so that a block of about `keys` keys takes
// `bits_per_key` per key in all, header and rounding included. The rounding
// up to whole cache lines depends on the exact key count, which a
// compaction knows only once it cuts the table, so it is averaged over one
// line's worth of key counts around `keys`.
double WithoutBlockOverhead(const FilterSpec& spec, double bits_per_key,
                            uint64_t keys) {
  absl::StatusOr<FilterBuilder> builder =
      FilterBuilder::Create(spec.Options(bits_per_key));
  if (!builder.ok()) return bits_per_key;
  constexpr int kSamples = 8;
  const double keys_per_line = 512 / bits_per_key;
  double overhead = 0;
  for (int i = 0; i < kSamples; ++i) {
    const uint64_t n =
        keys + static_cast<uint64_t>(i * keys_per_line / kSamples);
    overhead += 8.0 * static_cast<double>(builder->BlockSize(n)) -
                bits_per_key * static_cast<double>(n);
  }
  overhead /= kSamples;
  return std::max(bits_per_key / 2,
                  bits_per_key - overhead / static_cast<double>(keys));
}

// How fast the excess of the live filters over their shares is repaid: the
// next outputs' budget is lowered by kRepayRate times the excess per live
// key. The outputs are a fraction of the live keys, so a rate of 1 would
// repay too slowly for trees whose levels keep moving down; in the LSM's
// tests 3 keeps 3- to 5-level trees within 2% of the budget without the
// budget swinging between its bounds.
constexpr double kRepayRate = 3;

}  // namespace

double LiveTreeBitsPerKey(const FilterSpec& spec, const Version& base,
                          const std::vector<TablePtr>& inputs,
                          const PendingOutput& output) {
  if (output.keys == 0) return spec.bits_per_key;
  std::unordered_set<uint64_t> replaced;
  for (const TablePtr& t : inputs) replaced.insert(t->number());

  // The runs of the tree once the output is installed.
  std::vector<Run> runs;
  size_t output_run = 0;
  const int num_levels = static_cast<int>(base.levels.size());
  for (int level = 0; level < num_levels; ++level) {
    if (level > 0) runs.emplace_back();
    for (const TablePtr& t : base.levels[level]) {
      if (replaced.contains(t->number())) continue;
      if (level == 0) runs.emplace_back();
      Run& run = runs.back();
      const uint64_t keys = t->properties().num_entries;
      run.keys += keys;
      run.pieces.push_back({t->smallest(), t->largest(), keys});
      run.tables.push_back(t.get());
    }
    if (level == output.level) {
      if (level == 0) runs.emplace_back();
      output_run = runs.size() - 1;
      runs.back().keys += output.keys;
      runs.back().pieces.push_back(
          {output.smallest, output.largest, output.keys});
    }
  }

  // The run with the most keys says best how the keys (and so uniformly
  // spread lookups) are spread over the key space.
  const Run* largest = &*std::max_element(
      runs.begin(), runs.end(),
      [](const Run& a, const Run& b) { return a.keys < b.keys; });
  std::vector<FilterRun> shape;
  for (const Run& run : runs) {
    shape.push_back(
        {.keys = static_cast<double>(run.keys), .reach = Reach(run, *largest)});
  }
  absl::StatusOr<std::vector<double>> share =
      AllocateBitsPerKey(spec.layout, spec.bits_per_key, shape);
  if (!share.ok()) return spec.bits_per_key;

  // What the other live tables' filters hold beyond their runs' shares is
  // repaid by every key written from now on, in proportion: the output's
  // run gets its share of a budget smaller (or larger) by the excess over
  // the live keys.
  double excess_bits = 0;
  double live_keys = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    live_keys += static_cast<double>(runs[i].keys);
    for (const Table* t : runs[i].tables) {
      excess_bits +=
          8.0 * static_cast<double>(t->filter_bytes()) -
          (*share)[i] * static_cast<double>(t->properties().num_entries);
    }
  }
  const double repaying = std::clamp(
      spec.bits_per_key - kRepayRate * excess_bits / live_keys,
      spec.bits_per_key / 2, std::min(2 * spec.bits_per_key, kMaxBitsPerKey));
  if (absl::StatusOr<std::vector<double>> adjusted =
          AllocateBitsPerKey(spec.layout, repaying, shape);
      adjusted.ok()) {
    share = std::move(adjusted);
  }
  const double corrected = (*share)[output_run];
  if (corrected <= 0) return 0;
  return WithoutBlockOverhead(
      spec, corrected,
      std::max<uint64_t>(
          1, output.keys / std::max<uint64_t>(1, output.num_tables)));
}

}  // namespace bloomgate::lsm
