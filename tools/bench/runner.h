// Copyright 2026 The bloomgate Authors.
//
// Runs the benchmarks of BenchOptions on each engine and filter, printing one
// db_bench-shaped line per benchmark as it finishes. runner.cc decides what
// runs (engines, filters in order, equal memory, the grown tree); as in
// db_bench, each benchmark has a method of its own (benchmarks.cc: the fills
// share DoFill and the reads DoRead), and measure.h holds what they measure
// with.

#ifndef BLOOMGATE_TOOLS_BENCH_RUNNER_H_
#define BLOOMGATE_TOOLS_BENCH_RUNNER_H_

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/bench/bench_options.h"
#include "tools/bench/engine.h"
#include "tools/bench/results.h"

namespace bloomgate::bench {

class Runner {
 public:
  // Lines go to `out`; options must pass ValidateBenchOptions.
  Runner(const BenchOptions& options, std::ostream* out);

  // Every supported (engine, filter) pair in flag order, each in a fresh
  // database (or the existing one with use_existing_db). Returns the results
  // of every fill and read benchmark; stops at the first error.
  absl::StatusOr<std::vector<BenchResult>> RunAll();

  // One engine and filter (an entry of options.filters) in `dir`, at
  // `bloom_bits` bits per key of filter memory (the average for
  // bloomgate_monkey) instead of options.bloom_bits if given, unless the
  // filter has its own parameter.
  absl::StatusOr<std::vector<BenchResult>> RunOne(
      EngineKind engine, const FilterArg& filter, const std::string& dir,
      std::optional<double> bloom_bits = std::nullopt);

 private:
  // The engine and filter RunOne is running, and what every benchmark on it
  // needs to know.
  struct Target {
    Engine* engine = nullptr;
    EngineKind engine_kind;
    // As run: FilterForRun's, with Ribbon's parameter for the memory.
    FilterSpec filter;
    // The filter's own parameter, not the run's memory (FilterArg).
    bool own_parameter = false;
    // The filter memory asked for, bits per key (a level-aware filter's
    // average); 0 without a filter or for Ribbon at its own parameter.
    double bits = 0;
    std::vector<double> level_bits;  // a level-aware filter's, by level
    // Runs only the fills: it grows the tree every filter is measured on.
    bool grow_only = false;
    // Runs on a copy of that tree (tree_dir_), its files rewritten with
    // this filter, so it skips the fills.
    bool on_grown_tree = false;
  };
  // Every key of a fill in the order it is written, and the levels it goes
  // to (benchmarks.cc).
  struct FillPlan;

  // The benchmarks. `index` is the benchmark's place in options.benchmarks,
  // which seeds its key order or lookup streams.
  absl::StatusOr<BenchResult> FillRandom(const Target& target, size_t index);
  absl::StatusOr<BenchResult> FillSeq(const Target& target, size_t index);
  absl::StatusOr<BenchResult> FillLevels(const Target& target, size_t index);
  absl::StatusOr<BenchResult> ReadRandom(const Target& target, size_t index);
  absl::StatusOr<BenchResult> ReadMissing(const Target& target, size_t index);
  absl::StatusOr<BenchResult> MultiReadMissing(const Target& target,
                                               size_t index);
  absl::StatusOr<BenchResult> ReadMixed(const Target& target, size_t index);
  void Stats(const Target& target);

