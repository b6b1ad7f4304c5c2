// Copyright 2026 The bloomgate Authors.
//
// GetFilterMemory: what a column family's filters take, from the live
// files' table properties, and the budget its bloomgate policy keeps.

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/filter_memory_pool.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/db.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"

namespace bloomgate {
namespace {

// The spec of the column family's filter policy, if it is a bloomgate
// policy (its id is its FilterSpec's name); the default spec otherwise,
// which has no budget and no pool.
FilterSpec PolicySpec(rocksdb::DB& db, rocksdb::ColumnFamilyHandle* cf) {
  const rocksdb::Options options = db.GetOptions(cf);
  if (options.table_factory == nullptr) return {};
  const auto* table =
      options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table == nullptr || table->filter_policy == nullptr) return {};
  absl::StatusOr<RocksDBFilterOptions> spec =
      ParseRocksDBFilterPolicyId(table->filter_policy->GetId());
  return spec.ok() ? *spec : FilterSpec{};
}

}  // namespace

absl::StatusOr<FilterMemory> GetFilterMemory(
    rocksdb::DB& db, rocksdb::ColumnFamilyHandle* column_family) {
  rocksdb::ColumnFamilyHandle* cf =
      column_family != nullptr ? column_family : db.DefaultColumnFamily();
  rocksdb::TablePropertiesCollection tables;
  const rocksdb::Status s = db.GetPropertiesOfAllTables(cf, &tables);
  if (!s.ok()) {
    return absl::InternalError(absl::StrCat(
        db.GetName(), ": cannot read the table properties: ", s.ToString()));
  }
  FilterMemory memory;
  for (const auto& [file, properties] : tables) {
    if (properties == nullptr) continue;
    memory.filter_bytes += properties->filter_size;
    memory.keys += properties->num_entries;
    ++memory.files;
  }
  const FilterSpec spec = PolicySpec(db, cf);
  memory.budget_bytes = spec.memory_budget_bytes;
  memory.pool = std::string(spec.pool.view());
  if (const std::shared_ptr<FilterMemoryPool> pool =
          spec.pool.empty() ? nullptr : FilterMemoryPool::Find(memory.pool)) {
    memory.pool_usage = pool->GetUsage();
  }
  return memory;
}

}  // namespace bloomgate
