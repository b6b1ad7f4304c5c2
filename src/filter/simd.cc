// Copyright 2026 The bloomgate Authors.

#include "bloomgate/simd.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "src/filter/blocked_kernels.h"
#include "src/filter/cpu_target.h"
#include "src/filter/kernel_check.h"
#include "src/filter/kernel_choice.h"
#include "src/filter/kernel_list.h"

namespace bloomgate {
namespace {

constexpr SimdKernel kWidestFirst[] = {SimdKernel::kAvx2, SimdKernel::kScalar};

std::atomic<SimdKernel>& Active() {
  static std::atomic<SimdKernel> active = [] {
    const std::string& failures = internal::ProcessKernels().failures;
    if (!failures.empty()) {
      std::fprintf(stderr, "%s", failures.c_str());
    }
    internal::KernelChoice choice =
        internal::ChooseSimdKernel(std::getenv("BLOOMGATE_SIMD"));
    if (!choice.warning.empty()) {
      std::fprintf(stderr, "bloomgate: %s\n", choice.warning.c_str());
    }
    return choice.kernel;
  }();
  return active;
}

// C strings, which Debian's absl::StrCat takes (its absl::string_view is
// not std::string_view), indexed by SimdKernel.
constexpr const char* kNames[] = {"scalar", "avx2"};

const char* Name(SimdKernel kernel) {
  const auto i = static_cast<size_t>(kernel);
  return i < std::size(kNames) ? kNames[i] : "unknown";
}

}  // namespace

std::string_view SimdKernelName(SimdKernel kernel) { return Name(kernel); }

absl::StatusOr<SimdKernel> ParseSimdKernel(std::string_view name) {
  for (SimdKernel kernel : kWidestFirst) {
    if (name == SimdKernelName(kernel)) return kernel;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown SIMD kernel \"", ToAbsl(name), "\" (known: scalar, avx2)"));
}

bool SimdKernelSupported(SimdKernel kernel) {
  const std::vector<SimdKernel>& passed = internal::ProcessKernels().passed;
  return std::find(passed.begin(), passed.end(), kernel) != passed.end();
}

std::string_view SimdKernelCheckFailures() {
  return internal::ProcessKernels().failures;
}

SimdKernel WidestSimdKernel() {
  return internal::ProcessKernels().passed.front();
}

SimdKernel ActiveSimdKernel() {
  return Active().load(std::memory_order_relaxed);
}

absl::Status SetSimdKernel(SimdKernel kernel) {
  if (!SimdKernelSupported(kernel)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "SIMD kernel ", Name(kernel),
        " is not supported by this build and CPU, or failed its check"));
  }
  Active().store(kernel, std::memory_order_relaxed);
  return absl::OkStatus();
}

namespace internal {

CheckedKernels CheckKernels(absl::Span<const BlockedKernel* const> runnable) {
  CheckedKernels checked;
  for (const BlockedKernel* kernel : runnable) {
    const absl::Status s = CheckBlockedKernel(*kernel);
    if (s.ok()) {
      checked.passed.push_back(kernel->kernel);
    } else {
      absl::StrAppend(&checked.failures, "bloomgate: ", s.message(),
                      "; it is not used\n");
    }
  }
  if (checked.passed.empty()) {
    checked.passed.push_back(SimdKernel::kScalar);
    absl::StrAppend(&checked.failures,
                    "bloomgate: no kernel passed its check, so this build "
                    "of bloomgate may make filters that miss keys: build it "
                    "with another compiler or other flags; using scalar\n");
  }
  return checked;
}

const CheckedKernels& ProcessKernels() {
  static const CheckedKernels checked = [] {
    std::vector<const BlockedKernel*> runnable;
    for (SimdKernel kernel : kWidestFirst) {
      const BlockedKernel* table = CompiledBlockedKernel(kernel);
      if (table != nullptr && CpuRunsKernel(kernel)) runnable.push_back(table);
    }
    return CheckKernels(runnable);
  }();
  return checked;
}

KernelChoice ChooseSimdKernel(const char* value,
                              const CheckedKernels& kernels) {
  const SimdKernel widest = kernels.passed.front();
  if (value == nullptr || *value == '\0') return {widest, ""};
  absl::StatusOr<SimdKernel> kernel = ParseSimdKernel(value);
  if (!kernel.ok()) {
    return {widest,
            absl::StrCat("BLOOMGATE_SIMD ignored: ", kernel.status().message(),
                         "; using ", Name(widest))};
  }
  if (std::find(kernels.passed.begin(), kernels.passed.end(), *kernel) ==
      kernels.passed.end()) {
    return {widest, absl::StrCat("BLOOMGATE_SIMD=", value,
                                 " ignored: not supported by this build and "
                                 "CPU, or it failed its check; using ",
                                 Name(widest))};
  }
  return {*kernel, ""};
}

KernelChoice ChooseSimdKernel(const char* value) {
  return ChooseSimdKernel(value, ProcessKernels());
}

const BlockedKernel& ActiveBlockedKernel() {
  // Supported, hence compiled: SetSimdKernel and ChooseSimdKernel check.
  return *CompiledBlockedKernel(ActiveSimdKernel());
}

}  // namespace internal
}  // namespace bloomgate
