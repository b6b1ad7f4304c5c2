// Copyright 2026 The bloomgate Authors.
//
// Any text as a filter's name, as RocksDB's OPTIONS files and options
// strings hand it to the policy's factory (FilterSpec::Parse): it must
// never crash, and a name it accepts must be valid and read back from its
// canonical form as the same spec.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "bloomgate/filter_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<bloomgate::FilterSpec> spec =
      bloomgate::FilterSpec::Parse(text);
  if (!spec.ok()) return 0;
  if (!spec->Validate().ok()) __builtin_trap();
  absl::StatusOr<bloomgate::FilterSpec> back =
      bloomgate::FilterSpec::Parse(spec->Name());
  if (!back.ok() || !(*back == *spec)) __builtin_trap();
  return 0;
}
