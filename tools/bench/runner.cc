// Copyright 2026 The bloomgate Authors.

#include "tools/bench/runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/allocation.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "tools/bench/engine.h"
#include "tools/bench/measure.h"
#include "tools/bench/monkey.h"
#include "tools/bench/report.h"
#include "tools/bench/scratch_dir.h"

namespace bloomgate::bench {
namespace {

// The keys of each file of `shape`: those its filter holds, or its entries
// where it has none.
std::vector<uint64_t> FilterKeys(const EngineShape& shape) {
  std::vector<uint64_t> keys;
  for (const FileInfo& f : shape.files) {
    keys.push_back(f.filter_keys > 0 ? f.filter_keys : f.num_entries);
  }
  return keys;
}

// The filter of `filters` of the same kind as `kind` that runs at the run's
// memory (not its own parameter), or end().
std::vector<FilterArg>::iterator FindFilter(std::vector<FilterArg>& filters,
                                            const FilterSpec& kind) {
  return std::find_if(filters.begin(), filters.end(), [&](const FilterArg& f) {
    return !f.own_parameter && f.spec.SameKind(kind);
  });
}

// The memory per key `filter` asks for: its bits per key, or for a memory
// budget in bytes that budget over the `keys` a fill writes.
double BitsAsked(const FilterSpec& filter, int64_t keys) {
  if (filter.memory_budget_bytes == 0 || keys <= 0) return filter.bits_per_key;
  return 8.0 * static_cast<double>(filter.memory_budget_bytes) /
         static_cast<double>(keys);
}

}  // namespace

std::string EngineDir(const std::string& base, EngineKind engine,
                      const FilterArg& filter) {
  std::string name =
      filter.own_parameter ? filter.spec.Name() : filter.spec.KindName();
  std::replace(name.begin(), name.end(), ':', '_');
  return absl::StrCat(base, "/", ToAbsl(EngineName(engine)), "_", name);
}

Runner::Runner(const BenchOptions& options, std::ostream* out)
    : options_(options), out_(out) {}

absl::StatusOr<std::vector<BenchResult>> Runner::RunAll() {
  bool temporary = false;
  absl::StatusOr<std::string> base = MakeBaseDir(&temporary);
  if (!base.ok()) return base.status();
  std::vector<BenchResult> all;
  absl::Status status;
  for (EngineKind engine : options_.engines) {
    status = RunEngine(engine, *base, &all);
    if (!status.ok()) break;
  }
  RemoveBaseDir(*base, temporary);
  if (!status.ok()) return status;
  return all;
}

absl::StatusOr<std::string> Runner::MakeBaseDir(bool* temporary) const {
  *temporary = options_.db.empty();
  if (*temporary) return CreateScratchDir("bloomgate_bench");
  std::error_code ec;
  std::filesystem::create_directories(options_.db, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("cannot create --db=", options_.db, ": ", ec.message()));
  }
  return options_.db;
}

void Runner::RemoveBaseDir(const std::string& base, bool temporary) const {
  if (temporary && !options_.keep_db) {
    std::error_code ec;
    std::filesystem::remove_all(base, ec);
  } else if (options_.keep_db) {
    *out_ << "(databases kept in " << base << ")\n";
  }
}

std::optional<FilterArg> Runner::MemoryReference(EngineKind engine) const {
  if (!options_.sweep_bits.empty() || options_.memory_reference == "none") {
    return std::nullopt;
  }
  for (const FilterArg& f : options_.filters) {
    if (f.own_parameter || f.spec.family == FilterFamily::kNone ||
        !EngineSupports(engine, f.spec)) {
      continue;
    }
    if (options_.memory_reference.empty() ||
        f.spec.KindName() == options_.memory_reference) {
      return f;
    }
  }
  return std::nullopt;
}

std::vector<FilterArg> Runner::FiltersInRunOrder(
    const std::optional<FilterArg>& reference) const {
  std::vector<FilterArg> filters = options_.filters;
  if (!reference.has_value()) return filters;
  // Just before the first filter that takes its memory.
  const auto takes_memory = [](const FilterArg& f) {
    return !f.own_parameter && f.spec.family != FilterFamily::kNone;
  };
  const auto first = std::find_if(filters.begin(), filters.end(), takes_memory);
  const auto it = FindFilter(filters, reference->spec);
  if (first < it) std::rotate(first, it, it + 1);
  return filters;
}

absl::Status Runner::RunEngine(EngineKind engine, const std::string& base,
                               std::vector<BenchResult>* all) {
  absl::Status s;
  if (SameTree(engine)) s = GrowTree(engine, base, all);
  if (s.ok()) s = RunFilters(engine, base, all);
  if (!tree_dir_.empty() && !options_.keep_db) {
    std::error_code ec;
    std::filesystem::remove_all(tree_dir_, ec);
  }
  tree_dir_.clear();
  return s;
}

