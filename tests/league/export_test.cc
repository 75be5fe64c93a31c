// League exports against hand-written expectations: RFC 4180 quoting, the defused formula,
// and a TRF-16 season whose fixed columns were laid out by hand (FIDE's TRF-16 layout).
#include "daemon/league/export.h"

#include <catch2/catch.hpp>

namespace pbem::league {
namespace {

TEST_CASE("CSV fields are quoted as RFC 4180 says, and only when they must be") {
  CHECK(CsvField("ann") == "ann");
  CHECK(CsvField("Hélène Dupré") == "Hélène Dupré");
  CHECK(CsvField("Smith, Jo") == "\"Smith, Jo\"");
  CHECK(CsvField("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(CsvField("two\nlines") == "\"two\nlines\"");
  CHECK(CsvField("cr\r") == "\"cr\r\"");
  CHECK(CsvField("") == "");
  // A stranger's name that a spreadsheet would run as a formula gets an apostrophe.
  CHECK(CsvText("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
  CHECK(CsvText("+1") == "'+1");
  CHECK(CsvText("-x, y") == "\"'-x, y\"");
  CHECK(CsvText("@me") == "'@me");
  CHECK(CsvText("Bob=") == "Bob=");
}

TEST_CASE("the standings and games CSV: a header, CRLF lines, the names intact") {
  StandingRow row;
  row.player = "Smith, \"Jo\"";
  row.rank = 1;
  row.points = 7;
  row.played = 2;
  row.wins = 1;
  row.draws = 1;
  row.head_to_head = 3;
  row.sonneborn_berger = 4.5;
  row.rating = 1523.6;
  StandingRow unranked;
  unranked.player = "Hélène Dupré";
  unranked.pending = 1;
  unranked.rating = 1500;
  CHECK(StandingsCsv(2, {row, unranked}) ==
        "season,rank,player,points,played,pending,wins,draws,losses,head_to_head,"
        "sonneborn_berger,rating\r\n"
        "2,1,\"Smith, \"\"Jo\"\"\",7,2,0,1,1,0,3,4.5,1524\r\n"
        "2,,Hélène Dupré,0,0,1,0,0,0,0,0.0,1500\r\n");
  storage::LeagueGameRecord won{"club", 1,         2,        "club-s1-r2-g1", "Hélène Dupré",
                                "=Bob", "victory", "orange", "major"};
  storage::LeagueGameRecord pending{"club", 1,         3,  "club-s1-r3-g1", "ann",
                                    "bob",  "pending", "", "draw"};
  CHECK(GamesCsv({won, pending}) ==
        "season,round,game,blue,orange,result,winner,level,winner_player\r\n"
        "1,2,club-s1-r2-g1,Hélène Dupré,'=Bob,victory,orange,major,'=Bob\r\n"
        "1,3,club-s1-r3-g1,ann,bob,pending,,,\r\n");
}

TEST_CASE("TRF-16: fixed columns, chess scores, byes, only complete rounds") {
  auto player = [](const std::string& name, double rating) {
    StandingRow r;
    r.player = name;
    r.rating = rating;
    return r;
  };
  auto game = [](int round, const std::string& blue, const std::string& orange, ResultKind kind,
                 std::optional<Seat> winner) {
    LeagueGame g;
    g.game_id = "g" + std::to_string(round);
    g.round = round;
    g.blue = blue;
    g.orange = orange;
    g.kind = kind;
    g.winner = winner;
    return g;
  };
  TrfSeason season;
  season.league_name = "Club de la Morne";
  season.season = 1;
  season.swiss = false;
  // The standings order (rank column): ann, cid, Béa; starting ranks by rating: ann, Béa, cid.
  season.rows = {player("ann", 1600.4), player("cid", 1400), player("Béa", 1499.6)};
  season.games = {
      game(1, "ann", "Béa", ResultKind::kVictory, Seat::kBlue),    // cid: bye
      game(2, "cid", "ann", ResultKind::kDraw, std::nullopt),      // Béa: bye
      game(3, "Béa", "cid", ResultKind::kForfeit, Seat::kOrange),  // ann: bye
      game(4, "ann", "cid", ResultKind::kPending, std::nullopt),   // not complete
  };
  // Columns: 1-3 "001", 5-8 start rank, 15-47 name, 49-52 rating, 81-84 points, 86-89 rank,
  // then from 92 per round: 4 digits of the opponent, colour at +5, result at +7. "Béa" is 4
  // bytes: one space fewer after it.
  CHECK(SeasonTrf(season) ==
        "012 Club de la Morne, season 1\r\n"
        "062 3\r\n"
        "092 Round robin\r\n"
        "XXR 3\r\n"
        "001    1      ann                               1600                             1.5"
        "    1  0002 w 1  0003 b =  0000 - Z\r\n"
        "001    2      Béa                              1500                             0.0"
        "    3  0001 b 0  0000 - Z  0003 w -\r\n"
        "001    3      cid                               1400                             1.5"
        "    2  0000 - Z  0001 w =  0002 b +\r\n");
}

}  // namespace
}  // namespace pbem::league
