// Copyright 2026 The bloomgate Authors.

#include "bloomgate/filter_memory_pool.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "src/spec/pool_members.h"

namespace bloomgate {

// std::mutex, not absl::Mutex, here and below: ThreadSanitizer sees only
// the locks of instrumented code, and Debian's abseil is not
// (src/lsm/mutex.h).
struct FilterMemoryPool::Members {
  std::mutex mu;
  std::vector<std::weak_ptr<const PoolMember>> members;  // guarded by mu
};

namespace {

std::mutex& RegistryMutex() {
  static auto* mu = new std::mutex;  // never destroyed, as the registry
  return *mu;
}
// Never destroyed: policies may be released while the process exits.
// Guarded by RegistryMutex().
std::map<std::string, std::weak_ptr<FilterMemoryPool>, std::less<>>&
Registry() {
  static auto* registry =
      new std::map<std::string, std::weak_ptr<FilterMemoryPool>, std::less<>>;
  return *registry;
}

// "<asked_by> " or "", for the conflict's message.
std::string Asker(std::string_view asked_by) {
  return asked_by.empty() ? "" : absl::StrCat(ToAbsl(asked_by), " ");
}

}  // namespace

FilterMemoryPool::FilterMemoryPool(std::string name, uint64_t size_bytes,
                                   std::string asked_by)
    : name_(std::move(name)),
      size_bytes_(size_bytes),
      asked_by_(std::move(asked_by)),
      members_(std::make_unique<Members>()) {}

FilterMemoryPool::~FilterMemoryPool() = default;

absl::StatusOr<std::shared_ptr<FilterMemoryPool>> FilterMemoryPool::Named(
    std::string_view name, uint64_t size_bytes, std::string_view asked_by) {
  std::lock_guard<std::mutex> l(RegistryMutex());
  auto& registry = Registry();
  std::erase_if(registry,
                [](const auto& entry) { return entry.second.expired(); });
  auto it = registry.find(name);
  // Its last holder may let go of it at any moment, outside this lock.
  std::shared_ptr<FilterMemoryPool> pool =
      it != registry.end() ? it->second.lock() : nullptr;
  if (pool != nullptr) {
    if (pool->size_bytes() == size_bytes) return pool;
    return absl::InvalidArgumentError(absl::StrCat(
        "filter memory pool \"", ToAbsl(name), "\" is ",
        FormatByteSize(pool->size_bytes()), " (", pool->size_bytes(),
        " bytes) as ", Asker(pool->asked_by_), "made it, but ", Asker(asked_by),
        "asks for ", FormatByteSize(size_bytes), " (", size_bytes,
        " bytes): every policy that names a pool must give its "
        "size alike"));
  }
  pool.reset(new FilterMemoryPool(std::string(name), size_bytes,
                                  std::string(asked_by)));
  registry.insert_or_assign(std::string(name), pool);
  return pool;
}

std::shared_ptr<FilterMemoryPool> FilterMemoryPool::Find(
    std::string_view name) {
  std::lock_guard<std::mutex> l(RegistryMutex());
  auto it = Registry().find(name);
  return it == Registry().end() ? nullptr : it->second.lock();
}

FilterMemoryPool::Usage FilterMemoryPool::GetUsage() const {
  Usage usage{.size_bytes = size_bytes_};
  std::set<const void*> databases;
  for (const std::shared_ptr<const PoolMember>& member :
       spec_internal::PoolMembers::Of(*this)) {
    const PoolMember::Files files = member->LiveFiles();
    if (files.owner == nullptr) continue;  // closed, or no tree seen yet
    databases.insert(member->database());
    ++usage.column_families;
    for (const LiveFile& f : files.files) {
      usage.filter_bytes += f.filter_bytes.value_or(0);
      usage.keys += f.keys;
      ++usage.files;
    }
  }
  usage.databases = databases.size();
  return usage;
}

namespace spec_internal {

void PoolMembers::Join(FilterMemoryPool& pool,
                       const std::shared_ptr<const PoolMember>& member) {
  FilterMemoryPool::Members& m = *pool.members_;
  std::lock_guard<std::mutex> l(m.mu);
  std::erase_if(m.members, [](const auto& w) { return w.expired(); });
  for (const auto& w : m.members) {
    if (w.lock() == member) return;
  }
  m.members.push_back(member);
}

std::vector<std::shared_ptr<const PoolMember>> PoolMembers::Of(
    const FilterMemoryPool& pool) {
  FilterMemoryPool::Members& m = *pool.members_;
  std::lock_guard<std::mutex> l(m.mu);
  std::vector<std::shared_ptr<const PoolMember>> members;
  for (const auto& w : m.members) {
    if (std::shared_ptr<const PoolMember> member = w.lock()) {
      members.push_back(std::move(member));
    }
  }
  return members;
}

}  // namespace spec_internal

RunFilter ChooseLiveTreeFilter(const FilterSpec& spec,
                               absl::Span<const LiveFile> files,
                               const PendingOutput& output,
                               const CostInputs& inputs,
                               const FilterMemoryPool* pool,
                               const PoolMember* self) {
  if (pool == nullptr) return LiveTreeFilter(spec, files, output, inputs);
  const bool measured = spec.reach_half_life != 0;
  auto samples_of = [&](const PoolMember* member) {
    const LookupSampler* sampler =
        member != nullptr && measured ? member->sampler() : nullptr;
    return TreeLookups{sampler != nullptr
                           ? sampler->Samples()
                           : std::vector<LookupSampler::Sample>{}};
  };
  // The output's tree is tree 0, the other members 1, 2, ...
  std::vector<LiveFile> all(files.begin(), files.end());
  for (LiveFile& f : all) f.tree = 0;
  std::vector<TreeLookups> lookups{samples_of(self)};
  std::vector<std::shared_ptr<const void>> owners;
  for (const std::shared_ptr<const PoolMember>& member :
       spec_internal::PoolMembers::Of(*pool)) {
    if (member.get() == self) continue;
    PoolMember::Files theirs = member->LiveFiles();
    const int tree = static_cast<int>(lookups.size());
    for (LiveFile& f : theirs.files) {
      f.tree = tree;
      all.push_back(f);
    }
    owners.push_back(std::move(theirs.owner));
    lookups.push_back(samples_of(member.get()));
  }
  PendingOutput pooled_output = output;
  pooled_output.tree = 0;
  FilterSpec pooled = spec;
  pooled.memory_budget_bytes = pool->size_bytes();
  return LiveTreeFilter(pooled, all, pooled_output, inputs, lookups);
}

}  // namespace bloomgate
