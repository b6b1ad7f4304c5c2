// Copyright 2026 The bloomgate Authors.
//
// The optimisation is separable and convex: minimise sum_i r_i f(b_i)
// subject to sum_i n_i b_i = B, where f(b) is the layout's FP rate at b bits
// per key with its best probe count (decreasing and convex in b) and r_i a
// run's reach. The Lagrange condition r_i f'(b_i) = -mu n_i says: give each
// run bits until its marginal saving of wasted reads per bit of memory is
// the same everywhere. We find mu by bisection; for a given mu each run's
// b_i minimises f(b) + (mu n_i / r_i) b on its own.
//
// AllocateByCost is the same search with a choice per run: at a given mu
// each run takes the filter family, and the bits, that minimise its probe
// time plus its expected read time plus mu n_i b. Choosing among families
// is not convex, so memory used jumps where a run switches family, and the
// bisection can stop with memory unspent; the allocations on either side
// of the final price are then each re-solved with their families fixed (a
// convex problem again) and the better kept.
//
// f is evaluated from a table of ln f on a 0.25-bit grid (ln f is nearly
// linear in b, so linear interpolation of it is accurate to well under 1%),
// which makes the whole search a few milliseconds.

#include "bloomgate/allocation.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/sizing.h"
#include "src/spec/fp_curve.h"

