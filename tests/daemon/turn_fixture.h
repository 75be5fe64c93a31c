// GameFixture with what the turn loop needs: the real mail templates, a fixed entropy source,
// the default limits; and helpers to submit orders as the HTTP route does.
#ifndef PBEM_TESTS_DAEMON_TURN_FIXTURE_H_
#define PBEM_TESTS_DAEMON_TURN_FIXTURE_H_

#include <string>
#include <vector>

#include "daemon/config.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "templates/mail_render.h"
#include "tests/daemon/game_fixture.h"

namespace pbem::daemon::testing {

inline std::string OrangeOrdersText(const std::string& token = "tok-orange") {
  return ReadText(SourceDir() / "engine" / "scenarios" /
                  "bois-de-la-morne.orders-orange.textproto") +
         "\ntoken: \"" + token + "\"\n";
}

struct TurnFixture : GameFixture {
  TurnFixture() : entropy("turn-loop-test") {
    templates::Status loaded =
        templates::MailTemplates::Load(SourceDir() / "templates" / "mail", &mail_templates);
    INFO(loaded.message);
    REQUIRE(loaded.ok);
  }

  DeskOutcome SubmitHttp(const std::string& game_id, const std::string& side,
                         const std::string& text, storage::Timestamp at) {
    auto orders = codec::ParseOrders(text, codec::Format::kText, "orders");
    REQUIRE(orders.ok());
    auto game = repository.GetGame(game_id);
    REQUIRE(game.ok());
    auto players = repository.ListPlayers(game_id);
    REQUIRE(players.ok());
    const storage::Player* player = nullptr;
    for (const auto& p : *players) {
      if (p.side == side) player = &p;
    }
    REQUIRE(player != nullptr);
    Envelope envelope;
    envelope.channel = storage::Channel::kHttp;
    envelope.sender = "http:" + side;
    envelope.raw = text;
    envelope.received_at = at;
    auto outcome = desk.Submit(repository, *game, *player, orders.value(), envelope);
    REQUIRE(outcome.ok());
    return *outcome;
  }

  std::vector<storage::OutboxMail> Due() {
    auto due = repository.DueMail(At(1'000'000'000), 100);
    REQUIRE(due.ok());
    return *due;
  }

  // A game of the bundled scenario created as pbemd creates it, with its deadlines.
  void CreateGame(const std::string& id, std::chrono::seconds timeout,
                  std::chrono::seconds reminder) {
    auto data = catalog.Scenario("bois-de-la-morne");
    REQUIRE(data.ok());
    storage::NewGame game =
        MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto, (*data)->scenario, id, At(1));
    game.scenario = "bois-de-la-morne";
    game.deadlines.turn_timeout = timeout;
    game.deadlines.reminder_before = reminder;
    REQUIRE(repository.CreateGame(game).ok());
  }

  templates::MailTemplates mail_templates;
  FixedEntropy entropy;
  LimitsConfig limits;
};

}  // namespace pbem::daemon::testing

#endif  // PBEM_TESTS_DAEMON_TURN_FIXTURE_H_
