// Copyright 2026 The bloomgate Authors.
//
// bloomgate_bench: how many disk reads bloomgate's filters save on
// mostly-negative lookups, measured on RocksDB and on bloomgate's miniature
// LSM, in db_bench's conventions. docs/evaluation.md explains the output.
// With no flags it runs the README's default comparison.

#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/usage.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/filter_spec.h"
#include "tools/bench/bench_options.h"
#include "tools/bench/direct_reads.h"
#include "tools/bench/report.h"
#include "tools/bench/runner.h"
#include "tools/bench/summary.h"
#include "tools/flags_usage.h"

ABSL_FLAG(std::string, benchmarks, "fillrandom,readmixed",
          "Comma-separated benchmarks, run in order: fillrandom, fillseq, "
          "filllevels (a leveled tree of Monkey's shape: --num_levels levels, "
          "each --max_bytes_for_level_multiplier times as many keys as the "
          "one above, loaded deepest first, each level compacted into place; "
          "needs --disable_auto_compactions=true), readrandom (present keys), "
          "readmissing (absent keys), multireadmissing (absent keys, "
          "--multiget_batch per MultiGet call), readmixed (--negative_ratio "
          "absent), stats, rewritefilters (every live file's filter "
          "rewritten as the policy now chooses it: after reads, a pool's "
          "filters sized by the reach they measured; RocksDB only)");
ABSL_FLAG(std::string, engine, "lsm,rocksdb",
          "Comma-separated engines: lsm (bloomgate's miniature LSM), rocksdb");
namespace {

// --filter's help: every kind of the registry (FilterKinds), with what it is.
std::string FilterFlagHelp() {
  std::string help = "Comma-separated filters:";
  for (const bloomgate::FilterKindInfo& kind : bloomgate::FilterKinds()) {
    absl::StrAppend(&help, " ", bloomgate::ToAbsl(kind.name), " = ",
                    bloomgate::ToAbsl(kind.description), ";");
  }
  help.back() = '.';
  absl::StrAppend(&help,
                  " bloomgate_monkey spends --bloom_bits on average over "
                  "--num_levels levels of fanout "
                  "--max_bytes_for_level_multiplier. Each runs at "
                  "--bloom_bits of filter memory per key, unless given its "
                  "own parameter after a colon, in the filter's own terms: "
                  "rocksdb_ribbon:14.2 is RocksDB's Ribbon at "
                  "bloom_equivalent_bits_per_key 14.2 (about 10 bits/key of "
                  "memory), bloomgate:12:standard bloomgate's textbook layout "
                  "at 12 bits/key. A level-aware kind takes a memory budget "
                  "in bytes there instead (bloomgate_mixed:64MiB, "
                  "bloomgate_monkey:5000000B): its filters keep to that "
                  "total, each file sized from the live tree, as the tree "
                  "grows (--grow_to). Each engine runs those it supports "
                  "(the lsm engine only bloomgate's)");
  return help;
}

}  // namespace

ABSL_FLAG(std::string, filter, "none,bloomgate,rocksdb_bloom,rocksdb_ribbon",
          FilterFlagHelp());
ABSL_FLAG(int64_t, num, 1000000, "Number of keys a fill writes");
ABSL_FLAG(int64_t, reads, 1000000,
          "Number of lookups per read benchmark (over all threads)");
ABSL_FLAG(int64_t, filterless_reads, 100000,
          "Lookups per read benchmark for --filter=none: the first ones of "
          "the same streams. A filterless lookup reads every file covering "
          "the key, tens of times the work of a filtered one, at the same "
          "cost per lookup; 0 means --reads");
ABSL_FLAG(std::vector<std::string>, sweep_bits, {},
          "Comma-separated bits per key, e.g. 4,6,8,10,12,14,16: every filter "
          "without its own parameter runs at each in turn instead of "
          "--bloom_bits (none once), on the one tree --same_tree grows; "
          "--memory_reference does not apply");
ABSL_FLAG(int64_t, grow_to, 0,
          "Instead of --benchmarks, each engine and filter grows a database "
          "of its own from --num keys to this many in --grow_steps "
          "geometric steps (random order, the same for every filter), and "
          "after each step (flushed, compactions done) looks up --reads "
          "absent keys spread over the final key range (readmissing); 0: no "
          "growth. A filter with a memory budget "
          "(bloomgate_mixed:64MiB) keeps to it as the tree grows; "
          "bloomgate_plot --growth plots memory and reads against keys");
