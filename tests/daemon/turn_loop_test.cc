// The turn loop and the scheduler on a real SQLite store with the bundled scenario and the
// real mail templates: the first turn opened with a commitment, a turn resolved once the side
// to move's orders are in (results mails for every player in the same transaction: subject,
// text and HTML in the player's language, the inline map PNG, the revealed seed and the next
// commitment), and a turn resolved without orders once its deadline and grace passed, driven
// by a fake clock.
#include "daemon/turn_loop.h"

#include <catch2/catch.hpp>
#include <limits>
#include <memory>

#include "daemon/clock.h"
#include "daemon/scheduler.h"
#include "templates/png_writer.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

using testing::At;
using testing::BlueOrdersText;
using testing::GameFixture;
using testing::OrangeOrdersText;
using testing::ReadText;
using testing::SourceDir;
using testing::TurnFixture;

const storage::Attachment* Part(const storage::OutboxMail& mail, const std::string& type) {
  for (const auto& a : mail.attachments) {
    if (a.content_type == type) return &a;
  }
  return nullptr;
}

TEST_CASE("turn loop: the side to move's accepted orders resolve the turn, mails in the commit") {
  TurnFixture f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  Result<OpenedTurn> opened = loop.Open(f.repository, "demo", At(10));
  REQUIRE(opened.ok());
  CHECK(opened->stored.turn == 1);
  CHECK(opened->stored.side == "blue");
  CHECK(opened->commitment.commitment().size() == 64);
  CHECK(opened->commitment.revealed_seed().empty());

  // Nothing in, no deadline: nothing is due, nothing is stored.
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "demo", At(20)));
  CHECK(f.repository.GetGame("demo")->turns_committed == 0);
  // Orange's orders do not resolve blue's turn.
  (void)f.SubmitHttp("demo", "orange", OrangeOrdersText(), At(25));
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "demo", At(26)));

  REQUIRE(f.SubmitHttp("demo", "blue", BlueOrdersText(), At(30)).accepted);
  Result<bool> resolved = loop.ResolveIfDue(f.repository, "demo", At(40));
  INFO(resolved.status().ToString());
  REQUIRE(resolved.ok());
  CHECK(*resolved);
  CHECK_FALSE(*loop.ResolveIfDue(f.repository, "demo", At(41)));  // orange has not played yet

  auto turns = f.repository.ListTurns("demo");
  REQUIRE(turns->size() == 1);
  const storage::Turn& turn = (*turns)[0];
  CHECK(turn.side == "blue");
  CHECK(turn.dice_seed == opened->stored.dice_seed);
  pbem::v1::Orders resolved_orders;
  REQUIRE(resolved_orders.ParseFromString(turn.orders));
  CHECK(resolved_orders.moves_size() > 0);  // blue's orders, not an empty set
  CHECK(resolved_orders.token().empty());
  // The next turn was opened in the same commit: its commitment is what the mails publish.
  auto next = f.repository.GetOpenTurn("demo", 1, "orange");
  REQUIRE(next.ok());
  const std::string next_commitment = CommitmentFor(next->dice_seed).commitment();

  std::vector<storage::OutboxMail> mails = f.Due();
  REQUIRE(mails.size() == 2);
  for (const storage::OutboxMail& mail : mails) {
    INFO(mail.recipient << ": " << mail.subject);
    CHECK(mail.subject == "Game demo, turn 1 (blue): results");
    CHECK_THAT(mail.body, Catch::Contains(Hex(turn.dice_seed)));
    CHECK_THAT(mail.body, Catch::Contains(next_commitment));
    const storage::Attachment* html = Part(mail, "text/html");
    REQUIRE(html != nullptr);
    CHECK(html->filename.empty());
    CHECK_THAT(html->data, Catch::Contains(next_commitment));
    // The action crop first in the body, above the greeting, at its own size; the whole map
    // attached under the game's, turn's and side's name.
    const std::size_t img = html->data.find("<img src=\"cid:demo-turn-1-blue-action.png\"");
    REQUIRE(img != std::string::npos);
    CHECK(img > html->data.find("<body"));
    CHECK(img < html->data.find("<p>", html->data.find("<body")));
    CHECK_THAT(html->data, !Catch::Contains("max-width: 100%"));
    // Orange moves next: its mail also carries the orders template (issue 14 point 2).
    const bool asked = mail.body.rfind("Your move", 0) == 0;
    CHECK(asked == (mail.attachments.size() == 4));
    REQUIRE(mail.attachments.size() == (asked ? 4u : 3u));
    if (asked) CHECK_THAT(mail.attachments[3].filename, Catch::EndsWith("-orange.textproto"));
    const storage::Attachment& crop = mail.attachments[1];
    const storage::Attachment& whole = mail.attachments[2];
    CHECK(crop.filename == "demo-turn-1-blue-action.png");
    CHECK(whole.filename == "demo-turn-1-blue.png");
    templates::DecodedPng crop_png;
    templates::DecodedPng whole_png;
    REQUIRE(templates::DecodePng({crop.data.begin(), crop.data.end()}, &crop_png).ok);
    REQUIRE(templates::DecodePng({whole.data.begin(), whole.data.end()}, &whole_png).ok);
    CHECK(crop_png.width < whole_png.width);
    CHECK(crop_png.height < whole_png.height);
    CHECK_THAT(html->data,
               Catch::Contains("width=\"" + std::to_string(crop_png.width) + "\" height=\"" +
                               std::to_string(crop_png.height) + "\""));
  }
  CHECK(mails[0].recipient != mails[1].recipient);
  // Both players read English: one drawing, the same bytes in both mails.
  CHECK(mails[0].attachments[2].data == mails[1].attachments[2].data);

  // Orange's orders sent now are for the position after blue's turn: they resolve it.
  REQUIRE(f.SubmitHttp("demo", "orange", OrangeOrdersText(), At(50)).accepted);
  CHECK(*loop.ResolveIfDue(f.repository, "demo", At(60)));
  turns = f.repository.ListTurns("demo");
  REQUIRE(turns->size() == 2);
  CHECK((*turns)[1].side == "orange");
  CHECK((*turns)[1].dice_seed == next->dice_seed);  // the seed committed to in blue's mails
  CHECK(f.metrics.RenderPrometheus().find("pbemd_turns_resolved_total 2") != std::string::npos);
}

