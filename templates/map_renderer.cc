#include "templates/map_renderer.h"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>

#include "engine/morne_plaine/victory.h"
#include "templates/terrain_glyphs.h"
#include "templates/text_batch.h"
#include "templates/turn_events.h"

namespace pbem::templates {

namespace {

using engine::Arm;
using engine::Direction;
using engine::Event;
using engine::EventKind;
using engine::Hex;
using engine::Hexside;
using engine::Side;
using engine::UnitId;

constexpr double kPi = 3.14159265358979323846;
constexpr double kDefaultHexSize = 32.0;
constexpr double kMinHexSize = 12.0;
constexpr double kMaxHexSize = 200.0;
// cairo's limit for an image side.
constexpr int kMaxImageSide = 32767;
// Below this hex size the per-hex CCRR labels would be too small to read.
constexpr double kMinHexSizeForHexLabels = 16.0;
constexpr double kTitleHeight = 34.0;
constexpr double kLegendItemWidth = 210.0;
constexpr double kLegendRowHeight = 22.0;
// An eliminated unit's ghost under a counter is pushed left by this part of its width.
constexpr double kGhostShift = 0.45;
// Places tried for an event's label (both sides of its arrow, stepping out by a tenth of a
// hex): about two hexes out before giving up.
constexpr int kLabelTries = 40;

void SetRgb(cairo_t* cr, Rgb c, double alpha = 1.0) {
  cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, alpha);
}

Point Lerp(Point a, Point b, double t) { return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t}; }
// The unit vector from a to b. REQUIRES: a != b.
Point Unit(Point a, Point b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double len = std::sqrt(dx * dx + dy * dy);
  return {dx / len, dy / len};
}
Point Add(Point a, Point d, double k) { return {a.x + d.x * k, a.y + d.y * k}; }

// The hex outline, optionally shrunk towards its centre.
void AddHexPath(cairo_t* cr, const MapLayout& layout, Hex hex, double scale = 1.0) {
  const Point c = layout.Centre(hex);
  const auto corners = layout.Corners(hex);
  for (std::size_t k = 0; k < 6; ++k) {
    const Point p = scale == 1.0 ? corners[k] : Lerp(c, corners[k], scale);
    if (k == 0) {
      cairo_move_to(cr, p.x, p.y);
    } else {
      cairo_line_to(cr, p.x, p.y);
    }
  }
  cairo_close_path(cr);
}

// A hex of the given size at an arbitrary point (legend swatches).
void AddSmallHexPath(cairo_t* cr, Point c, double size) {
  static constexpr std::array<Point, 6> kUnit{{{0.0, -1.0},
                                               {kSqrt3 / 2, -0.5},
                                               {kSqrt3 / 2, 0.5},
                                               {0.0, 1.0},
                                               {-kSqrt3 / 2, 0.5},
                                               {-kSqrt3 / 2, -0.5}}};
  cairo_move_to(cr, c.x + kUnit[0].x * size, c.y + kUnit[0].y * size);
  for (std::size_t k = 1; k < 6; ++k)
    cairo_line_to(cr, c.x + kUnit[k].x * size, c.y + kUnit[k].y * size);
  cairo_close_path(cr);
}

std::string Capitalised(std::string_view text) {
  std::string out(text);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 32);
  return out;
}

std::string Humanised(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

// A word of the map in the player's language: `words` (RenderOptions::words) at `key`, else
// the English given; "{name}" in it is replaced by the values given.
std::string MapWord(const MapWords* words, std::string_view key, std::string english,
                    std::initializer_list<std::pair<std::string_view, std::string>> values = {}) {
  std::string text = std::move(english);
  if (words != nullptr) {
    if (const auto it = words->find(key); it != words->end()) text = it->second;
  }
  for (const auto& [name, value] : values) {
    const std::string tag = "{" + std::string(name) + "}";
    for (std::size_t at = text.find(tag); at != std::string::npos;
         at = text.find(tag, at + value.size())) {
      text.replace(at, tag.size(), value);
    }
  }
  return text;
}

std::string TwoDigits(int n) {
  std::string s = std::to_string(n);
  if (s.size() < 2) s.insert(0, 2 - s.size(), '0');
  return s;
}

std::string_view VictoryLevelWords(engine::VictoryLevel level) {
  switch (level) {
    case engine::VictoryLevel::kDraw:
      return "draw";
    case engine::VictoryLevel::kMinor:
      return "minor victory";
    case engine::VictoryLevel::kTactical:
      return "tactical victory";
    case engine::VictoryLevel::kMajor:
      return "major victory";
    case engine::VictoryLevel::kTotal:
      return "total victory";
  }
  return "";
}

double AutoHexSize(const engine::Scenario& scenario, const RenderOptions& options) {
  if (options.hex_size > 0) return std::clamp(options.hex_size, 4.0, kMaxHexSize);
  const double columns = scenario.map.width() + (scenario.map.height() > 1 ? 0.5 : 0.0);
  // About 60 pixels go to the margins and padding; keep the result on a half-pixel step.
  const double fit = (options.max_image_width - 60) / (kSqrt3 * columns);
  const double size = std::floor(std::min(kDefaultHexSize, fit) * 2) / 2;
  return std::max(kMinHexSize, size);
}

// ---- Legend -----------------------------------------------------------------------------

enum class LegendKind : std::uint8_t {
  kTerrain,
  kLevel,
  kWater,
  kCrossing,
  kSlope,
  kRoad,
  kTrack,
  kObjective,
  kCounterKey,
  kArm,
  kCorps,
  kMoveArrow,
  kStop,
  kCharge,
  kBombard,
  kReactionFire,
  kCombat,
  kRetreat,
  kAdvance,
  kEliminated,
  kLoss,
};

struct LegendEntry {
  LegendKind kind;
  int value = 0;  // terrain index, level, water, crossing, slope count, arm, corps index
  Side side = Side::kBlue;
  std::string label;
};

// The corps of each side in scenario order (the strip colour is the rank).
struct CorpsIndex {
  std::vector<std::string> names[2];

  int Rank(Side side, const std::string& corps) const {
    const auto& v = names[static_cast<int>(side)];
    return static_cast<int>(std::find(v.begin(), v.end(), corps) - v.begin());
  }
};

CorpsIndex IndexCorps(const engine::Scenario& scenario) {
  CorpsIndex index;
  for (const engine::UnitSpec& u : scenario.units) {
    auto& v = index.names[static_cast<int>(u.side)];
    if (std::find(v.begin(), v.end(), u.corps) == v.end()) v.push_back(u.corps);
  }
  return index;
}

std::vector<LegendEntry> BuildLegend(const engine::Ruleset& ruleset,
                                     const engine::Scenario& scenario, const CorpsIndex& corps,
                                     const TurnDrawing& turn, const MapWords* words) {
  const auto say = [words](std::string_view key, std::string english) {
    return MapWord(words, key, std::move(english));
  };
  const engine::Map& map = scenario.map;
  std::vector<bool> terrain_used(ruleset.terrain.size(), false);
  std::vector<int> levels;
  bool water[4] = {false, false, false, false};
  bool crossing[3] = {false, false, false};
  bool slope[4] = {false, false, false, false};
  for (Hex hex : map.AllHexes()) {
    const engine::TerrainId t = map.terrain(hex);
    if (t.valid() && t.index() < terrain_used.size()) terrain_used[t.index()] = true;
    const int level = map.level(hex);
    if (level != 0 && std::find(levels.begin(), levels.end(), level) == levels.end()) {
      levels.push_back(level);
    }
    for (Direction dir : {Direction::kNE, Direction::kE, Direction::kSE}) {
      if (!map.Contains(engine::Neighbor(hex, dir))) continue;
      const Hexside side = engine::SideOf(hex, dir);
      const engine::HexsideInfo info = map.side(side);
      water[static_cast<int>(info.water)] = true;
      crossing[static_cast<int>(info.crossing)] = true;
      slope[std::min(3, map.SlopeCount(side))] = true;
    }
  }
  std::sort(levels.begin(), levels.end());

  std::vector<LegendEntry> out;
  for (std::size_t i = 0; i < ruleset.terrain.size(); ++i) {
    if (terrain_used[i]) {
      out.push_back(
          {LegendKind::kTerrain, static_cast<int>(i), Side::kBlue,
           say("terrain." + ruleset.terrain[i].name, Humanised(ruleset.terrain[i].name))});
    }
  }
  for (int level : levels) {
    out.push_back({LegendKind::kLevel, level, Side::kBlue,
                   MapWord(words, level > 0 ? "map.high_ground" : "map.low_ground",
                           level > 0 ? "high ground, level {level}" : "low ground, level {level}",
                           {{"level", std::to_string(level)}})});
  }
  static constexpr const char* kWaterNames[4] = {"", "stream", "river", "major river"};
  for (int w = 1; w < 4; ++w) {
    if (water[w]) {
      out.push_back({LegendKind::kWater, w, Side::kBlue,
                     say("map.water." + std::to_string(w), kWaterNames[w])});
    }
  }
  if (crossing[static_cast<int>(engine::Crossing::kBridge)]) {
    out.push_back({LegendKind::kCrossing, static_cast<int>(engine::Crossing::kBridge), Side::kBlue,
                   say("map.bridge", "bridge")});
  }
  if (crossing[static_cast<int>(engine::Crossing::kFord)]) {
    out.push_back({LegendKind::kCrossing, static_cast<int>(engine::Crossing::kFord), Side::kBlue,
                   say("map.ford", "ford")});
  }
  static constexpr const char* kSlopeNames[4] = {"", "slope, 1 level (ticks downhill)",
                                                 "steep slope, 2 levels", "cliff, 3 levels"};
  for (int n = 1; n < 4; ++n) {
    if (slope[n]) {
      out.push_back({LegendKind::kSlope, n, Side::kBlue,
                     say("map.slope." + std::to_string(n), kSlopeNames[n])});
    }
  }
  bool road = false;
  bool track = false;
  for (const engine::Route& r : map.routes()) (r.track ? track : road) = true;
  if (road) out.push_back({LegendKind::kRoad, 0, Side::kBlue, say("map.road", "road")});
  if (track) out.push_back({LegendKind::kTrack, 0, Side::kBlue, say("map.track", "track")});
  if (!scenario.objectives.empty()) {
    out.push_back(
        {LegendKind::kObjective, 0, Side::kBlue, say("map.objective", "objective, holder, VP")});
  }
  if (!scenario.units.empty()) {
    out.push_back(
        {LegendKind::kCounterKey, 0, Side::kBlue,
         say("map.counter", "CS \xe2\x86\x99 MV \xe2\x86\x97 MA \xe2\x86\x98 BV \xe2\x86\x96")});
  }
  bool arms[4] = {false, false, false, false};
  for (const engine::UnitSpec& u : scenario.units) arms[static_cast<int>(u.arm)] = true;
  for (int a = 0; a < 4; ++a) {
    if (arms[a]) {
      out.push_back({LegendKind::kArm, a, Side::kBlue,
                     say("arg." + std::string(engine::ArmName(static_cast<Arm>(a))),
                         std::string(engine::ArmName(static_cast<Arm>(a))))});
    }
  }
  for (Side side : {Side::kBlue, Side::kOrange}) {
    const auto& names = corps.names[static_cast<int>(side)];
    for (std::size_t i = 0; i < names.size(); ++i) {
      out.push_back({LegendKind::kCorps, static_cast<int>(i), side,
                     names[i].empty() ? say("map.no_corps", "(no corps)") : names[i]});
    }
  }
  // The turn's events: one entry per kind of mark the map shows.
  const auto add = [&](bool present, LegendKind kind, std::string_view key, const char* label) {
    if (present) out.push_back({kind, 0, Side::kBlue, say("map." + std::string(key), label)});
  };
  const auto any_fire = [&](bool reaction) {
    return std::any_of(turn.fire.begin(), turn.fire.end(),
                       [&](const FireMark& f) { return f.reaction == reaction; });
  };
  const auto any_forced = [&](bool advance) {
    return std::any_of(turn.forced.begin(), turn.forced.end(),
                       [&](const ForcedMove& f) { return f.advance == advance; });
  };
  add(!turn.moves.empty(), LegendKind::kMoveArrow, "moved", "moved (from dashed box)");
  add(!turn.stops.empty(), LegendKind::kStop, "stopped", "move stopped short");
  add(!turn.charges.empty(), LegendKind::kCharge, "charge", "charge: broke / held");
  add(any_fire(false), LegendKind::kBombard, "bombardment", "bombardment (filled: hit)");
  add(any_fire(true), LegendKind::kReactionFire, "reaction_fire", "reaction fire (filled: hit)");
  add(!turn.combats.empty(), LegendKind::kCombat, "combat",
      "combat: odds \xc2\xb7 die \xc2\xb7 att/def");
  add(any_forced(false), LegendKind::kRetreat, "retreat", "retreat");
  add(any_forced(true), LegendKind::kAdvance, "advance", "advance after combat");
  add(!turn.ghosts.empty(), LegendKind::kEliminated, "eliminated", "eliminated");
  add(!turn.losses.empty(), LegendKind::kLoss, "lost", "MV + CS lost");
  return out;
}

LayoutParams MakeLayoutParams(const engine::Scenario& scenario, const RenderOptions& options,
                              std::size_t legend_items) {
  LayoutParams params;
  params.hex_size = AutoHexSize(scenario, options);
  params.title_height = options.title ? kTitleHeight : 0;
  params.legend_items = options.legend ? static_cast<int>(legend_items) : 0;
  params.legend_item_width = kLegendItemWidth;
  params.legend_row_height = kLegendRowHeight;
  return params;
}

// ---- Cache keys and hex stamps shared between renders -----------------------------------

// Keys written out in full: everything a cached drawing depends on, as bytes.
void AppendBytes(std::string* key, const void* data, std::size_t n) {
  key->append(static_cast<const char*>(data), n);
}
void AppendInt(std::string* key, long long v) { AppendBytes(key, &v, sizeof v); }
void AppendDouble(std::string* key, double v) { AppendBytes(key, &v, sizeof v); }
void AppendString(std::string* key, const std::string& v) {
  AppendInt(key, static_cast<long long>(v.size()));
  key->append(v);
}

// A hex stamp's pixels (ARGB32), kept between renders and shared by the band threads: each
// painter wraps them in its own cairo surface (only read, never drawn into), so no cairo or
// pixman object crosses threads.
struct StampPixels {
  int width = 0;
  int height = 0;
  int stride = 0;
  std::vector<unsigned char> data;
};

// Stamps by key (hex geometry, colour, glyph and its variant, level, fort holder). A few
// dozen per map and hex size, about 8 KB each at the default size; cleared when it holds
// more than kMaxEntries.
class StampCache {
 public:
  static constexpr std::size_t kMaxEntries = 4096;

  std::shared_ptr<const StampPixels> Find(const std::string& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }

  void Insert(const std::string& key, std::shared_ptr<const StampPixels> stamp) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() >= kMaxEntries) entries_.clear();
    entries_.emplace(key, std::move(stamp));
  }

  void Clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const StampPixels>> entries_;
};

