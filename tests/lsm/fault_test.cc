// Copyright 2026 The bloomgate Authors.
//
// bloomgate_lsm_fault_tests: what a user's faults do to a store, tried many
// times, ending with one summary line.
//
// Kill trials: a child process writes with sync_writes on and is killed
// with SIGKILL, either after a random number of acknowledgements or at the
// n-th named crash point of the write path (inside flushes, compactions,
// manifest replacement and recovery); the store is then reopened. Every
// acknowledged write is there, at most the one in flight is added, nothing
// else changed, every table the manifest lists exists, and files the store
// did not write are still there. The trials share one store, so later ones
// also recover recovered stores.
//
// Corruption trials: a copy of a closed store gets one fault (a flipped
// byte or a truncation of a table, WAL or MANIFEST; a deleted file; a stray
// file) and is opened. Open either fails with DataLoss naming what it found,
// having removed nothing, or serves every key with its right value or a
// DataLoss error for a damaged block. The only writes that may go missing
// are the WAL's own, and only when the WAL itself was cut or deleted: a
// prefix of them survives, and a cut inside a record is reported by
// Store::recovery(). A cut exactly at a record boundary, or a deleted WAL,
// looks like a shorter WAL and cannot be detected: the summary counts those.
//
// Usage: bloomgate_lsm_fault_tests [--kill_trials=N] [--corruption_trials=N]
// [gtest flags]. The defaults (120 and 600) take a few seconds; CI runs them.

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "src/lsm/crash_points.h"
#include "src/lsm/manifest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using State = std::map<std::string, std::string>;

int kill_trials = 120;
int corruption_trials = 600;
std::string kill_summary = "no kill trials run";
std::string corruption_summary = "no corruption trials run";

bool Mentions(const absl::Status& s, const std::string& what) {
  return std::string(s.message()).find(what) != std::string::npos;
}

// Every file of `dir` but LOCK, with its contents.
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name != "LOCK") out[name] = testing::ReadBytes(e.path().string());
  }
  return out;
}

// Tables the MANIFEST on disk lists that are not in the folder.
std::vector<std::string> MissingLiveTables(const std::string& dir) {
  std::vector<std::string> missing;
  auto m = DecodeManifest("MANIFEST", testing::ReadBytes(dir + "/MANIFEST"));
  if (!m.ok()) return {std::string(m.status().message())};
  for (const FileMeta& f : m->files) {
    const std::string path = TableFileName(dir, f.number);
    if (!std::filesystem::exists(path)) missing.push_back(path);
  }
  return missing;
}

// Files that are not the store's: they must survive every trial.
const std::map<std::string, std::string> kForeignFiles = {
    {"notes.txt", "not the store's"}, {"999.log", "nor this"}};

void PlantForeignFiles(const std::string& dir) {
  std::filesystem::create_directories(dir);
  for (const auto& [name, bytes] : kForeignFiles) {
    testing::WriteBytes(dir + "/" + name, bytes);
  }
}

int ForeignFilesLost(const std::string& dir) {
  int lost = 0;
  for (const auto& [name, bytes] : kForeignFiles) {
    if (testing::ReadBytes(dir + "/" + name) != bytes) {
      ADD_FAILURE() << dir << "/" << name << " was changed or removed";
      ++lost;
    }
  }
  return lost;
}

// --- Kill trials ---

constexpr int kKeySpace = 400;
constexpr int kOpsPerTrial = 300;

struct Op {
  WriteBatch batch;
  std::vector<std::pair<std::string, std::optional<std::string>>> updates;
};

// The deterministic operations of one trial.
std::vector<Op> MakeOps(int trial) {
  std::mt19937_64 rng(1000 + trial);
  std::vector<Op> ops(kOpsPerTrial);
  for (int i = 0; i < kOpsPerTrial; ++i) {
    const int n = 1 + static_cast<int>(rng() % 3);
    for (int j = 0; j < n; ++j) {
      const std::string key = Key(rng() % kKeySpace);
      if (rng() % 4 == 0) {
        ops[i].batch.Delete(key);
        ops[i].updates.emplace_back(key, std::nullopt);
      } else {
        std::string value = "t" + std::to_string(trial) + "o" +
                            std::to_string(i) + std::string(rng() % 100, 'x');
        ops[i].batch.Put(key, value);
        ops[i].updates.emplace_back(key, value);
      }
    }
  }
  return ops;
}

void Apply(const Op& op, State* s) {
  for (const auto& [k, v] : op.updates) {
    if (v.has_value()) {
      (*s)[k] = *v;
    } else {
      s->erase(k);
    }
  }
}

