#!/bin/sh
# The portable build's promise: outside the kernels chosen at run time
# (functions named for their instruction set, blocked_kernels.cc), the core
# library uses no instruction beyond the x86-64 baseline. Lists every other
# function with an AVX (VEX/EVEX: mnemonics starting with v) or BMI2
# instruction, and fails if there is one.
#
#   baseline_isa_test.sh <objdump> <libbloomgate_core.a>
set -eu
"$1" -d --no-show-raw-insn -C "$2" | awk '
  /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
  fn ~ /Avx2/ { next }
  $2 ~ /^v[a-z]/ || $2 ~ /^(shlx|shrx|sarx|rorx|mulx|pdep|pext)$/ {
    if (!(fn in seen)) { print "beyond the baseline: " fn " (" $2 ")"; seen[fn] = 1; bad = 1 }
  }
  END { exit bad }'
echo "only the AVX2 kernel uses instructions beyond x86-64"
