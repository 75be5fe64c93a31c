// A SQLite store holding game "demo" of the bundled scenario bois-de-la-morne, at turn 1,
// with blue played by alice@test.local (token "tok-blue") and orange by bob@test.local
// (token "tok-orange"), and a second game "other" played by carol and dave.
#ifndef PBEM_TESTS_DAEMON_GAME_FIXTURE_H_
#define PBEM_TESTS_DAEMON_GAME_FIXTURE_H_

#include <fstream>
#include <iterator>
#include <string>

#include "daemon/game_catalog.h"
#include "daemon/metrics.h"
#include "daemon/order_desk.h"
#include "engine/morne_plaine/game_state.h"
#include "proto/codec/codec.h"
#include "storage/sqlite_repository.h"
#include "tests/daemon/test_support.h"

#ifndef PBEM_SOURCE_DIR
#error "PBEM_SOURCE_DIR must name the source tree"
#endif

namespace pbem::daemon::testing {

inline std::filesystem::path SourceDir() { return PBEM_SOURCE_DIR; }

inline std::string ReadText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Blue's sample orders for turn 1 of game "demo", with `token` added (none when empty).
inline std::string BlueOrdersText(const std::string& token = "tok-blue") {
  std::string text =
      ReadText(SourceDir() / "engine" / "scenarios" / "bois-de-la-morne.orders-blue.textproto");
  if (!token.empty()) text += "\ntoken: \"" + token + "\"\n";
  return text;
}

class GameFixture {
 public:
  GameFixture()
      : repository(dir.path()),
        catalog(SourceDir() / "engine" / "scenarios", SourceDir() / "engine" / "rulesets"),
        desk(catalog, metrics) {
    REQUIRE(repository.OpenOrMigrate().ok());
    AddGame("demo",
            {{"blue", "alice@test.local", "tok-blue"}, {"orange", "Bob@Test.Local", "tok-orange"}});
    AddGame("other",
            {{"blue", "carol@test.local", "tok-c"}, {"orange", "dave@test.local", "tok-d"}});
  }

  struct PlayerSpec {
    std::string side, address, token;
    std::string language = "en";
  };
  void AddGame(const std::string& id, const std::vector<PlayerSpec>& players) {
    auto data = catalog.Scenario("bois-de-la-morne");
    REQUIRE(data.ok());
    storage::NewGame game;
    game.id = id;
    game.scenario = "bois-de-la-morne";
    game.ruleset_name = "morne-plaine";
    game.ruleset_version = "1";
    game.engine_version = "test";
    const engine::GameState state = engine::InitialState((*data)->scenario, id);
    REQUIRE(codec::StateToProto(state, (*data)->scenario).SerializeToString(&game.initial_state));
    game.created_at = At(1);
    REQUIRE(repository.CreateGame(game).ok());
    for (const PlayerSpec& p : players) {
      REQUIRE(repository.AddPlayer({id, p.side, p.address, p.token, p.language}).ok());
    }
  }

  TempDir dir;
  storage::SqliteRepository repository;
  GameCatalog catalog;
  Metrics metrics;
  OrderDesk desk;
};

}  // namespace pbem::daemon::testing

#endif  // PBEM_TESTS_DAEMON_GAME_FIXTURE_H_
