// A game whose turn job keeps failing with an error that is not a database outage (issue 13:
// it was retried on every pass, forever, logging each time, nobody told). Forced with the
// fault point turn_loop.resolve (daemon/fault_point.h, action fail) on one named game, on a
// real SQLite store with the real templates, driven by a fake clock: the game backs off,
// becomes stuck after max_failures (logged once, both players told once in their language),
// the other games keep being resolved, and the operator's retry plays the orders that were
// acknowledged.
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <catch2/catch.hpp>
#include <memory>
#include <sstream>

#include "daemon/clock.h"
#include "daemon/fault_point.h"
#include "daemon/scheduler.h"
#include "daemon/turn_loop.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

using testing::At;
using testing::BlueOrdersText;
using testing::OrangeOrdersText;
using testing::TurnFixture;

// Arms PBEM_FAULT's `spec` for the test's lifetime.
struct ArmedFault {
  explicit ArmedFault(const std::string& spec) {
    Result<std::vector<FaultEntry>> entries = ParseFaultSpec(spec);
    REQUIRE(entries.ok());
    SetArmedFaultPointsForTest(*entries);
  }
  ~ArmedFault() { SetArmedFaultPointsForTest({}); }
  ArmedFault(const ArmedFault&) = delete;
  ArmedFault& operator=(const ArmedFault&) = delete;
};

std::string ForGame(std::string text, const std::string& game_id) {
  const std::string from = "game_id: \"demo\"";
  text.replace(text.find(from), from.size(), "game_id: \"" + game_id + "\"");
  return text;
}

// The orders as played: the token is not part of them.
std::string Canonical(const std::string& bytes) {
  pbem::v1::Orders orders;
  REQUIRE(orders.ParseFromString(bytes));
  orders.clear_token();
  return orders.SerializeAsString();
}

struct FailingGame : TurnFixture {
  FailingGame()
      : clock(At(1000)),
        log_sink(std::make_shared<spdlog::sinks::ostream_sink_mt>(log)),
        logger("scheduler-test", log_sink),
        loop(catalog, mail_templates, entropy, metrics, limits,
             TurnLoopOptions{std::chrono::seconds(0), /*map_image=*/false}) {
    logger.set_pattern("level=%l %v");
    CreateGame("broken", std::chrono::seconds(0), std::chrono::seconds(0));
    REQUIRE(repository
                .AddPlayer(
                    {"broken", "blue", "helene@test.local", "tok-br-b", "fr", "H\u00e9l\u00e8ne"})
                .ok());
    REQUIRE(
        repository.AddPlayer({"broken", "orange", "ben@test.local", "tok-br-o", "en", "Ben"}).ok());
    options.retry_base = std::chrono::seconds(1);
    options.retry_max = std::chrono::seconds(8);
    options.max_failures = 5;
    options.metrics = &metrics;
  }

  int Count(const std::string& text) const {
    const std::string all = log.str();
    int n = 0;
    for (std::size_t at = all.find(text); at != std::string::npos; at = all.find(text, at + 1)) {
      ++n;
    }
    return n;
  }
  std::vector<storage::OutboxMail> StuckNotices() {
    std::vector<storage::OutboxMail> out;
    for (storage::OutboxMail& m : Due()) {
      if (m.subject.find("broken") != std::string::npos) out.push_back(std::move(m));
    }
    return out;
  }
  std::int64_t Failures(const std::string& game_id) {
    Result<std::vector<storage::SchedulableGame>> games =
        repository.ListSchedulableGames(At(1LL << 50));
    REQUIRE(games.ok());
    for (const storage::SchedulableGame& g : *games) {
      if (g.id == game_id) return g.turn_failures;
    }
    return -1;  // stuck
  }

  FakeClock clock;
  std::ostringstream log;
  std::shared_ptr<spdlog::sinks::ostream_sink_mt> log_sink;
  spdlog::logger logger;
  TurnLoop loop;
  SchedulerOptions options;
};

