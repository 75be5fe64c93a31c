// Acknowledged means played (issue 13, findings 2-4): whatever the order desk answers accepted
// is resolved exactly as it was validated.
//   - a corpus of generated submissions over the real HTTP route (binary, text and JSON, with
//     comments holding Latin-1 bytes, control bytes, byte order marks, CRLF): each accepted one
//     is what the turn loop finds, with the canonical orders of what was sent;
//   - duplicates are duplicates of accepted submissions of the same side only;
//   - accepting and committing exclude each other: a sweep of races forced with the fault
//     points (daemon/fault_point.h), the desk stopped between judging and storing, or the
//     turn loop between reading the orders and committing. Every accepted submission is
//     played, every refused one is not.
#include <catch2/catch.hpp>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "daemon/fault_point.h"
#include "daemon/mail/replies.h"
#include "daemon/turn_loop.h"
#include "tests/daemon/fault_gate.h"
#include "tests/daemon/games_server.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

using testing::At;
using testing::BlueOrdersText;
using testing::GamesServer;
using testing::TurnFixture;
using Reply = pbem::testing::HttpReply;

pbem::v1::Orders ParseText(const std::string& text) {
  auto parsed = codec::ParseOrders(text, codec::Format::kText, "orders");
  REQUIRE(parsed.ok());
  return parsed.value();
}

// Blue's sample orders keeping only their first `moves` moves (distinct orders for each count).
pbem::v1::Orders BlueVariant(int moves, const std::string& game_id = "demo") {
  pbem::v1::Orders orders = ParseText(BlueOrdersText(""));
  orders.set_game_id(game_id);
  if (moves < orders.moves_size()) {
    orders.mutable_moves()->DeleteSubrange(moves, orders.moves_size() - moves);
  }
  return orders;
}

// What the turn loop would resolve blue's turn of game `id` with, now.
std::optional<PendingOrders> PendingBlue(TurnFixture& f, TurnLoop& loop, const std::string& id) {
  auto game = f.repository.GetGame(id);
  REQUIRE(game.ok());
  auto pending = loop.FindOrders(f.repository, id, game->turns_committed, "blue");
  REQUIRE(pending.ok());
  return *pending;
}

TEST_CASE("acknowledged: a Latin-1 byte in a # comment is refused at the door, or transcoded",
          "[daemon][acknowledged]") {
  TurnFixture f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  GamesServer server(f);
  const std::string body = BlueOrdersText("") + "# caf\xE9 au lait\n";
  const Bytes meant = codec::CanonicalOrders(ParseText(BlueOrdersText("")));

  Reply plain = server.Send("POST", "/v1/games/demo/orders", body, "text/plain", "tok-blue");
  if (plain.status == 200) {
    // Before the fix: accepted, then read again as binary at resolution and never played.
    std::optional<PendingOrders> pending = PendingBlue(f, loop, "demo");
    REQUIRE(pending.has_value());
    CHECK(codec::CanonicalOrders(pending->orders) == meant);
  }
  REQUIRE(plain.status == 400);
  CHECK(plain.error_code() == "malformed");
  CHECK_THAT(plain.error_message(), Catch::Contains("0xE9") && Catch::Contains("not UTF-8"));
  CHECK_FALSE(PendingBlue(f, loop, "demo").has_value());

  Reply latin1 = server.Send("POST", "/v1/games/demo/orders", body,
                             "text/plain; charset=ISO-8859-1", "tok-blue");
  REQUIRE(latin1.status == 200);
  std::optional<PendingOrders> pending = PendingBlue(f, loop, "demo");
  REQUIRE(pending.has_value());
  CHECK(pending->submission_id == latin1.json()->getValue<std::int64_t>("submissionId"));
  CHECK(codec::CanonicalOrders(pending->orders) == meant);
  // The raw bytes stay as received, for the record.
  auto stored = f.repository.ListSubmissions("demo");
  REQUIRE(stored.ok());
  CHECK(stored->back().raw == body);
}

