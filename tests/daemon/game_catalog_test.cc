// GameCatalog (daemon/game_catalog.h): a stored game loaded through the game-system interface
// answers as the state it stores; LoadPinned reads the ruleset and scenario pinned in the game,
// wherever the files are; stored bytes the system refuses are named.
#include "daemon/game_catalog.h"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "pbem/v1/game.pb.h"
#include "tests/daemon/game_fixture.h"

namespace pbem::daemon {
namespace {

using testing::GameFixture;
using testing::SourceDir;

TEST_CASE("GameCatalog: a stored game's turn, side and outcome are its system's answers") {
  GameFixture f;
  Result<storage::Game> game = f.repository.GetGame("demo");
  REQUIRE(game.ok());
  Result<GameContext> loaded = f.catalog.Load(*game);
  REQUIRE(loaded.ok());
  CHECK(loaded->turn == game_system::TurnInfo{1, "blue"});
  CHECK_FALSE(loaded->finished);
  CHECK_FALSE(loaded->outcome.finished);
  REQUIRE(loaded->data->system != nullptr);
  CHECK(loaded->data->system->name() == "morne-plaine");
  // The system's state handle and the typed state are the same state.
  game_system::Result<std::string> bytes =
      loaded->data->system->EncodeState(loaded->data->setup, loaded->system_state);
  REQUIRE(bytes.ok());
  CHECK(*bytes == game->state);

  // A finished state: its outcome, as the system words it.
  pbem::v1::GameState proto;
  REQUIRE(proto.ParseFromString(game->state));
  proto.set_finished(true);
  proto.set_turn(7);
  proto.set_side_to_move(pbem::v1::SIDE_ORANGE);
  storage::Game over = *game;
  REQUIRE(proto.SerializeToString(&over.state));
  Result<GameContext> ended = f.catalog.Load(over);
  REQUIRE(ended.ok());
  CHECK(ended->turn == game_system::TurnInfo{7, "orange"});
  CHECK(ended->finished);
  CHECK(ended->outcome.finished);
  CHECK(ended->outcome.scores.size() == 2);
}

TEST_CASE("GameCatalog: stored bytes that are no state of the game are named, not guessed") {
  GameFixture f;
  Result<storage::Game> game = f.repository.GetGame("demo");
  REQUIRE(game.ok());
  game->state = "\xff\xff\xff";
  Result<GameContext> loaded = f.catalog.Load(*game);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.status().code() == StatusCode::kInternal);
  CHECK(loaded.status().message() == "game demo: the stored state is not a pbem.v1.GameState");
}

TEST_CASE("GameCatalog::LoadPinned: the game's pinned ruleset and scenario, not the files") {
  GameFixture f;
  Result<storage::Game> game = f.repository.GetGame("demo");
  REQUIRE(game.ok());
  auto data = f.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  // A catalog over folders that hold nothing: Load cannot find the scenario ...
  GameCatalog empty(SourceDir() / "no-such-scenarios", SourceDir() / "no-such-rulesets");
  Result<GameContext> unpinned = empty.LoadPinned(*game);
  REQUIRE_FALSE(unpinned.ok());
  CHECK(unpinned.status().message().find("no-such-scenarios") != std::string::npos);
  // ... but the game with its ruleset and scenario pinned loads from them.
  REQUIRE((*data)->ruleset_proto.SerializeToString(&game->ruleset_proto));
  REQUIRE((*data)->scenario_proto.SerializeToString(&game->scenario_proto));
  Result<GameContext> pinned = empty.LoadPinned(*game);
  REQUIRE(pinned.ok());
  CHECK(pinned->turn == game_system::TurnInfo{1, "blue"});
  CHECK(pinned->data->scenario.name == "bois-de-la-morne");
  // A damaged pin is an error naming the game.
  game->scenario_proto = "\xff\xff";
  Result<GameContext> damaged = empty.LoadPinned(*game);
  REQUIRE_FALSE(damaged.ok());
  CHECK(damaged.status().message().find("game demo: its pinned ruleset or scenario") == 0);
}

// A stored game of `system` playing its bundled scenario `name` from the catalog's files,
// created as pbemd pins it.
storage::Game StoredGameOf(GameCatalog& catalog, std::string_view system, const std::string& name,
                           const std::string& id) {
  auto data = catalog.Scenario(system, name);
  INFO(data.status().message());
  REQUIRE(data.ok());
  const game_system::GameSystem& rules = *(*data)->system;
  game_system::Result<game_system::State> initial = rules.InitialState((*data)->setup, id);
  REQUIRE(initial.ok());
  game_system::Result<std::string> bytes = rules.EncodeState((*data)->setup, *initial);
  REQUIRE(bytes.ok());
  storage::Game game;
  game.id = id;
  game.system = std::string(system);
  game.scenario = name;
  game.ruleset_name = (*data)->pinned.ruleset_name;
  game.ruleset_proto = (*data)->pinned.ruleset;
  game.scenario_proto = (*data)->pinned.scenario;
  game.state = *bytes;
  game.initial_state = *bytes;
  return game;
}

TEST_CASE("GameCatalog: a game names its system; M42's and wme's load from their own folders") {
  GameFixture f;
  for (const auto& [system, scenario, ruleset] :
       {std::tuple{"m42", "pumping_station", "m42_movement_v0_5"},
        std::tuple{"wme", "palissade", "wme_movement_draft_p22_31"}}) {
    INFO(system);
    storage::Game game = StoredGameOf(f.catalog, system, scenario, std::string("g-") + system);
    CHECK(game.ruleset_name == ruleset);
    Result<GameContext> any = f.catalog.LoadAny(game);
    INFO(any.status().message());
    REQUIRE(any.ok());
    CHECK(any->data->system->name() == system);
    CHECK(any->turn.turn == 1);
    CHECK_FALSE(any->finished);
    CHECK_FALSE(any->outcome_known);  // neither engine decides the end of a game yet
    // The pinned messages alone give the same game, wherever the files are.
    GameCatalog empty(SourceDir() / "no-such-scenarios", SourceDir() / "no-such-rulesets");
    CHECK_FALSE(empty.LoadAny(game).ok());
    Result<GameContext> pinned = empty.LoadAny(game, /*pinned=*/true);
    INFO(pinned.status().message());
    REQUIRE(pinned.ok());
    CHECK(pinned->turn == any->turn);
    game_system::Result<std::string> again =
        pinned->data->system->EncodeState(pinned->data->setup, pinned->system_state);
    REQUIRE(again.ok());
    CHECK(*again == game.state);
    // The code that works on Morne Plaine's types is refused the game, saying why.
    for (Result<GameContext> refused : {f.catalog.Load(game), f.catalog.LoadPinned(game)}) {
      REQUIRE_FALSE(refused.ok());
      CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
      CHECK(refused.status().message() ==
            "game " + game.id + " plays " + system +
                ": pbemd plays that system's games but does not show them here yet");
    }
    CHECK(f.catalog.ScenarioOf(game).status().code() == StatusCode::kFailedPrecondition);
    // A damaged pin is named.
    game.scenario_proto = "\xff\xff";
    Result<GameContext> damaged = empty.LoadAny(game, /*pinned=*/true);
    REQUIRE_FALSE(damaged.ok());
    CHECK(damaged.status().message().find("the game's pinned scenario is not a pbem.v1.") !=
          std::string::npos);
  }
  // Morne Plaine's game through LoadAny is Load's.
  Result<storage::Game> demo = f.repository.GetGame("demo");
  REQUIRE(demo.ok());
  CHECK(demo->system == "morne-plaine");
  Result<GameContext> any = f.catalog.LoadAny(*demo);
  REQUIRE(any.ok());
  CHECK(any->turn == game_system::TurnInfo{1, "blue"});
  CHECK(any->data->scenario.name == "bois-de-la-morne");
  // Its pinned bytes are the ones pbemd has pinned since schema 3.
  auto data = f.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  CHECK((*data)->pinned.ruleset == (*data)->ruleset_proto.SerializeAsString());
  CHECK((*data)->pinned.scenario == (*data)->scenario_proto.SerializeAsString());
}

TEST_CASE("GameCatalog: an unknown system or a scenario name that is no plain name is refused") {
  GameFixture f;
  auto unknown = f.catalog.Scenario("chess", "opening");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().code() == StatusCode::kFailedPrecondition);
  CHECK(unknown.status().message().find("game system \"chess\"") == 0);
  for (const std::string& name :
       std::vector<std::string>{"../m42/pumping_station", "", "a/b", std::string("x\0y", 3)}) {
    auto bad = f.catalog.Scenario("m42", name);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.status().code() == StatusCode::kFailedPrecondition);
  }
  auto missing = f.catalog.Scenario("m42", "no_such_table");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().message().find("no_such_table.textproto") != std::string::npos);
  storage::Game stray;
  stray.id = "stray";
  stray.system = "chess";
  stray.scenario = "opening";
  CHECK(f.catalog.LoadAny(stray).status().code() == StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace pbem::daemon
