# What tools/test and tools/test-rocksdb share. Sourced, not run.

# The flags RocksDB's own x86-64 build compiles a plugin's sources with
# (RocksDB's CMakeLists.txt and Makefile: frame pointers kept but in leaf
# functions, no builtin memcmp). With GCC 12 they once made a kernel
# miscompile where the default build did not (docs/filter-core-design.md).
rocksdb_plugin_cxx_flags="-fno-omit-frame-pointer -momit-leaf-frame-pointer -fno-builtin-memcmp"

# Runs, in build folder $1, the tests whose answers depend on the SIMD
# kernel under every kernel this CPU has but the one already run ($2, or
# none), as the build's own `bloomgate simd` lists them: a kernel that failed
# its check at first use is missing from that list, and the filter tests'
# KernelCheckTest fails on it. Those tests: the filter core's (CTest label
# filter, tests/CMakeLists.txt) and the RocksDB adapter's filter-bits readers
# (FilterBits*; its database tests reach the same readers through RocksDB).
ctest_other_kernels() {
  local build=$1 done_kernel=${2:-} kernel supported
  read -r -a supported < <("$build/bin/bloomgate" simd | grep '^supported:')
  for kernel in "${supported[@]:1}"; do
    [[ "$kernel" == "$done_kernel" ]] && continue
    echo "== the kernel's tests in $build/ with BLOOMGATE_SIMD=$kernel"
    BLOOMGATE_SIMD="$kernel" ctest --test-dir "$build" --output-on-failure \
      -j "$(nproc)" -L '^filter$'
    BLOOMGATE_SIMD="$kernel" ctest --test-dir "$build" --output-on-failure \
      -j "$(nproc)" -L '^rocksdb$' -R '^FilterBits'
  done
}

# The kernel the build's binaries run under in this environment: the widest
# this CPU has, or the one BLOOMGATE_SIMD forces.
active_kernel() {
  "$1/bin/bloomgate" simd | sed -n 's/^active: //p'
}

# A tool a check needs: missing in CI is an error (the check would pass by
# not running); elsewhere a message says what is not checked.
#   require_tool <command> <package> <what is not checked without it>
# Returns 1 (outside CI) when the tool is missing.
require_tool() {
  command -v "$1" >/dev/null && return 0
  if [[ -n "${CI:-}" ]]; then
    echo "$(basename "$0"): $1 is missing (package $2), so $3 cannot run" >&2
    exit 1
  fi
  echo "$(basename "$0"): NOT CHECKED: $3 ($1 is missing: install $2)" >&2
  return 1
}
