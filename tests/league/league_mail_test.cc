// Resignation by mail: MailIntake with pbemd's command hook (HandleResignationMail) on a real
// SQLite store holding a league game: the resigning player's mail ends the game and the
// league records it; someone else's token, a stranger, a second resignation and an orders
// mail each get what they should, and nothing else changes.
#include <catch2/catch.hpp>

#include "daemon/league_api.h"
#include "daemon/mail/intake.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/test_support.h"

namespace pbem::daemon {
namespace {

using testing::At;

std::string TextMail(const std::string& from, const std::string& id, const std::string& body) {
  return "From: Player <" + from + ">\r\nTo: pbem@game.test\r\nSubject: my game\r\nMessage-ID: <" +
         id + ">\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + body;
}

DaemonConfig IntakeConfig() {
  DaemonConfig config;
  config.mail_from = "pbem@game.test";
  return config;
}

struct Harness {
  testing::GameFixture fixture;
  DaemonConfig config = IntakeConfig();
  LeagueServices services;
  SystemEntropy entropy;
  std::shared_ptr<spdlog::logger> logger = testing::NullLogger();
  int wakes = 0;
  mail::MailIntake intake{fixture.repository, fixture.desk, fixture.metrics, *logger, config,
                          [this] { ++wakes; }};

  Harness() {
    services.catalog = &fixture.catalog;
    services.entropy = &entropy;
    services.template_dir = testing::SourceDir() / "templates" / "league";
    intake.UseCommandHook([this](const mail::InboundMail& mail, storage::Timestamp now) {
      return HandleResignationMail(services, mail, fixture.repository, fixture.repository, now);
    });
    // Game "demo" (alice blue, bob orange) is round 1 of league "club".
    REQUIRE(fixture.repository
                .CreateLeague({"club", "Club", "organiser-1", league::EncodeSettings({}), At(1)})
                .ok());
    REQUIRE(fixture.repository
                .AddLeagueGames({{"club", 1, 1, "demo", "alice", "bob", "pending", "", ""}})
                .ok());
  }
  mail::Disposition Handle(const std::string& data) {
    mail::FetchedMessage m;
    m.data = data;
    return intake.Handle(m, At(100));
  }
  std::vector<std::string> Replies(const std::string& to) {
    auto due = fixture.repository.DueMail(At(1000000), 1000);
    REQUIRE(due.ok());
    std::vector<std::string> bodies;
    for (const auto& m : *due) {
      if (m.recipient == to) bodies.push_back(m.body);
    }
    return bodies;
  }
  std::string Result(const std::string& game) {
    auto g = fixture.repository.GetGame(game);
    REQUIRE(g.ok());
    return g->result;
  }
};

TEST_CASE("resignation by mail: the player's own token from the player's address") {
  Harness h;
  // Bob's address with alice's token: refused, named, nothing changed.
  CHECK(h.Handle(TextMail("bob@test.local", "m1", "resign demo tok-blue\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Result("demo").empty());
  REQUIRE(h.Replies("Bob@Test.Local").size() == 1);
  CHECK_THAT(h.Replies("Bob@Test.Local")[0], Catch::Contains("refused (not_a_player)"));
  // A stranger: dropped without reply, nothing changed.
  CHECK(h.Handle(TextMail("mallory@evil.test", "m2", "resign demo tok-orange\n")) ==
        mail::Disposition::kDropped);
  CHECK(h.Result("demo").empty());
  CHECK(h.Replies("mallory@evil.test").empty());
  CHECK(h.fixture.repository.GetLeagueGame("demo")->result == "pending");

  // Bob resigns his own game: it ends, the league records it at once.
  CHECK(
      h.Handle(TextMail("bob@test.local", "m3", "Sorry, I give up.\n  RESIGN demo tok-orange\n")) ==
      mail::Disposition::kAnswered);
  CHECK(h.Result("demo") == "blue wins: orange resigned");
  auto record = h.fixture.repository.GetLeagueGame("demo");
  REQUIRE(record.ok());
  CHECK(record->result == "resigned");
  CHECK(record->winner == "blue");
  CHECK_THAT(h.Replies("Bob@Test.Local").back(),
             Catch::Contains("is recorded: blue wins: orange resigned"));
  CHECK(h.wakes >= 2);

  // Again: the game is over.
  CHECK(h.Handle(TextMail("bob@test.local", "m4", "resign demo tok-orange\n")) ==
        mail::Disposition::kAnswered);
  CHECK_THAT(h.Replies("Bob@Test.Local").back(), Catch::Contains("refused (game_over)"));

  // A mail without the command is read as orders, as before (no orders here: malformed).
  CHECK(h.Handle(TextMail("carol@test.local", "m5", "game_id: \"other\"\nhello\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Result("other").empty());
  REQUIRE(h.Replies("carol@test.local").size() == 1);
  CHECK_THAT(h.Replies("carol@test.local")[0], !Catch::Contains("resignation"));
}

}  // namespace
}  // namespace pbem::daemon
