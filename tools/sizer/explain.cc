// Copyright 2026 The bloomgate Authors.

#include "tools/sizer/explain.h"

#include <openssl/evp.h>

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace bloomgate::tools {
namespace {

uint64_t Sha256Prefix(const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(text.data(), text.size(), digest, &length, EVP_sha256(), nullptr);
  uint64_t prefix = 0;
  for (int i = 0; i < 8; ++i) prefix = (prefix << 8) | digest[i];
  return prefix;
}

std::string Positions(const std::vector<uint64_t>& positions) {
  return absl::StrCat("[", absl::StrJoin(positions, ", "), "]");
}

}  // namespace

std::vector<uint64_t> TextbookPositions(std::string_view key, uint64_t num_bits,
                                        int num_probes) {
  std::vector<uint64_t> positions;
  for (int i = 0; i < num_probes; ++i) {
    positions.push_back(Sha256Prefix(absl::StrCat(i, ":", std::string(key))) %
                        num_bits);
  }
  return positions;
}

absl::StatusOr<std::string> Explain(const ExplainRequest& request) {
  if (request.num_bits < 1 || request.num_bits > kMaxExplainBits) {
    return absl::InvalidArgumentError(
        absl::StrCat("--m must be in [1, ", kMaxExplainBits, "]"));
  }
  if (request.num_probes < 1 || request.num_probes > kMaxExplainProbes) {
    return absl::InvalidArgumentError(
        absl::StrCat("--k must be in [1, ", kMaxExplainProbes, "]"));
  }
  const uint64_t m = request.num_bits;
  const int k = request.num_probes;
  std::vector<bool> bits(m);
  std::string out = absl::StrFormat(
      "A textbook Bloom filter of m = %d bits and k = %d probes. Probe i of "
      "key x is\nSHA-256(\"i:x\"), first 8 bytes big-endian, mod m (the "
      "textbook "
      "example's scheme).\n\n",
      m, k);
  for (const std::string& key : request.add) {
    const std::vector<uint64_t> positions = TextbookPositions(key, m, k);
    for (uint64_t p : positions) bits[p] = true;
    absl::StrAppendFormat(&out, "add   %-12s sets bits %s\n", key,
                          Positions(positions));
  }
  const auto set = std::count(bits.begin(), bits.end(), true);
  absl::StrAppend(&out, "\nbit   ");
  for (uint64_t i = 0; i < m; ++i) absl::StrAppendFormat(&out, "%3d", i);
  absl::StrAppend(&out, "\nvalue ");
  for (uint64_t i = 0; i < m; ++i)
    absl::StrAppendFormat(&out, "%3d", bits[i] ? 1 : 0);
  absl::StrAppendFormat(&out, "   (%d of %d set)\n\n", set, m);

  const std::set<std::string> added(request.add.begin(), request.add.end());
  for (const std::string& key : request.query) {
    const std::vector<uint64_t> positions = TextbookPositions(key, m, k);
    std::vector<uint64_t> clear;
    for (uint64_t p : positions) {
      if (!bits[p]) clear.push_back(p);
    }
    absl::StrAppendFormat(&out, "query %-12s probes %s: ", key,
                          Positions(positions));
    if (!clear.empty()) {
      absl::StrAppendFormat(
          &out, "bit %s is 0 -> definitely absent (skip the read)\n",
          absl::StrJoin(clear, ", "));
    } else if (added.count(key)) {
      absl::StrAppend(&out, "all set -> maybe present (it was added)\n");
    } else {
      absl::StrAppend(&out,
                      "all set -> maybe present (a false positive: it was "
                      "never added)\n");
    }
  }
  return out;
}

}  // namespace bloomgate::tools
