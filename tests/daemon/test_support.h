// Helpers shared by the daemon's unit tests: a temporary directory, a null logger, "now".
#ifndef PBEM_TESTS_DAEMON_TEST_SUPPORT_H_
#define PBEM_TESTS_DAEMON_TEST_SUPPORT_H_

#include <spdlog/sinks/null_sink.h>
#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include "storage/game_repository.h"

namespace pbem::daemon::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "pbem-daemon-XXXXXX");
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

inline std::shared_ptr<spdlog::logger> NullLogger() {
  return std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

inline storage::Timestamp At(std::int64_t seconds) {
  return storage::Timestamp(std::chrono::seconds(seconds));
}

}  // namespace pbem::daemon::testing

#endif  // PBEM_TESTS_DAEMON_TEST_SUPPORT_H_
