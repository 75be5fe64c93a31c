// Issue 19 point 1: a game's state (JSON and protobuf) and a turn's map are served from a
// cache keyed on what the database says (turns committed, the game's end), with a strong ETag
// and If-None-Match answered 304 (RFC 9110). Through pbemd's own HTTP front (daemon/http/
// server.h) and a raw client, so the bytes of a 304 are seen as sent. Seen failing before the
// cache: no ETag field, If-None-Match ignored (200 with the body).
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "daemon/config.h"
#include "daemon/http/server.h"
#include "daemon/http_api.h"
#include "daemon/read_cache.h"
#include "daemon/turn/dice.h"
#include "daemon/turn_loop.h"
#include "templates/mail_render.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/games_server.h"
#include "tests/daemon/http/raw_client.h"

namespace pbem::daemon {
namespace {

using http::testing::RawClient;
using http::testing::RawResponse;

// pbemd's HTTP front and API over the fixture's SQLite store, with its own cache: two of them
// are two pbemd sharing one database.
class Front {
 public:
  Front(testing::GameFixture& fixture, std::size_t cache_bytes) {
    ApiServices services = testing::FixtureServices(fixture);
    services.read_cache_bytes = cache_bytes;
    Poco::Net::ServerSocket socket;
    socket.bind(Poco::Net::SocketAddress("127.0.0.1", 0), true, false);
    socket.listen(64);
    port_ = socket.address().port();
    server_ = std::make_unique<http::Server>(
        std::move(socket),
        std::make_unique<ApiRequestHandlerFactory>(testing::NullLogger(), services),
        http::ServerLimits{}, testing::NullLogger());
    server_->Start();
  }
  ~Front() { server_->Stop(); }

