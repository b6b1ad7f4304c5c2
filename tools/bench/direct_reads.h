// Copyright 2026 The bloomgate Authors.
//
// --use_direct_reads: whether the databases' file system serves O_DIRECT
// reads. The tool asks once, before the header, by reading a probe file
// with O_DIRECT in the folder the databases will live in. Where it is
// refused (tmpfs before Linux 6.6, some network and FUSE file systems) the
// run says so in its header and reads through the page cache, or, with
// --require_direct_reads, fails with the reason. Both engines would
// otherwise disagree: the LSM falls back to buffered reads by itself,
// RocksDB fails to open its tables.
//
// tmpfs since Linux 6.6 accepts O_DIRECT, but its files live in memory, so
// a "direct" read there meets no device; the header says that too.
//
// Where reads are direct the tool also times the device before the run
// (MeasureDirectReadLatency): the header gives the latency, and
// bloomgate_mixed's cost model weighs a read with it unless --read_micros
// says otherwise, so that its choice is made for the device it runs on.

#ifndef BLOOMGATE_TOOLS_BENCH_DIRECT_READS_H_
#define BLOOMGATE_TOOLS_BENCH_DIRECT_READS_H_

#include <limits>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tools/bench/bench_options.h"

namespace bloomgate::bench {

struct DirectReads {
  bool requested = false;
  bool in_force = false;
  std::string folder;   // where the probe ran
  std::string refusal;  // why not, when requested but not in force
  // The folder's file system keeps files in memory (tmpfs, ramfs).
  bool in_memory = false;
  // MeasureDirectReadLatency's answer where reads are direct; NaN where it
  // was not measured or failed (latency_error says why).
  double read_latency_us = std::numeric_limits<double>::quiet_NaN();
  std::string latency_error;
};

// OK if a file in `folder` can be opened with O_DIRECT and read into an
// aligned buffer; otherwise the error, naming the folder and errno.
absl::Status ProbeDirectReads(const std::string& folder);

using DirectReadsProbe = absl::Status (*)(const std::string& folder);

// Random reads of one 4 KiB block from a file in `folder`, with O_DIRECT:
// the median time of kLatencySamples of them, in microseconds. The file
// (kLatencyFileBytes, written and synced first, removed after) is larger
// than a device's own cache is likely to keep from the write, not than a
// host's. An error for a folder that refuses O_DIRECT or cannot hold it.
inline constexpr int kLatencySamples = 200;
inline constexpr size_t kLatencyFileBytes = 64 << 20;
absl::StatusOr<double> MeasureDirectReadLatency(const std::string& folder);

using LatencyProbe = absl::StatusOr<double> (*)(const std::string& folder);

// `probe` (ProbeDirectReads but in tests) for options.engine.use_direct_reads
// in the folder options.db names (created if missing) or, without --db, in the
// temporary folder the run will use, and where that allows them, `latency`
// there. Without use_direct_reads, nothing is probed.
DirectReads ResolveDirectReads(const BenchOptions& options,
                               DirectReadsProbe probe = ProbeDirectReads,
                               LatencyProbe latency = MeasureDirectReadLatency);

// What the run does about `direct`: OK, with options->engine.use_direct_reads
// set to whether reads are direct and options->measured_read_micros to the
// latency measured; FailedPrecondition with the refusal when
// they are not and options->require_direct_reads.
absl::Status ApplyDirectReads(const DirectReads& direct, BenchOptions* options);

// The header line, e.g. "Reads:      direct (O_DIRECT; page cache
// bypassed)".
std::string DescribeDirectReads(const DirectReads& direct);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_DIRECT_READS_H_