bool Runner::SameTree(EngineKind engine) const {
  return options_.same_tree && engine == EngineKind::kRocksDB &&
         !options_.use_existing_db && !HandShapedTree() &&
         options_.grow_to == 0 &&
         std::any_of(options_.benchmarks.begin(), options_.benchmarks.end(),
                     &IsFillBenchmark);
}

absl::Status Runner::GrowTree(EngineKind engine, const std::string& base,
                              std::vector<BenchResult>* all) {
  // Uniform bloomgate filters at the run's memory: the files, and so the
  // levels' sizes RocksDB compacts by, hold what any of the filters at
  // that memory would take.
  const FilterArg grower{.spec = kUniformKind};
  const std::string dir =
      absl::StrCat(base, "/", ToAbsl(EngineName(engine)), "_tree");
  growing_tree_ = true;
  absl::StatusOr<std::vector<BenchResult>> results =
      RunOne(engine, grower, dir);
  growing_tree_ = false;
  if (!results.ok()) return results.status();
  all->insert(all->end(), results->begin(), results->end());
  tree_dir_ = dir;
  tree_shape_ = last_shape_;
  return absl::OkStatus();
}

absl::Status Runner::RewriteGrownTree(const Target& target) {
  const Clock::time_point start = Clock::now();
  if (absl::Status s = target.engine->RewriteFilters(); !s.ok()) return s;
  const double seconds = Seconds(Clock::now() - start);
  absl::StatusOr<EngineShape> shape = target.engine->GetShape();
  if (!shape.ok()) return shape.status();
  *out_ << absl::StrFormat(
      "rewrite      : %.1f s; %d SST files of the grown tree, each "
      "rewritten with this filter; filters %d bytes\n",
      seconds, shape->files.size(), shape->filter_bytes);
  if (!SameFiles(*shape, tree_shape_)) {
    return absl::FailedPreconditionError(
        "rewriting the grown tree's files changed its files (levels, key "
        "ranges or entries), so its filters would not be compared on the "
        "same tree; run with --same_tree=false");
  }
  return absl::OkStatus();
}

absl::Status Runner::RunFilters(EngineKind engine, const std::string& base,
                                std::vector<BenchResult>* all) {
  const std::optional<FilterArg> reference = MemoryReference(engine);
  reference_.reset();
  const bool wants_reference =
      options_.sweep_bits.empty() && options_.memory_reference != "none";
  if (wants_reference && !reference.has_value()) {
    *out_ << "(no memory reference on " << EngineName(engine)
          << ": no filter of --memory_reference runs there; every filter at "
             "--bloom_bits)\n";
  }
  for (const FilterArg& filter : FiltersInRunOrder(reference)) {
    if (!EngineSupports(engine, filter.spec)) {
      *out_ << "(skipping engine " << EngineName(engine) << " with filter "
            << filter.spec.KindName() << ": not supported)\n";
      continue;
    }
    const std::string dir = EngineDir(base, engine, filter);
    const bool is_reference = reference.has_value() && !filter.own_parameter &&
                              filter.spec.SameKind(reference->spec);
    const bool matched = reference_.has_value() && !filter.own_parameter &&
                         filter.spec.family != FilterFamily::kNone;
    if (matched) {
      *out_ << "(" << filter.spec.KindName() << " at "
            << absl::StrFormat("%.4f", reference_->bits_per_key)
            << " bits/key: the filter memory " << reference->spec.KindName()
            << " took on " << EngineName(engine) << ", --memory_reference)\n";
    }
    const size_t results_before = all->size();
    absl::Status s =
        SweepsMemory(filter)
            ? RunAtEachMemory(engine, filter, dir, all)
            : RunAndCollect(
                  engine, filter, dir,
                  matched ? std::optional<double>(reference_->bits_per_key)
                          : std::nullopt,
                  all);
    if (!s.ok()) return s;
    if (is_reference && all->size() > results_before &&
        all->back().bits_per_key > 0) {
      reference_ = ReferenceMemory{.bits_per_key = all->back().bits_per_key,
                                   .filter_keys = FilterKeys(last_shape_)};
    }
  }
  return absl::OkStatus();
}

bool Runner::SweepsMemory(const FilterArg& filter) const {
  return !options_.sweep_bits.empty() && !filter.own_parameter &&
         filter.spec.family != FilterFamily::kNone;
}