StoreOptions CrashOptions() {
  StoreOptions o = testing::SmallOptions();
  o.sync_writes = true;
  o.write_buffer_size = 4 << 10;
  o.target_file_size = 8 << 10;
  o.max_bytes_for_level_base = 24 << 10;
  o.level0_file_num_compaction_trigger = 2;
  return o;
}

// The crash points of src/lsm (crash_points.h); a child killed at one
// reports its index on the ack pipe as -(index + 1) first.
constexpr const char* kPoints[] = {"write:logged",
                                   "flush:log-rotated",
                                   "table:finished-unsynced",
                                   "flush:table-written",
                                   "manifest:tmp-synced",
                                   "manifest:renamed",
                                   "flush:installed",
                                   "compaction:cutting-output",
                                   "compaction:outputs-written",
                                   "compaction:installed",
                                   "open:before-manifest",
                                   "open:before-cleanup"};
constexpr int kNumPoints = sizeof(kPoints) / sizeof(kPoints[0]);

int crash_target = -1;  // index into kPoints
int crash_countdown = 0;
int crash_fd = -1;
void KillAtCountdown(const char* point) {
  if (std::string_view(point) != kPoints[crash_target]) return;
  if (--crash_countdown != 0) return;
  const int32_t id = -(crash_target + 1);
  (void)!::write(crash_fd, &id, sizeof(id));
  ::raise(SIGKILL);
}

// The child: writes the trial's ops, acknowledging each on `ack_fd` after
// the store accepted it. Never returns.
[[noreturn]] void RunChild(const std::string& dir, int trial, int ack_fd,
                           int crash_point, int occurrence) {
  if (crash_point >= 0) {
    crash_target = crash_point;
    crash_countdown = occurrence;
    crash_fd = ack_fd;
    SetCrashPointHook(&KillAtCountdown);
  }
  auto store = Store::Open(dir, CrashOptions());
  if (!store.ok()) ::_exit(3);
  const std::vector<Op> ops = MakeOps(trial);
  for (int i = 0; i < kOpsPerTrial; ++i) {
    if (!(*store)->Write(ops[i].batch).ok()) ::_exit(4);
    const int32_t ack = i;
    if (::write(ack_fd, &ack, sizeof(ack)) != sizeof(ack)) ::_exit(5);
  }
  ::_exit(0);
}

State ReadAll(Store& store, int key_space, bool* ok) {
  State s;
  *ok = true;
  for (int i = 0; i < key_space; ++i) {
    auto v = store.Get(Key(i));
    if (!v.ok()) {
      ADD_FAILURE() << v.status();
      *ok = false;
      return s;
    }
    if (v->has_value()) s[Key(i)] = **v;
  }
  return s;
}