ABSL_FLAG(int32_t, grow_steps, 5,
          "Steps of --grow_to, the first at --num keys and the last at "
          "--grow_to (1000000 to 16000000 in 5: 1M, 2M, 4M, 8M, 16M)");
ABSL_FLAG(int32_t, key_size, 16, "Key size in bytes");
ABSL_FLAG(int32_t, value_size, 100, "Value size in bytes");
ABSL_FLAG(double, negative_ratio, 0.99,
          "Share of lookups for absent keys in readmixed");
ABSL_FLAG(std::string, lookup_dist, "uniform",
          "Where lookups fall in the key order, absent and present keys "
          "alike, unscrambled so that hot keys share files: uniform, "
          "zipfian:<theta> (rank r, key r of the order, with probability "
          "proportional to 1/(r+1)^theta, theta in (0, 1)), "
          "hotspot:<key fraction>:<lookup fraction> (that share of the "
          "lookups on the first key fraction of the keys, the rest on the "
          "others; hotspot:0.01:0.9 puts 90% on 1%), latest:<key fraction> "
          "(uniform over the last key fraction of the key order, the newest "
          "under fillseq)");
ABSL_FLAG(double, bloom_bits, 10.0,
          "Filter memory per key, in bits, for every filter without its "
          "own parameter (bloomgate_monkey: the average over the tree). "
          "RocksDB's Ribbon gets the bloom_equivalent_bits_per_key whose "
          "filters take it, found by building a sample filter of one SST "
          "file's keys");
ABSL_FLAG(std::string, db, "",
          "Folder for the databases (one sub-folder per engine and filter); "
          "default a fresh temporary folder, removed afterwards unless "
          "--keep_db");
ABSL_FLAG(bool, keep_db, false, "Keep the databases after the run");
ABSL_FLAG(bool, use_existing_db, false,
          "Reuse the databases in --db (fills are skipped)");
ABSL_FLAG(uint64_t, seed, 301, "Seed of every key order and lookup stream");
ABSL_FLAG(int32_t, batch_size, 100,
          "Keys per write of a fill: one atomic batch, one WAL record");
ABSL_FLAG(int32_t, threads, 1, "Lookup threads (fills use one)");
ABSL_FLAG(int64_t, write_buffer_size, 8 << 20,
          "Memtable size in bytes: each flush writes one L0 file");
ABSL_FLAG(int64_t, target_file_size_base, 64 << 20,
          "Target SST file size of compaction output");
ABSL_FLAG(int64_t, max_bytes_for_level_base, 256 << 20,
          "Target size of level 1 in bytes");
ABSL_FLAG(double, max_bytes_for_level_multiplier, 10,
          "Size ratio of consecutive levels");
ABSL_FLAG(int32_t, num_levels, 7,
          "Number of levels; also the depth of the tree bloomgate_monkey "
          "allocates for, so set it to the depth the data reaches");
ABSL_FLAG(bool, disable_auto_compactions, true,
          "No compactions: every flush stays in L0, so lookups meet tens of "
          "files. false gives a leveled LSM");
ABSL_FLAG(bool, level_compaction_dynamic_level_bytes, false,
          "rocksdb engine: size the level targets up from the last level "
          "(RocksDB's option of that name; its default from 8.4 on). The lsm "
          "engine sizes its levels from level 1 down either way");
ABSL_FLAG(bool, wait_for_compactions, false,
          "rocksdb engine: every write of a fill waits for the flushes and "
          "compactions it sets off, so that the tree grows from the keys "
          "alone, alike for every filter (the lsm engine always does). Use it "
          "to compare filters on the same tree; the fill's ops/s is then no "
          "write throughput");
ABSL_FLAG(double, read_micros, -1,
          "bloomgate_mixed: the time of one data-block read, in "
          "microseconds, that its cost model weighs a false positive with "
          "when it chooses each level's filter family; -1: with "
          "--use_direct_reads the device's read latency measured before the "
          "run (100 where it cannot be), else 2 (the page cache)");
