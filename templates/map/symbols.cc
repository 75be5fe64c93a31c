// The marks of the map that the legend draws too (templates/map/painter.h): hex outlines,
// arrows, ghosts, fire lines and bursts, "no entry" signs, crossings and slopes.
#include <algorithm>

#include "templates/map/painter.h"

namespace pbem::templates::map_detail {

// The hex outline, optionally shrunk towards its centre.
void AddHexPath(cairo_t* cr, const MapLayout& layout, Hex hex, double scale) {
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

// An arrow along `pts` whose head's tip is pts.back(). REQUIRES: two points or more, the
// last two distinct.
void Painter::DrawArrow(std::vector<Point> pts, const ArrowStyle& st) {
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

void Painter::GhostSymbol(const Box& b, Side side) {
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
void Painter::FireLine(Point a, Point b, bool reaction) {
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
void Painter::Burst(Point c, double r, int hits) {
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
void Painter::StopSymbol(Point c, double r) {
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

// A bridge or ford across a hexside: `m` is the side's midpoint, `u` the unit vector from
// one hex centre to the other (the way a unit crosses).
void Painter::CrossingSymbol(engine::Crossing kind, Point m, Point u, int water, double s) {
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

// The edge line and `n` ticks in each of three groups, pointing downhill.
void Painter::AddSlopeSymbol(const Segment& seg, Point down, int n, double s) {
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

}  // namespace pbem::templates::map_detail
