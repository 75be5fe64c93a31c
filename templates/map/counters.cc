// The units' counters (templates/map/painter.h): bodies, corps strips, arm symbols, values
// and the unit ids under them.
#include <algorithm>
#include <map>

#include "templates/map/painter.h"

namespace pbem::templates::map_detail {

void Painter::Counters() {
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

// Queues the NATO-style arm symbol: lines on the current path, filled parts in fills_.
void Painter::AddArmSymbol(Arm arm, const Box& box) {
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

void Painter::AddStar(Point c, double outer, double inner) {
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
void Painter::AddQueuedFills() {
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
void Painter::AddCommandStripes(int count, Point right_middle, double w) {
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

}  // namespace pbem::templates::map_detail