// One generated submission: the bytes, their Content-Type, and what a sender means by them.
struct Generated {
  std::string body;
  std::string content_type;
  pbem::v1::Orders meant;
  bool must_accept = false;  // clean bytes of a declared type
  bool must_refuse = false;  // bad bytes declared as text
};

Generated Generate(std::mt19937& rng) {
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  Generated g;
  g.meant = BlueVariant(pick(5));
  const int format = pick(3);
  if (format == 0) {
    g.body = codec::SerializeMessage(g.meant, codec::Format::kBinary);
    const char* types[] = {"application/x-protobuf", "application/octet-stream", ""};
    g.content_type = types[pick(3)];
    g.must_accept = !g.content_type.empty();
    return g;
  }
  const bool json = format == 2;
  std::string text =
      codec::SerializeMessage(g.meant, json ? codec::Format::kJson : codec::Format::kText);
  bool control = false, latin1 = false;
  if (!json) {
    // Comments between lines, holding what players' editors put there.
    const char* pieces[] = {"note", " ",  "caf\xC3\xA9",  "caf\xE9", "\x01", "\x1B[0m",
                            "\x7F", "\t", "\xE2\x80\x94", "\xFF",    "\r",   "ok"};
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
      const std::size_t end = text.find('\n', start);
      out += text.substr(start, end - start + 1);
      if (end == std::string::npos) break;
      start = end + 1;
      if (pick(4) == 0) {
        std::string comment = "#";
        for (int i = pick(4); i >= 0; --i) {
          const int k = pick(12);
          comment += pieces[k];
          control |= k == 4 || k == 5 || k == 6;
          latin1 |= k == 3 || k == 9;
        }
        out += comment + "\n";
      }
    }
    text = out;
  }
  if (pick(3) == 0) {  // CRLF line ends
    std::string crlf;
    for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    text = crlf;
  }
  if (pick(4) == 0) text = "\xEF\xBB\xBF" + text;  // a byte order mark
  g.body = text;
  const int type = pick(json ? 3 : 4);
  const bool declared_latin1 = !json && type == 3;
  if (json) {
    const char* types[] = {"application/json", "application/json; charset=utf-8", ""};
    g.content_type = types[type];
  } else {
    const char* types[] = {"text/plain", "text/plain; charset=utf-8", "",
                           "text/plain; charset=iso-8859-1"};
    g.content_type = types[type];
  }
  const bool declared = !g.content_type.empty();
  g.must_refuse = declared && (control || (latin1 && !declared_latin1));
  // (A byte order mark declared Latin-1 is three letters before the orders: either answer.)
  const bool bom = g.body.rfind("\xEF\xBB\xBF", 0) == 0;
  g.must_accept = declared && !control && (!latin1 || declared_latin1) && !(bom && declared_latin1);
  return g;
}

