// `pbem orders check` and `pbem history` on a SQLite game store, run as the real binary:
// the second player checks orders at turn 2 with --game (no --state), --state takes the
// whole GET /v1/games/{id} reply, and history lines say who did what.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "daemon/turn/turn_job.h"
#include "engine/morne_plaine/bot.h"
#include "pbem/v1/archive.pb.h"
#include "pbem/v1/turn_result.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/game_data.h"
#include "proto/codec/systems.h"
#include "storage/sqlite_repository.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::daemon {
namespace {

namespace fs = std::filesystem;

void WriteText(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

// A scratch directory with a store holding game "g1" after three bot player-turns (turn 1
// blue and orange, turn 2 blue): orange is to move at turn 2. Orange's turn 1 is played
// without orders and without a submission, as pbemd resolves a missed turn.
struct StoreAtTurnTwo {
  fs::path scratch;
  std::string db;
  engine::GameState state;  // the current state (orange to move, turn 2)

  StoreAtTurnTwo() {
    std::string pattern = (fs::temp_directory_path() / "pbem-cli-store-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    scratch = pattern;
    db = "sqlite:" + (scratch / "data").string();
    storage::SqliteRepository repository(scratch / "data");
    REQUIRE(repository.OpenOrMigrate().ok());
    REQUIRE(testing::PlayBundledGame(repository, "g1", 1'700'000'000'000, 7, {false, true, false}));
    const engine::Scenario& sc = testing::Bois().scenario.scenario;
    auto current = CurrentState(repository, sc, "g1");
    REQUIRE(current.ok());
    state = *current;
    REQUIRE(state.turn == 2);
    REQUIRE(state.side_to_move == engine::Side::kOrange);
  }
  ~StoreAtTurnTwo() { fs::remove_all(scratch); }

  // Orange's bot orders for the current state, as a text-format orders file.
  fs::path OrangeOrders() const {
    const testing::BundledGame& bundle = testing::Bois();
    const engine::Scenario& sc = bundle.scenario.scenario;
    const auto orders =
        codec::OrdersToProto(engine::BotOrders(bundle.ruleset.ruleset, sc, state, 42), sc);
    REQUIRE(orders.moves_size() + orders.attacks_size() > 0);
    const fs::path path = scratch / "orange.textproto";
    WriteText(path, codec::SerializeMessage(orders, codec::Format::kText));
    return path;
  }
};

int Run(const std::vector<std::string>& argv, std::string& output) {
  return testing::RunProcess(argv, output);
}

const std::string kScenario =
    std::string(PBEM_SOURCE_DIR) + "/engine/scenarios/bois-de-la-morne.textproto";

TEST_CASE("pbem orders check --game: the second player at turn 2, no --state", "[cli]") {
  StoreAtTurnTwo store;
  const std::string orders = store.OrangeOrders().string();
  const std::string pbem = PBEM_BINARY;
  std::string out;

  // Against the scenario alone the orders are judged on the first player-turn: refused.
  CHECK(Run({pbem, "orders", "check", "--scenario", kScenario, orders}, out) == 1);
  CHECK_THAT(out, Catch::Contains("but the game is at turn 1"));
  CHECK_THAT(out, Catch::Contains("for a game in progress give --game GAME --db DB"));

  // --game reads the current state, scenario and ruleset from the store: accepted.
  CHECK(Run({pbem, "orders", "check", "--game", "g1", "--db", store.db, orders}, out) == 0);
  CHECK_THAT(out, Catch::Contains("game g1: turn 2, orange to move\n"));
  CHECK_THAT(out, Catch::Contains(" 0 invalid, 0 illegal"));
  CHECK_THAT(out, !Catch::Contains("wrong_"));

  // Errors name the game or the store; usage errors exit 2.
  CHECK(Run({pbem, "orders", "check", "--game", "nope", "--db", store.db, orders}, out) == 1);
  CHECK_THAT(out, Catch::Contains("nope"));
  CHECK(Run({pbem, "orders", "check", "--game", "g1", "--db",
             "sqlite:" + (store.scratch / "none").string(), orders},
            out) == 1);
  CHECK_THAT(out, Catch::Contains("no database"));
  CHECK_FALSE(fs::exists(store.scratch / "none"));
  CHECK(Run({pbem, "orders", "check", "--game", "g1", "--state", orders, orders}, out) == 2);
  CHECK(Run({pbem, "orders", "check", "--db", store.db, orders}, out) == 2);
}

TEST_CASE("pbem orders check --state takes the GET /v1/games/{id} reply", "[cli]") {
  StoreAtTurnTwo store;
  const std::string orders = store.OrangeOrders().string();
  const std::string pbem = PBEM_BINARY;
  const engine::Scenario& sc = testing::Bois().scenario.scenario;
  const pbem::v1::GameState proto = codec::StateToProto(store.state, sc);
  const std::string state_json = codec::SerializeMessage(proto, codec::Format::kJson);
  // The members of pbemd's reply (daemon/http_api.cc GetGame), the state last.
  const std::string reply =
      R"({"id":"g1","scenario":"bois-de-la-morne","ruleset":"morne-plaine",)"
      R"("rulesetVersion":"1","turnsCommitted":3,"turn":2,"sideToMove":"orange",)"
      R"("sides":["blue","orange"],"state":)" +
      state_json + "}";
  std::string out;
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, std::string>>{
           {"reply.json", reply},
           {"state.json", state_json},
           {"state.textproto", codec::SerializeMessage(proto, codec::Format::kText)},
           {"state.bin", codec::SerializeMessage(proto, codec::Format::kBinary)}}) {
    INFO(name);
    const fs::path path = store.scratch / name;
    WriteText(path, bytes);
    CHECK(Run({pbem, "orders", "check", "--scenario", kScenario, "--state", path.string(), orders},
              out) == 0);
    CHECK_THAT(out, Catch::Contains(" 0 invalid, 0 illegal"));
  }

  // A JSON object that is neither a GameState nor the reply is refused, saying what is wanted.
  const fs::path other = store.scratch / "other.json";
  WriteText(other, R"({"id":"g1","sideToMove":"orange","state":"not an object"})");
  CHECK(Run({pbem, "orders", "check", "--scenario", kScenario, "--state", other.string(), orders},
            out) == 1);
  CHECK_THAT(out, Catch::Contains("GET /v1/games/{id}"));
}

TEST_CASE("pbem history says who did what", "[cli]") {
  StoreAtTurnTwo store;
  std::string out;
  REQUIRE(Run({PBEM_BINARY, "history", "g1", "--db", store.db}, out) == 0);
  INFO(out);
  CHECK_THAT(out, Catch::Contains("3 player-turns"));
  // Blue's first turn: the side, how many orders and how they fared, what moved.
  const std::size_t first = out.find("\n1 turn 1 blue ");
  REQUIRE(first != std::string::npos);
  const std::string line = out.substr(first + 1, out.find('\n', first + 1) - first - 1);
  CHECK_THAT(line, Catch::Matches("1 turn 1 blue [0-9TZ:-]+ blue gave [0-9]+ orders? "
                                  "\\([0-9]+ ok[^)]*\\): [0-9]+ units? moved.*; [0-9]+ events; "
                                  "commitment [0-9a-f]+"));
  CHECK_THAT(out,
             Catch::Contains("\n2 turn 1 orange 2023-11-14T22:14:21Z orange missed the turn "
                             "(no orders arrived by the deadline): no unit moved or fought; "));
  CHECK_THAT(out, Catch::Contains("\n3 turn 2 blue "));
}

// An M42 game's archive (the fuzz seed tests/fuzz/make_system_archive_seed made: four bot
// player-turns of the Pumping Station) imported into a store: history reads it through the
// game-system interface, and the commands that read Morne Plaine's games only refuse it with a
// sentence instead of misreading it.
TEST_CASE("pbem history of an M42 game; render, archive and orders check refuse it", "[cli]") {
  const std::string archive_path =
      std::string(PBEM_SOURCE_DIR) + "/tests/fuzz/corpus/archive_verify/m42-pumping-4-turns.pbem";
  std::string pattern = (fs::temp_directory_path() / "pbem-cli-m42-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  const fs::path scratch = pattern;
  struct Cleanup {
    fs::path path;
    ~Cleanup() { fs::remove_all(path); }
  } cleanup{scratch};
  const std::string db = "sqlite:" + (scratch / "data").string();
  std::string out;
  REQUIRE(Run({PBEM_BINARY, "import", archive_path, "--as", "m", "--db", db}, out) == 0);

  // What each line must say, from the archive itself through the interface.
  std::ifstream file(archive_path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  pbem::v1::Archive archive;
  REQUIRE(archive.ParseFromString(bytes));
  REQUIRE(archive.system() == "m42");
  const game_system::Registry registry = codec::SystemRegistry();
  const game_system::GameSystem& m42 = **registry.Find("m42");
  const auto setup =
      codec::SetupFromPinned("m42", archive.system_ruleset(), archive.system_scenario());
  REQUIRE(setup.ok());

  REQUIRE(Run({PBEM_BINARY, "history", "m", "--db", db}, out) == 0);
  INFO(out);
  CHECK_THAT(out, Catch::StartsWith("game m (pumping_station, "));
  CHECK_THAT(out, Catch::Contains(": 4 player-turns\n"));
  CHECK_THAT(out, !Catch::Contains("libprotobuf"));
  for (const pbem::v1::ArchivedTurn& turn : archive.turns()) {
    const auto result = m42.DecodeTurnResult(*setup, turn.result());
    REQUIRE(result.ok());
    int given = 0, ok = 0;
    for (const game_system::Verdict& v : result->verdicts) {
      if (v.order == "header") continue;
      ++given;
      if (v.kind == game_system::VerdictKind::kOk) ++ok;
    }
    REQUIRE(given > 0);  // the bot gave orders every turn: none of them is missed
    pbem::v1::DiceCommitment commitment;
    REQUIRE(commitment.ParseFromString(turn.dice_commitment()));
    const std::string head = "\n" + std::to_string(turn.sequence()) + " turn " +
                             std::to_string(turn.turn()) + " " + turn.player() + " ";
    const std::size_t at = out.find(head);
    REQUIRE(at != std::string::npos);
    const std::string line = out.substr(at + 1, out.find('\n', at + 1) - at - 1);
    CHECK_THAT(line, Catch::Contains(" " + turn.player() + " gave " + std::to_string(given) +
                                     (given == 1 ? " order (" : " orders (") + std::to_string(ok) +
                                     " ok"));
    CHECK_THAT(line, Catch::Contains("; " + std::to_string(result->events.size()) + " event"));
    CHECK_THAT(line, Catch::EndsWith("; commitment " + commitment.commitment()));
  }

  const std::string refused = "game m plays m42, and this command reads Morne Plaine's games only";
  const fs::path orders = scratch / "orders.textproto";
  WriteText(orders, "game_id: \"m\" turn: 3 player: \"blue\" m42 { }\n");
  CHECK(Run({PBEM_BINARY, "orders", "check", "--game", "m", "--db", db, orders.string()}, out) ==
        1);
  CHECK_THAT(out, Catch::Contains("pbem: orders check --game: " + refused));
  CHECK(Run({PBEM_BINARY, "archive", "m", "-o", (scratch / "html").string(), "--db", db}, out) ==
        1);
  CHECK_THAT(out, Catch::Contains("pbem: archive: " + refused));
  CHECK_FALSE(fs::exists(scratch / "html" / "index.html"));
  const std::string png = (scratch / "map.png").string();
  CHECK(Run({PBEM_BINARY, "render", "--game", "m", "--turn", "1", "--db", db, "-o", png}, out) ==
        1);
  CHECK_THAT(out, Catch::Contains("pbem: render --game: " + refused));
  CHECK_FALSE(fs::exists(png));
}

TEST_CASE("pbem turns stuck lists stuck games; pbem turns retry frees them", "[cli]") {
  StoreAtTurnTwo store;
  {
    storage::SqliteRepository repository(store.scratch / "data");
    REQUIRE(repository.OpenOrMigrate().ok());
    storage::TurnFailure failure;
    failure.game_id = "g1";
    failure.error = "INTERNAL: the stored state\ndoes not parse";
    failure.at = storage::Timestamp(std::chrono::milliseconds(1'700'000'900'000));
    failure.retry_at = failure.at;
    failure.stuck = true;
    REQUIRE(repository.RecordTurnFailure(failure).ok());
  }
  std::string out;
  REQUIRE(Run({PBEM_BINARY, "turns", "stuck", "--db", store.db}, out) == 0);
  INFO(out);
  CHECK_THAT(out, Catch::StartsWith("1 stuck game\n"));
  // One line per game, the error on the next, control characters shown as '?'.
  CHECK_THAT(out, Catch::Contains("g1  stuck since 2023-11-14T22:28:20Z  turns committed 3  "
                                  "failures 1\n    last error: INTERNAL: the stored "
                                  "state?does not parse\n"));
  REQUIRE(Run({PBEM_BINARY, "turns", "retry", "g1", "--db", store.db}, out) == 0);
  CHECK_THAT(out, Catch::Contains("game g1: pbemd tries its turn again"));
  REQUIRE(Run({PBEM_BINARY, "turns", "stuck", "--db", store.db}, out) == 0);
  CHECK_THAT(out, Catch::StartsWith("0 stuck games\n"));
  // Not stuck (any more), or no such game: exit 1, saying so.
  CHECK(Run({PBEM_BINARY, "turns", "retry", "g1", "--db", store.db}, out) == 1);
  CHECK_THAT(out, Catch::Contains("not stuck"));
  CHECK(Run({PBEM_BINARY, "turns", "retry", "nope", "--db", store.db}, out) == 1);
  CHECK(Run({PBEM_BINARY, "turns", "retry", "--db", store.db}, out) == 2);
  CHECK(Run({PBEM_BINARY, "turns", "unstick", "--db", store.db}, out) == 2);
}

}  // namespace
}  // namespace pbem::daemon
