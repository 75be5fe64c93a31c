// The game archive page (issue 6): a static, self-contained HTML history of one game, written
// to a directory: index.html (the game, its turns, the final result, the opening map) and one
// page per player-turn, turn-NNN.html, with that turn's map (map-NNN.png, drawn by the map
// renderer with the turn's events), the turn report in the same words as the results mail,
// and previous / next links. Every link is relative and nothing is fetched from the network,
// so the directory can be served as is (by pbemd or any web server), zipped or opened from
// disk.
//
// The page chrome lives in template files: <dir>/<lang>/index.html and turn.html (mustache)
// and <dir>/style.css (copied next to the pages), read at run time from
// DefaultArchiveTemplateDir(data dir) = <data>/templates/archive.
#ifndef PBEM_TEMPLATES_ARCHIVE_H_
#define PBEM_TEMPLATES_ARCHIVE_H_

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "templates/mail_render.h"
#include "templates/status.h"

namespace pbem::templates {

// One resolved player-turn as stored.
struct ArchiveTurn {
  int turn = 0;                             // the game turn
  engine::Side side = engine::Side::kBlue;  // the side that moved
  engine::TurnResult result;                // verdicts, events, next state
  std::string revealed_seed;                // the turn's dice seed (hex)
  std::string commitment;                   // the turn's published commitment (hex)
};

// How the service ended a game the engine did not finish (storage::Game::ending): a
// resignation, a forfeit or a league organiser's ruling. The index page says so instead of
// "the game goes on".
struct ArchiveEnding {
  std::string kind;    // "victory", "draw", "resigned", "forfeit" (storage::GameEndKindName)
  std::string winner;  // "blue" / "orange"; empty when there is none
  std::string level;   // engine::VictoryLevelName of the level awarded
  bool by_organiser = false;
};

struct ArchiveInput {
  const engine::Ruleset* ruleset = nullptr;    // REQUIRES: not null
  const engine::Scenario* scenario = nullptr;  // REQUIRES: not null
  std::string game_id;
  engine::GameState initial_state;
  std::vector<ArchiveTurn> turns;       // in the order played
  std::optional<ArchiveEnding> ending;  // set when the service ended the game
};

// The file names of the pages and maps: "index.html", "turn-007.html", "map-007.png";
// map 0 is the opening position.
std::string ArchiveTurnPage(int sequence);
std::string ArchiveMapFile(int sequence);

// Writes the archive into `out_dir` (created when missing; files of the same names are
// replaced). Fails naming the file that could not be written or the template that failed.
Status WriteArchive(const MailTemplates& mail, Language language,
                    const std::filesystem::path& template_dir, const ArchiveInput& input,
                    const std::filesystem::path& out_dir);

// <data_dir>/templates/archive
std::filesystem::path DefaultArchiveTemplateDir(const std::filesystem::path& data_dir);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_ARCHIVE_H_
