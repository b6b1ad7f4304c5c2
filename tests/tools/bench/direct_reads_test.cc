// Copyright 2026 The bloomgate Authors.
//
// --use_direct_reads where the file system refuses O_DIRECT: the run goes on
// buffered and says why, or fails when told to insist. The refusal is
// simulated with a probe that refuses, since this kernel's tmpfs accepts
// O_DIRECT (Linux 6.6 and later); the real probe is checked on /dev/shm
// against what the kernel itself answers.

#include "tools/bench/direct_reads.h"

#include <fcntl.h>
#include <unistd.h>

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"
#include "tools/bench/bench_options.h"

namespace bloomgate::bench {
namespace {

absl::Status Refuse(const std::string& folder) {
  return absl::FailedPreconditionError("the file system of " + folder +
                                       " refuses O_DIRECT: Invalid argument");
}

BenchOptions DirectOptions(const std::string& db) {
  BenchOptions o;
  o.db = db;
  o.engine.use_direct_reads = true;
  return o;
}

TEST(DirectReadsTest, RefusedMeansBufferedAndSaysWhy) {
  const test_support::TempDir scratch("direct_refused");
  const std::string& db = scratch.path();
  BenchOptions o = DirectOptions(db);
  DirectReads direct = ResolveDirectReads(o, Refuse);
  EXPECT_TRUE(direct.requested);
  EXPECT_FALSE(direct.in_force);
  EXPECT_EQ(direct.folder, db);
  ASSERT_TRUE(ApplyDirectReads(direct, &o).ok());
  EXPECT_FALSE(o.engine.use_direct_reads);
  const std::string line = DescribeDirectReads(direct);
  EXPECT_NE(line.find("buffered (page cache)"), std::string::npos) << line;
  EXPECT_NE(line.find("refuses O_DIRECT"), std::string::npos) << line;
}

absl::Status Accept(const std::string&) { return absl::OkStatus(); }
absl::StatusOr<double> At42Micros(const std::string&) { return 42.0; }
absl::StatusOr<double> CannotTime(const std::string&) {
  return absl::DataLossError("O_DIRECT read failed");
}

// Where reads are direct the device's latency is measured, said in the
// header, and is what bloomgate_mixed weighs a read with unless
// --read_micros says otherwise.
TEST(DirectReadsTest, TheMeasuredLatencyIsTheModelsReadTime) {
  const test_support::TempDir scratch("direct_latency");
  BenchOptions o = DirectOptions(scratch.path());
  const DirectReads direct = ResolveDirectReads(o, Accept, At42Micros);
  ASSERT_TRUE(direct.in_force);
  EXPECT_EQ(direct.read_latency_us, 42.0);
  const std::string line = DescribeDirectReads(direct);
  EXPECT_NE(line.find("device read latency 42.0 us (median of 200 random "
                      "4 KiB O_DIRECT reads of a 64 MiB file)"),
            std::string::npos)
      << line;
  ASSERT_TRUE(ApplyDirectReads(direct, &o).ok());
  EXPECT_EQ(ReadMicros(o), 42.0);
  o.read_micros = 7.0;
  EXPECT_EQ(ReadMicros(o), 7.0);
}

TEST(DirectReadsTest, WithoutALatencyTheModelKeepsItsDefault) {
  const test_support::TempDir scratch("direct_no_latency");
  BenchOptions o = DirectOptions(scratch.path());
  const DirectReads direct = ResolveDirectReads(o, Accept, CannotTime);
  const std::string line = DescribeDirectReads(direct);
  EXPECT_NE(line.find("device latency not measured: O_DIRECT read failed"),
            std::string::npos)
      << line;
  ASSERT_TRUE(ApplyDirectReads(direct, &o).ok());
  EXPECT_EQ(ReadMicros(o), kDefaultDeviceReadMicros);
  // Buffered reads: the page cache's, measured or not.
  o.engine.use_direct_reads = false;
  EXPECT_EQ(ReadMicros(o), kDefaultPageCacheReadMicros);
}

TEST(DirectReadsTest, RequiredAndRefusedFails) {
  const test_support::TempDir scratch("direct_required");
  const std::string& db = scratch.path();
  BenchOptions o = DirectOptions(db);
  o.require_direct_reads = true;
  absl::Status s = ApplyDirectReads(ResolveDirectReads(o, Refuse), &o);
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("refuses O_DIRECT"), std::string::npos) << s;
}

TEST(DirectReadsTest, NotRequestedProbesNothing) {
  BenchOptions o;
  DirectReads direct = ResolveDirectReads(o, Refuse);
  EXPECT_FALSE(direct.requested);
  EXPECT_TRUE(direct.folder.empty());
  EXPECT_EQ(DescribeDirectReads(direct), "Reads:      buffered (page cache)\n");
}

TEST(DirectReadsTest, RequireWithoutUseIsInvalid) {
  BenchOptions o;
  o.benchmarks = {BenchmarkKind::kReadRandom};
  o.engines = {EngineKind::kLsm};
  o.filters = {{.spec = kNoFilter}};
  o.require_direct_reads = true;
  EXPECT_EQ(ValidateBenchOptions(o).code(), absl::StatusCode::kInvalidArgument);
}

// The probe answers what open(O_DIRECT) answers on tmpfs, whichever way this
// kernel goes, and the header then tells that the files are in memory.
TEST(DirectReadsTest, ProbeOnTmpfsMatchesTheKernel) {
  const test_support::TempDir shm("bloomgate_direct", "/dev/shm");
  const std::string& dir = shm.path();
  const std::string file = dir + "/f";
  {
    std::FILE* f = std::fopen(file.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
  }
  const int fd = ::open(file.c_str(), O_RDONLY | O_DIRECT);
  const bool kernel_accepts = fd >= 0;
  if (fd >= 0) ::close(fd);

  DirectReads direct = ResolveDirectReads(DirectOptions(dir));
  EXPECT_EQ(direct.in_force, kernel_accepts) << direct.refusal;
  EXPECT_TRUE(direct.in_memory);
  const std::string line = DescribeDirectReads(direct);
  if (kernel_accepts) {
    EXPECT_NE(line.find("no device behind the reads"), std::string::npos)
        << line;
  } else {
    EXPECT_NE(line.find("buffered"), std::string::npos) << line;
  }
}

}  // namespace
}  // namespace bloomgate::bench
