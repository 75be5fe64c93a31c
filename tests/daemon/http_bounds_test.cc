// Issue 13, finding 8: every field of game creation is checked at the door, with an error
// naming it (deadlines, addresses, sides, tokens, JSON nesting); a game and its players are
// created together or not at all; orders for a game that is over are told so.
#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "tests/daemon/game_fixture.h"
#include "tests/daemon/games_server.h"

namespace pbem::daemon {
namespace {

using testing::BlueOrdersText;
using testing::GamesServer;
using Reply = pbem::testing::HttpReply;

constexpr const char* kAdmin = "admin-token-0123456789";

// A creation body for game `id` with `extra` fields and `players` (JSON array text).
std::string Body(const std::string& id, const std::string& extra, const std::string& players) {
  return R"({"id":")" + id + R"(","scenario":"bois-de-la-morne")" + extra + R"(,"players":)" +
         players + "}";
}

const std::string kTwoPlayers =
    R"([{"side":"blue","address":"ann@test.local","token":"ann-token-1"},)"
    R"({"side":"orange","address":"ben@test.local","token":"ben-token-1"}])";

std::string Player(const std::string& side, const std::string& address_json) {
  return R"({"side":")" + side + R"(","address":)" + address_json + R"(,"token":"tok-12345"})";
}

TEST_CASE("game creation: deadlines are bounded, the error names the field", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  struct Case {
    std::string extra;
    const char* field;
  };
  const std::vector<Case> refused = {
      {R"(,"turnTimeoutSeconds":9223372036854775807)", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":18446744073709551615)", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":1e300)", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":-1)", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":31622401)", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":3600.5)", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":"3600")", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":true)", "turnTimeoutSeconds"},
      {R"(,"turnTimeoutSeconds":3600,"reminderBeforeSeconds":3600)", "reminderBeforeSeconds"},
      {R"(,"turnTimeoutSeconds":3600,"reminderBeforeSeconds":-5)", "reminderBeforeSeconds"},
      {R"(,"reminderBeforeSeconds":60)", "reminderBeforeSeconds"},
      {R"(,"turnTimeoutSeconds":3600,"reminderBeforeSeconds":9223372036854775807)",
       "reminderBeforeSeconds"},
  };
  for (const Case& c : refused) {
    INFO(c.extra);
    Reply reply = server.Send("POST", "/v1/games", Body("g1", c.extra, kTwoPlayers),
                              "application/json", kAdmin);
    CHECK(reply.status == 400);
    CHECK(reply.error_code() == "malformed");
    CHECK_THAT(reply.error_message(), Catch::Contains(c.field));
    CHECK(fixture.repository.GetGame("g1").status().code() == StatusCode::kNotFound);
  }
  // The bounds themselves are accepted.
  int n = 0;
  for (const std::string& extra : std::vector<std::string>{
           R"(,"turnTimeoutSeconds":60,"reminderBeforeSeconds":59)", R"(,"turnTimeoutSeconds":1)",
           R"(,"turnTimeoutSeconds":31622400,"reminderBeforeSeconds":0)",
           R"(,"turnTimeoutSeconds":0)", std::string()}) {
    INFO(extra);
    const std::string id = "ok" + std::to_string(++n);
    Reply reply =
        server.Send("POST", "/v1/games", Body(id, extra, kTwoPlayers), "application/json", kAdmin);
    CHECK(reply.status == 201);
  }
  CHECK(fixture.repository.GetGame("ok3")->deadlines.turn_timeout ==
        std::chrono::seconds(31622400));
}

TEST_CASE("game creation: two blue players store nothing, and the retry works", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  const std::string two_blue = "[" + Player("blue", R"("ann@test.local")") + "," +
                               Player("blue", R"("ben@test.local")") + "]";
  Reply conflict =
      server.Send("POST", "/v1/games", Body("g1", "", two_blue), "application/json", kAdmin);
  CHECK(conflict.status == 409);
  CHECK(conflict.error_code() == "already_exists");
  CHECK_THAT(conflict.error_message(), Catch::Contains("players[1].side"));
  CHECK(fixture.repository.GetGame("g1").status().code() == StatusCode::kNotFound);
  CHECK(fixture.repository.ListPlayers("g1")->empty());
  Reply retry =
      server.Send("POST", "/v1/games", Body("g1", "", kTwoPlayers), "application/json", kAdmin);
  CHECK(retry.status == 201);
  CHECK(fixture.repository.ListPlayers("g1")->size() == 2);
}

TEST_CASE("game creation: addresses are addr-specs, nothing reaches a header", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  for (const std::string& address : std::vector<std::string>{
           R"("ann@test.local\r\nBcc: eve@evil.example")", R"("ann@test.local\nBcc: eve@x")",
           R"("@")", R"("a@")", R"("a@b,c@d")", R"("a\u0000@b")", R"("Ann <ann@test.local>")",
           R"("")", R"(42)", R"(["ann@test.local"])"}) {
    INFO(address);
    Reply reply =
        server.Send("POST", "/v1/games", Body("g1", "", "[" + Player("blue", address) + "]"),
                    "application/json", kAdmin);
    CHECK(reply.status == 400);
    CHECK(reply.error_code() == "malformed");
    CHECK_THAT(reply.error_message(), Catch::Contains("players[0].address"));
  }
  for (const auto& [players, field] :
       {std::pair{std::string(R"([{"side":"blue","address":"a@b","token":"short"}])"),
                  "players[0].token"},
        std::pair{std::string(R"([{"side":"blue","address":"a@b","token":"tok-1234\r\nX: y"}])"),
                  "players[0].token"},
        std::pair{
            std::string(R"([{"side":"blue","address":"a@b","token":"tok-12345"},)"
                        R"({"side":"orange","address":"b@c","token":"tok-12345","language":7}])"),
            "players[1].language"},
        std::pair{std::string(R"([1])"), "players[0] is not an object"}}) {
    INFO(players);
    Reply reply =
        server.Send("POST", "/v1/games", Body("g1", "", players), "application/json", kAdmin);
    CHECK(reply.status == 400);
    CHECK_THAT(reply.error_message(), Catch::Contains(field));
  }
  for (const std::string& id :
       std::vector<std::string>{"../x", "..", "a b", "g\r\n1", std::string(65, 'g')}) {
    INFO(id);
    Reply reply =
        server.Send("POST", "/v1/games", Body(id, "", kTwoPlayers), "application/json", kAdmin);
    CHECK(reply.status == 400);
  }
  CHECK(fixture.repository.ListGames()->size() == 2);  // the fixture's two
  // A quoted local part and a domain literal are addresses too.
  Reply quoted =
      server.Send("POST", "/v1/games",
                  Body("g2", "", "[" + Player("blue", R"("\"ann smith\"@[192.0.2.1]")") + "]"),
                  "application/json", kAdmin);
  CHECK(quoted.status == 201);
}

TEST_CASE("JSON nested deep is refused with a clear error, not read", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  // 30,000 deep fits the test server's 64 KiB body limit (the codec test goes to 200,000).
  const std::string deep = std::string(30000, '[') + std::string(30000, ']');
  Reply orders = server.Send("POST", "/v1/games/demo/orders", R"({"moves":)" + deep + "}",
                             "application/json", "tok-blue");
  CHECK(orders.status == 400);
  CHECK(orders.error_code() == "malformed");
  CHECK_THAT(orders.error_message(), Catch::Contains("nested deeper than 64"));
  Reply create = server.Send("POST", "/v1/games", R"({"id":"g1","x":)" + deep + "}",
                             "application/json", kAdmin);
  CHECK(create.status == 400);
  CHECK_THAT(create.error_message(), Catch::Contains("nested deeper than 64"));
  const auto submissions = fixture.repository.ListSubmissions("demo");
  REQUIRE(submissions.ok());
  for (const auto& s : *submissions) CHECK_FALSE(s.accepted);
}

TEST_CASE("orders for a game that is over answer game_over, worded", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  // Ended by the service (a resignation, a forfeit).
  storage::GameEnding resigned;
  resigned.kind = storage::GameEndKind::kResigned;
  resigned.winner = "blue";
  resigned.level = "total";
  resigned.text = "orange resigned";
  REQUIRE(*fixture.repository.EndGame("demo", 0, resigned, testing::At(5), {}));
  Reply ended =
      server.Send("POST", "/v1/games/demo/orders", BlueOrdersText(), "text/plain", "tok-blue");
  CHECK(ended.status == 409);
  CHECK(ended.error_code() == "game_over");
  CHECK_THAT(ended.error_message(), Catch::Contains("is over") && Catch::Contains("no more"));
  // The check route (nothing stored) says the same (issue 20: an organiser's result ends it).
  Reply checked = server.Send("POST", "/v1/games/demo/orders/check", BlueOrdersText(), "text/plain",
                              "tok-blue");
  CHECK(checked.status == 409);
  CHECK(checked.error_code() == "game_over");
  // Played to its end by the engine: the state says finished (and its turn moved on).
  auto game = fixture.repository.GetGame("other");
  REQUIRE(game.ok());
  pbem::v1::GameState state;
  REQUIRE(state.ParseFromString(game->state));
  state.set_finished(true);
  state.set_turn(state.turn() + 1);
  storage::TurnCommit commit;
  commit.game_id = "other";
  commit.turn = 1;
  commit.side = "blue";
  commit.based_on = 0;
  commit.dice_seed = "seed";
  REQUIRE(state.SerializeToString(&commit.next_state));
  commit.committed_at = testing::At(6);
  REQUIRE(fixture.repository.CommitTurn(commit).ok());
  std::string text = BlueOrdersText("tok-c");
  text.replace(text.find("game_id: \"demo\""), 15, "game_id: \"other\"");
  Reply finished = server.Send("POST", "/v1/games/other/orders", text, "text/plain", "tok-c");
  CHECK(finished.status == 409);
  CHECK(finished.error_code() == "game_over");
  CHECK_THAT(finished.error_message(), Catch::Contains("game \"other\" is over"));
}

}  // namespace
}  // namespace pbem::daemon
