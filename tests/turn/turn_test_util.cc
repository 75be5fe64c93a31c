#include "tests/turn/turn_test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace pbem::testing {

const BundledGame& Bois() {
  static const BundledGame bundle = [] {
    const std::filesystem::path root = PBEM_SOURCE_DIR;
    auto ruleset = codec::LoadRulesetDir(root / "engine/rulesets/morne-plaine");
    if (!ruleset.ok()) {
      std::cerr << ruleset.ErrorText();
      std::exit(3);
    }
    auto scenario = codec::LoadScenarioFile(root / "engine/scenarios/bois-de-la-morne.textproto",
                                            ruleset.value().ruleset);
    if (!scenario.ok()) {
      std::cerr << scenario.ErrorText();
      std::exit(3);
    }
    return BundledGame{ruleset.value(), scenario.value()};
  }();
  return bundle;
}

int RunProcess(const std::vector<std::string>& argv, std::string& output) {
  output.clear();
  int pipefd[2];
  if (argv.empty() || pipe(pipefd) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    dup2(pipefd[1], 1);
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pipefd[1]);
  char buffer[4096];
  ssize_t got;
  while ((got = read(pipefd[0], buffer, sizeof buffer)) > 0) {
    output.append(buffer, static_cast<std::size_t>(got));
  }
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace pbem::testing