TEST(FaultTest, AcknowledgedSyncedWritesSurviveSigkill) {
  // Timed kills and crash-point kills use separate stores, so that the
  // crash-point trials (and which points they reach) do not depend on where
  // a timed kill happened to land.
  testing::TempDir timed_dir, point_dir;
  PlantForeignFiles(timed_dir.path());
  PlantForeignFiles(point_dir.path());
  State models[2];
  std::mt19937_64 rng(42);
  int killed_mid_op = 0, by_crash_point = 0, completed = 0;
  int lost_writes = 0, missing_tables = 0, foreign_lost = 0;
  std::set<std::string> points_hit;
  for (int trial = 0; trial < kill_trials; ++trial) {
    const bool use_crash_point = trial % 2 == 1;
    const std::string& dir =
        use_crash_point ? point_dir.path() : timed_dir.path();
    State& model = models[use_crash_point];
    // Crash-point trials take the points in turn and kill at the n-th time
    // the point is reached (the first for recovery's own points).
    const int crash_point = use_crash_point ? (trial / 2) % kNumPoints : -1;
    const int occurrence = 1 + static_cast<int>(rng() % 4);
    const int kill_after = static_cast<int>(rng() % kOpsPerTrial);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(fds[0]);
      RunChild(dir, trial, fds[1], crash_point,
               crash_point >= kNumPoints - 2 ? 1 : occurrence);
    }
    ::close(fds[1]);
    int acked = 0;
    bool killed = false;
    int32_t ack;
    while (::read(fds[0], &ack, sizeof(ack)) == sizeof(ack)) {
      if (ack < 0) {
        ASSERT_GE(-ack, 1);
        ASSERT_LE(-ack, kNumPoints) << "unknown crash point";
        points_hit.insert(kPoints[-ack - 1]);
        continue;
      }
      ASSERT_EQ(ack, acked);
      ++acked;
      if (!use_crash_point && !killed && acked >= kill_after) {
        ::kill(pid, SIGKILL);
        killed = true;
      }
    }
    ::close(fds[0]);
    int status;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFSIGNALED(status)) {
      ASSERT_EQ(WTERMSIG(status), SIGKILL);
      ++killed_mid_op;
      by_crash_point += use_crash_point;
    } else {
      ASSERT_TRUE(WIFEXITED(status));
      ASSERT_EQ(WEXITSTATUS(status), 0) << "child failed in trial " << trial;
      ASSERT_EQ(acked, kOpsPerTrial);
      ++completed;
    }

    // Allowed outcomes: the acknowledged ops, plus perhaps the one in
    // flight.
    const std::vector<Op> ops = MakeOps(trial);
    State acked_state = model;
    for (int i = 0; i < acked; ++i) Apply(ops[i], &acked_state);
    State with_next = acked_state;
    if (acked < kOpsPerTrial) Apply(ops[acked], &with_next);

    const std::vector<std::string> missing = MissingLiveTables(dir);
    missing_tables += static_cast<int>(missing.size());
    for (const std::string& m : missing) ADD_FAILURE() << "missing " << m;
    auto store = Store::Open(dir, CrashOptions());
    ASSERT_TRUE(store.ok()) << "trial " << trial << ": " << store.status();
    bool ok;
    State got = ReadAll(**store, kKeySpace, &ok);
    ASSERT_TRUE(ok);
    if (got == acked_state) {
      model = acked_state;
    } else if (got == with_next) {
      model = with_next;
    } else {
      ++lost_writes;
      ADD_FAILURE() << "trial " << trial << ": state after " << acked
                    << " acknowledged ops matches neither outcome (crash "
                       "point "
                    << (crash_point >= 0 ? kPoints[crash_point] : "none")
                    << ")";
      model = got;
    }
    // The store keeps working after recovery.
    ASSERT_OK((*store)->Close());
    foreign_lost += ForeignFilesLost(dir);
  }
  kill_summary = absl::StrCat(
      kill_trials, " kill trials (", killed_mid_op, " killed, ", by_crash_point,
      " of them at crash points, ", completed, " completed): ", lost_writes,
      " lost synced writes, ", missing_tables, " live tables missing, ",
      foreign_lost, " foreign files lost");
  EXPECT_EQ(lost_writes, 0);
  EXPECT_EQ(missing_tables, 0);
  EXPECT_EQ(foreign_lost, 0);
  EXPECT_GE(killed_mid_op, kill_trials / 2);
  // Kills at crash points are deterministic (fixed seeds, no timing): every
  // point of flushes, compactions, manifest replacement and recovery.
  if (kill_trials >= 2 * kNumPoints) {
    for (const char* p : kPoints) EXPECT_TRUE(points_hit.count(p)) << p;
  }
}

// --- Corruption trials ---

constexpr int kCorruptionKeys = 2000;
constexpr int kWalOps = 20;

// A closed store whose tables hold `base` and whose WAL holds `wal_ops`
// after it, one single-key write per record.
struct CleanStore {
  State base;
  std::vector<std::pair<std::string, std::optional<std::string>>> wal_ops;
};

CleanStore MakeCleanStore(const std::string& dir) {
  CleanStore c;
  PlantForeignFiles(dir);
  auto store = Store::Open(dir, testing::SmallOptions());
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return c;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3 * kCorruptionKeys; ++i) {
    const std::string key = Key(rng() % kCorruptionKeys);
    if (rng() % 5 == 0) {
      EXPECT_OK((*store)->Delete(key));
      c.base.erase(key);
    } else {
      std::string value = absl::StrCat("v", i, std::string(rng() % 60, 'x'));
      EXPECT_OK((*store)->Put(key, value));
      c.base[key] = value;
    }
  }
  EXPECT_OK((*store)->Flush());
  for (int i = 0; i < kWalOps; ++i) {
    const std::string key = Key(rng() % kCorruptionKeys);
    std::optional<std::string> value;
    if (i % 4 != 3) value = absl::StrCat("wal", i);
    EXPECT_OK(value ? (*store)->Put(key, *value) : (*store)->Delete(key));
    c.wal_ops.emplace_back(key, value);
  }
  EXPECT_OK((*store)->Close());
  return c;
}

enum class Fault { kFlip, kTruncate, kDelete, kStrayTable, kStrayName };

