// Copyright 2026 The bloomgate Authors.

#include "benchmarks/rocksdb_avx2_bloom.h"

// Everything util/bloom_impl.h includes comes first, compiled for the
// baseline like the rest of the binary; only the functions bloom_impl.h
// itself defines fall under the AVX2 target below. (Debian's librocksdb
// inlines them all and exports none, so these copies cannot replace the
// library's own.)
#include <immintrin.h>

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "port/port.h"
#include "rocksdb/slice.h"
#include "util/hash.h"

// The header picks its AVX2 query by HAVE_AVX2 up to RocksDB 8.x and by the
// compiler's __AVX2__ since; the pragma alone defines neither.
#pragma GCC push_options
#pragma GCC target("avx2")
#define HAVE_AVX2 1
#ifndef __AVX2__
#define __AVX2__ 1
#define BLOOMGATE_DEFINED_AVX2
#endif
#include "util/bloom_impl.h"
#ifdef BLOOMGATE_DEFINED_AVX2
#undef __AVX2__
#undef BLOOMGATE_DEFINED_AVX2
#endif
#undef HAVE_AVX2

// The reader is compiled for AVX2 too, as in a RocksDB built with -mavx2:
// GCC inlines the header's functions only into functions of the same
// target, and compiled for the baseline, the reader called PrepareHash and
// HashMayMatchPrepared out of line, two calls per key RocksDB does not make.
namespace bloomgate::bench {
namespace {

using rocksdb::FastLocalBloomImpl;

// RocksDB's Bloom block: the bit array, then 5 bytes of metadata: -1 (a
// newer Bloom), 0 (FastLocalBloom), the probe count in the low 5 bits of
// the next byte (64-byte lines when its top 3 bits are 0), 2 reserved bytes.
constexpr size_t kMetadataBytes = 5;

class Avx2BloomReader final : public rocksdb::FilterBitsReader {
 public:
  Avx2BloomReader(const char* data, uint32_t len_bytes, int num_probes)
      : data_(data), len_bytes_(len_bytes), num_probes_(num_probes) {}

  // What RocksDB's FastLocalBloomBitsReader does, with the AVX2 probe.
  bool MayMatch(const rocksdb::Slice& key) override {
    const uint64_t h = rocksdb::Hash64(key.data(), key.size());
    uint32_t byte_offset;
    FastLocalBloomImpl::PrepareHash(static_cast<uint32_t>(h), len_bytes_, data_,
                                    &byte_offset);
    return FastLocalBloomImpl::HashMayMatchPrepared(
        static_cast<uint32_t>(h >> 32), num_probes_, data_ + byte_offset);
  }

  // As RocksDB's batch: every line prefetched, then every key probed.
  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override {
    constexpr int kMaxBatch = 64;
    uint32_t upper[kMaxBatch];
    uint32_t offset[kMaxBatch];
    for (int start = 0; start < num_keys; start += kMaxBatch) {
      const int n = std::min(kMaxBatch, num_keys - start);
      for (int i = 0; i < n; ++i) {
        const rocksdb::Slice& key = *keys[start + i];
        const uint64_t h = rocksdb::Hash64(key.data(), key.size());
        upper[i] = static_cast<uint32_t>(h >> 32);
        FastLocalBloomImpl::PrepareHash(static_cast<uint32_t>(h), len_bytes_,
                                        data_, &offset[i]);
      }
      for (int i = 0; i < n; ++i) {
        may_match[start + i] = FastLocalBloomImpl::HashMayMatchPrepared(
            upper[i], num_probes_, data_ + offset[i]);
      }
    }
  }

 private:
  const char* data_;
  uint32_t len_bytes_;
  int num_probes_;
};

class HashOnlyReader final : public rocksdb::FilterBitsReader {
 public:
  bool MayMatch(const rocksdb::Slice& key) override {
    return rocksdb::Hash64(key.data(), key.size()) >> 63;
  }
  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override {
    for (int i = 0; i < num_keys; ++i) may_match[i] = MayMatch(*keys[i]);
  }
};

}  // namespace
}  // namespace bloomgate::bench
#pragma GCC pop_options

namespace bloomgate::bench {

std::unique_ptr<rocksdb::FilterBitsReader> NewRocksdbAvx2BloomReader(
    const rocksdb::Slice& block) {
  if (block.size() <= kMetadataBytes) return nullptr;
  const size_t len = block.size() - kMetadataBytes;
  const auto* meta = reinterpret_cast<const uint8_t*>(block.data() + len);
  const int num_probes = meta[2] & 0x1f;
  if (meta[0] != 0xff || meta[1] != 0 || (meta[2] >> 5) != 0 ||
      num_probes == 0 || num_probes == 31 || len % 64 != 0) {
    return nullptr;
  }
  return std::make_unique<Avx2BloomReader>(
      block.data(), static_cast<uint32_t>(len), num_probes);
}

std::unique_ptr<rocksdb::FilterBitsReader> NewRocksdbHashOnlyReader() {
  return std::make_unique<HashOnlyReader>();
}

}  // namespace bloomgate::bench