StampCache& Stamps() {
  static StampCache cache;
  return cache;
}

// ---- The painter ------------------------------------------------------------------------

class Painter {
  struct SurfaceDeleter {
    void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
  };
  using StampSurface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

 public:
  Painter(cairo_t* cr, const MapLayout& layout, const engine::Ruleset& ruleset,
          const engine::Scenario& scenario, const engine::GameState& state,
          const RenderOptions& options, const CorpsIndex& corps, const TurnDrawing& turn)
      : cr_(cr),
        layout_(layout),
        ruleset_(ruleset),
        scenario_(scenario),
        map_(scenario.map),
        state_(state),
        options_(options),
        corps_(corps),
        turn_(turn),
        s_(layout.hex_size()) {
    hexes_ = map_.AllHexes();
  }

  void Background() {
    SetRgb(cr_, kPaperColour);
    cairo_paint(cr_);
  }

  // The paper above and below the map band (the band itself comes from a cached layer).
  void BackgroundOutsideMapBand() {
    const int top = layout_.map_band_top();
    const int bottom = layout_.map_band_bottom();
    cairo_rectangle(cr_, 0, 0, layout_.image_width(), top);
    cairo_rectangle(cr_, 0, bottom, layout_.image_width(), layout_.image_height() - bottom);
    SetRgb(cr_, kPaperColour);
    cairo_fill(cr_);
  }

  void Title() {
    const Box& box = layout_.title_box();
    if (box.h <= 0) return;
    std::string left = options_.title_text;
    if (left.empty()) left = !scenario_.title.empty() ? scenario_.title : scenario_.name;
    if (!options_.game_id.empty()) left = options_.game_id + " \xc2\xb7 " + left;
    std::string right;
    // The player-turn the events show: given, or read from the log's end-of-turn event.
    const std::optional<int> played_turn =
        options_.turn_played ? options_.turn_played : turn_.turn_played;
    const std::optional<Side> played_side =
        options_.side_played ? options_.side_played : turn_.side_played;
    const MapWords* w = options_.words;
    const auto side_word = [&](Side side) {
      return Capitalised(MapWord(w, "side." + std::string(engine::SideName(side)),
                                 std::string(engine::SideName(side))));
    };
    const auto turn_of = [&](int turn) {
      return MapWord(w, "map.turn", "Turn {turn} of {turns}",
                     {{"turn", std::to_string(turn)}, {"turns", std::to_string(scenario_.turns)}});
    };
    if (played_turn && played_side) {
      right = turn_of(*played_turn) + " \xc2\xb7 " +
              MapWord(w, "map.played", "{side} played", {{"side", side_word(*played_side)}}) +
              " \xc2\xb7 ";
    }
    if (state_.finished) {
      const engine::GameOutcome& o = state_.outcome;
      right += MapWord(w, "map.game_over", "Game over") + " \xc2\xb7 ";
      right +=
          o.winner
              ? MapWord(
                    w, "map.wins", "{side} wins, {level}",
                    {{"side", side_word(*o.winner)},
                     {"level", MapWord(w, "level." + std::string(engine::VictoryLevelName(o.level)),
                                       std::string(VictoryLevelWords(o.level)))}})
              : MapWord(w, "level.draw", "draw");
      right += " \xc2\xb7 " + MapWord(w, "map.vp", "VP") + " " + std::to_string(o.vp_blue) +
               "\xe2\x80\x93" + std::to_string(o.vp_orange);
    } else if (played_turn && played_side) {
      right +=
          MapWord(w, "map.to_move", "{side} to move", {{"side", side_word(state_.side_to_move)}});
    } else {
      right =
          turn_of(state_.turn) + " \xc2\xb7 " +
          MapWord(w, "map.to_move", "{side} to move", {{"side", side_word(state_.side_to_move)}});
    }
    TextBatch big(fonts_, true, 19);
    TextBatch small(fonts_, false, 14);
    const double base = box.y + box.h * 0.5 + 6;
    const double right_w = small.Width(right);
    big.Add(FitText(big, left, box.w - right_w - 24), {box.x + 4, base}, Align::kLeft);
    small.Add(right, {box.right() - 4, base}, Align::kRight);
    big.Flush(cr_, kInkColour);
    small.Flush(cr_, kInkColour);
    // The side to move gets its colour as a bar under the title.
    const Rgb bar = state_.finished ? Rgb{0x88, 0x88, 0x88} : SideColour(state_.side_to_move);
    SetRgb(cr_, bar);
    cairo_rectangle(cr_, box.x, box.bottom() - 4, box.w, 3);
    cairo_fill(cr_);
  }

  // Terrain fills, elevation, the hex grid and the terrain glyphs. Filling thousands of
  // hexes and stroking their sides costs far more than everything else together, so the
  // map outline is filled once in the grid colour and each hex is then copied from a small
  // stamp (terrain colour, elevation tint and glyph, shrunk by half a grid line) drawn once
  // per kind: the grid colour left between the stamps is the grid. The layout gives every
  // hex centre the same sub-pixel phase, so a copied stamp is pixel for pixel the hex
  // drawn in place.
  void Terrain() {
    const std::vector<Point> outline = layout_.Outline();
    for (std::size_t i = 0; i < outline.size(); ++i) {
      if (i == 0) {
        cairo_move_to(cr_, outline[i].x, outline[i].y);
      } else {
        cairo_line_to(cr_, outline[i].x, outline[i].y);
      }
    }
    cairo_close_path(cr_);
    SetRgb(cr_, kGridColour);
    cairo_fill_preserve(cr_);
    cairo_set_line_width(cr_, GridLine());
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_MITER);
    SetRgb(cr_, kMapBorderColour);
    cairo_stroke(cr_);