namespace bloomgate {

namespace {

using internal::BestBits;
using internal::Curve;
using internal::CurveOf;
using internal::FpTable;
using internal::kLowestBits;
using internal::TableFor;

// The search both allocators share. Costs are in units of one read: a
// filter's probe costs `probe` reads, a false positive one read, so that
// with one family whose probe is free the objective is AllocateBitsPerKey's
// expected wasted reads.

// A filter a run may get.
struct Candidate {
  const FpTable* table;
  double probe;  // probe time / read time
};

struct Problem {
  absl::Span<const FilterRun> runs;
  double total;  // the runs' keys
  std::vector<Candidate> candidates;
};

// Per run, which candidates it may take: one index, or these.
constexpr int kUnfiltered = -1;
constexpr int kAnyCandidate = -2;

// A run's filter: candidates[candidate] with `bits` bits per key, or none.
struct Choice {
  int candidate = kUnfiltered;
  double bits = 0;
};

// Run i's choice, among those `allowed`, when a bit costs `mu` (in reads per
// bit of the whole tree): the one that minimises its expected read and
// probe time plus mu n b.
Choice BestChoice(const Problem& problem, size_t i, int allowed, double mu) {
  // Relative sizes keep mu well scaled whatever the units of n.
  const double n = problem.runs[i].keys / problem.total;
  const double r = problem.runs[i].reach;
  Choice best;
  if (!(n > 0 && r > 0) || allowed == kUnfiltered) return best;
  double best_cost = r;  // no filter: every lookup that reaches it reads
  for (int c = 0; c < static_cast<int>(problem.candidates.size()); ++c) {
    if (allowed != kAnyCandidate && allowed != c) continue;
    const Candidate& candidate = problem.candidates[c];
    const double b = BestBits(*candidate.table, mu * n / r);
    if (b == 0) continue;  // a filter without bits is only a probe
    const double cost =
        r * (candidate.probe + candidate.table->Fp(b)) + mu * n * b;
    if (cost < best_cost) {
      best_cost = cost;
      best = {.candidate = c, .bits = b};
    }
  }
  return best;
}

// Each run's best choice when a bit costs `mu`, and the memory they use.
double AllocateAtPrice(const Problem& problem, absl::Span<const int> allowed,
                       double mu, std::vector<Choice>* choices) {
  double used = 0;
  for (size_t i = 0; i < problem.runs.size(); ++i) {
    (*choices)[i] = BestChoice(problem, i, allowed[i], mu);
    used += problem.runs[i].keys * (*choices)[i].bits;
  }
  return used;
}

// The allocation at the lowest price that keeps within `budget` bits, in
// *within; returns the memory it uses. If `over` is not null, it gets the
// allocation just below that price, which may exceed the budget.
double AllocateWithinBudget(const Problem& problem,
                            absl::Span<const int> allowed, double budget,
                            std::vector<Choice>* within,
                            std::vector<Choice>* over) {
  auto allocate = [&](double mu) {
    return AllocateAtPrice(problem, allowed, mu, within);
  };
  // Memory used falls as mu (the price of a bit) rises. Bracket, then bisect
  // in log space.
  double lo = 1e-12;
  double hi = 1.0;
  // Near-free bits: every run at the maximum, for the largest budgets (FP
  // rates there are far below 1e-12, so the price must fall further).
  while (allocate(lo) < budget && lo > 1e-300) lo *= 1e-12;
  while (allocate(hi) > budget && hi < 1e12) hi *= 16;
  // To a billionth of the price (about 35 steps from the first bracket).
  while (hi > lo * (1 + 1e-9)) {
    const double mid = std::sqrt(lo * hi);
    if (allocate(mid) > budget) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  if (over != nullptr) AllocateAtPrice(problem, allowed, lo, over);
  return allocate(hi);  // within budget
}

// The jump of a run from no filter to kLowestBits bits, or to another family,
// can leave memory unspent: gives `left` bits to the run where they save the
// most.
void SpendRemainder(const Problem& problem, absl::Span<const int> allowed,
                    double left, std::vector<Choice>* choices) {
  const absl::Span<const FilterRun> runs = problem.runs;
  size_t best = runs.size();
  Choice best_choice;
  double best_gain = 0;
  auto consider = [&](size_t i, Choice choice, double gain) {
    if (gain > best_gain) {
      best_gain = gain;
      best = i;
      best_choice = choice;
    }
  };
  for (size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].keys <= 0) continue;
    const Choice& now = (*choices)[i];
    const double bits = now.bits + left / runs[i].keys;
    if (bits > kMaxBitsPerKey) continue;
    if (now.candidate != kUnfiltered) {
      const FpTable& table = *problem.candidates[now.candidate].table;
      consider(i, {.candidate = now.candidate, .bits = bits},
               runs[i].reach * (table.Fp(now.bits) - table.Fp(bits)));
      continue;
    }
    if (bits < kLowestBits) continue;
    for (int c = 0; c < static_cast<int>(problem.candidates.size()); ++c) {
      if (allowed[i] != kAnyCandidate && allowed[i] != c) continue;
      const Candidate& candidate = problem.candidates[c];
      consider(
          i, {.candidate = c, .bits = bits},
          runs[i].reach * (1 - candidate.table->Fp(bits) - candidate.probe));
    }
  }
  if (best < runs.size()) (*choices)[best] = best_choice;
}

// The best allocation within `budget` for the runs' `allowed` candidates;
// `over`, as AllocateWithinBudget's.
std::vector<Choice> Solve(const Problem& problem, absl::Span<const int> allowed,
                          double budget, std::vector<Choice>* over = nullptr) {
  std::vector<Choice> choices(problem.runs.size());
  const double used =
      AllocateWithinBudget(problem, allowed, budget, &choices, over);
  const double left = budget - used;
  if (left > 1e-9 * budget) SpendRemainder(problem, allowed, left, &choices);
  return choices;
}

// The objective, in reads, from the tables.
double Cost(const Problem& problem, absl::Span<const Choice> choices) {
  double cost = 0;
  for (size_t i = 0; i < choices.size(); ++i) {
    const double r = problem.runs[i].reach;
    if (choices[i].candidate == kUnfiltered) {
      cost += problem.runs[i].keys > 0 ? r : 0;
      continue;
    }
    const Candidate& candidate = problem.candidates[choices[i].candidate];
    cost += r * (candidate.probe + candidate.table->Fp(choices[i].bits));
  }
  return cost;
}

// Each run restricted to the candidate it has in `choices`.
std::vector<int> FixedTo(absl::Span<const Choice> choices) {
  std::vector<int> allowed;
  allowed.reserve(choices.size());
  for (const Choice& choice : choices) allowed.push_back(choice.candidate);
  return allowed;
}

// Several families: the allocation at the final price, and those on either
// side of it re-solved with their families fixed; the cheapest.
std::vector<Choice> SolveMixed(const Problem& problem, double budget) {
  const std::vector<int> any(problem.runs.size(), kAnyCandidate);
  std::vector<Choice> over(problem.runs.size());
  std::vector<Choice> best = Solve(problem, any, budget, &over);
  double best_cost = Cost(problem, best);
  const std::vector<int> fixed_within = FixedTo(best);
  const std::vector<int> fixed_over = FixedTo(over);
  for (const std::vector<int>* fixed : {&fixed_within, &fixed_over}) {
    std::vector<Choice> choices = Solve(problem, *fixed, budget);
    const double cost = Cost(problem, choices);
    if (cost < best_cost) {
      best_cost = cost;
      best = std::move(choices);
    }
  }
  return best;
}

// The steps of the allocators: check the arguments, find the price of a
// bit at which the runs' choices spend the budget, then spend what the
// rounding left.

absl::Status ValidateAllocation(double average_bits_per_key,
                                absl::Span<const FilterRun> runs) {
  if (!(average_bits_per_key >= 0 && average_bits_per_key <= kMaxBitsPerKey)) {
    return absl::InvalidArgumentError(
        absl::StrCat("average bits per key must be in [0, ", kMaxBitsPerKey,
                     "], got ", average_bits_per_key));
  }
  for (const FilterRun& run : runs) {
    if (!(run.keys >= 0 && std::isfinite(run.keys))) {
      return absl::InvalidArgumentError(
          absl::StrCat("key counts must be finite and >= 0, got ", run.keys));
    }
    if (!(run.reach >= 0 && std::isfinite(run.reach))) {
      return absl::InvalidArgumentError(
          absl::StrCat("reach must be finite and >= 0, got ", run.reach));
    }
  }
  if (runs.empty()) return absl::InvalidArgumentError("the LSM shape is empty");
  double total = 0;
  for (const FilterRun& run : runs) total += run.keys;
  if (!(total > 0)) {
    return absl::InvalidArgumentError("the LSM shape has no keys");
  }
  return absl::OkStatus();
}

absl::Status ValidateModel(const LookupCostModel& model) {
  if (model.families.empty()) {
    return absl::InvalidArgumentError(
        "model.families is empty: give at least one filter family");
  }
  for (size_t i = 0; i < model.families.size(); ++i) {
    const FamilyCost& family = model.families[i];
    switch (family.family) {
      case FilterFamily::kBloomgate:
        if (family.layout != Layout::kBlocked &&
            family.layout != Layout::kStandard) {
          return absl::InvalidArgumentError(absl::StrCat(
              "model.families[", i,
              "].layout is unknown: ", static_cast<int>(family.layout)));
        }
        break;
      case FilterFamily::kRocksDBBloom:
      case FilterFamily::kRocksDBRibbon:
        break;
      default:
        return absl::InvalidArgumentError(absl::StrCat(
            "model.families[", i,
            "].family must be kBloomgate, kRocksDBBloom or kRocksDBRibbon "
            "(no filter is always a choice), got ",
            static_cast<int>(family.family)));
    }
    if (!(family.probe_micros >= 0 && std::isfinite(family.probe_micros))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "model.families[", i, "].probe_micros must be finite and >= 0, got ",
          family.probe_micros));
    }
  }
  if (!(model.read_micros >= 0 && std::isfinite(model.read_micros))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "model.read_micros must be finite and >= 0, got ", model.read_micros));
  }
  if (!(model.ribbon_overhead >= 0 && std::isfinite(model.ribbon_overhead))) {
    return absl::InvalidArgumentError(
        absl::StrCat("model.ribbon_overhead must be finite and >= 0, got ",
                     model.ribbon_overhead));
  }
  return absl::OkStatus();
}

