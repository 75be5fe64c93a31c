// pbemd_seed_game DATA_DIR GAME_ID SIDE:ADDRESS:TOKEN...
// Creates a game of the bundled scenario bois-de-la-morne in the SQLite store under DATA_DIR
// and registers its players, for the mail end-to-end test (without going through HTTP). Exit 0 on
// success; errors go to stderr.
#include <iostream>
#include <string>

#include "daemon/game_catalog.h"
#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/game_state.h"
#include "proto/codec/codec.h"
#include "storage/sqlite_repository.h"

int main(int argc, char** argv) {
  using namespace pbem;
  if (argc < 4) {
    std::cerr << "usage: pbemd_seed_game DATA_DIR GAME_ID SIDE:ADDRESS:TOKEN...\n";
    return 2;
  }
  const std::filesystem::path source = PBEM_SOURCE_DIR;
  daemon::GameCatalog catalog(source / "engine" / "scenarios", source / "engine" / "rulesets");
  auto data = catalog.Scenario("bois-de-la-morne");
  if (!data.ok()) {
    std::cerr << data.status().ToString() << "\n";
    return 1;
  }
  storage::SqliteRepository repository(argv[1]);
  if (auto opened = repository.OpenOrMigrate(); !opened.ok()) {
    std::cerr << opened.status().ToString() << "\n";
    return 1;
  }
  // Pinned ruleset and scenario, so that `pbem export` / `pbem verify` work on the game.
  storage::NewGame game =
      daemon::MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto, (*data)->scenario,
                          argv[2], storage::Timestamp(std::chrono::milliseconds(0)));
  game.scenario = "bois-de-la-morne";
  if (Status created = repository.CreateGame(game); !created.ok()) {
    std::cerr << created.ToString() << "\n";
    return 1;
  }
  for (int i = 3; i < argc; ++i) {
    const std::string spec = argv[i];
    const auto a = spec.find(':');
    const auto b = spec.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) {
      std::cerr << "bad player \"" << spec << "\": expected SIDE:ADDRESS:TOKEN\n";
      return 2;
    }
    Status added = repository.AddPlayer(
        {game.id, spec.substr(0, a), spec.substr(a + 1, b - a - 1), spec.substr(b + 1)});
    if (!added.ok()) {
      std::cerr << added.ToString() << "\n";
      return 1;
    }
  }
  return 0;
}