    std::vector<TerrainGlyph> glyphs;
    for (const engine::TerrainType& t : ruleset_.terrain) glyphs.push_back(GlyphForTerrain(t.name));
    // A band thread skips the hexes whose stamp lies wholly outside its rows (cairo would
    // clip them away anyway; this saves the calls).
    double clip_x0 = 0;
    double clip_y0 = 0;
    double clip_x1 = 0;
    double clip_y1 = 0;
    cairo_clip_extents(cr_, &clip_x0, &clip_y0, &clip_x1, &clip_y1);
    const double reach = s_ + 2;  // the stamp's rows: centre -ceil(s)-1 .. +ceil(s)+2
    for (Hex hex : hexes_) {
      const double cy = layout_.Centre(hex).y;
      if (cy + reach + 1 < clip_y0 || cy - reach - 1 > clip_y1) continue;
      HexStampKey key{};
      key.terrain = TerrainIndex(hex);
      key.level = options_.elevation_shading ? std::clamp(map_.level(hex), -3, 3) : 0;
      const TerrainGlyph glyph =
          key.terrain < glyphs.size() ? glyphs[key.terrain] : TerrainGlyph::kNone;
      if (glyph != TerrainGlyph::kNone) key.variant = 1 + GlyphSeed(hex) % kStampVariants;
      if (glyph == TerrainGlyph::kFort) {
        const auto it = state_.fort_owners.find(hex);
        key.fort_owner = it == state_.fort_owners.end() ? 0 : 1 + static_cast<int>(it->second);
      }
      CopyStamp(key, layout_.Centre(hex));
    }
  }

  void Hexsides() {
    struct CrossingAt {
      Hex a;
      Hex b;
      engine::Crossing kind;
      engine::Water water;
    };
    std::vector<Segment> water[4];
    std::vector<CrossingAt> crossings;
    std::vector<std::pair<Hexside, int>> slopes;
    for (Hex hex : hexes_) {
      for (Direction dir : {Direction::kNE, Direction::kE, Direction::kSE}) {
        const Hex other = engine::Neighbor(hex, dir);
        if (!map_.Contains(other)) continue;
        const Hexside side = engine::SideOf(hex, dir);
        const engine::HexsideInfo info = map_.side(side);
        if (info.water != engine::Water::kNone) {
          water[static_cast<int>(info.water)].push_back(layout_.Side(hex, dir));
        }
        if (info.crossing != engine::Crossing::kNone) {
          crossings.push_back({hex, other, info.crossing, info.water});
        }
        const int n = map_.SlopeCount(side);
        if (n > 0) slopes.emplace_back(side, std::min(n, 3));
      }
    }

    SlopeMarks(slopes);

    cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    for (int w = 1; w < 4; ++w) {
      if (water[w].empty()) continue;
      for (const Segment& seg : water[w]) {
        cairo_move_to(cr_, seg.a.x, seg.a.y);
        cairo_line_to(cr_, seg.b.x, seg.b.y);
      }
      SetRgb(cr_, WaterColour(w));
      cairo_set_line_width(cr_, WaterWidth(w));
      cairo_stroke(cr_);
    }
    for (const CrossingAt& c : crossings) {
      const Point pa = layout_.Centre(c.a);
      const Point pb = layout_.Centre(c.b);
      const Point u = Unit(pa, pb);
      const Point m = layout_.SideMidpoint(c.a, c.b);
      CrossingSymbol(c.kind, m, u, static_cast<int>(c.water), s_);
    }
  }

  void Routes() {
    cairo_save(cr_);
    const Box& g = layout_.grid_box();
    cairo_rectangle(cr_, g.x, g.y, g.w, g.h);
    cairo_clip(cr_);
    cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    // Tracks first so that roads pass over them at junctions.
    bool any_track = false;
    for (const engine::Route& r : map_.routes()) {
      if (r.track) any_track |= RoutePath(r.hexes);
    }
    if (any_track) {
      const double dash[2] = {s_ * 0.24, s_ * 0.14};
      cairo_set_dash(cr_, dash, 2, 0);
      SetRgb(cr_, kTrackColour);
      cairo_set_line_width(cr_, std::max(1.3, s_ * 0.075));
      cairo_stroke(cr_);
      cairo_set_dash(cr_, nullptr, 0, 0);
    }
    bool any_road = false;
    for (const engine::Route& r : map_.routes()) {
      if (!r.track) any_road |= RoutePath(r.hexes);
    }
    if (any_road) {
      SetRgb(cr_, kRoadCasingColour);
      cairo_set_line_width(cr_, std::max(3.0, s_ * 0.22));
      cairo_stroke_preserve(cr_);
      SetRgb(cr_, kRoadFillColour);
      cairo_set_line_width(cr_, std::max(1.6, s_ * 0.12));
      cairo_stroke(cr_);
    }
    cairo_restore(cr_);
  }

  void Objectives() {
    struct Badge {
      Hex hex;
      int vp_blue;
      int vp_orange;
    };
    std::map<int, std::vector<Hex>> rings;  // 0 blue, 1 orange, 2 nobody
    std::vector<Badge> badges;
    for (const engine::Objective& o : scenario_.objectives) {
      bool first = true;
      for (Hex hex : o.hexes) {
        if (!map_.Contains(hex)) continue;
        const auto it = state_.objective_owners.find(hex);
        rings[it == state_.objective_owners.end() ? 2 : static_cast<int>(it->second)].push_back(
            hex);
        if (first) badges.push_back({hex, o.vp_blue, o.vp_orange});
        first = false;
      }
    }
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    for (const auto& [owner, hexes] : rings) {
      for (Hex hex : hexes) AddHexPath(cr_, layout_, hex, 0.84);
      SetRgb(cr_, {0xff, 0xff, 0xff}, 0.85);
      cairo_set_line_width(cr_, s_ * 0.17);
      cairo_stroke_preserve(cr_);
      SetRgb(cr_, owner == 2 ? kNeutralObjectiveColour : SideColour(static_cast<Side>(owner)));
      cairo_set_line_width(cr_, s_ * 0.1);
      cairo_stroke(cr_);
    }
    TextBatch digits(fonts_, true, s_ * 0.21);
    const double r = s_ * 0.135;
    for (Side side : {Side::kBlue, Side::kOrange}) {
      for (const Badge& b : badges) {
        const Point p = BadgeCentre(b.hex, side);
        cairo_new_sub_path(cr_);
        cairo_arc(cr_, p.x, p.y, r, 0, 2 * kPi);
        digits.AddMiddle(std::to_string(side == Side::kBlue ? b.vp_blue : b.vp_orange), p,
                         Align::kCentre);
      }
      SetRgb(cr_, SideColour(side));
      cairo_fill_preserve(cr_);
      SetRgb(cr_, {0xff, 0xff, 0xff});
      cairo_set_line_width(cr_, std::max(1.0, s_ * 0.035));
      cairo_stroke(cr_);
      digits.Flush(cr_, CounterInkColour(side));
    }
  }

  // The CCRR label in every hex but the objectives' (static: part of the cached layer), or
  // in the objectives' hexes only (drawn after their rings, which would cover a corner of
  // the label).
  void HexLabels(bool objective_hexes) {
    if (!options_.labels_in_every_hex || s_ < kMinHexSizeForHexLabels) return;
    std::set<Hex> objectives;
    for (const engine::Objective& o : scenario_.objectives) {
      objectives.insert(o.hexes.begin(), o.hexes.end());
    }
    TextBatch dark(fonts_, false, layout_.hex_label_size());
    TextBatch light(fonts_, false, layout_.hex_label_size());
    for (Hex hex : hexes_) {
      if (objectives.count(hex) != (objective_hexes ? 1u : 0u)) continue;
      const bool on_dark = Luma(TerrainColour(TerrainIndex(hex))) < 110;
      (on_dark ? light : dark)
          .Add(engine::FormatLabel(hex), layout_.HexLabelAnchor(hex), Align::kCentre);
    }
    dark.Flush(cr_, {0x2a, 0x2a, 0x2a}, 0.75);
    light.Flush(cr_, {0xf4, 0xf4, 0xf0}, 0.85);
  }

  // Column and row numbers around the map.
  void EdgeLabels() {
    TextBatch edge(fonts_, false, layout_.edge_label_size());
    for (int col = 0; col < map_.width(); ++col) {
      for (bool top : {true, false}) {
        edge.AddMiddle(TwoDigits(col + 1), layout_.ColumnLabelAnchor(col, top), Align::kCentre);
      }
    }
    for (int row = 0; row < map_.height(); ++row) {
      for (bool left : {true, false}) {
        edge.AddMiddle(TwoDigits(row + 1), layout_.RowLabelAnchor(row, left), Align::kCentre);
      }
    }
    edge.Flush(cr_, {0x55, 0x55, 0x55});
  }

  void MoveArrows(const std::vector<MovePath>& moves) {
    const std::set<Hex> occupied = OccupiedHexes();
    for (const MovePath& m : moves) {
      const Side side = scenario_.unit(m.unit).side;
      const Rgb colour = SideColour(side);
      // Where the unit started: a dashed outline of its counter (around the counter that
      // stands there now, after the counters: CoveredMoveStarts).
      if (occupied.count(m.hexes.front()) == 0) {
        const Box start = layout_.CounterBox(m.hexes.front());
        const double dash[2] = {3, 2};
        cairo_set_dash(cr_, dash, 2, 0);
        cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);  // square dashes, whatever came before
        cairo_rectangle(cr_, start.x + 1, start.y + 1, start.w - 2, start.h - 2);
        SetRgb(cr_, {0xff, 0xff, 0xff}, 0.6);
        cairo_fill_preserve(cr_);
        SetRgb(cr_, colour);
        cairo_set_line_width(cr_, 1.6);
        cairo_stroke(cr_);
        cairo_set_dash(cr_, nullptr, 0, 0);
      }

      // The path through the hex centres, stopping short of the final counter.
      std::vector<Point> pts;
      for (Hex h : m.hexes) pts.push_back(layout_.Centre(h));
      const Point last = pts.back();
      const Point prev = pts[pts.size() - 2];
      const Point u = Unit(prev, last);
      const Point tip = Add(last, u, -s_ * 0.58);
      const double head = s_ * 0.32;
      const Point base = Add(tip, u, -head);
      const Point v{-u.y, u.x};
      pts.back() = base;

      cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
      cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
      for (int pass = 0; pass < 2; ++pass) {
        cairo_move_to(cr_, pts[0].x, pts[0].y);
        for (std::size_t i = 1; i < pts.size(); ++i) cairo_line_to(cr_, pts[i].x, pts[i].y);
        SetRgb(cr_, pass == 0 ? Rgb{0xff, 0xff, 0xff} : colour, pass == 0 ? 0.9 : 1.0);
        cairo_set_line_width(cr_, pass == 0 ? s_ * 0.2 : s_ * 0.1);
        cairo_stroke(cr_);
      }
      const Point l = Add(base, v, head * 0.6);
      const Point r = Add(base, v, -head * 0.6);
      cairo_move_to(cr_, tip.x, tip.y);
      cairo_line_to(cr_, l.x, l.y);
      cairo_line_to(cr_, r.x, r.y);
      cairo_close_path(cr_);
      SetRgb(cr_, colour);
      cairo_fill_preserve(cr_);
      SetRgb(cr_, {0xff, 0xff, 0xff}, 0.9);
      cairo_set_line_width(cr_, std::max(1.0, s_ * 0.04));
      cairo_stroke(cr_);
    }
  }

  // ---- The turn's events ------------------------------------------------------------------

  // Eliminated units: a pale ghost of the counter with a dashed outline in the side's
  // colour, crossed out, at the last hex the unit held. Drawn under the counters; when a unit
  // stands in that hex (the winner advanced into it), the ghost is pushed left, half out
  // from under its counter, so that the elimination still shows where it happened.
  void Ghosts() {
    const std::set<Hex> occupied = OccupiedHexes();
    for (const Ghost& g : turn_.ghosts) {
      Box b = layout_.CounterBox(g.hex);
      if (occupied.count(g.hex) != 0) b.x -= std::round(b.w * kGhostShift);
      GhostSymbol(b, scenario_.unit(g.unit).side);
    }
  }

  // The hexes where a counter is drawn.
  std::set<Hex> OccupiedHexes() const {
    std::set<Hex> out;
    for (const engine::UnitState& u : state_.units) {
      if (u.on_map() && map_.Contains(*u.hex)) out.insert(*u.hex);
    }
    return out;
  }

  // The counters' boxes (labels are kept off them).
  std::vector<Box> CounterBoxes() const {
    std::vector<Box> out;
    for (Hex hex : OccupiedHexes()) out.push_back(layout_.CounterBox(hex));
    return out;
  }

  // A move's start where a counter stands now (another unit moved in): the dashed outline
  // drawn after the counters, around the counter, so the counter does not hide it.
  void CoveredMoveStarts(const std::vector<MovePath>& moves) {
    const std::set<Hex> occupied = OccupiedHexes();
    for (const MovePath& m : moves) {
      if (occupied.count(m.hexes.front()) == 0) continue;
      const Box b = layout_.CounterBox(m.hexes.front());
      const double out = 3.5;
      cairo_rectangle(cr_, b.x - out, b.y - out, b.w + 2 * out, b.h + 2 * out);
      const double dash[2] = {3, 2};
      cairo_set_dash(cr_, dash, 2, 0);
      cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);
      SetRgb(cr_, SideColour(scenario_.unit(m.unit).side));
      cairo_set_line_width(cr_, 1.6);
      cairo_stroke(cr_);
      cairo_set_dash(cr_, nullptr, 0, 0);
    }
  }

  // Retreats (dashed) and advances after combat (dotted), in the unit's colour, ending at
  // the edge of its counter.
  void ForcedMoves() {
    for (const ForcedMove& f : turn_.forced) {
      const Rgb colour = SideColour(scenario_.unit(f.unit).side);
      const Point a = layout_.Centre(f.from);
      const Point b = layout_.Centre(f.to);
      if (a.x == b.x && a.y == b.y) continue;
      const Point u = Unit(a, b);
      ArrowStyle style;
      style.colour = colour;
      style.width = std::max(2.0, s_ * 0.085);
      style.halo_width = std::max(1.0, s_ * 0.045);
      style.head = std::max(6.0, s_ * 0.28);
      style.dash = f.advance ? std::vector<double>{1.0, style.width * 1.6}
                             : std::vector<double>{s_ * 0.2, s_ * 0.1};
      style.round_dots = f.advance;
      DrawArrow({a, Add(b, u, -CounterReach(u) - 1)}, style);
    }
  }

  // Everything drawn over the counters: charges, combats, fire, stopped moves, losses, and
  // the labels that go with them.
  void EventMarks() {
    TextBatch labels(fonts_, true, std::max(8.0, s_ * 0.3));
    std::vector<Box> backings;
    const std::vector<Box> counters = CounterBoxes();
    const auto free = [&](const Box& box) {
      const auto overlaps = [&](const Box& o) {
        return box.x < o.right() && o.x < box.right() && box.y < o.bottom() && o.y < box.bottom();
      };
      return std::none_of(counters.begin(), counters.end(), overlaps) &&
             std::none_of(backings.begin(), backings.end(), overlaps);
    };
    const auto label = [&](const std::string& text, Point mid, Point u, double clearance) {
      // Beside the arrow: offset across it, on its upper side first; moved further out, then
      // to the other side, until it covers no counter and no other label (else where it
      // started).
      Point v{-u.y, u.x};
      if (v.y > 0 || (v.y == 0 && v.x > 0)) v = {-v.x, -v.y};
      const double h = std::max(8.0, s_ * 0.3) * 1.25;
      const double w = labels.Width(text) + 6;
      const double off = clearance + h / 2 + 1;
      const auto box_at = [&](Point across, double extra) {
        const Point c = Add(mid, across, off + extra + std::abs(across.x) * (w / 2 - h / 2));
        return Box{std::round(c.x - w / 2), std::round(c.y - h / 2), std::round(w), std::round(h)};
      };
      Box box = box_at(v, 0);
      const double step = std::max(2.0, s_ * 0.1);
      bool placed = free(box);
      for (int k = 1; !placed && k < kLabelTries; ++k) {
        const Point side = k % 2 == 0 ? v : Point{-v.x, -v.y};
        const Box candidate = box_at(side, step * (k / 2));
        if (free(candidate)) {
          box = candidate;
          placed = true;
        }
      }
      backings.push_back(box);
      labels.Add(text, {box.centre().x, box.y + h * 0.78}, Align::kCentre);
    };

    for (const ChargeMark& c : turn_.charges) {
      const auto span = Span(c.from, c.target);
      if (!span) continue;
      const auto [a, b, u, reach] = *span;
      ArrowStyle style;
      style.colour = SideColour(scenario_.unit(c.charger).side);
      style.width = std::max(3.0, s_ * 0.14);
      style.halo = {0x10, 0x10, 0x10};
      style.halo_width = std::max(1.0, s_ * 0.035);
      style.head = std::max(6.0, s_ * 0.26);
      style.heads = 2;
      DrawArrow({Add(a, u, reach * 0.55), Add(b, u, -reach * 0.55)}, style);
      if (c.outcome != ChargeMark::Outcome::kUnknown) {
        label(c.outcome == ChargeMark::Outcome::kBroke
                  ? MapWord(options_.words, "map.broke", "broke")
                  : MapWord(options_.words, "map.held", "held"),
              Lerp(a, b, 0.5), u, style.width);
      }
    }

    for (const CombatMark& c : turn_.combats) {
      const auto span = Span(c.from, c.at);
      if (!span) continue;
      const auto [a, b, u, reach] = *span;
      ArrowStyle style;
      style.colour = kCombatColour;
      style.width = std::max(2.5, s_ * 0.11);
      style.halo_width = std::max(1.0, s_ * 0.045);
      style.head = std::max(6.0, s_ * 0.26);
      DrawArrow({Add(a, u, reach - 2), Add(b, u, -reach + 1)}, style);
      label(c.odds + " \xc2\xb7 " + std::to_string(c.die) + " \xc2\xb7 " + c.result,
            Lerp(a, b, 0.5), u, style.width);
    }

    for (const FireMark& f : turn_.fire) {
      const auto span = Span(f.from, f.at);
      if (!span) continue;
      const auto [a, b, u, reach] = *span;
      const double r = std::max(5.0, s_ * 0.22);
      const Point burst = Add(b, u, -reach - r * 0.4);
      FireLine(Add(a, u, reach), Add(burst, u, -r), f.reaction);
      Burst(burst, r, f.hits);
    }

    for (const StopMark& m : turn_.stops) {
      const Box b = layout_.CounterBox(m.hex);
      StopSymbol({b.x, b.y}, std::max(4.5, s_ * 0.17));
    }

    if (!turn_.losses.empty()) {
      TextBatch tags(fonts_, true, std::max(7.0, s_ * 0.26));
      std::vector<Box> boxes;
      for (const LossMark& l : turn_.losses) {
        const engine::UnitState& us = state_.unit(l.unit);
        if (!us.on_map() || !map_.Contains(*us.hex)) continue;  // the cross tells it
        const Box b = layout_.CounterBox(*us.hex);
        const std::string text = "\xe2\x88\x92" + std::to_string(l.mv + l.cs);
        const double h = std::max(7.0, s_ * 0.26) * 1.2;
        const double w = tags.Width(text) + 4;
        const Box tag{std::round(b.right() - w / 2), std::round(b.y - h / 2), std::round(w),
                      std::round(h)};
        boxes.push_back(tag);
        tags.Add(text, {tag.centre().x, tag.y + h * 0.8}, Align::kCentre);
      }
      for (const Box& t : boxes) cairo_rectangle(cr_, t.x, t.y, t.w, t.h);
      SetRgb(cr_, kLossColour);
      cairo_fill(cr_);
      tags.Flush(cr_, {0xff, 0xff, 0xff});
    }

    if (placed_labels_ != nullptr) *placed_labels_ = backings;
    for (const Box& b : backings) cairo_rectangle(cr_, b.x + 0.5, b.y + 0.5, b.w - 1, b.h - 1);
    SetRgb(cr_, {0xff, 0xff, 0xf4}, 0.9);
    cairo_fill_preserve(cr_);
    SetRgb(cr_, {0x40, 0x40, 0x40}, 0.8);
    cairo_set_line_width(cr_, 1);
    cairo_stroke(cr_);
    labels.Flush(cr_, kInkColour);
  }

  void Counters() {
    struct Placed {
      std::size_t index;
      Box box;
    };
    std::vector<Placed> placed;
    for (std::size_t i = 0; i < state_.units.size(); ++i) {
      const engine::UnitState& u = state_.units[i];
      if (!u.on_map() || !map_.Contains(*u.hex)) continue;
      placed.push_back({i, layout_.CounterBox(*u.hex)});
    }
    if (placed.empty()) return;
    const double w = placed.front().box.w;
    const double strip = std::round(w * kStripHeight);

    // Shadows, bodies, strips, borders: one path per colour.
    for (const Placed& p : placed) {
      cairo_rectangle(cr_, p.box.x + 1.5, p.box.y + 1.5, p.box.w, p.box.h);
    }
    SetRgb(cr_, {0, 0, 0}, 0.35);
    cairo_fill(cr_);
    for (Side side : {Side::kBlue, Side::kOrange}) {
      for (const Placed& p : placed) {
        if (scenario_.units[p.index].side == side) {
          cairo_rectangle(cr_, p.box.x, p.box.y, p.box.w, p.box.h);
        }
      }
      SetRgb(cr_, SideColour(side));
      cairo_fill(cr_);
    }
    std::map<std::pair<int, int>, std::vector<Box>> strips;
    for (const Placed& p : placed) {
      const engine::UnitSpec& spec = scenario_.units[p.index];
      strips[{static_cast<int>(spec.side), corps_.Rank(spec.side, spec.corps)}].push_back(
          Box{p.box.x, p.box.y, p.box.w, strip});
    }
    for (const auto& [key, boxes] : strips) {
      for (const Box& b : boxes) cairo_rectangle(cr_, b.x, b.y, b.w, b.h);
      SetRgb(cr_, CorpsStripColour(static_cast<Side>(key.first), key.second));
      cairo_fill(cr_);
    }
    for (const Placed& p : placed) {
      cairo_move_to(cr_, p.box.x, p.box.y + strip + 0.5);
      cairo_line_to(cr_, p.box.right(), p.box.y + strip + 0.5);
      cairo_rectangle(cr_, p.box.x + 0.5, p.box.y + 0.5, p.box.w - 1, p.box.h - 1);
    }
    SetRgb(cr_, {0x10, 0x10, 0x10}, 0.85);
    cairo_set_line_width(cr_, 1.0);
    cairo_stroke(cr_);

    // Arm symbols and values, in each side's ink; values below their printed strength
    // (losses, demoralisation) stand out in a warning colour.
    TextBatch values(fonts_, true, w * kValueFont);
    TextBatch warnings(fonts_, true, w * kValueFont);
    for (Side side : {Side::kBlue, Side::kOrange}) {
      for (const Placed& p : placed) {
        const engine::UnitSpec& spec = scenario_.units[p.index];
        if (spec.side != side) continue;
        const engine::UnitState& u = state_.units[p.index];
        AddArmSymbol(spec.arm, p.box);
        const double left = p.box.x + w * kValueInset;
        const double right = p.box.right() - w * kValueInset;
        const double top = p.box.y + w * kTopRow;
        const double bottom = p.box.y + w * kBottomRow;
        (u.cs < spec.cs ? warnings : values)
            .AddMiddle(std::to_string(u.cs), {left, bottom}, Align::kLeft);
        values.AddMiddle(std::to_string(spec.ma), {right, bottom}, Align::kRight);
        if (spec.arm == Arm::kArtillery && spec.bv > 0) {
          values.AddMiddle(std::to_string(spec.bv), {left, top}, Align::kLeft);
        }
        if (spec.is_leader()) {
          AddCommandStripes(spec.command_radius, {right, top}, w);
        } else {
          (u.demoralised() ? warnings : values)
              .AddMiddle(std::to_string(u.mv), {right, top}, Align::kRight);
        }
      }
      const Rgb ink = CounterInkColour(side);
      SetRgb(cr_, ink);
      cairo_set_line_width(cr_, std::max(1.0, std::round(w * 0.04)));
      cairo_set_line_join(cr_, CAIRO_LINE_JOIN_MITER);
      cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);
      cairo_stroke(cr_);
      // Filled parts (artillery dot, leader star, stripes) were queued as a second path.
      AddQueuedFills();
      SetRgb(cr_, ink);
      cairo_fill(cr_);
      values.Flush(cr_, ink);
      warnings.Flush(cr_, side == Side::kBlue ? Rgb{0xff, 0xe1, 0x4d} : Rgb{0x8a, 0x00, 0x00});
    }

    // The unit ids orders refer to, under the counters, on a pale backing for legibility.
    if (options_.unit_ids && s_ >= kMinHexSizeForHexLabels) {
      TextBatch ids(fonts_, true, layout_.unit_label_size());
      for (const Placed& p : placed) {
        const engine::UnitSpec& spec = scenario_.units[p.index];
        const Point at = layout_.UnitLabelAnchor(*state_.units[p.index].hex);
        const double width = ids.Width(spec.id);
        const double h = layout_.unit_label_size();
        cairo_rectangle(cr_, std::round(at.x - width / 2 - 2), std::round(at.y - h * 0.85),
                        std::round(width + 4), std::round(h * 1.1));
        ids.Add(spec.id, at, Align::kCentre);
      }
      SetRgb(cr_, {0xff, 0xff, 0xf4}, 0.78);
      cairo_fill(cr_);
      ids.Flush(cr_, {0x1a, 0x1a, 0x1a});
    }
  }

  void Legend(const std::vector<LegendEntry>& entries) {
    const Box& box = layout_.legend_box();
    if (box.h <= 0 || entries.empty()) return;
    SetRgb(cr_, {0x99, 0x99, 0x99});
    cairo_rectangle(cr_, box.x, box.y - 5, box.w, 1);
    cairo_fill(cr_);
    TextBatch text(fonts_, false, 11);
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const Box item = layout_.LegendItem(static_cast<int>(i));
      const Box symbol{item.x + 2, item.y + 3, 34, item.h - 6};
      LegendSymbol(entries[i], symbol);
      text.AddMiddle(FitText(text, entries[i].label, item.w - 46),
                     {item.x + 42, item.y + item.h / 2}, Align::kLeft);
    }
    text.Flush(cr_, kInkColour);
  }

  // Where EventMarks puts the labels, told to `out` (one painter of the bands tells it).
  void TellLabelBoxes(std::vector<Box>* out) { placed_labels_ = out; }

 private:
  std::vector<Box>* placed_labels_ = nullptr;
  struct ArrowStyle {
    Rgb colour;
    double width = 2;
    Rgb halo{0xff, 0xff, 0xff};
    double halo_width = 0;  // on each side of the line; 0: none
    double head = 8;        // length of the head
    int heads = 1;          // 2: a double chevron (charges)
    std::vector<double> dash;
    bool round_dots = false;  // round caps (dotted lines)
  };

  // An arrow along `pts` whose head's tip is pts.back(). REQUIRES: two points or more, the
  // last two distinct.
  void DrawArrow(std::vector<Point> pts, const ArrowStyle& st) {
    const Point tip = pts.back();
    const Point u = Unit(pts[pts.size() - 2], tip);
    const Point v{-u.y, u.x};
    const double back = st.head * (st.heads == 2 ? 1.5 : 1.0) * 0.8;
    pts.back() = Add(tip, u, -back);
    const auto path = [&] {
      cairo_move_to(cr_, pts[0].x, pts[0].y);
      for (std::size_t i = 1; i < pts.size(); ++i) cairo_line_to(cr_, pts[i].x, pts[i].y);
    };
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
    if (st.halo_width > 0) {
      path();
      cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
      SetRgb(cr_, st.halo, 0.9);
      cairo_set_line_width(cr_, st.width + 2 * st.halo_width);
      cairo_stroke(cr_);
    }
    path();
    if (!st.dash.empty()) cairo_set_dash(cr_, st.dash.data(), static_cast<int>(st.dash.size()), 0);
    cairo_set_line_cap(cr_, st.round_dots ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
    SetRgb(cr_, st.colour);
    cairo_set_line_width(cr_, st.width);
    cairo_stroke(cr_);
    cairo_set_dash(cr_, nullptr, 0, 0);
    for (int i = 0; i < st.heads; ++i) {
      const Point t = Add(tip, u, -i * st.head * 0.5);
      const Point base = Add(t, u, -st.head);
      const Point l = Add(base, v, st.head * 0.6);
      const Point r = Add(base, v, -st.head * 0.6);
      cairo_move_to(cr_, t.x, t.y);
      cairo_line_to(cr_, l.x, l.y);
      cairo_line_to(cr_, r.x, r.y);
      cairo_close_path(cr_);
    }
    SetRgb(cr_, st.colour);
    cairo_fill_preserve(cr_);
    SetRgb(cr_, st.halo, 0.9);
    cairo_set_line_width(cr_, std::max(1.0, st.halo_width * 0.8));
    cairo_stroke(cr_);
  }

  // Two hex centres, the unit vector between them and how far the counters reach along it.
  struct HexSpan {
    Point a;
    Point b;
    Point u;
    double reach;
  };
  std::optional<HexSpan> Span(Hex from, Hex to) const {
    if (from == to) return std::nullopt;
    const Point a = layout_.Centre(from);
    const Point b = layout_.Centre(to);
    const Point u = Unit(a, b);
    return HexSpan{a, b, u, CounterReach(u)};
  }

  // How far from a hex centre, in direction u (a unit vector), the counter's edge is.
  double CounterReach(Point u) const {
    const double half = layout_.CounterBox(Hex{0, 0}).w / 2;
    const double ax = std::abs(u.x);
    const double ay = std::abs(u.y);
    return std::min(ax > 1e-9 ? half / ax : 1e9, ay > 1e-9 ? half / ay : 1e9);
  }

  void GhostSymbol(const Box& b, Side side) {
    cairo_rectangle(cr_, b.x + 1, b.y + 1, b.w - 2, b.h - 2);
    SetRgb(cr_, {0xff, 0xff, 0xff}, 0.55);
    cairo_fill_preserve(cr_);
    const double dash[2] = {3, 2};
    cairo_set_dash(cr_, dash, 2, 0);
    cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);
    SetRgb(cr_, SideColour(side));
    cairo_set_line_width(cr_, 1.6);
    cairo_stroke(cr_);
    cairo_set_dash(cr_, nullptr, 0, 0);
    const double inset = b.w * 0.14;
    cairo_move_to(cr_, b.x + inset, b.y + inset);
    cairo_line_to(cr_, b.right() - inset, b.bottom() - inset);
    cairo_move_to(cr_, b.right() - inset, b.y + inset);
    cairo_line_to(cr_, b.x + inset, b.bottom() - inset);
    SetRgb(cr_, kEliminatedColour);
    cairo_set_line_width(cr_, std::max(2.0, b.w * 0.1));
    cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
    cairo_stroke(cr_);
  }

  // Bombardment (dashed) or reaction fire (dotted) from a to b.
  void FireLine(Point a, Point b, bool reaction) {
    const double w = std::max(1.5, s_ * 0.06);
    cairo_move_to(cr_, a.x, a.y);
    cairo_line_to(cr_, b.x, b.y);
    cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
    SetRgb(cr_, {0xff, 0xff, 0xff}, 0.85);
    cairo_set_line_width(cr_, w + 2);
    cairo_stroke(cr_);
    cairo_move_to(cr_, a.x, a.y);
    cairo_line_to(cr_, b.x, b.y);
    const double dash[2] = {reaction ? 0.5 : s_ * 0.22, reaction ? w * 2.2 : s_ * 0.1};
    cairo_set_dash(cr_, dash, 2, 0);
    cairo_set_line_cap(cr_, reaction ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
    SetRgb(cr_, kFireColour);
    cairo_set_line_width(cr_, w);
    cairo_stroke(cr_);
    cairo_set_dash(cr_, nullptr, 0, 0);
  }

  // A burst: filled for a hit (ringed for a double hit), open for a miss.
  void Burst(Point c, double r, int hits) {
    for (int k = 0; k < 16; ++k) {
      // 8 points: every 22.5 degrees, alternately on the outer and the inner radius.
      static constexpr std::array<Point, 16> kDirs{{{0.0, -1.0},
                                                    {0.3826834324, -0.9238795325},
                                                    {0.7071067812, -0.7071067812},
                                                    {0.9238795325, -0.3826834324},
                                                    {1.0, 0.0},
                                                    {0.9238795325, 0.3826834324},
                                                    {0.7071067812, 0.7071067812},
                                                    {0.3826834324, 0.9238795325},
                                                    {0.0, 1.0},
                                                    {-0.3826834324, 0.9238795325},
                                                    {-0.7071067812, 0.7071067812},
                                                    {-0.9238795325, 0.3826834324},
                                                    {-1.0, 0.0},
                                                    {-0.9238795325, -0.3826834324},
                                                    {-0.7071067812, -0.7071067812},
                                                    {-0.3826834324, -0.9238795325}}};
      const double radius = k % 2 == 0 ? r : r * 0.5;
      const Point p = Add(c, kDirs[static_cast<std::size_t>(k)], radius);
      if (k == 0) {
        cairo_move_to(cr_, p.x, p.y);
      } else {
        cairo_line_to(cr_, p.x, p.y);
      }
    }
    cairo_close_path(cr_);
    SetRgb(cr_, hits > 0 ? kFireColour : Rgb{0xff, 0xff, 0xff});
    cairo_fill_preserve(cr_);
    SetRgb(cr_, hits > 0 ? Rgb{0xff, 0xff, 0xff} : kFireColour);
    cairo_set_line_width(cr_, std::max(1.0, r * 0.15));
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_MITER);
    cairo_stroke(cr_);
    if (hits > 1) {
      cairo_new_sub_path(cr_);
      cairo_arc(cr_, c.x, c.y, r * 1.3, 0, 2 * kPi);
      SetRgb(cr_, kFireColour);
      cairo_set_line_width(cr_, std::max(1.2, r * 0.2));
      cairo_stroke(cr_);
    }
  }

  // A "no entry" sign: a red disc with a white bar.
  void StopSymbol(Point c, double r) {
    cairo_new_sub_path(cr_);
    cairo_arc(cr_, c.x, c.y, r, 0, 2 * kPi);
    SetRgb(cr_, kStopColour);
    cairo_fill_preserve(cr_);
    SetRgb(cr_, {0xff, 0xff, 0xff});
    cairo_set_line_width(cr_, 1);
    cairo_stroke(cr_);
    cairo_rectangle(cr_, c.x - r * 0.62, c.y - r * 0.2, r * 1.24, r * 0.4);
    cairo_fill(cr_);
  }

  std::size_t TerrainIndex(Hex hex) const {
    const engine::TerrainId t = map_.terrain(hex);
    return t.valid() && t.index() < ruleset_.terrain.size() ? t.index() : ruleset_.terrain.size();
  }

  Rgb TerrainColour(std::size_t index) const {
    if (index >= ruleset_.terrain.size()) return kUnknownTerrainColour;
    return ParseHexColour(ruleset_.terrain[index].colour).value_or(kUnknownTerrainColour);
  }

  double GridLine() const { return std::max(1.0, s_ * 0.035); }

  struct HexStampKey {
    std::size_t terrain = 0;  // ruleset index; ruleset_.terrain.size() for unknown
    int level = 0;
    std::uint32_t variant = 0;  // 0: no glyph; else 1 + the glyph's jitter variant
    int fort_owner = 0;         // 0: nobody; else 1 + Side
    friend bool operator==(const HexStampKey&, const HexStampKey&) = default;
  };

  // Copies the stamp for `key` so that its hex is centred on `centre`.
  void CopyStamp(const HexStampKey& key, Point centre) {
    const int hw = static_cast<int>(layout_.hex_width() / 2);
    const int top = static_cast<int>(std::ceil(s_)) + 1;
    auto it = std::find_if(stamps_.begin(), stamps_.end(),
                           [&](const auto& entry) { return entry.key == key; });
    if (it == stamps_.end()) {
      stamps_.push_back(SharedStamp(key, hw, top));
      it = stamps_.end() - 1;
    }
    const double x = centre.x - hw - 1;
    const double y = std::floor(centre.y + 1e-6) - top;
    cairo_set_source_surface(cr_, it->surface.get(), x, y);
    cairo_rectangle(cr_, x, y, 2 * hw + 2, 2 * top + 2);
    cairo_fill(cr_);
  }

  // The stamp for `key` from the process-wide cache (drawn and kept on first use), wrapped
  // in a surface of this painter's own.
  struct UsedStamp {
    HexStampKey key;
    std::shared_ptr<const StampPixels> pixels;
    StampSurface surface;
  };
  UsedStamp SharedStamp(const HexStampKey& key, int hw, int top) {
    std::string cache_key;
    AppendDouble(&cache_key, s_);
    AppendDouble(&cache_key, layout_.centre_phase_y());
    AppendInt(&cache_key, hw);
    AppendInt(&cache_key, top);
    const Rgb colour = TerrainColour(key.terrain);
    AppendInt(&cache_key, (colour.r << 16) | (colour.g << 8) | colour.b);
    AppendInt(&cache_key, key.variant > 0 ? static_cast<int>(
                                                GlyphForTerrain(ruleset_.terrain[key.terrain].name))
                                          : -1);
    AppendInt(&cache_key, key.level);
    AppendInt(&cache_key, key.variant);
    AppendInt(&cache_key, key.fort_owner);
    std::shared_ptr<const StampPixels> pixels = Stamps().Find(cache_key);
    if (!pixels) {
      const StampSurface drawn = MakeStamp(key, hw, top);
      cairo_surface_flush(drawn.get());
      auto made = std::make_shared<StampPixels>();
      made->width = cairo_image_surface_get_width(drawn.get());
      made->height = cairo_image_surface_get_height(drawn.get());
      made->stride = cairo_image_surface_get_stride(drawn.get());
      const unsigned char* data = cairo_image_surface_get_data(drawn.get());
      made->data.assign(data, data + static_cast<std::size_t>(made->stride) * made->height);
      Stamps().Insert(cache_key, made);
      pixels = std::move(made);
    }
    // Read only: cairo never writes to a surface that is only a source.
    StampSurface surface(cairo_image_surface_create_for_data(
        const_cast<unsigned char*>(pixels->data.data()), CAIRO_FORMAT_ARGB32, pixels->width,
        pixels->height, pixels->stride));
    return UsedStamp{key, std::move(pixels), std::move(surface)};
  }

  StampSurface MakeStamp(const HexStampKey& key, int hw, int top) {
    cairo_surface_t* surface =
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 2 * hw + 2, 2 * top + 2);
    cairo_t* cr = cairo_create(surface);
    const Point c{hw + 1.0, top + layout_.centre_phase_y()};
    // The hex shrunk by half a grid line (measured across its vertical sides).
    const double inner = 1.0 - GridLine() / 2 / hw;
    const Hex h0{0, 0};
    const Point c0 = layout_.Centre(h0);
    const auto corners = layout_.Corners(h0);
    for (std::size_t k = 0; k < 6; ++k) {
      const double x = c.x + (corners[k].x - c0.x) * inner;
      const double y = c.y + (corners[k].y - c0.y) * inner;
      if (k == 0) {
        cairo_move_to(cr, x, y);
      } else {
        cairo_line_to(cr, x, y);
      }
    }
    cairo_close_path(cr);
    SetRgb(cr, TerrainColour(key.terrain));
    if (key.level != 0) {
      cairo_fill_preserve(cr);
      SetElevationTint(cr, key.level);
    }
    cairo_fill(cr);
    if (key.variant > 0) {
      const TerrainGlyph glyph = GlyphForTerrain(ruleset_.terrain[key.terrain].name);
      AddGlyphPath(cr, glyph, c, s_, (key.variant - 1) * 2654435761u);
      if (key.fort_owner > 0) {
        const Rgb fill = SideColour(static_cast<Side>(key.fort_owner - 1));
        PaintGlyphPath(cr, glyph, s_, &fill);
      } else {
        PaintGlyphPath(cr, glyph, s_);
      }
    }
    cairo_destroy(cr);
    return StampSurface(surface);
  }

  static void SetElevationTint(cairo_t* cr, int level) {
    if (level > 0) {
      SetRgb(cr, {0x8a, 0x55, 0x1c}, std::min(0.5, 0.14 * level));
    } else {
      SetRgb(cr, {0x30, 0x50, 0x80}, std::min(0.4, 0.1 * -level));
    }
  }

  Rgb WaterColour(int water) const {
    return water == 1 ? kStreamColour : water == 2 ? kRiverColour : kMajorRiverColour;
  }

  double WaterWidth(int water) const {
    if (water == 1) return std::max(1.6, s_ * 0.09);
    if (water == 2) return std::max(2.6, s_ * 0.17);
    return std::max(4.0, s_ * 0.3);
  }

  // A bridge or ford across a hexside: `m` is the side's midpoint, `u` the unit vector from
  // one hex centre to the other (the way a unit crosses).
  void CrossingSymbol(engine::Crossing kind, Point m, Point u, int water, double s) {
    const Point v{-u.y, u.x};
    const double half_len = kind == engine::Crossing::kBridge ? s * 0.32 : s * 0.27;
    const double half_w = kind == engine::Crossing::kBridge ? s * 0.15 : s * 0.2;
    const Point corners[4] = {
        Add(Add(m, u, -half_len), v, -half_w), Add(Add(m, u, half_len), v, -half_w),
        Add(Add(m, u, half_len), v, half_w), Add(Add(m, u, -half_len), v, half_w)};
    cairo_move_to(cr_, corners[0].x, corners[0].y);
    for (int i = 1; i < 4; ++i) cairo_line_to(cr_, corners[i].x, corners[i].y);
    cairo_close_path(cr_);
    if (kind == engine::Crossing::kBridge) {
      SetRgb(cr_, {0xd9, 0xc9, 0xa3});
      cairo_fill(cr_);
      // The parapets along both long sides.
      cairo_move_to(cr_, corners[0].x, corners[0].y);
      cairo_line_to(cr_, corners[1].x, corners[1].y);
      cairo_move_to(cr_, corners[3].x, corners[3].y);
      cairo_line_to(cr_, corners[2].x, corners[2].y);
      SetRgb(cr_, {0x2e, 0x22, 0x16});
      cairo_set_line_width(cr_, std::max(1.2, s * 0.06));
      cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
      cairo_stroke(cr_);
    } else {
      SetRgb(cr_, {0xe8, 0xd5, 0x9c});
      cairo_fill_preserve(cr_);
      const double dash[2] = {std::max(1.5, s * 0.07), std::max(1.0, s * 0.05)};
      cairo_set_dash(cr_, dash, 2, 0);
      SetRgb(cr_, water == 0 ? kStreamColour : WaterColour(water));
      cairo_set_line_width(cr_, std::max(1.0, s * 0.05));
      cairo_stroke(cr_);
      cairo_set_dash(cr_, nullptr, 0, 0);
    }
  }

  void SlopeMarks(const std::vector<std::pair<Hexside, int>>& slopes) {
    for (int n = 1; n <= 3; ++n) {
      bool any = false;
      for (const auto& [side, count] : slopes) {
        if (count != n) continue;
        any = true;
        const auto [a, b] = engine::Sides(side);
        const bool a_high = map_.level(a) > map_.level(b);
        const Hex high = a_high ? a : b;
        const Hex low = a_high ? b : a;
        const auto dir = engine::DirectionTo(high, low);
        const Segment seg = layout_.Side(high, *dir);
        const Point ph = layout_.Centre(high);
        const Point pl = layout_.Centre(low);
        const Point down = Unit(ph, pl);
        AddSlopeSymbol(seg, down, n, s_);
      }
      if (!any) continue;
      SetRgb(cr_, kSlopeColour);
      cairo_set_line_width(cr_, std::max(1.0, s_ * (0.03 + 0.015 * n)));
      cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);
      cairo_stroke(cr_);
    }
  }

  // The edge line and `n` ticks in each of three groups, pointing downhill.
  void AddSlopeSymbol(const Segment& seg, Point down, int n, double s) {
    cairo_move_to(cr_, seg.a.x, seg.a.y);
    cairo_line_to(cr_, seg.b.x, seg.b.y);
    const Point along = Unit(seg.a, seg.b);
    const double tick = s * (n == 1 ? 0.14 : 0.18);
    for (double t : {0.2, 0.5, 0.8}) {
      const Point p = Lerp(seg.a, seg.b, t);
      for (int j = 0; j < n; ++j) {
        const Point q = Add(p, along, (j - (n - 1) / 2.0) * s * 0.075);
        const Point e = Add(q, down, tick);
        cairo_move_to(cr_, q.x, q.y);
        cairo_line_to(cr_, e.x, e.y);
      }
    }
  }

  // Adds a smooth path through the route's hex centres; a route ending on the map edge runs
  // on to the edge. Returns false when there is nothing to draw.
  bool RoutePath(const std::vector<Hex>& hexes) {
    if (hexes.size() < 2) return false;
    std::vector<Point> pts;
    pts.reserve(hexes.size() + 2);
    for (Hex h : hexes) pts.push_back(layout_.Centre(h));
    const auto extend = [&](Point end, Point before) {
      const Point out = Add(end, Unit(before, end), s_ * 1.2);
      return layout_.HexAt(out) ? std::optional<Point>() : std::optional<Point>(out);
    };
    if (const auto head = extend(pts[0], pts[1])) pts.insert(pts.begin(), *head);
    if (const auto tail = extend(pts.back(), pts[pts.size() - 2])) pts.push_back(*tail);

    cairo_move_to(cr_, pts[0].x, pts[0].y);
    Point from = Lerp(pts[0], pts[1], 0.5);
    cairo_line_to(cr_, from.x, from.y);
    for (std::size_t i = 1; i + 1 < pts.size(); ++i) {
      const Point to = Lerp(pts[i], pts[i + 1], 0.5);
      // A quadratic curve with control point at the hex centre, as a cubic.
      const Point c1 = Lerp(from, pts[i], 2.0 / 3.0);
      const Point c2 = Lerp(to, pts[i], 2.0 / 3.0);
      cairo_curve_to(cr_, c1.x, c1.y, c2.x, c2.y, to.x, to.y);
      from = to;
    }
    cairo_line_to(cr_, pts.back().x, pts.back().y);
    return true;
  }

  Point BadgeCentre(Hex hex, Side side) const {
    const Point c = layout_.Centre(hex);
    return {c.x + s_ * 0.72, c.y + (side == Side::kBlue ? -0.15 : 0.15) * s_};
  }

  // Queues the NATO-style arm symbol: lines on the current path, filled parts in fills_.
  // Counter layout, in counter widths: the corps strip on top, then a row with BV (left)
  // and MV (right), the arm symbol in the middle, CS (left) and MA (right) at the bottom.
  static constexpr double kStripHeight = 0.17;
  static constexpr double kTopRow = 0.34;
  static constexpr double kSymbolRow = 0.575;
  static constexpr double kBottomRow = 0.82;
  static constexpr double kValueInset = 0.1;
  static constexpr double kValueFont = 0.3;

  void AddArmSymbol(Arm arm, const Box& box) {
    const double w = box.w;
    const double cx = box.x + w / 2;
    const double cy = box.y + w * kSymbolRow;
    if (arm == Arm::kLeader) {
      const double ro = w * 0.17;
      const double ri = ro * 0.42;
      fills_.push_back({FillShape::kStar, cx, cy, ro, ri});
      return;
    }
    const double hw = std::round(w * 0.22);
    const double hh = std::round(w * 0.13);
    const double x0 = std::round(cx - hw) + 0.5;
    const double y0 = std::round(cy - hh) + 0.5;
    const double x1 = x0 + 2 * hw;
    const double y1 = y0 + 2 * hh;
    cairo_rectangle(cr_, x0, y0, x1 - x0, y1 - y0);
    switch (arm) {
      case Arm::kInfantry:
        cairo_move_to(cr_, x0, y0);
        cairo_line_to(cr_, x1, y1);
        cairo_move_to(cr_, x0, y1);
        cairo_line_to(cr_, x1, y0);
        break;
      case Arm::kCavalry:
        cairo_move_to(cr_, x0, y1);
        cairo_line_to(cr_, x1, y0);
        break;
      case Arm::kArtillery: {
        const double r = std::max(1.2, hh * 0.55);
        fills_.push_back({FillShape::kDot, x0 + hw, y0 + hh, r, 0});
        break;
      }
      case Arm::kLeader:
        break;
    }
  }

  void AddStar(Point c, double outer, double inner) {
    static constexpr std::array<Point, 10> kStar{{{0.0, -1.0},
                                                  {0.5877852523, -0.8090169944},
                                                  {0.9510565163, -0.3090169944},
                                                  {0.9510565163, 0.3090169944},
                                                  {0.5877852523, 0.8090169944},
                                                  {0.0, 1.0},
                                                  {-0.5877852523, 0.8090169944},
                                                  {-0.9510565163, 0.3090169944},
                                                  {-0.9510565163, -0.3090169944},
                                                  {-0.5877852523, -0.8090169944}}};
    // Every 36 degrees from the top: even points on the outer radius, odd on the inner.
    for (std::size_t k = 0; k < kStar.size(); ++k) {
      const double radius = k % 2 == 0 ? outer : inner;
      const Point p{c.x + kStar[k].x * radius, c.y + kStar[k].y * radius};
      if (k == 0) {
        cairo_move_to(cr_, p.x, p.y);
      } else {
        cairo_line_to(cr_, p.x, p.y);
      }
    }
    cairo_close_path(cr_);
  }

  // Adds the queued filled shapes to the current path and forgets them.
  void AddQueuedFills() {
    for (const FillShape& f : fills_) {
      switch (f.kind) {
        case FillShape::kDot:
          cairo_new_sub_path(cr_);
          cairo_arc(cr_, f.x, f.y, f.a, 0, 2 * kPi);
          cairo_close_path(cr_);
          break;
        case FillShape::kStar:
          AddStar(Point{f.x, f.y}, f.a, f.b);
          break;
        case FillShape::kRect:
          cairo_rectangle(cr_, f.x, f.y, f.a, f.b);
          break;
      }
    }
    fills_.clear();
  }

  // Leaders have no MV: their command radius is printed as stripes (digest 1.5).
  void AddCommandStripes(int count, Point right_middle, double w) {
    const int n = std::clamp(count, 0, 4);
    const double len = w * 0.2;
    const double thick = std::max(1.0, std::round(w * 0.05));
    const double gap = thick + std::max(1.0, std::round(w * 0.04));
    const double y0 = std::round(right_middle.y - (n * gap - (gap - thick)) / 2);
    for (int i = 0; i < n; ++i) {
      const double x = std::round(right_middle.x - len);
      const double y = y0 + i * gap;
      fills_.push_back({FillShape::kRect, x, y, len, thick});
    }
  }

  void LegendSymbol(const LegendEntry& e, const Box& box) {
    const Point c = box.centre();
    switch (e.kind) {
      case LegendKind::kTerrain: {
        const double size = box.h * 0.62;
        const auto t = static_cast<std::size_t>(e.value);
        for (double dx : {-size * kSqrt3 / 2, size * kSqrt3 / 2}) {
          AddSmallHexPath(cr_, {c.x + dx, c.y}, size);
        }
        SetRgb(cr_, TerrainColour(t));
        cairo_fill_preserve(cr_);
        SetRgb(cr_, {0x30, 0x30, 0x30}, 0.5);
        cairo_set_line_width(cr_, 1);
        cairo_stroke(cr_);
        const TerrainGlyph glyph = GlyphForTerrain(ruleset_.terrain[t].name);
        for (double dx : {-size * kSqrt3 / 2, size * kSqrt3 / 2}) {
          AddGlyphPath(cr_, glyph, {c.x + dx, c.y}, size, 7);
        }
        PaintGlyphPath(cr_, glyph, size);
        return;
      }
      case LegendKind::kLevel: {
        const double size = box.h * 0.62;
        AddSmallHexPath(cr_, {c.x, c.y}, size);
        SetRgb(cr_, TerrainColour(0));
        cairo_fill_preserve(cr_);
        SetElevationTint(cr_, e.value);
        cairo_fill_preserve(cr_);
        SetRgb(cr_, {0x30, 0x30, 0x30}, 0.5);
        cairo_set_line_width(cr_, 1);
        cairo_stroke(cr_);
        return;
      }
      case LegendKind::kWater:
        cairo_move_to(cr_, box.x + 3, c.y);
        cairo_line_to(cr_, box.right() - 3, c.y);
        SetRgb(cr_, WaterColour(e.value));
        cairo_set_line_width(cr_, WaterWidth(e.value));
        cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
        cairo_stroke(cr_);
        return;
      case LegendKind::kCrossing: {
        const int water = e.value == static_cast<int>(engine::Crossing::kFord) ? 2 : 1;
        cairo_move_to(cr_, box.x + 3, c.y);
        cairo_line_to(cr_, box.right() - 3, c.y);
        SetRgb(cr_, WaterColour(water));
        cairo_set_line_width(cr_, WaterWidth(water));
        cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
        cairo_stroke(cr_);
        CrossingSymbol(static_cast<engine::Crossing>(e.value), c, {0, 1}, water, box.h * 1.1);
        return;
      }
      case LegendKind::kSlope:
        AddSlopeSymbol(Segment{{box.x + 3, c.y - 3}, {box.right() - 3, c.y - 3}}, {0, 1}, e.value,
                       box.w - 6);
        SetRgb(cr_, kSlopeColour);
        cairo_set_line_width(cr_, std::max(1.0, s_ * (0.03 + 0.015 * e.value)));
        cairo_set_line_cap(cr_, CAIRO_LINE_CAP_BUTT);
        cairo_stroke(cr_);
        return;
      case LegendKind::kRoad:
        cairo_move_to(cr_, box.x + 3, c.y);
        cairo_line_to(cr_, box.right() - 3, c.y);
        cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
        SetRgb(cr_, kRoadCasingColour);
        cairo_set_line_width(cr_, std::max(3.0, s_ * 0.22));
        cairo_stroke_preserve(cr_);
        SetRgb(cr_, kRoadFillColour);
        cairo_set_line_width(cr_, std::max(1.6, s_ * 0.12));
        cairo_stroke(cr_);
        return;
      case LegendKind::kTrack: {
        cairo_move_to(cr_, box.x + 3, c.y);
        cairo_line_to(cr_, box.right() - 3, c.y);
        const double dash[2] = {s_ * 0.24, s_ * 0.14};
        cairo_set_dash(cr_, dash, 2, 0);
        SetRgb(cr_, kTrackColour);
        cairo_set_line_width(cr_, std::max(1.3, s_ * 0.075));
        cairo_set_line_cap(cr_, CAIRO_LINE_CAP_ROUND);
        cairo_stroke(cr_);
        cairo_set_dash(cr_, nullptr, 0, 0);
        return;
      }
      case LegendKind::kObjective: {
        const double size = box.h * 0.62;
        AddSmallHexPath(cr_, {c.x - 5, c.y}, size * 0.84);
        SetRgb(cr_, kNeutralObjectiveColour);
        cairo_set_line_width(cr_, 2.5);
        cairo_stroke(cr_);
        TextBatch digits(fonts_, true, 8);
        for (Side side : {Side::kBlue, Side::kOrange}) {
          const Point p{c.x + 10, c.y + (side == Side::kBlue ? -4.5 : 4.5)};
          cairo_new_sub_path(cr_);
          cairo_arc(cr_, p.x, p.y, 4.5, 0, 2 * kPi);
          SetRgb(cr_, SideColour(side));
          cairo_fill(cr_);
          digits.AddMiddle(side == Side::kBlue ? "2" : "1", p, Align::kCentre);
          digits.Flush(cr_, CounterInkColour(side));
        }
        return;
      }
      case LegendKind::kCounterKey:
      case LegendKind::kArm:
      case LegendKind::kCorps: {
        const double w = box.h;
        const Box counter{std::round(c.x - w / 2), std::round(box.y), w, w};
        const Side side = e.kind == LegendKind::kCorps ? e.side : Side::kBlue;
        SetRgb(cr_, SideColour(side));
        cairo_rectangle(cr_, counter.x, counter.y, counter.w, counter.h);
        cairo_fill(cr_);
        const double strip = std::round(w * 0.2);
        SetRgb(cr_, CorpsStripColour(side, e.kind == LegendKind::kCorps ? e.value : 0));
        cairo_rectangle(cr_, counter.x, counter.y, counter.w, strip);
        cairo_fill(cr_);
        SetRgb(cr_, {0x10, 0x10, 0x10}, 0.85);
        cairo_set_line_width(cr_, 1);
        cairo_rectangle(cr_, counter.x + 0.5, counter.y + 0.5, counter.w - 1, counter.h - 1);
        cairo_stroke(cr_);
        if (e.kind == LegendKind::kArm) {
          AddArmSymbol(static_cast<Arm>(e.value), counter);
          SetRgb(cr_, CounterInkColour(side));
          cairo_set_line_width(cr_, 1);
          cairo_stroke(cr_);
          AddQueuedFills();
          cairo_fill(cr_);
        }
        return;
      }
      case LegendKind::kStop:
        StopSymbol({c.x, c.y}, box.h * 0.45);
        return;
      case LegendKind::kCharge:
      case LegendKind::kCombat:
      case LegendKind::kRetreat:
      case LegendKind::kAdvance: {
        ArrowStyle style;
        style.colour = e.kind == LegendKind::kCombat ? kCombatColour : SideColour(Side::kBlue);
        style.width = e.kind == LegendKind::kCharge ? 4 : e.kind == LegendKind::kCombat ? 3 : 2;
        style.halo_width = 1;
        style.head = 8;
        if (e.kind == LegendKind::kCharge) {
          style.halo = {0x10, 0x10, 0x10};
          style.heads = 2;
        }
        if (e.kind == LegendKind::kRetreat) style.dash = {5, 3};
        if (e.kind == LegendKind::kAdvance) {
          style.dash = {1, 3.5};
          style.round_dots = true;
        }
        DrawArrow({{box.x + 3, c.y}, {box.right() - 2, c.y}}, style);
        return;
      }
      case LegendKind::kBombard:
      case LegendKind::kReactionFire: {
        const double r = box.h * 0.38;
        FireLine({box.x + 2, c.y}, {box.right() - 2 * r - 2, c.y},
                 e.kind == LegendKind::kReactionFire);
        Burst({box.right() - r - 1, c.y}, r, 1);
        return;
      }
      case LegendKind::kEliminated: {
        const double w = box.h;
        GhostSymbol(Box{std::round(c.x - w / 2), std::round(box.y), w, w}, Side::kBlue);
        return;
      }
      case LegendKind::kLoss: {
        TextBatch tag(fonts_, true, 9);
        const std::string text =
            "\xe2\x88\x92"
            "1";
        const double w = tag.Width(text) + 4;
        cairo_rectangle(cr_, std::round(c.x - w / 2), std::round(c.y - 6), std::round(w), 12);
        SetRgb(cr_, kLossColour);
        cairo_fill(cr_);
        tag.Add(text, {c.x, c.y + 4}, Align::kCentre);
        tag.Flush(cr_, {0xff, 0xff, 0xff});
        return;
      }
      case LegendKind::kMoveArrow: {
        const Point a{box.x + 3, c.y};
        const Point tip{box.right() - 2, c.y};
        cairo_move_to(cr_, a.x, a.y);
        cairo_line_to(cr_, tip.x - 6, tip.y);
        SetRgb(cr_, SideColour(Side::kBlue));
        cairo_set_line_width(cr_, 3);
        cairo_stroke(cr_);
        cairo_move_to(cr_, tip.x, tip.y);
        cairo_line_to(cr_, tip.x - 8, tip.y - 5);
        cairo_line_to(cr_, tip.x - 8, tip.y + 5);
        cairo_close_path(cr_);
        cairo_fill(cr_);
        return;
      }
    }
  }

  cairo_t* cr_;
  const MapLayout& layout_;
  const engine::Ruleset& ruleset_;
  const engine::Scenario& scenario_;
  const engine::Map& map_;
  const engine::GameState& state_;
  const RenderOptions& options_;
  const CorpsIndex& corps_;
  const TurnDrawing& turn_;
  const double s_;
  std::vector<Hex> hexes_;
  FontSet fonts_;
  // Filled shapes queued while the line parts of the same symbols build the current path:
  // a dot (centre x, y, radius a), a star (centre, outer a, inner b), a rectangle (x, y, w a,
  // h b).
  struct FillShape {
    enum Kind : std::uint8_t { kDot, kStar, kRect } kind;
    double x;
    double y;
    double a;
    double b;
  };
  std::vector<FillShape> fills_;
  // Hex stamps, made on first use.
  static constexpr std::uint32_t kStampVariants = 4;
  std::vector<UsedStamp> stamps_;
};