double TotalKeys(absl::Span<const FilterRun> runs) {
  double total = 0;
  for (const FilterRun& run : runs) total += run.keys;
  return total;
}

bool AnyRunWithKeysReached(absl::Span<const FilterRun> runs) {
  for (const FilterRun& run : runs) {
    if (run.keys > 0 && run.reach > 0) return true;
  }
  return false;
}

// The first entry of the model for `filter`'s family (and layout), or null.
const FamilyCost* FindFamily(const LookupCostModel& model,
                             const RunFilter& filter) {
  for (const FamilyCost& family : model.families) {
    if (family.family == filter.family &&
        (family.family != FilterFamily::kBloomgate ||
         family.layout == filter.layout)) {
      return &family;
    }
  }
  return nullptr;
}

// The floor's FP rate of a run at price `log2_price`, the log2 of the FP
// rate per key over reach that every run's last bit buys: the Lagrange
// condition of FewestWastedReads, capped at 1 (no filter).
double FloorFp(const FilterRun& run, double log2_price) {
  return std::min(1.0, std::exp2(log2_price) * run.keys / run.reach);
}

// The memory, in bits, the floor's filters take at `log2_price`: each run's
// keys times log2(1 / FloorFp). Falls as the price rises.
double FloorMemory(absl::Span<const FilterRun> runs, double log2_price) {
  double bits = 0;
  for (const FilterRun& run : runs) {
    if (run.keys > 0 && run.reach > 0) {
      bits += run.keys * -std::log2(FloorFp(run, log2_price));
    }
  }
  return bits;
}