  // GET `path` on a new connection with the extra header lines `fields` ("Name: value\r\n"...).
  RawResponse Get(const std::string& path, const std::string& fields = "") {
    RawClient client(port_);
    REQUIRE(client.connected());
    REQUIRE(client.Send("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields + "\r\n"));
    RawResponse response = client.Read();
    REQUIRE(response.status != 0);
    return response;
  }
  RawResponse GetProto(const std::string& path, const std::string& fields = "") {
    return Get(path, "Accept: application/x-protobuf\r\n" + fields);
  }
  std::uint16_t port() const { return port_; }

 private:
  std::uint16_t port_ = 0;
  std::unique_ptr<http::Server> server_;
};

std::string IfNoneMatch(const std::string& value) { return "If-None-Match: " + value + "\r\n"; }

// Plays blue's first player-turn of "demo" (orders stored, then resolved).
void CommitFirstTurn(testing::GameFixture& fixture, Front& front) {
  templates::MailTemplates words;
  REQUIRE(templates::MailTemplates::Load(testing::SourceDir() / "templates" / "mail", &words).ok);
  FixedEntropy entropy("read-cache");
  LimitsConfig limits;
  TurnLoop loop(fixture.catalog, words, entropy, fixture.metrics, limits,
                TurnLoopOptions{std::chrono::seconds(0), false});
  REQUIRE(loop.Open(fixture.repository, "demo", testing::At(1)).ok());
  const std::string orders = testing::BlueOrdersText("");
  RawClient client(front.port());
  REQUIRE(
      client.Send("POST /v1/games/demo/orders HTTP/1.1\r\nHost: x\r\n"
                  "Authorization: Bearer tok-blue\r\nContent-Type: text/plain\r\n"
                  "Content-Length: " +
                  std::to_string(orders.size()) + "\r\n\r\n" + orders));
  REQUIRE(client.Read().status == 200);
  REQUIRE(*loop.ResolveIfDue(fixture.repository, "demo", testing::At(2)));
}

TEST_CASE("a game's state has a strong ETag, stable across reads, and the same bytes cached",
          "[daemon][http][cache]") {
  testing::GameFixture fixture;
  Front cached(fixture, 1 << 20);
  Front uncached(fixture, 0);
  for (const bool proto : {false, true}) {
    INFO((proto ? "protobuf" : "JSON"));
    auto get = [&](Front& front) {
      return proto ? front.GetProto("/v1/games/demo") : front.Get("/v1/games/demo");
    };
    const RawResponse first = get(cached);
    const RawResponse second = get(cached);
    const RawResponse plain = get(uncached);
    REQUIRE(first.status == 200);
    REQUIRE(second.status == 200);
    REQUIRE(plain.status == 200);
    const std::string etag = first.Header("etag");
    REQUIRE(etag.size() > 2);
    CHECK(etag.front() == '"');
    CHECK(etag.back() == '"');
    CHECK(etag.rfind("W/", 0) == std::string::npos);  // strong
    CHECK(second.Header("etag") == etag);
    CHECK(plain.Header("etag") == etag);
    CHECK(first.Header("cache-control") == "no-cache");
    CHECK(first.Header("vary") == "Accept");
    // The kept answer is the encoded one, byte for byte.
    CHECK(second.body == first.body);
    CHECK(plain.body == first.body);
    CHECK(second.Header("content-type") == first.Header("content-type"));
  }
  // One tag per encoding, per game.
  CHECK(cached.Get("/v1/games/demo").Header("etag") !=
        cached.GetProto("/v1/games/demo").Header("etag"));
  CHECK(cached.Get("/v1/games/demo").Header("etag") !=
        cached.Get("/v1/games/other").Header("etag"));
  CHECK(cached.Get("/v1/games/nope").status == 404);
  CHECK(cached.Get("/v1/games/nope").Header("etag").empty());
}

TEST_CASE("If-None-Match: 304 with no body for the current tag, per RFC 9110",
          "[daemon][http][cache]") {
  testing::GameFixture fixture;
  Front front(fixture, 1 << 20);
  const RawResponse full = front.Get("/v1/games/demo");
  const std::string etag = full.Header("etag");
  REQUIRE(etag.size() > 2);
  const std::string opaque = etag.substr(1, etag.size() - 2);

  for (const std::string& value : {etag, "W/" + etag, "\"other\", " + etag,
                                   "\"a\" ,W/\"b\",  " + etag + " ,", std::string("*")}) {
    INFO(value);
    const RawResponse not_modified = front.Get("/v1/games/demo", IfNoneMatch(value));
    CHECK(not_modified.status == 304);
    CHECK(not_modified.body.empty());
    CHECK(not_modified.Header("content-length").empty());
    CHECK(not_modified.Header("etag") == etag);
    CHECK(not_modified.Header("cache-control") == "no-cache");
  }
  // Several fields make one list.
  const RawResponse two_fields =
      front.Get("/v1/games/demo", IfNoneMatch("\"x\"") + IfNoneMatch(etag));
  CHECK(two_fields.status == 304);

  // A tag that does not match, and malformed values (ignored): the full answer.
  for (const std::string& value :
       {std::string("\"other\""), opaque, "w/" + etag, "\"" + opaque, etag + " x", etag + ", *",
        std::string("W/"), std::string("\"a b\"")}) {
    INFO(value);
    const RawResponse answered = front.Get("/v1/games/demo", IfNoneMatch(value));
    CHECK(answered.status == 200);
    CHECK(answered.body == full.body);
    CHECK(answered.Header("etag") == etag);
  }
  // The JSON's tag does not validate the protobuf answer.
  CHECK(front.GetProto("/v1/games/demo", IfNoneMatch(etag)).status == 200);

  // A kept-alive connection goes on after a 304 (no body to skip).
  RawClient client(front.port());
  REQUIRE(client.Send("GET /v1/games/demo HTTP/1.1\r\nHost: x\r\n" + IfNoneMatch(etag) +
                      "\r\nGET /v1/games/demo HTTP/1.1\r\nHost: x\r\n\r\n"));
  CHECK(client.Read().status == 304);
  const RawResponse after = client.Read();
  CHECK(after.status == 200);
  CHECK(after.body == full.body);
}

TEST_CASE("a commit or an end makes a new ETag in every instance sharing the database",
          "[daemon][http][cache]") {
  testing::GameFixture fixture;
  Front a(fixture, 1 << 20);
  Front b(fixture, 1 << 20);
  Front uncached(fixture, 0);
  const RawResponse before = a.Get("/v1/games/demo");
  const RawResponse before_proto = a.GetProto("/v1/games/demo");
  REQUIRE(b.Get("/v1/games/demo").Header("etag") == before.Header("etag"));

  // A turn committed through instance b (the store is shared; neither a's cache nor its
  // handlers hear of it).
  CommitFirstTurn(fixture, b);
  for (Front* front : {&a, &b}) {
    const RawResponse json = front->Get("/v1/games/demo");
    const RawResponse proto = front->GetProto("/v1/games/demo");
    CHECK(json.Header("etag") != before.Header("etag"));
    CHECK(proto.Header("etag") != before_proto.Header("etag"));
    CHECK(json.body != before.body);
    CHECK(json.body == uncached.Get("/v1/games/demo").body);
    CHECK(proto.body == uncached.GetProto("/v1/games/demo").body);
    CHECK(front->Get("/v1/games/demo", IfNoneMatch(before.Header("etag"))).status == 200);
  }
  const RawResponse committed = a.Get("/v1/games/demo");

  // The game ends (a resignation, an organiser's result): the state is the same, the tag not.
  storage::GameEnding ending;
  ending.kind = storage::GameEndKind::kResigned;
  ending.winner = "orange";
  ending.level = "total";
  ending.text = "blue resigned; orange wins";
  REQUIRE(*fixture.repository.EndGame("demo", 1, ending, testing::At(3), {}));
  for (Front* front : {&a, &b}) {
    const RawResponse ended = front->Get("/v1/games/demo");
    CHECK(ended.Header("etag") != committed.Header("etag"));
    CHECK(ended.body == uncached.Get("/v1/games/demo").body);
    CHECK(front->Get("/v1/games/demo", IfNoneMatch(committed.Header("etag"))).status == 200);
    CHECK(front->Get("/v1/games/demo", IfNoneMatch(ended.Header("etag"))).status == 304);
  }
}

TEST_CASE("a turn's map has an ETag, is drawn once and stays byte-identical",
          "[daemon][http][cache]") {
  testing::GameFixture fixture;
  Front front(fixture, 4 << 20);
  Front uncached(fixture, 0);
  CHECK(front.Get("/v1/games/demo/turns/1/map.png").status == 404);
  CommitFirstTurn(fixture, front);
  const RawResponse map = front.Get("/v1/games/demo/turns/1/map.png");
  REQUIRE(map.status == 200);
  CHECK(map.Header("content-type") == "image/png");
  const std::string etag = map.Header("etag");
  REQUIRE(etag.size() > 2);
  const RawResponse again = front.Get("/v1/games/demo/turns/1/map.png");
  CHECK(again.Header("etag") == etag);
  CHECK(again.body == map.body);
  CHECK(uncached.Get("/v1/games/demo/turns/1/map.png").body == map.body);
  const RawResponse not_modified = front.Get("/v1/games/demo/turns/1/map.png", IfNoneMatch(etag));
  CHECK(not_modified.status == 304);
  CHECK(not_modified.body.empty());
  CHECK(front.Get("/v1/games/demo/turns/2/map.png").status == 404);
  CHECK(front.Get("/v1/games/demo/turns/x/map.png").status == 400);
}

TEST_CASE("the read cache keeps at most its bytes, dropping the least recently used",
          "[daemon][cache]") {
  auto entry = [](std::size_t size) {
    return ReadCache::Entry{"\"t\"", "text/plain", std::make_shared<const std::string>(size, 'x')};
  };
  ReadCache cache(3000);
  cache.Put("a", entry(800));
  cache.Put("b", entry(800));
  cache.Put("c", entry(800));
  REQUIRE(cache.entries() == 3);
  REQUIRE(cache.Get("a"));  // a is now the most recently used
  cache.Put("d", entry(800));
  CHECK(cache.entries() == 3);
  CHECK(cache.bytes() <= 3000);
  CHECK(cache.Get("a"));
  CHECK_FALSE(cache.Get("b"));  // the least recently used went
  CHECK(cache.Get("c"));
  CHECK(cache.Get("d"));
  cache.Put("huge", entry(5000));  // larger than the whole cache: not kept, nothing dropped
  CHECK_FALSE(cache.Get("huge"));
  CHECK(cache.entries() == 3);
  ReadCache off(0);
  off.Put("a", entry(1));
  CHECK_FALSE(off.Get("a"));
}

TEST_CASE("If-None-Match parsing (RFC 9110 13.1.2): weak comparison, lists, malformed ignored",
          "[daemon][cache]") {
  CHECK(IfNoneMatchHits("\"abc\"", "\"abc\""));
  CHECK(IfNoneMatchHits("W/\"abc\"", "\"abc\""));
  CHECK(IfNoneMatchHits(" * ", "\"abc\""));
  CHECK(IfNoneMatchHits("\"x\", \"abc\"", "\"abc\""));
  CHECK(IfNoneMatchHits(",,\"abc\",", "\"abc\""));
  CHECK_FALSE(IfNoneMatchHits("", "\"abc\""));
  CHECK_FALSE(IfNoneMatchHits("\"abcd\"", "\"abc\""));
  CHECK_FALSE(IfNoneMatchHits("abc", "\"abc\""));
  CHECK_FALSE(IfNoneMatchHits("\"abc", "\"abc\""));
  CHECK_FALSE(IfNoneMatchHits("w/\"abc\"", "\"abc\""));      // W is case-sensitive
  CHECK_FALSE(IfNoneMatchHits("\"abc\" \"x\"", "\"abc\""));  // no comma
  CHECK_FALSE(IfNoneMatchHits("\"abc\", *", "\"abc\""));     // * alone or not at all
  CHECK_FALSE(IfNoneMatchHits("\"a\x01\", \"abc\"", "\"abc\""));
  const std::string etag = StrongEtag("state-json-3", "key");
  CHECK(etag == StrongEtag("state-json-3", "key"));
  CHECK(etag != StrongEtag("state-json-3", "key2"));
  CHECK(etag.rfind("\"state-json-3-", 0) == 0);
  CHECK(etag.size() == std::string("\"state-json-3-\"").size() + 16);
}

}  // namespace
}  // namespace pbem::daemon