TEST_CASE("turn loop: a French player reads French results") {
  TurnFixture f;
  f.CreateGame("fr1", std::chrono::seconds(0), std::chrono::seconds(0));
  REQUIRE(f.repository.AddPlayer({"fr1", "blue", "anne@test.local", "tok-b1", "fr"}).ok());
  REQUIRE(f.repository.AddPlayer({"fr1", "orange", "ben@test.local", "tok-o1"}).ok());
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::seconds(0), /*map_image=*/false});
  REQUIRE(loop.Open(f.repository, "fr1", At(2)).ok());
  std::string text = BlueOrdersText("tok-b1");
  const std::string from = "game_id: \"demo\"", to = "game_id: \"fr1\"";
  text.replace(text.find(from), from.size(), to);
  REQUIRE(f.SubmitHttp("fr1", "blue", text, At(3)).accepted);
  REQUIRE(*loop.ResolveIfDue(f.repository, "fr1", At(4)));
  std::vector<storage::OutboxMail> mails = f.Due();
  REQUIRE(mails.size() == 2);
  for (const auto& mail : mails) {
    if (mail.recipient == "anne@test.local") {
      CHECK(mail.subject == "Partie fr1, tour 1 (bleu)\u00a0: résultats");
    } else {
      CHECK(mail.subject == "Game fr1, turn 1 (blue): results");
    }
    CHECK(Part(mail, "image/png") == nullptr);  // no map asked for
  }
}

