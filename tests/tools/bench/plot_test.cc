// Copyright 2026 The bloomgate Authors.
//
// bloomgate_plot's charts from --json results: which results make which
// curve, the data files and scripts gnuplot gets, and (where gnuplot is
// installed) the PNGs.

#include "tools/bench/plot.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/temp_dir.h"

namespace bloomgate::bench {
namespace {

using Json = nlohmann::json;

Json Result(const std::string& engine, const std::string& filter,
            const std::string& benchmark) {
  return Json{{"engine", engine},
              {"filter", filter},
              {"benchmark", benchmark},
              {"ops", 1000},
              {"keys_per_level", {5000}}};
}

// Two points of a --bloom_bits sweep on both engines, as RunAll orders them.
Json FpSweep() {
  Json results = Json::array();
  for (double bits : {4.0, 8.0}) {
    for (const auto& [engine, filter] :
         std::vector<std::pair<std::string, std::string>>{
             {"lsm", "none"},
             {"lsm", "bloomgate"},
             {"rocksdb", "none"},
             {"rocksdb", "bloomgate"},
             {"rocksdb", "rocksdb_ribbon"}}) {
      results.push_back(Result(engine, filter, "fillrandom"));
      Json r = Result(engine, filter, "readmissing");
      r["bloom_bits"] = filter == "none" ? 0.0 : bits;
      r["bits_per_key"] = filter == "none"             ? Json(nullptr)
                          : filter == "rocksdb_ribbon" ? Json(bits * 0.7)
                                                       : Json(bits + 0.5);
      r["fp_observed"] = filter == "none" ? Json(nullptr) : Json(1 / bits);
      results.push_back(r);
    }
  }
  return results;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(PlotTest, FpCurvesTakeEachFilterOnItsFirstEngine) {
  const std::vector<Series> series = FpAgainstBits(FpSweep());
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].title, "bloomgate (lsm)");
  EXPECT_EQ(series[1].title, "rocksdb_ribbon (rocksdb)");
  // At the bits the filters spent, not the configured ones.
  ASSERT_EQ(series[0].points.size(), 2u);
  EXPECT_DOUBLE_EQ(series[0].points[0].first, 4.5);
  EXPECT_DOUBLE_EQ(series[0].points[0].second, 0.25);
  EXPECT_DOUBLE_EQ(series[0].points[1].first, 8.5);
  ASSERT_EQ(series[1].points.size(), 2u);
  EXPECT_DOUBLE_EQ(series[1].points[1].first, 8 * 0.7);
}

TEST(PlotTest, FpFallsBackToConfiguredBitsWhenNoneWereCounted) {
  Json r = Result("lsm", "bloomgate", "readmissing");
  r["bloom_bits"] = 10.0;
  r["bits_per_key"] = nullptr;
  r["fp_observed"] = 0.01;
  const std::vector<Series> series = FpAgainstBits(Json::array({r}));
  ASSERT_EQ(series.size(), 1u);
  ASSERT_EQ(series[0].points.size(), 1u);
  EXPECT_DOUBLE_EQ(series[0].points[0].first, 10.0);
}

TEST(PlotTest, IoCurvesAreOnePerEngineAndFilter) {
  Json results = Json::array();
  for (double files : {1.0, 4.0}) {
    for (const char* engine : {"lsm", "rocksdb"}) {
      for (const char* filter : {"none", "bloomgate"}) {
        Json r = Result(engine, filter, "readmissing");
        r["covering_files_per_miss"] = files;
        r["ios_per_miss"] = std::string(filter) == "none" ? files : files / 100;
        results.push_back(r);
        results.push_back(Result(engine, filter, "fillrandom"));
      }
    }
  }
  const std::vector<Series> series = IosAgainstFiles(results);
  ASSERT_EQ(series.size(), 4u);
  EXPECT_EQ(series[0].title, "lsm none");
  EXPECT_EQ(series[1].title, "lsm bloomgate");
  EXPECT_EQ(series[2].title, "rocksdb none");
  EXPECT_EQ(series[3].title, "rocksdb bloomgate");
  ASSERT_EQ(series[3].points.size(), 2u);
  EXPECT_DOUBLE_EQ(series[3].points[1].first, 4.0);
  EXPECT_DOUBLE_EQ(series[3].points[1].second, 0.04);
  const SweepScale scale = ScaleOf(results);
  EXPECT_EQ(scale.keys, 5000);
  EXPECT_EQ(scale.lookups, 1000);
}

// A --grow_to run: per engine and filter, memory, reads and the floor
// against the step's keys, in order of keys; fills and filter none left
// out.
TEST(PlotTest, GrowthCurvesArePerFilterAgainstKeys) {
  Json results = Json::array();
  for (int64_t keys : {2000, 1000}) {
    for (const std::string filter : {"none", "rocksdb_ribbon"}) {
      Json fill = Result("rocksdb", filter, "fillrandom");
      fill["grown_keys"] = keys;
      results.push_back(fill);
      Json r = Result("rocksdb", filter, "readmissing");
      r["grown_keys"] = keys;
      r["filter_bytes"] = keys * 1024;
      r["ios_per_miss"] = 1.0 / static_cast<double>(keys);
      r["ios_per_miss_floor"] = 0.5 / static_cast<double>(keys);
      results.push_back(r);
    }
  }
  const GrowthChart chart = AgainstKeys(results);
  ASSERT_EQ(chart.memory.size(), 1u);
  ASSERT_EQ(chart.reads.size(), 1u);
  ASSERT_EQ(chart.floor.size(), 1u);
  EXPECT_EQ(chart.reads[0].title, "rocksdb_ribbon (rocksdb)");
  EXPECT_EQ(chart.floor[0].title, "floor: rocksdb_ribbon (rocksdb)");
  using Points = std::vector<std::pair<double, double>>;
  EXPECT_EQ(chart.memory[0].points,
            (Points{{1000, 1000.0 / 1024}, {2000, 2000.0 / 1024}}));
  EXPECT_EQ(chart.reads[0].points, (Points{{1000, 0.001}, {2000, 0.0005}}));
  EXPECT_EQ(chart.floor[0].points, (Points{{1000, 0.0005}, {2000, 0.00025}}));
  EXPECT_EQ(chart.lookups, 1000);
  // Without a growth result there is nothing to draw.
  EXPECT_TRUE(AgainstKeys(FpSweep()).reads.empty());
}

TEST(PlotTest, LatencyChartIsTheEngineWithTheMostFilters) {
  Json results = Json::array();
  auto with_cdf = [](Json r, double last_us) {
    r["miss_latency_cdf"] = {{0.1, 0.0}, {last_us, 1.0}};
    return r;
  };
  results.push_back(with_cdf(Result("lsm", "none", "readmixed"), 900));
  results.push_back(with_cdf(Result("rocksdb", "none", "readmixed"), 800));
  results.push_back(with_cdf(Result("rocksdb", "bloomgate", "readmixed"), 30));
  results.push_back(Result("rocksdb", "rocksdb_bloom", "readmixed"));
  results.back()["direct_reads"] = true;
  const std::optional<LatencyChart> chart = MissLatencyCdf(results);
  ASSERT_TRUE(chart.has_value());
  EXPECT_EQ(chart->engine, EngineKind::kRocksDB);
  EXPECT_EQ(chart->benchmark, BenchmarkKind::kReadMixed);
  ASSERT_EQ(chart->series.size(), 2u);
  EXPECT_EQ(chart->series[0].title, "none");
  EXPECT_EQ(chart->series[1].title, "bloomgate");
  ASSERT_EQ(chart->series[1].points.size(), 2u);
  EXPECT_DOUBLE_EQ(chart->series[1].points[1].first, 30);
  EXPECT_DOUBLE_EQ(chart->series[1].points[1].second, 1.0);

  EXPECT_FALSE(MissLatencyCdf(Json::array({Result("lsm", "none", "readmixed")}))
                   .has_value());
}

TEST(PlotTest, GnuplotStringsAndDataBlocks) {
  EXPECT_EQ(GnuplotString("lsm bloomgate"), "'lsm bloomgate'");
  EXPECT_EQ(GnuplotString("it's \"x\"\\n"), "'it''s \"x\"\\n'");
  EXPECT_EQ(FormatSeries("x", "y", {{"a", {{1, 0.5}, {2, 0.25}}}, {"b", {}}}),
            "# a\n# x y\n1 0.5\n2 0.25\n\n\n# b\n# x y\n\n\n");
}

TEST(PlotTest, WritesDataScriptsAndCharts) {
  const test_support::TempDir scratch("bloomgate_plot_test");
  const std::filesystem::path dir = scratch.Sub("plots");
  std::ostringstream out;
  Json io = Json::array();
  for (double files : {1.0, 2.0}) {
    Json r = Result("lsm", "bloomgate", "readmissing");
    r["covering_files_per_miss"] = files;
    r["ios_per_miss"] = files / 100;
    io.push_back(r);
  }
  absl::Status s = WriteSweepCharts(dir.string(), FpSweep(), io, &out);
  const std::string gp = ReadFile(dir / "plots.gp");
  EXPECT_NE(gp.find("set output 'fp_vs_bits.png'"), std::string::npos) << gp;
  EXPECT_NE(gp.find("(5000 keys, 1000 absent lookups per point)"),
            std::string::npos)
      << gp;
  EXPECT_NE(gp.find("'fp_vs_bits.dat' index 1 with linespoints pt 6 title "
                    "'rocksdb_ribbon (rocksdb)'"),
            std::string::npos)
      << gp;
  EXPECT_NE(gp.find("'ios_vs_files.dat' index 0 with linespoints pt 5 title "
                    "'lsm bloomgate'"),
            std::string::npos)
      << gp;
  EXPECT_EQ(ReadFile(dir / "ios_vs_files.dat"),
            "# lsm bloomgate\n# files_on_path ios_per_missing_lookup\n"
            "1 0.01\n2 0.02\n\n\n");
  EXPECT_FALSE(ReadFile(dir / "fp_theory.dat").empty());
  if (s.ok()) {
    EXPECT_GT(std::filesystem::file_size(dir / "fp_vs_bits.png"), 0u);
    EXPECT_GT(std::filesystem::file_size(dir / "ios_vs_files.png"), 0u);
    EXPECT_NE(out.str().find("Plots written: "), std::string::npos);
  } else {
    EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;  // no gnuplot here
  }

  EXPECT_TRUE(absl::IsInvalidArgument(
      WriteSweepCharts(dir.string(), Json::array(), Json::array(), &out)));
  EXPECT_TRUE(absl::IsInvalidArgument(
      WriteLatencyChart(dir.string(), Json::array(), &out)));
}

// A --sweep_bits run on RocksDB's grown tree: two kinds at two memories,
// as RunAll orders them (the grown tree's fill first), and an LSM result
// the chart leaves out (fewer results than RocksDB's).
Json MemorySweepResults() {
  Json results = Json::array({Result("rocksdb", "bloomgate", "fillrandom"),
                              Result("lsm", "bloomgate", "readmissing")});
  results[1]["ios_per_miss"] = 0.5;
  results[1]["bits_per_key"] = 10.0;
  for (const std::string filter : {"bloomgate_mixed", "rocksdb_ribbon"}) {
    for (double bits : {8.0, 4.0}) {
      Json r = Result("rocksdb", filter, "readmissing");
      r["bloom_bits"] = bits;
      r["bits_per_key"] = bits + 0.01;
      r["ios_per_miss"] = (filter == "rocksdb_ribbon" ? 2 : 1) / bits;
      r["micros_per_op"] = 10 / bits;
      r["ios_per_miss_floor"] = 0.5 / bits;
      r["direct_reads"] = true;
      results.push_back(r);
    }
  }
  return results;
}

TEST(PlotTest, MemoryChartsAreOneLinePerKindAndTheFirstKindsFloor) {
  const MemorySweep sweep = ReadsAgainstMemory(MemorySweepResults());
  EXPECT_EQ(sweep.engine, EngineKind::kRocksDB);
  EXPECT_TRUE(sweep.direct_reads);
  EXPECT_EQ(sweep.scale.keys, 5000);
  EXPECT_EQ(sweep.scale.lookups, 1000);
  ASSERT_EQ(sweep.reads.size(), 2u);
  EXPECT_EQ(sweep.reads[0].title, "bloomgate_mixed");
  EXPECT_EQ(sweep.reads[1].title, "rocksdb_ribbon");
  // In order of memory, whatever the run's order.
  using Points = std::vector<std::pair<double, double>>;
  EXPECT_EQ(sweep.reads[1].points, (Points{{4.01, 0.5}, {8.01, 0.25}}));
  EXPECT_EQ(sweep.micros[0].points, (Points{{4.01, 2.5}, {8.01, 1.25}}));
  EXPECT_EQ(sweep.floor.title, "floor");
  EXPECT_EQ(sweep.floor.points, (Points{{4.01, 0.125}, {8.01, 0.0625}}));
}

TEST(PlotTest, WritesTheMemoryCharts) {
  const test_support::TempDir scratch("bloomgate_plot_memory_test");
  const std::filesystem::path dir = scratch.Sub("plots");
  std::ostringstream out;
  absl::Status s = WriteMemoryCharts(dir.string(), MemorySweepResults(), &out);
  const std::string gp = ReadFile(dir / "memory.gp");
  EXPECT_NE(gp.find("set output 'reads_vs_memory.png'"), std::string::npos)
      << gp;
  EXPECT_NE(gp.find("'Reads per absent lookup (rocksdb, one tree of 5000 "
                    "keys, device reads)'"),
            std::string::npos)
      << gp;
  EXPECT_NE(gp.find("'reads_vs_memory.dat' index 2 with lines dt 2"),
            std::string::npos)
      << gp;
  EXPECT_EQ(ReadFile(dir / "time_vs_memory.dat"),
            "# bloomgate_mixed\n# bits_per_key micros_per_absent_lookup\n"
            "4.01 2.5\n8.01 1.25\n\n\n# rocksdb_ribbon\n"
            "# bits_per_key micros_per_absent_lookup\n4.01 2.5\n8.01 1.25\n"
            "\n\n");
  if (s.ok()) {
    EXPECT_GT(std::filesystem::file_size(dir / "reads_vs_memory.png"), 0u);
    EXPECT_GT(std::filesystem::file_size(dir / "time_vs_memory.png"), 0u);
  } else {
    EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;  // no gnuplot here
  }
  EXPECT_TRUE(absl::IsInvalidArgument(
      WriteMemoryCharts(dir.string(), Json::array(), &out)));
}

}  // namespace
}  // namespace bloomgate::bench
