// Copyright 2026 The bloomgate Authors.
//
// The plan's model: the memory it is for, each file's reach, and each
// policy's prediction.

#include "tools/sizer/plan.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/allocation.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "bloomgate/sizing.h"
#include "tools/sizer/size.h"

namespace bloomgate::tools {

// --- Sizes. ---

absl::StatusOr<uint64_t> ParseMemory(std::string_view text) {
  const std::string quoted = absl::StrCat("\"", std::string(text), "\"");
  absl::StatusOr<uint64_t> bytes = ParseByteSize(text);
  if (!bytes.ok()) {
    // The parser names the part it could not read; name the whole too.
    const std::string message(bytes.status().message());
    if (message.find(quoted) != std::string::npos) return bytes.status();
    return absl::InvalidArgumentError(
        absl::StrCat("not a size: ", quoted, " (", message, ")"));
  }
  if (*bytes == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("size ", quoted, " is no memory: give at least one byte"));
  }
  return bytes;
}
// --- Reach. ---

namespace {

// Where `key` lies between `lo` and `hi` (lo < hi), in [0, 1], with keys
// read as numbers past their common prefix: decimal where every byte there
// is a digit (the benchmark's zero-padded keys), else base 256, 8 bytes.
double Position(std::string_view lo, std::string_view hi,
                std::string_view key) {
  if (key <= lo) return 0;
  if (key >= hi) return 1;
  size_t common = 0;
  while (common < lo.size() && common < hi.size() && lo[common] == hi[common]) {
    ++common;
  }
  auto tail = [&](std::string_view s) {
    return s.substr(std::min(common, s.size()));
  };
  const std::string_view l = tail(lo), h = tail(hi), k = tail(key);
  auto all_digits = [](std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    });
  };
  const bool decimal = l.size() == h.size() && k.size() == h.size() &&
                       all_digits(l) && all_digits(h) && all_digits(k);
  const size_t width = decimal ? 17 : 8;
  const double base = decimal ? 10 : 256;
  auto value = [&](std::string_view s) {
    double v = 0;
    for (size_t i = 0; i < width; ++i) {
      const double digit =
          i < s.size()
              ? (decimal ? s[i] - '0' : static_cast<unsigned char>(s[i]))
              : 0;
      v = v * base + digit;
    }
    return v;
  };
  const double vl = value(l), vh = value(h), vk = value(k);
  if (!(vh > vl)) return 0.5;
  return std::clamp((vk - vl) / (vh - vl), 0.0, 1.0);
}

// The estimated count of the tree's entries at or below a key, each file's
// entries spread evenly (Position) over its key range. Sorted levels are
// searched; a level whose files overlap (L0) is summed file by file.
class KeyRanks {
 public:
  explicit KeyRanks(const std::vector<PlanFile>& files) {
    std::map<int, std::vector<const PlanFile*>> levels;
    for (const PlanFile& f : files) levels[f.level].push_back(&f);
    for (auto& [level, list] : levels) {
      std::sort(list.begin(), list.end(), [](const auto* a, const auto* b) {
        return a->smallest < b->smallest;
      });
      bool sorted = level > 0;
      for (size_t i = 1; sorted && i < list.size(); ++i) {
        sorted = list[i - 1]->largest < list[i]->smallest;
      }
      if (!sorted) {
        overlapping_.insert(overlapping_.end(), list.begin(), list.end());
        continue;
      }
      SortedLevel& out = sorted_.emplace_back();
      out.files = list;
      out.below.push_back(0);
      for (const PlanFile* f : list) {
        out.below.push_back(out.below.back() + static_cast<double>(f->entries));
      }
    }
  }

  double Rank(std::string_view key) const {
    double rank = 0;
    for (const PlanFile* f : overlapping_) rank += Share(*f, key);
    for (const SortedLevel& level : sorted_) {
      // The first file whose largest key is not below `key`.
      const auto it = std::lower_bound(
          level.files.begin(), level.files.end(), key,
          [](const PlanFile* f, std::string_view k) { return f->largest < k; });
      const size_t i = static_cast<size_t>(it - level.files.begin());
      rank += level.below[i];
      if (it != level.files.end()) rank += Share(**it, key);
    }
    return rank;
  }

