// The maps of a player-turn's results mails (issue 14 point 8): per language, the whole map of
// the next state with the turn's events, attached as "<game>-turn-<n>-<side>.png", and the part
// of it where the turn's action was (templates/action_crop.h), at full scale and shown inline at
// the top of the HTML body, above the text. The title and legend are in the reader's language
// (the mail templates' words table); each language is drawn once per turn, whatever the number
// of its readers.
#ifndef PBEM_DAEMON_RESULTS_MAPS_H_
#define PBEM_DAEMON_RESULTS_MAPS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/game_catalog.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/turn_result.h"
#include "storage/game_repository.h"
#include "storage/status.h"
#include "templates/action_crop.h"
#include "templates/mail_render.h"

namespace pbem::daemon {

// One language's maps of a turn.
struct ResultsMapFiles {
  storage::Attachment whole;   // a real attachment: its name is not referred to by the HTML
  storage::Attachment action;  // inline: the HTML shows "cid:" + its name
  // Where the crop is in the whole map, in pixels (its size is the <img>'s size).
  templates::PixelBox action_box;
};

// "demo-turn-3-blue.png": the game, the game turn played and the side that played it (the
// side's code: file names stay ASCII). The game id is an identifier (daemon/validate.h).
std::string MapFileName(std::string_view game_id, int turn, engine::Side side);

class ResultsMaps {
 public:
  // All must outlive this object: `next` the state after the turn, `events` its event log.
  ResultsMaps(const ScenarioData& data, const engine::GameState& next,
              const std::vector<engine::Event>& events, std::string game_id, int turn,
              engine::Side side, const templates::MailTemplates& templates);

  // The maps in `language`: drawn on the first call for that language, then the same.
  Result<const ResultsMapFiles*> For(templates::Language language);
  // How many languages were drawn (each draws the whole map once).
  int renders() const { return renders_; }

 private:
  const ScenarioData& data_;
  const engine::GameState& next_;
  const std::vector<engine::Event>& events_;
  std::string game_id_;
  int turn_;
  engine::Side side_;
  const templates::MailTemplates& templates_;
  std::map<templates::Language, ResultsMapFiles> drawn_;
  int renders_ = 0;
};

// `html` (a whole document) with the action crop as the first thing in its body, above every
// text, at its natural size (width and height given, no max-width: never shrunk), `alt` as its
// alternative text (escaped here).
std::string WithActionMap(std::string html, const ResultsMapFiles& maps, std::string_view alt);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_RESULTS_MAPS_H_