ABSL_FLAG(std::string, probe_ns, "",
          "bloomgate_mixed: the probe times its cost model weighs a filter "
          "check with, <bloomgate>/<ribbon> in nanoseconds, e.g. 10/34; "
          "empty: measured on this machine at start (printed in the header)");
ABSL_FLAG(bool, same_tree, true,
          "rocksdb engine: grow the tree once (with bloomgate at "
          "--bloom_bits), then measure each filter on a copy of it whose "
          "every file is rewritten with that filter, alone and into its own "
          "level: the filters' reads are compared on the same files. false: "
          "each filter grows its own tree. Not with filllevels (its trees are "
          "the same by construction) or --use_existing_db; the lsm engine's "
          "trees repeat exactly anyway");
ABSL_FLAG(std::string, memory_reference, "",
          "The filter whose measured memory every other filter (without its "
          "own parameter) is given, on each engine: it runs first, at "
          "--bloom_bits, and the others at the bits per key its filters took, "
          "each sized for the same files; a bits/key cell more than 0.5% off "
          "it is marked. Empty: the first of --filter the engine runs (none "
          "aside); a kind, e.g. rocksdb_bloom; none: every filter at "
          "--bloom_bits. Not with --sweep_bits");
ABSL_FLAG(int64_t, cache_size, 0,
          "RocksDB block cache in bytes; 0: none (every data-block access is "
          "a read)");
ABSL_FLAG(int32_t, multiget_batch, 32,
          "Keys per MultiGet call of multireadmissing (RocksDB's MultiGet "
          "batch is 32)");
ABSL_FLAG(bool, prefetch_filters, true,
          "lsm engine: a Get requests the filter line of every file that may "
          "hold the key before it probes the first "
          "(StoreOptions::prefetch_filters); false to measure what that "
          "gains");
ABSL_FLAG(
    bool, use_direct_reads, false,
    "Read data blocks with O_DIRECT, bypassing the page cache, so that "
    "every read meets the device (RocksDB's and the LSM's use_direct_reads;"
    " flushes and compactions stay buffered). Where the "
    "file system refuses O_DIRECT (e.g. tmpfs) the header says so and "
    "the run reads buffered");
ABSL_FLAG(bool, require_direct_reads, false,
          "With --use_direct_reads: fail instead of reading buffered where the "
          "file system refuses O_DIRECT");
ABSL_FLAG(bool, histogram, false,
          "Per read benchmark, latency percentiles (P50, P90, P99, P99.9, "
          "max) of each lookup, split by hit and miss, in db_bench's style "
          "and in the JSON; also times the engines' data-block reads");
ABSL_FLAG(double, io_latency_us, 0,
          "Model a device with this read latency: report what the reads done "
          "and avoided would cost there (docs/evaluation.md)");
ABSL_FLAG(std::string, json, "",
          "Write every result to this file as JSON (bloomgate_plot draws "
          "charts from such files; tools/demo --plot=DIR runs both)");
ABSL_FLAG(bool, progress, true,
          "Progress bar on stderr (only ever drawn when it is a terminal)");