 private:
  struct SortedLevel {
    std::vector<const PlanFile*> files;
    std::vector<double> below;  // entries of the files before each
  };

  static double Share(const PlanFile& f, std::string_view key) {
    if (key < f.smallest) return 0;
    if (key >= f.largest) return static_cast<double>(f.entries);
    return static_cast<double>(f.entries) *
           Position(f.smallest, f.largest, key);
  }

  std::vector<const PlanFile*> overlapping_;
  std::vector<SortedLevel> sorted_;
};

// Each file's reach: the share of the tree's entries inside its key range
// (absent keys spread like the present ones), or with `lookups` (sorted),
// the share of them inside it.
void SetReach(std::vector<PlanFile>& files,
              const std::vector<std::string>* lookups) {
  if (lookups != nullptr) {
    const double n = static_cast<double>(std::max<size_t>(1, lookups->size()));
    for (PlanFile& f : files) {
      const auto lo =
          std::lower_bound(lookups->begin(), lookups->end(), f.smallest);
      const auto hi = std::upper_bound(lo, lookups->end(), f.largest);
      f.reach = static_cast<double>(hi - lo) / n;
    }
    return;
  }
  const KeyRanks ranks(files);
  double total = 0;
  for (const PlanFile& f : files) total += static_cast<double>(f.entries);
  for (PlanFile& f : files) {
    const double inside = ranks.Rank(f.largest) - ranks.Rank(f.smallest);
    f.reach = total > 0 ? std::clamp(inside / total, 0.0, 1.0) : 0;
  }
}

// --- Predictions. ---

// The runs of level-aware allocation: each L0 file, then each deeper level;
// run_of[i] is file i's.
struct Runs {
  std::vector<FilterRun> runs;
  std::vector<size_t> run_of;
};

Runs RunsOf(const std::vector<PlanFile>& files) {
  Runs out;
  std::map<int, size_t> level_run;
  for (const PlanFile& f : files) {
    size_t run;
    if (f.level == 0) {
      run = out.runs.size();
      out.runs.push_back({.keys = 0, .reach = 0});
    } else if (auto it = level_run.find(f.level); it != level_run.end()) {
      run = it->second;
    } else {
      run = out.runs.size();
      level_run[f.level] = run;
      out.runs.push_back({.keys = 0, .reach = 0});
    }
    out.runs[run].keys += static_cast<double>(f.entries);
    out.runs[run].reach += f.reach;
    out.run_of.push_back(run);
  }
  return out;
}

double BloomFp(uint64_t keys, double bits) {
  return FilterSpec{.family = FilterFamily::kRocksDBBloom, .bits_per_key = bits}
      .PredictedFpRate(keys, bits);
}

// RocksDB Bloom's memory per key at parameter `bits`: whole cache lines.
double BloomMemory(uint64_t keys, double bits) {
  if (keys == 0) return 0;
  const FilterSpec spec{.family = FilterFamily::kRocksDBBloom,
                        .bits_per_key = bits};
  return static_cast<double>(spec.BitsFor(keys, bits)) /
         static_cast<double>(keys);
}

// Per-file FP rates and memory per key, to a prediction.
struct FileFilters {
  std::vector<double> fp;
  std::vector<double> bits;
  std::vector<std::string> family;
};

PolicyPlan Summarise(std::string name, std::string description,
                     const std::vector<PlanFile>& files,
                     const std::vector<PlanLevel>& levels,
                     const FileFilters& filters) {
  PolicyPlan plan;
  plan.name = std::move(name);
  plan.description = std::move(description);
  std::map<int, size_t> level_index;
  for (size_t i = 0; i < levels.size(); ++i) level_index[levels[i].level] = i;
  std::vector<double> bits(levels.size(), 0), keys(levels.size(), 0);
  std::vector<std::string> family(levels.size());
  bool mixed = false;
  for (size_t i = 0; i < files.size(); ++i) {
    plan.reads_per_absent_lookup += files[i].reach * filters.fp[i];
    const size_t l = level_index[files[i].level];
    bits[l] += filters.bits[i] * static_cast<double>(files[i].entries);
    keys[l] += static_cast<double>(files[i].entries);
    if (!filters.family.empty()) {
      const std::string& f = filters.family[i];
      if (family[l].empty()) {
        family[l] = f;
      } else if (family[l] != f && family[l].find(f) == std::string::npos) {
        family[l] += "+" + f;
      }
      mixed = true;
    }
  }
  for (size_t l = 0; l < levels.size(); ++l) {
    plan.level_bits_per_key.push_back(keys[l] > 0 ? bits[l] / keys[l] : 0);
  }
  if (mixed) plan.level_family = family;
  return plan;
}

