// GameCatalog: what the daemon needs to judge orders for a stored game: the game's scenario
// and ruleset (loaded once per scenario from pbemd.scenarios_dir / pbemd.rulesets_dir and
// cached) and its current state (decoded from the stored pbem.v1.GameState). Thread-safe.
//
// The game system comes from the codec's registry (proto/codec/systems.h): a loaded game is
// also the system, its setup and its state behind the game-system interface
// (engine/system/game_system.h), and whose turn it is, whether it is over and how are the
// system's own answers. Code that needs no more reads those and names no system's type.
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
#include "engine/system/registry.h"
#include "pbem/v1/ruleset.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "proto/codec/codec.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

struct ScenarioData {
  const game_system::GameSystem* system = nullptr;  // the catalog's, lives as long as it
  game_system::Setup setup;  // the ruleset and scenario below, as the system's
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
  game_system::State system_state;  // `state` behind the interface (data->system reads it)
  game_system::TurnInfo turn;       // the player-turn the game waits for: number and side id
  bool finished = false;  // the rules ended the game (a resignation is storage::Game::result)
  game_system::Outcome outcome;  // when finished: winner's side id, level code, scores
};

class GameCatalog {
 public:
  GameCatalog(std::filesystem::path scenarios_dir, std::filesystem::path rulesets_dir);

  // <scenarios_dir>/<name>.textproto against <rulesets_dir>/<its ruleset>/. Errors name the
  // file and the problem (FAILED_PRECONDITION: the daemon's data does not fit the game).
  Result<std::shared_ptr<const ScenarioData>> Scenario(const std::string& name);

  // The scenario of `game` and its current state.
  Result<GameContext> Load(const storage::Game& game);
  // The same with the ruleset and scenario pinned in the game when it has both (the games
  // pbemd and `pbem league` create pin them), wherever their files are; else Load(game). Not
  // cached: for tools that read a game now and then (`pbem league status`).
  Result<GameContext> LoadPinned(const storage::Game& game);

 private:
  Result<std::shared_ptr<ScenarioData>> Build(codec::LoadedRuleset ruleset,
                                              codec::LoadedScenario scenario) const;
  Result<GameContext> Context(const storage::Game& game,
                              std::shared_ptr<const ScenarioData> data) const;

  std::filesystem::path scenarios_dir_;
  std::filesystem::path rulesets_dir_;
  const game_system::Registry systems_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ScenarioData>> cache_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_GAME_CATALOG_H_
