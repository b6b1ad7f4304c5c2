// Copyright 2026 The bloomgate Authors.
//
// The plan's input: a RocksDB database opened read-only, and its live files.

#include <algorithm>
#include <cstdarg>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/metadata.h"
#include "rocksdb/table_properties.h"
#include "src/rocksdb/rocksdb_compat.h"
#include "tools/sizer/plan.h"

namespace bloomgate::tools {

namespace {

// RocksDB would otherwise open an info LOG in the database's folder.
class NullLogger : public rocksdb::Logger {
 public:
  using rocksdb::Logger::Logv;
  void Logv(const char* /*format*/, va_list /*ap*/) override {}
};

rocksdb::Status OpenReadOnly(
    const rocksdb::DBOptions& options, const std::string& path,
    const std::vector<rocksdb::ColumnFamilyDescriptor>& families,
    std::vector<rocksdb::ColumnFamilyHandle*>* handles,
    std::unique_ptr<rocksdb::DB>* db) {
#if BLOOMGATE_ROCKSDB_OPEN_TAKES_UNIQUE_PTR
  return rocksdb::DB::OpenForReadOnly(options, path, families, handles, db);
#else
  rocksdb::DB* raw = nullptr;
  rocksdb::Status s =
      rocksdb::DB::OpenForReadOnly(options, path, families, handles, &raw);
  db->reset(raw);
  return s;
#endif
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The database at `db_path`, open read-only with the default column family
// and `column_family`, whose handle is handles->back().
absl::Status OpenForPlan(const std::string& db_path,
                         const std::string& column_family,
                         std::vector<rocksdb::ColumnFamilyHandle*>* handles,
                         std::unique_ptr<rocksdb::DB>* db) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (db_path.empty()) return absl::InvalidArgumentError("no --db given");
  if (!fs::exists(db_path, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat(db_path, ": no such directory"));
  }
  if (!fs::is_directory(db_path, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat(db_path, " is not a RocksDB database (not a directory)"));
  }
  if (!fs::exists(fs::path(db_path) / "CURRENT", error)) {
    return absl::InvalidArgumentError(absl::StrCat(
        db_path, " is not a RocksDB database (it has no CURRENT file)"));
  }
  rocksdb::DBOptions options;
  options.create_if_missing = false;
  options.info_log = std::make_shared<NullLogger>();
  std::vector<std::string> families;
  rocksdb::Status s =
      rocksdb::DB::ListColumnFamilies(options, db_path, &families);
  if (!s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot read the column families of ", db_path, ": ", s.ToString()));
  }
  if (std::find(families.begin(), families.end(), column_family) ==
      families.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat(db_path, " has no column family \"", column_family,
                     "\" (it has: ", absl::StrJoin(families, ", "), ")"));
  }
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors = {
      {rocksdb::kDefaultColumnFamilyName, rocksdb::ColumnFamilyOptions()}};
  if (column_family != rocksdb::kDefaultColumnFamilyName) {
    descriptors.push_back({column_family, rocksdb::ColumnFamilyOptions()});
  }
  s = OpenReadOnly(options, db_path, descriptors, handles, db);
  if (!s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot open ", db_path,
        " read-only with RocksDB's default options (a custom comparator or "
        "table format needs the service's own options): ",
        s.ToString()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<PlanFile>> ReadLiveFiles(
    const std::string& db_path, const std::string& column_family) {
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  std::unique_ptr<rocksdb::DB> db;
  if (absl::Status opened = OpenForPlan(db_path, column_family, &handles, &db);
      !opened.ok()) {
    return opened;
  }
  rocksdb::ColumnFamilyHandle* handle = handles.back();

  std::vector<rocksdb::LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  rocksdb::TablePropertiesCollection props;
  const rocksdb::Status s = db->GetPropertiesOfAllTables(handle, &props);
  for (rocksdb::ColumnFamilyHandle* h : handles) {
    db->DestroyColumnFamilyHandle(h);
  }
  db.reset();
  if (!s.ok()) {
    return absl::InternalError(absl::StrCat(
        "cannot read the table properties of ", db_path, ": ", s.ToString()));
  }
  // Properties are keyed by path, live files named "/000012.sst".
  std::map<std::string, const rocksdb::TableProperties*> by_name;
  for (const auto& [path, p] : props) by_name[BaseName(path)] = p.get();

  std::vector<PlanFile> files;
  for (const rocksdb::LiveFileMetaData& f : live) {
    if (f.column_family_name != column_family) continue;
    PlanFile file;
    file.name = f.name;
    file.level = f.level;
    file.smallest = f.smallestkey;
    file.largest = f.largestkey;
    file.entries = f.num_entries;
    file.deletions = f.num_deletions;
    auto it = by_name.find(BaseName(f.name));
    if (it != by_name.end()) {
      file.filter_bytes = it->second->filter_size;
      file.filter_policy = it->second->filter_policy_name;
      // Older files may not carry the count in their metadata.
      if (file.entries == 0) file.entries = it->second->num_entries;
    }
    if (file.filter_bytes == 0) {
      file.filter.kind = FilterKind::kNone;
    } else {
      absl::StatusOr<FilterBlockInfo> filter =
          ReadFilterBlock(absl::StrCat(f.directory, "/", f.relative_filename),
                          file.filter_policy);
      if (!filter.ok()) return filter.status();
      file.filter = *filter;
    }
    files.push_back(std::move(file));
  }
  return files;
}

}  // namespace bloomgate::tools
