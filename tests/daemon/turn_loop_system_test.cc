// The turn loop on a game of another system than Morne Plaine (daemon/turn_loop_system.cc), and
// the order desk judging its orders (daemon/order_desk.cc, JudgeSystem): an
// M42 game of the bundled Pumping Station on a real SQLite store with the real mail templates.
// The player to move's accepted orders (stored as the desk stores them: the canonical orders
// envelope) resolve the turn through the system turn job, with a results mail for every player
// in their language in the same commit; a player who sends nothing is reminded, then plays no
// orders once the deadline and grace have passed; the forfeit limit ends the game; NextWake
// agrees with what the loop does.
#include <catch2/catch.hpp>

#include "daemon/mail/intake.h"
#include "daemon/mail/replies.h"
#include "daemon/turn_loop.h"
#include "pbem/v1/orders.pb.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/systems.h"
#include "tests/daemon/games_server.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

namespace gs = game_system;
using testing::At;
using testing::TurnFixture;
using Reply = pbem::testing::HttpReply;

// Game "m" of M42's Pumping Station (or, for WmeGame, wme's Palissade), created as pbemd
// creates a game of another system, played by blue (English) and red (French).
struct M42Game : TurnFixture {
  std::shared_ptr<const ScenarioData> data;

  explicit M42Game(std::chrono::seconds timeout = std::chrono::seconds(0),
                   std::chrono::seconds reminder = std::chrono::seconds(0),
                   const std::string& system = "m42",
                   const std::string& scenario = "pumping_station") {
    Result<std::shared_ptr<const ScenarioData>> found = catalog.Scenario(system, scenario);
    INFO(found.status().ToString());
    REQUIRE(found.ok());
    data = *found;
    const codec::PinnedGameData& pinned = data->pinned;
    Result<storage::NewGame> game =
        MakeSystemGame(*data->system, data->setup, "m", At(1),
                       {pinned.scenario_name, pinned.ruleset_name, pinned.ruleset_version,
                        pinned.ruleset, pinned.scenario});
    REQUIRE(game.ok());
    game->deadlines.turn_timeout = timeout;
    game->deadlines.reminder_before = reminder;
    REQUIRE(repository.CreateGame(*game).ok());
    REQUIRE(repository.AddPlayer({"m", "blue", "blue@test.local", "tok-b", "en"}).ok());
    REQUIRE(repository.AddPlayer({"m", "red", "red@test.local", "tok-r", "fr"}).ok());
  }

  gs::State Current() {
    Result<gs::State> state = CurrentSystemState(repository, *data->system, data->setup, "m");
    REQUIRE(state.ok());
    return *state;
  }

  // The bot's orders for the player to move, drawn with `seed`, as the player sends them (wme:
  // orders by hand, `seed` choosing the charge's target).
  pbem::v1::Orders BotEnvelope(std::uint64_t seed) {
    const gs::State state = Current();
    const gs::TurnInfo turn = *data->system->WhoseTurn(data->setup, state);
    pbem::v1::Orders orders;
    orders.set_game_id("m");
    orders.set_turn(turn.turn);
    orders.set_player(turn.side);
    if (data->system->name() == "wme") {  // no soak bot yet: a charge and a move by hand
      const std::string own = turn.side == "blue" ? "b_" : "r_";
      const std::string enemy = turn.side == "blue" ? "r_" : "b_";
      pbem::v1::WmeCharge* charge = orders.mutable_wme()->add_initiative()->mutable_charge();
      charge->set_unit(own + "cav");
      charge->set_target(enemy + (seed % 2 == 0 ? "cav" : "inf2"));
      orders.mutable_wme()->add_orders()->mutable_move()->set_unit(own + "inf2");
      return orders;
    }
    gs::Result<gs::Orders> bot = data->system->BotOrders(data->setup, state, seed);
    REQUIRE(bot.ok());
    *orders.mutable_m42() = codec::M42OrdersToProto(*bot->handle.As<m42::Orders>("m42"));
    return orders;
  }

