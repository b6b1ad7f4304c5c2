// Copyright 2026 The bloomgate Authors.

#include "src/spec/live_tree_allocation.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_builder.h"
#include "bloomgate/filter_options.h"

namespace bloomgate {
namespace {

// How much of the live filters' excess over their shares an output pays
// back: kRepayRate times its share of the live keys, at most
// kMaxRepaidShare. In proportion to its keys, so that a small flush does
// not give up half its filter for files it did not write; capped, so that a
// compaction that rewrites half the tree does not overpay and swing the
// memory the other way (an uncapped rate of 3 did on RocksDB: 4.8 and
// 17.1 bits/key for successive rewrites of the last level).
constexpr double kRepayRate = 3;
constexpr double kMaxRepaidShare = 0.5;

// A file, or the output: its key range and key count.
struct Piece {
  std::string_view smallest;
  std::string_view largest;
  uint64_t keys;
};

// One run of the allocation: a level-0 file, or a level >= 1, of one tree.
struct Run {
  int tree = 0;
  uint64_t keys = 0;
  std::vector<Piece> pieces;
  // The live files of the run other than the output (their memory is
  // already spent).
  std::vector<const LiveFile*> files;
};

// A run's pieces sorted by their smallest key, with the largest key of
// each prefix: whether a key range overlaps any of them is then one binary
// search, so that the reach of every run of a tree of thousands of files
// costs (files x runs x log files) comparisons, not files squared.
class RangeIndex {
 public:
  explicit RangeIndex(absl::Span<const Piece> pieces)
      : pieces_(pieces.begin(), pieces.end()) {
    std::sort(
        pieces_.begin(), pieces_.end(),
        [](const Piece& a, const Piece& b) { return a.smallest < b.smallest; });
    std::string_view largest;
    for (const Piece& p : pieces_) {
      if (max_largest_.empty() || p.largest > largest) largest = p.largest;
      max_largest_.push_back(largest);
    }
  }

  // Whether [smallest, largest] overlaps one of the pieces: of those that
  // start at or before `largest`, one ends at or after `smallest`.
  bool Overlaps(std::string_view smallest, std::string_view largest) const {
    const auto starts_after = std::upper_bound(
        pieces_.begin(), pieces_.end(), largest,
        [](std::string_view key, const Piece& p) { return key < p.smallest; });
    const size_t n = static_cast<size_t>(starts_after - pieces_.begin());
    return n > 0 && max_largest_[n - 1] >= smallest;
  }

 private:
  std::vector<Piece> pieces_;
  std::vector<std::string_view> max_largest_;  // over pieces_[0..i]
};

// The share of the tree's keys that lie in pieces overlapping one of
// `run`'s (indexed by `index`): how many lookups spread like the keys fall
// in the run's key range. Counted over every run's pieces of the same tree,
// not only the largest run's: a young tree's last level may not span the
// key space yet, and a run beyond its range is still reached.
double KeyReach(const Run& run, const RangeIndex& index,
                absl::Span<const Run> runs) {
  uint64_t covered = 0, total = 0;
  for (const Run& other : runs) {
    if (other.tree != run.tree) continue;
    for (const Piece& d : other.pieces) {
      total += d.keys;
      if (index.Overlaps(d.smallest, d.largest)) covered += d.keys;
    }
  }
  if (total == 0) return 1;
  return static_cast<double>(covered) / static_cast<double>(total);
}

// Each run's reach within its tree, measured: the share of the tree's
// absent lookups whose key lies in the run's key range. A sample is a probe,
// and a lookup of a key that `d` of the tree's runs hold made d probes, any
// of which could have been the one kept: a sample stands for 1/d lookups
// (its weight over d), and each of its d runs is reached by them. So a
// run's reach is the lookups its samples stand for over all the lookups the
// samples stand for (*lookups); a sample no run holds now (between the
// tree's files) stands for none. Runs of other trees get 0.
std::vector<double> MeasuredReach(
    int tree, absl::Span<const Run> runs, absl::Span<const RangeIndex> index,
    absl::Span<const LookupSampler::Sample> samples, double* lookups) {
  std::vector<double> reach(runs.size(), 0);
  std::vector<size_t> holders;
  *lookups = 0;
  for (const LookupSampler::Sample& sample : samples) {
    holders.clear();
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].tree == tree && index[i].Overlaps(sample.key, sample.key)) {
        holders.push_back(i);
      }
    }
    if (holders.empty()) continue;
    const double stands_for =
        sample.weight / static_cast<double>(holders.size());
    for (size_t i : holders) reach[i] += stands_for;
    *lookups += stands_for;
  }
  if (*lookups > 0) {
    for (double& r : reach) r /= *lookups;
  }
  return reach;
}

