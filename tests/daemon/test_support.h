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
#include "tests/support/temp_dir.h"

namespace pbem::daemon::testing {

// A fresh directory (pbem-daemon-XXXXXX), removed with everything in it.
class TempDir : public pbem::testing::TempDir {
 public:
  TempDir() : pbem::testing::TempDir("pbem-daemon") {}
};

inline std::shared_ptr<spdlog::logger> NullLogger() {
  return std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

inline storage::Timestamp At(std::int64_t seconds) {
  return storage::Timestamp(std::chrono::seconds(seconds));
}

}  // namespace pbem::daemon::testing

#endif  // PBEM_TESTS_DAEMON_TEST_SUPPORT_H_