RunFilter FilterOf(const FamilyCost& family, double bits_per_key) {
  return {.family = family.family,
          .layout = family.family == FilterFamily::kBloomgate
                        ? family.layout
                        : Layout::kBlocked,
          .bits_per_key = bits_per_key};
}

}  // namespace

absl::StatusOr<std::vector<double>> AllocateBitsPerKey(
    Layout layout, double average_bits_per_key,
    absl::Span<const FilterRun> runs) {
  if (absl::Status s = ValidateAllocation(average_bits_per_key, runs);
      !s.ok()) {
    return s;
  }
  std::vector<double> bits(runs.size());
  if (!AnyRunWithKeysReached(runs)) {  // no filter saves a read: any split
    for (size_t i = 0; i < runs.size(); ++i) {
      bits[i] = runs[i].keys > 0 ? average_bits_per_key : 0.0;
    }
    return bits;
  }
  const Problem problem = {
      .runs = runs,
      .total = TotalKeys(runs),
      .candidates = {{.table = &TableFor(CurveOf(layout)), .probe = 0}}};
  const std::vector<int> any(runs.size(), kAnyCandidate);
  const std::vector<Choice> choices =
      Solve(problem, any, average_bits_per_key * problem.total);
  for (size_t i = 0; i < runs.size(); ++i) bits[i] = choices[i].bits;
  return bits;
}

absl::StatusOr<std::vector<RunFilter>> AllocateByCost(
    const LookupCostModel& model, double average_bits_per_key,
    absl::Span<const FilterRun> runs) {
  if (absl::Status s = ValidateModel(model); !s.ok()) return s;
  if (absl::Status s = ValidateAllocation(average_bits_per_key, runs);
      !s.ok()) {
    return s;
  }
  std::vector<RunFilter> filters(runs.size());
  if (!AnyRunWithKeysReached(runs)) {  // T is 0 whatever the filters
    const FamilyCost* cheapest = &model.families[0];
    for (const FamilyCost& family : model.families) {
      if (family.probe_micros < cheapest->probe_micros) cheapest = &family;
    }
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].keys > 0) {
        filters[i] = FilterOf(*cheapest, average_bits_per_key);
      }
    }
    return filters;
  }
  // A read that costs nothing is not worth a probe.
  if (model.read_micros == 0) return filters;
  Problem problem = {.runs = runs, .total = TotalKeys(runs), .candidates = {}};
  for (const FamilyCost& family : model.families) {
    problem.candidates.push_back(
        {.table = &TableFor(CurveOf(family.family, family.layout),
                            model.ribbon_overhead),
         .probe = family.probe_micros / model.read_micros});
  }
  const double budget = average_bits_per_key * problem.total;
  const std::vector<Choice> choices =
      problem.candidates.size() == 1
          ? Solve(problem, std::vector<int>(runs.size(), kAnyCandidate), budget)
          : SolveMixed(problem, budget);
  for (size_t i = 0; i < runs.size(); ++i) {
    if (choices[i].candidate != kUnfiltered) {
      filters[i] =
          FilterOf(model.families[choices[i].candidate], choices[i].bits);
    }
  }
  return filters;
}

