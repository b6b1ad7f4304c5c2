// Copyright 2026 The bloomgate Authors.
//
// A store in a filter memory pool (FilterSpec::pool): the pool sees the
// store's live tables through the last version the store published, and
// where its absent lookups go through the store's sampler. The store sets
// the version at every change and clears it when it closes; the member
// holds no pointer back into the store, so a pool that still holds it
// after the store is gone sees an empty tree.
//
// Not a public header.

#ifndef BLOOMGATE_SRC_LSM_POOL_MEMBER_H_
#define BLOOMGATE_SRC_LSM_POOL_MEMBER_H_

#include <memory>

#include "absl/base/thread_annotations.h"
#include "src/lsm/mutex.h"
#include "src/lsm/version.h"
#include "src/spec/lookup_sampler.h"
#include "src/spec/pool_members.h"

namespace bloomgate::lsm {

class StorePoolMember final : public PoolMember {
 public:
  // `sampler` may be null (reach not measured).
  explicit StorePoolMember(std::shared_ptr<const LookupSampler> sampler)
      : sampler_(std::move(sampler)) {}

  // The store's tree is now `version` (null: the store closed).
  void Set(std::shared_ptr<const Version> version);

  Files LiveFiles() const override;
  const void* database() const override { return this; }
  const LookupSampler* sampler() const override { return sampler_.get(); }

 private:
  const std::shared_ptr<const LookupSampler> sampler_;
  mutable Mutex mu_;
  std::shared_ptr<const Version> version_ ABSL_GUARDED_BY(mu_);
};

}  // namespace bloomgate::lsm

#endif  // BLOOMGATE_SRC_LSM_POOL_MEMBER_H_
