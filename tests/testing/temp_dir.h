// Copyright 2026 The bloomgate Authors.
//
// A temporary folder for tests and tools: created fresh, removed with its
// contents when the object goes. Header-only and free of GoogleTest, so
// that any test or tool binary can use it.

#ifndef BLOOMGATE_TESTS_TESTING_TEMP_DIR_H_
#define BLOOMGATE_TESTS_TESTING_TEMP_DIR_H_

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace bloomgate::test_support {

// Where temporary folders go by default: $TEST_TMPDIR (set by test runners
// that give each test its own space), else $TMPDIR, else /tmp.
inline std::string DefaultTempBase() {
  for (const char* var : {"TEST_TMPDIR", "TMPDIR"}) {
    const char* value = std::getenv(var);
    if (value != nullptr && value[0] != '\0') return value;
  }
  return "/tmp";
}

// A fresh folder <base>/<prefix>.XXXXXX (mkdtemp), removed recursively on
// destruction. A folder that cannot be created aborts the process: no test
// can run without it, and a message on stderr says why.
class TempDir {
 public:
  explicit TempDir(std::string_view prefix = "bloomgate_test",
                   const std::string& base = DefaultTempBase()) {
    std::string pattern = base;
    if (pattern.empty() || pattern.back() != '/') pattern += '/';
    pattern.append(prefix).append(".XXXXXX");
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()) == nullptr) {
      std::fprintf(stderr, "mkdtemp %s: %s\n", pattern.c_str(),
                   std::strerror(errno));
      std::abort();
    }
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path()/name.
  std::string Sub(std::string_view name) const {
    return path_ + "/" + std::string(name);
  }

 private:
  std::string path_;
};

}  // namespace bloomgate::test_support

#endif  // BLOOMGATE_TESTS_TESTING_TEMP_DIR_H_