absl::Status Runner::RunAtEachMemory(EngineKind engine, const FilterArg& filter,
                                     const std::string& dir,
                                     std::vector<BenchResult>* all) {
  for (double bits : options_.sweep_bits) {
    absl::Status s =
        RunAndCollect(engine, filter, absl::StrCat(dir, "_", bits), bits, all);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Runner::RunAndCollect(EngineKind engine, const FilterArg& filter,
                                   const std::string& dir,
                                   std::optional<double> bloom_bits,
                                   std::vector<BenchResult>* all) {
  absl::StatusOr<std::vector<BenchResult>> results =
      RunOne(engine, filter, dir, bloom_bits);
  if (!options_.keep_db && !options_.use_existing_db) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  if (!results.ok()) return results.status();
  all->insert(all->end(), results->begin(), results->end());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<BenchResult>> Runner::RunOne(
    EngineKind engine_kind, const FilterArg& filter, const std::string& dir,
    std::optional<double> bloom_bits) {
  Target target;
  target.engine_kind = engine_kind;
  target.filter = FilterForRun(filter, options_, bloom_bits);
  target.own_parameter = filter.own_parameter;
  const bool none = filter.spec.family == FilterFamily::kNone;
  const bool ribbon = filter.spec.family == FilterFamily::kRocksDBRibbon;
  target.grow_only = growing_tree_;
  target.on_grown_tree = !growing_tree_ && !tree_dir_.empty();
  if (filter.own_parameter) {
    target.bits = ribbon ? 0 : BitsAsked(target.filter, options_.num);
  } else {
    target.bits = none ? 0 : target.filter.bits_per_key;
    // Sized for the tree's files when it is known (a filter's memory per
    // key depends on its keys: whole cache lines, Ribbon's slots): the
    // grown tree's, else the memory reference's, else full files.
    std::vector<uint64_t> filter_keys;
    if (target.on_grown_tree) {
      filter_keys = FilterKeys(tree_shape_);
    } else if (reference_.has_value()) {
      filter_keys = reference_->filter_keys;
    }
    if (filter_keys.empty()) filter_keys.push_back(KeysPerFile());
    absl::StatusOr<FilterSpec> at_memory =
        SpecForMemory(target.filter, target.bits, filter_keys);
    if (!at_memory.ok()) return at_memory.status();
    target.filter = *std::move(at_memory);
  }
  if (target.filter.monkey) {
    absl::StatusOr<std::vector<double>> allocation =
        target.filter.LevelBitsPerKey(options_.engine.num_levels);
    if (!allocation.ok()) return allocation.status();
    target.level_bits = *std::move(allocation);
  }
  absl::StatusOr<std::unique_ptr<Engine>> opened = OpenIn(
      dir, engine_kind, target.filter, target.on_grown_tree ? tree_dir_ : "");
  if (!opened.ok()) return opened.status();
  target.engine = opened->get();
  PrintTarget(target);
  if (target.on_grown_tree) {
    if (absl::Status s = RewriteGrownTree(target); !s.ok()) return s;
  }

  std::vector<BenchResult> results;
  if (options_.grow_to > 0) {
    absl::StatusOr<std::vector<BenchResult>> grown = Grow(target);
    if (!grown.ok()) return grown.status();
    results = *std::move(grown);
  }
  for (size_t index = 0;
       options_.grow_to == 0 && index < options_.benchmarks.size(); ++index) {
    absl::StatusOr<std::optional<BenchResult>> result =
        RunBenchmark(target, options_.benchmarks[index], index);
    if (!result.ok()) return result.status();
    if (result->has_value()) results.push_back(**std::move(result));
  }
  absl::StatusOr<EngineShape> shape = target.engine->GetShape();
  if (!shape.ok()) return shape.status();
  last_shape_ = *std::move(shape);
  absl::Status s = target.engine->Close();
  if (!s.ok()) return s;
  return results;
}

absl::StatusOr<std::unique_ptr<Engine>> Runner::OpenIn(
    const std::string& dir, EngineKind engine, const FilterSpec& filter,
    const std::string& tree) const {
  EngineOptions eo;
  eo.settings = options_.engine;
  eo.dir = dir;
  eo.use_existing = options_.use_existing_db;
  eo.filter = filter;
  eo.hand_shaped_tree = HandShapedTree();
  eo.time_reads = options_.engine.use_direct_reads || options_.histogram;
  if (!options_.use_existing_db) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (tree.empty()) {
      std::filesystem::create_directories(dir, ec);
    } else {
      std::filesystem::copy(tree, dir, std::filesystem::copy_options::recursive,
                            ec);
      if (ec) {
        return absl::InternalError(absl::StrCat("cannot copy the grown tree ",
                                                tree, " to ", dir, ": ",
                                                ec.message()));
      }
      eo.use_existing = true;
      // Nothing but RewriteFilters may change the copy.
      eo.settings.disable_auto_compactions = true;
    }
  }
  return OpenEngine(engine, eo);
}

absl::StatusOr<std::optional<BenchResult>> Runner::RunBenchmark(
    const Target& target, BenchmarkKind benchmark, size_t index) {
  if (IsFillBenchmark(benchmark) && options_.use_existing_db) {
    *out_ << BenchmarkName(benchmark) << " : skipped (--use_existing_db)\n";
    return std::nullopt;
  }
  // The grown tree's fills ran once, before every filter's reads.
  if (IsFillBenchmark(benchmark) ? target.on_grown_tree : target.grow_only) {
    return std::nullopt;
  }
  switch (benchmark) {
    case BenchmarkKind::kFillRandom:
      return FillRandom(target, index);
    case BenchmarkKind::kFillSeq:
      return FillSeq(target, index);
    case BenchmarkKind::kFillLevels:
      return FillLevels(target, index);
    case BenchmarkKind::kReadRandom:
      return ReadRandom(target, index);
    case BenchmarkKind::kReadMissing:
      return ReadMissing(target, index);
    case BenchmarkKind::kMultiReadMissing:
      return MultiReadMissing(target, index);
    case BenchmarkKind::kReadMixed:
      return ReadMixed(target, index);
    case BenchmarkKind::kStats:
      Stats(target);
      return std::nullopt;
    case BenchmarkKind::kRewriteFilters:
      if (absl::Status s = target.engine->RewriteFilters(); !s.ok()) {
        *out_ << "rewritefilters : skipped (" << s.message() << ")\n";
      } else {
        *out_ << "rewritefilters : every live file's filter rewritten\n";
      }
      return std::nullopt;
  }
  return absl::InvalidArgumentError("unknown benchmark");
}

uint64_t Runner::KeysPerFile() const {
  const int64_t entry = options_.key_size + options_.value_size;
  return static_cast<uint64_t>(std::clamp<int64_t>(
      static_cast<int64_t>(options_.engine.target_file_size_base) / entry, 1,
      options_.num));
}

bool Runner::HandShapedTree() const {
  return std::find(options_.benchmarks.begin(), options_.benchmarks.end(),
                   BenchmarkKind::kFillLevels) != options_.benchmarks.end();
}

// "-- engine lsm, filter bloomgate (10 bits/key)", and for bloomgate_monkey
// its budget and how it is shared out. What the filters took is on each
// fill's line.
void Runner::PrintTarget(const Target& target) const {
  *out_ << "-- engine " << EngineName(target.engine_kind) << ", ";
  if (target.grow_only) {
    *out_ << "growing the tree every filter is measured on (--same_tree), "
             "with ";
  }
  *out_ << "filter " << target.filter.KindName();
  if (target.filter.monkey &&
      target.filter.family == FilterFamily::kBloomgate && !HandShapedTree()) {
    *out_ << " (budget ";
    if (target.filter.memory_budget_bytes != 0) {
      *out_ << FormatByteSize(target.filter.memory_budget_bytes) << ", "
            << absl::StrFormat("%.2f", target.bits) << " bits/key at "
            << options_.num
            << " keys; each flush and compaction gives its files what the "
               "budget leaves, shared out over the live tree";
    } else {
      *out_ << target.bits
            << " bits/key on average; each flush and compaction shares it "
               "out over the live tree";
    }
    if (target.filter.mixed) {
      *out_ << " and chooses its family, bloomgate or Ribbon, by the cost "
               "model at "
            << target.filter.read_micros << " us a read, Ribbon's overhead "
            << absl::StrFormat("%.4f",
                               CostInputsFor(KeysPerFile()).ribbon_overhead)
            << " for files of " << KeysPerFile()
            << " keys (RocksDB's sizing; each file its own)";
    }
    *out_ << ")";
  } else if (target.filter.monkey) {
    *out_ << " (budget " << target.bits << " bits/key on average over "
          << options_.engine.num_levels << " levels of fanout "
          << options_.engine.max_bytes_for_level_multiplier << "; by level";
    absl::StatusOr<std::vector<RunFilter>> families =
        LevelFilters(target.filter, options_.engine.num_levels,
                     CostInputsFor(KeysPerFile()));
    for (size_t level = 0; level < target.level_bits.size(); ++level) {
      *out_ << " L" << level << " "
            << absl::StrFormat("%.2f", target.level_bits[level]);
      if (target.filter.mixed && families.ok()) {
        *out_ << " "
              << ((*families)[level].family == FilterFamily::kRocksDBRibbon
                      ? "ribbon"
                      : "bloomgate");
      }
    }
    *out_ << ")";
  } else if (target.filter.family == FilterFamily::kRocksDBRibbon) {
    if (target.bits > 0) *out_ << " (" << target.bits << " bits/key of memory:";
    *out_ << (target.bits > 0 ? " " : " (") << "parameter "
          << target.filter.bits_per_key << ")";
  } else if (target.filter.family != FilterFamily::kNone) {
    *out_ << " (" << target.bits << " bits/key)";
  }
  *out_ << "\n" << std::flush;
}

}  // namespace bloomgate::bench
