// Copyright 2026 The bloomgate Authors.
//
// bloomgate_bench as a user runs it: the JSON parses and agrees with the
// printed comparison table; bad flags give a usage message and a non-zero
// exit; a non-terminal stderr gets no progress bar.

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/temp_dir.h"

namespace bloomgate::bench::testing {
namespace {

struct Outcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs `binary` with `args`; stdout and stderr are pipes, not terminals.
Outcome RunBinary(const std::string& binary, const std::string& args) {
  std::string command = binary + " " + args + " 2>&1 </dev/null";
  Outcome outcome;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return outcome;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    outcome.output.append(buffer, n);
  }
  int status = pclose(pipe);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

Outcome RunBench(const std::string& args) {
  return RunBinary(BLOOMGATE_BENCH_BINARY, args);
}

int Count(const std::string& haystack, const std::string& needle) {
  int count = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

using Json = nlohmann::json;

// The field `key` of `object`, or null if it has none.
const Json* Find(const Json& object, const std::string& key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// The table's cells as the tool formats them from a JSON number.
std::string Fixed(const Json* v, int decimals) {
  if (v == nullptr || v->is_null()) return "n/a";
  return absl::StrFormat("%.*f", decimals, v->get<double>());
}
std::string Pct(const Json* v, int decimals) {
  if (v == nullptr || v->is_null()) return "n/a";
  return absl::StrFormat("%.*f%%", decimals, 100 * v->get<double>());
}
// The bits/key cell of a run: what its filters took, marked "(+N.N%)" or
// "(-N.N%)" when that is more than 0.5% over or under the memory it was
// given.
std::string SpentBits(const Json& run) {
  const Json* spent = Find(run, "bits_per_key");
  const Json* budget = Find(run, "bloom_bits");
  std::string cell = Fixed(spent, 2);
  if (spent && budget && spent->is_number() && budget->is_number() &&
      budget->get<double>() > 0 &&
      std::abs(spent->get<double>() / budget->get<double>() - 1) > 0.005) {
    absl::StrAppend(
        &cell, absl::StrFormat(
                   "(%+.1f%%)",
                   100 * (spent->get<double>() / budget->get<double>() - 1)));
  }
  return cell;
}

// The JSON array the tool wrote to `path` (then removed), or nullopt after a
// test failure that says why.
std::optional<Json> ReadJsonArray(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    ADD_FAILURE() << "no JSON written at " << path;
    return std::nullopt;
  }
  std::stringstream text;
  text << file.rdbuf();
  std::filesystem::remove(path);
  Json json = Json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!json.is_array()) {
    ADD_FAILURE() << "not a JSON array"
                  << (json.is_discarded() ? " (malformed)" : "") << ":\n"
                  << text.str();
    return std::nullopt;
  }
  return json;
}

// The array's objects by "engine/filter/benchmark"; every one must also have
// the `required` fields.
std::map<std::string, const Json*> ByRun(
    const Json& array, std::initializer_list<const char*> required) {
  std::map<std::string, const Json*> by_run;
  for (const Json& object : array) {
    for (const char* field : required) {
      EXPECT_NE(Find(object, field), nullptr) << "missing " << field;
    }
    const Json* engine = Find(object, "engine");
    const Json* filter = Find(object, "filter");
    const Json* benchmark = Find(object, "benchmark");
    if (engine == nullptr || filter == nullptr || benchmark == nullptr) {
      ADD_FAILURE() << "a result without engine, filter or benchmark";
      continue;
    }
    by_run[engine->get<std::string>() + "/" + filter->get<std::string>() + "/" +
           benchmark->get<std::string>()] = &object;
  }
  return by_run;
}

// The rows of the table printed under the line `title`: the lines after its
// header and rule, up to the first empty line.
std::vector<std::vector<std::string>> TableRows(const std::string& output,
                                                const std::string& title) {
  std::vector<std::vector<std::string>> rows;
  const size_t at = output.find("\n" + title + "\n");
  if (at == std::string::npos) {
    ADD_FAILURE() << "no table \"" << title << "\" in\n" << output;
    return rows;
  }
  std::vector<std::string> lines =
      absl::StrSplit(output.substr(at + title.size() + 2), '\n');
  EXPECT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("engine ", 0), 0u) << lines[0];
  for (size_t i = 2; i < lines.size() && !lines[i].empty(); ++i) {
    rows.push_back(absl::StrSplit(lines[i], ' ', absl::SkipEmpty()));
  }
  return rows;
}

TEST(CliTest, JsonParsesAndAgreesWithTheTable) {
  const test_support::TempDir scratch("bloomgate_cli");
  const std::string json_path = scratch.Sub("bench.json");
  Outcome run = RunBench(
      "--engine=lsm,rocksdb --filter=none,bloomgate,rocksdb_bloom "
      "--benchmarks=fillrandom,readmixed,readmissing --num=5000 --reads=5000 "
      "--write_buffer_size=100000 --json=" +
      json_path);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find('\r'), std::string::npos)
      << "progress bar drawn on a pipe";
  // One db_bench line per benchmark of each of the 5 engine/filter pairs,
  // but RocksDB's fill: it grows one tree (--same_tree), which each of its
  // 3 filters rewrites.
  EXPECT_EQ(Count(run.output, "\nfillrandom   : "), 3) << run.output;
  EXPECT_EQ(Count(run.output, "\nrewrite      : "), 3) << run.output;
  EXPECT_EQ(Count(run.output, "\nreadmixed    : "), 5) << run.output;
  EXPECT_EQ(Count(run.output, "\nreadmissing  : "), 5) << run.output;