// The trees whose samples weigh at least kLeastMeasuredSamples.
std::set<int> MeasuredTrees(absl::Span<const TreeLookups> lookups) {
  std::set<int> measured;
  for (size_t t = 0; t < lookups.size(); ++t) {
    double weight = 0;
    for (const LookupSampler::Sample& s : lookups[t].samples) {
      weight += s.weight;
    }
    if (weight >= kLeastMeasuredSamples) measured.insert(static_cast<int>(t));
  }
  return measured;
}

// Each run's reach over the pool: its reach within its tree (measured for
// the trees in `measured`, else KeyReach) times its tree's share of the
// lookups (lookups_of below), and in *share, `tree`'s share. With one tree,
// or with nothing measured and trees of one shape, the reach without a
// pool.
std::vector<double> PoolReach(absl::Span<const Run> runs,
                              absl::Span<const TreeLookups> lookups,
                              const std::set<int>& measured, int tree,
                              double* share) {
  *share = 1;
  std::vector<RangeIndex> index;
  index.reserve(runs.size());
  for (const Run& run : runs) index.emplace_back(run.pieces);
  std::vector<double> reach(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    reach[i] = KeyReach(runs[i], index[i], runs);
  }
  // Per tree: its keys, and the lookups its samples stand for.
  std::map<int, std::pair<double, double>> trees;
  double all_keys = 0;
  for (const Run& run : runs) {
    trees[run.tree].first += static_cast<double>(run.keys);
    all_keys += static_cast<double>(run.keys);
  }
  for (auto& [t, keys_weight] : trees) {
    if (static_cast<size_t>(t) >= lookups.size()) continue;
    const std::vector<double> by_samples =
        MeasuredReach(t, runs, index, lookups[static_cast<size_t>(t)].samples,
                      &keys_weight.second);
    if (!measured.contains(t) || keys_weight.second <= 0) continue;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].tree == t) reach[i] = by_samples[i];
    }
  }
  if (trees.size() == 1) return reach;  // one tree: its share is all
  // A tree's lookups: its samples' weight, and kLeastMeasuredSamples spread
  // over the trees by their keys, as if that many had been seen spread like
  // the keys: with nothing measured the shares are the keys', and a tree
  // that has just opened is not starved before its lookups are seen.
  auto lookups_of = [&](int t) {
    const auto& [keys, weight] = trees[t];
    return weight +
           (all_keys > 0 ? kLeastMeasuredSamples * keys / all_keys : 0);
  };
  double total = 0;
  for (const auto& entry : trees) total += lookups_of(entry.first);
  if (total <= 0) return reach;
  for (size_t i = 0; i < runs.size(); ++i) {
    reach[i] *= lookups_of(runs[i].tree) / total;
  }
  *share = lookups_of(tree) / total;
  return reach;
}

// The runs of the trees once `output` joins `files`, tree by tree: each
// level-0 file (the output too, if it is one), then each deeper level, or,
// for the trees in `by_file` (those whose lookups are measured), each file
// of a deeper level and the output: measured lookups tell one key range
// of a level from another, and a level's run would average them away.
// *output_run is the output's.
std::vector<Run> RunsOf(absl::Span<const LiveFile> files,
                        const PendingOutput& output,
                        const std::set<int>& by_file, size_t* output_run) {
  std::map<int, int> num_levels{{output.tree, output.level + 1}};
  for (const LiveFile& f : files) {
    int& n = num_levels[f.tree];
    n = std::max(n, f.level + 1);
  }
  std::vector<Run> runs;
  auto add = [](Run& run, std::string_view smallest, std::string_view largest,
                uint64_t keys) {
    run.keys += keys;
    run.pieces.push_back({smallest, largest, keys});
  };
  for (const auto& [tree, levels] : num_levels) {
    for (const LiveFile& f : files) {
      if (f.tree != tree || f.level != 0) continue;
      runs.emplace_back().tree = tree;
      add(runs.back(), f.smallest, f.largest, f.keys);
      runs.back().files.push_back(&f);
    }
    const bool has_output = tree == output.tree;
    if (has_output && output.level == 0) runs.emplace_back().tree = tree;
    if (by_file.contains(tree)) {
      for (const LiveFile& f : files) {
        if (f.tree != tree || f.level == 0) continue;
        runs.emplace_back().tree = tree;
        add(runs.back(), f.smallest, f.largest, f.keys);
        runs.back().files.push_back(&f);
      }
      if (!has_output) continue;
      if (output.level != 0) runs.emplace_back().tree = tree;
      *output_run = runs.size() - 1;
      add(runs[*output_run], output.smallest, output.largest, output.keys);
      continue;
    }
    // Level L >= 1 is runs[level_one + L - 1].
    const size_t level_one = runs.size();
    runs.resize(level_one + levels - 1);
    for (size_t i = level_one; i < runs.size(); ++i) runs[i].tree = tree;
    for (const LiveFile& f : files) {
      if (f.tree != tree || f.level == 0) continue;
      Run& run = runs[level_one + f.level - 1];
      add(run, f.smallest, f.largest, f.keys);
      run.files.push_back(&f);
    }
    if (!has_output) continue;
    *output_run =
        output.level == 0 ? level_one - 1 : level_one + output.level - 1;
    add(runs[*output_run], output.smallest, output.largest, output.keys);
  }
  return runs;
}

