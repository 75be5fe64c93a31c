#include "tests/turn/turn_test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "proto/codec/codec.h"

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

bool PlayBundledGame(storage::GameRepository& repository, const std::string& id,
                     std::int64_t start_ms, int seed, const std::vector<bool>& missed) {
  const auto at = [](std::int64_t ms) { return storage::Timestamp(std::chrono::milliseconds(ms)); };
  const engine::Ruleset& rules = Bois().ruleset.ruleset;
  const engine::Scenario& sc = Bois().scenario.scenario;
  const auto fail = [&id](std::string_view step, const std::string& why) {
    std::cerr << "PlayBundledGame " << id << ": " << step << ": " << why << "\n";
    return false;
  };
  if (Status created = repository.CreateGame(
          daemon::MakeNewGame(Bois().ruleset.proto, Bois().scenario.proto, sc, id, at(start_ms)));
      !created.ok()) {
    return fail("create", created.ToString());
  }
  daemon::FixedEntropy entropy(id);
  for (std::size_t i = 0; i < missed.size(); ++i) {
    const std::int64_t n = static_cast<std::int64_t>(i);
    auto state = daemon::CurrentState(repository, sc, id);
    if (!state.ok()) return fail("state", state.status().ToString());
    if (auto opened = daemon::OpenTurn(repository, sc, id, entropy, at(start_ms + n));
        !opened.ok()) {
      return fail("open", opened.status().ToString());
    }
    pbem::v1::Orders orders;
    if (missed[i]) {
      orders.set_game_id(id);
      orders.set_turn(state->turn);
      orders.set_side(codec::SideToProto(state->side_to_move));
    } else {
      orders = codec::OrdersToProto(
          engine::BotOrders(rules, sc, *state, seed + static_cast<int>(i)), sc);
    }
    if (auto committed = daemon::ResolveAndCommit(repository, rules, sc, id, orders,
                                                  at(start_ms + 60'000 + n * 1000));
        !committed.ok()) {
      return fail("commit", committed.status().ToString());
    }
  }
  return true;
}

}  // namespace pbem::testing
