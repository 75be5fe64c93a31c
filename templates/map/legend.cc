// The legend (templates/map/painter.h): what it lists for a map and a turn, and the symbol
// of each entry.
#include <algorithm>

#include "templates/map/painter.h"
#include "templates/terrain_glyphs.h"

namespace pbem::templates::map_detail {

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

void Painter::Legend(const std::vector<LegendEntry>& entries) {
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
    text.AddMiddle(FitText(text, entries[i].label, item.w - 46), {item.x + 42, item.y + item.h / 2},
                   Align::kLeft);
  }
  text.Flush(cr_, kInkColour);
}

void Painter::LegendSymbol(const LegendEntry& e, const Box& box) {
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
      StrokeRoad();
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

}  // namespace pbem::templates::map_detail
