#include "templates/map_layout.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>

namespace pbem::templates {

namespace {

// Corner k of a hex, k = 0 at the top, clockwise (screen y grows downward), as multiples
// of (half width, size).
constexpr std::array<Point, 6> kCornerUnit{{
    {0.0, -1.0},
    {1.0, -0.5},
    {1.0, 0.5},
    {0.0, 1.0},
    {-1.0, 0.5},
    {-1.0, -0.5},
}};

int DigitCount(int n) {
  int digits = 1;
  while (n >= 10) {
    n /= 10;
    ++digits;
  }
  return digits;
}

// Cube rounding of fractional axial coordinates (Red Blob Games, "Hex Grids").
engine::Hex RoundAxial(double fq, double fr) {
  const double fs = -fq - fr;
  double q = std::round(fq);
  double r = std::round(fr);
  const double s = std::round(fs);
  const double dq = std::abs(q - fq);
  const double dr = std::abs(r - fr);
  const double ds = std::abs(s - fs);
  if (dq > dr && dq > ds) {
    q = -r - s;
  } else if (dr > ds) {
    r = -q - s;
  }
  return engine::Hex{static_cast<std::int32_t>(q), static_cast<std::int32_t>(r)};
}

}  // namespace

MapLayout::MapLayout(int map_width, int map_height, const LayoutParams& params)
    : map_width_(map_width),
      map_height_(map_height),
      size_(0),
      half_width_(0),
      row_step_(std::max(3.0, std::round(params.hex_size * 1.5))),
      phase_y_(0),
      edge_font_(std::clamp(params.hex_size * 0.36, 9.0, 13.0)),
      legend_item_width_(params.legend_item_width),
      legend_row_height_(params.legend_row_height) {
  assert(map_width >= 1 && map_height >= 1 && params.hex_size >= 2);
  size_ = row_step_ / 1.5;
  half_width_ = std::max(1.0, std::round(size_ * kSqrt3 / 2));
  const double pad = std::ceil(params.padding);
  const int digits = std::max(2, DigitCount(std::max(map_width, map_height)));
  const double margin_x = std::ceil(digits * edge_font_ * 0.65 + 10);
  const double margin_y = std::ceil(edge_font_ + 8);

  const double grid_w = hex_width() * (map_width + (map_height > 1 ? 0.5 : 0.0));
  const double grid_h = 2 * size_ + row_step_ * (map_height - 1);

  double y = pad;
  title_ = Box{pad, y, 0, std::ceil(params.title_height)};
  y += title_.h;
  band_top_ = static_cast<int>(y);
  y += margin_y;
  grid_ = Box{pad + margin_x, y, grid_w, grid_h};
  y = std::ceil(grid_.bottom() + margin_y);
  band_bottom_ = static_cast<int>(y);

  image_width_ = static_cast<int>(std::ceil(grid_.right() + margin_x + pad));
  const double inner_w = image_width_ - 2 * pad;
  title_.w = inner_w;

  if (params.legend_items > 0) {
    const int fit = static_cast<int>(std::floor(inner_w / legend_item_width_));
    const int columns = std::max(1, fit);
    legend_rows_ = (params.legend_items + columns - 1) / columns;
    legend_columns_ = (params.legend_items + legend_rows_ - 1) / legend_rows_;
    y += 6;  // room for the rule above the legend
    legend_ = Box{pad, y, inner_w, legend_rows_ * legend_row_height_};
    y = legend_.bottom();
  } else {
    legend_ = Box{pad, y, inner_w, 0};
  }
  image_height_ = static_cast<int>(std::ceil(y + pad));
  origin_ = Point{grid_.x + half_width_, grid_.y + size_};
  phase_y_ = origin_.y - std::floor(origin_.y);
}

Box MapLayout::LegendItem(int index) const {
  if (legend_rows_ == 0) return Box{legend_.x, legend_.y, 0, 0};
  const int col = index / legend_rows_;
  const int row = index % legend_rows_;
  return Box{legend_.x + col * legend_item_width_, legend_.y + row * legend_row_height_,
             legend_item_width_, legend_row_height_};
}

Point MapLayout::Centre(engine::Hex hex) const {
  return Point{origin_.x + half_width_ * (2.0 * hex.q + hex.r), origin_.y + row_step_ * hex.r};
}

Point MapLayout::Corner(engine::Hex hex, int k) const {
  assert(k >= 0 && k < 6);
  const Point c = Centre(hex);
  const Point u = kCornerUnit[static_cast<std::size_t>(k)];
  return Point{c.x + half_width_ * u.x, c.y + size_ * u.y};
}

std::array<Point, 6> MapLayout::Corners(engine::Hex hex) const {
  std::array<Point, 6> out;
  const Point c = Centre(hex);
  for (std::size_t k = 0; k < 6; ++k) {
    out[k] = Point{c.x + half_width_ * kCornerUnit[k].x, c.y + size_ * kCornerUnit[k].y};
  }
  return out;
}

std::vector<Point> MapLayout::Outline() const {
  // Every side of a map hex whose neighbour is off the map, as a directed segment from
  // corner k to corner k + 1 (clockwise around its hex, so clockwise around the map), then
  // chained end to start. Corners are matched by their position in 1/8 pixel.
  using Key = std::pair<long long, long long>;
  const auto key = [](Point p) { return Key{std::llround(p.x * 8), std::llround(p.y * 8)}; };
  std::map<Key, Point> next;
  Point start{};
  for (int row = 0; row < map_height_; ++row) {
    for (int col = 0; col < map_width_; ++col) {
      const engine::Hex hex = engine::FromOffset({col, row});
      for (engine::Direction dir : engine::kAllDirections) {
        const engine::Offset n = engine::ToOffset(engine::Neighbor(hex, dir));
        if (n.col >= 0 && n.col < map_width_ && n.row >= 0 && n.row < map_height_) continue;
        const Segment side = Side(hex, dir);
        if (next.empty()) start = side.a;
        next[key(side.a)] = side.b;
      }
    }
  }
  std::vector<Point> out;
  out.reserve(next.size());
  Point p = start;
  for (std::size_t i = 0; i < next.size(); ++i) {
    out.push_back(p);
    const auto it = next.find(key(p));
    if (it == next.end()) break;
    p = it->second;
    if (key(p) == key(start)) break;
  }
  return out;
}

Segment MapLayout::Side(engine::Hex hex, engine::Direction dir) const {
  const int k = static_cast<int>(dir);
  return Segment{Corner(hex, k), Corner(hex, (k + 1) % 6)};
}

Point MapLayout::SideMidpoint(engine::Hex a, engine::Hex b) const {
  const Point pa = Centre(a);
  const Point pb = Centre(b);
  return Point{(pa.x + pb.x) / 2, (pa.y + pb.y) / 2};
}

std::optional<engine::Hex> MapLayout::HexAt(Point p) const {
  // Undo the horizontal stretch to a regular hex of size_, then the usual pixel -> axial.
  const double px = (p.x - origin_.x) * (size_ * kSqrt3 / 2) / half_width_ / size_;
  const double py = (p.y - origin_.y) / size_;
  const engine::Hex hex = RoundAxial(px / kSqrt3 - py / 3.0, py * 2.0 / 3.0);
  const engine::Offset o = engine::ToOffset(hex);
  if (o.col < 0 || o.col >= map_width_ || o.row < 0 || o.row >= map_height_) return std::nullopt;
  return hex;
}

Box MapLayout::CounterBox(engine::Hex hex) const {
  const Point c = Centre(hex);
  const double side = std::round(size_ * 1.12);
  const double x = std::round(c.x - side / 2);
  const double y = std::round(c.y - side / 2);
  return Box{x, y, side, side};
}

Point MapLayout::HexLabelAnchor(engine::Hex hex) const {
  const Point c = Centre(hex);
  return Point{c.x, c.y - size_ * 0.62};
}

Point MapLayout::UnitLabelAnchor(engine::Hex hex) const {
  const Point c = Centre(hex);
  return Point{c.x, c.y + size_ * 0.79};
}

Point MapLayout::ColumnLabelAnchor(int col, bool top) const {
  const int row = top ? 0 : map_height_ - 1;
  const Point c = Centre(engine::FromOffset({col, row}));
  const double gap = edge_font_ * 0.5 + 4;
  return Point{c.x, top ? grid_.y - gap : grid_.bottom() + gap};
}

Point MapLayout::RowLabelAnchor(int row, bool left) const {
  const Point c = Centre(engine::FromOffset({0, row}));
  const double gap = edge_font_ * 0.7 + 5;
  return Point{left ? grid_.x - gap : grid_.right() + gap, c.y};
}

}  // namespace pbem::templates