double ExpectedLookupMicros(const LookupCostModel& model,
                            absl::Span<const FilterRun> runs,
                            absl::Span<const RunFilter> filters) {
  if (runs.size() != filters.size()) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  double micros = 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const RunFilter& filter = filters[i];
    if (filter.family == FilterFamily::kNone || filter.bits_per_key <= 0) {
      micros += runs[i].reach * model.read_micros;
      continue;
    }
    const FamilyCost* family = FindFamily(model, filter);
    if (family == nullptr) return std::numeric_limits<double>::quiet_NaN();
    const double fp = ExactFp(CurveOf(filter.family, filter.layout),
                              filter.bits_per_key, model.ribbon_overhead);
    micros += runs[i].reach * (family->probe_micros + fp * model.read_micros);
  }
  return micros;
}

absl::StatusOr<double> FewestWastedReads(double average_bits_per_key,
                                         absl::Span<const FilterRun> runs) {
  if (absl::Status s = ValidateAllocation(average_bits_per_key, runs);
      !s.ok()) {
    return s;
  }
  // sum reach * 2^-b is convex in the bits, so the Lagrange condition,
  // reach_i * 2^-b_i proportional to keys_i for every run with a filter,
  // gives the minimum: find the price at which those filters spend the
  // budget. Above the highest keys/reach ratio no run gets a bit.
  double hi = -std::numeric_limits<double>::infinity();
  for (const FilterRun& run : runs) {
    if (run.keys > 0 && run.reach > 0) {
      hi = std::max(hi, std::log2(run.reach / run.keys));
    }
  }
  double reads = 0;
  if (std::isinf(hi)) return reads;  // no run with keys is reached
  const double budget = average_bits_per_key * TotalKeys(runs);
  double lo = hi - 1;
  while (FloorMemory(runs, lo) < budget) lo -= 2 * (hi - lo);
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    const double mid = (lo + hi) / 2;
    (FloorMemory(runs, mid) > budget ? lo : hi) = mid;
  }
  for (const FilterRun& run : runs) {
    if (run.keys > 0 && run.reach > 0) reads += run.reach * FloorFp(run, hi);
  }
  return reads;
}

absl::StatusOr<std::vector<double>> MonkeyBitsPerKey(
    Layout layout, double average_bits_per_key,
    absl::Span<const double> keys_per_level) {
  std::vector<FilterRun> runs;
  runs.reserve(keys_per_level.size());
  for (double n : keys_per_level) runs.push_back({.keys = n, .reach = 1});
  return AllocateBitsPerKey(layout, average_bits_per_key, runs);
}

std::vector<double> LeveledShape(int num_levels, double fanout) {
  std::vector<double> shape;
  double size = 1;
  for (int i = 0; i < num_levels; ++i) {
    shape.push_back(size);
    size *= fanout;
  }
  return shape;
}

double SumOfFpRates(Layout layout, absl::Span<const double> bits_per_key) {
  double sum = 0;
  for (double b : bits_per_key) sum += ExactFp(CurveOf(layout), b);
  return sum;
}

