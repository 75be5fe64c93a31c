// `pbem league` for organisers, through the real binary: the happy path, and bad input that
// must fail with exit 1, a clear message, and an unchanged store.
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "storage/sqlite_repository.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::league {
namespace {

namespace fs = std::filesystem;

struct Cli {
  fs::path dir;
  Cli() {
    std::string pattern = (fs::temp_directory_path() / "pbem-league-cli-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
  }
  ~Cli() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  int Run(std::vector<std::string> args, std::string& output) {
    args.insert(args.begin(), {PBEM_BINARY, "league"});
    args.push_back("--db");
    args.push_back("sqlite:" + dir.string());
    return testing::RunProcess(args, output);
  }
  // Everything a league command may change, as text.
  std::string Snapshot() {
    storage::SqliteRepository repo(dir);
    REQUIRE(repo.OpenOrMigrate().ok());
    std::ostringstream out;
    // (Each Result is kept in a variable: a range-for over *temporary would dangle.)
    const auto players = repo.ListLeaguePlayers("club");
    const auto games = repo.ListLeagueGames("club");
    const auto ratings = repo.RatingHistory("club");
    REQUIRE((players.ok() && games.ok() && ratings.ok()));
    for (const auto& p : players.value()) {
      out << p.player << ' ' << p.mail_address << ' ' << p.token_sha256 << '\n';
    }
    for (const auto& g : games.value()) {
      out << g.game_id << ' ' << g.blue << ' ' << g.orange << ' ' << g.result << '\n';
      out << repo.ListPlayers(g.game_id)->size() << '\n';
    }
    for (const auto& r : ratings.value()) out << r.player << ' ' << r.rating << '\n';
    out << repo.DueMail(storage::Timestamp::max(), 1000)->size() << '\n';
    return out.str();
  }
};

TEST_CASE("pbem league: organiser commands; bad input changes nothing") {
  Cli cli;
  std::string out;
  REQUIRE(cli.Run({"create", "club", "--token", "org", "--name", "Club"}, out) == 0);
  for (const char* p : {"ann", "bob", "cid", "dan"}) {
    REQUIRE(cli.Run({"add", "club", p, "--mail", std::string(p) + "@example.org"}, out) == 0);
    CHECK_THAT(out, Catch::Contains("token "));
  }
  REQUIRE(cli.Run({"start", "club", "--token", "org"}, out) == 0);
  CHECK_THAT(out, Catch::Contains("2 games created"));
  const std::string after_start = cli.Snapshot();
  CHECK_THAT(after_start, Catch::Contains("club-s1-r1-g1 ann dan pending"));
  CHECK_THAT(after_start, Catch::Contains("\n4\n"));  // four mails: one per player

  struct Bad {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Bad> bad = {
      {{"add", "club", "ann", "--mail", "x@example.org"}, "the player is in the league already"},
      {{"add", "nope", "eve", "--mail", "e@example.org"}, "no such league"},
      {{"start", "club", "--token", "guess", "--round", "2"},
       "the token is not the organiser's token of league club"},
      {{"start", "nope", "--token", "org"}, "league nope is not in"},
      {{"start", "club", "--token", "org"}, "season 1 round 1 of league club has started already"},
      // round_unfinished: a round starts once the previous one is over, in order.
      {{"start", "club", "--token", "org", "--round", "2"},
       "round 1 of season 1 of league club is not finished (game club-s1-r1-g1 is still played)"},
      {{"start", "club", "--token", "org", "--round", "3"},
       "round 1 of season 1 of league club is not finished"},
      {{"remove", "club", "ann", "--token", "guess"}, "not the organiser's token"},
      {{"result", "club-s1-r1-g1", "--token", "guess", "--draw"}, "not the organiser's token"},
      {{"result", "club-s1-r1-g1", "--token", "org", "--winner", "blue", "--level", "huge"},
       "--level is minor, tactical, major or total"},
  };
  for (const auto& b : bad) {
    INFO(b.args[0] << ' ' << b.args[1]);
    CHECK(cli.Run(b.args, out) == 1);
    CHECK_THAT(out, Catch::Contains(b.message));
    CHECK(cli.Snapshot() == after_start);
  }
  // Results by the organiser; the round's end rates it: ann beat dan (1662), bob-cid drew.
  REQUIRE(
      cli.Run({"result", "club-s1-r1-g1", "--token", "org", "--winner", "blue", "--level", "major"},
              out) == 0);
  CHECK(out.find("round 2") == std::string::npos);
  CHECK(cli.Snapshot().find("club-s1-r2-") == std::string::npos);
  // The round's last result, recorded by the organiser's CLI, starts round 2 (as pbemd's pass
  // does): its games and the players' mails.
  REQUIRE(cli.Run({"result", "club-s1-r1-g2", "--token", "org", "--draw"}, out) == 0);
  CHECK_THAT(out, Catch::Contains("round complete"));
  CHECK_THAT(out, Catch::Contains("round 2 started (2 games)"));
  const std::string after_round1 = cli.Snapshot();
  CHECK_THAT(after_round1, Catch::Contains("club-s1-r2-g1 cid ann pending"));
  CHECK_THAT(after_round1, Catch::Contains("club-s1-r2-g2 dan bob pending"));
  REQUIRE(cli.Run({"standings", "club"}, out) == 0);
  // Columns aligned under their heading; SB with one decimal (never "6e+01").
  CHECK_THAT(out, Catch::Contains("rank  player  points  played  pending  W-D-L  SB   rating\n"));
  CHECK_THAT(out, Catch::Contains("\n-     ann     5       1       1        1-0-0  1.0  1662\n"));
  CHECK_THAT(out, Catch::Contains("\n-     dan     1       1       1        0-0-1  0.0  1338\n"));

  // dan vanishes: eve replaces him with a fresh token; dan's league token is gone. She reads
  // French: her welcome mail and the mails of the game she takes over are in French.
  REQUIRE(cli.Run({"replace", "club", "dan", "eve", "--mail", "eve@example.org", "--token", "org",
                   "--lang", "fr", "--address", "referee@pbem.example"},
                  out) == 0);
  CHECK_THAT(out, Catch::Contains("welcome mail to eve@example.org queued (1 game(s) in play)"));
  const std::string eve_token = out.substr(out.rfind("token ") + 6, 32);
  const std::string after_replace = cli.Snapshot();
  {
    // dan's pending game (round 2, blue against bob) is eve's now: her token works there, the
    // token dan was mailed for it does not.
    storage::SqliteRepository repo(cli.dir);
    REQUIRE(repo.OpenOrMigrate().ok());
    std::string dan_token, welcome;
    const auto mails = repo.DueMail(storage::Timestamp::max(), 1000);
    REQUIRE(mails.ok());
    const std::string line =
        "Game club-s1-r2-g2: you play blue against bob.\n    Your token for this game: ";
    for (const auto& m : mails.value()) {
      const auto at = m.body.find(line);
      if (m.recipient == "dan@example.org" && at != std::string::npos) {
        dan_token = m.body.substr(at + line.size(), 32);
      }
      if (m.recipient == "eve@example.org") welcome = m.subject + "\n" + m.body;
    }
    REQUIRE(dan_token.size() == 32);
    INFO(welcome);
    CHECK_THAT(welcome, Catch::StartsWith("Club\u00a0: vous prenez la place de dan\nBonjour eve,"));
    CHECK_THAT(welcome, Catch::Contains("Partie club-s1-r2-g2\u00a0: vous jouez le camp bleu "
                                        "contre bob.\n    Votre jeton pour cette partie\u00a0: " +
                                        eve_token));
    CHECK_THAT(welcome, Catch::Contains("par courriel à referee@pbem.example"));
    const auto seats = repo.ListPlayers("club-s1-r2-g2");
    REQUIRE(seats.ok());
    for (const auto& seat : seats.value()) {
      CHECK(seat.language == (seat.side == "blue" ? "fr" : "en"));
    }
    CHECK(*repo.VerifyToken("club-s1-r2-g2", "blue", eve_token));
    CHECK_FALSE(*repo.VerifyToken("club-s1-r2-g2", "blue", dan_token));
    CHECK(repo.GetLeagueGame("club-s1-r2-g2")->blue == "eve");
    CHECK(repo.GetLeagueGame("club-s1-r1-g1")->orange == "dan");  // finished: stays his
  }
  // The static standings page, in French, linking the games' archive pages, which it writes:
  // every link leads to a page.
  REQUIRE(cli.Run({"standings", "club", "--html", (cli.dir / "site").string(), "--lang", "fr"},
                  out) == 0);
  auto page = codec::ReadFile(cli.dir / "site/standings.html");
  REQUIRE(page.ok());
  CHECK_THAT(page.value(), Catch::Contains("<a href=\"club-s1-r1-g1/index.html\">"));
  CHECK_THAT(page.value(), Catch::Contains("ann gagne, victoire majeure"));
  CHECK_THAT(page.value(), Catch::Contains("Un joueur est classé après 4\u00a0parties terminées"));
  int links = 0;
  for (std::size_t at = page.value().find("href=\""); at != std::string::npos;
       at = page.value().find("href=\"", at + 1)) {
    const std::size_t start = at + 6;
    const std::string target = page.value().substr(start, page.value().find('"', start) - start);
    INFO(target);
    CHECK(fs::is_regular_file(cli.dir / "site" / target));
    ++links;
  }
  CHECK(links == 4);  // the four games of rounds 1 and 2
  // Round 2 has started, not finished: the page names round 1.
  CHECK_THAT(page.value(), Catch::Contains("classement après la ronde 1."));
  CHECK(after_replace.find("dan@example.org") == std::string::npos);
  CHECK_THAT(after_replace, Catch::Contains("eve eve@example.org"));
  CHECK(cli.Run({"replace", "club", "dan", "fay", "--mail", "f@example.org", "--token", "org"},
                out) == 1);
  CHECK(cli.Snapshot() == after_replace);
}

TEST_CASE("pbem league result ends the game; again, it is a correction with a reason or refused") {
  Cli cli;
  std::string out;
  REQUIRE(cli.Run({"create", "club", "--token", "org", "--name", "Club"}, out) == 0);
  for (const char* p : {"ann", "bob"}) {
    REQUIRE(cli.Run({"add", "club", p, "--mail", std::string(p) + "@example.org"}, out) == 0);
  }
  REQUIRE(cli.Run({"start", "club", "--token", "org"}, out) == 0);
  const std::string game = "club-s1-r1-g1";
  REQUIRE(cli.Run({"result", game, "--token", "org", "--draw"}, out) == 0);
  CHECK_THAT(out, Catch::Contains("result of " + game + " recorded; the game is over"));
  {
    storage::SqliteRepository repo(cli.dir);
    REQUIRE(repo.OpenOrMigrate().ok());
    const auto ended = repo.GetGame(game);
    REQUIRE(ended->ending.has_value());
    CHECK(ended->ending->by_organiser);
    CHECK(ended->ending->kind == storage::GameEndKind::kDraw);
  }
  const std::string recorded = cli.Snapshot();
  // Recording again without a reason: refused, said so, nothing changed (it used to print
  // "recorded" and keep the first result).
  CHECK(cli.Run({"result", game, "--token", "org", "--winner", "orange", "--level", "minor"},
                out) == 1);
  CHECK_THAT(out, Catch::Contains("has a league result already (a draw)") &&
                      Catch::Contains("--reason") && Catch::Contains("nothing was changed"));
  CHECK(cli.Snapshot() == recorded);
  REQUIRE(cli.Run({"result", game, "--token", "org", "--winner", "orange", "--level", "minor",
                   "--reason", "scoring error"},
                  out) == 0);
  CHECK_THAT(out, Catch::Contains("result of " + game +
                                  " corrected; 1 rating periods rated "
                                  "again, 2 players told by mail"));
  REQUIRE(cli.Run({"standings", "club"}, out) == 0);
  CHECK_THAT(out, Catch::Contains("\n-     bob     3       1       0        1-0-0  1.0"));
  storage::SqliteRepository repo(cli.dir);
  REQUIRE(repo.OpenOrMigrate().ok());
  const auto log = repo.ListLeagueCorrections("club");
  REQUIRE(log->size() == 1);
  CHECK((*log)[0].reason == "scoring error");
}

// The column (in characters, not bytes) where `word` starts in `line`; npos when absent.
std::size_t ColumnOf(const std::string& line, const std::string& word) {
  const std::size_t at = line.find(word);
  if (at == std::string::npos) return at;
  std::size_t column = 0;
  for (std::size_t i = 0; i < at; ++i)
    column += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
  return column;
}

TEST_CASE("pbem league: the organiser's status table, extension, registration, exports, page") {
  Cli cli;
  std::string out;
  {
    std::ofstream settings(cli.dir / "settings.txt");
    settings << "deadlines 86400 0\n";
  }
  REQUIRE(cli.Run({"create", "club", "--token", "org", "--settings",
                   (cli.dir / "settings.txt").string()},
                  out) == 0);
  REQUIRE(cli.Run({"add", "club", "Hélène Dupré", "--mail", "h@example.org", "--lang", "fr"},
                  out) == 0);
  REQUIRE(cli.Run({"add", "club", "Smith, \"Jo\"", "--mail", "jo@example.org"}, out) == 0);
  REQUIRE(cli.Run({"add", "club", "ann", "--mail", "ann@example.org"}, out) == 0);
  REQUIRE(cli.Run({"add", "club", "bob", "--mail", "bob@example.org"}, out) == 0);
  REQUIRE(cli.Run({"start", "club", "--token", "org"}, out) == 0);

  // Before pbemd opened the turns: no deadline yet. The table is aligned by characters.
  REQUIRE(cli.Run({"status", "club", "--token", "org"}, out) == 0);
  INFO(out);
  std::vector<std::string> lines;
  {
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  REQUIRE(lines.size() == 3);
  const std::size_t orange = ColumnOf(lines[0], "orange");
  const std::size_t to_move = ColumnOf(lines[0], "to move");
  for (std::size_t i = 1; i < lines.size(); ++i) {
    CHECK_THAT(lines[i], Catch::StartsWith("club-s1-r1-g"));
    CHECK_THAT(lines[i], Catch::Contains("blue ("));
    CHECK(ColumnOf(lines[i], "blue (") == to_move);
    CHECK_THAT(lines[i], Catch::EndsWith("pending"));
  }
  CHECK(ColumnOf(lines[0], "deadline") > orange);

  // Open the games' first turns as pbemd does; now each has a deadline a day away.
  {
    storage::SqliteRepository repo(cli.dir);
    REQUIRE(repo.OpenOrMigrate().ok());
    daemon::SystemEntropy entropy;
    for (const char* game : {"club-s1-r1-g1", "club-s1-r1-g2"}) {
      REQUIRE(
          daemon::OpenTurn(repo, testing::Bois().scenario.scenario, game, entropy,
                           storage::Timestamp(std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch())))
              .ok());
    }
  }
  REQUIRE(cli.Run({"status", "club", "--token", "org"}, out) == 0);
  CHECK_THAT(out, Catch::Contains(" UTC"));
  CHECK(cli.Run({"status", "club", "--token", "guess"}, out) == 1);
  CHECK_THAT(out, Catch::Contains("the token is not the organiser's token of league club"));

  // The extension: bounded, named; then done and mailed to both players of the game.
  const std::string before = cli.Snapshot();
  for (const char* hours : {"0", "721", "-3", "1e3", "two"}) {
    CHECK(cli.Run({"extend", "club", "club-s1-r1-g1", "--hours", hours, "--token", "org"}, out) ==
          1);
    CHECK_THAT(out, Catch::Contains("--hours is a whole number of hours from 1 to 720"));
  }
  CHECK(cli.Run({"extend", "club", "nope", "--hours", "2", "--token", "org"}, out) == 1);
  CHECK_THAT(out, Catch::Contains("game \"nope\" is no game of league \"club\""));
  CHECK(cli.Snapshot() == before);
  REQUIRE(cli.Run({"extend", "club", "club-s1-r1-g1", "--hours", "30", "--token", "org"}, out) ==
          0);
  CHECK_THAT(out, Catch::Contains("extended by 30 hours") && Catch::Contains("2 mails queued"));
  {
    storage::SqliteRepository repo(cli.dir);
    REQUIRE(repo.OpenOrMigrate().ok());
    auto open = repo.GetOpenTurn("club-s1-r1-g1", 1, "blue");
    REQUIRE(open.ok());
    CHECK(open->paused == std::chrono::hours(30));
  }

  // Registration.
  REQUIRE(cli.Run({"registration", "club", "closed", "--token", "org"}, out) == 0);
  CHECK_THAT(out, Catch::Contains("registration to league club is closed"));
  CHECK(cli.Run({"registration", "club", "maybe", "--token", "org"}, out) == 2);

  // The CSV exports: names as joined, RFC 4180 quoting.
  const std::string csv = (cli.dir / "standings.csv").string();
  REQUIRE(cli.Run({"export", "club", "standings", "--token", "org", "--out", csv}, out) == 0);
  auto standings = codec::ReadFile(csv);
  REQUIRE(standings.ok());
  CHECK_THAT(standings.value(), Catch::StartsWith("season,rank,player,points,"));
  CHECK_THAT(standings.value(),
             Catch::Contains(",\"Smith, \"\"Jo\"\"\",") && Catch::Contains(",Hélène Dupré,"));
  REQUIRE(cli.Run({"export", "club", "games", "--token", "org"}, out) == 0);
  CHECK_THAT(out, Catch::Contains("1,1,club-s1-r1-g1,"));
  CHECK(cli.Run({"export", "club", "games", "--token", "guess"}, out) == 1);

  // The rating history page, in French, as a file.
  const std::string page_path = (cli.dir / "helene.html").string();
  REQUIRE(cli.Run({"ratings", "club", "Hélène Dupré", "--out", page_path, "--lang", "fr"}, out) ==
          0);
  auto page = codec::ReadFile(page_path);
  REQUIRE(page.ok());
  CHECK_THAT(page.value(), Catch::Contains("<h1 id=\"player\">Hélène Dupré</h1>") &&
                               Catch::Contains("provisoire") &&
                               Catch::Contains("href=\"club-s1-r1-g"));
  CHECK(cli.Run({"ratings", "club", "Nobody", "--out", page_path}, out) == 1);
  CHECK_THAT(out, Catch::Contains("league \"club\" has no player \"Nobody\""));
}

}  // namespace
}  // namespace pbem::league