// The predictions for one tree at one memory, a method per policy; each
// sets every file's FP rate and memory per key (FileFilters) and sums them
// up (Summarise).
class Predictor {
 public:
  Predictor(const std::vector<PlanFile>& files,
            const std::vector<PlanLevel>& levels, double average)
      : files_(files),
        levels_(levels),
        average_(average),
        runs_(RunsOf(files)) {
    for (const PlanFile& f : files_) {
      overhead_.push_back(CostInputsFor(f.entries).ribbon_overhead);
      keys_ += static_cast<double>(f.entries);
    }
    mean_keys_ = static_cast<uint64_t>(keys_ / static_cast<double>(n()));
  }

  absl::StatusOr<std::vector<PolicyPlan>> All() const {
    std::vector<PolicyPlan> plans;
    for (auto policy : {&Predictor::RocksDBBloom, &Predictor::RocksDBRibbon,
                        &Predictor::RocksDBHybrid, &Predictor::LevelAware,
                        &Predictor::Mixed, &Predictor::Floor}) {
      absl::StatusOr<PolicyPlan> plan = (this->*policy)();
      if (!plan.ok()) return plan.status();
      plans.push_back(*std::move(plan));
    }
    return plans;
  }

 private:
  size_t n() const { return files_.size(); }
  uint64_t keys(size_t i) const { return files_[i].entries; }

  FileFilters Filters(bool with_family) const {
    return {.fp = std::vector<double>(n()),
            .bits = std::vector<double>(n()),
            .family = with_family ? std::vector<std::string>(n())
                                  : std::vector<std::string>()};
  }

  // The key-weighted mean over the files of `per_key(i)`.
  template <typename PerKey>
  double MeanOverKeys(const PerKey& per_key) const {
    double bits = 0;
    for (size_t i = 0; i < n(); ++i) {
      bits += per_key(i) * static_cast<double>(keys(i));
    }
    return bits / keys_;
  }

  // Memory per key of a Ribbon filter sized to the FP rate `fp`.
  double RibbonMemory(size_t i, double fp) const {
    return -std::log2(fp) * (1 + overhead_[i]);
  }

  // NewBloomFilterPolicy(p): one parameter everywhere, the one whose
  // filters, in whole cache lines, take the memory.
  absl::StatusOr<PolicyPlan> RocksDBBloom() const {
    absl::StatusOr<double> p =
        ParameterForMemory(average_, kMinBitsPerKey, kMaxBitsPerKey, 1e-4,
                           [&](double b) -> absl::StatusOr<double> {
                             return MeanOverKeys([&](size_t i) {
                               return BloomMemory(keys(i), b);
                             });
                           });
    if (!p.ok()) return p.status();
    FileFilters f = Filters(false);
    for (size_t i = 0; i < n(); ++i) {
      f.fp[i] = BloomFp(keys(i), *p);
      f.bits[i] = BloomMemory(keys(i), *p);
    }
    PolicyPlan plan = Summarise(
        "rocksdb_bloom", "RocksDB Bloom, the same bits per key at every level",
        files_, levels_, f);
    plan.parameter = *p;
    return plan;
  }

  // NewRibbonFilterPolicy(p, -1): the memory per key in every file.
  absl::StatusOr<PolicyPlan> RocksDBRibbon() const {
    FileFilters f = Filters(false);
    for (size_t i = 0; i < n(); ++i) {
      f.fp[i] = PredictedRibbonFpRate(average_, overhead_[i]);
      f.bits[i] = average_;
    }
    PolicyPlan plan = Summarise(
        "rocksdb_ribbon",
        "RocksDB Ribbon (bloom_before_level=-1), the same memory per key at "
        "every level",
        files_, levels_, f);
    // The Bloom parameter of the FP rate that memory buys in the mean file:
    // what NewRibbonFilterPolicy would be given.
    const double mean_overhead = CostInputsFor(mean_keys_).ribbon_overhead;
    absl::StatusOr<double> parameter = ParameterForMemory(
        -std::log2(PredictedRibbonFpRate(average_, mean_overhead)), 1, 100,
        1e-3, [&](double p) -> absl::StatusOr<double> {
          return -std::log2(BloomFp(mean_keys_, p));
        });
    if (parameter.ok()) plan.parameter = *parameter;
    return plan;
  }