TEST_CASE("scheduler: a game whose turn keeps failing backs off, is stuck once, is retried") {
  FailingGame f;
  Scheduler scheduler(f.repository, f.loop, f.clock, &f.logger, f.options);
  REQUIRE(scheduler.Pass().ok());  // opens every game's first turn
  // Blue's orders for "broken" are acknowledged before anything fails: they must be played.
  const DeskOutcome blue =
      f.SubmitHttp("broken", "blue", ForGame(BlueOrdersText("tok-br-b"), "broken"), f.clock.Now());
  REQUIRE(blue.accepted);
  REQUIRE(f.SubmitHttp("demo", "blue", BlueOrdersText(), f.clock.Now()).accepted);

  ArmedFault fault("turn_loop.resolve:fail:game=broken");
  Result<SchedulerPass> pass = scheduler.Pass();
  REQUIRE(pass.ok());
  CHECK(pass->failures == 1);
  CHECK(pass->turns_resolved == 1);  // demo, beside the failing game
  CHECK(f.Failures("broken") == 1);

  // Backing off: 1 s, 2 s, 4 s, 8 s (the cap); the game is not even listed meanwhile.
  int tries = 1;
  for (const int delay_s : {1, 2, 4, 8}) {
    const auto delay = std::chrono::seconds(delay_s);
    f.clock.Advance(delay - std::chrono::milliseconds(1));
    for (int i = 0; i < 3; ++i) {
      pass = scheduler.Pass();
      REQUIRE(pass.ok());
      // Nothing listed: broken backs off; demo and other sleep until a write (issue 19).
      CHECK(pass->games == 0);
      CHECK(pass->failures == 0);
    }
    f.clock.Advance(std::chrono::milliseconds(1));
    pass = scheduler.Pass();
    REQUIRE(pass.ok());
    CHECK(pass->games == 1);  // broken alone
    CHECK(pass->failures == 1);
    ++tries;
    INFO("try " << tries);
    CHECK(pass->stuck == (tries == 5 ? 1 : 0));
  }
  CHECK(f.metrics.turn_failures() == 5);
  CHECK(f.metrics.games_stuck() == 1);
  CHECK(f.metrics.RenderPrometheus().find("pbemd_games_stuck 1\n") != std::string::npos);
  CHECK(f.metrics.RenderPrometheus().find("pbemd_turn_failures_total 5\n") != std::string::npos);
  Result<std::vector<storage::StuckGame>> stuck = f.repository.ListStuckGames();
  REQUIRE(stuck->size() == 1);
  CHECK(stuck->front().game_id == "broken");
  CHECK(stuck->front().turn_failures == 5);
  CHECK(stuck->front().failed_at == f.clock.Now());
  CHECK_THAT(stuck->front().error, Catch::Contains("turn_loop.resolve"));

  // Stuck: left alone for days, while the other games are resolved as usual.
  REQUIRE(f.SubmitHttp("demo", "orange", OrangeOrdersText(), f.clock.Now()).accepted);
  for (int day = 0; day < 3; ++day) {
    f.clock.Advance(std::chrono::hours(24));
    pass = scheduler.Pass();
    REQUIRE(pass.ok());
    CHECK(pass->games == (day == 0 ? 1 : 0));  // demo, woken by its orders, then nothing
    CHECK(pass->failures == 0);
  }
  CHECK(f.repository.ListTurns("demo")->size() == 2);
  CHECK(f.repository.ListTurns("broken")->empty());
  CHECK(f.metrics.turn_failures() == 5);
  // One error line when it became stuck; a warning per failure before, none since.
  CHECK(f.Count("level=error event=game_stuck game=broken failures=5 players_told=2") == 1);
  CHECK(f.Count("level=error") == 1);
  CHECK(f.Count("level=warning event=turn_failed game=broken") == 4);

  // Both players told once, each in their language, by name.
  std::vector<storage::OutboxMail> notices = f.StuckNotices();
  REQUIRE(notices.size() == 2);
  const storage::OutboxMail& fr =
      notices[0].recipient == "helene@test.local" ? notices[0] : notices[1];
  const storage::OutboxMail& en =
      notices[0].recipient == "helene@test.local" ? notices[1] : notices[0];
  CHECK(fr.recipient == "helene@test.local");
  CHECK(en.recipient == "ben@test.local");
  CHECK(fr.subject == "Partie broken\u00a0: l'arbitre n'a pas pu jouer le tour 1 (bleu)");
  CHECK(en.subject == "Game broken: the referee could not play turn 1 (blue)");
  CHECK_THAT(fr.body, Catch::StartsWith("Bonjour H\u00e9l\u00e8ne,\n"));
  CHECK_THAT(fr.body, Catch::Contains("L'arbitre n'a pas pu résoudre le tour 1 (bleu)"));
  CHECK_THAT(fr.body, Catch::Contains("Vos ordres sont conservés"));
  CHECK_THAT(fr.body, Catch::Contains("l'administrateur du service a été prévenu"));
  CHECK_THAT(en.body, Catch::StartsWith("Hello Ben,\n"));
  CHECK_THAT(en.body, Catch::Contains("could not resolve turn 1 (blue) of game broken"));
  CHECK_THAT(en.body, Catch::Contains("played exactly as acknowledged"));
  CHECK_THAT(en.body, Catch::Contains("the operator has been told"));
  // Neither the error nor a code reaches the players.
  CHECK_THAT(en.body, !Catch::Contains("turn_loop"));
  CHECK_THAT(en.body, !Catch::Contains("INTERNAL"));

  // The operator fixes the cause and retries: the next pass plays blue's acknowledged orders.
  SetArmedFaultPointsForTest({});
  pass = scheduler.Pass();
  CHECK(pass->games == 0);  // still stuck until retried
  REQUIRE(f.repository.RetryStuckGame("broken", f.clock.Now()).ok());
  pass = scheduler.Pass();
  REQUIRE(pass.ok());
  CHECK(pass->games == 1);  // the retry woke it
  CHECK(pass->turns_resolved == 1);
  CHECK(f.metrics.games_stuck() == 0);
  Result<std::vector<storage::Turn>> turns = f.repository.ListTurns("broken");
  REQUIRE(turns->size() == 1);
  CHECK((*turns)[0].side == "blue");
  std::string acknowledged;
  Result<std::vector<storage::Submission>> submissions = f.repository.ListSubmissions("broken");
  REQUIRE(submissions.ok());
  for (const storage::Submission& s : *submissions) {
    if (s.id == blue.submission_id) acknowledged = s.orders;
  }
  REQUIRE_FALSE(acknowledged.empty());
  CHECK(Canonical((*turns)[0].orders) == Canonical(acknowledged));
  CHECK(f.StuckNotices().size() == 4);  // the two notices and the two results mails
}