// The keys of the level-0 files still to come once `output` is in: as many
// flushes as output.level0_files leaves room for beside the level-0 runs of
// `runs` (at least one), each of output.flush_keys keys.
double ComingLevel0Keys(absl::Span<const Run> runs,
                        const PendingOutput& output) {
  int level0_runs = 0;
  for (const Run& run : runs) {
    if (run.tree == output.tree && !run.files.empty() &&
        run.files.front()->level == 0) {
      ++level0_runs;
    }
  }
  if (output.level == 0) ++level0_runs;
  // At least one: flushes go on while level 0 waits for its compaction.
  const int coming = output.level0_files > 0
                         ? std::max(1, output.level0_files - level0_runs)
                         : 0;
  return static_cast<double>(coming) * static_cast<double>(output.flush_keys);
}

// The bits per key to ask for so that a block of about `keys` keys takes
// `bits_per_key` per key in all, header and rounding included. The rounding
// up to whole cache lines depends on the exact key count, which a
// compaction knows only once it cuts the file, so it is averaged over one
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

// Below this many bits per key a budgeted output goes without a filter: a
// filter's memory then buys little (an FP rate above 0.85), and the
// allocation's own smallest share is 0.25 (AllocateBitsPerKey).
constexpr double kLeastBudgetedBitsPerKey = 0.25;

// The average bits per key the runs share: with a byte budget, the budget
// over the live keys once the output is in (at most kMaxBitsPerKey, which
// the allocation takes), otherwise spec.bits_per_key.
double AverageBitsPerKey(const FilterSpec& spec, double live_keys) {
  if (spec.memory_budget_bytes == 0 || live_keys <= 0) return spec.bits_per_key;
  return std::min(
      kMaxBitsPerKey,
      8.0 * static_cast<double>(spec.memory_budget_bytes) / live_keys);
}

// A byte budget is a cap, not an average to converge to: `output`'s bits
// per key, `bits` by its share, become no more than what the other live
// filters (`other_bits`) leave of `budget_bytes`; 0 below
// kLeastBudgetedBitsPerKey. (The level-0 files to come shaped the shares;
// the cap is what is spent, so that a flush is not refused what is kept
// for flushes.) But a flush keeps half its share (`own_share`) whatever the
// others hold: every lookup passes every level-0 file, so one without a
// filter costs a read per lookup, and the compaction that soon rewrites it
// is capped and pays the excess back.
double WithinBudget(uint64_t budget_bytes, const PendingOutput& output,
                    double bits, double own_share, double other_bits) {
  const double left = 8.0 * static_cast<double>(budget_bytes) - other_bits;
  const double capped = std::min(bits, left / static_cast<double>(output.keys));
  const double within =
      output.level == 0 ? std::max(capped, own_share / 2) : capped;
  return within < kLeastBudgetedBitsPerKey ? 0 : within;
}

// Each run's share: with mixed, AllocateByCost's family and bits; else
// spec's family at AllocateBitsPerKey's bits, the fewest wasted reads
// whatever the probes cost, as a single-family tree has always been sized.
absl::StatusOr<std::vector<RunFilter>> MixedOrOneFamily(
    const FilterSpec& spec, absl::Span<const FilterRun> shape,
    const CostInputs& inputs) {
  if (spec.mixed) {
    return AllocateByCost(CostModelFor(spec, inputs), spec.bits_per_key, shape);
  }
  absl::StatusOr<std::vector<double>> bits =
      AllocateBitsPerKey(spec.layout, spec.bits_per_key, shape);
  if (!bits.ok()) return bits.status();
  std::vector<RunFilter> share;
  for (double b : *bits) {
    share.push_back({.family = b > 0 ? spec.family : FilterFamily::kNone,
                     .layout = spec.layout,
                     .bits_per_key = b});
  }
  return share;
}

}  // namespace