  // The bot's orders for the player to move, accepted as the desk stores orders.
  std::int64_t Accept(std::uint64_t seed, storage::Timestamp at) {
    const pbem::v1::Orders orders = BotEnvelope(seed);
    const gs::TurnInfo turn{orders.turn(), orders.player()};
    storage::NewSubmission submission;
    submission.game_id = "m";
    submission.turn = repository.GetGame("m")->turns_committed;
    submission.side = turn.side;
    submission.channel = storage::Channel::kHttp;
    submission.sender = "http:" + turn.side;
    submission.raw = orders.SerializeAsString();
    submission.orders = *codec::CanonicalOrdersEnvelope(submission.raw);
    submission.received_at = at;
    submission.accepted = true;
    Result<storage::RecordedSubmission> recorded = repository.RecordSubmission(submission);
    REQUIRE(recorded.ok());
    REQUIRE_FALSE(recorded->stale);
    return recorded->id;
  }
};

// Game "m" of wme's Palissade: a system whose verdicts follow the dice.
struct WmeGame : M42Game {
  WmeGame() : M42Game(std::chrono::seconds(0), std::chrono::seconds(0), "wme", "palissade") {}
};

std::vector<storage::OutboxMail> MailsTo(const std::vector<storage::OutboxMail>& mails,
                                         const std::string& address) {
  std::vector<storage::OutboxMail> out;
  for (const storage::OutboxMail& mail : mails) {
    if (mail.recipient == address) out.push_back(mail);
  }
  return out;
}

TEST_CASE("turn loop, M42: accepted orders resolve the turn, results mails in the commit",
          "[turn][system]") {
  M42Game f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  Result<OpenedTurn> opened = loop.Open(f.repository, "m", At(10));
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  CHECK(opened->stored.turn == 1);
  CHECK(opened->stored.side == "blue");

  // Nothing in and no deadline: nothing is due, and NextWake says never.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", At(20)));
  CHECK_FALSE(loop.NextWake(f.repository, "m", At(20))->has_value());
  CHECK(f.repository.GetGame("m")->turns_committed == 0);

  const std::int64_t submission = f.Accept(7, At(30));
  CHECK(*loop.NextWake(f.repository, "m", At(31)) == At(31));  // orders in: at once
  Result<bool> resolved = loop.ResolveIfDue(f.repository, "m", At(40));
  INFO(resolved.status().ToString());
  REQUIRE(resolved.ok());
  CHECK(*resolved);
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", At(41)));  // red has not played yet

  const auto turns = f.repository.ListTurns("m");
  REQUIRE(turns->size() == 1);
  const storage::Turn& turn = (*turns)[0];
  CHECK(turn.side == "blue");
  CHECK(turn.dice_seed == opened->stored.dice_seed);
  // The orders resolved are the ones accepted, to the byte.
  const auto submissions = f.repository.ListSubmissions("m");
  REQUIRE(submissions->size() == 1);
  CHECK((*submissions)[0].id == submission);
  CHECK(turn.orders == (*submissions)[0].orders);
  // The turn is M42's: its result reads back through the interface with blue's verdicts.
  const gs::Result<gs::TurnResolution> result =
      f.data->system->DecodeTurnResult(f.data->setup, turn.result);
  REQUIRE(result.ok());
  REQUIRE_FALSE(result->verdicts.empty());
  REQUIRE_FALSE(result->events.empty());
  const auto next = f.repository.GetOpenTurn("m", 1, "red");
  REQUIRE(next.ok());
  const std::string next_commitment = CommitmentFor(next->dice_seed).commitment();

  const std::vector<storage::OutboxMail> mails = f.Due();
  REQUIRE(mails.size() == 2);
  const std::vector<storage::OutboxMail> blue = MailsTo(mails, "blue@test.local");
  const std::vector<storage::OutboxMail> red = MailsTo(mails, "red@test.local");
  REQUIRE(blue.size() == 1);
  REQUIRE(red.size() == 1);
  CHECK(blue[0].subject == "Game m, turn 1 (blue): results");
  CHECK_THAT(red[0].subject, Catch::StartsWith("Partie m"));
  for (const storage::OutboxMail& mail : mails) {
    INFO(mail.recipient << ": " << mail.subject << "\n" << mail.body);
    CHECK_THAT(mail.body, Catch::Contains(Hex(turn.dice_seed)));
    CHECK_THAT(mail.body, Catch::Contains(next_commitment));
    REQUIRE(mail.attachments.size() == 1);
    CHECK(mail.attachments[0].content_type == "text/html");
    CHECK_THAT(mail.attachments[0].data, Catch::Contains(next_commitment));
    // Words, never the engine's codes.
    for (const gs::Event& e : result->events) CHECK_THAT(mail.body, !Catch::Contains(e.kind));
  }
  CHECK_THAT(f.metrics.RenderPrometheus(), Catch::Contains("pbemd_turns_resolved_total 1"));
}

