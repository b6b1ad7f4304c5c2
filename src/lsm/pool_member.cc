// Copyright 2026 The bloomgate Authors.

#include "src/lsm/pool_member.h"

#include <utility>

namespace bloomgate::lsm {

void StorePoolMember::Set(std::shared_ptr<const Version> version) {
  MutexLock l(&mu_);
  version_ = std::move(version);
}

PoolMember::Files StorePoolMember::LiveFiles() const {
  std::shared_ptr<const Version> version;
  {
    MutexLock l(&mu_);
    version = version_;
  }
  Files files;
  if (version == nullptr) return files;
  for (int level = 0; level < static_cast<int>(version->levels.size());
       ++level) {
    for (const TablePtr& t : version->levels[level]) {
      files.files.push_back({.level = level,
                             .keys = t->properties().num_entries,
                             .smallest = t->smallest(),
                             .largest = t->largest(),
                             .filter_bytes = t->filter_bytes()});
    }
  }
  // The tables, and so the keys the files view, live while the version does.
  files.owner = std::move(version);
  return files;
}

}  // namespace bloomgate::lsm
