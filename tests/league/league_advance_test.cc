// The league pass and a resignation that both see a round's last result (pbemd runs the pass
// on its turns thread, a resignation on an HTTP or mail thread): HoldLeagueAdvance makes them
// take turns, so whichever answers, the next round is there when it does, and it is started
// once, by one of them. The interleavings are forced with fault points on a real SQLite store
// (two connections, as pbemd has), not hoped for:
//   1. the pass records the round's last game and stops between rating the round and starting
//      the next; the resignation's recording then comes. It used to answer at once (the game
//      was recorded already) with no round 2 yet: the finding of a red league_pbemd_tests, whose
//      standings were read just after the resignation's answer.
//   2. the resignation records and stops at the same place; the pass then comes. It used to
//      start round 2 itself from under the resignation, whose own start was then refused.
// A resignation is EndGame then league_http::RecordAndAdvance (daemon/league_resign_api.cc);
// both are called here as the route does.
#include <catch2/catch.hpp>
#include <mutex>
#include <thread>

#include "daemon/fault_point.h"
#include "daemon/league_api.h"
#include "daemon/league_routes.h"
#include "tests/daemon/fault_gate.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/test_support.h"

namespace pbem::daemon {
namespace {

using testing::At;

// League "club": alice, bob, carol, dave; round 1 is the fixture's games "demo" (alice-bob)
// and "other" (carol-dave); "other" is over and recorded, "demo" is the round's last game.
struct League {
  testing::GameFixture fixture;
  storage::SqliteRepository http{fixture.dir.path()};  // the resignation's own connection
  LeagueServices services;
  SystemEntropy entropy;

  League() {
    REQUIRE(http.OpenOrMigrate().ok());
    services.catalog = &fixture.catalog;
    services.entropy = &entropy;
    services.template_dir = testing::SourceDir() / "templates" / "league";
    storage::SqliteRepository& r = fixture.repository;
    REQUIRE(r.CreateLeague({"club", "Club", "org", league::EncodeSettings({}), At(1)}).ok());
    for (const std::string name : {"alice", "bob", "carol", "dave"}) {
      REQUIRE(r.AddLeaguePlayer({"club", name, name + "@test.local", "tok-" + name, At(2)}).ok());
    }
    REQUIRE(r.AddLeagueGames({{"club", 1, 1, "demo", "alice", "bob", "pending", "", ""},
                              {"club", 1, 1, "other", "carol", "dave", "pending", "", ""}})
                .ok());
    End(r, "other", At(10));
    Result<LeaguePass> pass = RecordLeagueResults(services, r, r, At(11), nullptr);
    REQUIRE(pass.ok());
    REQUIRE(pass->recorded == 1);
    REQUIRE(RoundGames(2) == 0);
  }
  static void End(storage::GameRepository& games, const std::string& id, storage::Timestamp at) {
    Result<storage::Game> game = games.GetGame(id);
    REQUIRE(game.ok());
    Result<bool> ended = games.EndGame(id, game->turns_committed,
                                       league::ResignationEnding(league::Seat::kOrange), at, {});

    REQUIRE(ended.ok());
    REQUIRE(*ended);
  }
  int RoundGames(int round) {
    auto games = fixture.repository.ListLeagueGames("club");
    REQUIRE(games.ok());
    int n = 0;
    for (const auto& g : *games) n += g.round == round;
    return n;
  }
};

// What the resignation route records once "demo" has ended so (the pass reads the same).
league::GameEnd BobResigned() {
  std::optional<league::GameEnd> end = league::EndOfGame(
      "demo", league::ResignationEnding(league::Seat::kOrange), game_system::Outcome{});
  REQUIRE(end.has_value());
  return *end;
}

TEST_CASE("the pass stopped before starting round 2: the resignation answers after it") {
  League l;
  // Stops the first thread that reaches league.after_rating; a thread about to wait for
  // another (league.advance_wait) lets it go.
  testing::FaultGate gate{std::string(kFaultLeagueAfterRating),
                          std::string(kFaultLeagueAdvanceWait)};
  testing::FaultHookGuard hook(gate);
  // Bob resigns "demo": the game ends (EndGame on the HTTP connection) ...
  League::End(l.http, "demo", At(20));
  // ... and the pass records it first, stopping once the round is rated.
  Result<LeaguePass> pass = Status::Internal("not run");
  std::thread pass_thread([&] {
    pass = RecordLeagueResults(l.services, l.fixture.repository, l.fixture.repository, At(21),
                               nullptr);
  });
  REQUIRE(gate.WaitReached());
  // The resignation's recording: it must not answer before round 2 is there.
  const league::GameEnd end = BobResigned();
  Result<league_http::Recorded> recorded =
      league_http::RecordAndAdvance(l.services, l.http, end, At(21), nullptr);
  const int round2_when_answered = l.RoundGames(2);
  gate.Open();
  pass_thread.join();

  REQUIRE(recorded.ok());
  CHECK(recorded->league_game);
  CHECK(gate.OpenedAtPoint());       // the resignation waited for the pass ...
  CHECK(round2_when_answered == 2);  // ... so round 2 was there when it answered
  REQUIRE(pass.ok());
  CHECK(pass->recorded == 1);
  CHECK(pass->rounds_started == 1);     // the pass started it ...
  CHECK_FALSE(recorded->next_started);  // ... not the resignation
  CHECK(l.RoundGames(2) == 2);          // once
}

TEST_CASE("the resignation stopped before starting round 2: the pass does not start it too") {
  League l;
  // Stops the first thread that reaches league.after_rating; a thread about to wait for
  // another (league.advance_wait) lets it go.
  testing::FaultGate gate{std::string(kFaultLeagueAfterRating),
                          std::string(kFaultLeagueAdvanceWait)};
  testing::FaultHookGuard hook(gate);
  League::End(l.http, "demo", At(20));
  const league::GameEnd end = BobResigned();
  Result<league_http::Recorded> recorded = Status::Internal("not run");
  std::thread resign_thread(
      [&] { recorded = league_http::RecordAndAdvance(l.services, l.http, end, At(21), nullptr); });
  REQUIRE(gate.WaitReached());
  // The pass comes while the resignation is between rating round 1 and starting round 2.
  Result<LeaguePass> pass =
      RecordLeagueResults(l.services, l.fixture.repository, l.fixture.repository, At(22), nullptr);
  gate.Open();
  resign_thread.join();

  REQUIRE(pass.ok());
  CHECK(gate.OpenedAtPoint());  // the pass waited for the resignation
  CHECK(pass->recorded == 0);
  CHECK(pass->rounds_recovered == 0);
  CHECK(pass->failures == 0);
  REQUIRE(recorded.ok());
  CHECK(recorded->round_complete);
  CHECK(recorded->next_started);  // the resignation started round 2, not refused
  CHECK(l.RoundGames(2) == 2);
}

}  // namespace
}  // namespace pbem::daemon
