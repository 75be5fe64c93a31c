// The map image players receive with every turn: terrain, elevation, hexside water and
// slopes, roads and tracks, objectives with their owners and points, CCRR labels, the units
// as counters, the turn's movement arrows, a legend and a title (issue 6).
//
// Drawing uses cairo on an opaque RGB24 image surface; text uses cairo's toy font API with
// "DejaVu Sans". The image depends only on the inputs: the same ruleset, scenario, state,
// events and options give the same pixels (and, through EncodePng, the same bytes).
#ifndef PBEM_TEMPLATES_MAP_RENDERER_H_
#define PBEM_TEMPLATES_MAP_RENDERER_H_

#include <cairo.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "templates/map_layout.h"
#include "templates/map_style.h"
#include "templates/png_writer.h"
#include "templates/status.h"

namespace pbem::templates {

// Words by key ("map.turn" -> "Tour {turn} sur {turns}").
using MapWords = std::map<std::string, std::string, std::less<>>;

struct RenderOptions {
  // Centre-to-corner size of a hex in pixels (an explicit size is clamped to 4..200); 0
  // picks 32, or less for a map so wide that the image would exceed max_image_width (never
  // below 12). Labels inside hexes and unit ids are left out below 16.
  double hex_size = 0;
  int max_image_width = 2400;
  // A small CCRR label in every hex (the edges always carry column and row numbers).
  bool labels_in_every_hex = true;
  // Each unit's id (what orders name) under its counter.
  bool unit_ids = true;
  bool elevation_shading = true;
  bool title = true;
  bool legend = true;
  // Threads drawing the image, each a horizontal band of it; 0 picks 2 for images of a
  // million pixels or more (on two cores or more), else 1. Any number gives the same pixels.
  int threads = 0;
  // Keep the static layer of the map (terrain, hexsides, roads, labels: what every turn of
  // a game draws the same) in a process-wide cache of the last few, and copy it in when the
  // map, the forts' holders and the image geometry are the same. Same pixels either way;
  // off: always drawn.
  bool reuse_static_layer = true;
  // Draw what `turn_events` show (see RenderMap). Off: the state alone.
  bool draw_events = true;
  // Replaces the scenario title in the title band when not empty.
  std::string title_text;
  // Put before the title when not empty: the game the map belongs to.
  std::string game_id;
  // The player-turn the events show ("Turn 3 of 12 · Blue played · Orange to move"). When
  // unset, read from the events' end-of-turn event; without either the title tells the
  // state's turn and side to move.
  std::optional<int> turn_played;
  std::optional<engine::Side> side_played;
  // The words of the title and legend in the player's language (the mail templates' words
  // table, MailTemplates::Words): "map.*" keys, "terrain.<name>", "arg.<arm>", "side.<side>",
  // "level.<level>"; null or a missing key: English. Must outlive RenderMap.
  const MapWords* words = nullptr;
};

// A rendered map: an opaque RGB24 cairo image surface and the layout it was drawn with.
class MapImage {
 public:
  MapImage() = default;

  int width() const { return layout_ ? layout_->image_width() : 0; }
  int height() const { return layout_ ? layout_->image_height() : 0; }
  // REQUIRES: a successful RenderMap filled this image.
  const MapLayout& layout() const { return *layout_; }
  cairo_surface_t* surface() const { return surface_.get(); }
  // The colour of one pixel. REQUIRES: 0 <= x < width(), 0 <= y < height().
  Rgb PixelAt(int x, int y) const;

  // True when the static layer came from the cache (RenderOptions::reuse_static_layer).
  bool static_layer_reused() const { return static_layer_reused_; }
  // Events of the turn that were drawn, and those whose kind has no drawing yet.
  int events_drawn() const { return events_drawn_; }
  int events_not_drawn() const { return events_not_drawn_; }
  // The legend's entries in order (entry i is drawn in layout().LegendItem(i)); empty
  // without a legend.
  const std::vector<std::string>& legend_labels() const { return legend_labels_; }
  // Where the labels of the turn's events (combat odds, charge outcomes) were put, in order:
  // off every counter whenever a place within about two hexes of the arrow allows it.
  const std::vector<Box>& event_label_boxes() const { return event_label_boxes_; }

 private:
  friend Status RenderMap(const engine::Ruleset&, const engine::Scenario&, const engine::GameState&,
                          const std::vector<engine::Event>*, const RenderOptions&, MapImage*);
  struct SurfaceDeleter {
    void operator()(cairo_surface_t* s) const { cairo_surface_destroy(s); }
  };
  // Declared before surface_, so destroyed after it: the surface draws into this memory.
  std::unique_ptr<unsigned char, void (*)(void*)> pixels_{nullptr, nullptr};
  std::unique_ptr<cairo_surface_t, SurfaceDeleter> surface_;
  std::shared_ptr<const MapLayout> layout_;
  bool static_layer_reused_ = false;
  int events_drawn_ = 0;
  int events_not_drawn_ = 0;
  std::vector<std::string> legend_labels_;
  std::vector<Box> event_label_boxes_;
};

// The layout RenderMap uses for these inputs (image size, where each hex and counter goes).
MapLayout ComputeMapLayout(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const std::vector<engine::Event>* turn_events,
                           const RenderOptions& options);

// Draws `state` on the scenario's map. `turn_events` (may be null) is the event log of the
// player-turn that led to `state` (templates/turn_events.h reads it):
//   - moves: an arrow along each unit's path, from a dashed outline where it started; a
//     move stopped short (enemy ZoC, marsh, a refused step) gets a red "no entry" mark;
//   - charges: a double-headed arrow in the charger's colour, "broke" or "held";
//   - bombardments and reaction fire: a dashed (dotted) line from the battery to a burst at
//     the target, filled for a hit, ringed for a double hit, open for a miss;
//   - combats: a red arrow from the attacker to the defender with "odds · die · att/def";
//   - retreats (dashed) and advances (dotted) in the unit's colour;
//   - eliminated units: a crossed-out ghost at their last hex (their counter is gone);
//   - losses: a red "−N" tag (MV + CS lost) on the unit's counter;
// each kind with its legend entry, and the turn played in the title. Events of these kinds
// that cannot be read (unknown unit, hex off the map) are counted in events_not_drawn().
// Fails (without throwing) when the state does not belong to the scenario or the image
// would be too large for cairo. REQUIRES: out != nullptr.
Status RenderMap(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                 const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                 const RenderOptions& options, MapImage* out);

// Forgets the static layers RenderMap keeps (RenderOptions::reuse_static_layer) and the hex
// stamps it shares between renders.
void ClearStaticLayerCache();

// RenderMap followed by EncodePng.
Status RenderMapPng(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                    const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                    const RenderOptions& options, const PngOptions& png_options,
                    std::vector<std::uint8_t>* png);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_MAP_RENDERER_H_