// ---- The static layer cache ---------------------------------------------------------------
//
// The map band of an image (layout.map_band_top() to map_band_bottom(): the grid and its
// edge labels) after the static steps of the drawing: paper, terrain (with the forts'
// holders), hexsides, roads and tracks, the CCRR labels outside objectives and the edge
// numbers. Every turn of a game draws the same layer, which costs most of the drawing, so
// RenderMap keeps the last few in memory and copies one in when everything it depends on is
// equal. The key is that everything, written out in full (not a hash: two different maps
// can never share a layer).

// A layer of the map band: RGB24 rows of the image's stride.
struct StaticLayer {
  int top = 0;
  int bottom = 0;
  int stride = 0;
  std::unique_ptr<unsigned char[]> pixels;
};

// Everything the static steps read: the layout of the band, the options they use, the
// terrain types (colour, glyph), the map (terrain, levels, hexsides, routes), the
// objectives' hexes (their labels are left out) and the forts' holders.
std::string StaticLayerKey(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const engine::GameState& state, const MapLayout& layout,
                           const RenderOptions& options) {
  std::string key;
  const engine::Map& map = scenario.map;
  for (long long v :
       {static_cast<long long>(layout.image_width()), static_cast<long long>(layout.map_band_top()),
        static_cast<long long>(layout.map_band_bottom()), static_cast<long long>(map.width()),
        static_cast<long long>(map.height()), static_cast<long long>(options.labels_in_every_hex),
        static_cast<long long>(options.elevation_shading)}) {
    AppendInt(&key, v);
  }
  const Box& g = layout.grid_box();
  for (double v : {layout.hex_size(), g.x, g.y, g.w, g.h}) AppendDouble(&key, v);
  AppendInt(&key, static_cast<long long>(ruleset.terrain.size()));
  for (const engine::TerrainType& t : ruleset.terrain) {
    AppendString(&key, t.name);
    AppendString(&key, t.colour);
  }
  for (Hex hex : map.AllHexes()) {
    const engine::TerrainId t = map.terrain(hex);
    AppendInt(&key, t.valid() ? static_cast<long long>(t.index()) : -1);
    AppendInt(&key, map.level(hex));
    for (Direction dir : {Direction::kNE, Direction::kE, Direction::kSE}) {
      if (!map.Contains(engine::Neighbor(hex, dir))) continue;
      const engine::HexsideInfo info = map.side(engine::SideOf(hex, dir));
      AppendInt(&key, static_cast<int>(info.water) * 16 + static_cast<int>(info.crossing));
    }
  }
  AppendInt(&key, static_cast<long long>(map.routes().size()));
  for (const engine::Route& r : map.routes()) {
    AppendInt(&key, r.track ? 1 : 0);
    AppendInt(&key, static_cast<long long>(r.hexes.size()));
    for (Hex h : r.hexes)
      AppendInt(&key, (static_cast<long long>(h.q) << 32) ^ (h.r & 0xffffffffLL));
  }
  for (const engine::Objective& o : scenario.objectives) {
    AppendInt(&key, static_cast<long long>(o.hexes.size()));
    for (Hex h : o.hexes)
      AppendInt(&key, (static_cast<long long>(h.q) << 32) ^ (h.r & 0xffffffffLL));
  }
  AppendInt(&key, static_cast<long long>(state.fort_owners.size()));
  for (const auto& [h, side] : state.fort_owners) {
    AppendInt(&key, (static_cast<long long>(h.q) << 32) ^ (h.r & 0xffffffffLL));
    AppendInt(&key, static_cast<int>(side));
  }
  return key;
}

