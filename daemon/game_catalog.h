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
#include <string_view>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/system/game_system.h"
#include "engine/system/registry.h"
#include "pbem/v1/ruleset.pb.h"
#include "pbem/v1/scenario.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/game_data.h"
#include "storage/game_repository.h"
#include "storage/status.h"

namespace pbem::daemon {

struct ScenarioData {
  const game_system::GameSystem* system = nullptr;  // the catalog's, lives as long as it
  game_system::Setup setup;                         // the ruleset and scenario, as the system's
  codec::PinnedGameData pinned;                     // what a new game of it pins (storage::NewGame)
  // Morne Plaine's, for the code that still works on its types; empty for another system.
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
  // False when the system cannot decide the end of its games yet (GameOutcome kNotSupported:
  // M42 and wme, issues 16 and 17): the game plays on, `finished` false.
  bool outcome_known = true;
};

class GameCatalog {
 public:
  GameCatalog(std::filesystem::path scenarios_dir, std::filesystem::path rulesets_dir);

  // Morne Plaine's scenario `name`: <scenarios_dir>/<name>.textproto against
  // <rulesets_dir>/<its ruleset>/. Errors name the file and the problem (FAILED_PRECONDITION:
  // the daemon's data does not fit the game).
  Result<std::shared_ptr<const ScenarioData>> Scenario(const std::string& name);
  // Scenario `name` of any game system (the registry key), where proto/codec/game_data.h says
  // its files are; the same errors, and FAILED_PRECONDITION naming an unknown system.
  Result<std::shared_ptr<const ScenarioData>> Scenario(std::string_view system,
                                                       const std::string& name);

  // The scenario of `game` and its current state, for the code that works on Morne Plaine's
  // types: a game of another system is FAILED_PRECONDITION, saying pbemd does not show that
  // system's games here yet (never another system's state read as Morne Plaine's).
  Result<GameContext> Load(const storage::Game& game);
  // The scenario of a Morne Plaine `game`; the same refusal for another system's.
  Result<std::shared_ptr<const ScenarioData>> ScenarioOf(const storage::Game& game);
  // The same with the ruleset and scenario pinned in the game when it has both (the games
  // pbemd and `pbem league` create pin them), wherever their files are; else Load(game). Not
  // cached: for tools that read a game now and then (`pbem league status`).
  Result<GameContext> LoadPinned(const storage::Game& game);
  // Any system's game (storage::Game::system), read through the game-system interface only:
  // `data->system`, `setup`, `system_state`, `turn`, `finished`, `outcome` (GameContext::state
  // and ScenarioData's Morne Plaine fields are set for Morne Plaine's games only). `pinned`:
  // from the game's pinned ruleset and scenario (required), not the catalog's files.
  Result<GameContext> LoadAny(const storage::Game& game, bool pinned = false);

 private:
  // The refusal of Load for a game that is not Morne Plaine's; OK for one that is.
  static Status OnlyMornePlaine(const storage::Game& game);
  Result<std::shared_ptr<ScenarioData>> Build(codec::LoadedRuleset ruleset,
                                              codec::LoadedScenario scenario) const;
  Result<GameContext> Context(const storage::Game& game,
                              std::shared_ptr<const ScenarioData> data) const;
  // The system of `name` in the registry; FAILED_PRECONDITION naming it when unknown.
  Result<const game_system::GameSystem*> System(std::string_view name) const;

  std::filesystem::path scenarios_dir_;
  std::filesystem::path rulesets_dir_;
  const game_system::Registry systems_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const ScenarioData>> cache_;
};

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_GAME_CATALOG_H_
