// GameCatalog: what the daemon needs to judge orders for a stored game: the game's scenario
// and ruleset (loaded once per scenario from pbemd.scenarios_dir / pbemd.rulesets_dir and
// cached) and its current state (decoded from the stored pbem.v1.GameState). Thread-safe.
#ifndef PBEM_DAEMON_GAME_CATALOG_H_
#define PBEM_DAEMON_GAME_CATALOG_H_

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/system/game_system.h"
#include "pbem/v1/ruleset.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

struct ScenarioData {
  engine::Ruleset ruleset;
  engine::Scenario scenario;
  pbem::v1::Ruleset ruleset_proto;  // as loaded: pinned in new games (archives, verify)
  pbem::v1::Scenario scenario_proto;
};

// A stored game as loaded. `turn`, `finished` and `outcome` are the game-system interface's terms
// (engine/system/game_system.h): code that needs no more than whose turn it is and whether the
// game is over reads them and names no system's type. `data` and `state` are Morne Plaine's,
// for the code that still works on its types (tests/boundary/system_includes.allow lists it).
struct GameContext {
  std::shared_ptr<const ScenarioData> data;
  engine::GameState state;
  game_system::TurnInfo turn;  // the player-turn the game waits for: number and side id
  bool finished = false;       // the rules ended the game (a resignation is storage::Game::result)
  game_system::Outcome outcome;  // when finished: winner's side id, level code, scores
};

class GameCatalog {
 public:
  GameCatalog(std::filesystem::path scenarios_dir, std::filesystem::path rulesets_dir)
      : scenarios_dir_(std::move(scenarios_dir)), rulesets_dir_(std::move(rulesets_dir)) {}

  // <scenarios_dir>/<name>.textproto against <rulesets_dir>/<its ruleset>/. Errors name the
  // file and the problem (FAILED_PRECONDITION: the daemon's data does not fit the game).
  Result<std::shared_ptr<const ScenarioData>> Scenario(const std::string& name);

  // The scenario of `game` and its current state.
  Result<GameContext> Load(const storage::Game& game);

 private:
  std::filesystem::path scenarios_dir_;
  std::filesystem::path rulesets_dir_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ScenarioData>> cache_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_GAME_CATALOG_H_