TEST_CASE("turn loop, M42: a silent player is reminded, then misses the turn; the limit forfeits",
          "[turn][system]") {
  M42Game f(std::chrono::hours(48), std::chrono::hours(12));
  TurnLoopOptions options;
  options.grace = std::chrono::minutes(10);
  options.forfeit_after_missed = 2;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits, options);
  REQUIRE(loop.Open(f.repository, "m", At(0)).ok());
  const storage::Timestamp deadline = At(0) + std::chrono::hours(48);

  // Before the reminder time: nothing, and NextWake names the reminder time.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", At(1000)));
  CHECK(f.Due().empty());
  CHECK(*loop.NextWake(f.repository, "m", At(1000)) == deadline - std::chrono::hours(12));
  // At the reminder time blue (English) is reminded once; NextWake moves to deadline + grace.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", deadline - std::chrono::hours(11)));
  std::vector<storage::OutboxMail> mails = f.Due();
  REQUIRE(mails.size() == 1);
  CHECK(mails[0].recipient == "blue@test.local");
  CHECK_THAT(mails[0].subject, Catch::Contains("m"));
  CHECK(*loop.NextWake(f.repository, "m", deadline - std::chrono::hours(11)) ==
        deadline + std::chrono::minutes(10));
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", deadline - std::chrono::hours(10)));
  CHECK(f.Due().size() == 1);  // not twice
  // Within the grace: still waiting.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", deadline + std::chrono::minutes(5)));

  // Past deadline and grace: blue plays no orders.
  REQUIRE(*loop.ResolveIfDue(f.repository, "m", deadline + std::chrono::minutes(11)));
  auto turns = f.repository.ListTurns("m");
  REQUIRE(turns->size() == 1);
  CHECK((*turns)[0].side == "blue");
  CHECK((*turns)[0].orders ==
        *codec::EmptyOrdersEnvelope("m42", "m", 1, "blue"));  // the empty envelope, header and all
  const gs::Result<gs::TurnResolution> missed =
      f.data->system->DecodeTurnResult(f.data->setup, (*turns)[0].result);
  REQUIRE(missed.ok());
  CHECK(missed->verdicts.empty());
  auto players = f.repository.ListPlayers("m");
  for (const storage::Player& p : *players) CHECK(p.missed_turns == (p.side == "blue" ? 1 : 0));
  mails = f.Due();
  REQUIRE(mails.size() == 3);  // the reminder, then one results mail per player
  CHECK(f.repository.GetGame("m")->result.empty());

  // Red plays; blue misses again: the second missed turn reaches the limit and ends the game
  // in the same commit, red winning.
  f.Accept(3, deadline + std::chrono::minutes(20));
  REQUIRE(*loop.ResolveIfDue(f.repository, "m", deadline + std::chrono::minutes(21)));
  const storage::Timestamp second = deadline + std::chrono::minutes(21) + std::chrono::hours(48);
  REQUIRE(*loop.ResolveIfDue(f.repository, "m", second + std::chrono::minutes(11)));
  const storage::Game over = *f.repository.GetGame("m");
  CHECK(over.turns_committed == 3);
  CHECK_THAT(over.result, Catch::Contains("red wins"));
  CHECK_THAT(over.result, Catch::Contains("blue forfeited"));
  // Over: nothing more is due, ever.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", second + std::chrono::hours(100)));
  CHECK_FALSE(loop.NextWake(f.repository, "m", second + std::chrono::hours(100))->has_value());
}

Envelope HttpFrom(const std::string& side, storage::Timestamp at) {
  Envelope envelope;
  envelope.channel = storage::Channel::kHttp;
  envelope.sender = "http:" + side;
  envelope.received_at = at;
  envelope.sender_proven = true;
  return envelope;
}

