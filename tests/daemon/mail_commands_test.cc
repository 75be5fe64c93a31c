// The mail commands status, archive and help (daemon/mail/commands.h): how a command line is
// read from a mail (FindMailCommand, pure), and what each sender gets through the intake with a
// real SQLite store and the project's mail templates: a player the state of their own game, a
// stranger the help only, never a game's state.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "daemon/mail/commands.h"
#include "daemon/turn/archive.h"
#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "tests/daemon/game_fixture.h"
#include "tests/daemon/games_server.h"
#include "tests/daemon/intake_harness.h"

namespace pbem::daemon::mail {
namespace {

using testing::At;
using testing::BlueOrdersText;
using testing_intake::AttachmentMail;
using testing_intake::Harness;
using testing_intake::TextMail;

std::optional<MailCommand> CommandOf(const std::string& raw) {
  return FindMailCommand(ParseInbound(raw, LimitsConfig{}, /*headers_only=*/false));
}

std::optional<MailCommand> CommandInBody(const std::string& body) {
  return CommandOf(TextMail("alice@test.local", "c@x", body, "a subject"));
}

TEST_CASE("FindMailCommand reads one command line alone in the text body", "[daemon][commands]") {
  auto status = CommandInBody("Hello,\r\n\r\n  STATUS\t demo \r\nthanks\r\n");
  REQUIRE(status);
  CHECK(status->kind == CommandKind::kStatus);
  CHECK(status->game_id == "demo");

  status = CommandInBody("status");
  REQUIRE(status);
  CHECK(status->kind == CommandKind::kStatus);
  CHECK(status->game_id.empty());

  auto archive = CommandInBody("archive demo\n");
  REQUIRE(archive);
  CHECK(archive->kind == CommandKind::kArchive);
  CHECK(archive->game_id == "demo");

  auto help = CommandInBody("help");
  REQUIRE(help);
  CHECK(help->kind == CommandKind::kHelp);
  CHECK(help->language.empty());
  help = CommandInBody("Help FR");
  REQUIRE(help);
  CHECK(help->language == "fr");
  help = CommandInBody("aide");
  REQUIRE(help);
  CHECK(help->kind == CommandKind::kHelp);
  CHECK(help->language == "fr");
  help = CommandInBody("help klingon");  // an unknown language: the reader's own
  REQUIRE(help);
  CHECK(help->language.empty());

  // A game id that is no identifier is kept, bounded and on one line, to be named.
  auto bad = CommandInBody("status ../../etc/passwd");
  REQUIRE(bad);
  CHECK(bad->game_id.empty());
  CHECK(bad->bad_game_id == "../../etc/passwd");
  bad = CommandInBody("archive " + std::string(5000, 'x'));
  REQUIRE(bad);
  CHECK(bad->game_id.empty());
  CHECK(bad->bad_game_id == std::string(64, 'x'));

  // Not commands: prose, two arguments, a keyword inside a word or a sentence.
  CHECK_FALSE(CommandInBody("what is the status of my game?"));
  CHECK_FALSE(CommandInBody("status demo now"));
  CHECK_FALSE(CommandInBody("statusdemo"));
  CHECK_FALSE(CommandInBody("> status demo"));  // quoted back from an earlier mail
  CHECK_FALSE(CommandInBody(""));
  // Hostile sizes are read once, linearly.
  CHECK_FALSE(CommandInBody(std::string(1 << 20, ' ')));
  CHECK_FALSE(CommandInBody(std::string(1 << 19, '\n')));
  auto far = CommandInBody(std::string(1 << 19, '\n') + "status demo");
  REQUIRE(far);
  CHECK(far->game_id == "demo");
}

TEST_CASE("FindMailCommand: orders are never a command; attachments hold no command",
          "[daemon][commands]") {
  // Orders attached, "status" in the body: the mail is orders.
  const std::string attached =
      AttachmentMail("alice@test.local", "o@x", "orders.txt", "text/plain", BlueOrdersText());
  const std::string with_status = [&] {
    std::string raw = attached;
    raw.replace(raw.find("My orders are attached."), 23, "status demo");
    return raw;
  }();
  CHECK_FALSE(CommandOf(with_status));
  // A command only in an attachment is not read.
  CHECK_FALSE(CommandOf(
      AttachmentMail("alice@test.local", "a@x", "status.txt", "text/plain", "status demo\n")));
  // Orders in the body, whatever their comments say.
  CHECK_FALSE(CommandInBody("# help\n" + BlueOrdersText()));
}

// A harness whose intake runs the commands, with the project's templates.
struct CommandHarness : Harness {
  CommandServices services;
  CommandHarness() {
    UseTemplates();
    services.catalog = &fixture.catalog;
    services.templates = &mail_templates;
    services.address = "pbem@game.test";
    services.public_url = "https://pbem.example";
    intake.UseCommandHook([this](const InboundMail& mail, storage::Timestamp now) {
      return HandleCommandMail(services, mail, fixture.repository, now);
    });
  }
  // The one reply queued since the last call.
  storage::OutboxMail Reply() {
    auto outbox = Outbox();
    REQUIRE(outbox.size() == seen + 1);
    ++seen;
    return outbox.back();
  }
  std::size_t seen = 0;
};

TEST_CASE("status: a player gets their game's state, a stranger the help only",
          "[daemon][commands]") {
  CommandHarness h;
  // pbemd opens a turn when the game is created: the template needs its open turn.
  {
    FixedEntropy entropy("status-test");
    auto data = h.fixture.catalog.Scenario("bois-de-la-morne");
    REQUIRE(data.ok());
    REQUIRE(OpenTurn(h.fixture.repository, (*data)->scenario, "demo", entropy, At(50)).ok());
  }

  // alice plays blue in demo, whose turn 1 is blue's: her move, no orders yet.
  REQUIRE(h.Handle(TextMail("alice@test.local", "s1@x", "status demo\n", "where are we?")) ==
          Disposition::kAnswered);
  storage::OutboxMail reply = h.Reply();
  CHECK(reply.recipient == "alice@test.local");
  CHECK(reply.subject == "Re: where are we?");
  CHECK_THAT(reply.body, Catch::Contains("Game demo (bois-de-la-morne), turn 1. You play blue."));
  CHECK_THAT(reply.body, Catch::Contains("It is your move."));
  CHECK_THAT(reply.body, Catch::Contains("Your orders for this turn have not arrived yet."));
  // Her move: the orders template, attached and quoted as in a results mail (issue 14).
  CHECK_THAT(reply.body, Catch::StartsWith("Your move (this game has no deadline).\n\nHello,\n"));
  CHECK_THAT(reply.body, Catch::Contains("#--- pbem orders: begin ---"));
  CHECK_THAT(reply.body, Catch::Contains("game_id: \"demo\""));
  REQUIRE(reply.attachments.size() == 1);
  CHECK(reply.attachments[0].filename == "orders-demo-turn1-blue.textproto");
  CHECK_THAT(reply.attachments[0].data, Catch::Contains("side: SIDE_BLUE"));
  CHECK(reply.body.find("#--- pbem orders: begin ---") < reply.body.find("\n-- \n"));
  CHECK_THAT(reply.body,
             Catch::Contains("History of the game: https://pbem.example/v1/games/demo/archive/"));
  CHECK_THAT(reply.body,
             Catch::Contains("Archive file: https://pbem.example/v1/games/demo/export"));
  CHECK(h.Submissions().empty());  // a command is no submission

  // Her orders arrive; status says so.
  REQUIRE(h.Handle(TextMail("alice@test.local", "o1@x", BlueOrdersText())) ==
          Disposition::kAnswered);
  h.Reply();  // the receipt
  REQUIRE(h.Handle(TextMail("alice@test.local", "s2@x", "status demo")) == Disposition::kAnswered);
  CHECK_THAT(h.Reply().body, Catch::Contains("Your orders for this turn are in (received "));

  // bob (orange; his stored address has capitals), the game found from the subject.
  REQUIRE(h.Handle(TextMail("bob@test.local", "s3@x", "STATUS", "Re: [pbem demo] results")) ==
          Disposition::kAnswered);
  reply = h.Reply();
  CHECK(reply.recipient == "bob@test.local");
  CHECK_THAT(reply.body, Catch::Contains("Game demo (bois-de-la-morne), turn 1. You play orange."));
  CHECK_THAT(reply.body, Catch::Contains("It is blue's move, not yours."));
  CHECK_THAT(reply.body, !Catch::Contains("orders for this turn"));
  CHECK_THAT(reply.body, !Catch::Contains("pbem orders: begin"));  // not his move: no template
  CHECK(reply.attachments.empty());

  // A stranger naming demo, and bob naming a game he does not play: help, no state.
  const std::vector<std::pair<std::string, std::string>> strangers = {
      {"eve@test.local", "status demo"}, {"bob@test.local", "status other"}};
  for (const auto& [from, body] : strangers) {
    REQUIRE(h.Handle(TextMail(from, "x-" + from, body, "hi")) == Disposition::kAnswered);
    reply = h.Reply();
    CHECK(reply.recipient == from);
    CHECK_THAT(reply.body, Catch::StartsWith("Hello,\n\nYou play no game \""));
    CHECK_THAT(reply.body, Catch::Contains("pbem by mail: how to play"));
    CHECK_THAT(reply.body, !Catch::Contains("turn 1"));
    CHECK_THAT(reply.body, !Catch::Contains("You play blue"));
  }
  // A hostile game id is named back on one line, bounded.
  REQUIRE(h.Handle(TextMail("eve@test.local", "bad@x", "status ../x\x7f", "hi")) ==
          Disposition::kAnswered);
  CHECK_THAT(h.Reply().body, Catch::StartsWith("Hello,\n\nYou play no game \"../x \"."));
}

TEST_CASE("status without a game lists the sender's games; deadlines in the player's language",
          "[daemon][commands]") {
  CommandHarness h;
  // A French player in a game with a deadline: 1 day after the turn opened.
  h.fixture.AddGame("partie", {{"blue", "carol@test.local", "tok-p", "fr"},
                               {"orange", "zoe@test.local", "tok-z", "fr"}});
  {
    auto data = h.fixture.catalog.Scenario("bois-de-la-morne");
    REQUIRE(data.ok());
    FixedEntropy entropy("commands");
    REQUIRE(OpenTurn(h.fixture.repository, (*data)->scenario, "partie", entropy,
                     storage::Timestamp(std::chrono::seconds(1'795'549'260)))
                .ok());
  }
  // No deadline stored by AddGame: the game has none, and the status says so.
  REQUIRE(h.Handle(TextMail("carol@test.local", "l1@x", "status\n", "bonjour")) ==
          Disposition::kAnswered);
  const storage::OutboxMail reply = h.Reply();
  // carol plays "other" (English) and "partie" (French): both listed, each in its language.
  CHECK(reply.subject == "Re: bonjour");
  CHECK_THAT(reply.body, Catch::Contains("Game other (bois-de-la-morne), turn 1. You play blue."));
  CHECK_THAT(reply.body,
             Catch::Contains("Partie partie (bois-de-la-morne), tour 1. Vous jouez le camp bleu."));
  CHECK_THAT(reply.body, Catch::Contains("C'est à vous de jouer."));
  CHECK_THAT(reply.body, Catch::Contains("Vos ordres pour ce tour ne sont pas encore arrivés."));
  CHECK_THAT(
      reply.body,
      Catch::Contains("Pas d'échéance\u00a0: le tour est joué dès que les ordres arrivent."));
  CHECK_THAT(reply.body, !Catch::Contains("Game demo"));
}

TEST_CASE("status gives the deadline as players read dates", "[daemon][commands]") {
  CommandHarness h;
  auto data = h.fixture.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  storage::NewGame game = MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto,
                                      (*data)->scenario, "timed", At(1));
  game.scenario = "bois-de-la-morne";
  game.deadlines.turn_timeout = std::chrono::hours(24);
  REQUIRE(h.fixture.repository.CreateGame(game).ok());
  REQUIRE(h.fixture.repository.AddPlayer({"timed", "blue", "fr@test.local", "t1", "fr"}).ok());
  REQUIRE(h.fixture.repository.AddPlayer({"timed", "orange", "en@test.local", "t2", "en"}).ok());
  FixedEntropy entropy("commands");
  // Opened 2026-11-24 19:41:00 UTC: due 24 hours later.
  REQUIRE(OpenTurn(h.fixture.repository, (*data)->scenario, "timed", entropy,
                   storage::Timestamp(std::chrono::seconds(1'795'549'260)))
              .ok());
  REQUIRE(h.Handle(TextMail("fr@test.local", "d1@x", "status timed")) == Disposition::kAnswered);
  CHECK_THAT(h.Reply().body,
             Catch::Contains("Échéance\u00a0: le mercredi 25 novembre 2026 à 19 h 41 UTC."));
  REQUIRE(h.Handle(TextMail("en@test.local", "d2@x", "status timed")) == Disposition::kAnswered);
  CHECK_THAT(h.Reply().body,
             Catch::Contains("Orders are due by Wednesday 25 November 2026 at 19:41 UTC."));
}

TEST_CASE("help is in the sender's language; archive attaches a file that verifies",
          "[daemon][commands]") {
  CommandHarness h;
  h.fixture.AddGame(
      "fr1", {{"blue", "lea@test.local", "t", "fr"}, {"orange", "max@test.local", "u", "en"}});
  // A stranger: English; "aide" or "help fr": French; a French player: French.
  REQUIRE(h.Handle(TextMail("eve@test.local", "h1@x", "help")) == Disposition::kAnswered);
  storage::OutboxMail reply = h.Reply();
  CHECK_THAT(reply.body, Catch::StartsWith("Hello,\n\npbem by mail: how to play"));
  CHECK_THAT(reply.body, Catch::Contains("write to pbem@game.test"));
  CHECK_THAT(reply.body, Catch::Contains("status GAME"));
  CHECK_THAT(reply.body,
             Catch::Contains("https://pbem.example/v1/games/GAME/archive/ and its archive file at "
                             "https://pbem.example/v1/games/GAME/export"));
  REQUIRE(h.Handle(TextMail("eve@test.local", "h2@x", "aide")) == Disposition::kAnswered);
  CHECK_THAT(h.Reply().body,
             Catch::StartsWith("Bonjour,\n\npbem par courriel\u00a0: comment jouer"));
  REQUIRE(h.Handle(TextMail("eve@test.local", "h3@x", "help fr")) == Disposition::kAnswered);
  CHECK_THAT(h.Reply().body,
             Catch::StartsWith("Bonjour,\n\npbem par courriel\u00a0: comment jouer"));
  REQUIRE(h.Handle(TextMail("lea@test.local", "h4@x", "help", "?")) == Disposition::kAnswered);
  reply = h.Reply();
  CHECK_THAT(reply.body, Catch::StartsWith("Bonjour,\n\npbem par courriel\u00a0: comment jouer"));
  CHECK_THAT(reply.body, Catch::Contains("écrivez à pbem@game.test"));

  // The fixture's games were made without their rules pinned: no archive, said in a sentence.
  REQUIRE(h.Handle(TextMail("alice@test.local", "a1@x", "archive demo")) == Disposition::kAnswered);
  reply = h.Reply();
  CHECK(reply.attachments.empty());
  CHECK_THAT(reply.body, Catch::Contains("Game demo has no verifiable archive"));

  // A game made as pbemd makes them: its archive is attached and verifies.
  auto data = h.fixture.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  storage::NewGame game = MakeNewGame((*data)->ruleset_proto, (*data)->scenario_proto,
                                      (*data)->scenario, "pinned", At(1));
  game.scenario = "bois-de-la-morne";
  REQUIRE(h.fixture.repository.CreateGame(game).ok());
  REQUIRE(h.fixture.repository.AddPlayer({"pinned", "blue", "alice@test.local", "t", "en"}).ok());
  REQUIRE(h.Handle(TextMail("alice@test.local", "a2@x", "archive pinned")) ==
          Disposition::kAnswered);
  reply = h.Reply();
  CHECK(reply.subject == "Re: [pbem demo] orders");
  CHECK_THAT(reply.body, Catch::Contains("Attached: the archive of game pinned (0 player-turns"));
  CHECK_THAT(reply.body, Catch::Contains("pbem verify pinned.pbem"));
  REQUIRE(reply.attachments.size() == 1);
  CHECK(reply.attachments[0].filename == "pinned.pbem");
  pbem::v1::Archive archive;
  REQUIRE(archive.ParseFromString(reply.attachments[0].data));
  CHECK(archive.game_id() == "pinned");
  CHECK(VerifyArchive(archive).ok);

  // A stranger asking for it gets the help.
  REQUIRE(h.Handle(TextMail("eve@test.local", "a3@x", "archive pinned")) == Disposition::kAnswered);
  reply = h.Reply();
  CHECK(reply.attachments.empty());
  CHECK_THAT(reply.body, Catch::StartsWith("Hello,\n\nYou play no game \"pinned\"."));
}

// Every mail queued to `to` so far (welcome mails are due at the real clock's now).
std::vector<storage::OutboxMail> MailsTo(CommandHarness& h, const std::string& to) {
  auto due = h.fixture.repository.DueMail(At(4'000'000'000), 1000);
  REQUIRE(due.ok());
  std::vector<storage::OutboxMail> out;
  for (const storage::OutboxMail& m : *due) {
    if (m.recipient == to) out.push_back(m);
  }
  return out;
}

// The HTML alternative of a mail (an attachment without a name).
std::string HtmlOf(const storage::OutboxMail& mail) {
  for (const storage::Attachment& a : mail.attachments) {
    if (a.filename.empty() && a.content_type.rfind("text/html", 0) == 0) return a.data;
  }
  return "";
}

// Blue's orders of the fixture, for game "named", with `token`.
std::string NamedOrders(const std::string& token) {
  std::string orders = BlueOrdersText(token);
  orders.replace(orders.find("game_id: \"demo\""), 15, "game_id: \"named\"");
  return orders;
}

TEST_CASE("players named at POST /v1/games are greeted by name in every mail, others by none",
          "[daemon][commands]") {
  CommandHarness h;
  testing::GamesServer server(h.fixture, &h.mail_templates, "pbem@game.test");
  const std::string admin = "admin-token-0123456789";
  pbem::testing::HttpReply created = server.Send(
      "POST", "/v1/games",
      R"({"id":"named","scenario":"bois-de-la-morne","players":[)"
      R"({"side":"blue","address":"alice@named.test","token":"alice-token-1","name":"Alice"},)"
      R"({"side":"orange","address":"bruno@named.test","token":"bruno-token-1",)"
      R"("language":"fr","name":"Bruno"}]})",
      "application/json", admin);
  REQUIRE(created.status == 201);
  auto players = h.fixture.repository.ListPlayers("named");
  REQUIRE(players.ok());
  REQUIRE(players->size() == 2);
  CHECK((*players)[0].name == "Alice");
  CHECK((*players)[1].name == "Bruno");

  // The welcome mails: in each player's language, by name, no address in the greeting.
  std::vector<storage::OutboxMail> alice = MailsTo(h, "alice@named.test");
  std::vector<storage::OutboxMail> bruno = MailsTo(h, "bruno@named.test");
  REQUIRE(alice.size() == 1);
  REQUIRE(bruno.size() == 1);
  CHECK_THAT(alice[0].body, Catch::Contains("\nHello Alice,\n"));
  CHECK_THAT(HtmlOf(alice[0]), Catch::Contains("<p>Hello Alice,</p>"));
  CHECK_THAT(bruno[0].body, Catch::StartsWith("Bonjour Bruno,\n"));
  // Each learns who plays the other side: by name, with the address to write to.
  CHECK_THAT(alice[0].body,
             Catch::Contains("The orange side is played by Bruno (bruno@named.test)."));
  CHECK_THAT(bruno[0].body, Catch::Contains("Le camp bleu est joué par Alice (alice@named.test)."));
  CHECK_THAT(HtmlOf(bruno[0]), Catch::Contains("<p>Bonjour Bruno,</p>"));

  // Later mails: a receipt through the mail intake, and the status command's replies.
  auto data = h.fixture.catalog.Scenario("bois-de-la-morne");
  REQUIRE(data.ok());
  FixedEntropy entropy("named");
  REQUIRE(OpenTurn(h.fixture.repository, (*data)->scenario, "named", entropy, At(50)).ok());
  REQUIRE(h.Handle(TextMail("alice@named.test", "o@named", NamedOrders("alice-token-1"))) ==
          Disposition::kAnswered);
  storage::OutboxMail receipt = h.Reply();
  CHECK(receipt.recipient == "alice@named.test");
  CHECK_THAT(receipt.body, Catch::StartsWith("Hello Alice,\n"));
  CHECK_THAT(HtmlOf(receipt), Catch::Contains("<p>Hello Alice,</p>"));
  REQUIRE(h.Handle(TextMail("bruno@named.test", "s@named", "status named")) ==
          Disposition::kAnswered);
  CHECK_THAT(h.Reply().body, Catch::StartsWith("Bonjour Bruno,\n\nPartie named"));
  REQUIRE(h.Handle(TextMail("bruno@named.test", "h@named", "aide")) == Disposition::kAnswered);
  CHECK_THAT(h.Reply().body, Catch::StartsWith("Bonjour Bruno,\n\npbem par courriel"));
  // A refusal (orders for a side he does not play) greets him by name too.
  REQUIRE(h.Handle(TextMail("bruno@named.test", "w@named", NamedOrders("bruno-token-1"))) ==
          Disposition::kAnswered);
  storage::OutboxMail refusal = h.Reply();
  CHECK(refusal.recipient == "bruno@named.test");
  CHECK_THAT(refusal.body, Catch::StartsWith("Bonjour Bruno,\n"));

  // A game created without names: nobody named, and never the address.
  created = server.Send("POST", "/v1/games",
                        R"({"id":"plain","scenario":"bois-de-la-morne","players":[)"
                        R"({"side":"blue","address":"ann@plain.test","token":"ann-token-1"},)"
                        R"({"side":"orange","address":"ben@plain.test","token":"ben-token-1",)"
                        R"("language":"fr"}]})",
                        "application/json", admin);
  REQUIRE(created.status == 201);
  std::vector<storage::OutboxMail> ann = MailsTo(h, "ann@plain.test");
  std::vector<storage::OutboxMail> ben = MailsTo(h, "ben@plain.test");
  REQUIRE(ann.size() == 1);
  REQUIRE(ben.size() == 1);
  CHECK_THAT(ann[0].body, Catch::Contains("\nHello,\n"));
  CHECK_THAT(ann[0].body, !Catch::Contains("Hello ann"));
  CHECK_THAT(HtmlOf(ann[0]), Catch::Contains("<p>Hello,</p>"));
  CHECK_THAT(ben[0].body, Catch::StartsWith("Bonjour,\n"));
  CHECK_THAT(HtmlOf(ben[0]), !Catch::Contains("Bonjour ben"));

  // A bad name is refused, naming the field, and nothing is created.
  for (const std::string& bad :
       {std::string(R"("")"), std::string(R"("Al\nice")"), "\"" + std::string(65, 'a') + "\""}) {
    pbem::testing::HttpReply refused =
        server.Send("POST", "/v1/games",
                    R"({"id":"bad","scenario":"bois-de-la-morne","players":[)"
                    R"({"side":"blue","address":"x@bad.test","token":"x-token-12","name":)" +
                        bad + R"(}]})",
                    "application/json", admin);
    INFO(bad);
    CHECK(refused.status == 400);
    CHECK_THAT(refused.body, Catch::Contains("players[0].name"));
    CHECK(h.fixture.repository.GetGame("bad").status().code() == StatusCode::kNotFound);
  }
}

TEST_CASE("a command from no usable address is dropped without reply", "[daemon][commands]") {
  CommandHarness h;
  // The intake drops a mail without From before any command; a From that is no address too.
  CHECK(h.Handle(TextMail("not an address", "n1@x", "help")) == Disposition::kDropped);
  CHECK(h.Outbox().empty());
}

}  // namespace
}  // namespace pbem::daemon::mail