  // NewRibbonFilterPolicy(p, bloom_before_level=1): Bloom at parameter p
  // where files are written into L0 (flushes, intra-L0 compactions), Ribbon
  // sized to Bloom's FP rate at p elsewhere, p chosen so that the whole
  // tree's filters take the memory.
  absl::StatusOr<PolicyPlan> RocksDBHybrid() const {
    auto memory = [&](size_t i, double p) {
      return files_[i].level == 0 ? BloomMemory(keys(i), p)
                                  : RibbonMemory(i, BloomFp(keys(i), p));
    };
    absl::StatusOr<double> p = ParameterForMemory(
        average_, 1, 100, 1e-3, [&](double b) -> absl::StatusOr<double> {
          return MeanOverKeys([&](size_t i) { return memory(i, b); });
        });
    if (!p.ok()) return p.status();
    FileFilters f = Filters(true);
    for (size_t i = 0; i < n(); ++i) {
      f.fp[i] = BloomFp(keys(i), *p);
      f.bits[i] = memory(i, *p);
      f.family[i] = files_[i].level == 0 ? "bloom" : "ribbon";
    }
    PolicyPlan plan = Summarise(
        "rocksdb_hybrid",
        "NewRibbonFilterPolicy(p, bloom_before_level=1): Bloom in L0, Ribbon "
        "below, at one parameter p whose filters take the memory",
        files_, levels_, f);
    plan.parameter = *p;
    return plan;
  }

  // bloomgate's level-aware blocked Bloom filter: the allocation's bits per
  // key, scaled so that the filters, in whole cache lines, take the memory
  // (as RocksDB's Bloom; the allocation meets its budget within 0.1%).
  absl::StatusOr<PolicyPlan> LevelAware() const {
    absl::StatusOr<std::vector<double>> bits =
        AllocateBitsPerKey(Layout::kBlocked, average_, runs_.runs);
    if (!bits.ok()) return bits.status();
    const FilterSpec blocked;
    auto lined = [&](size_t i, double scale) {
      const double b = scale * (*bits)[runs_.run_of[i]];
      if (keys(i) == 0 || b <= 0) return 0.0;
      return static_cast<double>(blocked.BitsFor(keys(i), b)) /
             static_cast<double>(keys(i));
    };
    absl::StatusOr<double> scale = ParameterForMemory(
        average_, 0.5, 2, 1e-6, [&](double s) -> absl::StatusOr<double> {
          return MeanOverKeys([&](size_t i) { return lined(i, s); });
        });
    if (!scale.ok()) return scale.status();
    FileFilters f = Filters(false);
    for (size_t i = 0; i < n(); ++i) {
      const double b = *scale * (*bits)[runs_.run_of[i]];
      f.bits[i] = lined(i, *scale);
      f.fp[i] = b <= 0 ? 1.0
                       : FilterSpec{.bits_per_key = std::max(b, kMinBitsPerKey)}
                             .PredictedFpRate(keys(i), b);
    }
    return Summarise("bloomgate_monkey",
                     "bloomgate's blocked Bloom, level-aware bits per key "
                     "(each L0 file and each deeper level a run)",
                     files_, levels_, f);
  }