TEST_CASE("acknowledged: every accepted submission of a generated corpus resolves as validated",
          "[daemon][acknowledged]") {
  TurnFixture f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  GamesServer server(f);
  std::mt19937 rng(20261125);
  constexpr int kSubmissions = 2000;
  std::map<std::int64_t, Bytes> meant_by_id;  // accepted submission -> canonical orders meant
  int accepted = 0, refused = 0, duplicates = 0, must_accept = 0, must_refuse = 0;
  for (int i = 0; i < kSubmissions; ++i) {
    const Generated g = Generate(rng);
    Reply reply = server.Send("POST", "/v1/games/demo/orders", g.body, g.content_type, "tok-blue");
    INFO("submission " << i << " Content-Type \"" << g.content_type << "\": " << reply.body);
    if (g.must_accept) {
      ++must_accept;
      REQUIRE(reply.status == 200);
    }
    if (g.must_refuse) {
      ++must_refuse;
      REQUIRE(reply.status == 400);
    }
    if (reply.status != 200) {
      REQUIRE(reply.status == 400);  // malformed: nothing else is wrong with these orders
      ++refused;
      continue;
    }
    ++accepted;
    const std::int64_t id = reply.json()->getValue<std::int64_t>("submissionId");
    if (reply.json()->getValue<bool>("duplicate")) ++duplicates;
    const Bytes meant = codec::CanonicalOrders(g.meant);
    if (meant_by_id.count(id)) REQUIRE(meant_by_id[id] == meant);
    meant_by_id[id] = meant;
    // Each accepted one is, right now, the orders the turn would be resolved with.
    if (i % 25 == 0 || i == kSubmissions - 1) {
      std::optional<PendingOrders> pending = PendingBlue(f, loop, "demo");
      REQUIRE(pending.has_value());
      CHECK(pending->submission_id == id);
      CHECK(codec::CanonicalOrders(pending->orders) == meant);
    }
  }
  // Every accepted one stored with the orders meant, which the turn loop reads.
  auto stored = f.repository.ListSubmissions("demo");
  REQUIRE(stored.ok());
  int checked = 0;
  for (const storage::Submission& s : *stored) {
    if (!s.accepted) continue;
    ++checked;
    REQUIRE(meant_by_id.count(s.id) == 1);
    CHECK(s.orders == meant_by_id[s.id]);
    CHECK(s.side == "blue");
  }
  CHECK(checked == static_cast<int>(meant_by_id.size()));
  INFO(accepted << " accepted (" << duplicates << " duplicates), " << refused << " refused");
  CHECK(must_accept > kSubmissions / 3);
  CHECK(must_refuse > kSubmissions / 20);
  CHECK(duplicates > 0);
}

// --- duplicates -----------------------------------------------------------------------------

TEST_CASE("acknowledged: duplicates are of accepted submissions of the same side only",
          "[daemon][acknowledged]") {
  TurnFixture f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  GamesServer server(f);
  const std::string json = codec::SerializeMessage(BlueVariant(3), codec::Format::kJson);

  SECTION("refused first (JSON sent as text/plain), then sent right: accepted and played") {
    REQUIRE(server.Send("POST", "/v1/games/demo/orders", json, "text/plain", "tok-blue").status ==
            400);
    Reply right =
        server.Send("POST", "/v1/games/demo/orders", json, "application/json", "tok-blue");
    REQUIRE(right.status == 200);
    CHECK_FALSE(right.json()->getValue<bool>("duplicate"));
    std::optional<PendingOrders> pending = PendingBlue(f, loop, "demo");
    REQUIRE(pending.has_value());
    CHECK(pending->submission_id == right.json()->getValue<std::int64_t>("submissionId"));
    CHECK(codec::CanonicalOrders(pending->orders) == codec::CanonicalOrders(BlueVariant(3)));
  }

  SECTION("the opponent sending a player's exact bytes first blocks nothing") {
    Reply orange =
        server.Send("POST", "/v1/games/demo/orders", json, "application/json", "tok-orange");
    CHECK(orange.status == 403);
    Reply blue = server.Send("POST", "/v1/games/demo/orders", json, "application/json", "tok-blue");
    REQUIRE(blue.status == 200);
    CHECK_FALSE(blue.json()->getValue<bool>("duplicate"));
    REQUIRE(PendingBlue(f, loop, "demo").has_value());
    CHECK(PendingBlue(f, loop, "demo")->submission_id ==
          blue.json()->getValue<std::int64_t>("submissionId"));
  }

  SECTION("revision A, B, then A again: A is played, a retry of A is a duplicate") {
    const std::string a = json;
    const std::string b = codec::SerializeMessage(BlueVariant(1), codec::Format::kJson);
    REQUIRE(
        server.Send("POST", "/v1/games/demo/orders", a, "application/json", "tok-blue").status ==
        200);
    REQUIRE(
        server.Send("POST", "/v1/games/demo/orders", b, "application/json", "tok-blue").status ==
        200);
    Reply again = server.Send("POST", "/v1/games/demo/orders", a, "application/json", "tok-blue");
    REQUIRE(again.status == 200);
    CHECK_FALSE(again.json()->getValue<bool>("duplicate"));
    Reply retry = server.Send("POST", "/v1/games/demo/orders", a, "application/json", "tok-blue");
    REQUIRE(retry.status == 200);
    CHECK(retry.json()->getValue<bool>("duplicate"));
    CHECK(retry.json()->getValue<std::int64_t>("submissionId") ==
          again.json()->getValue<std::int64_t>("submissionId"));
    CHECK(codec::CanonicalOrders(PendingBlue(f, loop, "demo")->orders) ==
          codec::CanonicalOrders(BlueVariant(3)));
  }

  SECTION("a mail refused once, then the same Message-ID with good orders: accepted") {
    auto game = f.repository.GetGame("demo");
    auto players = f.repository.ListPlayers("demo");
    const storage::Player& blue = players->front();
    REQUIRE(blue.side == "blue");
    Envelope envelope;
    envelope.channel = storage::Channel::kMail;
    envelope.sender = blue.mail_address;
    envelope.message_id = "<same@test.local>";
    envelope.received_at = At(5);
    pbem::v1::Orders stale = BlueVariant(2);
    stale.set_turn(7);
    stale.set_token("tok-blue");
    envelope.raw = "the first mail";
    auto first = f.desk.Submit(f.repository, *game, blue, stale, envelope);
    REQUIRE(first.ok());
    CHECK_FALSE(first->accepted);
    pbem::v1::Orders good = BlueVariant(2);
    good.set_token("tok-blue");
    auto second = f.desk.Submit(f.repository, *game, blue, good, envelope);
    REQUIRE(second.ok());
    CHECK(second->accepted);
    CHECK_FALSE(second->duplicate);
    // Redelivered once more: now it is the same accepted mail again.
    auto third = f.desk.Submit(f.repository, *game, blue, stale, envelope);
    REQUIRE(third.ok());
    CHECK(third->accepted);
    CHECK(third->duplicate);
    CHECK(third->submission_id == second->submission_id);
  }
}

