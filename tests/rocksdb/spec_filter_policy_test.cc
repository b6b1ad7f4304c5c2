// Copyright 2026 The bloomgate Authors.
//
// NewFilterPolicyForSpec: the policy of every filter kind of the registry,
// as the tools and the benchmarks get it.

#include "src/rocksdb/spec_filter_policy.h"

#include <memory>

#include "bloomgate/filter_spec.h"
#include "bloomgate/rocksdb_filter_policy.h"
#include "gtest/gtest.h"

namespace bloomgate::rocksdb_internal {
namespace {

TEST(SpecFilterPolicyTest, EveryKindHasItsPolicy) {
  for (const FilterKindInfo& kind : FilterKinds()) {
    absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> policy =
        NewFilterPolicyForSpec(kind.spec);
    ASSERT_TRUE(policy.ok()) << kind.name << ": " << policy.status();
    if (kind.spec.family == FilterFamily::kNone) {
      EXPECT_EQ(*policy, nullptr);
      continue;
    }
    ASSERT_NE(*policy, nullptr) << kind.name;
    const bool bloomgate = kind.spec.family == FilterFamily::kBloomgate;
    EXPECT_EQ(std::string((*policy)->CompatibilityName()) ==
                  kRocksDBCompatibilityName,
              bloomgate)
        << kind.name;
  }
}

TEST(SpecFilterPolicyTest, RejectsWhatTheBloomgatePolicyRejects) {
  EXPECT_FALSE(NewFilterPolicyForSpec({.bits_per_key = 1000}).ok());
}

}  // namespace
}  // namespace bloomgate::rocksdb_internal
