// Copyright 2026 The bloomgate Authors.

#include "src/filter/kernel_check.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bloomgate/absl_compat.h"
#include "bloomgate/filter_options.h"
#include "bloomgate/hash.h"
#include "bloomgate/simd.h"
#include "src/filter/blocked_bloom.h"
#include "src/filter/format.h"
#include "src/filter/hash_store.h"

namespace bloomgate::internal {
namespace {

// About 8 keys a line, so that keys share lines and bytes; an odd count, so
// that the line index's multiply-shift is not a plain shift.
constexpr uint64_t kCheckLines = 127;
// Random hashes in the filter: enough that each of the hash store's groups
// holds runs of every length a fill may treat apart (a loop's chunks and
// its remainder, prefetches ahead).
constexpr size_t kFilledHashes = 1000;
// Hashes queried, in the filter and out of it: batches full and partial.
constexpr size_t kQueriedHashes = 200;
// Keys of 0 to kMaxKeyBytes bytes, in the filter and out of it, for the key
// queries: the inline hash's lengths and the longer ones.
constexpr size_t kMaxKeyBytes = 40;

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
  z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
  return z ^ (z >> 31);
}

// Key `i` of one of two disjoint families, i % (kMaxKeyBytes + 1) bytes long.
std::string CheckKey(char family, size_t i) {
  std::string key(i % (kMaxKeyBytes + 1), family);
  for (size_t j = 0; j < key.size(); ++j) {
    key[j] = static_cast<char>(key[j] ^ static_cast<char>(i * 31 + j * 7));
  }
  return key;
}

struct CheckSet {
  std::vector<std::string> present_keys, absent_keys;
  // The keys' hashes first (present[i] is present_keys[i]'s, i <
  // present_keys.size()), then random ones.
  std::vector<uint64_t> present, absent;
  // `present`, then more random hashes: what the filter holds.
  std::vector<uint64_t> filled;
};

CheckSet MakeCheckSet() {
  CheckSet set;
  for (size_t i = 0; i < 2 * (kMaxKeyBytes + 1); ++i) {
    set.present_keys.push_back(CheckKey('p', i));
    set.absent_keys.push_back(CheckKey('a', i));
  }
  for (const std::string& key : set.present_keys) {
    set.present.push_back(HashKey(key));
  }
  for (const std::string& key : set.absent_keys) {
    set.absent.push_back(HashKey(key));
  }
  uint64_t state = 0x626c6f6f6d676174;  // "bloomgat"
  for (size_t i = 0; i < kQueriedHashes; ++i) {
    set.present.push_back(SplitMix64(state));
    set.absent.push_back(SplitMix64(state));
  }
  set.filled = set.present;
  while (set.filled.size() < kFilledHashes) {
    set.filled.push_back(SplitMix64(state));
  }
  return set;
}

// The definition of a blocked query, written apart from every kernel.
bool DefinitionMayMatch(const uint8_t* bits, int num_probes, uint64_t hash) {
  const uint8_t* line = bits + BlockedLineIndex(hash, kCheckLines) * kLineBytes;
  const uint32_t seed = BlockedProbeSeed(hash);
  for (int i = 0; i < num_probes; ++i) {
    const uint32_t bit = BlockedProbeBit(seed, i);
    if (((line[bit >> 3] >> (bit & 7)) & 1) == 0) return false;
  }
  return true;
}

absl::Status Disagrees(const BlockedKernel& kernel, int num_probes,
                       const char* what) {
  return absl::InternalError(
      absl::StrCat("the ", ToAbsl(SimdKernelName(kernel.kernel)),
                   " kernel disagrees with the definition: ", what, " (",
                   num_probes, " probes)"));
}

// The kernel's answers for every hash of `hashes` (and their keys, where
// `keys` has them: keys[i] hashes to hashes[i]) against `want(hash)`.
template <typename Want>
absl::Status CheckAnswers(const BlockedKernel& kernel, int num_probes,
                          const uint8_t* bits,
                          const std::vector<std::string>& keys,
                          const std::vector<uint64_t>& hashes, Want want) {
  const FilterQueries& queries = kernel.queries[num_probes - 1];
  for (size_t i = 0; i < keys.size(); ++i) {
    if (queries.may_match_key(bits, kCheckLines, num_probes, keys[i].data(),
                              keys[i].size()) != want(hashes[i])) {
      return Disagrees(kernel, num_probes, "a key query");
    }
  }
  for (uint64_t hash : hashes) {
    if (queries.may_match_hash(bits, kCheckLines, num_probes, hash) !=
        want(hash)) {
      return Disagrees(kernel, num_probes, "a hash query");
    }
  }
  bool results[kMaxQueryBatch];
  for (size_t start = 0; start < hashes.size(); start += kMaxQueryBatch) {
    const size_t n = std::min(kMaxQueryBatch, hashes.size() - start);
    queries.may_match_batch(bits, kCheckLines, num_probes,
                            hashes.data() + start, n, results);
    for (size_t i = 0; i < n; ++i) {
      if (results[i] != want(hashes[start + i])) {
        return Disagrees(kernel, num_probes, "a batch query");
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckBlockedKernel(const BlockedKernel& kernel) {
  const CheckSet set = MakeCheckSet();
  HashStore store;
  for (uint64_t hash : set.filled) store.Add(hash);

  std::vector<uint8_t> filled(kCheckLines * kLineBytes);
  std::vector<uint8_t> defined(kCheckLines * kLineBytes);
  for (int num_probes = 1; num_probes <= kMaxBlockedProbes; ++num_probes) {
    std::fill(defined.begin(), defined.end(), 0);
    for (uint64_t hash : set.filled) {
      BlockedAdd(BlockedProbeSeed(hash), num_probes,
                 LineOf(defined.data(), kCheckLines, hash));
    }
    for (bool prefetch : {false, true}) {
      std::fill(filled.begin(), filled.end(), 0);
      kernel.fill(store, kCheckLines, num_probes, prefetch, filled.data());
      if (filled != defined) {
        return Disagrees(kernel, num_probes, "its fill sets other bits");
      }
    }
    const uint8_t* bits = defined.data();
    absl::Status s = CheckAnswers(kernel, num_probes, bits, set.present_keys,
                                  set.present, [](uint64_t) { return true; });
    if (!s.ok()) return s;
    s = CheckAnswers(kernel, num_probes, bits, set.absent_keys, set.absent,
                     [&](uint64_t hash) {
                       return DefinitionMayMatch(bits, num_probes, hash);
                     });
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace bloomgate::internal
