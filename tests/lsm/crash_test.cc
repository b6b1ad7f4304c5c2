// Copyright 2026 The bloomgate Authors.
//
// Kills a writing child process with SIGKILL and reopens the store: every
// acknowledged write (sync_writes on) is there, at most the one write in
// flight is added, nothing else changed, and the store opens. Trials kill
// either at a time chosen by the parent (after a random number of
// acknowledgements) or at the n-th named crash point of the write path
// (inside flushes, compactions, manifest replacement and recovery). The
// trials share one store, so later ones also recover recovered stores.

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "lsm/crash_points.h"
#include "test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;
using State = std::map<std::string, std::string>;

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

State ReadAll(Store& store, bool* ok) {
  State s;
  *ok = true;
  for (int i = 0; i < kKeySpace; ++i) {
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

TEST(CrashTest, AcknowledgedSyncedWritesSurviveSigkill) {
  // Timed kills and crash-point kills use separate stores, so that the
  // crash-point trials (and which points they reach) do not depend on where
  // a timed kill happened to land.
  testing::TempDir timed_dir, point_dir;
  State models[2];
  constexpr int kTrials = 40;
  std::mt19937_64 rng(42);
  int killed_mid_op = 0, by_crash_point = 0, completed = 0;
  std::set<std::string> points_hit;
  for (int trial = 0; trial < kTrials; ++trial) {
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

    auto store = Store::Open(dir, CrashOptions());
    ASSERT_TRUE(store.ok()) << "trial " << trial << ": " << store.status();
    bool ok;
    State got = ReadAll(**store, &ok);
    ASSERT_TRUE(ok);
    if (got == acked_state) {
      model = acked_state;
    } else {
      ASSERT_TRUE(got == with_next)
          << "trial " << trial << ": state after " << acked
          << " acknowledged ops matches neither outcome (crash point "
          << (crash_point >= 0 ? kPoints[crash_point] : "none") << ")";
      model = with_next;
    }
    // The store keeps working after recovery.
    ASSERT_OK((*store)->Close());
  }
  std::string hit;
  for (const std::string& p : points_hit) hit += " " + p;
  std::printf(
      "crash trials: %d killed (%d at crash points), %d completed; points:%s\n",
      killed_mid_op, by_crash_point, completed, hit.c_str());
  EXPECT_GE(killed_mid_op, kTrials / 2);
  // Kills at crash points are deterministic (fixed seeds, no timing): every
  // point of flushes, compactions, manifest replacement and recovery.
  for (const char* p : kPoints) EXPECT_TRUE(points_hit.count(p)) << p;
}

}  // namespace
}  // namespace bloomgate::lsm
