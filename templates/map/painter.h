// Internal to the map renderer (templates/map_renderer.h): the drawing context shared by the
// pieces of templates/map/. RenderMap (templates/map_renderer.cc) makes one Painter per band
// of the image and calls its steps; each is defined in the file of its concern:
//   frame.cc     the words of the map, the paper, the title and the edge numbers
//   terrain.cc   terrain from cached hex stamps, hexsides, roads and tracks, objectives, labels
//   events.cc    the turn's events: moves, ghosts, retreats and advances, charges, combats,
//                fire, stops, losses and their labels
//   counters.cc  the units' counters and their arm symbols
//   symbols.cc   the marks drawn both on the map and in the legend: arrows, bursts, crossings
//   legend.cc    what the legend lists and how each entry is drawn
//   caches.cc    the stamps and static layers kept between renders (caches.h)
#ifndef PBEM_TEMPLATES_MAP_PAINTER_H_
#define PBEM_TEMPLATES_MAP_PAINTER_H_

#include <cairo.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "templates/map/caches.h"
#include "templates/map_renderer.h"
#include "templates/text_batch.h"
#include "templates/turn_events.h"

namespace pbem::templates::map_detail {

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

inline void SetRgb(cairo_t* cr, Rgb c, double alpha = 1.0) {
  cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, alpha);
}

inline Point Lerp(Point a, Point b, double t) {
  return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t};
}
// The unit vector from a to b. REQUIRES: a != b.
inline Point Unit(Point a, Point b) {
  const double dx = b.x - a.x;
  const double dy = b.y - a.y;
  const double len = std::sqrt(dx * dx + dy * dy);
  return {dx / len, dy / len};
}
inline Point Add(Point a, Point d, double k) { return {a.x + d.x * k, a.y + d.y * k}; }

// symbols.cc
void AddHexPath(cairo_t* cr, const MapLayout& layout, Hex hex, double scale = 1.0);
void AddSmallHexPath(cairo_t* cr, Point c, double size);

// frame.cc
std::string Capitalised(std::string_view text);
std::string Humanised(std::string_view name);
std::string MapWord(const MapWords* words, std::string_view key, std::string english,
                    std::initializer_list<std::pair<std::string_view, std::string>> values = {});
std::string TwoDigits(int n);
std::string_view VictoryLevelWords(engine::VictoryLevel level);
double AutoHexSize(const engine::Scenario& scenario, const RenderOptions& options);
LayoutParams MakeLayoutParams(const engine::Scenario& scenario, const RenderOptions& options,
                              std::size_t legend_items);

// ---- Legend (legend.cc) -----------------------------------------------------------------

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

CorpsIndex IndexCorps(const engine::Scenario& scenario);

std::vector<LegendEntry> BuildLegend(const engine::Ruleset& ruleset,
                                     const engine::Scenario& scenario, const CorpsIndex& corps,
                                     const TurnDrawing& turn, const MapWords* words);

// ---- The painter ------------------------------------------------------------------------

class Painter {
  struct SurfaceDeleter {
    void operator()(cairo_surface_t* surface) const { cairo_surface_destroy(surface); }
  };
  using StampSurface = std::unique_ptr<cairo_surface_t, SurfaceDeleter>;

 public:
  Painter(cairo_t* cr, const MapLayout& layout, const engine::Ruleset& ruleset,
          const engine::Scenario& scenario, const engine::GameState& state,
          const RenderOptions& options, const CorpsIndex& corps, const TurnDrawing& turn);

  // frame.cc
  void Background();
  void BackgroundOutsideMapBand();
  void Title();
  void EdgeLabels();

  // terrain.cc
  void Terrain();
  void Hexsides();
  void Routes();
  void Objectives();
  void HexLabels(bool objective_hexes);

  // events.cc
  void MoveArrows(const std::vector<MovePath>& moves);
  void Ghosts();
  std::set<Hex> OccupiedHexes() const;
  std::vector<Box> CounterBoxes() const;
  void CoveredMoveStarts(const std::vector<MovePath>& moves);
  void ForcedMoves();
  void EventMarks();

  // counters.cc
  void Counters();

  // legend.cc
  void Legend(const std::vector<LegendEntry>& entries);

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

  // Two hex centres, the unit vector between them and how far the counters reach along it.
  struct HexSpan {
    Point a;
    Point b;
    Point u;
    double reach;
  };

  struct HexStampKey {
    std::size_t terrain = 0;  // ruleset index; ruleset_.terrain.size() for unknown
    int level = 0;
    std::uint32_t variant = 0;  // 0: no glyph; else 1 + the glyph's jitter variant
    int fort_owner = 0;         // 0: nobody; else 1 + Side
    friend bool operator==(const HexStampKey&, const HexStampKey&) = default;
  };

  // A stamp of the process-wide cache, wrapped in a surface of this painter's own
  // (SharedStamp).
  struct UsedStamp {
    HexStampKey key;
    std::shared_ptr<const StampPixels> pixels;
    StampSurface surface;
  };

  // Counter layout, in counter widths: the corps strip on top, then a row with BV (left)
  // and MV (right), the arm symbol in the middle, CS (left) and MA (right) at the bottom.
  static constexpr double kStripHeight = 0.17;
  static constexpr double kTopRow = 0.34;
  static constexpr double kSymbolRow = 0.575;
  static constexpr double kBottomRow = 0.82;
  static constexpr double kValueInset = 0.1;
  static constexpr double kValueFont = 0.3;

  // terrain.cc
  std::size_t TerrainIndex(Hex hex) const;
  Rgb TerrainColour(std::size_t index) const;
  double GridLine() const { return std::max(1.0, s_ * 0.035); }
  void CopyStamp(const HexStampKey& key, Point centre);
  UsedStamp SharedStamp(const HexStampKey& key, int hw, int top);
  StampSurface MakeStamp(const HexStampKey& key, int hw, int top);
  static void SetElevationTint(cairo_t* cr, int level);
  Rgb WaterColour(int water) const;
  double WaterWidth(int water) const;
  void SlopeMarks(const std::vector<std::pair<Hexside, int>>& slopes);
  bool RoutePath(const std::vector<Hex>& hexes);
  Point BadgeCentre(Hex hex, Side side) const;

  // events.cc
  std::optional<HexSpan> Span(Hex from, Hex to) const;
  double CounterReach(Point u) const;

  // counters.cc
  void AddArmSymbol(Arm arm, const Box& box);
  void AddStar(Point c, double outer, double inner);
  void AddQueuedFills();
  void AddCommandStripes(int count, Point right_middle, double w);

  // symbols.cc
  void DrawArrow(std::vector<Point> pts, const ArrowStyle& st);
  void GhostSymbol(const Box& b, Side side);
  void FireLine(Point a, Point b, bool reaction);
  // Strokes the current path as a road: the casing, then the fill over it (map and legend).
  void StrokeRoad();
  void Burst(Point c, double r, int hits);
  void StopSymbol(Point c, double r);
  void CrossingSymbol(engine::Crossing kind, Point m, Point u, int water, double s);
  void AddSlopeSymbol(const Segment& seg, Point down, int n, double s);

  // legend.cc
  void LegendSymbol(const LegendEntry& e, const Box& box);

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

}  // namespace pbem::templates::map_detail

#endif  // PBEM_TEMPLATES_MAP_PAINTER_H_
