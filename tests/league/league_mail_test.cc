// Resignation and joining a league by mail: MailIntake with pbemd's command hook
// (HandleResignationMail) on a real SQLite store holding a league game: the resigning player's mail
// ends the game and the league records it; someone else's token, a stranger, a second resignation
// and an orders mail each get what they should, and nothing else changes. Joining by mail: the
// sender joins with a token in the reply; joining twice, an unknown league, a bad language or name
// are refused with the HTTP route's codes and change nothing; a redelivered mail is answered once.
#include <catch2/catch.hpp>

#include "daemon/league/organiser.h"
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
  HandledMessages join_mails;
  mail::MailIntake intake{fixture.repository, fixture.desk, fixture.metrics, *logger, config,
                          [this] { ++wakes; }};

  Harness() {
    services.catalog = &fixture.catalog;
    services.entropy = &entropy;
    services.template_dir = testing::SourceDir() / "templates" / "league";
    intake.UseCommandHook([this](const mail::InboundMail& mail,
                                 storage::Timestamp now) -> std::optional<mail::Disposition> {
      if (auto resigned =
              HandleResignationMail(services, mail, fixture.repository, fixture.repository, now)) {
        return resigned;
      }
      return HandleJoinMail(services, mail, fixture.repository, fixture.repository, join_mails,
                            now);
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
  CHECK(h.Replies("Bob@Test.Local")[0] ==
        "Your resignation of game demo was not recorded: the token in your mail is not the "
        "token of your side. Only a player may resign their own game, with their side's token: "
        "a line \"resign demo <your token>\".\n");
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
  // The reply is the game-over mail, names and sides, opened by the acknowledgement.
  CHECK_THAT(h.Replies("Bob@Test.Local").back(),
             Catch::StartsWith("Your resignation of game demo is recorded.\n\n"
                               "Game demo of Club is over.\n\n"
                               "You (bob, orange) resigned: alice (blue) wins the game.\n"));
  CHECK(h.wakes >= 2);

  // Again: the game is over.
  CHECK(h.Handle(TextMail("bob@test.local", "m4", "resign demo tok-orange\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Replies("Bob@Test.Local").back() ==
        "Your resignation of game demo was not recorded: the game is over already.\n");

  // A mail without the command is read as orders, as before (no orders here: malformed).
  CHECK(h.Handle(TextMail("carol@test.local", "m5", "game_id: \"other\"\nhello\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Result("other").empty());
  REQUIRE(h.Replies("carol@test.local").size() == 1);
  CHECK_THAT(h.Replies("carol@test.local")[0], !Catch::Contains("resignation"));
}

std::vector<storage::LeaguePlayer> Players(Harness& h) {
  auto players = h.fixture.repository.ListLeaguePlayers("club");
  REQUIRE(players.ok());
  return *players;
}

TEST_CASE("joining a league by mail: a token in the reply, refusals that change nothing") {
  Harness h;
  REQUIRE(Players(h).empty());

  // Dave joins in French: one reply to his address, in French, with his token; the token is
  // the one stored (its SHA-256).
  CHECK(h.Handle(TextMail("Dave@Test.Local", "j1", "Bonjour,\n  JOIN club dave fr\n")) ==
        mail::Disposition::kAnswered);
  std::vector<storage::LeaguePlayer> players = Players(h);
  REQUIRE(players.size() == 1);
  CHECK(players[0].player == "dave");
  CHECK(players[0].mail_address == "dave@test.local");
  CHECK(players[0].language == "fr");
  REQUIRE(h.Replies("dave@test.local").size() == 1);
  const std::string reply = h.Replies("dave@test.local")[0];
  CHECK_THAT(reply, Catch::Contains("Vous avez rejoint la ligue club sous le nom dave."));
  const std::string marker = "Votre jeton de ligue\u00a0: ";
  const std::size_t at = reply.find(marker);
  REQUIRE(at != std::string::npos);
  const std::string token =
      reply.substr(at + marker.size(), reply.find('\n', at) - at - marker.size());
  CHECK(token.size() >= 16);
  CHECK(players[0].token_sha256 == storage::Sha256Hex(token));  // stored hashed, sent in clear

  // The same message again (a redelivery): no second join, no second reply.
  CHECK(h.Handle(TextMail("dave@test.local", "j1", "join club dave fr\n")) ==
        mail::Disposition::kDropped);
  CHECK(Players(h).size() == 1);
  CHECK(h.Replies("dave@test.local").size() == 1);

  // Joining twice (a new message, another name, same address): already_joined, in English.
  CHECK(h.Handle(TextMail("dave@test.local", "j2", "join club david\n")) ==
        mail::Disposition::kAnswered);
  CHECK(Players(h).size() == 1);
  REQUIRE(h.Replies("dave@test.local").size() == 2);
  CHECK(h.Replies("dave@test.local")[1] ==
        "Your request to join league club was refused: your address dave@test.local is in "
        "this league already.\nTo join a league: a line \"join <league> <name> [en|fr]\".\n");
  // Someone else taking dave's name: already_joined too.
  CHECK(h.Handle(TextMail("eve@test.local", "j3", "join club dave\n")) ==
        mail::Disposition::kAnswered);
  REQUIRE(h.Replies("eve@test.local").size() == 1);
  CHECK_THAT(h.Replies("eve@test.local")[0],
             Catch::StartsWith("Your request to join league club was refused: the name dave is "
                               "taken in this league already: choose another one.\n"));

  // Unknown league, bad language, bad name: refused with the HTTP codes, nothing changed.
  CHECK(h.Handle(TextMail("erin@test.local", "j4", "join nowhere erin\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Handle(TextMail("frank@test.local", "j5", "join club frank de\n")) ==
        mail::Disposition::kAnswered);
  // A name with a control character (DEL): refused, in French.
  CHECK(h.Handle(TextMail("gus@test.local", "j6",
                          "join club gus\x7f"
                          "evil fr\n")) == mail::Disposition::kAnswered);
  CHECK(Players(h).size() == 1);
  CHECK(h.fixture.repository.GetLeague("nowhere").status().code() == StatusCode::kNotFound);
  REQUIRE(h.Replies("erin@test.local").size() == 1);
  CHECK_THAT(h.Replies("erin@test.local")[0],
             Catch::StartsWith("Your request to join league nowhere was refused: there is no "
                               "league \"nowhere\".\n"));
  REQUIRE(h.Replies("frank@test.local").size() == 1);
  CHECK_THAT(h.Replies("frank@test.local")[0],
             Catch::StartsWith("Your request to join league club was refused: the language is "
                               "en (English) or fr (French).\n"));
  REQUIRE(h.Replies("gus@test.local").size() == 1);
  CHECK(h.Replies("gus@test.local")[0] ==
        "Votre inscription à la ligue club est refusée\u00a0: pbem ne peut pas retenir ce nom. Un "
        "nom "
        "compte au plus 64 caractères imprimables, une seule espace entre deux mots et aucune au "
        "début ni à la fin.\nPour rejoindre une ligue\u00a0: une ligne «\u00a0join <ligue> <nom> "
        "[en|fr]\u00a0"
        "».\n");

  // A name of several words, with accents (issue 20): the words after the league id, the last
  // one the language.
  CHECK(h.Handle(TextMail("helene@test.local", "j8", "join club Hélène Dupré fr\n")) ==
        mail::Disposition::kAnswered);
  REQUIRE(h.Replies("helene@test.local").size() == 1);
  CHECK_THAT(h.Replies("helene@test.local")[0],
             Catch::Contains("Vous avez rejoint la ligue club sous le nom Hélène Dupré."));
  players = Players(h);
  REQUIRE(players.size() == 2);
  CHECK(players[0].player == "Hélène Dupré");  // (listed by name: 'H' before 'd')
  CHECK(players[0].language == "fr");
  // A zero-width space would make a second "Hélène Dupré": refused, naming the character.
  CHECK(h.Handle(TextMail("eve2@test.local", "j9", "join club Hélène\xE2\x80\x8B Dupré\n")) ==
        mail::Disposition::kAnswered);
  REQUIRE(h.Replies("eve2@test.local").size() == 1);
  CHECK_THAT(h.Replies("eve2@test.local")[0],
             Catch::StartsWith("Your request to join league club was refused: pbem cannot take "
                               "this name: it may not hold U+200B"));
  REQUIRE(Players(h).size() == 2);

  // A second player joins in English (the default): the join path is the same.
  CHECK(h.Handle(TextMail("erin@test.local", "j7", "join club erin\n")) ==
        mail::Disposition::kAnswered);
  players = Players(h);
  REQUIRE(players.size() == 3);
  CHECK(players[2].player == "erin");
  CHECK(players[2].language == "en");
  REQUIRE(h.Replies("erin@test.local").size() == 2);
  CHECK_THAT(h.Replies("erin@test.local")[1],
             Catch::Contains("You joined league club as erin.\nYour league token: "));
}

// Issue 20: every refusal of a French player's join is French, none carries a code or the
// HTTP route's English message.
// The reply to a join mail without a Subject takes the template's subject
// (templates/league/<lang>/joined.subject, join_refused.subject); with one, "Re: " and it.
TEST_CASE("joining by mail: the reply's subject is the template's when the mail has none") {
  Harness h;
  const auto without_subject = [](std::string mail) {
    mail.erase(mail.find("Subject: my game\r\n"), std::string("Subject: my game\r\n").size());
    return mail;
  };
  const auto subjects = [&h](const std::string& to) {
    auto due = h.fixture.repository.DueMail(At(1000000), 1000);
    REQUIRE(due.ok());
    std::vector<std::string> out;
    for (const auto& m : *due) {
      if (m.recipient == to) out.push_back(m.subject);
    }
    return out;
  };
  CHECK(h.Handle(without_subject(TextMail("dave@test.local", "s1", "join club dave\n"))) ==
        mail::Disposition::kAnswered);
  CHECK(subjects("dave@test.local") ==
        std::vector<std::string>{"League club: you have joined as dave"});
  CHECK(h.Handle(without_subject(TextMail("erin@test.local", "s2", "join nowhere erin fr\n"))) ==
        mail::Disposition::kAnswered);
  CHECK(subjects("erin@test.local") ==
        std::vector<std::string>{"Ligue nowhere\u00a0: inscription"});
  CHECK(h.Handle(TextMail("gus@test.local", "s3", "join club gus\n")) ==
        mail::Disposition::kAnswered);
  CHECK(subjects("gus@test.local") == std::vector<std::string>{"Re: my game"});
}

TEST_CASE("joining by mail: each refusal in French for a French player") {
  Harness h;
  CHECK(h.Handle(TextMail("dave@test.local", "f1", "join club dave fr\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Handle(TextMail("dave@test.local", "f2", "join club david fr\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Handle(TextMail("eve@test.local", "f3", "join club dave fr\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Handle(TextMail("erin@test.local", "f4", "join nowhere erin fr\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Handle(TextMail("gus@test.local", "f5", "join club Gus\xE2\x80\x8B fr\n")) ==
        mail::Disposition::kAnswered);
  REQUIRE(Players(h).size() == 1);
  const std::string how =
      "\nPour rejoindre une ligue\u00a0: une ligne «\u00a0join <ligue> <nom> [en|fr]\u00a0».\n";
  REQUIRE(h.Replies("dave@test.local").size() == 2);
  CHECK(
      h.Replies("dave@test.local")[1] ==
      "Votre inscription à la ligue club est refusée\u00a0: votre adresse dave@test.local est déjà "
      "inscrite dans cette ligue." +
          how);
  REQUIRE(h.Replies("eve@test.local").size() == 1);
  CHECK(h.Replies("eve@test.local")[0] ==
        "Votre inscription à la ligue club est refusée\u00a0: le nom dave est déjà pris dans cette "
        "ligue\u00a0: choisissez-en un autre." +
            how);
  REQUIRE(h.Replies("erin@test.local").size() == 1);
  CHECK(h.Replies("erin@test.local")[0] ==
        "Votre inscription à la ligue nowhere est refusée\u00a0: il n'existe pas de ligue "
        "«\u00a0nowhere\u00a0»." +
            how);
  REQUIRE(h.Replies("gus@test.local").size() == 1);
  CHECK_THAT(
      h.Replies("gus@test.local")[0],
      Catch::StartsWith("Votre inscription à la ligue club est refusée\u00a0: pbem ne peut pas "
                        "retenir ce nom."));
  for (const char* to : {"eve@test.local", "erin@test.local", "gus@test.local"}) {
    INFO(to);
    CHECK_THAT(h.Replies(to)[0], !Catch::Contains("refused") && !Catch::Contains("already") &&
                                     !Catch::Contains("malformed") && !Catch::Contains("U+"));
  }
}

// Issue 20: the reply to a French player's resignation is the game-over mail in French, names
// and sides from the stored ending; a refusal is French too.
TEST_CASE("resignation by mail: the reply in the sender's language, names and sides") {
  Harness h;
  h.fixture.AddGame("jeu", {{"blue", "ana@test.local", "tok-ana", "en"},
                            {"orange", "ben@test.local", "tok-ben", "fr"}});
  REQUIRE(h.fixture.repository
              .AddLeagueGames({{"club", 1, 1, "jeu", "Ana", "Benoît", "pending", "", ""}})
              .ok());
  CHECK(h.Handle(TextMail("ben@test.local", "r1", "resign jeu tok-ana\n")) ==
        mail::Disposition::kAnswered);
  REQUIRE(h.Replies("ben@test.local").size() == 1);
  CHECK(
      h.Replies("ben@test.local")[0] ==
      "Votre abandon de la partie jeu n'est pas enregistré\u00a0: le jeton de votre message n'est "
      "pas celui de votre camp. Seul un joueur peut abandonner sa partie, avec le jeton de son "
      "camp\u00a0: une ligne «\u00a0resign jeu <votre jeton>\u00a0».\n");
  CHECK(h.Handle(TextMail("ben@test.local", "r2", "resign jeu tok-ben\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Result("jeu") == "blue wins: orange resigned");
  const std::vector<std::string> replies = h.Replies("ben@test.local");
  REQUIRE(replies.size() == 3);  // the refusal, the game-over mail, the reply
  CHECK_THAT(replies[2],
             Catch::StartsWith("Votre abandon de la partie jeu est enregistré.\n\n"
                               "La partie jeu de Club est terminée.\n\n"
                               "Vous (Benoît, camp orange) avez abandonné\u00a0: Ana (camp bleu) "
                               "remporte la partie.\n"));
  CHECK_THAT(replies[2], !Catch::Contains("wins") && !Catch::Contains("resigned"));
  // The game-over mail everyone gets has no acknowledgement.
  CHECK_THAT(replies[1], Catch::StartsWith("La partie jeu de Club est terminée."));
}

TEST_CASE("joining by mail once registration is closed: a sentence, in the sender's language") {
  Harness h;
  REQUIRE(league::SetRegistration(h.fixture.repository, "club", false).ok());
  CHECK(h.Handle(TextMail("dave@test.local", "c1", "join club dave\n")) ==
        mail::Disposition::kAnswered);
  CHECK(h.Handle(TextMail("eve@test.local", "c2", "join club eve fr\n")) ==
        mail::Disposition::kAnswered);
  CHECK(Players(h).empty());
  REQUIRE(h.Replies("dave@test.local").size() == 1);
  CHECK_THAT(h.Replies("dave@test.local")[0],
             Catch::StartsWith("Your request to join league club was refused: registration to "
                               "league club is closed: its organiser is not taking new "
                               "players.\n"));
  REQUIRE(h.Replies("eve@test.local").size() == 1);
  CHECK_THAT(
      h.Replies("eve@test.local")[0],
      Catch::StartsWith("Votre inscription à la ligue club est refusée\u00a0: les inscriptions "
                        "à la ligue club sont closes\u00a0: son organisateur ne prend plus de "
                        "nouveaux joueurs.\n"));
  // Reopened: the same join by a new message goes through.
  REQUIRE(league::SetRegistration(h.fixture.repository, "club", true).ok());
  CHECK(h.Handle(TextMail("dave@test.local", "c3", "join club dave\n")) ==
        mail::Disposition::kAnswered);
  REQUIRE(Players(h).size() == 1);
  CHECK(Players(h)[0].player == "dave");
}

}  // namespace
}  // namespace pbem::daemon
