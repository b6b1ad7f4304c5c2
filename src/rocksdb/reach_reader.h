// Copyright 2026 The bloomgate Authors.
//
// A filter reader that tells a LookupSampler where absent-key lookups go:
// every key its filter answers "no" for (a key certainly not in the file,
// so a probe the filter's FP rate weighs). A pooled policy with measured
// reach (FilterSpec::reach_half_life) wraps each reader it makes in one,
// bloomgate's and RocksDB's alike. A policy without reach makes none: its
// probes pay nothing for it.
//
// Not a public header.

#ifndef BLOOMGATE_SRC_ROCKSDB_REACH_READER_H_
#define BLOOMGATE_SRC_ROCKSDB_REACH_READER_H_

#include <memory>
#include <utility>

#include "rocksdb/slice.h"
#include "src/spec/lookup_sampler.h"
#include "table/block_based/filter_policy_internal.h"

namespace bloomgate::rocksdb_internal {

class ReachReader final : public rocksdb::FilterBitsReader {
 public:
  ReachReader(std::unique_ptr<rocksdb::FilterBitsReader> reader,
              std::shared_ptr<LookupSampler> sampler)
      : reader_(std::move(reader)), sampler_(std::move(sampler)) {}

  bool MayMatch(const rocksdb::Slice& key) override {
    const bool may_match = reader_->MayMatch(key);
    if (!may_match) sampler_->Note({key.data(), key.size()});
    return may_match;
  }

  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override {
    reader_->MayMatch(num_keys, keys, may_match);
    for (int i = 0; i < num_keys; ++i) {
      if (!may_match[i]) sampler_->Note({keys[i]->data(), keys[i]->size()});
    }
  }

 private:
  const std::unique_ptr<rocksdb::FilterBitsReader> reader_;
  const std::shared_ptr<LookupSampler> sampler_;
};

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_REACH_READER_H_
