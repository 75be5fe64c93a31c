#include "engine/hex/line.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>

namespace pbem::engine {
namespace {

// Everything below works in an affine image of the hex plane where the centre
// of Hex{q,r} is (2q + r, 3r) and its corners are (X+-1, Y+-1) and (X, Y+-2).
// Affine maps preserve straight lines, incidence and the order of points along
// a line, so every answer here equals the answer for true hexagons, and all
// coordinates are integers.
struct Point {
  std::int64_t x = 0;
  std::int64_t y = 0;
};

Point Centre(Hex hex) { return Point{2 * std::int64_t{hex.q} + hex.r, 3 * std::int64_t{hex.r}}; }

// A parameter t = num / den along the segment; den is always positive. With
// coordinates below 2^24 every product compared stays far below 2^63.
struct Fraction {
  std::int64_t num = 0;
  std::int64_t den = 1;
};

bool Less(Fraction a, Fraction b) { return a.num * b.den < b.num * a.den; }

// Hex interior relative to its centre: nx * dx + ny * dy <= bound for each of
// the six edges; `dir` is the neighbour across that edge.
struct HalfPlane {
  Direction dir;
  std::int64_t nx;
  std::int64_t ny;
  std::int64_t bound;
};

constexpr std::array<HalfPlane, 6> kHalfPlanes = {{
    {Direction::kNE, 1, -1, 2},
    {Direction::kE, 1, 0, 1},
    {Direction::kSE, 1, 1, 2},
    {Direction::kSW, -1, 1, 2},
    {Direction::kW, -1, 0, 1},
    {Direction::kNW, -1, -1, 2},
}};

// A positive-length part of the segment inside one closed hex.
struct Piece {
  Fraction start;
  LineItem item;
};

// Clips the segment a + t * d, t in [0, 1], against the closed hex (Cyrus-Beck)
// and classifies the clipped part. If the segment's line is one of the hex's
// edge lines, the whole clipped part lies on that edge (the hex is convex);
// otherwise the open clipped part lies in the open hex, because every other
// constraint is either slack everywhere or binds only at an end of [lo, hi].
std::optional<Piece> Clip(Point a, Point d, Hex hex) {
  const Point c = Centre(hex);
  Fraction lo{0, 1};
  Fraction hi{1, 1};
  std::optional<Direction> along_edge;
  for (const HalfPlane& plane : kHalfPlanes) {
    // n . (a + t d - c) <= bound  <=>  t (n . d) <= bound - n . (a - c).
    const std::int64_t num = plane.bound - (plane.nx * (a.x - c.x) + plane.ny * (a.y - c.y));
    const std::int64_t den = plane.nx * d.x + plane.ny * d.y;
    if (den == 0) {
      if (num < 0) return std::nullopt;
      if (num == 0) along_edge = plane.dir;
    } else if (den > 0) {
      const Fraction limit{num, den};
      if (Less(limit, hi)) hi = limit;
    } else {
      const Fraction limit{-num, -den};
      if (Less(lo, limit)) lo = limit;
    }
  }
  if (!Less(lo, hi)) return std::nullopt;  // Empty, or a single point.
  if (along_edge) {
    return Piece{lo, LineItem::ForSide(SideOf(hex, *along_edge))};
  }
  return Piece{lo, LineItem::ForHex(hex)};
}

std::int64_t FloorDiv(std::int64_t num, std::int64_t den) {
  if (den < 0) {
    num = -num;
    den = -den;
  }
  const std::int64_t quotient = num / den;
  return (num % den != 0 && num < 0) ? quotient - 1 : quotient;
}

std::int64_t CeilDiv(std::int64_t num, std::int64_t den) { return -FloorDiv(-num, den); }

}  // namespace

LineTrace TraceLine(Hex from, Hex to) {
  LineTrace trace;
  if (Distance(from, to) <= 1) return trace;

  const Point a = Centre(from);
  const Point b = Centre(to);
  const Point d{b.x - a.x, b.y - a.y};

  // Candidates, row by row: hexes of row r span Y in [3r - 2, 3r + 2], so
  // only rows between the two ends can meet the segment, and within a row
  // only hexes whose centre is within 1 in X of the segment's part inside
  // that band. The margin of 2 is slack; Clip decides exactly.
  std::vector<Piece> pieces;
  const std::int32_t row_min = std::min(from.r, to.r);
  const std::int32_t row_max = std::max(from.r, to.r);
  for (std::int32_t r = row_min; r <= row_max; ++r) {
    std::int64_t x_min = std::min(a.x, b.x);
    std::int64_t x_max = std::max(a.x, b.x);
    if (d.y != 0) {
      const std::int64_t y_lo = std::max(3 * std::int64_t{r} - 2, std::min(a.y, b.y));
      const std::int64_t y_hi = std::min(3 * std::int64_t{r} + 2, std::max(a.y, b.y));
      // x(y) = a.x + d.x (y - a.y) / d.y, rounded outward.
      const std::int64_t at_lo_num = a.x * d.y + d.x * (y_lo - a.y);
      const std::int64_t at_hi_num = a.x * d.y + d.x * (y_hi - a.y);
      x_min = std::min(FloorDiv(at_lo_num, d.y), FloorDiv(at_hi_num, d.y));
      x_max = std::max(CeilDiv(at_lo_num, d.y), CeilDiv(at_hi_num, d.y));
    }
    const std::int64_t q_first = FloorDiv(x_min - 2 - r, 2);
    const std::int64_t q_last = CeilDiv(x_max + 2 - r, 2);
    for (std::int64_t q = q_first; q <= q_last; ++q) {
      const Hex hex{static_cast<std::int32_t>(q), r};
      if (hex == from || hex == to) continue;
      if (std::optional<Piece> piece = Clip(a, d, hex)) {
        pieces.push_back(*piece);
      }
    }
  }

  // Pieces have pairwise disjoint open intervals along the segment except for
  // a hexside, which both hexes beside it report with the same start; sorting
  // by start therefore puts those twins next to each other.
  std::sort(pieces.begin(), pieces.end(),
            [](const Piece& x, const Piece& y) { return Less(x.start, y.start); });
  trace.items.reserve(pieces.size());
  for (const Piece& piece : pieces) {
    if (!trace.items.empty() && trace.items.back() == piece.item) continue;
    trace.items.push_back(piece.item);
  }
  return trace;
}

std::ostream& operator<<(std::ostream& os, const LineItem& item) {
  if (item.kind == LineItem::Kind::kHex) return os << "hex " << item.hex;
  return os << "side " << item.side;
}

}  // namespace pbem::engine
