// Copyright 2026 The bloomgate Authors.

#include "bloomgate/simd.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "src/filter/absl_compat.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/cpu_target.h"
#include "src/filter/kernel_choice.h"

namespace bloomgate {
namespace {

constexpr SimdKernel kWidestFirst[] = {SimdKernel::kAvx512, SimdKernel::kAvx2,
                                       SimdKernel::kScalar};

// Must agree with the target attributes of cpu_target.h.
bool CpuRuns(SimdKernel kernel) {
  switch (kernel) {
    case SimdKernel::kScalar:
      return true;
#if BLOOMGATE_X86_KERNELS
    case SimdKernel::kAvx2:
      // Needed when called before the constructors (GCC's manual); cheap.
      __builtin_cpu_init();
      // Also checks that the OS saves the YMM registers (libgcc's cpuinfo
      // reads XCR0), as for the ZMM registers below.
      return __builtin_cpu_supports("avx2");
    case SimdKernel::kAvx512:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx512f");
#endif
    default:
      return false;
  }
}

std::atomic<SimdKernel>& Active() {
  static std::atomic<SimdKernel> active = [] {
    internal::KernelChoice choice =
        internal::ChooseSimdKernel(std::getenv("BLOOMGATE_SIMD"));
    if (!choice.warning.empty()) {
      std::fprintf(stderr, "bloomgate: %s\n", choice.warning.c_str());
    }
    return choice.kernel;
  }();
  return active;
}

// A C string, which Debian's absl::StrCat takes (its absl::string_view is
// not std::string_view).
const char* Name(SimdKernel kernel) {
  switch (kernel) {
    case SimdKernel::kScalar:
      return "scalar";
    case SimdKernel::kAvx2:
      return "avx2";
    case SimdKernel::kAvx512:
      return "avx512";
  }
  return "unknown";
}

}  // namespace

std::string_view SimdKernelName(SimdKernel kernel) { return Name(kernel); }

absl::StatusOr<SimdKernel> ParseSimdKernel(std::string_view name) {
  for (SimdKernel kernel : kWidestFirst) {
    if (name == SimdKernelName(kernel)) return kernel;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown SIMD kernel \"", ToAbsl(name),
                   "\" (known: scalar, avx2, avx512)"));
}

bool SimdKernelSupported(SimdKernel kernel) {
  return internal::CompiledBlockedKernel(kernel) != nullptr && CpuRuns(kernel);
}

SimdKernel WidestSimdKernel() {
  for (SimdKernel kernel : kWidestFirst) {
    if (SimdKernelSupported(kernel)) return kernel;
  }
  return SimdKernel::kScalar;
}

SimdKernel ActiveSimdKernel() {
  return Active().load(std::memory_order_relaxed);
}

absl::Status SetSimdKernel(SimdKernel kernel) {
  if (!SimdKernelSupported(kernel)) {
    return absl::FailedPreconditionError(
        absl::StrCat("SIMD kernel ", Name(kernel),
                     " is not supported by this build and CPU"));
  }
  Active().store(kernel, std::memory_order_relaxed);
  return absl::OkStatus();
}

namespace internal {

KernelChoice ChooseSimdKernel(const char* value) {
  const SimdKernel widest = WidestSimdKernel();
  if (value == nullptr || *value == '\0') return {widest, ""};
  absl::StatusOr<SimdKernel> kernel = ParseSimdKernel(value);
  if (!kernel.ok()) {
    return {widest,
            absl::StrCat("BLOOMGATE_SIMD ignored: ", kernel.status().message(),
                         "; using ", Name(widest))};
  }
  if (!SimdKernelSupported(*kernel)) {
    return {widest,
            absl::StrCat("BLOOMGATE_SIMD=", value,
                         " ignored: not supported by this build and CPU; "
                         "using ",
                         Name(widest))};
  }
  return {*kernel, ""};
}

const BlockedKernel& ActiveBlockedKernel() {
  // Supported, hence compiled: SetSimdKernel and ChooseSimdKernel check.
  return *CompiledBlockedKernel(ActiveSimdKernel());
}

}  // namespace internal
}  // namespace bloomgate
