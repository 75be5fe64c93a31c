#include "templates/map_layout.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <utility>
#include <vector>

namespace pbem::templates {
namespace {

using engine::Direction;
using engine::Hex;

Hex L(const char* label) { return *engine::ParseLabel(label); }

double Dist(Point a, Point b) { return std::hypot(a.x - b.x, a.y - b.y); }

LayoutParams Params(double size) {
  LayoutParams p;
  p.hex_size = size;
  return p;
}

TEST_CASE("hex size, width and row step are whole pixels", "[templates][layout]") {
  // Size 20: row step 30, half width round(17.32) = 17.
  const MapLayout a(3, 3, Params(20));
  CHECK(a.hex_size() == 20);
  CHECK(a.row_step() == 30);
  CHECK(a.hex_width() == 34);
  // Size 22.5: row step round(33.75) = 34, so the size becomes 22.67; half width 20.
  const MapLayout b(3, 3, Params(22.5));
  CHECK(b.row_step() == 34);
  CHECK(b.hex_size() == Approx(34 / 1.5));
  CHECK(b.hex_width() == 40);
  // Within a pixel of a regular hexagon.
  for (double size : {12.0, 16.5, 22.0, 30.0, 32.0, 47.0}) {
    const MapLayout l(2, 2, Params(size));
    CHECK(std::abs(l.hex_size() - size) <= 1.0 / 3 + 1e-9);
    CHECK(std::abs(l.hex_width() - l.hex_size() * kSqrt3) <= 1.0);
  }
}

TEST_CASE("every hex centre has the same sub-pixel phase", "[templates][layout]") {
  for (double size : {20.0, 22.5, 31.0}) {
    LayoutParams p = Params(size);
    p.title_height = 33;
    const MapLayout layout(9, 7, p);
    for (int row = 0; row < 7; ++row) {
      for (int col = 0; col < 9; ++col) {
        const Point c = layout.Centre(engine::FromOffset({col, row}));
        CHECK(c.x == std::floor(c.x));
        CHECK(c.y - std::floor(c.y) == Approx(layout.centre_phase_y()).margin(1e-9));
      }
    }
  }
}

TEST_CASE("hex centres follow the odd-r layout", "[templates][layout]") {
  const MapLayout layout(6, 5, Params(20));
  const double w = 34;  // 2 * round(20 * sqrt(3) / 2)
  const Point c0101 = layout.Centre(L("0101"));
  // Hex 0101 touches the grid box's top and left edges.
  CHECK(c0101.x == Approx(layout.grid_box().x + w / 2));
  CHECK(c0101.y == Approx(layout.grid_box().y + 20));
  // Same row: one hex width apart.
  CHECK(layout.Centre(L("0201")).x - c0101.x == Approx(w));
  CHECK(layout.Centre(L("0201")).y == Approx(c0101.y));
  // Row 02 (index 1, odd) sits half a hex east, 1.5 sizes lower.
  CHECK(layout.Centre(L("0102")).x - c0101.x == Approx(w / 2));
  CHECK(layout.Centre(L("0102")).y - c0101.y == 30);
  // Row 03 is back in line with row 01.
  CHECK(layout.Centre(L("0103")).x == Approx(c0101.x));
  CHECK(layout.Centre(L("0103")).y - c0101.y == Approx(60));
}

TEST_CASE("grid box and image size: known answers", "[templates][layout]") {
  // 30x20 map, size 30: hex width 52, row step 45; grid 30.5 hex widths by 2 sizes and 19
  // row steps.
  LayoutParams p = Params(30);
  p.title_height = 34;
  p.legend_items = 32;
  const MapLayout layout(30, 20, p);
  CHECK(layout.grid_box().w == 52 * 30.5);
  CHECK(layout.grid_box().h == 60 + 45 * 19);
  // Margins: edge label font 10.8 px, so 25 px left and right, 19 above and below; padding 8.
  CHECK(layout.edge_label_size() == Approx(10.8));
  CHECK(layout.grid_box().x == 33);
  CHECK(layout.grid_box().y == 8 + 34 + 19);
  CHECK(layout.image_width() == 1652);  // 33 + 1586 + 25 + 8
  // Legend: 1636 px inside the padding holds 7 columns of 210; 32 items -> 5 rows of 22.
  CHECK(layout.legend_columns() == 7);
  CHECK(layout.legend_rows() == 5);
  CHECK(layout.legend_box().y == 995 + 6);
  CHECK(layout.image_height() == 995 + 6 + 110 + 8);
}

TEST_CASE("no title and no legend: the grid fills the image", "[templates][layout]") {
  const MapLayout layout(1, 1, Params(10));
  CHECK(layout.title_box().h == 0);
  CHECK(layout.legend_box().h == 0);
  CHECK(layout.grid_box().w == 18);  // 2 * round(8.66); one row: no half-hex shift
  CHECK(layout.grid_box().h == Approx(20));
  CHECK(layout.image_width() > layout.grid_box().right());
  CHECK(layout.image_height() > layout.grid_box().bottom());
}

TEST_CASE("corners are one size from the centre, corner 0 on top", "[templates][layout]") {
  const MapLayout layout(5, 5, Params(24));
  const Hex h = L("0303");
  const Point c = layout.Centre(h);
  const auto corners = layout.Corners(h);
  for (int k = 0; k < 6; ++k) {
    // A regular hexagon to within 1%: the half width is rounded to a whole pixel.
    CHECK(Dist(c, corners[static_cast<std::size_t>(k)]) == Approx(24).epsilon(0.01));
    CHECK(layout.Corner(h, k).x == corners[static_cast<std::size_t>(k)].x);
  }
  CHECK(corners[0].x == Approx(c.x));
  CHECK(corners[0].y == Approx(c.y - 24));
  CHECK(corners[3].y == Approx(c.y + 24));
  CHECK(corners[1].x > c.x);
  CHECK(corners[5].x < c.x);
}

TEST_CASE("a side lies halfway between the two hex centres", "[templates][layout]") {
  const MapLayout layout(6, 6, Params(18));
  for (const Hex h : {L("0303"), L("0304"), L("0101")}) {
    for (Direction dir : engine::kAllDirections) {
      const Hex n = engine::Neighbor(h, dir);
      const Segment side = layout.Side(h, dir);
      const Point mid{(side.a.x + side.b.x) / 2, (side.a.y + side.b.y) / 2};
      const Point expected = layout.SideMidpoint(h, n);
      CHECK(mid.x == Approx(expected.x));
      CHECK(mid.y == Approx(expected.y));
      CHECK(Dist(side.a, side.b) == Approx(18).epsilon(0.03));
      // The neighbour sees the same side, corners in the other order.
      const Segment back = layout.Side(n, engine::Opposite(dir));
      CHECK(back.a.x == Approx(side.b.x));
      CHECK(back.a.y == Approx(side.b.y));
    }
  }
}

TEST_CASE("the outline encloses exactly the map's hexes", "[templates][layout]") {
  for (const auto& [w, h] :
       {std::pair{1, 1}, std::pair{2, 1}, std::pair{1, 2}, std::pair{6, 5}, std::pair{30, 20}}) {
    INFO(w << "x" << h);
    const MapLayout layout(w, h, Params(20));
    const std::vector<Point> outline = layout.Outline();
    // One vertex per boundary side, each consecutive pair (and last to first) one side apart.
    int boundary_sides = 0;
    for (int row = 0; row < h; ++row) {
      for (int col = 0; col < w; ++col) {
        for (Direction dir : engine::kAllDirections) {
          const engine::Offset n =
              engine::ToOffset(engine::Neighbor(engine::FromOffset({col, row}), dir));
          if (n.col < 0 || n.col >= w || n.row < 0 || n.row >= h) ++boundary_sides;
        }
      }
    }
    REQUIRE(static_cast<int>(outline.size()) == boundary_sides);
    double twice_area = 0;
    for (std::size_t i = 0; i < outline.size(); ++i) {
      const Point a = outline[i];
      const Point b = outline[(i + 1) % outline.size()];
      CHECK(Dist(a, b) == Approx(20).epsilon(0.03));
      twice_area += a.x * b.y - b.x * a.y;
    }
    // Clockwise on screen (y down): positive area, equal to w * h hexes of 3 * 17 * 20.
    CHECK(twice_area / 2 == Approx(w * h * 3.0 * 17 * 20));
  }
}

TEST_CASE("HexAt inverts Centre and finds the hex of any inner point", "[templates][layout]") {
  const MapLayout layout(7, 5, Params(21));
  for (int row = 0; row < 5; ++row) {
    for (int col = 0; col < 7; ++col) {
      const Hex h = engine::FromOffset({col, row});
      const Point c = layout.Centre(h);
      REQUIRE(layout.HexAt(c) == h);
      // Points 85% of the way to each corner are still inside.
      for (const Point& corner : layout.Corners(h)) {
        const Point p{c.x + (corner.x - c.x) * 0.85, c.y + (corner.y - c.y) * 0.85};
        CHECK(layout.HexAt(p) == h);
      }
    }
  }
  // Outside the map: left of column 01, above row 01, past the last row.
  const Point c0101 = layout.Centre(L("0101"));
  CHECK_FALSE(layout.HexAt({c0101.x - 21 * kSqrt3, c0101.y}));
  CHECK_FALSE(layout.HexAt({c0101.x, c0101.y - 40}));
  CHECK_FALSE(layout.HexAt(layout.Centre(L("0106"))));
}

TEST_CASE("the counter and the hex label sit inside their hex", "[templates][layout]") {
  for (double size : {12.0, 22.0, 30.0, 41.0}) {
    const MapLayout layout(4, 4, Params(size));
    const Hex h = L("0202");
    const Box box = layout.CounterBox(h);
    CHECK(box.w == box.h);
    CHECK(box.x == std::floor(box.x));  // integer corners: crisp edges
    CHECK(box.y == std::floor(box.y));
    for (const Point p :
         {Point{box.x, box.y}, Point{box.right() - 1, box.y}, Point{box.x, box.bottom() - 1},
          Point{box.right() - 1, box.bottom() - 1}}) {
      CHECK(layout.HexAt(p) == h);
    }
    const Point label = layout.HexLabelAnchor(h);
    CHECK(layout.HexAt(label) == h);
    CHECK(label.y < box.y);  // the label is above the counter
  }
}

TEST_CASE("legend items tile the legend box", "[templates][layout]") {
  LayoutParams p = Params(20);
  p.legend_items = 13;
  const MapLayout layout(12, 6, p);
  const Box& legend = layout.legend_box();
  REQUIRE(layout.legend_rows() > 0);
  CHECK(layout.legend_columns() * layout.legend_rows() >= 13);
  for (int i = 0; i < 13; ++i) {
    const Box item = layout.LegendItem(i);
    CHECK(item.x >= legend.x);
    CHECK(item.right() <= legend.right() + 1e-9);
    CHECK(item.y >= legend.y);
    CHECK(item.bottom() <= legend.bottom() + 1e-9);
  }
  // Columns fill top to bottom first.
  CHECK(layout.LegendItem(1).x == layout.LegendItem(0).x);
  CHECK(layout.LegendItem(layout.legend_rows()).x > layout.LegendItem(0).x);
  CHECK(legend.bottom() <= layout.image_height());
}

TEST_CASE("edge labels sit outside the grid", "[templates][layout]") {
  const MapLayout layout(10, 8, Params(25));
  const Box& g = layout.grid_box();
  CHECK(layout.ColumnLabelAnchor(0, true).y < g.y);
  CHECK(layout.ColumnLabelAnchor(0, false).y > g.bottom());
  CHECK(layout.ColumnLabelAnchor(3, true).x == Approx(layout.Centre(L("0401")).x));
  CHECK(layout.RowLabelAnchor(2, true).x < g.x);
  CHECK(layout.RowLabelAnchor(2, false).x > g.right());
  CHECK(layout.RowLabelAnchor(2, true).y == Approx(layout.Centre(L("0103")).y));
  CHECK(layout.RowLabelAnchor(0, false).x < layout.image_width());
}

}  // namespace
}  // namespace pbem::templates