TEST_CASE("turn loop: each language's map drawn for its readers, players greeted by name") {
  TurnFixture f;
  f.CreateGame("lg1", std::chrono::seconds(0), std::chrono::seconds(0));
  // A league game: its players are stored with their names in the league (migration 12).
  REQUIRE(f.repository
              .AddPlayer({"lg1", "blue", "helene@test.local", "tok-b1", "fr", "H\u00e9l\u00e8ne"})
              .ok());
  REQUIRE(f.repository.AddPlayer({"lg1", "orange", "ben@test.local", "tok-o1", "en", "Ben"}).ok());
  storage::NewLeague league;
  league.id = "club";
  league.name = "Club";
  league.organiser_token = "org-token";
  league.created_at = At(1);
  REQUIRE(f.repository.CreateLeague(league).ok());
  storage::LeagueGameRecord record;
  record.league_id = "club";
  record.season = 1;
  record.round = 1;
  record.game_id = "lg1";
  record.blue = "H\u00e9l\u00e8ne";
  record.orange = "Ben";
  REQUIRE(f.repository.AddLeagueGames({record}).ok());
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  REQUIRE(loop.Open(f.repository, "lg1", At(2)).ok());
  std::string text = BlueOrdersText("tok-b1");
  const std::string from = "game_id: \"demo\"", to = "game_id: \"lg1\"";
  text.replace(text.find(from), from.size(), to);
  REQUIRE(f.SubmitHttp("lg1", "blue", text, At(3)).accepted);
  REQUIRE(*loop.ResolveIfDue(f.repository, "lg1", At(4)));
  std::vector<storage::OutboxMail> mails = f.Due();
  REQUIRE(mails.size() == 2);
  const storage::OutboxMail& fr = mails[0].recipient == "helene@test.local" ? mails[0] : mails[1];
  const storage::OutboxMail& en = mails[0].recipient == "helene@test.local" ? mails[1] : mails[0];
  CHECK_THAT(fr.body, Catch::StartsWith("Bonjour H\u00e9l\u00e8ne,"));
  // Ben (orange) moves next: "your move" first, then the greeting, and his orders template.
  CHECK_THAT(en.body, Catch::StartsWith("Your move"));
  CHECK_THAT(en.body, Catch::Contains("\nHello Ben,"));
  REQUIRE(fr.attachments.size() == 3);
  REQUIRE(en.attachments.size() == 4);
  CHECK_THAT(fr.attachments[0].data, Catch::Contains("alt=\"Carte de l&apos;action de ce tour"));
  CHECK_THAT(en.attachments[0].data, Catch::Contains("alt=\"Map of this turn&apos;s action"));
  CHECK(fr.attachments[2].filename == "lg1-turn-1-blue.png");
  // The French map's title and legend are French: not the English image.
  CHECK(fr.attachments[2].data != en.attachments[2].data);
}

