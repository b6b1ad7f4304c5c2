// Copyright 2026 The bloomgate Authors.
//
// The I/O statistics: the tables of counters name every field once, and
// what the store does with them (sums, copies from the recorder, clearing,
// ToString's text) covers every field.

#include "bloomgate/lsm/stats.h"

#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "gtest/gtest.h"
#include "src/lsm/stats_recorder.h"

namespace bloomgate::lsm {
namespace {

// Every field of a LevelStats set to a distinct value, by hand, starting at
// `base`.
LevelStats HandBuiltLevel(uint64_t base) {
  LevelStats s;
  s.files_considered = base + 1;
  s.skipped_by_range = base + 2;
  s.filter_checks = base + 3;
  s.filter_negatives = base + 4;
  s.filter_positives = base + 5;
  s.false_positives = base + 6;
  s.predicted_false_positives = static_cast<double>(base) + 7.5;
  s.data_block_reads = base + 8;
  s.data_block_bytes = base + 9;
  s.data_block_read_nanos = base + 10;
  s.num_files = base + 11;
  s.file_bytes = base + 12;
  s.num_entries = base + 13;
  s.filter_bytes = 1024 * (base + 14);
  s.filter_keys = base + 15;
  s.degraded_filters = base + 16;
  return s;
}

IoStats HandBuiltStore() {
  IoStats s;
  s.levels = {HandBuiltLevel(0), LevelStats(), HandBuiltLevel(100)};
  s.total = HandBuiltLevel(1000);
  s.gets = 21;
  s.hits = 22;
  s.misses = 23;
  s.memtable_hits = 24;
  s.hit_reads = 25;
  s.miss_reads = 26;
  s.table_open_reads = 27;
  s.table_open_bytes = 28;
  s.compaction_reads = 29;
  s.compaction_bytes = 30;
  s.recovery_reads = 31;
  s.recovery_bytes = 32;
  s.flushes = 33;
  s.compactions = 34;
  s.wal_bytes = 35;
  s.table_bytes_written = 36;
  return s;
}

// Each field of a LevelStats by its name, listed by hand (not from the
// tables), as doubles.
std::map<std::string, double> ByHand(const LevelStats& s) {
  return {
      {"files_considered", s.files_considered},
      {"skipped_by_range", s.skipped_by_range},
      {"filter_checks", s.filter_checks},
      {"filter_negatives", s.filter_negatives},
      {"filter_positives", s.filter_positives},
      {"false_positives", s.false_positives},
      {"predicted_false_positives", s.predicted_false_positives},
      {"data_block_reads", s.data_block_reads},
      {"data_block_bytes", s.data_block_bytes},
      {"data_block_read_nanos", s.data_block_read_nanos},
      {"num_files", s.num_files},
      {"file_bytes", s.file_bytes},
      {"num_entries", s.num_entries},
      {"filter_bytes", s.filter_bytes},
      {"filter_keys", s.filter_keys},
      {"degraded_filters", s.degraded_filters},
  };
}

std::map<std::string, double> ByHand(const StoreStats& s) {
  return {
      {"gets", s.gets},
      {"hits", s.hits},
      {"misses", s.misses},
      {"memtable_hits", s.memtable_hits},
      {"hit_reads", s.hit_reads},
      {"miss_reads", s.miss_reads},
      {"table_open_reads", s.table_open_reads},
      {"table_open_bytes", s.table_open_bytes},
      {"compaction_reads", s.compaction_reads},
      {"compaction_bytes", s.compaction_bytes},
      {"recovery_reads", s.recovery_reads},
      {"recovery_bytes", s.recovery_bytes},
      {"flushes", s.flushes},
      {"compactions", s.compactions},
      {"wal_bytes", s.wal_bytes},
      {"table_bytes_written", s.table_bytes_written},
  };
}

// The same, read through the tables.
std::map<std::string, double> ByTable(const LevelStats& s) {
  std::map<std::string, double> out;
  for (const auto& f : kLevelLookupStatFields)
    out[std::string(f.name)] = f.Value(s);
  for (const auto& f : kLevelShapeStatFields)
    out[std::string(f.name)] = f.Value(s);
  return out;
}

std::map<std::string, double> ByTable(const StoreStats& s) {
  std::map<std::string, double> out;
  for (const auto& f : kStoreStatFields) out[std::string(f.name)] = f.Value(s);
  return out;
}

// [a-z][a-z0-9]*(_[a-z0-9]+)*: lower case words joined by single underscores.
bool IsSnakeCase(std::string_view name) {
  if (name.empty() || !std::islower(static_cast<unsigned char>(name.front())) ||
      name.back() == '_') {
    return false;
  }
  for (size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '_') {
      if (name[i - 1] == '_') return false;
    } else if (!std::islower(c) && !std::isdigit(c)) {
      return false;
    }
  }
  return true;
}

template <typename Stats, size_t N>
void ExpectWellFormed(const StatField<Stats> (&fields)[N],
                      std::set<std::string>* names) {
  for (const StatField<Stats>& f : fields) {
    const std::string name(f.name);
    EXPECT_TRUE(IsSnakeCase(name)) << name;
    EXPECT_TRUE(names->insert(name).second) << name << " is listed twice";
    EXPECT_FALSE(f.description.empty()) << name;
    EXPECT_NE(f.count == nullptr, f.sum == nullptr) << name;
  }
}

TEST(StatFieldsTest, NamesAreUniqueSnakeCaseAndDescribed) {
  std::set<std::string> names;
  ExpectWellFormed(kLevelLookupStatFields, &names);
  ExpectWellFormed(kLevelShapeStatFields, &names);
  ExpectWellFormed(kStoreStatFields, &names);
  EXPECT_EQ(names.size(), 32u);
  // The check itself tells names apart.
  EXPECT_TRUE(IsSnakeCase("data_block_reads2"));
  for (const char* bad : {"", "Reads", "a__b", "_a", "a_", "2a", "a-b"}) {
    EXPECT_FALSE(IsSnakeCase(bad)) << bad;
  }
}

TEST(StatFieldsTest, TablesReachEveryFieldByItsOwnName) {
  const LevelStats level = HandBuiltLevel(0);
  EXPECT_EQ(ByTable(level), ByHand(level));
  const IoStats store = HandBuiltStore();
  EXPECT_EQ(ByTable(store), ByHand(store));
}

TEST(StatFieldsTest, AddingLevelStatsAddsEveryField) {
  const LevelStats a = HandBuiltLevel(0), b = HandBuiltLevel(100);
  LevelStats sum = a;
  sum += b;
  const std::map<std::string, double> got = ByHand(sum), x = ByHand(a),
                                      y = ByHand(b);
  for (const auto& [name, value] : got) {
    EXPECT_EQ(value, x.at(name) + y.at(name)) << name;
  }
}

// The recorder counts every lookup counter at its level and every
// store-wide counter where it is recorded; Fill copies all of them; Reset
// clears all of them.
TEST(StatsRecorderTest, FillAndResetCoverEveryCounter) {
  StatsRecorder recorder(3);
  GetTally tallies[2];
  tallies[0] = HandBuiltLevel(0);  // the lookup part of it
  tallies[1] = HandBuiltLevel(100);
  recorder.RecordGet(tallies, 2, /*hit=*/true, /*memtable=*/false);
  recorder.RecordGet(tallies, 1, /*hit=*/false, /*memtable=*/false);
  recorder.RecordGet(nullptr, 0, /*hit=*/true, /*memtable=*/true);
  recorder.RecordTableOpen({.syscalls = 2, .bytes = 300});
  recorder.RecordCompaction({.syscalls = 5, .bytes = 7000}, 8000);
  recorder.RecordRecovery({.syscalls = 3, .bytes = 400});
  recorder.RecordFlush(900);
  recorder.RecordWal(50);

  IoStats out;
  out.levels.resize(3);
  recorder.Fill(&out);
  LevelStats level0 = HandBuiltLevel(0);  // twice, without the shape
  level0 += HandBuiltLevel(0);
  std::map<std::string, double> want0 = ByHand(level0);
  std::map<std::string, double> want1 = ByHand(HandBuiltLevel(100));
  for (const auto& f : kLevelShapeStatFields) {
    want0[std::string(f.name)] = 0;
    want1[std::string(f.name)] = 0;
  }
  EXPECT_EQ(ByHand(out.levels[0]), want0);
  EXPECT_EQ(ByHand(out.levels[1]), want1);
  EXPECT_EQ(ByHand(out.levels[2]), ByHand(LevelStats()));

  StoreStats want;
  want.gets = 3;
  want.hits = 2;
  want.misses = 1;
  want.memtable_hits = 1;
  want.hit_reads = 8 + 108;
  want.miss_reads = 8;
  want.table_open_reads = 2;
  want.table_open_bytes = 300;
  want.compaction_reads = 5;
  want.compaction_bytes = 7000;
  want.recovery_reads = 3;
  want.recovery_bytes = 400;
  want.flushes = 1;
  want.compactions = 1;
  want.wal_bytes = 50;
  want.table_bytes_written = 8000 + 900;
  EXPECT_EQ(ByHand(static_cast<const StoreStats&>(out)), ByHand(want));

  recorder.Reset();
  IoStats cleared;
  cleared.levels.resize(3);
  recorder.Fill(&cleared);
  for (const LevelStats& l : cleared.levels) {
    EXPECT_EQ(ByHand(l), ByHand(LevelStats()));
  }
  EXPECT_EQ(ByHand(static_cast<const StoreStats&>(cleared)),
            ByHand(StoreStats()));
}

TEST(IoStatsTest, ToStringIsPinned) {
  EXPECT_EQ(HandBuiltStore().ToString(),
            "gets 21 (hits 22, misses 23, memtable 24); reads/hit 1.1364, "
            "reads/miss 1.1304\n"
            "level   files considered range-skip     checks  negatives  "
            "positives  false-pos      reads  fp-obs% fp-pred% filter-KiB\n"
            "L0         11          1          2          3          4       "
            "   5          6          8  60.0000  75.0000       14.0\n"
            "L2        111        101        102        103        104       "
            " 105        106        108  50.4762  51.1905      114.0\n"
            "total    1011       1001       1002       1003       1004      "
            " 1005       1006       1008  50.0498  50.1244     1014.0\n"
            "other reads: table open 27, compaction 29, recovery 31; "
            "flushes 33, compactions 34\n");
}

}  // namespace
}  // namespace bloomgate::lsm
