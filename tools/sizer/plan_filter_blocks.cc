// Copyright 2026 The bloomgate Authors.
//
// What each SST file's filter block is, read through RocksDB's own table
// reader: a policy's name says what it may write, not what it wrote (a mixed
// bloomgate policy writes RocksDB's Ribbon blocks on some levels, a hybrid
// Ribbon policy RocksDB's Bloom blocks on its flushes).

#include <memory>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "bloomgate/filter_reader.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/table.h"
#include "src/rocksdb/builtin_filters.h"
#include "tools/sizer/plan.h"

namespace bloomgate::tools {

namespace {

// The compatibility name RocksDB's built-in Bloom and Ribbon policies file
// their blocks under (the metaindex key "fullfilter.<name>"), whatever
// their filter_policy_name.
constexpr char kBuiltinCompatibilityName[] = "rocksdb.BuiltinBloomFilter";

std::string CompatibilityNameOf(const std::string& filter_policy) {
  if (filter_policy.rfind(kRocksDBPolicyName, 0) == 0) {
    return kRocksDBCompatibilityName;
  }
  if (filter_policy == "bloomfilter" || filter_policy == "ribbonfilter") {
    return kBuiltinCompatibilityName;
  }
  return filter_policy;
}

// What `contents` is, as a bloomgate policy's reader (NewAnyFilterBitsReader)
// reads it where `bloomgate_policy`: a block neither RocksDB's nor intact
// bloomgate's matches every key. Under another policy such a block is one
// of RocksDB's older formats, left unread.
FilterBlockInfo InfoOf(std::string_view contents, bool bloomgate_policy) {
  switch (rocksdb_internal::KindOfFilterBlock(contents)) {
    case rocksdb_internal::FilterBlockKind::kRocksDBBloom:
      return {.kind = FilterKind::kRocksDBBloom};
    case rocksdb_internal::FilterBlockKind::kRocksDBRibbon:
      return {.kind = FilterKind::kRocksDBRibbon};
    case rocksdb_internal::FilterBlockKind::kOther:
      if (!bloomgate_policy) return {.kind = FilterKind::kUnread};
      break;
    case rocksdb_internal::FilterBlockKind::kBloomgate:
      break;
  }
  const FilterReader reader(contents);
  if (reader.degraded()) return {.kind = FilterKind::kBloomgateDamaged};
  return {.kind = FilterKind::kBloomgate,
          .layout = reader.layout(),
          .num_probes = reader.num_probes(),
          .num_keys = reader.num_keys(),
          .num_bits = reader.num_bits()};
}

// A policy that only reads: RocksDB hands it the filter block of the table
// it opens (a full filter is read and parsed when the table is opened, with
// filter blocks kept out of the block cache), and it records what the block
// is. One table at a time.
class BlockRecorder final : public rocksdb::FilterPolicy {
 public:
  explicit BlockRecorder(std::string compatibility_name)
      : compatibility_name_(std::move(compatibility_name)) {}

  const char* Name() const override { return "bloomgate_plan_reader"; }
  const char* CompatibilityName() const override {
    return compatibility_name_.c_str();
  }
  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& /*context*/) const override {
    return nullptr;  // never writes
  }
  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    const std::string_view block(contents.data(), contents.size());
    info_ = InfoOf(block, compatibility_name_ == kRocksDBCompatibilityName);
    return rocksdb_internal::NewAnyFilterBitsReader(contents);
  }

  const FilterBlockInfo& info() const { return info_; }

 private:
  const std::string compatibility_name_;
  mutable FilterBlockInfo info_;
};

}  // namespace

const char* FilterKindName(FilterKind kind) {
  switch (kind) {
    case FilterKind::kUnread:
      return "unread";
    case FilterKind::kNone:
      return "none";
    case FilterKind::kBloomgate:
      return "bloomgate";
    case FilterKind::kBloomgateDamaged:
      return "bloomgate_damaged";
    case FilterKind::kRocksDBBloom:
      return "rocksdb_bloom";
    case FilterKind::kRocksDBRibbon:
      return "rocksdb_ribbon";
  }
  return "unread";
}

absl::StatusOr<FilterBlockInfo> ReadFilterBlock(
    const std::string& sst_path, const std::string& filter_policy) {
  if (filter_policy.empty()) return FilterBlockInfo{.kind = FilterKind::kNone};
  auto recorder =
      std::make_shared<BlockRecorder>(CompatibilityNameOf(filter_policy));
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy = recorder;
  table.cache_index_and_filter_blocks = false;
  rocksdb::Options options;
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  rocksdb::SstFileReader reader(options);
  const rocksdb::Status s = reader.Open(sst_path);
  if (!s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot read the filter block of ", sst_path, ": ", s.ToString()));
  }
  return recorder->info();
}

}  // namespace bloomgate::tools
