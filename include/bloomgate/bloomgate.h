// Copyright 2026 The bloomgate Authors.
//
// The filter core in one include. The RocksDB plug-in and the miniature LSM
// have headers of their own (rocksdb_filter_policy.h, lsm/store.h).

#ifndef BLOOMGATE_BLOOMGATE_H_
#define BLOOMGATE_BLOOMGATE_H_

#include "bloomgate/filter_builder.h"  // IWYU pragma: export
#include "bloomgate/filter_options.h"  // IWYU pragma: export
#include "bloomgate/filter_reader.h"   // IWYU pragma: export
#include "bloomgate/filter_spec.h"     // IWYU pragma: export
#include "bloomgate/hash.h"            // IWYU pragma: export
#include "bloomgate/simd.h"            // IWYU pragma: export
#include "bloomgate/sizing.h"          // IWYU pragma: export

#endif  // BLOOMGATE_BLOOMGATE_H_
