// Copyright 2026 The bloomgate Authors.
//
// The settings every engine takes from the command line, with the same
// meaning for both engines. BenchOptions holds one, and each engine reads its
// fields where it opens its database, so a new engine setting is one field
// here, one flag in bloomgate_bench.cc and one use in each engine.

#ifndef BLOOMGATE_TOOLS_BENCH_ENGINE_SETTINGS_H_
#define BLOOMGATE_TOOLS_BENCH_ENGINE_SETTINGS_H_

#include <cstddef>
#include <cstdint>

namespace bloomgate::bench {

struct EngineSettings {
  // The LSM's shape.
  int64_t write_buffer_size = 8 << 20;
  int64_t target_file_size_base = 64 << 20;
  int64_t max_bytes_for_level_base = 256 << 20;
  double max_bytes_for_level_multiplier = 10;
  int num_levels = 7;
  bool disable_auto_compactions = true;
  // RocksDB's level_compaction_dynamic_level_bytes: level targets sized up
  // from the last level, so the last level holds about
  // multiplier / (multiplier + 1) of the data. The LSM sizes its levels
  // from level 1 down either way.
  bool level_compaction_dynamic_level_bytes = false;
  // RocksDB: every write of a fill waits until the flushes and compactions
  // it set off are done, so that the tree grows from the keys alone, the
  // same way every run and for every filter (the LSM, which has no
  // background threads, always does). The fill's speed is then not a write
  // throughput.
  bool wait_for_compactions = false;

  int64_t cache_size = 0;  // RocksDB block cache bytes; 0 = no cache
  // Data-block reads of lookups with O_DIRECT (RocksDB's use_direct_reads,
  // the LSM's of the same name), so that the device, not the page cache, serves
  // each one; flushes and compactions stay buffered (db_bench's
  // use_direct_io_for_flush_and_compaction=false). The tool turns it off
  // when the file system refuses O_DIRECT (direct_reads.h).
  bool use_direct_reads = false;
  // The LSM's StoreOptions::prefetch_filters: a Get requests every
  // candidate file's filter line before it probes the first. (RocksDB has
  // no such switch.)
  bool prefetch_filters = true;

  // The sizes in the unsigned types both engines' options take (the flags
  // are signed; ValidateBenchOptions keeps them at 64 KiB or more).
  size_t WriteBufferBytes() const {
    return static_cast<size_t>(write_buffer_size);
  }
  uint64_t TargetFileBytes() const {
    return static_cast<uint64_t>(target_file_size_base);
  }
  uint64_t LevelBaseBytes() const {
    return static_cast<uint64_t>(max_bytes_for_level_base);
  }
};

// Sets the tree's shape in either engine's options (rocksdb::Options,
// lsm::StoreOptions), which name these fields alike. Their target file
// sizes differ in name (target_file_size_base, target_file_size).
template <typename EngineOptions>
void SetTreeShape(const EngineSettings& settings, EngineOptions* options) {
  options->write_buffer_size = settings.WriteBufferBytes();
  options->max_bytes_for_level_base = settings.LevelBaseBytes();
  options->max_bytes_for_level_multiplier =
      settings.max_bytes_for_level_multiplier;
  options->num_levels = settings.num_levels;
  options->disable_auto_compactions = settings.disable_auto_compactions;
}

}  // namespace bloomgate::bench

#endif  // BLOOMGATE_TOOLS_BENCH_ENGINE_SETTINGS_H_
