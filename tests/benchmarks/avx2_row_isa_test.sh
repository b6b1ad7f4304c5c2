#!/bin/sh
# The like-for-like row is only that if RocksDB's query really compiled with
# AVX2: its header chooses the AVX2 path by a macro (HAVE_AVX2, or __AVX2__
# since RocksDB 9), and without it silently compiles the scalar one. Fails
# unless the AVX2 reader's query (inlined into it, or RocksDB's
# HashMayMatchPrepared beside it) uses VPERMD, the AVX2 path's permute.
#
#   avx2_row_isa_test.sh <objdump> <bloomgate_benchmarks>
set -eu
"$1" -d --no-show-raw-insn -C "$2" | awk '
  /^[0-9a-f]+ <.*>:$/ {
    query = ($0 ~ /Avx2BloomReader::MayMatch\(rocksdb::Slice const&\)|FastLocalBloomImpl::HashMayMatchPrepared/)
    next
  }
  query && $2 == "vpermd" { found = 1 }
  END {
    if (!found) {
      print "rocksdb_bloom_avx2 runs no AVX2 permute: RocksDB'"'"'s scalar query was compiled"
      exit 1
    }
  }'
echo "rocksdb_bloom_avx2 runs RocksDB's AVX2 query"
