#!/bin/sh
# The kernels' promise: a query kernel is one function from key (or hash) to
# answer, with the line, the probes and a short key's hash inlined. Some
# compiler flags make GCC call such helpers out of line from a function with
# a target attribute (docs/filter-core-design.md, "Compiler flags and the
# kernels"), which is slower. Lists every call a kernel function makes, other
# than to the out-of-line paths for long keys and to the C library's memset
# and memcpy, which compilers emit for loops over whole arrays (clang makes
# one for a batch whose probe count is 0, a path never taken), and fails if
# there is one, or if no function matches the pattern (a renamed kernel
# would otherwise pass unexamined).
#
#   kernels_inline_test.sh <objdump> <library> <kernel function regex>
set -eu
# -r: in an unlinked library a call's target is its relocation, the line
# after the call.
"$1" -dr --no-show-raw-insn -C "$2" | awk -v kernels="$3" '
  function judge(target) {
    if (target !~ /HashKey|LongKey|BitsReader::MayMatch|memset|memcpy/) {
      print "not inlined in " fn ": " target; bad = 1
    }
  }
  /^[0-9a-f]+ <.*>:$/ {
    fn = $0; in_kernel = (fn ~ kernels); call = ""; kernels_seen += in_kernel
    next
  }
  !in_kernel { next }
  call != "" { judge($0 ~ /R_X86_64/ ? $0 : call); call = "" }
  $2 == "call" { call = $0 }
  END {
    if (call != "") judge(call)
    if (kernels_seen == 0) { print "no function matches " kernels; exit 1 }
    print kernels_seen " kernel functions examined"
    exit bad
  }'
echo "the kernels call nothing but the long keys' paths"