// The last kCapacity layers used, most recent first. A layer of the 60x40 benchmark map at
// the default size is about 13 MB.
class StaticLayerCache {
 public:
  static constexpr std::size_t kCapacity = 4;

  std::shared_ptr<const StaticLayer> Find(const std::string& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        std::rotate(entries_.begin(), it, it + 1);
        return entries_.front().second;
      }
    }
    return nullptr;
  }

  void Insert(std::string key, std::shared_ptr<const StaticLayer> layer) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.erase(it);
        break;
      }
    }
    entries_.insert(entries_.begin(), {std::move(key), std::move(layer)});
    if (entries_.size() > kCapacity) entries_.resize(kCapacity);
  }

  void Clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::string, std::shared_ptr<const StaticLayer>>> entries_;
};

StaticLayerCache& LayerCache() {
  static StaticLayerCache cache;
  return cache;
}

// Copies rows [max(y0, top), min(y1, bottom)) between an image's pixels and a layer.
void CopyLayerRows(const StaticLayer& layer, int y0, int y1, bool to_layer,
                   unsigned char* image_pixels) {
  const int from = std::max(y0, layer.top);
  const int to = std::min(y1, layer.bottom);
  if (from >= to) return;
  unsigned char* image = image_pixels + static_cast<std::ptrdiff_t>(from) * layer.stride;
  unsigned char* cached =
      layer.pixels.get() + static_cast<std::ptrdiff_t>(from - layer.top) * layer.stride;
  const std::size_t bytes = static_cast<std::size_t>(to - from) * layer.stride;
  if (to_layer) {
    std::memcpy(cached, image, bytes);
  } else {
    std::memcpy(image, cached, bytes);
  }
}

}  // namespace

