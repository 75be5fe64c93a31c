// The turn's events on the map (templates/map/painter.h, templates/turn_events.h): move
// arrows, ghosts of eliminated units, retreats and advances, and over the counters charges,
// combats, fire, stopped moves, losses and their labels.
#include <algorithm>

#include "templates/map/painter.h"

namespace pbem::templates::map_detail {

void Painter::MoveArrows(const std::vector<MovePath>& moves) {
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

// Eliminated units: a pale ghost of the counter with a dashed outline in the side's
// colour, crossed out, at the last hex the unit held. Drawn under the counters; when a unit
// stands in that hex (the winner advanced into it), the ghost is pushed left, half out
// from under its counter, so that the elimination still shows where it happened.
void Painter::Ghosts() {
  const std::set<Hex> occupied = OccupiedHexes();
  for (const Ghost& g : turn_.ghosts) {
    Box b = layout_.CounterBox(g.hex);
    if (occupied.count(g.hex) != 0) b.x -= std::round(b.w * kGhostShift);
    GhostSymbol(b, scenario_.unit(g.unit).side);
  }
}

// The hexes where a counter is drawn.
std::set<Hex> Painter::OccupiedHexes() const {
  std::set<Hex> out;
  for (const engine::UnitState& u : state_.units) {
    if (u.on_map() && map_.Contains(*u.hex)) out.insert(*u.hex);
  }
  return out;
}

// The counters' boxes (labels are kept off them).
std::vector<Box> Painter::CounterBoxes() const {
  std::vector<Box> out;
  for (Hex hex : OccupiedHexes()) out.push_back(layout_.CounterBox(hex));
  return out;
}

// A move's start where a counter stands now (another unit moved in): the dashed outline
// drawn after the counters, around the counter, so the counter does not hide it.
void Painter::CoveredMoveStarts(const std::vector<MovePath>& moves) {
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
void Painter::ForcedMoves() {
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
void Painter::EventMarks() {
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
      label(c.outcome == ChargeMark::Outcome::kBroke ? MapWord(options_.words, "map.broke", "broke")
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
    label(c.odds + " \xc2\xb7 " + std::to_string(c.die) + " \xc2\xb7 " + c.result, Lerp(a, b, 0.5),
          u, style.width);
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

std::optional<Painter::HexSpan> Painter::Span(Hex from, Hex to) const {
  if (from == to) return std::nullopt;
  const Point a = layout_.Centre(from);
  const Point b = layout_.Centre(to);
  const Point u = Unit(a, b);
  return HexSpan{a, b, u, CounterReach(u)};
}

// How far from a hex centre, in direction u (a unit vector), the counter's edge is.
double Painter::CounterReach(Point u) const {
  const double half = layout_.CounterBox(Hex{0, 0}).w / 2;
  const double ax = std::abs(u.x);
  const double ay = std::abs(u.y);
  return std::min(ax > 1e-9 ? half / ax : 1e9, ay > 1e-9 ? half / ay : 1e9);
}

}  // namespace pbem::templates::map_detail
