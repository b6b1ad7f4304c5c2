// Copyright 2026 The bloomgate Authors.
//
// Helpers shared by the LSM tests: a temporary folder, file bytes, and
// status assertions (Debian's abseil has no status matchers).

#ifndef BLOOMGATE_TESTS_LSM_TEST_UTIL_H_
#define BLOOMGATE_TESTS_LSM_TEST_UTIL_H_

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "bloomgate/lsm/store.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace bloomgate::lsm::testing {

#define ASSERT_OK(expr)                                            \
  do {                                                             \
    const absl::Status _s = (expr);                                \
    ASSERT_TRUE(_s.ok()) << #expr << " failed: " << _s.ToString(); \
  } while (0)
#define EXPECT_OK(expr)                                            \
  do {                                                             \
    const absl::Status _s = (expr);                                \
    EXPECT_TRUE(_s.ok()) << #expr << " failed: " << _s.ToString(); \
  } while (0)

// The folder tests put their stores in: $TEST_TMPDIR, else /dev/shm when
// it exists (fsync is free there, which keeps tests that flush thousands of
// times fast; crash semantics of a killed process are the same), else /tmp.
inline std::string TestBaseDir() {
  if (const char* env = std::getenv("TEST_TMPDIR")) return env;
  if (::access("/dev/shm", W_OK) == 0) return "/dev/shm";
  return "/tmp";
}

// A fresh folder under TestBaseDir() (or `base`), removed with its
// contents.
class TempDir : public test_support::TempDir {
 public:
  explicit TempDir(const std::string& base = TestBaseDir())
      : test_support::TempDir("bloomgate_lsm_test", base) {}
};

inline std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline void CopyDir(const std::string& from, const std::string& to) {
  std::filesystem::remove_all(to);
  std::filesystem::copy(from, to, std::filesystem::copy_options::recursive);
}

// Names of the files in `dir` that end with `suffix`, sorted.
inline std::vector<std::string> FilesWithSuffix(const std::string& dir,
                                                const std::string& suffix) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::string name = e.path().filename().string();
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      out.push_back(name);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string Key(uint64_t i) { return absl::StrFormat("key%010d", i); }

// Options for small, quick stores: tiny buffers so that a few thousand
// writes make many files and levels.
inline StoreOptions SmallOptions() {
  StoreOptions o;
  o.write_buffer_size = 16 << 10;
  o.block_size = 512;
  o.target_file_size = 16 << 10;
  o.max_bytes_for_level_base = 64 << 10;
  o.max_bytes_for_level_multiplier = 4;
  o.num_levels = 4;
  o.level0_file_num_compaction_trigger = 3;
  return o;
}

}  // namespace bloomgate::lsm::testing

#endif  // BLOOMGATE_TESTS_LSM_TEST_UTIL_H_
