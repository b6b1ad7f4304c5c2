// Copyright 2026 The bloomgate Authors.

#include "benchmarks/cpu_pin.h"

#include <sched.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace bloomgate::bench {
namespace {

// (char arrays: Debian's abseil has its own string_view, which StrCat takes.)
constexpr char kCpuFlag[] = "--bloomgate_cpu=";
constexpr char kAnyCpu[] = "any";

// The flag's value, removed from argv; nullopt when the flag is absent (the
// last one counts when repeated).
std::optional<std::string> TakeFlag(int* argc, char** argv) {
  std::optional<std::string> value;
  int kept = 1;
  for (int i = 1; i < *argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with(kCpuFlag)) {
      value = std::string(arg.substr(std::string_view(kCpuFlag).size()));
    } else {
      argv[kept++] = argv[i];
    }
  }
  *argc = kept;
  return value;
}

}  // namespace

absl::StatusOr<std::string> PinToOneCpu(int* argc, char** argv) {
  const std::optional<std::string> value = TakeFlag(argc, argv);
  if (value == kAnyCpu) return absl::StrCat(kAnyCpu, " (not pinned)");
  int cpu = 0;
  if (!value.has_value()) {
    cpu = sched_getcpu();
    if (cpu < 0) {
      return absl::InternalError(
          absl::StrCat("sched_getcpu: ", std::strerror(errno)));
    }
  } else if (!absl::SimpleAtoi(*value, &cpu) || cpu < 0 || cpu >= CPU_SETSIZE) {
    return absl::InvalidArgumentError(
        absl::StrCat("--bloomgate_cpu takes a CPU number or \"", kAnyCpu,
                     "\", not \"", *value, "\""));
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (sched_setaffinity(0, sizeof(set), &set) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        kCpuFlag, cpu, ": cannot run there: ", std::strerror(errno)));
  }
  return absl::StrCat(cpu, " (pinned)");
}

std::string PinToOneCpuOrExit(int* argc, char** argv) {
  absl::StatusOr<std::string> pinned = PinToOneCpu(argc, argv);
  if (!pinned.ok()) {
    std::fprintf(stderr, "%s: %s\n", argv[0],
                 std::string(pinned.status().message()).c_str());
    std::exit(1);
  }
  return *std::move(pinned);
}

}  // namespace bloomgate::bench