storage::Player PlayerOf(TurnFixture& f, const std::string& side) {
  const Result<std::vector<storage::Player>> players = f.repository.ListPlayers("m");
  REQUIRE(players.ok());
  for (const storage::Player& p : *players) {
    if (p.side == side) return p;
  }
  FAIL("no player " << side);
  return {};
}

// The fields of a verdict a player is told (the system's `detail` is its own value).
void CheckSameVerdicts(const std::vector<gs::Verdict>& judged,
                       const std::vector<gs::Verdict>& played) {
  REQUIRE(judged.size() == played.size());
  for (std::size_t i = 0; i < judged.size(); ++i) {
    INFO("verdict " << i);
    CHECK(judged[i].order == played[i].order);
    CHECK(judged[i].unit == played[i].unit);
    CHECK(judged[i].kind == played[i].kind);
    CHECK(judged[i].reason == played[i].reason);
    CHECK(judged[i].args == played[i].args);
  }
}

// "Acknowledged means played": the bot's orders, sent through the desk, are accepted with
// verdicts, stored as the canonical envelope, and the turn loop plays them with exactly the
// verdicts the desk answered, for two turns of blue and red.
TEST_CASE("order desk, M42 game: accepted orders are played with the verdicts answered",
          "[turn][system]") {
  M42Game f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  std::int64_t minute = 10;
  for (int round = 0; round < 4; ++round) {
    const std::string side = round % 2 == 0 ? "blue" : "red";
    INFO(side << ", round " << round);
    REQUIRE(loop.Open(f.repository, "m", At(minute)).ok());
    const storage::Game game = *f.repository.GetGame("m");
    const storage::Player player = PlayerOf(f, side);
    pbem::v1::Orders orders = f.BotEnvelope(7 + static_cast<std::uint64_t>(round));
    REQUIRE(orders.player() == side);
    orders.set_token(side == "blue" ? "tok-b" : "tok-r");
    orders.set_message("onwards");
    Result<DeskOutcome> outcome =
        f.desk.Submit(f.repository, game, player, orders, HttpFrom(side, At(minute + 1)));
    INFO(outcome.status().ToString());
    REQUIRE(outcome.ok());
    INFO(outcome->code << ": " << outcome->detail);
    REQUIRE(outcome->accepted);
    CHECK(outcome->system == f.data->system->name());
    CHECK(outcome->turn == 1 + round / 2);
    CHECK(outcome->side == side);
    CHECK(outcome->verdicts.empty());  // Morne Plaine's
    REQUIRE_FALSE(outcome->system_verdicts.empty());
    const auto submissions = f.repository.ListTurnSubmissions("m", game.turns_committed);
    REQUIRE(submissions->size() == 1);
    CHECK((*submissions)[0].orders == codec::CanonicalOrders(orders));
    CHECK((*submissions)[0].verdicts.empty());

    REQUIRE(*loop.ResolveIfDue(f.repository, "m", At(minute + 2)));
    const auto turns = f.repository.ListTurns("m");
    const storage::Turn& turn = turns->back();
    CHECK(turn.side == side);
    CHECK(turn.orders == (*submissions)[0].orders);
    const gs::Result<gs::TurnResolution> played =
        f.data->system->DecodeTurnResult(f.data->setup, turn.result);
    REQUIRE(played.ok());
    CheckSameVerdicts(outcome->system_verdicts, played->verdicts);
    minute += 10;
  }
  CHECK(f.repository.GetGame("m")->turns_committed == 4);
}