// --- accepting and committing exclude each other ------------------------------------------

// Blue's submission of `orders` to game "race" as the HTTP route makes it, judged against the
// game as read now. No assertion inside: it may run on another thread.
struct BlueSubmission {
  storage::Game game;
  storage::Player player;
  pbem::v1::Orders orders;
  Envelope envelope;
};

BlueSubmission PrepareBlue(storage::GameRepository& repository, const pbem::v1::Orders& orders,
                           storage::Timestamp at) {
  BlueSubmission out;
  auto game = repository.GetGame("race");
  REQUIRE(game.ok());
  out.game = *game;
  auto players = repository.ListPlayers("race");
  REQUIRE(players.ok());
  REQUIRE(players->front().side == "blue");
  out.player = players->front();
  out.envelope.channel = storage::Channel::kHttp;
  out.envelope.sender = "http:blue";
  out.envelope.raw = codec::SerializeMessage(orders, codec::Format::kBinary);
  out.envelope.received_at = at;
  out.orders = orders;
  out.orders.set_token("tok-blue");
  return out;
}

Result<DeskOutcome> Submit(OrderDesk& desk, storage::GameRepository& repository,
                           const BlueSubmission& s) {
  return desk.Submit(repository, s.game, s.player, s.orders, s.envelope);
}