struct Outcomes {
  int refused = 0;          // Open failed with DataLoss, nothing removed
  int all_right = 0;        // every value right
  int some_get_errors = 0;  // ... or a DataLoss naming a table
  int wal_prefix_reported = 0;
  int wal_prefix_silent = 0;  // cut at a record boundary, or WAL deleted
  int wrong_values = 0;
  int lost_writes = 0;
  int files_wrongly_removed = 0;
  int bad_errors = 0;  // an error of another kind, or naming nothing
};

void RunCorruptionTrial(const std::string& clean, const CleanStore& model,
                        const std::string& work, int trial, Outcomes* out) {
  std::mt19937_64 rng(9000 + trial);
  testing::CopyDir(clean, work);
  const std::map<std::string, std::string> before = Snapshot(work);
  std::vector<std::string> store_files;
  for (const auto& [name, bytes] : before) {
    if (!kForeignFiles.count(name)) store_files.push_back(name);
  }
  const Fault fault = static_cast<Fault>(rng() % 5);
  const std::string victim = store_files[rng() % store_files.size()];
  const std::string& victim_bytes = before.at(victim);
  const bool victim_is_wal = victim.ends_with(".log");
  const bool victim_is_table = victim.ends_with(".sst");
  std::string stray;
  switch (fault) {
    case Fault::kFlip: {
      std::string bytes = victim_bytes;
      if (bytes.empty()) return;
      bytes[rng() % bytes.size()] ^= static_cast<char>(1 + rng() % 255);
      testing::WriteBytes(work + "/" + victim, bytes);
      break;
    }
    case Fault::kTruncate: {
      if (victim_bytes.empty()) return;
      const size_t size = rng() % victim_bytes.size();
      testing::WriteBytes(work + "/" + victim, victim_bytes.substr(0, size));
      break;
    }
    case Fault::kDelete:
      std::filesystem::remove(work + "/" + victim);
      break;
    case Fault::kStrayTable: {
      // A table the manifest never knew of (e.g. an older MANIFEST put
      // back): Open must refuse rather than remove it or ignore it.
      auto m = DecodeManifest("MANIFEST", before.at("MANIFEST"));
      ASSERT_TRUE(m.ok());
      stray = std::filesystem::path(
                  TableFileName("", m->next_file_number + rng() % 1000))
                  .filename()
                  .string();
      testing::WriteBytes(
          work + "/" + stray,
          before.at(TableFileName("", m->files[0].number).substr(1)));
      break;
    }
    case Fault::kStrayName:
      // At most five digits: never a name the store writes.
      stray = absl::StrCat(rng() % 100000, rng() % 2 ? ".log" : ".sst");
      testing::WriteBytes(work + "/" + stray, "stray");
      break;
  }
  const std::map<std::string, std::string> faulted = Snapshot(work);

  auto store = Store::Open(work, testing::SmallOptions());
  if (!store.ok()) {
    if (!absl::IsDataLoss(store.status()) ||
        !(Mentions(store.status(), work) || Mentions(store.status(), victim) ||
          Mentions(store.status(), "MANIFEST"))) {
      ++out->bad_errors;
      ADD_FAILURE() << "trial " << trial << ": " << store.status();
    }
    if (Snapshot(work) != faulted) {
      ++out->files_wrongly_removed;
      ADD_FAILURE() << "trial " << trial << ": a failed Open changed files";
    }
    ++out->refused;
    return;
  }
  // Only WALs (replayed into a table) and leftovers the store wrote may go.
  const RecoveryReport& report = (*store)->recovery();
  for (const auto& [name, bytes] : faulted) {
    if (std::filesystem::exists(work + "/" + name)) continue;
    const bool removable = name.ends_with(".log") && name != stray;
    if (!removable) {
      ++out->files_wrongly_removed;
      ADD_FAILURE() << "trial " << trial << ": removed " << name;
    }
  }
  out->files_wrongly_removed += ForeignFilesLost(work);

  // Which prefix of the WAL's writes the store shows; a key answered with
  // an error says nothing.
  std::vector<State> candidates(kWalOps + 1, model.base);
  for (int j = 1; j <= kWalOps; ++j) {
    candidates[j] = candidates[j - 1];
    const auto& [k, v] = model.wal_ops[j - 1];
    if (v.has_value()) {
      candidates[j][k] = *v;
    } else {
      candidates[j].erase(k);
    }
  }
  std::vector<bool> possible(kWalOps + 1, true);
  int get_errors = 0;
  for (int i = 0; i < kCorruptionKeys; ++i) {
    auto got = (*store)->Get(Key(i));
    if (!got.ok()) {
      ++get_errors;
      if (!absl::IsDataLoss(got.status()) || !victim_is_table ||
          !Mentions(got.status(), victim)) {
        ++out->bad_errors;
        ADD_FAILURE() << "trial " << trial << ": " << got.status();
      }
      continue;
    }
    for (int j = 0; j <= kWalOps; ++j) {
      auto it = candidates[j].find(Key(i));
      const bool same = got->has_value()
                            ? it != candidates[j].end() && it->second == **got
                            : it == candidates[j].end();
      if (!same) possible[j] = false;
    }
  }
  int shown = -1;  // the longest prefix consistent with every answer
  for (int j = kWalOps; j >= 0; --j) {
    if (possible[j]) {
      shown = j;
      break;
    }
  }
  if (shown < 0) {
    ++out->wrong_values;
    ADD_FAILURE() << "trial " << trial << ": values match no prefix of the "
                  << "writes (fault " << static_cast<int>(fault) << " on "
                  << victim << ")";
    return;
  }
  if (shown < kWalOps) {
    const bool wal_damaged =
        victim_is_wal && (fault == Fault::kTruncate || fault == Fault::kDelete);
    if (!wal_damaged) {
      ++out->lost_writes;
      ADD_FAILURE() << "trial " << trial << ": only " << shown << " of "
                    << kWalOps << " WAL writes survived a fault on " << victim;
    } else if (report.wal_tail_bytes_dropped > 0) {
      ++out->wal_prefix_reported;
    } else {
      ++out->wal_prefix_silent;
    }
    return;
  }
  if (get_errors > 0) {
    ++out->some_get_errors;
  } else {
    ++out->all_right;
  }
}