// wme's verdicts follow the dice (GameSystem::VerdictsFollowDice): answered before the turn is
// played, they would let a player resend orders until the dice suit them. The desk refuses
// them saying why, stores nothing playable, and the turn is played without orders at its
// deadline.
TEST_CASE("order desk, wme game: orders refused, their verdicts would follow the dice",
          "[turn][system]") {
  WmeGame f;
  REQUIRE(f.data->system->VerdictsFollowDice());
  TurnLoopOptions options;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits, options);
  REQUIRE(loop.Open(f.repository, "m", At(10)).ok());
  const storage::Game game = *f.repository.GetGame("m");
  pbem::v1::Orders orders = f.BotEnvelope(7);
  orders.set_token("tok-b");
  Result<DeskOutcome> outcome =
      f.desk.Submit(f.repository, game, PlayerOf(f, "blue"), orders, HttpFrom("blue", At(11)));
  REQUIRE(outcome.ok());
  CHECK_FALSE(outcome->accepted);
  CHECK(outcome->code == "game_unavailable");
  CHECK(outcome->detail ==
        "game \"m\" plays wme, whose orders succeed or fail by dice rolled when the turn is "
        "played: pbemd does not take orders for that system's games yet; their turns are played "
        "at their deadlines");
  CHECK(outcome->system_verdicts.empty());
  const auto stored = f.repository.ListSubmissions("m");
  REQUIRE(stored->size() == 1);
  CHECK_FALSE((*stored)[0].accepted);
  CHECK((*stored)[0].orders.empty());
  // Nothing accepted: nothing is due (no deadline), and the turn stays unplayed.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", At(20)));
  CHECK(f.repository.GetGame("m")->turns_committed == 0);
  // A wrong token is still told as such first: who sends is checked before the game.
  orders.set_token("nope");
  outcome =
      f.desk.Submit(f.repository, game, PlayerOf(f, "blue"), orders, HttpFrom("blue", At(12)));
  REQUIRE(outcome.ok());
  CHECK(outcome->code == "unauthenticated");
}

// M42 rolls no dice: the desk judges its orders.
TEST_CASE("game systems: whose verdicts follow the dice", "[turn][system]") {
  const game_system::Registry registry = codec::SystemRegistry();
  CHECK_FALSE((*registry.Find("m42"))->VerdictsFollowDice());
  CHECK((*registry.Find("wme"))->VerdictsFollowDice());
  CHECK_FALSE((*registry.Find("morne-plaine"))->VerdictsFollowDice());
}

// Refusals name the field at fault, and store nothing the turn loop would play.
TEST_CASE("order desk, M42 game: refused orders, each with a sentence, nothing playable",
          "[turn][system]") {
  M42Game f;
  const storage::Game unopened = *f.repository.GetGame("m");
  const storage::Player blue = PlayerOf(f, "blue");
  const storage::Player red = PlayerOf(f, "red");
  pbem::v1::Orders good = f.BotEnvelope(7);
  good.set_token("tok-b");

  const auto refused = [&](const storage::Player& player, const pbem::v1::Orders& orders,
                           const std::string& code, const std::string& words) {
    const storage::Game game = *f.repository.GetGame("m");
    Result<DeskOutcome> outcome =
        f.desk.Submit(f.repository, game, player, orders, HttpFrom(player.side, At(5)));
    REQUIRE(outcome.ok());
    INFO(outcome->code << ": " << outcome->detail);
    CHECK_FALSE(outcome->accepted);
    CHECK(outcome->code == code);
    CHECK_THAT(outcome->detail, Catch::Contains(words));
    CHECK(outcome->system_verdicts.empty());
  };

  // The turn is not open yet: no dice to check with, none guessed.
  {
    Result<DeskOutcome> outcome =
        f.desk.Submit(f.repository, unopened, blue, good, HttpFrom("blue", At(4)));
    REQUIRE(outcome.ok());
    CHECK(outcome->code == "game_unavailable");
    CHECK_THAT(outcome->detail, Catch::Contains("try again in a moment"));
  }
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  REQUIRE(loop.Open(f.repository, "m", At(3)).ok());

  pbem::v1::Orders other = good;
  other.set_player("red");  // blue's token, red's name
  refused(blue, other, "unauthenticated", "field player");
  other.clear_player();
  refused(blue, other, "unauthenticated", "field player");
  other = good;
  other.set_token("tok-r");
  refused(blue, other, "unauthenticated", "token");
  other.clear_token();
  refused(blue, other, "unauthenticated", "field token");
  other = good;
  other.set_turn(2);
  refused(blue, other, "stale_turn", "the orders are for turn 2; the game is at turn 1, blue");
  // Red, with red's own token, before blue has played.
  other = good;
  other.set_player("red");
  other.set_token("tok-r");
  refused(red, other, "stale_turn", "of player red; the game is at turn 1, blue to move");
  // Morne Plaine's fields, or wme's body, sent to the M42 game.
  other = good;
  other.clear_m42();
  other.clear_player();
  other.set_side(pbem::v1::SIDE_BLUE);
  refused(blue, other, "malformed", "this game plays m42");
  other = good;
  other.mutable_wme();
  refused(blue, other, "malformed", "m42");
  // A body M42's codec refuses: an action naming no unit.
  other = good;
  other.mutable_m42()->add_action();
  refused(blue, other, "malformed", "unit");

  const auto stored = f.repository.ListSubmissions("m");
  REQUIRE(stored->size() == 10);
  for (const storage::Submission& s : *stored) {
    CHECK_FALSE(s.accepted);
    CHECK(s.orders.empty());
  }
  // Nothing to play: the loop waits for blue.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "m", At(6)));
  CHECK(f.repository.GetGame("m")->turns_committed == 0);
}

