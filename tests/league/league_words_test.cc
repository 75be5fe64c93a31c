// Issue 20, point 7: the league's mails in sentences, with names, sides, deadlines, the game
// address and the standings link, in the recipient's language; tables aligned by characters.
#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "daemon/league/league_flow.h"
#include "daemon/league/league_mails.h"
#include "daemon/league/organiser.h"

namespace pbem::league {
namespace {

const std::filesystem::path kTemplates =
    std::filesystem::path(PBEM_SOURCE_DIR) / "templates/league";
const std::string kNbsp = "\u00a0";

// Thursday 26 November 2026, 19:41 UTC.
std::chrono::sys_seconds Thursday() {
  using namespace std::chrono;
  return sys_days{year{2026} / 11 / 26} + hours{19} + minutes{41};
}

TEST_CASE("tables are aligned by characters, not bytes") {
  CHECK(DisplayWidth("Hélène Dupré") == 12);  // 14 bytes
  CHECK(DisplayWidth("李小龍") == 6);         // wide characters take two columns
  CHECK(AlignColumns("Rank\tPlayer\tPoints\n1\tHélène Dupré\t12\n2\tBo\t9\n\nafter") ==
        "Rank  Player        Points\n"
        "1     Hélène Dupré  12\n"
        "2     Bo            9\n"
        "\n"
        "after");
  CHECK(AlignColumns("no table\n") == "no table\n");
}

GamesMailInput RoundTwo() {
  GamesMailInput in{"club", "Club de la Morne", 1, 2, "Hélène Dupré"};
  in.games = {{"club-s1-r2-g1", "blue", "bob", "t0ken1"},
              {"club-s1-r2-g3", "orange", "Zoë", "t0ken2"}};
  in.turn_timeout = std::chrono::hours(72);
  in.first_deadline = Thursday();
  in.places = {"referee@pbem.example", "https://pbem.example"};
  return in;
}

TEST_CASE("the round-start mail gives the deadline, the game address and the standings link") {
  auto en = RenderGamesMail(kTemplates, "en", RoundTwo());
  REQUIRE(en.ok());
  INFO(en->body);
  CHECK(en->subject == "Club de la Morne: your games of round 2, season 1");
  CHECK_THAT(en->body, Catch::Contains("Game club-s1-r2-g1: you play blue against bob.\n"
                                       "    Your token for this game: t0ken1\n"));
  CHECK_THAT(en->body, Catch::Contains("You move first. Your orders for turn 1 are due by "
                                       "Thursday 26 November 2026 at 19:41 UTC."));
  CHECK_THAT(en->body, Catch::Contains("Zoë moves first (blue); your first turn opens when "
                                       "blue's orders are in, at the latest on Thursday 26 "
                                       "November 2026 at 19:41 UTC."));
  CHECK_THAT(en->body, Catch::Contains("Each side has 3 days to send its orders"));
  CHECK_THAT(en->body, Catch::Contains("by mail to referee@pbem.example, from this address"));
  CHECK_THAT(en->body,
             Catch::Contains("The league's standings: "
                             "https://pbem.example/v1/leagues/club/standings.html?lang=en"));
  CHECK(en->body.find("the game's address") == std::string::npos);

  auto fr = RenderGamesMail(kTemplates, "fr", RoundTwo());
  REQUIRE(fr.ok());
  INFO(fr->body);
  CHECK(fr->subject == "Club de la Morne" + kNbsp + ": vos parties de la ronde 2, saison 1");
  CHECK_THAT(fr->body, Catch::Contains("Partie club-s1-r2-g1" + kNbsp +
                                       ": vous jouez le camp bleu contre bob."));
  CHECK_THAT(fr->body, Catch::Contains("Vos ordres du tour 1 sont attendus avant le jeudi "
                                       "26 novembre 2026 à 19 h 41 UTC."));
  CHECK_THAT(fr->body, Catch::Contains("au plus tard le jeudi 26 novembre 2026"));
  CHECK_THAT(fr->body, Catch::Contains("Chaque camp dispose de 3" + kNbsp + "jours"));
  CHECK_THAT(fr->body,
             Catch::Contains("«" + kNbsp + "Authorization: Bearer <jeton>" + kNbsp + "»"));
  CHECK_THAT(fr->body, Catch::Contains("par courriel à referee@pbem.example"));
  CHECK_THAT(fr->body, Catch::Contains("standings.html?lang=fr"));

  // Without a deadline or a known address, the mail says so instead of pretending.
  GamesMailInput bare = RoundTwo();
  bare.turn_timeout = std::chrono::seconds(0);
  bare.first_deadline.reset();
  bare.places = {};
  bare.games.resize(1);
  auto plain = RenderGamesMail(kTemplates, "en", bare);
  REQUIRE(plain.ok());
  CHECK(plain->subject == "Club de la Morne: your game of round 2, season 1");
  CHECK_THAT(plain->body, Catch::Contains("There is no deadline"));
  CHECK_THAT(plain->body, Catch::Contains("the game's address (the organiser gives it)"));
  CHECK(plain->body.find("standings.html") == std::string::npos);
}

TEST_CASE("a replaced-in player is welcomed in their language with their games and token") {
  GamesMailInput in = RoundTwo();
  in.player = "Gustave";
  in.replaces = "dmitri";
  auto fr = RenderGamesMail(kTemplates, "fr", in);
  REQUIRE(fr.ok());
  INFO(fr->body);
  CHECK(fr->subject == "Club de la Morne" + kNbsp + ": vous prenez la place de dmitri");
  CHECK_THAT(fr->body, Catch::Contains("Bonjour Gustave,"));
  CHECK_THAT(fr->body, Catch::Contains("à partir de la ronde 2 de la saison 1"));
  CHECK_THAT(fr->body, Catch::Contains("vous n'héritez ni des résultats ni de la cote de dmitri"));
  CHECK_THAT(fr->body, Catch::Contains("Votre jeton pour cette partie" + kNbsp + ": t0ken2"));
  auto en = RenderGamesMail(kTemplates, "en", in);
  REQUIRE(en.ok());
  CHECK(en->subject == "Club de la Morne: you take the place of dmitri");
  CHECK_THAT(en->body, Catch::Contains("Game club-s1-r2-g3: you play orange against Zoë."));
}

TEST_CASE("the game-over mail names both players and sides, in the reader's language") {
  ResignedMailInput in;
  in.game_id = "club-s1-r1-g2";
  in.resigning = Seat::kBlue;
  in.blue_player = "Hélène Dupré";
  in.orange_player = "bob";
  in.league_name = "Club";
  in.league_id = "club";
  in.recipient = Seat::kOrange;
  auto en = RenderResignedMail(kTemplates, "en", in);
  REQUIRE(en.ok());
  CHECK(en->subject == "Game club-s1-r1-g2: Hélène Dupré resigned, bob wins");
  CHECK_THAT(en->body, Catch::Contains("Hélène Dupré (blue) resigned: you (bob, orange) win the "
                                       "game."));
  in.recipient = Seat::kBlue;
  auto fr = RenderResignedMail(kTemplates, "fr", in);
  REQUIRE(fr.ok());
  CHECK(fr->subject == "Partie club-s1-r1-g2" + kNbsp + ": Hélène Dupré abandonne, bob gagne");
  CHECK_THAT(fr->body, Catch::Contains("Vous (Hélène Dupré, camp bleu) avez abandonné" + kNbsp +
                                       ": bob (camp orange) remporte la partie."));
  // A game in no league: the sides alone, still a sentence.
  ResignedMailInput lone;
  lone.game_id = "demo";
  lone.resigning = Seat::kOrange;
  lone.recipient = Seat::kBlue;
  auto side_only = RenderResignedMail(kTemplates, "fr", lone);
  REQUIRE(side_only.ok());
  CHECK_THAT(side_only->body, Catch::Contains("Le joueur du camp orange a abandonné" + kNbsp +
                                              ": vous remportez la partie avec le camp bleu."));
}

TEST_CASE("joining is confirmed with the token, and the standings link when known") {
  auto fr = RenderJoinedMail(kTemplates, "fr", "club", "Hélène Dupré", "abc123",
                             {"referee@pbem.example", "https://pbem.example"});
  REQUIRE(fr.ok());
  CHECK(fr->subject == "Ligue club" + kNbsp + ": votre inscription sous le nom Hélène Dupré");
  CHECK_THAT(fr->body, Catch::Contains("Votre jeton de ligue" + kNbsp + ": abc123"));
  CHECK_THAT(fr->body, Catch::Contains("https://pbem.example/v1/leagues/club/standings.html"));
}

TEST_CASE("the standings say after how many games a player is ranked; SB in fixed decimals") {
  StandingsView view;
  view.league_name = "Club";
  view.season = 1;
  view.round = 2;
  StandingRow helene;
  helene.player = "Hélène Dupré";
  helene.rank = 1;
  helene.points = 12;
  helene.sonneborn_berger = 60;
  helene.rating = 1662.3;
  StandingRow bo;
  bo.player = "Bo";
  bo.points = 9;
  bo.sonneborn_berger = 6.5;
  bo.rating = 1500;
  view.rows = {helene, bo};
  view.rank_after = 3;
  view.archive_link = "";  // no game pages: no links
  LeagueGame draw;
  draw.game_id = "club-s1-r1-g1";
  draw.round = 1;
  draw.blue = "Hélène Dupré";
  draw.orange = "Bo";
  draw.kind = ResultKind::kDraw;
  view.games = {draw};
  auto en = RenderStandings(kTemplates, "en", view);
  REQUIRE(en.ok());
  INFO(en->text);
  CHECK_THAT(en->text, Catch::Contains("A player is ranked after 3 finished games"));
  CHECK_THAT(en->text,
             Catch::Contains("\n1     Hélène Dupré  12      0       0        0-0-0  60.0  1662\n"));
  CHECK_THAT(en->text,
             Catch::Contains("\n-     Bo            9       0       0        0-0-0  6.5   1500\n"));
  CHECK(en->html.find("<a href") == std::string::npos);
  CHECK_THAT(en->html, Catch::Contains("<style>"));
  CHECK_THAT(en->html, Catch::Contains("<td class=\"player\">Hélène Dupré</td>"));
  auto fr = RenderStandings(kTemplates, "fr", view);
  REQUIRE(fr.ok());
  CHECK_THAT(fr->text,
             Catch::Contains("Un joueur est classé après 3" + kNbsp + "parties terminées"));
  CHECK_THAT(fr->text, Catch::Contains("6,5"));  // the French decimal comma
  view.rank_after = 1;
  CHECK_THAT(RenderStandings(kTemplates, "en", view)->text,
             Catch::Contains("A player is ranked after 1 finished game ("));
}

TEST_CASE("a deadline extension's duration in words (templates/league/<lang>/duration.txt)") {
  using std::chrono::seconds;
  const auto words = [](std::int64_t s, const std::string& language) {
    Result<std::string> worded = DurationWords(kTemplates, seconds(s), language);
    REQUIRE(worded.ok());
    return *worded;
  };
  CHECK(words(0, "en") == "less than a minute");
  CHECK(words(59, "fr") == "moins d'une minute");
  CHECK(words(60, "en") == "1 minute");
  CHECK(words(120, "fr") == "2 minutes");
  CHECK(words(3600, "en") == "1 hour");
  CHECK(words(183600, "en") == "2 days 3 hours");
  CHECK(words(183600, "fr") == "2 jours 3 heures");
  CHECK(words(86400 + 3600 + 60 + 59, "en") == "1 day 1 hour 1 minute");
  CHECK(words(2 * 86400 + 2 * 60, "fr") == "2 jours 2 minutes");
  CHECK(words(30 * 86400, "fr") == "30 jours");
}

}  // namespace
}  // namespace pbem::league