LookupCostModel CostModelFor(const FilterSpec& spec, const CostInputs& inputs) {
  LookupCostModel model{.families = {},
                        .read_micros = spec.read_micros,
                        .ribbon_overhead = inputs.ribbon_overhead};
  // A spec's own probe time, given in nanoseconds, or the documented default.
  auto probe = [](double spec_nanos, double default_micros) {
    return spec_nanos > 0 ? spec_nanos / 1000 : default_micros;
  };
  if (spec.family == FilterFamily::kBloomgate) {
    model.families.push_back(
        {.family = FilterFamily::kBloomgate,
         .layout = spec.layout,
         .probe_micros =
             probe(spec.bloomgate_probe_nanos, kDefaultBloomgateProbeMicros)});
    if (spec.mixed) {
      model.families.push_back(
          {.family = FilterFamily::kRocksDBRibbon,
           .probe_micros = probe(spec.ribbon_probe_nanos,
                                 kDefaultRocksDBRibbonProbeMicros)});
    }
  } else if (spec.family == FilterFamily::kRocksDBBloom) {
    model.families.push_back({.family = FilterFamily::kRocksDBBloom,
                              .probe_micros = kDefaultRocksDBBloomProbeMicros});
  } else if (spec.family == FilterFamily::kRocksDBRibbon) {
    model.families.push_back(
        {.family = FilterFamily::kRocksDBRibbon,
         .probe_micros = kDefaultRocksDBRibbonProbeMicros});
  }
  return model;
}

absl::StatusOr<std::vector<RunFilter>> LevelFilters(const FilterSpec& spec,
                                                    int num_levels,
                                                    const CostInputs& inputs) {
  if (!spec.mixed) {
    absl::StatusOr<std::vector<double>> bits = spec.LevelBitsPerKey(num_levels);
    if (!bits.ok()) return bits.status();
    std::vector<RunFilter> filters;
    for (double b : *bits) {
      filters.push_back(b > 0 ? RunFilter{.family = spec.family,
                                          .layout = spec.layout,
                                          .bits_per_key = b}
                              : RunFilter{});
    }
    return filters;
  }
  if (absl::Status s = spec.Validate(); !s.ok()) return s;
  if (num_levels < 1) {
    return absl::InvalidArgumentError("num_levels must be at least 1");
  }
  std::vector<FilterRun> runs;
  for (double n : LeveledShape(num_levels, spec.fanout)) {
    runs.push_back({.keys = n, .reach = 1});
  }
  return AllocateByCost(CostModelFor(spec, inputs), spec.bits_per_key, runs);
}

absl::StatusOr<double> ParameterForMemory(double target, double lo, double hi,
                                          double tolerance,
                                          const MemoryAtParameter& memory_at) {
  while (hi - lo > tolerance) {
    const double mid = 0.5 * (lo + hi);
    absl::StatusOr<double> memory = memory_at(mid);
    if (!memory.ok()) return memory.status();
    (*memory < target ? lo : hi) = mid;
  }
  absl::StatusOr<double> at_lo = memory_at(lo);
  absl::StatusOr<double> at_hi = memory_at(hi);
  if (!at_lo.ok()) return at_lo.status();
  if (!at_hi.ok()) return at_hi.status();
  return std::abs(*at_hi - target) <= std::abs(*at_lo - target) ? hi : lo;
}

absl::StatusOr<double> ParameterForMemoryWithin(
    std::string_view what, double target, double lo, double hi,
    double tolerance, const MemoryAtParameter& memory_at) {
  absl::StatusOr<double> lowest = memory_at(lo);
  absl::StatusOr<double> highest = memory_at(hi);
  if (!lowest.ok()) return lowest.status();
  if (!highest.ok()) return highest.status();
  if (!(target >= *lowest && target <= *highest)) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(what), " cannot take ", target,
                     " bits per key of memory: its filters take ", *lowest,
                     " to ", *highest, " bits per key"));
  }
  return ParameterForMemory(target, lo, hi, tolerance, memory_at);
}

}  // namespace bloomgate