TEST_CASE("acknowledged: a sweep of submissions racing the turn commit at the deadline",
          "[daemon][acknowledged]") {
  // Who is stopped at its fault point while the other goes through; whether blue had
  // accepted orders in before (else the turn is resolved as missed at the deadline).
  const bool desk_waits = GENERATE(true, false);
  const bool orders_before = GENERATE(true, false);
  const int revision = GENERATE(1, 2, 4);  // the racing orders keep this many moves
  INFO("desk waits: " << desk_waits << ", orders before: " << orders_before
                      << ", revision: " << revision);
  TurnFixture f;
  f.CreateGame("race", std::chrono::seconds(60), std::chrono::seconds(0));
  REQUIRE(f.repository.AddPlayer({"race", "blue", "a@test.local", "tok-blue", "en"}).ok());
  REQUIRE(f.repository.AddPlayer({"race", "orange", "b@test.local", "tok-orange", "en"}).ok());
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  REQUIRE(loop.Open(f.repository, "race", At(10)).ok());
  const storage::Timestamp after_deadline = At(10 + 60 + 1);
  if (orders_before) {
    auto before =
        Submit(f.desk, f.repository, PrepareBlue(f.repository, BlueVariant(3, "race"), At(20)));
    REQUIRE(before.ok());
    REQUIRE(before->accepted);
  }
  const pbem::v1::Orders racing = BlueVariant(revision, "race");

  testing::FaultGate gate(desk_waits ? "order_desk.before_store" : "turn_loop.before_commit");
  Result<DeskOutcome> outcome = Status::Internal("not run");
  bool committed = false;
  {
    testing::FaultHookGuard hook(gate);
    storage::SqliteRepository other(f.dir.path());
    REQUIRE(other.OpenOrMigrate().ok());
    if (desk_waits) {
      const BlueSubmission submission = PrepareBlue(other, racing, after_deadline);
      std::thread desk([&] { outcome = Submit(f.desk, other, submission); });
      REQUIRE(gate.WaitReached());  // judged accepted against turn 1 blue, not stored
      Result<bool> resolved = loop.ResolveIfDue(f.repository, "race", after_deadline);
      gate.Open();
      desk.join();
      REQUIRE(resolved.ok());
      committed = *resolved;
    } else {
      Result<bool> resolved = Status::Internal("not run");
      std::thread turn([&] { resolved = loop.ResolveIfDue(other, "race", after_deadline); });
      REQUIRE(gate.WaitReached());  // orders read (or found missing), not committed
      outcome = Submit(f.desk, f.repository, PrepareBlue(f.repository, racing, after_deadline));
      gate.Open();
      turn.join();
      REQUIRE(resolved.ok());
      committed = *resolved;
    }
  }
  REQUIRE(committed);
  INFO(outcome.status().ToString());
  REQUIRE(outcome.ok());
  auto turns = f.repository.ListTurns("race");
  REQUIRE(turns.ok());
  REQUIRE(turns->size() == 1);
  const Bytes played = turns->front().orders;
  if (outcome->accepted) {
    // Accepted: it is what was played.
    CHECK(played == codec::CanonicalOrders(racing));
    CHECK_FALSE(desk_waits);
  } else {
    // Refused, as stale, naming the turn the game is at now; and not played.
    CHECK(outcome->code == mail::kStaleTurn);
    CHECK_THAT(outcome->detail, Catch::Contains("side orange to move"));
    CHECK(played != codec::CanonicalOrders(racing));
    CHECK(desk_waits);
    pbem::v1::Orders missed;
    missed.set_game_id("race");
    missed.set_turn(1);
    missed.set_side(pbem::v1::SIDE_BLUE);
    CHECK(played == (orders_before ? codec::CanonicalOrders(BlueVariant(3, "race"))
                                   : codec::CanonicalOrders(missed)));
  }
  // Whatever happened, the turn played the side's latest accepted submission, or none.
  auto stored = f.repository.ListSubmissions("race");
  REQUIRE(stored.ok());
  const storage::Submission* latest = nullptr;
  for (const storage::Submission& s : *stored) {
    if (s.accepted && s.turn == 0) latest = &s;
  }
  if (latest != nullptr) CHECK(played == latest->orders);
  auto players = f.repository.ListPlayers("race");
  REQUIRE(players.ok());
  CHECK(players->front().missed_turns == (latest == nullptr ? 1 : 0));
}

}  // namespace
}  // namespace pbem::daemon
