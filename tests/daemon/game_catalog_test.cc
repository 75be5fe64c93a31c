// GameCatalog (daemon/game_catalog.h): a stored game loaded through the game-system interface
// answers as the state it stores; LoadPinned reads the ruleset and scenario pinned in the game,
// wherever the files are; stored bytes the system refuses are named.
#include "daemon/game_catalog.h"

#include <catch2/catch.hpp>

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

}  // namespace
}  // namespace pbem::daemon