  // bloomgate's mixed families, chosen by the expected time of a lookup.
  absl::StatusOr<PolicyPlan> Mixed() const {
    const FilterSpec spec{.bits_per_key = std::max(average_, kMinBitsPerKey),
                          .monkey = true,
                          .mixed = true};
    const LookupCostModel model = CostModelFor(spec, CostInputsFor(mean_keys_));
    absl::StatusOr<std::vector<RunFilter>> chosen =
        AllocateByCost(model, average_, runs_.runs);
    if (!chosen.ok()) return chosen.status();
    FileFilters f = Filters(true);
    for (size_t i = 0; i < n(); ++i) {
      const RunFilter& r = (*chosen)[runs_.run_of[i]];
      f.bits[i] = r.bits_per_key;
      switch (r.family) {
        case FilterFamily::kBloomgate:
          f.fp[i] =
              FilterSpec{.bits_per_key = r.bits_per_key, .layout = r.layout}
                  .PredictedFpRate(keys(i), r.bits_per_key);
          f.family[i] = "bloomgate";
          break;
        case FilterFamily::kRocksDBRibbon:
          f.fp[i] = PredictedRibbonFpRate(r.bits_per_key, overhead_[i]);
          f.family[i] = "ribbon";
          break;
        default:
          f.fp[i] = 1;
          f.family[i] = "none";
          break;
      }
    }
    return Summarise(
        "bloomgate_mixed",
        absl::StrFormat("bloomgate's level-aware memory over its Bloom and "
                        "RocksDB's Ribbon, by the time of a lookup (a read "
                        "%.0f us, probes measured here)",
                        model.read_micros),
        files_, levels_, f);
  }

  // The floor: any per-file hash-based filters in this memory.
  absl::StatusOr<PolicyPlan> Floor() const {
    std::vector<FilterRun> per_file;
    for (const PlanFile& file : files_) {
      per_file.push_back(
          {.keys = static_cast<double>(file.entries), .reach = file.reach});
    }
    absl::StatusOr<double> floor = FewestWastedReads(average_, per_file);
    if (!floor.ok()) return floor.status();
    PolicyPlan plan;
    plan.name = "floor";
    plan.description =
        "the fewest any per-file hash-based filters in this memory could read, "
        "in expectation (2^-bits, one run per file)";
    plan.reads_per_absent_lookup = *floor;
    return plan;
  }

  const std::vector<PlanFile>& files_;
  const std::vector<PlanLevel>& levels_;
  const double average_;
  const Runs runs_;
  std::vector<double> overhead_;  // Ribbon's, for each file's keys
  double keys_ = 0;
  uint64_t mean_keys_ = 0;
};

// What RocksDB's built-in filter blocks (Bloom and Ribbon) hold beyond
// their bits: 5 bytes of metadata (the format, probes, columns).
constexpr uint64_t kRocksDBFilterMetadataBytes = 5;

// A file's filter kind where its block was not read: what its policy name
// says it writes.
FilterKind KindByPolicyName(const PlanFile& f) {
  if (f.filter_policy.rfind("bloomgate", 0) == 0) return FilterKind::kBloomgate;
  if (f.filter_policy == "ribbonfilter") return FilterKind::kRocksDBRibbon;
  return FilterKind::kRocksDBBloom;
}

// The FP rate of a file's filter as it is (PlanReport::
// current_reads_per_absent_lookup says how each kind is read).
double CurrentFp(const PlanFile& f) {
  if (f.filter_bytes == 0) return 1.0;
  const FilterKind kind = f.filter.kind == FilterKind::kUnread
                              ? KindByPolicyName(f)
                              : f.filter.kind;
  const uint64_t array_bits =
      8 *
      (f.filter_bytes - std::min(f.filter_bytes, kRocksDBFilterMetadataBytes));
  const double bits =
      static_cast<double>(array_bits) / static_cast<double>(f.entries);
  switch (kind) {
    case FilterKind::kNone:
    case FilterKind::kBloomgateDamaged:
      return 1.0;
    case FilterKind::kBloomgate:
      if (f.filter.kind == FilterKind::kUnread) {  // by its size alone
        return FilterSpec{}.PredictedBlockFpRate(f.entries, f.filter_bytes);
      }
      return PredictedFilterFpRate(f.filter.layout, f.filter.num_keys,
                                   f.filter.num_bits, f.filter.num_probes);
    case FilterKind::kRocksDBRibbon:
      return PredictedRibbonFpRate(bits,
                                   CostInputsFor(f.entries).ribbon_overhead);
    case FilterKind::kUnread:
    case FilterKind::kRocksDBBloom:
      break;
  }
  const FilterSpec bloom{.family = FilterFamily::kRocksDBBloom};
  return PredictedFilterFpRate(Layout::kBlocked, f.entries, array_bits,
                               bloom.NumProbes(bits));
}

