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

#ifndef BLOOMGATE_TOOLS_BENCH_DIRECT_READS_H_
#define BLOOMGATE_TOOLS_BENCH_DIRECT_READS_H_

#include <string>

#include "absl/status/status.h"
#include "tools/bench/bench_options.h"

namespace bloomgate::bench {

struct DirectReads {
  bool requested = false;
  bool in_force = false;
  std::string folder;   // where the probe ran
  std::string refusal;  // why not, when requested but not in force
  // The folder's file system keeps files in memory (tmpfs, ramfs).
  bool in_memory = false;
};

// OK if a file in `folder` can be opened with O_DIRECT and read into an
// aligned buffer; otherwise the error, naming the folder and errno.
absl::Status ProbeDirectReads(const std::string& folder);

using DirectReadsProbe = absl::Status (*)(const std::string& folder);

// `probe` (ProbeDirectReads but in tests) for options.engine.use_direct_reads
// in the folder options.db names (created if missing) or, without --db, in the
// temporary folder the run will use. Without use_direct_reads, nothing is
// probed.
DirectReads ResolveDirectReads(const BenchOptions& options,
                               DirectReadsProbe probe = ProbeDirectReads);

// What the run does about `direct`: OK, with options->engine.use_direct_reads
// set to whether reads are direct; FailedPrecondition with the refusal when
// they are not and options->require_direct_reads.
absl::Status ApplyDirectReads(const DirectReads& direct, BenchOptions* options);

// The header line, e.g. "Reads:      direct (O_DIRECT; page cache
// bypassed)".
std::string DescribeDirectReads(const DirectReads& direct);

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_DIRECT_READS_H_
