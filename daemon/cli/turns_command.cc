// pbem turns stuck [--db DB]
// pbem turns retry GAME... [--db DB]
//
// The operator's view of the stuck games (storage GameRepository::ListStuckGames,
// RetryStuckGame): games whose turn job failed pbemd.turns.max_failures times in a row, which
// pbemd's scheduler leaves alone (daemon/scheduler.h). Retrying is safe while pbemd runs: the
// store changes in one transaction, and pbemd's next pass takes the game again.
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "daemon/cli/cli.h"
#include "storage/game_repository.h"

namespace pbem::cli {
namespace {

int ListStuck(storage::GameRepository& repository) {
  Result<std::vector<storage::StuckGame>> stuck = repository.ListStuckGames();
  if (!stuck.ok()) {
    std::cerr << "pbem: " << stuck.status().ToString() << "\n";
    return kExitProblems;
  }
  std::cout << stuck->size() << (stuck->size() == 1 ? " stuck game" : " stuck games") << "\n";
  for (const storage::StuckGame& game : *stuck) {
    std::cout << OneLine(game.game_id) << "  stuck since " << IsoTime(game.failed_at)
              << "  turns committed " << game.turns_committed << "  failures " << game.turn_failures
              << "\n    last error: " << OneLine(game.error) << "\n";
  }
  return kExitOk;
}

int Retry(storage::GameRepository& repository, const std::vector<std::string>& games) {
  const auto now =
      std::chrono::time_point_cast<std::chrono::milliseconds>(std::chrono::system_clock::now());
  int exit_code = kExitOk;
  for (const std::string& game : games) {
    if (Status retried = repository.RetryStuckGame(game, now); !retried.ok()) {
      std::cerr << "pbem: " << retried.ToString() << "\n";
      exit_code = kExitProblems;
      continue;
    }
    std::cout << "game " << OneLine(game) << ": pbemd tries its turn again at its next pass\n";
  }
  return exit_code;
}

}  // namespace

int RunTurnsCommand(const Args& args) {
  if (args.empty()) return UsageError("turns", "turns: which command? stuck or retry");
  if (WantsHelp(args)) {
    std::cout << *Usage("turns");
    return kExitOk;
  }
  const std::string& sub = args.front();
  if (sub != "stuck" && sub != "retry") {
    return UsageError("turns", "turns: unknown command '" + sub + "'");
  }
  std::optional<std::string> db;
  std::vector<std::string> games;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--db") {
      if (i + 1 >= args.size()) return UsageError("turns", "turns: --db needs a value");
      db = args[++i];
    } else if (sub == "retry" && !a.empty() && a[0] != '-') {
      games.push_back(a);
    } else {
      return UsageError("turns", "turns " + sub + ": unexpected '" + a + "'");
    }
  }
  if (sub == "retry" && games.empty()) {
    return UsageError("turns", "turns retry: name the games to retry");
  }
  auto repository = OpenGameStore(db, /*must_exist=*/true);
  if (!repository) return kExitProblems;
  if (sub == "stuck") return ListStuck(*repository);
  return Retry(*repository, games);
}

}  // namespace pbem::cli
