// The map itself (templates/map/painter.h): terrain copied from hex stamps, hexside water,
// crossings and slopes, roads and tracks (the static layer RenderMap may cache), then the
// objectives and the CCRR labels.
#include <algorithm>
#include <map>

#include "templates/map/painter.h"
#include "templates/terrain_glyphs.h"

namespace pbem::templates::map_detail {

// Terrain fills, elevation, the hex grid and the terrain glyphs. Filling thousands of
// hexes and stroking their sides costs far more than everything else together, so the
// map outline is filled once in the grid colour and each hex is then copied from a small
// stamp (terrain colour, elevation tint and glyph, shrunk by half a grid line) drawn once
// per kind: the grid colour left between the stamps is the grid. The layout gives every
// hex centre the same sub-pixel phase, so a copied stamp is pixel for pixel the hex
// drawn in place.
void Painter::Terrain() {
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

std::size_t Painter::TerrainIndex(Hex hex) const {
  const engine::TerrainId t = map_.terrain(hex);
  return t.valid() && t.index() < ruleset_.terrain.size() ? t.index() : ruleset_.terrain.size();
}

Rgb Painter::TerrainColour(std::size_t index) const {
  if (index >= ruleset_.terrain.size()) return kUnknownTerrainColour;
  return ParseHexColour(ruleset_.terrain[index].colour).value_or(kUnknownTerrainColour);
}

// Copies the stamp for `key` so that its hex is centred on `centre`.
void Painter::CopyStamp(const HexStampKey& key, Point centre) {
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
Painter::UsedStamp Painter::SharedStamp(const HexStampKey& key, int hw, int top) {
  std::string cache_key;
  AppendDouble(&cache_key, s_);
  AppendDouble(&cache_key, layout_.centre_phase_y());
  AppendInt(&cache_key, hw);
  AppendInt(&cache_key, top);
  const Rgb colour = TerrainColour(key.terrain);
  AppendInt(&cache_key, (colour.r << 16) | (colour.g << 8) | colour.b);
  AppendInt(&cache_key, key.variant > 0
                            ? static_cast<int>(GlyphForTerrain(ruleset_.terrain[key.terrain].name))
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

Painter::StampSurface Painter::MakeStamp(const HexStampKey& key, int hw, int top) {
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

void Painter::SetElevationTint(cairo_t* cr, int level) {
  if (level > 0) {
    SetRgb(cr, {0x8a, 0x55, 0x1c}, std::min(0.5, 0.14 * level));
  } else {
    SetRgb(cr, {0x30, 0x50, 0x80}, std::min(0.4, 0.1 * -level));
  }
}

void Painter::Hexsides() {
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

void Painter::SlopeMarks(const std::vector<std::pair<Hexside, int>>& slopes) {
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

Rgb Painter::WaterColour(int water) const {
  return water == 1 ? kStreamColour : water == 2 ? kRiverColour : kMajorRiverColour;
}

double Painter::WaterWidth(int water) const {
  if (water == 1) return std::max(1.6, s_ * 0.09);
  if (water == 2) return std::max(2.6, s_ * 0.17);
  return std::max(4.0, s_ * 0.3);
}

void Painter::Routes() {
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
  if (any_road) StrokeRoad();
  cairo_restore(cr_);
}

void Painter::StrokeRoad() {
  SetRgb(cr_, kRoadCasingColour);
  cairo_set_line_width(cr_, std::max(3.0, s_ * 0.22));
  cairo_stroke_preserve(cr_);
  SetRgb(cr_, kRoadFillColour);
  cairo_set_line_width(cr_, std::max(1.6, s_ * 0.12));
  cairo_stroke(cr_);
}

// Adds a smooth path through the route's hex centres; a route ending on the map edge runs
// on to the edge. Returns false when there is nothing to draw.
bool Painter::RoutePath(const std::vector<Hex>& hexes) {
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

void Painter::Objectives() {
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
      rings[it == state_.objective_owners.end() ? 2 : static_cast<int>(it->second)].push_back(hex);
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

Point Painter::BadgeCentre(Hex hex, Side side) const {
  const Point c = layout_.Centre(hex);
  return {c.x + s_ * 0.72, c.y + (side == Side::kBlue ? -0.15 : 0.15) * s_};
}

// The CCRR label in every hex but the objectives' (static: part of the cached layer), or
// in the objectives' hexes only (drawn after their rings, which would cover a corner of
// the label).
void Painter::HexLabels(bool objective_hexes) {
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

}  // namespace pbem::templates::map_detail