void ClearStaticLayerCache() {
  LayerCache().Clear();
  Stamps().Clear();
}

namespace {

// How many bands (threads) draw an image: options.threads when given (at most one band per
// 64 rows), else two for an image of a million pixels or more on a machine with two cores or
// more, one otherwise. The bands give the same pixels whatever their number.
int BandCount(const RenderOptions& options, int width, int height) {
  int n = options.threads;
  if (n <= 0) {
    const bool large = static_cast<long long>(width) * height >= 1'000'000;
    n = large && std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  }
  return std::clamp(n, 1, std::max(1, height / 64));
}

// Pixel memory for the image. A map image is several megabytes that are all written at
// once; asking for transparent huge pages turns thousands of page faults into a few (on
// Linux; elsewhere, or if the hint is refused, this is a plain aligned allocation).
std::unique_ptr<unsigned char, void (*)(void*)> AllocatePixels(std::size_t bytes) {
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
#ifdef MADV_HUGEPAGE
  if (p != nullptr) madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return {static_cast<unsigned char*>(p), &std::free};
}

}  // namespace

Rgb MapImage::PixelAt(int x, int y) const {
  cairo_surface_flush(surface_.get());
  const unsigned char* data = cairo_image_surface_get_data(surface_.get());
  const int stride = cairo_image_surface_get_stride(surface_.get());
  std::uint32_t v;
  std::memcpy(&v, data + static_cast<std::ptrdiff_t>(y) * stride + 4 * x, sizeof v);
  return Rgb{static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
             static_cast<std::uint8_t>(v)};
}