namespace {

namespace bench = bloomgate::bench;

int Fail(const absl::Status& status) {
  std::cerr << "bloomgate_bench: " << status.message() << "\n\n"
            << absl::ProgramUsageMessage() << "\nTry --help for the flags.\n";
  return 1;
}

// The flags, parsed and copied into BenchOptions (not yet validated);
// InvalidArgument for a list that does not parse.
absl::StatusOr<bench::BenchOptions> ReadFlags() {
  bench::BenchOptions options;
  auto benchmarks = bench::ParseBenchmarkList(absl::GetFlag(FLAGS_benchmarks));
  if (!benchmarks.ok()) return benchmarks.status();
  auto engines = bench::ParseEngineList(absl::GetFlag(FLAGS_engine));
  if (!engines.ok()) return engines.status();
  auto filters = bench::ParseFilterList(absl::GetFlag(FLAGS_filter));
  if (!filters.ok()) return filters.status();
  options.benchmarks = *benchmarks;
  options.engines = *engines;
  options.filters = *filters;
  options.num = absl::GetFlag(FLAGS_num);
  options.reads = absl::GetFlag(FLAGS_reads);
  options.filterless_reads = absl::GetFlag(FLAGS_filterless_reads);
  options.key_size = absl::GetFlag(FLAGS_key_size);
  options.value_size = absl::GetFlag(FLAGS_value_size);
  options.negative_ratio = absl::GetFlag(FLAGS_negative_ratio);
  absl::StatusOr<bench::LookupDistribution> lookup_dist =
      bench::LookupDistribution::Parse(absl::GetFlag(FLAGS_lookup_dist));
  if (!lookup_dist.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--lookup_dist: ", lookup_dist.status().message()));
  }
  options.lookup_dist = *lookup_dist;
  options.bloom_bits = absl::GetFlag(FLAGS_bloom_bits);
  for (const std::string& bits : absl::GetFlag(FLAGS_sweep_bits)) {
    double value = 0;
    if (!absl::SimpleAtod(bits, &value)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--sweep_bits: \"", bits, "\" is not a number"));
    }
    options.sweep_bits.push_back(value);
  }
  options.grow_to = absl::GetFlag(FLAGS_grow_to);
  options.grow_steps = absl::GetFlag(FLAGS_grow_steps);
  options.db = absl::GetFlag(FLAGS_db);
  options.keep_db = absl::GetFlag(FLAGS_keep_db);
  options.use_existing_db = absl::GetFlag(FLAGS_use_existing_db);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.batch_size = absl::GetFlag(FLAGS_batch_size);
  options.threads = absl::GetFlag(FLAGS_threads);
  options.engine.write_buffer_size = absl::GetFlag(FLAGS_write_buffer_size);
  options.engine.target_file_size_base =
      absl::GetFlag(FLAGS_target_file_size_base);
  options.engine.max_bytes_for_level_base =
      absl::GetFlag(FLAGS_max_bytes_for_level_base);
  options.engine.max_bytes_for_level_multiplier =
      absl::GetFlag(FLAGS_max_bytes_for_level_multiplier);
  options.engine.num_levels = absl::GetFlag(FLAGS_num_levels);
  options.engine.disable_auto_compactions =
      absl::GetFlag(FLAGS_disable_auto_compactions);
  options.engine.level_compaction_dynamic_level_bytes =
      absl::GetFlag(FLAGS_level_compaction_dynamic_level_bytes);
  options.engine.wait_for_compactions =
      absl::GetFlag(FLAGS_wait_for_compactions);
  options.memory_reference = absl::GetFlag(FLAGS_memory_reference);
  options.same_tree = absl::GetFlag(FLAGS_same_tree);
  if (const double read = absl::GetFlag(FLAGS_read_micros); read != -1) {
    options.read_micros = read;
  }
  if (const std::string probes = absl::GetFlag(FLAGS_probe_ns);
      !probes.empty()) {
    // The filter name's own field, so that flag and name agree.
    absl::StatusOr<bloomgate::FilterSpec> with = bloomgate::FilterSpec::Parse(
        absl::StrCat("bloomgate:10:monkey:mixed:probe_ns:", probes));
    if (!with.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--probe_ns: ", with.status().message()));
    }
    options.bloomgate_probe_nanos = with->bloomgate_probe_nanos;
    options.ribbon_probe_nanos = with->ribbon_probe_nanos;
  }
  options.engine.cache_size = absl::GetFlag(FLAGS_cache_size);
  options.engine.use_direct_reads = absl::GetFlag(FLAGS_use_direct_reads);
  options.engine.prefetch_filters = absl::GetFlag(FLAGS_prefetch_filters);
  options.multiget_batch = absl::GetFlag(FLAGS_multiget_batch);
  options.require_direct_reads = absl::GetFlag(FLAGS_require_direct_reads);
  options.histogram = absl::GetFlag(FLAGS_histogram);
  options.io_latency_us = absl::GetFlag(FLAGS_io_latency_us);
  options.json = absl::GetFlag(FLAGS_json);
  options.progress = absl::GetFlag(FLAGS_progress);
  return options;
}

// `table` under `title`, then `legend`, the lines that explain it; nothing
// for an empty table.
void PrintTable(std::string_view title, const std::string& table,
                const std::string& legend) {
  if (table.empty()) return;
  std::cout << "\n" << title << "\n" << table << "\n" << legend;
}