  // The steps they share.
  BenchResult NewResult(const Target& target, BenchmarkKind benchmark) const;
  // fillrandom and fillseq: every key once, in random or ascending order,
  // into the memtable and level 0.
  absl::StatusOr<BenchResult> FillEveryKey(const Target& target,
                                           BenchmarkKind benchmark,
                                           size_t index, bool random);
  // Writes `plan` in batches, compacting each level into place, and reports
  // the fill and the files it left.
  absl::StatusOr<BenchResult> DoFill(const Target& target,
                                     BenchmarkKind benchmark,
                                     const FillPlan& plan);
  // --grow_to: grows the database in steps, each a fill of its new keys
  // and a readmissing (BenchOptions::grow_to), results tagged with the
  // step's keys.
  absl::StatusOr<std::vector<BenchResult>> Grow(const Target& target);
  // Looks up options.reads keys (fewer without a filter), `negative_ratio`
  // of them absent, `batch` keys per call (1: Get, more: MultiGet), and
  // reports what the reads and the filters did.
  absl::StatusOr<BenchResult> DoRead(const Target& target,
                                     BenchmarkKind benchmark, size_t index,
                                     double negative_ratio, int batch = 1);
  // RunAll's steps.
  // The folder for the databases: --db, created if need be, or a fresh
  // scratch folder (*temporary).
  absl::StatusOr<std::string> MakeBaseDir(bool* temporary) const;
  // Removes a temporary base folder unless keep_db; says where a kept one
  // is.
  void RemoveBaseDir(const std::string& base, bool temporary) const;
  // The filter whose measured memory every other filter without its own
  // parameter is matched to on `engine` (options.memory_reference): the
  // first of options.filters the engine runs, or the one named; nullopt
  // with "none", with sweep_bits, or when the named one does not run there.
  std::optional<FilterArg> MemoryReference(EngineKind engine) const;
  // options.filters in the order they run: `reference` before every other
  // filter that takes its memory, the rest in flag order.
  std::vector<FilterArg> FiltersInRunOrder(
      const std::optional<FilterArg>& reference) const;
  // Runs each filter that `engine` supports, in its folder under `base`
  // (removed afterwards unless keep_db or use_existing_db), on one tree
  // grown first when SameTree, and appends the results to *all.
  absl::Status RunEngine(EngineKind engine, const std::string& base,
                         std::vector<BenchResult>* all);
  // RunEngine's loop over the filters, the memory reference first.
  absl::Status RunFilters(EngineKind engine, const std::string& base,
                          std::vector<BenchResult>* all);
  // RunOne, then removes `dir` unless the databases are kept, and appends
  // the results to *all.
  absl::Status RunAndCollect(EngineKind engine, const FilterArg& filter,
                             const std::string& dir,
                             std::optional<double> bloom_bits,
                             std::vector<BenchResult>* all);
  // Whether `filter` runs at each of options.sweep_bits, and running it so,
  // in `dir`_<bits>.
  bool SweepsMemory(const FilterArg& filter) const;
  absl::Status RunAtEachMemory(EngineKind engine, const FilterArg& filter,
                               const std::string& dir,
                               std::vector<BenchResult>* all);
  // Whether `engine` measures every filter on one tree (same_tree; not
  // when growing, where each filter writes its own files).
  bool SameTree(EngineKind engine) const;
  // Grows that tree in a folder under `base`, appends the fills' results to
  // *all, and sets tree_dir_ and tree_shape_.
  absl::Status GrowTree(EngineKind engine, const std::string& base,
                        std::vector<BenchResult>* all);
  // Rewrites the copy of the grown tree that `target` opened with its
  // filter, and says whether the tree stayed the same.
  absl::Status RewriteGrownTree(const Target& target);
  // One benchmark of `target`: the dispatch to the methods above. nullopt
  // for those that give no result (stats, fills of an existing database).
  absl::StatusOr<std::optional<BenchResult>> RunBenchmark(
      const Target& target, BenchmarkKind benchmark, size_t index);
  void PrintTarget(const Target& target) const;
  // About how many keys one SST file holds: what a filter is sized for.
  uint64_t KeysPerFile() const;
  // Whether the run loads the tree level by level (filllevels) into the
  // shape a level-aware filter assumes.
  bool HandShapedTree() const;
  // Opens `engine` with `filter` (as run) in `dir`, which is emptied first
  // unless options.use_existing_db.
  // With `tree`, a copy of that database, auto compactions off.
  absl::StatusOr<std::unique_ptr<Engine>> OpenIn(
      const std::string& dir, EngineKind engine, const FilterSpec& filter,
      const std::string& tree = "") const;

  BenchOptions options_;
  std::ostream* out_;
  // The files of the last RunOne's engine after its last benchmark.
  EngineShape last_shape_;
  // What the memory reference's filters took on the engine running, bits
  // per key over its files' keys, and those keys, file by file: the memory
  // and the files every other filter is sized for.
  struct ReferenceMemory {
    double bits_per_key = 0;
    std::vector<uint64_t> filter_keys;
  };
  std::optional<ReferenceMemory> reference_;
  // While RunEngine measures every filter on one tree: where it was grown,
  // and its files.
  std::string tree_dir_;
  EngineShape tree_shape_;
  // Set while GrowTree's RunOne grows it.
  bool growing_tree_ = false;
};

// Where RunAll puts an engine's database under the --db folder: named
// after the filter's kind, or its full name (':' as '_') when it has its own
// parameter.
std::string EngineDir(const std::string& base, EngineKind engine,
                      const FilterArg& filter);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_RUNNER_H_
