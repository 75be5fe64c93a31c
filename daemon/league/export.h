// League exports for the tools clubs already use (issue 20 point 5): CSV for spreadsheets and
// TRF, FIDE's Tournament Report File, for Swiss-pairing programs. Pure: values in, text out.
//
// CSV follows RFC 4180: comma-separated, CRLF line ends, a header line, every field that holds
// a comma, a double quote, CR or LF quoted with its quotes doubled; text is UTF-8 as stored
// ("Hélène Dupré" stays as it is). A name a spreadsheet would read as a formula (starting
// with '=', '+', '-', '@', TAB or CR) gets a leading apostrophe, as OWASP advises against CSV
// injection: a league player's name is chosen by a stranger.
#ifndef PBEM_DAEMON_LEAGUE_EXPORT_H_
#define PBEM_DAEMON_LEAGUE_EXPORT_H_

#include <string>
#include <string_view>
#include <vector>

#include "daemon/league/standings.h"
#include "storage/league_repository.h"

namespace pbem::league {

// One field as RFC 4180 writes it (quoted when it must be).
std::string CsvField(std::string_view text);
// A text field from a stranger (a name): CsvField, with the apostrophe against formulas.
std::string CsvText(std::string_view text);

// season,rank,player,points,played,pending,wins,draws,losses,head_to_head,sonneborn_berger,
// rating ("rank" empty for a player not ranked yet; SB with one decimal, rating rounded).
std::string StandingsCsv(int season, const std::vector<StandingRow>& rows);

// season,round,game,blue,orange,result,winner,level,winner_player: every game of the league
// (result pending, victory, draw, resigned or forfeit; winner the side; level the victory
// level of a decided game).
std::string GamesCsv(const std::vector<storage::LeagueGameRecord>& games);

// TRF-16, FIDE's Tournament Report File (the format JaVaFo, bbpPairings and Swiss-Manager
// read), of one season, mapped so that a Swiss-pairing program can pair the next round:
//   012 the league's name and the season;  062 the number of players;
//   092 "Swiss system" or "Round robin";   XXR the season's rounds (JaVaFo's extension);
//   001 one line per player in the fixed columns of TRF-16: starting rank (5-8, by rating,
//       then name), name (15-47, UTF-8, cut at 33 bytes on a character boundary), rating
//       (49-52, the Glicko-2 rating rounded, in the FIDE rating's place), points (81-84), rank
//       (86-89, the standings' order), then per round (from column 92, 10 columns each) the
//       opponent's starting rank, the colour (w for blue, who moves first; b for orange) and
//       the result: 1 / = / 0 for a game played or resigned, + / - for a forfeit, "0000 - Z"
//       for a player with no game in the round.
// Points are chess scores (1, 1/2, 0; a forfeit win 1), not league points: what pairing
// programs score by (the league's own points are in StandingsCsv). Only complete rounds are
// written (a pairing program pairs after them); with both sides played in a round (SideRule
// kBothSides) a round holds each player's first game only. Columns count bytes.
struct TrfSeason {
  std::string league_name;
  int season = 1;
  bool swiss = false;
  int rounds = 0;                 // the season's rounds when known (0: those played)
  std::vector<StandingRow> rows;  // the standings, best first (rank column)
  std::vector<LeagueGame> games;  // the season's games
};
std::string SeasonTrf(const TrfSeason& season);

}  // namespace pbem::league

#endif  // PBEM_DAEMON_LEAGUE_EXPORT_H_