MapLayout ComputeMapLayout(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const std::vector<engine::Event>* turn_events,
                           const RenderOptions& options) {
  const TurnDrawing turn =
      options.draw_events ? CollectTurnDrawing(turn_events, scenario) : TurnDrawing{};
  const CorpsIndex corps = IndexCorps(scenario);
  const std::vector<LegendEntry> legend =
      BuildLegend(ruleset, scenario, corps, turn, options.words);
  return MapLayout(scenario.map.width(), scenario.map.height(),
                   MakeLayoutParams(scenario, options, legend.size()));
}

Status RenderMap(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                 const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                 const RenderOptions& options, MapImage* out) {
  *out = MapImage{};
  if (scenario.map.width() < 1 || scenario.map.height() < 1) {
    return Status::Error("render: the scenario has no map");
  }
  if (state.units.size() != scenario.units.size()) {
    return Status::Error("render: the state has " + std::to_string(state.units.size()) +
                         " units, the scenario " + std::to_string(scenario.units.size()));
  }
  const TurnDrawing turn =
      options.draw_events ? CollectTurnDrawing(turn_events, scenario) : TurnDrawing{};
  const CorpsIndex corps = IndexCorps(scenario);
  const std::vector<LegendEntry> legend =
      BuildLegend(ruleset, scenario, corps, turn, options.words);
  auto layout =
      std::make_shared<const MapLayout>(scenario.map.width(), scenario.map.height(),
                                        MakeLayoutParams(scenario, options, legend.size()));
  if (layout->image_width() > kMaxImageSide || layout->image_height() > kMaxImageSide) {
    return Status::Error("render: a " + std::to_string(layout->image_width()) + "x" +
                         std::to_string(layout->image_height()) +
                         " image is too large; use a smaller hex size");
  }

  const int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, layout->image_width());
  out->pixels_ = AllocatePixels(static_cast<std::size_t>(stride) * layout->image_height());
  cairo_surface_t* surface =
      out->pixels_ ? cairo_image_surface_create_for_data(out->pixels_.get(), CAIRO_FORMAT_RGB24,
                                                         layout->image_width(),
                                                         layout->image_height(), stride)
                   : cairo_image_surface_create(CAIRO_FORMAT_RGB24, layout->image_width(),
                                                layout->image_height());
  out->surface_.reset(surface);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    const std::string why = cairo_status_to_string(cairo_surface_status(surface));
    *out = MapImage{};
    return Status::Error("render: cannot create a " + std::to_string(layout->image_width()) + "x" +
                         std::to_string(layout->image_height()) + " image: " + why);
  }
  // Large images are drawn in horizontal bands, one thread each: every band draws the whole
  // map into its own cairo surface over its rows of the same pixels, translated by a whole
  // number of rows, which rasterises exactly as one pass would (tests compare the two).
  const int bands = BandCount(options, layout->image_width(), layout->image_height());
  unsigned char* pixels = cairo_image_surface_get_data(surface);
  const int stride_used = cairo_image_surface_get_stride(surface);
  std::vector<cairo_status_t> results(static_cast<std::size_t>(bands), CAIRO_STATUS_SUCCESS);
  // The static layer of the map band: copied from the cache, or drawn and (when reuse is
  // on) kept. Drawn in place or copied in, the band holds the same pixels.
  std::string layer_key;
  std::shared_ptr<const StaticLayer> cached_layer;
  std::shared_ptr<StaticLayer> new_layer;
  if (options.reuse_static_layer) {
    layer_key = StaticLayerKey(ruleset, scenario, state, *layout, options);
    cached_layer = LayerCache().Find(layer_key);
    if (!cached_layer) {
      new_layer = std::make_shared<StaticLayer>();
      new_layer->top = layout->map_band_top();
      new_layer->bottom = layout->map_band_bottom();
      new_layer->stride = stride_used;
      new_layer->pixels.reset(
          new unsigned char[static_cast<std::size_t>(new_layer->bottom - new_layer->top) *
                            static_cast<std::size_t>(stride_used)]);
    }
  }
  const auto draw_band = [&](int band) {
    const int y0 = layout->image_height() * band / bands;
    const int y1 = layout->image_height() * (band + 1) / bands;
    cairo_surface_t* target =
        bands == 1 ? cairo_surface_reference(surface)
                   : cairo_image_surface_create_for_data(
                         pixels + static_cast<std::ptrdiff_t>(y0) * stride_used, CAIRO_FORMAT_RGB24,
                         layout->image_width(), y1 - y0, stride_used);
    cairo_t* cr = cairo_create(target);
    cairo_translate(cr, 0, -y0);
    {
      Painter painter(cr, *layout, ruleset, scenario, state, options, corps, turn);
      if (band == 0) painter.TellLabelBoxes(&out->event_label_boxes_);
      if (cached_layer) {
        cairo_surface_flush(target);
        CopyLayerRows(*cached_layer, y0, y1, false, pixels);
        cairo_surface_mark_dirty(target);
        painter.BackgroundOutsideMapBand();
      } else {
        // The static steps leave no drawing state (line caps, joins) to the later ones, which
        // start from cairo's defaults whether the layer was drawn or copied.
        cairo_save(cr);
        painter.Background();
        painter.Terrain();
        painter.Hexsides();
        painter.Routes();
        painter.HexLabels(false);
        painter.EdgeLabels();
        cairo_restore(cr);
        if (new_layer) {
          cairo_surface_flush(target);
          CopyLayerRows(*new_layer, y0, y1, true, pixels);
        }
      }
      painter.Title();
      painter.Objectives();
      painter.HexLabels(true);
      painter.Ghosts();
      painter.MoveArrows(turn.moves);
      painter.ForcedMoves();
      painter.Counters();
      painter.CoveredMoveStarts(turn.moves);
      painter.EventMarks();
      painter.Legend(legend);
    }
    results[static_cast<std::size_t>(band)] = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(target);
    cairo_surface_destroy(target);
  };
  if (bands == 1) {
    draw_band(0);
  } else {
    std::vector<std::thread> threads;
    for (int band = 1; band < bands; ++band) threads.emplace_back(draw_band, band);
    draw_band(0);
    for (std::thread& t : threads) t.join();
  }
  cairo_surface_mark_dirty(surface);
  for (const cairo_status_t st : results) {
    if (st != CAIRO_STATUS_SUCCESS) {
      *out = MapImage{};
      return Status::Error(std::string("render: cairo: ") + cairo_status_to_string(st));
    }
  }
  if (new_layer) LayerCache().Insert(std::move(layer_key), std::move(new_layer));
  out->static_layer_reused_ = cached_layer != nullptr;
  out->layout_ = std::move(layout);
  out->events_drawn_ = turn.drawn;
  out->events_not_drawn_ = turn.not_drawn;
  if (options.legend) {
    for (const LegendEntry& e : legend) out->legend_labels_.push_back(e.label);
  }
  return Status::Ok();
}

Status RenderMapPng(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                    const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                    const RenderOptions& options, const PngOptions& png_options,
                    std::vector<std::uint8_t>* png) {
  MapImage image;
  Status st = RenderMap(ruleset, scenario, state, turn_events, options, &image);
  if (!st.ok) return st;
  return EncodePng(image.surface(), png_options, png);
}

}  // namespace pbem::templates
