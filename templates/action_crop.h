// The part of a rendered map where a player-turn's action was, cut out at full scale: what the
// results mail shows at its top (issue 14 point 8), the whole map going along as an attachment.
//
// The box bounds every hex the turn's events touch (moves, stops, charges, fire, combats,
// retreats and advances, eliminations, and the units that lost strength), padded by about a
// hex and widened to a minimum size, then cut to at most a maximum size around the centre of
// the fighting (combats and charges; the moves when there was none). A turn without any such
// event (orders missed, nothing ordered) shows where the side to move stands, around its middle
// unit. Pure arithmetic over the layout: the same inputs give the same box, and CropPng the same
// bytes.
#ifndef PBEM_TEMPLATES_ACTION_CROP_H_
#define PBEM_TEMPLATES_ACTION_CROP_H_

#include <cstdint>
#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "templates/map_renderer.h"
#include "templates/png_writer.h"
#include "templates/status.h"

namespace pbem::templates {

// A rectangle of whole pixels.
struct PixelBox {
  int x = 0;
  int y = 0;
  int w = 0;
  int h = 0;
  friend bool operator==(const PixelBox&, const PixelBox&) = default;
};

struct CropOptions {
  // The crop never exceeds these (a mail is read in a pane about 800 pixels wide) and is at
  // least the minimum where the map band allows it.
  int max_width = 760;
  int max_height = 520;
  int min_width = 420;
  int min_height = 300;
};

// The box of `image` (drawn by RenderMap from `state` and `turn_events`) to show, inside its
// map band. REQUIRES: `image` was filled by a successful RenderMap for this scenario.
PixelBox ActionBox(const MapImage& image, const engine::Scenario& scenario,
                   const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                   const CropOptions& options = {});

// The pixels of `box` (clamped to the image) as a PNG, at the image's own scale.
// REQUIRES: `image` was filled by a successful RenderMap; `png` is not null.
Status CropPng(const MapImage& image, PixelBox box, const PngOptions& options,
               std::vector<std::uint8_t>* png);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_ACTION_CROP_H_