TEST(FaultTest, CorruptedFilesNeverGiveWrongValuesOrLoseFiles) {
  testing::TempDir dir;
  const std::string clean = dir.Sub("clean");
  const CleanStore model = MakeCleanStore(clean);
  ASSERT_FALSE(model.base.empty());
  ASSERT_GT(testing::FilesWithSuffix(clean, ".sst").size(), 3u);
  Outcomes out;
  for (int trial = 0; trial < corruption_trials; ++trial) {
    RunCorruptionTrial(clean, model, dir.Sub("work"), trial, &out);
  }
  corruption_summary = absl::StrCat(
      corruption_trials, " corruption trials (", out.refused,
      " refused to open, ", out.all_right, " served every value, ",
      out.some_get_errors, " failed Gets on a damaged block, ",
      out.wal_prefix_reported, " recovered a WAL prefix and reported it, ",
      out.wal_prefix_silent,
      " recovered a WAL prefix silently: cut at a record boundary or "
      "deleted): ",
      out.wrong_values, " wrong values, ", out.lost_writes, " lost writes, ",
      out.files_wrongly_removed, " files wrongly removed, ", out.bad_errors,
      " unclear errors");
  EXPECT_EQ(out.wrong_values, 0);
  EXPECT_EQ(out.lost_writes, 0);
  EXPECT_EQ(out.files_wrongly_removed, 0);
  EXPECT_EQ(out.bad_errors, 0);
  if (corruption_trials >= 100) {
    EXPECT_GT(out.refused, 0);
    EXPECT_GT(out.some_get_errors, 0);
    EXPECT_GT(out.wal_prefix_reported, 0);
  }
}

class Summary : public ::testing::Environment {
 public:
  void TearDown() override {
    std::printf("faults: %s; %s\n", kill_summary.c_str(),
                corruption_summary.c_str());
  }
};

// Takes --name=N from argv, leaving the rest for gtest.
void TakeFlag(int* argc, char** argv, std::string_view name, int* value) {
  const std::string prefix = "--" + std::string(name) + "=";
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    std::string_view arg = argv[i];
    if (arg.starts_with(prefix)) {
      if (!absl::SimpleAtoi(std::string(arg.substr(prefix.size())), value) ||
          *value < 0) {
        std::fprintf(stderr, "bad value: %s\n", argv[i]);
        std::exit(2);
      }
      continue;
    }
    argv[out++] = argv[i];
  }
  *argc = out;
}

}  // namespace
}  // namespace bloomgate::lsm

int main(int argc, char** argv) {
  using namespace bloomgate::lsm;  // NOLINT
  TakeFlag(&argc, argv, "kill_trials", &kill_trials);
  TakeFlag(&argc, argv, "corruption_trials", &corruption_trials);
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new Summary);
  return RUN_ALL_TESTS();
}