TEST_CASE("scheduler: with a fake clock, turns go without orders after deadline and grace") {
  TurnFixture f;
  f.CreateGame("late", std::chrono::hours(24), std::chrono::hours(6));
  REQUIRE(f.repository.AddPlayer({"late", "blue", "b@test.local", "tok-late-b"}).ok());
  REQUIRE(f.repository.AddPlayer({"late", "orange", "o@test.local", "tok-late-o"}).ok());
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::minutes(30), /*map_image=*/false});
  FakeClock clock(At(1000));
  Scheduler scheduler(f.repository, loop, clock, nullptr);

  // The first pass opens every game's turn; "demo" and "other" have no deadline.
  Result<SchedulerPass> pass = scheduler.Pass();
  REQUIRE(pass.ok());
  CHECK(pass->games == 3);
  CHECK(pass->turns_resolved == 0);
  REQUIRE(f.repository.GetOpenTurn("late", 1, "blue").ok());

  clock.Advance(std::chrono::hours(24));  // the deadline, but not the grace
  CHECK(scheduler.Pass()->turns_resolved == 0);
  clock.Advance(std::chrono::minutes(30));
  CHECK(scheduler.Pass()->turns_resolved == 1);
  auto turns = f.repository.ListTurns("late");
  REQUIRE(turns->size() == 1);
  pbem::v1::Orders none;
  REQUIRE(none.ParseFromString((*turns)[0].orders));
  CHECK(none.moves_size() == 0);
  CHECK(none.placements_size() == 0);
  CHECK(none.attacks_size() == 0);

  // Orange's deadline runs from its turn's opening (at the commit): orders in before it.
  auto next = f.repository.GetOpenTurn("late", 1, "orange");
  REQUIRE(next.ok());
  CHECK(next->opened_at == clock.Now());
  clock.Advance(std::chrono::hours(2));
  std::string text = OrangeOrdersText("tok-late-o");
  const std::string from = "game_id: \"demo\"", to = "game_id: \"late\"";
  text.replace(text.find(from), from.size(), to);
  (void)f.SubmitHttp("late", "orange", text, clock.Now());
  CHECK(scheduler.Pass()->turns_resolved == 1);
  turns = f.repository.ListTurns("late");
  REQUIRE(turns->size() == 2);
  CHECK((*turns)[1].side == "orange");
  // Then blue's turn 2 times out as well: several turns through the fake clock.
  clock.Advance(std::chrono::hours(24) + std::chrono::minutes(29));
  CHECK(scheduler.Pass()->turns_resolved == 0);
  clock.Advance(std::chrono::minutes(1));
  CHECK(scheduler.Pass()->turns_resolved == 1);
  CHECK(f.repository.ListTurns("late")->size() == 3);
  CHECK(f.repository.GetGame("demo")->turns_committed == 0);
}

// Issue 13, finding 8: turnTimeoutSeconds 9223372036854775807 overflowed the deadline, which
// wrapped into the past and played the whole game out as missed turns in a second. pbemd now
// refuses such a timeout at the door; a game stored with one earlier waits instead.
TEST_CASE("scheduler: an absurd stored timeout never overflows into a past deadline") {
  TurnFixture f;
  const auto huge = std::chrono::seconds(std::numeric_limits<std::int64_t>::max());
  f.CreateGame("forever", huge, huge - std::chrono::seconds(1));
  REQUIRE(f.repository.AddPlayer({"forever", "blue", "b@test.local", "tok-ever-b"}).ok());
  REQUIRE(f.repository.AddPlayer({"forever", "orange", "o@test.local", "tok-ever-o"}).ok());
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::minutes(30), /*map_image=*/false});
  FakeClock clock(At(1000));
  Scheduler scheduler(f.repository, loop, clock, nullptr);
  for (int pass = 0; pass < 5; ++pass) {
    Result<SchedulerPass> done = scheduler.Pass();
    REQUIRE(done.ok());
    CHECK(done->turns_resolved == 0);
    clock.Advance(std::chrono::hours(24 * 365));
  }
  CHECK(f.repository.ListTurns("forever")->empty());
  for (const storage::OutboxMail& m : f.Due()) {
    INFO(m.subject);
    CHECK(false);
  }
}