  std::optional<Json> json = ReadJsonArray(json_path);
  ASSERT_TRUE(json.has_value());
  // 5 pairs (the LSM cannot run rocksdb_bloom) x 2 reads, and 3 fills.
  ASSERT_EQ(json->size(), 13u);
  std::map<std::string, const Json*> by_key =
      ByRun(*json, {"ops", "micros_per_op", "ios_per_op", "ios_avoided_pct",
                    "fp_observed", "fp_predicted", "filter_bytes", "sst_files",
                    "tree"});

  // Every row of the table after "Comparison" is a JSON object, cell for
  // cell.
  int rows = 0;
  for (const std::vector<std::string>& cells :
       TableRows(run.output, "Comparison")) {
    ASSERT_EQ(cells.size(), 17u) << absl::StrJoin(cells, " ");
    ++rows;
    const std::string key = cells[0] + "/" + cells[1] + "/" + cells[2];
    ASSERT_TRUE(by_key.count(key)) << key;
    const Json& o = *by_key[key];
    bool none = cells[1] == "none";
    EXPECT_EQ(cells[3], Fixed(Find(o, "ops"), 0)) << key;
    EXPECT_EQ(cells[4], Fixed(Find(o, "ops_per_sec"), 0)) << key;
    EXPECT_EQ(cells[5], Fixed(Find(o, "ios_per_hit"), 4)) << key;
    EXPECT_EQ(cells[6], Fixed(Find(o, "ios_per_miss"), 4)) << key;
    EXPECT_EQ(cells[7], none ? "-" : Fixed(Find(o, "ios_per_miss_floor"), 5))
        << key;
    EXPECT_EQ(cells[8], Fixed(Find(o, "covering_files_per_miss"), 2)) << key;
    EXPECT_EQ(cells[9], Fixed(Find(o, "ios_avoided_pct"), 2) + "%") << key;
    EXPECT_EQ(cells[10], none ? "-" : Pct(Find(o, "fp_observed"), 3)) << key;
    EXPECT_EQ(cells[11], none ? "-" : Pct(Find(o, "fp_predicted"), 3)) << key;
    EXPECT_EQ(cells[12], Fixed(Find(o, "filter_bytes"), 0)) << key;
    EXPECT_EQ(cells[13], none ? "-" : Fixed(Find(o, "bloom_bits"), 2)) << key;
    EXPECT_EQ(cells[14], none ? "-" : SpentBits(o)) << key;
    EXPECT_EQ(cells[15], Fixed(Find(o, "sst_files"), 0)) << key;
    EXPECT_EQ(cells[16],
              absl::StrFormat("%04x", Find(o, "tree")->get<uint32_t>()))
        << key;
    // And the numbers mean what they say.
    EXPECT_EQ(Find(o, "ops")->get<double>(), 5000) << key;
    if (none) {
      EXPECT_EQ(Find(o, "ios_avoided_pct")->get<double>(), 0) << key;
      EXPECT_TRUE(Find(o, "fp_observed")->is_null()) << key;
      EXPECT_TRUE(Find(o, "ios_per_miss_floor")->is_null()) << key;
    } else {
      EXPECT_GT(Find(o, "ios_avoided_pct")->get<double>(), 90) << key;
      // Bloom filters sit far above the floor: each predicted read rate
      // is at least twice it (about 10x at 10 bits/key).
      const double floor = Find(o, "ios_per_miss_floor")->get<double>();
      EXPECT_GT(floor, 0) << key;
      EXPECT_GT(Find(o, "ios_per_miss_predicted")->get<double>(), 2 * floor)
          << key;
    }
  }
  // Two read benchmarks for each of the 5 pairs.
  EXPECT_EQ(rows, 10) << run.output;
  // RocksDB's filters ran on the one tree it grew, and say so.
  std::set<uint32_t> rocksdb_trees;
  for (const auto& [key, o] : by_key) {
    if (key.starts_with("rocksdb/")) {
      rocksdb_trees.insert(Find(*o, "tree")->get<uint32_t>());
    }
  }
  EXPECT_EQ(rocksdb_trees.size(), 1u);
}

