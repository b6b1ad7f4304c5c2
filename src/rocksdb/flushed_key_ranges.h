// Copyright 2026 The bloomgate Authors.
//
// What a level-aware policy without a live tree knows of where a flush will
// end up: RocksDB moves a flushed file whose keys overlap nothing below it
// to the last level without rewriting it (a trivial move), as it does every
// flush when keys arrive in order. The policy keeps the keys flushed so far
// and gives such a flush the budget rather than level 0's share
// (docs/rocksdb-plugin.md, "Keys in order").
//
// Not a public header.

#ifndef BLOOMGATE_SRC_ROCKSDB_FLUSHED_KEY_RANGES_H_
#define BLOOMGATE_SRC_ROCKSDB_FLUSHED_KEY_RANGES_H_

#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace bloomgate::rocksdb_internal {

// The keys flushed so far, per column family, as one bytewise range.
// Thread-safe.
class FlushedKeyRanges {
 public:
  struct Outside {
    // [first, last] lies outside every key flushed to the column family
    // before; true for the first flush: with nothing below it, RocksDB
    // moves that file down too.
    bool outside = false;
    // ... and this is the second such flush, the first after the first
    // flush of the database: the time to say so, once.
    bool say = false;
  };

  // Whether [first, last] (either order) lies outside every key flushed to
  // `cf` before; then adds it.
  Outside Add(const std::string& cf, std::string_view first,
              std::string_view last);

 private:
  struct Range {
    Range(std::string_view min, std::string_view max) : min(min), max(max) {}
    std::string min, max;
    int outside_flushes = 0;
  };
  std::mutex mu_;
  std::map<std::string, Range> ranges_;
};

}  // namespace bloomgate::rocksdb_internal

#endif  // BLOOMGATE_SRC_ROCKSDB_FLUSHED_KEY_RANGES_H_
