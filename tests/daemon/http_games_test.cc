// The game routes of the HTTP API on loopback (Poco HTTPClientSession), against a real SQLite
// store holding the fixture's games: state reads, order submission and checks in the three
// formats, game creation, and a catalogue of bad requests, each with its stable error code
// and leaving the game unchanged.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPServer.h>
#include <Poco/Net/HTTPServerParams.h>
#include <Poco/Net/ServerSocket.h>
#include <Poco/StreamCopier.h>

#include <catch2/catch.hpp>

#include "daemon/http_api.h"
#include "daemon/turn/archive.h"
#include "daemon/turn/turn_job.h"
#include "daemon/turn_loop.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/games_server.h"
#include "tests/support/http_client.h"

namespace pbem::daemon {
namespace {

using testing::BlueOrdersText;

using Reply = pbem::testing::HttpReply;
using testing::GamesServer;

std::string Binary(const std::string& text) {
  auto parsed = codec::ParseOrders(text, codec::Format::kText, "orders");
  REQUIRE(parsed.ok());
  return codec::SerializeMessage(parsed.value(), codec::Format::kBinary);
}

// "move_step" -> "moveStep": protobuf JSON's name of a field.
std::string CamelCase(const std::string& snake) {
  std::string out;
  bool upper = false;
  for (const char c : snake) {
    if (c == '_') {
      upper = true;
    } else {
      out += upper ? static_cast<char>(c - 'a' + 'A') : c;
      upper = false;
    }
  }
  return out;
}

std::string Json(const std::string& text) {
  auto parsed = codec::ParseOrders(text, codec::Format::kText, "orders");
  REQUIRE(parsed.ok());
  return codec::SerializeMessage(parsed.value(), codec::Format::kJson);
}

TEST_CASE("GET a game's state as JSON or protobuf", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  Reply json = server.Send("GET", "/v1/games/demo");
  REQUIRE(json.status == 200);
  auto game = json.json();
  CHECK(game->getValue<std::string>("id") == "demo");
  CHECK(game->getValue<std::string>("scenario") == "bois-de-la-morne");
  CHECK(game->getValue<int>("turn") == 1);
  CHECK(game->getArray("sides")->size() == 2);
  REQUIRE(game->getObject("state"));
  CHECK(game->getObject("state")->getValue<std::string>("gameId") == "demo");

  Reply proto = server.Send("GET", "/v1/games/demo", "", "", "", "application/x-protobuf");
  REQUIRE(proto.status == 200);
  CHECK(proto.content_type == "application/x-protobuf");
  pbem::v1::GameState state;
  REQUIRE(state.ParseFromString(proto.body));
  CHECK(state.game_id() == "demo");

  Reply missing = server.Send("GET", "/v1/games/nope");
  CHECK(missing.status == 404);
  CHECK(missing.error_code() == "not_found");
  Reply list = server.Send("GET", "/v1/games");
  REQUIRE(list.status == 200);
  Poco::JSON::Array::Ptr games = list.json()->getArray("games");
  REQUIRE(games->size() == 2);
  CHECK(games->getObject(0)->getValue<std::string>("id") == "demo");
  CHECK(games->getObject(1)->getValue<std::string>("id") == "other");
  CHECK_FALSE(games->getObject(0)->getValue<bool>("paused"));
}

TEST_CASE("an admin pauses and resumes a game; others may not", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  CHECK(server.Send("POST", "/v1/games/demo/pause", "", "", "tok-blue").status == 403);
  CHECK_FALSE(fixture.repository.GetGame("demo")->paused_at.has_value());
  Reply paused = server.Send("POST", "/v1/games/demo/pause", "", "", "admin-token-0123456789");
  REQUIRE(paused.status == 200);
  CHECK(paused.json()->getValue<bool>("paused"));
  CHECK(fixture.repository.GetGame("demo")->paused_at.has_value());
  Reply listed = server.Send("GET", "/v1/games");
  CHECK(listed.json()->getArray("games")->getObject(0)->getValue<bool>("paused"));
  REQUIRE(server.Send("POST", "/v1/games/demo/resume", "", "", "admin-token-0123456789").status ==
          200);
  CHECK_FALSE(fixture.repository.GetGame("demo")->paused_at.has_value());
  Reply missing = server.Send("POST", "/v1/games/nope/pause", "", "", "admin-token-0123456789");
  CHECK(missing.status == 404);
  CHECK(missing.error_code() == "not_found");
}

TEST_CASE("orders are submitted in text, JSON and binary with the bearer token", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  const std::string text = BlueOrdersText("");  // the bearer token authenticates
  Reply reply = server.Send("POST", "/v1/games/demo/orders", text, "text/plain", "tok-blue");
  REQUIRE(reply.status == 200);
  auto body = reply.json();
  CHECK(body->getValue<bool>("accepted"));
  CHECK(body->getValue<std::string>("side") == "blue");
  auto verdicts = body->getArray("verdicts");
  REQUIRE(verdicts->size() == 5);
  CHECK(verdicts->getObject(0)->getValue<std::string>("verdict") == "ok");
  CHECK(verdicts->getObject(0)->getValue<std::string>("text") == "move 1 (b-i2): ok");

  // The same bytes again: stored once.
  Reply again = server.Send("POST", "/v1/games/demo/orders", text, "text/plain", "tok-blue");
  REQUIRE(again.status == 200);
  CHECK(again.json()->getValue<bool>("duplicate"));

  Reply json = server.Send("POST", "/v1/games/demo/orders", Json(BlueOrdersText()),
                           "application/json", "tok-blue");
  CHECK(json.status == 200);
  Reply binary = server.Send("POST", "/v1/games/demo/orders", Binary(BlueOrdersText("")),
                             "application/x-protobuf", "tok-blue");
  CHECK(binary.status == 200);
  auto submissions = fixture.repository.ListSubmissions("demo");
  REQUIRE(submissions.ok());
  CHECK(submissions->size() == 3);
  CHECK((*submissions)[0].channel == storage::Channel::kHttp);
  CHECK((*submissions)[0].accepted);
}

TEST_CASE("checking orders returns verdicts and stores nothing", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  std::string text = BlueOrdersText("");
  text += "attacks { attacker: \"b-i2\" defender: \"zz-9\" }\n";
  Reply reply = server.Send("POST", "/v1/games/demo/orders/check", text, "text/plain", "tok-blue");
  REQUIRE(reply.status == 200);
  CHECK_FALSE(reply.json()->getValue<bool>("stored"));
  auto verdicts = reply.json()->getArray("verdicts");
  REQUIRE(verdicts->size() == 6);
  CHECK(verdicts->getObject(5)->getValue<std::string>("verdict") == "invalid");
  CHECK(verdicts->getObject(5)->getValue<std::string>("reason") == "unknown_unit");
  CHECK(fixture.repository.ListSubmissions("demo")->empty());
  // The destination order gets the cheapest path the engine would take.
  Poco::JSON::Array::Ptr destinations = reply.json()->getArray("destinations");
  REQUIRE(destinations);
  REQUIRE(destinations->size() == 1);
  Poco::JSON::Object::Ptr household = destinations->getObject(0);
  CHECK(household->getValue<std::string>("destination") == "2307");
  REQUIRE(household->getValue<bool>("reachable"));
  CHECK(household->getValue<int>("cost") == 4);  // 4 clear hexes (the orders file says so)
  Poco::JSON::Array::Ptr path = household->getArray("path");
  REQUIRE(path->size() == 4);
  CHECK(path->getElement<std::string>(static_cast<unsigned>(path->size() - 1)) == "2307");
}

struct BadRequest {
  const char* name;
  std::string method, uri, body, content_type, token;
  int status;
  const char* code;
  const char* message_part;
};

TEST_CASE("bad requests get a JSON error with a stable code and change nothing", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  std::string stale = BlueOrdersText();
  stale.replace(stale.find("turn: 1"), 7, "turn: 2");
  std::string other = BlueOrdersText();
  other.replace(other.find("game_id: \"demo\""), 15, "game_id: \"other\"");
  std::string orange = BlueOrdersText("");
  orange.replace(orange.find("side: SIDE_BLUE"), 15, "side: SIDE_ORANGE");
  // Another system's body in the envelope (proto/pbem/v1/orders.proto): refused, not taken as
  // Morne Plaine orders that happen to be empty.
  const std::string m42 =
      BlueOrdersText("") + "m42 { action { unit: \"alpha\" kind: GET_DOWN } }\n";
  const std::string wme_json =
      R"({"gameId":"demo","turn":1,"side":"SIDE_BLUE","wme":{"orders":[{"move":{"unit":"u7"}}]}})";
  const std::string orders = "/v1/games/demo/orders";
  const std::vector<BadRequest> cases = {
      {"M42's orders", "POST", orders, m42, "text/plain", "tok-blue", 400, "malformed",
       "field m42: the orders are written for m42; this game plays morne-plaine"},
      {"the French game's orders, checked", "POST", orders + "/check", wme_json, "application/json",
       "tok-blue", 400, "malformed",
       "field wme: the orders are written for wme; this game plays morne-plaine"},
      {"no token", "POST", orders, BlueOrdersText(), "text/plain", "", 401, "unauthenticated",
       "Authorization: Bearer"},
      {"wrong token", "POST", orders, BlueOrdersText(), "text/plain", "guess", 401,
       "unauthenticated", "not the token of a player"},
      {"another player's token in the orders", "POST", orders, BlueOrdersText("tok-orange"),
       "text/plain", "tok-blue", 403, "unauthenticated", "not the token of side blue"},
      {"the other side's orders", "POST", orders, orange, "text/plain", "tok-blue", 403,
       "unauthenticated", "you play side blue"},
      {"not orders", "POST", orders, "hello", "text/plain", "tok-blue", 400, "malformed",
       "request body:1:1"},
      {"bad JSON", "POST", orders, "{\"turn\": }", "application/json", "tok-blue", 400, "malformed",
       "request body"},
      {"garbage protobuf", "POST", orders, std::string("\xff\xff\xff", 3), "application/x-protobuf",
       "tok-blue", 400, "malformed", "request body"},
      {"oversized", "POST", orders, std::string(70 * 1024, ' '), "text/plain", "tok-blue", 413,
       "oversized", "larger than 65536 bytes"},
      {"stale turn", "POST", orders, stale, "text/plain", "tok-blue", 409, "stale_turn",
       "for turn 2; the game is at turn 1"},
      {"wrong game", "POST", orders, other, "text/plain", "tok-blue", 409, "wrong_game",
       "for game \"other\""},
      {"unknown game", "POST", "/v1/games/nope/orders", BlueOrdersText(), "text/plain", "tok-blue",
       404, "not_found", "no game \"nope\""},
      {"unknown route", "DELETE", "/v1/games/demo", "", "", "", 404, "not_found", "no route"},
      {"create without admin token", "POST", "/v1/games", "{}", "application/json", "tok-blue", 403,
       "forbidden", "admin token"},
      {"create with bad body", "POST", "/v1/games", "[1]", "application/json",
       "admin-token-0123456789", 400, "malformed", "not a JSON object"},
      {"create an existing game", "POST", "/v1/games",
       R"({"id":"demo","scenario":"bois-de-la-morne","players":[{"side":"blue","address":"x@y","token":"12345678"}]})",
       "application/json", "admin-token-0123456789", 409, "already_exists", "exists already"},
      {"create with an unknown scenario", "POST", "/v1/games",
       R"({"id":"g2","scenario":"atlantis","players":[{"side":"blue","address":"x@y","token":"12345678"}]})",
       "application/json", "admin-token-0123456789", 400, "unknown_scenario", "atlantis"},
      {"create a game of a system pbemd does not play yet", "POST", "/v1/games",
       R"({"id":"g4","system":"m42","scenario":"pumping_station","players":[{"side":"blue","address":"x@y","token":"12345678"}]})",
       "application/json", "admin-token-0123456789", 400, "unsupported_system",
       "pbemd cannot play m42 games yet"},
      {"create with an unknown scenario of a system", "POST", "/v1/games",
       R"({"id":"g5","system":"wme","scenario":"atlantis","players":[{"side":"blue","address":"x@y","token":"12345678"}]})",
       "application/json", "admin-token-0123456789", 400, "unknown_scenario", "atlantis"},
      {"create with an unknown system", "POST", "/v1/games",
       R"({"id":"g6","system":"chess","scenario":"bois-de-la-morne","players":[{"side":"blue","address":"x@y","token":"12345678"}]})",
       "application/json", "admin-token-0123456789", 400, "unknown_scenario",
       "game system \"chess\" is not one this pbemd plays"},
      {"create with a system that is no name", "POST", "/v1/games",
       R"({"id":"g7","system":"../m42","scenario":"bois-de-la-morne","players":[{"side":"blue","address":"x@y","token":"12345678"}]})",
       "application/json", "admin-token-0123456789", 400, "malformed",
       "\"system\" names a game system"},
      {"create with a bad side", "POST", "/v1/games",
       R"({"id":"g3","scenario":"bois-de-la-morne","players":[{"side":"red","address":"x@y","token":"12345678"}]})",
       "application/json", "admin-token-0123456789", 400, "malformed", "blue or orange"},
  };
  const std::string state_before = fixture.repository.GetGame("demo")->state;
  for (const BadRequest& c : cases) {
    INFO("case: " << c.name);
    Reply reply = server.Send(c.method, c.uri, c.body, c.content_type, c.token);
    CHECK(reply.status == c.status);
    CHECK(reply.content_type == "application/json");
    CHECK(reply.error_code() == c.code);
    CHECK_THAT(reply.error_message(), Catch::Contains(c.message_part));
  }
  auto game = fixture.repository.GetGame("demo");
  CHECK(game->state == state_before);
  CHECK(game->turns_committed == 0);
  // Hold the Result: a range-for over *temporary would dangle (the Result dies first).
  const auto submissions = fixture.repository.ListSubmissions("demo");
  REQUIRE(submissions.ok());
  for (const auto& submission : *submissions) {
    CHECK_FALSE(submission.accepted);
  }
  CHECK(fixture.repository.GetGame("g2").status().code() == StatusCode::kNotFound);
  CHECK(fixture.repository.GetGame("g3").status().code() == StatusCode::kNotFound);
  for (const char* refused : {"g4", "g5", "g6", "g7"}) {
    CHECK(fixture.repository.GetGame(refused).status().code() == StatusCode::kNotFound);
  }
}

TEST_CASE("the admin creates a game and its players can submit", "[daemon][http]") {
  testing::GameFixture fixture;
  GamesServer server(fixture);
  Reply created =
      server.Send("POST", "/v1/games",
                  R"({"id":"g9","scenario":"bois-de-la-morne","players":[)"
                  R"({"side":"blue","address":"ann@test.local","token":"ann-token-1"},)"
                  R"({"side":"orange","address":"ben@test.local","token":"ben-token-1"}]})",
                  "application/json", "admin-token-0123456789");
  REQUIRE(created.status == 201);
  CHECK(fixture.repository.GetGame("g9")->system == "morne-plaine");  // none named: the default
  // Named, the same.
  Reply named =
      server.Send("POST", "/v1/games",
                  R"({"id":"g10","system":"morne-plaine","scenario":"bois-de-la-morne",)"
                  R"("players":[{"side":"blue","address":"cy@test.local","token":"cy-token-1"}]})",
                  "application/json", "admin-token-0123456789");
  CHECK(named.status == 201);
  CHECK(fixture.repository.GetGame("g10")->system == "morne-plaine");
  auto players = fixture.repository.ListPlayers("g9");
  REQUIRE(players.ok());
  REQUIRE(players->size() == 2);
  CHECK((*players)[0].mail_address == "ann@test.local");
  std::string text = BlueOrdersText("");
  text.replace(text.find("game_id: \"demo\""), 15, "game_id: \"g9\"");
  Reply submitted = server.Send("POST", "/v1/games/g9/orders", text, "text/plain", "ann-token-1");
  CHECK(submitted.status == 200);
}

}  // namespace
}  // namespace pbem::daemon

