// Copyright 2026 The bloomgate Authors.
//
// The check a kernel passes at first use: every kernel this build has and
// this CPU runs passes it, and a kernel that sets other bits or gives
// another answer is refused, said, and never chosen.

#include "src/filter/kernel_check.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bloomgate/filter_options.h"
#include "bloomgate/simd.h"
#include "gtest/gtest.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/cpu_target.h"
#include "src/filter/hash_store.h"
#include "src/filter/kernel_choice.h"

namespace bloomgate::internal {
namespace {

bool CpuRunsAvx2() {
#if BLOOMGATE_X86_KERNELS
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

TEST(KernelCheckTest, EveryKernelThisCpuRunsPassesItsCheck) {
  const BlockedKernel* scalar = CompiledBlockedKernel(SimdKernel::kScalar);
  ASSERT_NE(scalar, nullptr);
  EXPECT_TRUE(CheckBlockedKernel(*scalar).ok());
  const BlockedKernel* avx2 = CompiledBlockedKernel(SimdKernel::kAvx2);
  if (avx2 != nullptr && CpuRunsAvx2()) {
    const absl::Status s = CheckBlockedKernel(*avx2);
    EXPECT_TRUE(s.ok()) << s;
    EXPECT_TRUE(SimdKernelSupported(SimdKernel::kAvx2));
  }
  EXPECT_EQ(SimdKernelCheckFailures(), "");
}

// The defect this check exists for: a fill whose chunk loop the compiler
// dropped, so that each run's first 16 * floor(n / 16) keys set no bit.
void FillDroppingChunks(const HashStore& hashes, uint64_t num_lines,
                        int num_probes, bool, uint8_t* bits) {
  hashes.ForEachRun([&](const uint64_t* run, size_t count) {
    for (size_t i = count / 16 * 16; i < count; ++i) {
      BlockedAdd(BlockedProbeSeed(run[i]), num_probes,
                 LineOf(bits, num_lines, run[i]));
    }
  });
}

// The scalar kernel's functions under the AVX2 kernel's name, so that the
// test runs on any CPU.
BlockedKernel ScalarAsAvx2() {
  BlockedKernel kernel = *CompiledBlockedKernel(SimdKernel::kScalar);
  kernel.kernel = SimdKernel::kAvx2;
  return kernel;
}

TEST(KernelCheckTest, AFillThatDropsKeysIsRefusedAndScalarIsUsed) {
  BlockedKernel broken = ScalarAsAvx2();
  broken.fill = &FillDroppingChunks;
  const absl::Status s = CheckBlockedKernel(broken);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(s.message(),
            "the avx2 kernel disagrees with the definition: its fill sets "
            "other bits (1 probes)");

  const BlockedKernel* kernels[] = {&broken,
                                    CompiledBlockedKernel(SimdKernel::kScalar)};
  const CheckedKernels checked = CheckKernels(kernels);
  EXPECT_EQ(checked.passed, std::vector<SimdKernel>{SimdKernel::kScalar});
  EXPECT_EQ(checked.failures,
            "bloomgate: the avx2 kernel disagrees with the definition: its "
            "fill sets other bits (1 probes); it is not used\n");

  const KernelChoice unset = ChooseSimdKernel(nullptr, checked);
  EXPECT_EQ(unset.kernel, SimdKernel::kScalar);
  EXPECT_EQ(unset.warning, "");
  const KernelChoice forced = ChooseSimdKernel("avx2", checked);
  EXPECT_EQ(forced.kernel, SimdKernel::kScalar);
  EXPECT_EQ(forced.warning,
            "BLOOMGATE_SIMD=avx2 ignored: not supported by this build and "
            "CPU, or it failed its check; using scalar");
}

// Queries that say "no" to every key, for one probe count.
bool NoKey(const uint8_t*, uint64_t, int, const char*, size_t) { return false; }
bool NoHash(const uint8_t*, uint64_t, int, uint64_t) { return false; }
void NoBatch(const uint8_t*, uint64_t, int, const uint64_t*, size_t n,
             bool* results) {
  for (size_t i = 0; i < n; ++i) results[i] = false;
}

TEST(KernelCheckTest, EachQueryThatSaysNoToAnAddedKeyIsRefused) {
  for (int k : {1, 6, kMaxBlockedProbes}) {
    BlockedKernel broken = ScalarAsAvx2();
    broken.queries[k - 1].may_match_key = &NoKey;
    EXPECT_EQ(CheckBlockedKernel(broken).message(),
              "the avx2 kernel disagrees with the definition: a key query (" +
                  std::to_string(k) + " probes)");
    broken = ScalarAsAvx2();
    broken.queries[k - 1].may_match_hash = &NoHash;
    EXPECT_EQ(CheckBlockedKernel(broken).message(),
              "the avx2 kernel disagrees with the definition: a hash query (" +
                  std::to_string(k) + " probes)");
    broken = ScalarAsAvx2();
    broken.queries[k - 1].may_match_batch = &NoBatch;
    EXPECT_EQ(CheckBlockedKernel(broken).message(),
              "the avx2 kernel disagrees with the definition: a batch query "
              "(" +
                  std::to_string(k) + " probes)");
  }
}

// A query that says "may match" to everything loses no key, but it is not
// the format's answer either: refused.
bool YesHash(const uint8_t*, uint64_t, int, uint64_t) { return true; }

TEST(KernelCheckTest, AQueryThatSaysYesToAbsentKeysIsRefused) {
  BlockedKernel broken = ScalarAsAvx2();
  broken.queries[5].may_match_hash = &YesHash;
  EXPECT_EQ(CheckBlockedKernel(broken).message(),
            "the avx2 kernel disagrees with the definition: a hash query (6 "
            "probes)");
}

TEST(KernelCheckTest, WhenNothingPassesScalarIsUsedAndTheProcessSaysSo) {
  BlockedKernel broken = *CompiledBlockedKernel(SimdKernel::kScalar);
  broken.fill = &FillDroppingChunks;
  const BlockedKernel* kernels[] = {&broken};
  const CheckedKernels checked = CheckKernels(kernels);
  EXPECT_EQ(checked.passed, std::vector<SimdKernel>{SimdKernel::kScalar});
  EXPECT_NE(checked.failures.find("the scalar kernel disagrees"),
            std::string::npos)
      << checked.failures;
  EXPECT_NE(checked.failures.find("no kernel passed its check"),
            std::string::npos)
      << checked.failures;
}

}  // namespace
}  // namespace bloomgate::internal
