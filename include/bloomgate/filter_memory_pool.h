// Copyright 2026 The bloomgate Authors.
//
// One filter memory budget for the whole process. Services that run many
// databases and column families in one process budget memory per process,
// and their lookups are skewed: a few stores, and a few key ranges of each,
// take most of them. A pool is a budget that every database and column
// family whose policy names it shares: each new filter's bits are chosen
// over the union of their live trees, and with `reach:on` weighted by where
// absent-key lookups were measured to go (FilterSpec::reach_half_life), so
// that memory goes where lookups do. By name:
//
//   filter_policy=bloomgate:256MiB:monkey:mixed:pool:app
//   listeners={bloomgate_live_tree}
//
// in every database's OPTIONS (the listener keeps each database's live
// tree), or in code: CreateRocksDBLiveTreeFilter with FilterSpec::pool set.
// A database joins the pool at its first flush or compaction after it
// opens. Design and limits: docs/memory-pool.md.

#ifndef BLOOMGATE_FILTER_MEMORY_POOL_H_
#define BLOOMGATE_FILTER_MEMORY_POOL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace bloomgate {

namespace spec_internal {
class PoolMembers;
}  // namespace spec_internal

class FilterMemoryPool {
 public:
  // The process's pool named `name` of `size_bytes`: made at the first
  // call, and the same pool at every later one while a policy (or any
  // holder of the pointer) keeps it. `asked_by` names the caller in
  // errors, e.g. a policy's id. InvalidArgument, naming both sizes and
  // both askers, when the pool exists with another size.
  static absl::StatusOr<std::shared_ptr<FilterMemoryPool>> Named(
      std::string_view name, uint64_t size_bytes,
      std::string_view asked_by = "");

  // The pool named `name` if some holder keeps it, else null.
  static std::shared_ptr<FilterMemoryPool> Find(std::string_view name);

  FilterMemoryPool(const FilterMemoryPool&) = delete;
  FilterMemoryPool& operator=(const FilterMemoryPool&) = delete;
  ~FilterMemoryPool();

  const std::string& name() const { return name_; }
  uint64_t size_bytes() const { return size_bytes_; }

  // What the pool's filters take now, over the live files of every
  // database and column family that joined it. A file whose filter size
  // its engine has not learnt (written before the database joined) counts
  // in files and keys but not in filter_bytes.
  struct Usage {
    uint64_t filter_bytes = 0;
    uint64_t size_bytes = 0;
    uint64_t databases = 0;
    uint64_t column_families = 0;
    uint64_t files = 0;
    uint64_t keys = 0;
  };
  Usage GetUsage() const;

 private:
  friend class spec_internal::PoolMembers;

  FilterMemoryPool(std::string name, uint64_t size_bytes, std::string asked_by);

  const std::string name_;
  const uint64_t size_bytes_;
  // The first asker, for the size conflict's message.
  const std::string asked_by_;
  // The databases' and column families' trees that joined
  // (spec_internal::PoolMembers).
  struct Members;
  const std::unique_ptr<Members> members_;
};

}  // namespace bloomgate

#endif  // BLOOMGATE_FILTER_MEMORY_POOL_H_
