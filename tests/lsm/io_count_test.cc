// Copyright 2026 The bloomgate Authors.
//
// The store's read counts against the operating system's: the change in
// this thread's read system calls (`syscr` in /proc/thread-self/io) over a
// run of Gets equals the data-block reads the store counted, exactly; and
// over an Open, the table-open plus recovery reads. Only this thread is
// measured, so nothing else in the process can disturb the window.

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "tests/lsm/test_util.h"

namespace bloomgate::lsm {
namespace {

using testing::Key;

// This thread's read system calls so far, or -1 if the kernel does not say.
// The read below is itself a system call; it is counted after the value it
// returns was produced, so each sample adds one to the next.
int64_t ThreadSyscr() {
  int fd = ::open("/proc/thread-self/io", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[512];
  const ssize_t n = ::read(fd, buf, sizeof(buf) - 1);
  ::close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  const char* p = std::strstr(buf, "syscr:");
  if (p == nullptr) return -1;
  return std::strtoll(p + 6, nullptr, 10);
}

// Read calls the sampling itself adds between two samples.
int64_t SamplingOverhead() {
  const int64_t a = ThreadSyscr();
  const int64_t b = ThreadSyscr();
  return b - a;
}

struct IoParam {
  bool filter;
  bool direct;
};

class IoCountTest : public ::testing::TestWithParam<IoParam> {};

TEST_P(IoCountTest, CountedReadsEqualTheThreadsReadSyscalls) {
  if (ThreadSyscr() < 0) GTEST_SKIP() << "no /proc/thread-self/io";
  const IoParam p = GetParam();
  // The store is written on the fast test folder; with direct I/O it is
  // then copied to /tmp, whose file system (ext4 here) grants O_DIRECT
  // where tmpfs may not.
  testing::TempDir build_dir;
  testing::TempDir direct_dir("/tmp");
  StoreOptions o = testing::SmallOptions();
  if (!p.filter) o.filter = kNoFilter;
  o.write_buffer_size = 32 << 10;
  {
    auto store = Store::Open(build_dir.Sub("db"), o);
    ASSERT_TRUE(store.ok()) << store.status();
    for (int i = 0; i < 20000; ++i) {
      ASSERT_OK(
          (*store)->Put(Key((i * 7919) % 20000 * 2), std::string(40, 'v')));
    }
    // Leave writes in the WAL so that the reopen below replays it.
    ASSERT_OK((*store)->Close());
  }
  std::string db = build_dir.Sub("db");
  if (p.direct) {
    testing::CopyDir(db, direct_dir.Sub("db"));
    db = direct_dir.Sub("db");
  }
  o.use_direct_reads = p.direct;

  // Open: manifest and WAL reads (read) plus table footers and metadata
  // (pread).
  const int64_t overhead = SamplingOverhead();
  ASSERT_GE(overhead, 1);
  int64_t before = ThreadSyscr();
  auto store = Store::Open(db, o);
  int64_t after = ThreadSyscr();
  ASSERT_TRUE(store.ok()) << store.status();
  // The case is about direct reads: a file system that refused O_DIRECT
  // would leave it counting buffered ones.
  ASSERT_EQ((*store)->direct_reads(), p.direct) << db;
  IoStats s = (*store)->GetStats();
  EXPECT_GT(s.table_open_reads, 4u);
  EXPECT_GT(s.recovery_reads, 1u);
  EXPECT_EQ(after - before - overhead,
            static_cast<int64_t>(s.table_open_reads + s.recovery_reads +
                                 s.compaction_reads));

  // Gets: only data-block reads, and every one of them counted.
  (*store)->ResetStats();
  std::mt19937_64 rng(7);
  std::vector<std::string> keys;
  for (int i = 0; i < 4000; ++i) {
    const uint64_t k = rng() % 40000;  // even keys exist, odd ones do not
    keys.push_back(Key(k));
  }
  before = ThreadSyscr();
  uint64_t found = 0;
  for (const std::string& k : keys) {
    auto v = (*store)->Get(k);
    if (!v.ok()) break;
    found += v->has_value();
  }
  after = ThreadSyscr();
  s = (*store)->GetStats();
  ASSERT_EQ(s.gets, keys.size());
  EXPECT_EQ(s.hits, found);
  EXPECT_GT(s.total.data_block_reads, 1000u);
  EXPECT_EQ(after - before - overhead,
            static_cast<int64_t>(s.total.data_block_reads));
  EXPECT_EQ(s.total.data_block_reads, s.hit_reads + s.miss_reads);
  std::printf(
      "filter=%d direct=%d: %llu Gets, %llu counted reads, syscr delta "
      "%lld (overhead %lld)\n",
      p.filter, (*store)->direct_reads(),
      static_cast<unsigned long long>(s.gets),
      static_cast<unsigned long long>(s.total.data_block_reads),
      static_cast<long long>(after - before), static_cast<long long>(overhead));
}

INSTANTIATE_TEST_SUITE_P(Modes, IoCountTest,
                         ::testing::Values(IoParam{true, false},
                                           IoParam{false, false},
                                           IoParam{true, true}),
                         [](const ::testing::TestParamInfo<IoParam>& info) {
                           return std::string(info.param.filter ? "filter"
                                                                : "nofilter") +
                                  (info.param.direct ? "_direct" : "");
                         });

}  // namespace
}  // namespace bloomgate::lsm