// "+"-joined FilterKindName of the kinds present, in FilterKind's order.
std::string KindsOf(const std::vector<FilterKind>& kinds) {
  std::string joined;
  for (FilterKind kind :
       {FilterKind::kUnread, FilterKind::kNone, FilterKind::kBloomgate,
        FilterKind::kBloomgateDamaged, FilterKind::kRocksDBBloom,
        FilterKind::kRocksDBRibbon}) {
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) continue;
    if (!joined.empty()) joined += "+";
    joined += FilterKindName(kind);
  }
  return joined;
}

}  // namespace

absl::StatusOr<PlanReport> PlanFromFiles(
    std::vector<PlanFile> files, std::optional<uint64_t> memory_bytes,
    const std::vector<std::string>* lookups) {
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return std::tie(a.level, a.smallest) < std::tie(b.level, b.smallest);
  });
  // Files without entries hold no key a filter could match.
  files.erase(std::remove_if(files.begin(), files.end(),
                             [](const PlanFile& f) { return f.entries == 0; }),
              files.end());
  if (files.empty()) {
    return absl::InvalidArgumentError("the database has no live SST files");
  }
  PlanReport report;
  std::vector<std::string> sorted;
  if (lookups != nullptr) {
    if (lookups->empty()) {
      return absl::InvalidArgumentError("the lookups file has no keys");
    }
    sorted = *lookups;
    std::sort(sorted.begin(), sorted.end());
    report.reach_model = absl::StrCat("lookups file: ", sorted.size(), " keys");
  } else {
    report.reach_model = "key ranks";
  }
  SetReach(files, lookups != nullptr ? &sorted : nullptr);

  std::vector<std::vector<FilterKind>> level_kinds;
  for (const PlanFile& f : files) {
    if (report.levels.empty() || report.levels.back().level != f.level) {
      report.levels.push_back({.level = f.level});
      level_kinds.emplace_back();
    }
    PlanLevel& level = report.levels.back();
    level_kinds.back().push_back(f.filter.kind);
    ++level.files;
    level.keys += f.entries;
    level.filter_bytes += f.filter_bytes;
    level.reach += f.reach;
    report.keys += f.entries;
    report.filter_bytes += f.filter_bytes;
    report.current_reads_per_absent_lookup += f.reach * CurrentFp(f);
  }
  for (size_t l = 0; l < report.levels.size(); ++l) {
    report.levels[l].filter_kinds = KindsOf(level_kinds[l]);
  }
  const auto keys = static_cast<double>(report.keys);
  report.current_bits_per_key =
      8.0 * static_cast<double>(report.filter_bytes) / keys;
  report.memory_given = memory_bytes.has_value();
  report.memory_bytes = memory_bytes.value_or(report.filter_bytes);
  report.memory_bits_per_key =
      8.0 * static_cast<double>(report.memory_bytes) / keys;
  report.files = std::move(files);
  if (report.memory_bytes == 0) return report;  // no filters, no --memory
  if (report.memory_bits_per_key > kMaxBitsPerKey) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "memory %s is %.1f bits per key for %d keys; a plan takes at most %.0f",
        HumanBytes(report.memory_bytes), report.memory_bits_per_key,
        report.keys, kMaxBitsPerKey));
  }
  absl::StatusOr<std::vector<PolicyPlan>> policies =
      Predictor(report.files, report.levels, report.memory_bits_per_key).All();
  if (!policies.ok()) return policies.status();
  report.policies = *std::move(policies);
  return report;
}

absl::StatusOr<PlanReport> Plan(const PlanRequest& request) {
  std::vector<std::string> lookups;
  if (!request.lookups_path.empty()) {
    std::ifstream in(request.lookups_path);
    if (!in) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot read the lookups file ", request.lookups_path));
    }
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) lookups.push_back(std::move(line));
    }
  }
  absl::StatusOr<std::vector<PlanFile>> files =
      ReadLiveFiles(request.db_path, request.column_family);
  if (!files.ok()) return files.status();
  absl::StatusOr<PlanReport> report =
      PlanFromFiles(*std::move(files), request.memory_bytes,
                    request.lookups_path.empty() ? nullptr : &lookups);
  if (!report.ok()) {
    return absl::Status(
        report.status().code(),
        absl::StrCat(request.db_path, ": ", report.status().message()));
  }
  report->db_path = request.db_path;
  report->column_family = request.column_family;
  return report;
}

}  // namespace bloomgate::tools
