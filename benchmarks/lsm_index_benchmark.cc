// Copyright 2026 The bloomgate Authors.
//
// The LSM's search for a key's data block: IndexSearch against
// std::lower_bound over the index entries' last keys, on the same indexes
// and keys in one run. The indexes are shaped like bloomgate_bench's 10^8
// key store: tables of 12,000 blocks whose last keys are 16-digit decimal
// numbers spread over the whole key space, as flushed level-0 files are.
// With 66 tables the indexes (about 5 MB of numbers, 60 MB of entries and
// their keys) are larger than the caches, as a service's are; with one table
// they are cached.
//
// Run: build/bin/bloomgate_lsm_benchmarks --benchmark_repetitions=3
// --benchmark_enable_random_interleaving=true
// --benchmark_report_aggregates_only=true (pinned to one CPU: cpu_pin.h's
// --bloomgate_cpu)

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "benchmark/benchmark.h"
#include "benchmarks/cpu_pin.h"
#include "src/lsm/format.h"
#include "src/lsm/index_search.h"

namespace bloomgate::lsm {
namespace {

constexpr size_t kBlocksPerTable = 12000;
// Slots of bloomgate_bench's key space at --num=10^8: present keys are the
// even slots below 2 * 10^8.
constexpr uint64_t kSlots = 200000000;
constexpr size_t kQueries = 1 << 16;

std::string DecimalKey(uint64_t slot) {
  char key[17];
  std::snprintf(key, sizeof(key), "%016llu",
                static_cast<unsigned long long>(slot));
  return key;
}

struct Indexes {
  std::vector<std::vector<IndexEntry>> tables;
  std::vector<IndexSearch> searches;
  // Absent keys (odd slots), each with the table it is looked up in.
  std::vector<std::string> keys;
  std::vector<size_t> table_of_key;
};

const Indexes& IndexesOf(size_t num_tables) {
  static std::vector<std::unique_ptr<Indexes>> cache(128);
  std::unique_ptr<Indexes>& indexes = cache.at(num_tables);
  if (indexes != nullptr) return *indexes;
  indexes = std::make_unique<Indexes>();
  std::mt19937_64 rng(num_tables);
  for (size_t t = 0; t < num_tables; ++t) {
    std::vector<uint64_t> slots(kBlocksPerTable);
    for (uint64_t& slot : slots) slot = rng() % (kSlots / 2) * 2;
    std::sort(slots.begin(), slots.end());
    slots.erase(std::unique(slots.begin(), slots.end()), slots.end());
    std::vector<IndexEntry> index;
    for (uint64_t slot : slots) index.push_back({DecimalKey(slot), {}});
    indexes->tables.push_back(std::move(index));
  }
  for (const std::vector<IndexEntry>& index : indexes->tables) {
    indexes->searches.emplace_back(index);
  }
  for (size_t i = 0; i < kQueries; ++i) {
    indexes->keys.push_back(DecimalKey(rng() % (kSlots / 2) * 2 + 1));
    indexes->table_of_key.push_back(rng() % num_tables);
  }
  return *indexes;
}

// The query after query i. It depends on the block found (the shift is
// always 0, which the compiler cannot know), so that searches run one after
// another as in a lookup, where a data-block read follows each, rather than
// overlapping in the CPU.
size_t NextQuery(size_t i, size_t block) {
  return (i + 1 + (block >> 62)) % kQueries;
}

// Arg: tables. Each iteration finds the block of one key in one table.
void StdLowerBound(benchmark::State& state) {
  const Indexes& indexes = IndexesOf(static_cast<size_t>(state.range(0)));
  size_t i = 0;
  for (auto _ : state) {
    const std::vector<IndexEntry>& index =
        indexes.tables[indexes.table_of_key[i]];
    auto it = std::lower_bound(
        index.begin(), index.end(), std::string_view(indexes.keys[i]),
        [](const IndexEntry& e, std::string_view k) { return e.last_key < k; });
    const auto block = static_cast<size_t>(it - index.begin());
    benchmark::DoNotOptimize(block);
    i = NextQuery(i, block);
  }
}

void CompactIndexSearch(benchmark::State& state) {
  const Indexes& indexes = IndexesOf(static_cast<size_t>(state.range(0)));
  size_t i = 0;
  for (auto _ : state) {
    const size_t table = indexes.table_of_key[i];
    size_t block = indexes.searches[table].LowerBound(indexes.tables[table],
                                                      indexes.keys[i]);
    benchmark::DoNotOptimize(block);
    i = NextQuery(i, block);
  }
}

BENCHMARK(StdLowerBound)->ArgName("tables")->Arg(1)->Arg(66);
BENCHMARK(CompactIndexSearch)->ArgName("tables")->Arg(1)->Arg(66);

}  // namespace
}  // namespace bloomgate::lsm

int main(int argc, char** argv) {
  // Both sides of the comparison on one CPU (benchmarks/cpu_pin.h).
  const std::string cpu = bloomgate::bench::PinToOneCpuOrExit(&argc, argv);
  benchmark::Initialize(&argc, argv, [] {
    std::fputs(bloomgate::bench::kCpuFlagHelp, stdout);
    benchmark::PrintDefaultHelp();
  });
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("cpu", cpu);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