TEST_CASE("scheduler: a game another instance works on is skipped until its lock frees") {
  TurnFixture f;
  f.CreateGame("late", std::chrono::hours(24), std::chrono::hours(0));
  REQUIRE(f.repository.AddPlayer({"late", "blue", "b@test.local", "tok-late-b"}).ok());
  REQUIRE(f.repository.AddPlayer({"late", "orange", "o@test.local", "tok-late-o"}).ok());
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::seconds(0), /*map_image=*/false});
  FakeClock clock(At(1000));
  Scheduler scheduler(f.repository, loop, clock, nullptr);
  REQUIRE(scheduler.Pass().ok());  // opens the turns
  clock.Advance(std::chrono::hours(25));

  // Another instance (its own repository on the same store) holds "late".
  auto other = std::make_unique<storage::SqliteRepository>(f.dir.path());
  REQUIRE(other->OpenOrMigrate().ok());
  REQUIRE(*other->TryLock(Scheduler::GameLock("late")));
  Result<SchedulerPass> skipped = scheduler.Pass();
  REQUIRE(skipped.ok());
  CHECK(skipped->busy == 1);
  CHECK(skipped->turns_resolved == 0);
  CHECK(f.repository.ListTurns("late")->empty());

  // The other instance goes away (as when it is killed): the next pass takes the game.
  other.reset();
  Result<SchedulerPass> taken = scheduler.Pass();
  REQUIRE(taken.ok());
  CHECK(taken->busy == 0);
  CHECK(taken->turns_resolved == 1);
  CHECK(f.repository.ListTurns("late")->size() == 1);
  // The pass let the lock go: another instance can take the game now.
  storage::SqliteRepository third(f.dir.path());
  REQUIRE(third.OpenOrMigrate().ok());
  CHECK(*third.TryLock(Scheduler::GameLock("late")));
}

}  // namespace
}  // namespace pbem::daemon

namespace pbem::daemon {
namespace {

struct ScheduledGame : TurnFixture {
  ScheduledGame() : clock(At(1000)) {
    CreateGame("timed", std::chrono::hours(48), std::chrono::hours(12));
    REQUIRE(repository.AddPlayer({"timed", "blue", "tb@test.local", "tok-timed-b", "fr"}).ok());
    REQUIRE(repository.AddPlayer({"timed", "orange", "to@test.local", "tok-timed-o"}).ok());
  }
  std::vector<storage::OutboxMail> MailsTo(const std::string& address) {
    std::vector<storage::OutboxMail> out;
    for (auto& m : Due()) {
      if (m.recipient == address) out.push_back(m);
    }
    return out;
  }
  FakeClock clock;
};

// Issue 19: a pass costs the games due. Between wake-ups no game is listed, and the oracle
// agrees: ResolveIfDue, asked directly about every game, would do nothing and write nothing.
TEST_CASE("scheduler: a pass lists a game exactly when its turn job would act") {
  ScheduledGame f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::minutes(30), false});
  Scheduler scheduler(f.repository, loop, f.clock, nullptr);
  const std::vector<std::string> ids = *f.repository.ListGames();
  REQUIRE(ids.size() == 3);
  auto idle = [&](const std::string& when) {
    INFO(when);
    Result<SchedulerPass> pass = scheduler.Pass();
    REQUIRE(pass.ok());
    CHECK(pass->games == 0);
    const std::size_t mails = f.Due().size();
    for (const std::string& id : ids) {
      INFO(id);
      Result<bool> acted = loop.ResolveIfDue(f.repository, id, f.clock.Now());
      REQUIRE(acted.ok());
      CHECK_FALSE(*acted);
    }
    CHECK(f.Due().size() == mails);                                    // no reminder either
    CHECK(f.repository.ListSchedulableGames(f.clock.Now())->empty());  // nothing was written
  };
  auto due = [&](int games, int turns) {
    Result<SchedulerPass> pass = scheduler.Pass();
    REQUIRE(pass.ok());
    CHECK(pass->games == games);
    CHECK(pass->turns_resolved == turns);
  };
  // A process's first pass looks at every game and opens their turns; then all sleep: "demo"
  // and "other" have no deadline, "timed" wakes for its reminder (48 h - 12 h).
  due(3, 0);
  idle("after the first pass");
  f.clock.Advance(std::chrono::hours(36) - std::chrono::milliseconds(1));
  idle("just before the reminder");
  f.clock.Advance(std::chrono::milliseconds(1));
  due(1, 0);
  CHECK(f.MailsTo("tb@test.local").size() == 1);
  // Reminded: it sleeps until the deadline and the grace.
  f.clock.Advance(std::chrono::hours(12) + std::chrono::minutes(30) - std::chrono::milliseconds(1));
  idle("just before the deadline and grace");
  f.clock.Advance(std::chrono::milliseconds(1));
  due(1, 1);  // blue missed its turn; orange's opened with the commit
  idle("orange's turn just opened");
  // A write wakes a game at once, whoever made it: orders through the desk ...
  std::string text = OrangeOrdersText("tok-timed-o");
  const std::string from = "game_id: \"demo\"", to = "game_id: \"timed\"";
  text.replace(text.find(from), from.size(), to);
  REQUIRE(f.SubmitHttp("timed", "orange", text, f.clock.Now()).accepted);
  due(1, 1);
  idle("blue's second turn just opened");
  // ... the organiser's pause and resume (the deadline moves: the wake-up is computed again) ...
  REQUIRE(f.repository.SetPaused("timed", true, f.clock.Now()).ok());
  due(1, 0);
  f.clock.Advance(std::chrono::hours(100));
  idle("paused");
  REQUIRE(f.repository.SetPaused("timed", false, f.clock.Now()).ok());
  due(1, 0);
  f.clock.Advance(std::chrono::hours(36) - std::chrono::milliseconds(1));
  idle("resumed, just before the reminder");
  f.clock.Advance(std::chrono::milliseconds(1));
  due(1, 0);
  // ... and an extension of the deadline, which asks for a new reminder.
  REQUIRE(*f.repository.ExtendDeadline("timed", 2, std::chrono::hours(24), {}));
  due(1, 0);
  idle("extended");
  f.clock.Advance(std::chrono::hours(24) - std::chrono::milliseconds(1));
  idle("extended, just before the new reminder");
  const std::size_t before = f.MailsTo("tb@test.local").size();
  f.clock.Advance(std::chrono::milliseconds(1));
  due(1, 0);
  CHECK(f.MailsTo("tb@test.local").size() == before + 1);
  // A new process looks at every game once: its settings may differ.
  Scheduler restarted(f.repository, loop, f.clock, nullptr);
  Result<SchedulerPass> first = restarted.Pass();
  REQUIRE(first.ok());
  CHECK(first->games == 3);
}

