// Copyright 2026 The bloomgate Authors.
//
// How a FilterReader answers: one function per kind of query, chosen once
// when the reader is constructed (filter_reader.cc) from a blocked kernel's
// table (blocked_kernels.h), the standard layout's, or a constant answer.

#ifndef BLOOMGATE_SRC_FILTER_FILTER_QUERIES_H_
#define BLOOMGATE_SRC_FILTER_FILTER_QUERIES_H_

#include "bloomgate/filter_reader.h"

namespace bloomgate::internal {

struct FilterQueries {
  // Hashes the key as HashKey (bloomgate/hash.h) does, then probes.
  FilterReader::KeyQuery may_match_key;
  FilterReader::HashQuery may_match_hash;
  // results[i] for hashes[i], i < n <= kMaxQueryBatch (blocked_kernels.h).
  FilterReader::BatchQuery may_match_batch;
};

}  // namespace bloomgate::internal

#endif  // BLOOMGATE_SRC_FILTER_FILTER_QUERIES_H_