// The comparison table of the read benchmarks and what its columns mean.
void PrintComparison(const bench::BenchOptions& options,
                     const std::vector<bench::BenchResult>& results) {
  std::string legend =
      "I/O/hit, I/O/miss: data-block reads per lookup that found its key / "
      "found nothing.\n"
      "floor: the fewest I/O/miss any per-file hash-based filters of the "
      "memory these took could make on these files, in expectation (each "
      "file's filter at the information-theoretic 2^-bits, memory placed per "
      "file); n/a where a read may serve more than one lookup (MultiGet, a "
      "block cache).\n"
      "files/miss: files whose key range covers each absent key, i.e. the "
      "reads of a lookup without a filter.\n"
      "avoided: share of the files on the lookup path that the filter "
      "skipped. asked: filter memory per key the filter was given "
      "(--bloom_bits, or what the --memory_reference filter took); bits/key: "
      "what its filters "
      "took, marked (+N.N%) where that is more than 0.5% off what it was "
      "given.\n"
      "tree: a fingerprint of the files (levels, key ranges, entries): rows "
      "with the same one ran on the same tree, rows with different ones on "
      "different trees.\n";
  if (options.histogram) {
    legend +=
        "miss us, miss p99 us: mean and 99th percentile latency of the "
        "lookups that found nothing.\n";
  }
  if (options.histogram || options.engine.use_direct_reads) {
    legend +=
        "read us: measured mean time of one data-block read. user us/op: the "
        "lookup threads' user CPU time.\n"
        "explained: (user + reads x read us) / measured time. avoided us/op: "
        "the avoided reads at read us.\n";
  }
  legend += "How each engine counts: docs/evaluation.md.\n";
  PrintTable("Comparison", bench::FormatTable(results), legend);
}

// bloomgate_monkey against uniform bloomgate, when both ran.
void PrintMonkeyComparison(const std::vector<bench::BenchResult>& results) {
  PrintTable("Monkey against uniform bloomgate",
             bench::FormatMonkeyComparison(results),
             "bytes: filter memory of each run's live files. memory m/u: "
             "monkey bytes / uniform bytes.\n"
             "fewer I/Os: uniform I/O/miss / monkey I/O/miss; predicted: the "
             "same from the files' filters' predicted FP rates.\n");
}

}  // namespace

int main(int argc, char** argv) {
  bloomgate::tools::SetToolUsage(
      "Measures the disk reads that per-file filters avoid on mostly-negative "
      "lookups, on RocksDB and bloomgate's LSM, in db_bench's style.\n"
      "With no flags: the default comparison (both engines, filters none, "
      "bloomgate, rocksdb_bloom, rocksdb_ribbon, 10 bits/key, 1M keys, 1M "
      "lookups 99% absent).\n"
      "Usage: bloomgate_bench [--benchmarks=fillrandom,readmixed] "
      "[--engine=lsm,rocksdb] [--filter=none,bloomgate,...] [--num=N] "
      "[--reads=N] [--json=FILE] ...",
      __FILE__);
  if (absl::Status s = bloomgate::tools::ParseToolFlags(argc, argv); !s.ok()) {
    return Fail(s);
  }
  absl::StatusOr<bench::BenchOptions> flags = ReadFlags();
  if (!flags.ok()) return Fail(flags.status());
  bench::BenchOptions& options = *flags;
  if (absl::Status s = bench::ValidateBenchOptions(options); !s.ok()) {
    return Fail(s);
  }

  // Before the header, which says whether reads are direct.
  const bench::DirectReads direct = bench::ResolveDirectReads(options);
  if (absl::Status s = bench::ApplyDirectReads(direct, &options); !s.ok()) {
    return Fail(s);
  }
  std::cout << bench::BuildWarnings() << bench::FormatHeader(options, direct)
            << std::flush;
  bench::Runner runner(options, &std::cout);
  absl::StatusOr<std::vector<bench::BenchResult>> results = runner.RunAll();
  if (!results.ok()) return Fail(results.status());

  PrintComparison(options, *results);
  PrintTable("Summary",
             bench::FormatSummary(*results, !options.sweep_bits.empty()),
             "Time per lookup: measured, wall clock; a ratio of reads or of "
             "time compares the two filters named, on the rows above.\n");
  PrintMonkeyComparison(*results);
  if (!options.json.empty()) {
    if (absl::Status s = bench::WriteJsonFile(options.json, *results);
        !s.ok()) {
      return Fail(s);
    }
    std::cout << "JSON written to " << options.json << "\n";
  }
  return 0;
}