TEST_CASE("scheduler: one reminder, in the player's language, reminder_before the deadline") {
  ScheduledGame f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::seconds(0), false});
  Scheduler scheduler(f.repository, loop, f.clock, nullptr);
  REQUIRE(scheduler.Pass().ok());
  f.clock.Advance(std::chrono::hours(36) - std::chrono::minutes(1));
  REQUIRE(scheduler.Pass().ok());
  CHECK(f.MailsTo("tb@test.local").empty());
  f.clock.Advance(std::chrono::minutes(1));
  REQUIRE(scheduler.Pass().ok());
  f.clock.Advance(std::chrono::hours(1));
  REQUIRE(scheduler.Pass().ok());
  std::vector<storage::OutboxMail> reminders = f.MailsTo("tb@test.local");
  REQUIRE(reminders.size() == 1);
  CHECK_THAT(reminders[0].subject, Catch::Contains("timed"));
  CHECK(reminders[0].subject.find("Partie") != std::string::npos);  // French
  // Issue 14: a reminder asks to move, so it starts so and carries the orders template.
  CHECK(reminders[0].body.rfind("À vous de jouer, avant le ", 0) == 0);
  CHECK(reminders[0].body.find("#--- pbem orders: begin ---") != std::string::npos);
  CHECK(f.MailsTo("to@test.local").empty());  // orange is not the side to move
  CHECK(f.repository.GetGame("timed")->turns_committed == 0);
}