// The same through the real HTTP route: the JSON verdicts are the system's, "text" its words in
// the player's language (or ?lang), never a reason code; "reason" the machine code beside it.
TEST_CASE("POST /v1/games/{id}/orders, M42 game: the system's verdicts in words",
          "[turn][system][http]") {
  M42Game f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  testing::GamesServer server(f, &f.mail_templates);
  // Not open yet: 503, try again.
  pbem::v1::Orders orders = f.BotEnvelope(7);
  Reply early = server.Send("POST", "/v1/games/m/orders", orders.SerializeAsString(),
                            "application/x-protobuf", "tok-b");
  CHECK(early.status == 503);
  CHECK(early.error_code() == "game_unavailable");
  REQUIRE(loop.Open(f.repository, "m", At(10)).ok());

  // An action of a unit that is not blue's, so that one verdict has a reason to word.
  pbem::v1::M42Action* foreign = orders.mutable_m42()->add_action();
  *foreign = orders.m42().action(0);
  for (const std::string lang : {"en", "fr"}) {
    INFO(lang);
    Reply reply = server.Send("POST", "/v1/games/m/orders/check?lang=" + lang,
                              orders.SerializeAsString(), "application/x-protobuf", "tok-b");
    INFO(reply.body);
    REQUIRE(reply.status == 200);
    Poco::JSON::Array::Ptr verdicts = reply.json()->getArray("verdicts");
    REQUIRE(verdicts->size() == static_cast<std::size_t>(orders.m42().action_size()));
    bool worded = false;
    for (std::size_t i = 0; i < verdicts->size(); ++i) {
      Poco::JSON::Object::Ptr v = verdicts->getObject(static_cast<unsigned>(i));
      CHECK(v->getValue<int>("index") == static_cast<int>(i));
      CHECK(v->getValue<std::string>("order") == "action");
      const std::string reason = v->getValue<std::string>("reason");
      const std::string text = v->getValue<std::string>("text");
      if (reason.empty()) continue;
      worded = true;
      CHECK_FALSE(text.empty());
      CHECK_THAT(text, !Catch::Contains(reason));
      CHECK(v->getValue<std::string>("verdict") != "ok");
    }
    CHECK(worded);
  }
  CHECK(f.repository.ListSubmissions("m")->size() == 1);  // the early refusal; checks store none
}

