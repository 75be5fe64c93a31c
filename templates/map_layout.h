// Screen geometry of a map image, in pixels: where each hex, hexside, counter and label
// goes, and where the title and the legend sit. This is the only floating-point hex
// geometry of the project (HOUSE-STYLE: screen layout kept apart from grid logic); which hex
// is next to which stays in engine/hex/hex.h.
//
// Pointy-top hexes, odd-r offset layout (engine::ToOffset): row 0 is the north edge, rows
// with an odd index sit half a hex east. The hex size (centre to top corner) is adjusted so
// that the row step (1.5 sizes) and the half width (sqrt(3)/2 sizes) are whole pixels: the
// hexes are regular to within a fraction of a pixel, and every hex centre has the same
// sub-pixel phase, so a hex drawn once can be copied to every position of the grid and look
// exactly as if it had been drawn there. Every value is computed from the inputs with the
// same fixed sequence of double operations (no trigonometric calls, no platform-dependent
// functions), so the same map and parameters always give the same coordinates.
#ifndef PBEM_TEMPLATES_MAP_LAYOUT_H_
#define PBEM_TEMPLATES_MAP_LAYOUT_H_

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "engine/hex/hex.h"

namespace pbem::templates {

struct Point {
  double x = 0;
  double y = 0;
};

// An axis-aligned rectangle; (x, y) is its top-left corner.
struct Box {
  double x = 0;
  double y = 0;
  double w = 0;
  double h = 0;

  double right() const { return x + w; }
  double bottom() const { return y + h; }
  Point centre() const { return {x + w / 2, y + h / 2}; }
  bool Contains(Point p) const { return p.x >= x && p.x < x + w && p.y >= y && p.y < y + h; }
};

struct Segment {
  Point a;
  Point b;
};

// sqrt(3), written out so that no library call is involved.
inline constexpr double kSqrt3 = 1.7320508075688772;

struct LayoutParams {
  // Requested centre-to-corner distance of a hex (see hex_size()). REQUIRES: >= 2.
  double hex_size = 30.0;
  // Height of the title band above the map; 0: no title.
  double title_height = 0;
  // Number of legend entries below the map; 0: no legend.
  int legend_items = 0;
  double legend_item_width = 210;
  double legend_row_height = 22;
  // Outer padding around everything.
  double padding = 8;
};

class MapLayout {
 public:
  // REQUIRES: map_width >= 1, map_height >= 1.
  MapLayout(int map_width, int map_height, const LayoutParams& params);

  int image_width() const { return image_width_; }
  int image_height() const { return image_height_; }
  int map_width() const { return map_width_; }
  int map_height() const { return map_height_; }

  // The hex size in use: row_step() / 1.5, within a third of a pixel of the request.
  double hex_size() const { return size_; }
  // Distance between the centres of two hexes side by side in a row, about sqrt(3) * size;
  // an even number of pixels.
  double hex_width() const { return 2 * half_width_; }
  // Vertical distance between two rows: a whole number of pixels.
  double row_step() const { return row_step_; }

  // Where the parts of the image are. The grid box bounds every hex of the map; the edge
  // labels sit in the margins around it.
  const Box& grid_box() const { return grid_; }
  const Box& title_box() const { return title_; }
  const Box& legend_box() const { return legend_; }
  int legend_columns() const { return legend_columns_; }
  int legend_rows() const { return legend_rows_; }
  // The box of legend entry `index` (entries fill the columns top to bottom, left to right).
  Box LegendItem(int index) const;
  // The rows [map_band_top, map_band_bottom) between the title and the legend: the grid and
  // its edge labels, and nothing of the title or the legend.
  int map_band_top() const { return band_top_; }
  int map_band_bottom() const { return band_bottom_; }

  // Font size for the edge labels (pixels).
  double edge_label_size() const { return edge_font_; }

  // The pixel centre of a hex. Defined for every hex, on the map or not.
  Point Centre(engine::Hex hex) const;
  // Corner k of a hex, k = 0 the top corner, then clockwise (1 upper right, 2 lower right,
  // 3 bottom, 4 lower left, 5 upper left). REQUIRES: 0 <= k < 6.
  Point Corner(engine::Hex hex, int k) const;
  std::array<Point, 6> Corners(engine::Hex hex) const;
  // The side of `hex` facing `dir`, as its two corners in clockwise order: the NE side runs
  // from corner 0 to corner 1, E from 1 to 2, and so on.
  Segment Side(engine::Hex hex, engine::Direction dir) const;
  // Midpoint of the side between two adjacent hexes.
  Point SideMidpoint(engine::Hex a, engine::Hex b) const;
  // The outline of the whole map (the boundary of the union of its hexes), clockwise.
  std::vector<Point> Outline() const;
  // The sub-pixel part of every hex centre's y (x is always whole).
  double centre_phase_y() const { return phase_y_; }

  // The map hex containing a pixel, or nullopt for a pixel outside every hex of the map.
  std::optional<engine::Hex> HexAt(Point p) const;

  // The counter of a unit standing in `hex`: a square with integer corners, centred in the
  // hex, leaving room for the hex label above it and the unit's id below it.
  Box CounterBox(engine::Hex hex) const;
  // The baseline centre of the small CCRR label printed inside a hex (above the counter).
  Point HexLabelAnchor(engine::Hex hex) const;
  // Never below 6.5 px, the smallest size that still reads on screen.
  double hex_label_size() const { return std::max(6.5, size_ * 0.25); }
  // The baseline centre of a unit's id printed below its counter.
  Point UnitLabelAnchor(engine::Hex hex) const;
  double unit_label_size() const { return std::max(6.5, size_ * 0.23); }

  // Edge labels: the centre of the column number above (top) or below the map, and of the
  // row number left or right of it.
  Point ColumnLabelAnchor(int col, bool top) const;
  Point RowLabelAnchor(int row, bool left) const;

 private:
  int map_width_;
  int map_height_;
  double size_;
  double half_width_;
  double row_step_;
  double phase_y_;
  double edge_font_;
  Point origin_;  // centre of the hex at offset (0, 0)
  Box grid_;
  Box title_;
  Box legend_;
  int legend_columns_ = 0;
  int legend_rows_ = 0;
  double legend_item_width_;
  double legend_row_height_;
  int image_width_ = 0;
  int image_height_ = 0;
  int band_top_ = 0;
  int band_bottom_ = 0;
};

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_MAP_LAYOUT_H_