TEST_CASE("scheduler: a paused game's clock stands still, then runs on") {
  ScheduledGame f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits,
                TurnLoopOptions{std::chrono::seconds(0), false});
  Scheduler scheduler(f.repository, loop, f.clock, nullptr);
  REQUIRE(scheduler.Pass().ok());
  f.clock.Advance(std::chrono::hours(10));
  REQUIRE(f.repository.SetPaused("timed", true, f.clock.Now()).ok());
  f.clock.Advance(std::chrono::hours(100));  // far past the deadline, but paused
  CHECK(scheduler.Pass()->turns_resolved == 0);
  CHECK(f.MailsTo("tb@test.local").empty());  // no reminder while paused either
  REQUIRE(f.repository.SetPaused("timed", false, f.clock.Now()).ok());
  // 38 of the 48 hours are left.
  f.clock.Advance(std::chrono::hours(38) - std::chrono::seconds(1));
  CHECK(scheduler.Pass()->turns_resolved == 0);
  f.clock.Advance(std::chrono::seconds(1));
  CHECK(scheduler.Pass()->turns_resolved == 1);
  CHECK(f.repository.ListTurns("timed")->size() == 1);
}

TEST_CASE("scheduler: missed turns are counted, and a player forfeits after the limit") {
  ScheduledGame f;
  TurnLoopOptions options{std::chrono::seconds(0), false};
  options.forfeit_after_missed = 2;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits, options);
  Scheduler scheduler(f.repository, loop, f.clock, nullptr);
  REQUIRE(scheduler.Pass().ok());
  // Blue misses turn 1; orange plays; blue misses turn 2 and forfeits.
  f.clock.Advance(std::chrono::hours(48));
  CHECK(scheduler.Pass()->turns_resolved == 1);
  auto players = f.repository.ListPlayers("timed");
  CHECK((*players)[0].missed_turns == 1);  // blue
  CHECK((*players)[1].missed_turns == 0);
  std::string text = OrangeOrdersText("tok-timed-o");
  const std::string from = "game_id: \"demo\"", to = "game_id: \"timed\"";
  text.replace(text.find(from), from.size(), to);
  REQUIRE(f.SubmitHttp("timed", "orange", text, f.clock.Now()).accepted);
  CHECK(scheduler.Pass()->turns_resolved == 1);
  CHECK(f.repository.GetGame("timed")->result.empty());
  f.clock.Advance(std::chrono::hours(48));
  CHECK(scheduler.Pass()->turns_resolved == 1);
  storage::Game game = *f.repository.GetGame("timed");
  CHECK(game.result == "orange wins: blue forfeited after missing 2 turns");
  CHECK((*f.repository.ListPlayers("timed"))[0].missed_turns == 2);
  // Over: no more turns, and orders are refused naming the result.
  f.clock.Advance(std::chrono::hours(480));
  CHECK(scheduler.Pass()->turns_resolved == 0);
  CHECK(f.repository.ListTurns("timed")->size() == 3);
  std::vector<storage::OutboxMail> over = f.MailsTo("to@test.local");
  bool told = false;
  for (const auto& m : over) told = told || m.subject == "Game timed: the game is over";
  CHECK(told);
  // The results of a missed turn say so, in each player's language; the forfeit is told in
  // French to the French player.
  bool missed_en = false;
  for (const auto& m : over) {
    missed_en = missed_en || m.body.find(
                                 "No orders arrived by the deadline: the blue side "
                                 "played no orders this turn.") != std::string::npos;
    CHECK(m.body.find("Nothing happened") == std::string::npos);
  }
  CHECK(missed_en);
  bool missed_fr = false;
  bool forfeit_fr = false;
  for (const auto& m : f.MailsTo("tb@test.local")) {
    missed_fr = missed_fr || m.body.find(
                                 "Aucun ordre n'est arrivé avant l'échéance\u00a0: le camp "
                                 "bleu n'a joué aucun ordre ce tour.") != std::string::npos;
    forfeit_fr = forfeit_fr ||
                 (m.subject == "Partie timed\u00a0: la partie est terminée" &&
                  m.body ==
                      "La partie timed est terminée\u00a0: le camp bleu perd par forfait, faute "
                      "d'ordres pendant 2 tours\u00a0; victoire pour le camp orange.\n");
  }
  CHECK(missed_fr);
  CHECK(forfeit_fr);
}

}  // namespace
}  // namespace pbem::daemon