double LiveTreeBitsPerKey(const FilterSpec& spec,
                          absl::Span<const LiveFile> files,
                          const PendingOutput& output,
                          absl::Span<const TreeLookups> lookups) {
  FilterSpec one_family = spec;
  one_family.mixed = false;
  return LiveTreeFilter(one_family, files, output, {}, lookups).bits_per_key;
}

RunFilter LiveTreeFilter(const FilterSpec& spec,
                         absl::Span<const LiveFile> files,
                         const PendingOutput& output, const CostInputs& inputs,
                         absl::Span<const TreeLookups> lookups) {
  const RunFilter average{.family = spec.family,
                          .layout = spec.layout,
                          .bits_per_key = spec.bits_per_key};
  if (output.keys == 0) return average;
  const std::set<int> measured = MeasuredTrees(lookups);
  size_t output_run = 0;
  const std::vector<Run> runs = RunsOf(files, output, measured, &output_run);

  double output_tree_share = 1;
  const std::vector<double> reach =
      PoolReach(runs, lookups, measured, output.tree, &output_tree_share);
  std::vector<FilterRun> shape;
  double live_keys = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    shape.push_back(
        {.keys = static_cast<double>(runs[i].keys), .reach = reach[i]});
    live_keys += static_cast<double>(runs[i].keys);
  }
  // With a budget, the flushes to come are a run (each spans about the key
  // range, as a flush of keys spread like the tree's does, and so every
  // lookup of the tree reaches it): the other runs' shares leave room for
  // theirs.
  const double coming_keys =
      spec.memory_budget_bytes != 0 ? ComingLevel0Keys(runs, output) : 0;
  if (coming_keys > 0) {
    shape.push_back({.keys = coming_keys, .reach = output_tree_share});
    live_keys += coming_keys;
  }
  FilterSpec at_average = spec;
  at_average.bits_per_key = AverageBitsPerKey(spec, live_keys);
  absl::StatusOr<std::vector<RunFilter>> share =
      MixedOrOneFamily(at_average, shape, inputs);
  if (!share.ok()) return average;

  // What the other live files' filters hold beyond their runs' shares
  // (written for an earlier shape of the tree, or moved down a level) is
  // paid back by the outputs written from now on: those of the same tree,
  // which will rewrite them, not another tree's of a pool, which would
  // only shrink while the excess stayed.
  double excess_bits = 0;
  double other_bits = 0;
  double tree_keys = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const bool own_tree = runs[i].tree == output.tree;
    if (own_tree) tree_keys += static_cast<double>(runs[i].keys);
    for (const LiveFile* f : runs[i].files) {
      const double held =
          f->filter_bytes.has_value()
              ? 8.0 * static_cast<double>(*f->filter_bytes)
              : (*share)[i].bits_per_key * static_cast<double>(f->keys);
      other_bits += held;
      if (!own_tree) continue;
      excess_bits +=
          held - (*share)[i].bits_per_key * static_cast<double>(f->keys);
    }
  }
  const double out_keys = static_cast<double>(output.keys);
  const double repaid = std::min(
      kMaxRepaidShare, kRepayRate * out_keys /
                           (tree_keys + (coming_keys > 0 ? coming_keys : 0)));
  RunFilter filter = (*share)[output_run];
  const double own_share = filter.bits_per_key;
  // In a pool an output takes no more than its share: outputs come one at a
  // time, and one that made up for the others' deficit would leave the
  // next ones, of this tree or another, what the pool's size no longer
  // holds (the first files of a rewrite took it all, the last got none).
  const double most =
      spec.pool.empty() ? std::min(2 * own_share, kMaxBitsPerKey) : own_share;
  double bits = std::clamp(own_share - repaid * excess_bits / out_keys,
                           std::min(own_share / 2, most), most);
  if (spec.memory_budget_bytes != 0) {
    bits = WithinBudget(spec.memory_budget_bytes, output, bits, own_share,
                        other_bits);
  }
  if (bits <= 0 || filter.family == FilterFamily::kNone) return RunFilter{};
  filter.bits_per_key = bits;
  if (filter.family == FilterFamily::kBloomgate) {
    filter.bits_per_key = WithoutBlockOverhead(
        spec, bits,
        std::max<uint64_t>(
            1, output.keys / std::max<uint64_t>(1, output.num_files)));
  }
  return filter;
}

}  // namespace bloomgate