// By mail: the receipt lists the system's verdicts as its results mail words them, in the
// player's language (blue English, red French with its typography), never a reason code.
TEST_CASE("mail orders, M42 game: the receipt words the system's verdicts", "[turn][system]") {
  M42Game f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  const std::shared_ptr<spdlog::logger> logger = testing::NullLogger();
  DaemonConfig config;
  config.mail_from = "pbem@game.test";
  config.data_dir = f.dir.path();
  mail::MailIntake intake(f.repository, f.desk, f.metrics, *logger, config);
  intake.UseTemplates(&f.mail_templates, &f.catalog);
  const auto send = [&](const std::string& from, const std::string& id,
                        const pbem::v1::Orders& orders, storage::Timestamp at) {
    mail::FetchedMessage message;
    message.data = "From: Player <" + from +
                   ">\r\nTo: pbem@game.test\r\nSubject: [pbem m] orders\r\nMessage-ID: <" + id +
                   ">\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
                   codec::SerializeMessage(orders, codec::Format::kText);
    message.size_bytes = message.data.size();
    CHECK(intake.Handle(message, at) == mail::Disposition::kAnswered);
  };
  std::int64_t minute = 10;
  for (const std::string side : {"blue", "red"}) {
    INFO(side);
    REQUIRE(loop.Open(f.repository, "m", At(minute)).ok());
    pbem::v1::Orders orders = f.BotEnvelope(side == "blue" ? 7 : 3);
    orders.set_token(side == "blue" ? "tok-b" : "tok-r");
    // The same action twice: the second is refused, with a reason to word.
    *orders.mutable_m42()->add_action() = orders.m42().action(0);
    send(side + "@test.local", side + "@x", orders, At(minute + 1));
    const auto submissions =
        f.repository.ListTurnSubmissions("m", f.repository.GetGame("m")->turns_committed);
    REQUIRE(submissions->size() == 1);
    CHECK((*submissions)[0].accepted);
    storage::OutboxMail receipt;
    for (const storage::OutboxMail& mail : MailsTo(f.Due(), side + "@test.local")) {
      if (mail.subject == "Re: [pbem m] orders") receipt = mail;
    }
    INFO(receipt.subject << "\n" << receipt.body);
    const bool fr = side == "red";
    // The action given twice: its line, refused or not understood, with its reason in words.
    const std::string last = std::to_string(orders.m42().action_size()) + " (" +
                             orders.m42().action(0).unit() + ")" + (fr ? "\u00a0: " : ": ");
    CHECK_THAT(receipt.body, Catch::Contains(fr ? "Ordre 1 (" : "Order 1 ("));
    CHECK_THAT(receipt.body, Catch::Contains((fr ? "Ordre " : "Order ") + last));
    CHECK_THAT(receipt.body, !Catch::Contains(fr ? "Ordre " + last + "exécuté."
                                                 : "Order " + last + "carried out."));
    REQUIRE(receipt.attachments.size() == 1);
    CHECK_THAT(receipt.attachments[0].data, Catch::Contains(fr ? "Ordre 1 (" : "Order 1 ("));
    // Words, never the system's codes.
    const gs::State state = f.Current();
    gs::Result<gs::Orders> decoded =
        f.data->system->DecodeOrders(f.data->setup, (*submissions)[0].orders);
    REQUIRE(decoded.ok());
    const auto verdicts = f.data->system->CheckOrders(f.data->setup, state, *decoded, 0);
    REQUIRE(verdicts.ok());
    for (const gs::Verdict& v : *verdicts) {
      if (!v.reason.empty()) CHECK_THAT(receipt.body, !Catch::Contains(v.reason));
    }
    // The refusal of a whole set (rejected_orders: a header verdict, which neither M42 nor wme
    // gives yet) lists the verdicts not ok in the same words.
    templates::ErrorReplyInput refusal;
    refusal.player = side + "@test.local";
    refusal.game_id = "m";
    refusal.original_subject = "[pbem m] orders";
    refusal.code = mail::kRejectedOrders;
    refusal.detail = "the orders are refused as a whole";
    refusal.system = "m42";
    refusal.system_verdicts = *verdicts;
    std::string render_error;
    const storage::NewMail refused = mail::ErrorMail(
        f.mail_templates, fr ? templates::Language::kFrench : templates::Language::kEnglish,
        refusal, At(minute), &render_error);
    CHECK(render_error.empty());
    CHECK_THAT(refused.body, Catch::Contains((fr ? "Ordre " : "Order ") + last));
    CHECK_THAT(refused.body, !Catch::Contains(fr ? "Ordre 1 (" : "Order 1 ("));  // it was ok
    for (const gs::Verdict& v : *verdicts) {
      if (!v.reason.empty()) CHECK_THAT(refused.body, !Catch::Contains(v.reason));
    }
    // The same mail again (its Message-ID): a duplicate, answered by the plain receipt, which
    // lists the verdicts in their machine form.
    send(side + "@test.local", side + "@x", orders, At(minute + 1));
    bool again = false;
    for (const storage::OutboxMail& mail : MailsTo(f.Due(), side + "@test.local")) {
      if (mail.body.find("You had sent these orders already") == std::string::npos) continue;
      again = true;
      CHECK_THAT(mail.body, Catch::Contains("action " + std::to_string(orders.m42().action_size()) +
                                            " (" + orders.m42().action(0).unit() + "): "));
    }
    CHECK(again);
    REQUIRE(*loop.ResolveIfDue(f.repository, "m", At(minute + 2)));
    minute += 10;
  }
}

}  // namespace
}  // namespace pbem::daemon