namespace pbem::daemon {
namespace {

TEST_CASE("a resolved turn's report, map, archive page and history over HTTP", "[daemon][http]") {
  testing::GameFixture fixture;
  templates::MailTemplates mail_templates;
  REQUIRE(
      templates::MailTemplates::Load(testing::SourceDir() / "templates" / "mail", &mail_templates)
          .ok);
  GamesServer server(fixture, &mail_templates);
  FixedEntropy entropy("http-report");
  LimitsConfig limits;
  TurnLoop loop(fixture.catalog, mail_templates, entropy, fixture.metrics, limits,
                TurnLoopOptions{std::chrono::seconds(0), false});
  REQUIRE(loop.Open(fixture.repository, "demo", testing::At(1)).ok());

  Reply empty = server.Send("GET", "/v1/games/demo/history");
  REQUIRE(empty.status == 200);
  CHECK(empty.json()->getArray("turns")->size() == 0);
  CHECK(server.Send("GET", "/v1/games/demo/turns/1").status == 404);

  REQUIRE(server.Send("POST", "/v1/games/demo/orders", BlueOrdersText(""), "text/plain", "tok-blue")
              .status == 200);
  REQUIRE(*loop.ResolveIfDue(fixture.repository, "demo", testing::At(2)));
  const storage::Turn stored = (*fixture.repository.ListTurns("demo"))[0];

  Reply history = server.Send("GET", "/v1/games/demo/history");
  REQUIRE(history.status == 200);
  Poco::JSON::Array::Ptr turns = history.json()->getArray("turns");
  REQUIRE(turns->size() == 1);
  CHECK(turns->getObject(0)->getValue<std::string>("side") == "blue");
  CHECK(turns->getObject(0)->getValue<std::string>("revealedSeed") == Hex(stored.dice_seed));

  Reply report = server.Send("GET", "/v1/games/demo/turns/1");
  REQUIRE(report.status == 200);
  Poco::JSON::Object::Ptr result = report.json()->getObject("result");
  REQUIRE(result);
  CHECK(result->getArray("verdicts")->size() > 0);
  CHECK(result->getArray("events")->size() > 0);
  // Format 2: each event's payload is an object named after its kind, no positional args.
  CHECK(result->getValue<int>("formatVersion") == 2);
  Poco::JSON::Object::Ptr first = result->getArray("events")->getObject(0);
  REQUIRE(first);
  CHECK_FALSE(first->has("args"));
  const std::string kind = first->getValue<std::string>("kind");
  CHECK(first->has(kind == "die" ? std::string("dieEvent") : CamelCase(kind)));
  CHECK(result->getObject("dice")->getValue<std::string>("revealedSeed") == Hex(stored.dice_seed));

  Reply map = server.Send("GET", "/v1/games/demo/turns/1/map.png");
  REQUIRE(map.status == 200);
  CHECK(map.content_type == "image/png");
  REQUIRE(map.body.size() > 1000);
  CHECK(map.body.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);

  Reply beyond = server.Send("GET", "/v1/games/demo/turns/2/map.png");
  CHECK(beyond.status == 404);
  CHECK(beyond.error_code() == "not_found");
  Reply bad = server.Send("GET", "/v1/games/demo/turns/x");
  CHECK(bad.status == 400);
  CHECK(bad.error_code() == "invalid_argument");
  CHECK(server.Send("GET", "/v1/games/nope/history").status == 404);

  // The archive page: the index links the turn page, which shows its map.
  Reply index = server.Send("GET", "/v1/games/demo/archive/");
  REQUIRE(index.status == 200);
  CHECK(index.content_type == "text/html; charset=utf-8");
  CHECK_THAT(index.body, Catch::Contains("turn-001.html"));
  Reply page = server.Send("GET", "/v1/games/demo/archive/turn-001.html");
  REQUIRE(page.status == 200);
  CHECK_THAT(page.body, Catch::Contains("map-001.png"));
  CHECK_THAT(page.body, Catch::Contains(Hex(stored.dice_seed)));
  Reply archived_map = server.Send("GET", "/v1/games/demo/archive/map-001.png");
  REQUIRE(archived_map.status == 200);
  CHECK(archived_map.content_type == "image/png");
  CHECK(archived_map.body.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  CHECK(server.Send("GET", "/v1/games/demo/archive/..%2Fpbem.sqlite").status == 404);
  CHECK(server.Send("GET", "/v1/games/demo/archive/turn-002.html").status == 404);
}

// Issue 14: the verdicts' "text" was always English, units named by id. Now ?lang=en|fr, else
// the player's language, and units named as the scenario names them (seen failing before the
// fix: "move 1 (b-i2): accepted" for a French player).
TEST_CASE("the verdicts' text: ?lang, else the player's language; units by name",
          "[daemon][http]") {
  testing::GameFixture fixture;
  fixture.AddGame("fr", {{"blue", "lea@test.local", "tok-lea", "fr"},
                         {"orange", "max@test.local", "tok-max", "en"}});
  templates::MailTemplates mail_templates;
  REQUIRE(
      templates::MailTemplates::Load(testing::SourceDir() / "templates" / "mail", &mail_templates)
          .ok);
  GamesServer server(fixture, &mail_templates);
  const auto first_text = [&](const std::string& uri, const std::string& game,
                              const std::string& token) {
    std::string text = BlueOrdersText("");
    const std::string demo = "game_id: \"demo\"";
    text.replace(text.find(demo), demo.size(), "game_id: \"" + game + "\"");
    Reply reply = server.Send("POST", uri, text, "text/plain", token);
    INFO(reply.body);
    REQUIRE(reply.status == 200);
    return reply.json()->getArray("verdicts")->getObject(0)->getValue<std::string>("text");
  };
  CHECK(first_text("/v1/games/demo/orders/check", "demo", "tok-blue") ==
        "move 1 (Brigade Lambert (b-i2)): accepted");
  CHECK(first_text("/v1/games/demo/orders/check?lang=fr", "demo", "tok-blue") ==
        "mouvement 1 (Brigade Lambert (b-i2))\u00a0: accepté");
  CHECK(first_text("/v1/games/fr/orders/check", "fr", "tok-lea") ==
        "mouvement 1 (Brigade Lambert (b-i2))\u00a0: accepté");
  CHECK(first_text("/v1/games/fr/orders/check?lang=EN", "fr", "tok-lea") ==
        "move 1 (Brigade Lambert (b-i2)): accepted");
  // Stored submissions answer in the same words.
  CHECK(first_text("/v1/games/fr/orders?lang=en", "fr", "tok-lea") ==
        "move 1 (Brigade Lambert (b-i2)): accepted");

  // An unknown language is refused, naming the field, and stores nothing.
  Reply bad = server.Send("POST", "/v1/games/demo/orders?lang=klingon", BlueOrdersText(""),
                          "text/plain", "tok-blue");
  CHECK(bad.status == 400);
  CHECK(bad.error_code() == "invalid_argument");
  CHECK_THAT(bad.body, Catch::Contains("lang: \\\"klingon\\\" is not a language"));
  CHECK(fixture.repository.ListSubmissions("demo")->empty());
}

// Issue 14 point 12: a player's own verifiable archive over HTTP (it was a 404).
TEST_CASE("GET /v1/games/{id}/export: the archive file that pbem verify checks", "[daemon][http]") {
  testing::GameFixture fixture;
  templates::MailTemplates mail_templates;
  REQUIRE(
      templates::MailTemplates::Load(testing::SourceDir() / "templates" / "mail", &mail_templates)
          .ok);
  GamesServer server(fixture, &mail_templates);
  auto data = fixture.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  storage::NewGame game = MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto,
                                      (*data)->scenario, "pinned", testing::At(1));
  game.scenario = "bois-de-la-morne";
  REQUIRE(fixture.repository.CreateGame(game).ok());
  REQUIRE(fixture.repository.AddPlayer({"pinned", "blue", "a@test.local", "tok-a", "en"}).ok());
  REQUIRE(fixture.repository.AddPlayer({"pinned", "orange", "b@test.local", "tok-b", "en"}).ok());
  FixedEntropy entropy("http-export");
  LimitsConfig limits;
  TurnLoop loop(fixture.catalog, mail_templates, entropy, fixture.metrics, limits,
                TurnLoopOptions{std::chrono::seconds(0), false});
  REQUIRE(loop.Open(fixture.repository, "pinned", testing::At(1)).ok());
  std::string orders = BlueOrdersText("");
  const std::string demo = "game_id: \"demo\"";
  orders.replace(orders.find(demo), demo.size(), "game_id: \"pinned\"");
  REQUIRE(server.Send("POST", "/v1/games/pinned/orders", orders, "text/plain", "tok-a").status ==
          200);
  REQUIRE(*loop.ResolveIfDue(fixture.repository, "pinned", testing::At(2)));

  Reply file = server.Send("GET", "/v1/games/pinned/export");
  REQUIRE(file.status == 200);
  CHECK(file.content_type == "application/octet-stream");
  pbem::v1::Archive archive;
  REQUIRE(archive.ParseFromString(file.body));
  CHECK(archive.game_id() == "pinned");
  CHECK(archive.turns_size() == 1);
  const VerifyReport report = VerifyArchive(archive);
  INFO(report.problem);
  CHECK(report.ok);
  CHECK(report.turns_checked == 1);

  // A game created without its rules pinned has none; an unknown game is not found.
  Reply none = server.Send("GET", "/v1/games/demo/export");
  CHECK(none.status == 404);
  CHECK_THAT(none.body, Catch::Contains("has no verifiable archive"));
  CHECK(server.Send("GET", "/v1/games/nope/export").status == 404);
  CHECK(server.Send("POST", "/v1/games/pinned/export").status == 404);
}

}  // namespace
}  // namespace pbem::daemon
