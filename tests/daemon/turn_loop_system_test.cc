// The turn loop on a game of another system than Morne Plaine (daemon/turn_loop_system.cc): an
// M42 game of the bundled Pumping Station on a real SQLite store with the real mail templates.
// The player to move's accepted orders (stored as the desk stores them: the canonical orders
// envelope) resolve the turn through the system turn job, with a results mail for every player
// in their language in the same commit; a player who sends nothing is reminded, then plays no
// orders once the deadline and grace have passed; the forfeit limit ends the game; NextWake
// agrees with what the loop does.
#include <catch2/catch.hpp>

#include "daemon/turn_loop.h"
#include "pbem/v1/orders.pb.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/systems.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

namespace gs = game_system;
using testing::At;
using testing::TurnFixture;

// Game "m" of M42's Pumping Station, created as pbemd creates a game of another system, played
// by blue (English) and red (French).
struct M42Game : TurnFixture {
  std::shared_ptr<const ScenarioData> data;

  explicit M42Game(std::chrono::seconds timeout = std::chrono::seconds(0),
                   std::chrono::seconds reminder = std::chrono::seconds(0)) {
    Result<std::shared_ptr<const ScenarioData>> found =
        catalog.Scenario("m42", std::string("pumping_station"));
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

  // The bot's orders for the player to move, accepted as the desk stores orders.
  std::int64_t Accept(std::uint64_t seed, storage::Timestamp at) {
    const gs::State state = Current();
    const gs::TurnInfo turn = *data->system->WhoseTurn(data->setup, state);
    gs::Result<gs::Orders> bot = data->system->BotOrders(data->setup, state, seed);
    REQUIRE(bot.ok());
    pbem::v1::Orders orders;
    orders.set_game_id("m");
    orders.set_turn(turn.turn);
    orders.set_player(turn.side);
    *orders.mutable_m42() = codec::M42OrdersToProto(*bot->handle.As<m42::Orders>("m42"));
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

// Until the desk judges another system's orders, it refuses them saying so, before anything it
// would misread (they name a player, not a side), and stores the refusal: nothing accepted is
// left unplayed. Morne Plaine's orders sent to the M42 game are refused naming the field.
TEST_CASE("order desk, M42 game: orders refused with a sentence, nothing accepted",
          "[turn][system]") {
  M42Game f;
  const storage::Game game = *f.repository.GetGame("m");
  const storage::Player blue = (*f.repository.ListPlayers("m"))[0];
  REQUIRE(blue.side == "blue");
  Envelope envelope;
  envelope.channel = storage::Channel::kHttp;
  envelope.sender = "http:blue";
  envelope.received_at = At(5);

  pbem::v1::Orders m42_orders;
  m42_orders.set_game_id("m");
  m42_orders.set_turn(1);
  m42_orders.set_player("blue");
  m42_orders.set_token("tok-b");
  m42_orders.mutable_m42();
  Result<DeskOutcome> outcome = f.desk.Submit(f.repository, game, blue, m42_orders, envelope);
  REQUIRE(outcome.ok());
  CHECK_FALSE(outcome->accepted);
  CHECK(outcome->code == "game_unavailable");
  CHECK(outcome->detail ==
        "game \"m\" plays m42: pbemd does not yet take orders for that system's games; their "
        "turns are played at their deadlines");

  pbem::v1::Orders mp_orders;
  mp_orders.set_game_id("m");
  mp_orders.set_turn(1);
  mp_orders.set_side(pbem::v1::SIDE_BLUE);
  mp_orders.set_token("tok-b");
  outcome = f.desk.Submit(f.repository, game, blue, mp_orders, envelope);
  REQUIRE(outcome.ok());
  CHECK_FALSE(outcome->accepted);
  CHECK(outcome->code == "malformed");
  CHECK_THAT(outcome->detail, Catch::Contains("this game plays m42"));

  const auto stored = f.repository.ListSubmissions("m");
  REQUIRE(stored->size() == 2);
  for (const storage::Submission& s : *stored) {
    CHECK_FALSE(s.accepted);
    CHECK(s.orders.empty());
  }
}

}  // namespace
}  // namespace pbem::daemon
