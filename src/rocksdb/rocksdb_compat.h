// Copyright 2026 The bloomgate Authors.
//
// Every difference between the RocksDB releases bloomgate supports, 7.0 to
// 11.x, in one place (docs/rocksdb-plugin.md, "Supported RocksDB releases").
// The adapter, its tests and the tools ask these macros and helpers instead
// of testing ROCKSDB_MAJOR/ROCKSDB_MINOR themselves.
//
// Not a public header.

#ifndef BLOOMGATE_SRC_ROCKSDB_ROCKSDB_COMPAT_H_
#define BLOOMGATE_SRC_ROCKSDB_ROCKSDB_COMPAT_H_

#include <memory>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "rocksdb/version.h"

// ROCKSDB_MAJOR/ROCKSDB_MINOR exist in every release (the __ROCKSDB_*__
// spellings went away in 10.8); ROCKSDB_VERSION_GE only from 10.8 on.
#define BLOOMGATE_ROCKSDB_AT_LEAST(major, minor) \
  (ROCKSDB_MAJOR > (major) ||                    \
   (ROCKSDB_MAJOR == (major) && ROCKSDB_MINOR >= (minor)))

#if !BLOOMGATE_ROCKSDB_AT_LEAST(7, 0) || BLOOMGATE_ROCKSDB_AT_LEAST(12, 0)
#error "bloomgate's RocksDB adapter supports RocksDB 7.0 to 11.x"
#endif

// 8.3: a Seek that a prefix filter rules out counts as
// {NON_,}LAST_LEVEL_SEEK_FILTERED (before: BLOOM_FILTER_PREFIX_USEFUL), and a
// Get ruled out by a prefix-only filter as BLOOM_FILTER_PREFIX_USEFUL
// (before: BLOOM_FILTER_USEFUL).
#define BLOOMGATE_ROCKSDB_HAS_SEEK_FILTER_TICKERS \
  BLOOMGATE_ROCKSDB_AT_LEAST(8, 3)

// 9.6: FilterBitsBuilder::AddKeyAndAlt(key, alt) is pure virtual: the whole
// key and its prefix in one call, each deduplicated against its own kind.
#define BLOOMGATE_ROCKSDB_HAS_ADD_KEY_AND_ALT BLOOMGATE_ROCKSDB_AT_LEAST(9, 6)

// 10.9: CalculateSpace(num_entries) and EstimatedFpRate(num_entries, bytes)
// moved from BuiltinFilterBitsBuilder to FilterBitsBuilder, pure virtual; the
// table builder sizes full filters with CalculateSpace.
#define BLOOMGATE_ROCKSDB_BUILDER_HAS_SPACE BLOOMGATE_ROCKSDB_AT_LEAST(10, 9)

// 9.7: DB::Open takes std::unique_ptr<DB>*; 11.0 removed the DB** form.
#define BLOOMGATE_ROCKSDB_OPEN_TAKES_UNIQUE_PTR BLOOMGATE_ROCKSDB_AT_LEAST(9, 7)

// 10.2: a persisted OPTIONS file that does not read back as the options in
// use (e.g. a filter policy whose GetId() re-creates a different policy)
// fails DB::Open; before, fail_if_options_file_error (default false) left
// the file unwritten and only the info LOG said why.
#define BLOOMGATE_ROCKSDB_OPTIONS_MISMATCH_FAILS_OPEN \
  BLOOMGATE_ROCKSDB_AT_LEAST(10, 2)

// `override` on the builder methods that only some releases declare: the
// methods exist in every build (and are tested in every build), but override
// only where RocksDB has them.
#if BLOOMGATE_ROCKSDB_HAS_ADD_KEY_AND_ALT
#define BLOOMGATE_OVERRIDE_SINCE_9_6 override
#else
#define BLOOMGATE_OVERRIDE_SINCE_9_6
#endif
#if BLOOMGATE_ROCKSDB_BUILDER_HAS_SPACE
#define BLOOMGATE_OVERRIDE_SINCE_10_9 override
#else
#define BLOOMGATE_OVERRIDE_SINCE_10_9
#endif

namespace bloomgate::rocksdb_compat {

// rocksdb::DB::Open in the form every supported release has.
inline rocksdb::Status OpenDB(const rocksdb::Options& options,
                              const std::string& path,
                              std::unique_ptr<rocksdb::DB>* db) {
#if BLOOMGATE_ROCKSDB_OPEN_TAKES_UNIQUE_PTR
  return rocksdb::DB::Open(options, path, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, path, &raw);
  db->reset(raw);
  return s;
#endif
}

// The same, with column families.
inline rocksdb::Status OpenDB(
    const rocksdb::DBOptions& options, const std::string& path,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& column_families,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles,
    std::unique_ptr<rocksdb::DB>* db) {
#if BLOOMGATE_ROCKSDB_OPEN_TAKES_UNIQUE_PTR
  return rocksdb::DB::Open(options, path, column_families, handles, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s =
      rocksdb::DB::Open(options, path, column_families, handles, &raw);
  db->reset(raw);
  return s;
#endif
}

}  // namespace bloomgate::rocksdb_compat

#endif  // BLOOMGATE_SRC_ROCKSDB_ROCKSDB_COMPAT_H_