TEST_CASE("scheduler: a turn that goes through clears the failures counted before") {
  FailingGame f;
  Scheduler scheduler(f.repository, f.loop, f.clock, &f.logger, f.options);
  REQUIRE(scheduler.Pass().ok());
  // Orders give the game work (a game with none is not even looked at: issue 19).
  REQUIRE(
      f.SubmitHttp("broken", "blue", ForGame(BlueOrdersText("tok-br-b"), "broken"), f.clock.Now())
          .accepted);
  {
    ArmedFault fault("turn_loop.resolve:fail:game=broken");
    REQUIRE(scheduler.Pass().ok());
    f.clock.Advance(std::chrono::seconds(1));
    REQUIRE(scheduler.Pass().ok());
    CHECK(f.Failures("broken") == 2);
  }
  f.clock.Advance(std::chrono::seconds(2));
  Result<SchedulerPass> pass = scheduler.Pass();
  REQUIRE(pass.ok());
  CHECK(pass->failures == 0);
  CHECK(pass->turns_resolved == 1);
  // Orange's orders: work again, and the count read while the game is listed.
  REQUIRE(f.SubmitHttp("broken", "orange", ForGame(OrangeOrdersText("tok-br-o"), "broken"),
                       f.clock.Now())
              .accepted);
  CHECK(f.Failures("broken") == 0);
  const std::size_t results_mails = f.StuckNotices().size();  // of blue's turn
  // Counted from 0 again: max_failures more are needed to be stuck.
  ArmedFault fault("turn_loop.resolve:fail:game=broken");
  for (int i = 0; i < 4; ++i) {
    REQUIRE(scheduler.Pass().ok());
    f.clock.Advance(std::chrono::seconds(8));
  }
  CHECK(f.Failures("broken") == 4);
  CHECK(f.repository.ListStuckGames()->empty());
  CHECK(f.StuckNotices().size() == results_mails);  // no stuck notice
}

// A database outage is not the game's failure: today's behaviour (the pass stops, the next
// one retries), nothing counted.
class UnreachableJob final : public TurnJob {
 public:
  Result<bool> ResolveIfDue(storage::GameRepository&, const std::string&,
                            storage::Timestamp) override {
    return Status::Unavailable("the database cannot be reached");
  }
};

TEST_CASE("scheduler: an unreachable database counts no failure against a game") {
  FailingGame f;
  UnreachableJob job;
  Scheduler scheduler(f.repository, job, f.clock, &f.logger, f.options);
  for (int i = 0; i < 20; ++i) {
    Result<SchedulerPass> pass = scheduler.Pass();
    REQUIRE_FALSE(pass.ok());
    CHECK(pass.status().code() == StatusCode::kUnavailable);
  }
  CHECK(f.Failures("broken") == 0);
  CHECK(f.Failures("demo") == 0);
  CHECK(f.metrics.turn_failures() == 0);
  CHECK(f.repository.ListStuckGames()->empty());
}

TEST_CASE("scheduler: the retry delay doubles from the poll interval up to its cap") {
  TurnFixture f;
  TurnLoop loop(f.catalog, f.mail_templates, f.entropy, f.metrics, f.limits);
  FakeClock clock(At(0));
  SchedulerOptions options;
  options.retry_base = std::chrono::milliseconds(1000);
  options.retry_max = std::chrono::milliseconds(300000);
  Scheduler scheduler(f.repository, loop, clock, nullptr, options);
  CHECK(scheduler.RetryDelay(1) == std::chrono::milliseconds(1000));
  CHECK(scheduler.RetryDelay(2) == std::chrono::milliseconds(2000));
  CHECK(scheduler.RetryDelay(9) == std::chrono::milliseconds(256000));
  CHECK(scheduler.RetryDelay(10) == std::chrono::milliseconds(300000));
  CHECK(scheduler.RetryDelay(1'000'000) == std::chrono::milliseconds(300000));  // no overflow
}

}  // namespace
}  // namespace pbem::daemon
