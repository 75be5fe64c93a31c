// TempDir: a fresh directory under the system temp dir for one test, removed with everything
// in it when the test ends. Header-only; needs Catch2 (REQUIRE) in the including test.
#ifndef PBEM_TESTS_SUPPORT_TEMP_DIR_H_
#define PBEM_TESTS_SUPPORT_TEMP_DIR_H_

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <system_error>

namespace pbem::testing {

class TempDir {
 public:
  // `prefix` names the directory (prefix-XXXXXX) so a leftover tells which suite made it.
  explicit TempDir(const std::string& prefix = "pbem-test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX"));
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace pbem::testing

#endif  // PBEM_TESTS_SUPPORT_TEMP_DIR_H_