TEST(CliTest, UnknownFilterGivesUsageAndFails) {
  Outcome run = RunBench("--filter=bogus");
  EXPECT_NE(run.exit_code, 0);
  EXPECT_NE(run.output.find("unknown filter 'bogus'"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("Usage: bloomgate_bench"), std::string::npos)
      << run.output;
}

// --filter=bloomgate_monkey,bloomgate: the Monkey table names both memories
// and both reads per miss, cell for cell those of the JSON.
TEST(CliTest, MonkeyComparisonShowsBothMemoriesAndReads) {
  const test_support::TempDir scratch("bloomgate_cli");
  const std::string json_path = scratch.Sub("monkey.json");
  Outcome run = RunBench(
      "--engine=lsm,rocksdb --filter=bloomgate_monkey,bloomgate "
      "--benchmarks=filllevels,readmissing --num=11100 --reads=5000 "
      "--num_levels=3 --json=" +
      json_path);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::optional<Json> json = ReadJsonArray(json_path);
  ASSERT_TRUE(json.has_value());
  std::map<std::string, const Json*> by_key =
      ByRun(*json, {"keys_per_level", "filter_bytes_per_level",
                    "bits_per_key_per_level", "ios_per_miss_predicted"});

  int rows = 0;
  for (const std::vector<std::string>& cells :
       TableRows(run.output, "Monkey against uniform bloomgate")) {
    ASSERT_EQ(cells.size(), 12u) << absl::StrJoin(cells, " ");
    ++rows;
    const Json* uniform = by_key[cells[0] + "/bloomgate/readmissing"];
    const Json* monkey = by_key[cells[0] + "/bloomgate_monkey/readmissing"];
    ASSERT_TRUE(uniform && monkey) << cells[0];
    EXPECT_EQ(cells[2], "L0:100,L1:1000,L2:10000") << absl::StrJoin(cells, " ");
    EXPECT_EQ(cells[3], SpentBits(*monkey));
    EXPECT_EQ(cells[4], Fixed(Find(*uniform, "bloom_bits"), 4));
    EXPECT_EQ(cells[5], Fixed(Find(*uniform, "filter_bytes"), 0));
    EXPECT_EQ(cells[6], Fixed(Find(*monkey, "filter_bytes"), 0));
    EXPECT_EQ(cells[8], Fixed(Find(*uniform, "ios_per_miss"), 5));
    EXPECT_EQ(cells[9], Fixed(Find(*monkey, "ios_per_miss"), 5));
    // The same memory within 1%.
    EXPECT_NEAR(Find(*monkey, "filter_bytes")->get<double>() /
                    Find(*uniform, "filter_bytes")->get<double>(),
                1.0, 0.01);
  }
  EXPECT_EQ(rows, 2) << run.output;
}

TEST(CliTest, HelpDescribesMonkey) {
  Outcome run = RunBench("--help");
  for (const char* text :
       {"bloomgate_monkey", "filllevels", "memory_reference"}) {
    EXPECT_NE(run.output.find(text), std::string::npos) << text;
  }
  // Flags are listed by their file's base name, not the build's path.
  EXPECT_NE(run.output.find("Flags from bloomgate_bench.cc:"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("tools/bench/"), std::string::npos) << run.output;
}

TEST(CliTest, BadValuesAndUnknownFlagsFail) {
  for (const char* args :
       {"--num=abc",
        "--no_such_flag=1",
        "--num=1",
        "--negative_ratio=2",
        "--engine=lsm --filter=rocksdb_bloom",
        "--threads=0",
        "extra",
        "--filter=bloomgate_monkey,monkey",
        "--benchmarks=filllevels --disable_auto_compactions=false",
        "--benchmarks=filllevels --num=100 --num_levels=3",
        "--histogram=maybe",
        "--use_direct_reads=sometimes",
        "--require_direct_reads",
        "--filter=bloomgate,rocksdb_ribbon --memory_reference=rocksdb_bloom",
        "--memory_reference=bloomgate --sweep_bits=8,10",
        "--grow_to=100",
        "--num=1000 --grow_to=2000 --grow_steps=1",
        "--num=1000 --grow_to=2000 --sweep_bits=8,10",
        "--filter=bloomgate_monkey:0MiB",
        "--filter=bloomgate:64MiB",
        "--filter=bloomgate_monkey:64ZiB"}) {
    Outcome run = RunBench(args);
    EXPECT_NE(run.exit_code, 0) << args << "\n" << run.output;
    EXPECT_FALSE(run.output.empty()) << args;
    EXPECT_EQ(run.output.find("Comparison"), std::string::npos) << args;
  }
}

TEST(CliTest, HistogramMaybeIsAUsageError) {
  Outcome run = RunBench("--histogram=maybe");
  EXPECT_NE(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("'maybe'"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("histogram"), std::string::npos) << run.output;
}

// The latency block under each read benchmark's line, parsed.
struct LatencyBlock {
  long long count = -1;
  std::string average, min, max, p50, p90, p99, p999;
};

// The block titled `title` after the line starting `after` (e.g.
// "-- engine lsm, filter none"), within that engine's section.
std::optional<LatencyBlock> FindLatency(const std::string& output,
                                        const std::string& after,
                                        const std::string& title) {
  size_t at = output.find(after);
  if (at == std::string::npos) return std::nullopt;
  const size_t end = output.find("\n-- engine", at + 1);
  at = output.find(title, at);
  if (at == std::string::npos || (end != std::string::npos && at > end)) {
    return std::nullopt;
  }
  std::vector<std::string> lines =
      absl::StrSplit(output.substr(at), absl::MaxSplits('\n', 3));
  if (lines.size() < 3) return std::nullopt;
  LatencyBlock b;
  char average[32], min[32], max[32], p50[32], p90[32], p99[32], p999[32];
  if (std::sscanf(lines[1].c_str(),
                  "Count: %lld Average: %31s Min: %31s Max: %31s", &b.count,
                  average, min, max) != 4 ||
      std::sscanf(lines[2].c_str(),
                  "Percentiles: P50: %31s P90: %31s P99: %31s P99.9: %31s", p50,
                  p90, p99, p999) != 4) {
    ADD_FAILURE() << "unreadable latency block:\n"
                  << lines[1] << "\n"
                  << lines[2];
    return std::nullopt;
  }
  b.average = average;
  b.min = min;
  b.max = max;
  b.p50 = p50;
  b.p90 = p90;
  b.p99 = p99;
  b.p999 = p999;
  return b;
}

// --histogram: every printed latency block is the JSON's, digit for digit;
// percentiles are ordered; the new table columns are the JSON's too.
TEST(CliTest, HistogramLinesAgreeWithJsonAndTable) {
  const test_support::TempDir scratch("bloomgate_cli");
  const std::string json_path = scratch.Sub("histogram.json");
  Outcome run = RunBench(
      "--engine=lsm,rocksdb --filter=none,bloomgate "
      "--benchmarks=fillrandom,readmixed --num=5000 --reads=5000 "
      "--write_buffer_size=100000 --histogram --json=" +
      json_path);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("Latency:    per lookup"), std::string::npos);
  std::optional<Json> json = ReadJsonArray(json_path);
  ASSERT_TRUE(json.has_value());
  std::map<std::string, const Json*> by_key = ByRun(*json, {"direct_reads"});

  int blocks = 0;
  for (const char* engine : {"lsm", "rocksdb"}) {
    for (const char* filter : {"none", "bloomgate"}) {
      const std::string key = std::string(engine) + "/" + filter + "/readmixed";
      ASSERT_TRUE(by_key.count(key)) << key;
      const Json& o = *by_key[key];
      for (const auto& [title, field, count_field] :
           {std::tuple<const char*, const char*, const char*>{
                "misses (absent keys)", "miss_latency", "misses"},
            {"hits (present keys)", "hit_latency", "hits"}}) {
        const Json* latency = Find(o, field);
        ASSERT_NE(latency, nullptr) << key << " " << field;
        for (const char* f : {"count", "mean_us", "min_us", "p50_us", "p90_us",
                              "p99_us", "p999_us", "max_us"}) {
          EXPECT_NE(Find(*latency, f), nullptr) << key << " " << f;
        }
        std::optional<LatencyBlock> b = FindLatency(
            run.output,
            absl::StrFormat("-- engine %s, filter %s", engine, filter),
            absl::StrFormat("Microseconds per lookup, %s:", title));
        ASSERT_TRUE(b.has_value()) << key << " " << title;
        ++blocks;
        EXPECT_EQ(b->count, Find(*latency, "count")->get<double>()) << key;
        EXPECT_EQ(b->count, Find(o, count_field)->get<double>()) << key;
        EXPECT_EQ(b->average, Fixed(Find(*latency, "mean_us"), 4)) << key;
        EXPECT_EQ(b->min, Fixed(Find(*latency, "min_us"), 2)) << key;
        EXPECT_EQ(b->max, Fixed(Find(*latency, "max_us"), 2)) << key;
        EXPECT_EQ(b->p50, Fixed(Find(*latency, "p50_us"), 2)) << key;
        EXPECT_EQ(b->p90, Fixed(Find(*latency, "p90_us"), 2)) << key;
        EXPECT_EQ(b->p99, Fixed(Find(*latency, "p99_us"), 2)) << key;
        EXPECT_EQ(b->p999, Fixed(Find(*latency, "p999_us"), 2)) << key;
        double previous = Find(*latency, "min_us")->get<double>();
        for (const char* f :
             {"p50_us", "p90_us", "p99_us", "p999_us", "max_us"}) {
          const double v = Find(*latency, f)->get<double>();
          EXPECT_LE(previous, v) << key << " " << f;
          previous = v;
        }
      }
    }
  }
  EXPECT_EQ(blocks, 8);

  int rows = 0;
  for (const std::vector<std::string>& cells :
       TableRows(run.output, "Comparison")) {
    ASSERT_EQ(cells.size(), 23u) << absl::StrJoin(cells, " ");
    ++rows;
    const std::string key = cells[0] + "/" + cells[1] + "/" + cells[2];
    ASSERT_TRUE(by_key.count(key)) << key;
    const Json& o = *by_key[key];
    EXPECT_EQ(cells[17], Fixed(Find(*Find(o, "miss_latency"), "mean_us"), 2));
    EXPECT_EQ(cells[18], Fixed(Find(*Find(o, "miss_latency"), "p99_us"), 2));
    EXPECT_EQ(cells[19], Fixed(Find(o, "read_latency_us"), 2)) << key;
    EXPECT_EQ(cells[20], Fixed(Find(o, "user_micros_per_op"), 2)) << key;
    EXPECT_EQ(
        cells[21],
        absl::StrFormat(
            "%.1f%%", 100 * Find(o, "explained_micros_per_op")->get<double>() /
                          Find(o, "micros_per_op")->get<double>()))
        << key;
    EXPECT_EQ(cells[22], Fixed(Find(o, "avoided_read_micros_per_op"), 1))
        << key;
  }
  EXPECT_EQ(rows, 4);
}

// --use_direct_reads on tmpfs: the run does what the kernel allows and says
// which. Linux before 6.6 refuses O_DIRECT on tmpfs (the run reads buffered
// and --require_direct_reads fails); later kernels accept it (the header
// adds that no device is behind the reads).
TEST(CliTest, DirectReadsOnTmpfsFollowTheKernel) {
  const test_support::TempDir shm("bloomgate_cli", "/dev/shm");
  const std::string& db = shm.path();
  const std::string probe = db + "/probe";
  std::ofstream(probe) << "x";
  const int fd = ::open(probe.c_str(), O_RDONLY | O_DIRECT);
  const bool accepts = fd >= 0;
  if (fd >= 0) ::close(fd);
  std::filesystem::remove(probe);

  const test_support::TempDir scratch("bloomgate_cli");
  const std::string json_path = scratch.Sub("direct.json");
  const std::string args =
      "--engine=lsm,rocksdb --filter=bloomgate "
      "--benchmarks=fillrandom,readmissing --num=2000 --reads=2000 "
      "--write_buffer_size=100000 --use_direct_reads --db=" +
      db;
  Outcome run = RunBench(args + " --json=" + json_path);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  if (accepts) {
    EXPECT_NE(run.output.find("Reads:      direct (O_DIRECT in " + db),
              std::string::npos)
        << run.output;
    EXPECT_NE(run.output.find("no device behind the reads"), std::string::npos)
        << run.output;
  } else {
    EXPECT_NE(run.output.find("Reads:      buffered (page cache): "
                              "--use_direct_reads refused"),
              std::string::npos)
        << run.output;
  }
  std::optional<Json> json = ReadJsonArray(json_path);
  ASSERT_TRUE(json.has_value());
  ASSERT_EQ(json->size(), 4u);
  for (const Json& o : *json) {
    const Json* direct = Find(o, "direct_reads");
    ASSERT_NE(direct, nullptr);
    EXPECT_EQ(direct->get<bool>(), accepts)
        << Find(o, "engine")->get<std::string>();
  }

  Outcome required = RunBench(args + " --require_direct_reads");
  if (accepts) {
    EXPECT_EQ(required.exit_code, 0) << required.output;
  } else {
    EXPECT_NE(required.exit_code, 0) << required.output;
    EXPECT_NE(required.output.find("--require_direct_reads: "),
              std::string::npos)
        << required.output;
  }
}

// bloomgate_plot draws from the tool's own --json file: a sweep's chart
// (one curve per engine and filter) and, with --histogram, the misses'
// latency CDF of the first engine with the most filters.
TEST(CliTest, PlotDrawsChartsFromTheJson) {
  const test_support::TempDir scratch("bloomgate_cli");
  const std::string json_path = scratch.Sub("plot.json");
  const std::string out = scratch.Sub("plots");
  Outcome run = RunBench(
      "--engine=lsm,rocksdb --filter=none,bloomgate "
      "--benchmarks=fillrandom,readmissing --num=5000 --reads=2000 "
      "--write_buffer_size=100000 --histogram --json=" +
      json_path);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  Outcome plot = RunBinary(
      BLOOMGATE_PLOT_BINARY,
      "--out=" + out + " --io_sweep=" + json_path + " --latency=" + json_path);
  if (plot.exit_code != 0) {
    // Only for want of gnuplot; the data and scripts are written anyway.
    EXPECT_NE(plot.output.find("gnuplot is not installed"), std::string::npos)
        << plot.output;
  } else {
    EXPECT_TRUE(std::filesystem::exists(out + "/ios_vs_files.png"));
    EXPECT_TRUE(std::filesystem::exists(out + "/latency_cdf.png"))
        << plot.output;
  }
  auto read = [](const std::string& path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
  };
  const std::string ios = read(out + "/ios_vs_files.dat");
  for (const char* title : {"# lsm none\n", "# lsm bloomgate\n",
                            "# rocksdb none\n", "# rocksdb bloomgate\n"}) {
    EXPECT_EQ(Count(ios, title), 1) << title << "\n" << ios;
  }
  const std::string cdf = read(out + "/latency_cdf.dat");
  EXPECT_EQ(Count(cdf, "\n# micros share_of_absent_key_lookups\n"), 2) << cdf;
  EXPECT_EQ(cdf.rfind("# none\n", 0), 0u) << cdf;
  EXPECT_NE(cdf.find("\n# bloomgate\n"), std::string::npos) << cdf;
  EXPECT_NE(read(out + "/latency_cdf.gp")
                .find("'Latency of absent-key lookups, lsm readmissing'"),
            std::string::npos);
}

// With --wait_for_compactions, RocksDB's compactions shape the tree from the
// keys alone: two fills of the same keys leave the same files on the same
// levels, which is what lets two filters be compared on one tree.
TEST(CliTest, WaitForCompactionsGrowsTheSameTreeEveryRun) {
  const test_support::TempDir scratch("bloomgate_cli");
  std::vector<Json> trees;
  for (int run_index = 0; run_index < 2; ++run_index) {
    const std::string json_path = scratch.Sub("same_tree.json");
    Outcome run = RunBench(
        "--engine=rocksdb --filter=bloomgate --benchmarks=fillrandom "
        "--num=40000 --value_size=64 --write_buffer_size=65536 "
        "--target_file_size_base=65536 --max_bytes_for_level_base=262144 "
        "--disable_auto_compactions=false --num_levels=4 "
        "--wait_for_compactions --json=" +
        json_path);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("each write waits for its compactions"),
              std::string::npos)
        << run.output;
    std::optional<Json> json = ReadJsonArray(json_path);
    ASSERT_TRUE(json.has_value());
    ASSERT_EQ(json->size(), 1u);
    trees.push_back(
        {(*json)[0]["files_per_level"], (*json)[0]["keys_per_level"]});
  }
  EXPECT_EQ(trees[0], trees[1]);
  // Compactions ran: keys below level 1.
  const Json& keys = trees[0][1];
  ASSERT_GE(keys.size(), 3u) << keys;
  EXPECT_GT(keys[2].get<int64_t>() + keys[3].get<int64_t>(), 0) << keys;
}

// In a sweep the Monkey table pairs the two at each memory, not across.
TEST(CliTest, ASweepsMonkeyTablePairsEachMemory) {
  Outcome run = RunBench(
      "--engine=lsm --filter=bloomgate_monkey,bloomgate --sweep_bits=8,12 "
      "--num=6000 --reads=2000 --value_size=16 --write_buffer_size=65536 "
      "--benchmarks=fillrandom,readmissing");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::vector<std::vector<std::string>> rows =
      TableRows(run.output, "Monkey against uniform bloomgate");
  ASSERT_EQ(rows.size(), 2u) << run.output;
  EXPECT_EQ(rows[0][4], "8.0000") << run.output;
  EXPECT_EQ(rows[1][4], "12.0000") << run.output;
}

// A reference that misses its budget (here bloomgate_monkey, by the headers
// and whole cache lines of nine tiny files at 1 bit/key) is marked, and the
// other filters take what it took.
TEST(CliTest, AReferenceOffItsBudgetIsMarkedAndMatched) {
  Outcome run = RunBench(
      "--engine=lsm --filter=bloomgate_monkey,bloomgate --bloom_bits=1 "
      "--num=6000 --reads=2000 --value_size=16 --write_buffer_size=65536 "
      "--benchmarks=fillrandom,readmissing");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(Count(run.output, "the filter memory bloomgate_monkey took on lsm"),
            1)
      << run.output;
  const std::vector<std::vector<std::string>> comparison =
      TableRows(run.output, "Comparison");
  ASSERT_EQ(comparison.size(), 2u) << run.output;
  // bloomgate_monkey's row: asked 1, took more, marked.
  EXPECT_EQ(comparison[0][1], "bloomgate_monkey");
  EXPECT_EQ(comparison[0][13], "1.00");
  EXPECT_NE(comparison[0][14].find("(+"), std::string::npos) << run.output;
  // bloomgate's: asked what the monkey run took, and took it.
  EXPECT_EQ(comparison[1][1], "bloomgate");
  EXPECT_EQ(comparison[1][14].find("("), std::string::npos) << run.output;
  const std::vector<std::vector<std::string>> rows =
      TableRows(run.output, "Monkey against uniform bloomgate");
  ASSERT_EQ(rows.size(), 1u) << run.output;
  EXPECT_NE(rows[0][4], "1.0000");
}

}  // namespace
}  // namespace bloomgate::bench::testing
