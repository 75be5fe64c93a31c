#include "engine/hex/line.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <vector>

#include "engine/hex/hex.h"
#include "tests/engine/mini_test.h"

// Hand-worked cases use the lattice of line.cc: the centre of Hex{q,r} is
// (X, Y) = (2q + r, 3r) and its corners are (X+-1, Y+-1) and (X, Y+-2).

namespace pbem::engine {
namespace {

std::vector<LineItem> Items(Hex from, Hex to) { return TraceLine(from, to).items; }

LineItem H(int q, int r) { return LineItem::ForHex(Hex{q, r}); }

LineItem S(Hex a, Hex b) {
  const std::optional<Hexside> side = SideBetween(a, b);
  return LineItem::ForSide(side.value_or(Hexside{}));
}

// Prints a trace on failure.
struct Trace {
  std::vector<LineItem> items;
  friend bool operator==(const Trace&, const Trace&) = default;
  friend std::ostream& operator<<(std::ostream& os, const Trace& trace) {
    os << "[";
    for (std::size_t i = 0; i < trace.items.size(); ++i) {
      os << (i == 0 ? "" : ", ") << trace.items[i];
    }
    return os << "]";
  }
};

Trace T(Hex from, Hex to) { return Trace{Items(from, to)}; }
Trace Expect(std::vector<LineItem> items) { return Trace{std::move(items)}; }

std::vector<Hex> Region(int radius) {
  std::vector<Hex> hexes;
  for (int q = -radius; q <= radius; ++q) {
    for (int r = -radius; r <= radius; ++r) {
      if (Distance(Hex{q, r}, Hex{}) <= radius) hexes.push_back(Hex{q, r});
    }
  }
  return hexes;
}

// 60 degrees clockwise about the origin: cube (q, r, s) -> (-r, -s, -q).
Hex Rotate(Hex hex) { return Hex{-hex.r, -hex.s()}; }

LineItem Rotate(const LineItem& item) {
  if (item.kind == LineItem::Kind::kHex) return LineItem::ForHex(Rotate(item.hex));
  return LineItem::ForSide(SideOf(Rotate(item.side.hex), RotateClockwise(item.side.dir, 1)));
}

TEST_CASE_MINI(TrivialTracesAreEmpty) {
  CHECK_MINI(Items(Hex{}, Hex{}).empty());
  CHECK_MINI(Items(Hex{5, -2}, Hex{5, -2}).empty());
  for (const Hex n : Neighbors(Hex{2, 3})) {
    CHECK_MINI(Items(Hex{2, 3}, n).empty());
  }
}

TEST_CASE_MINI(StraightRow) {
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{3, 0}), Expect({H(1, 0), H(2, 0)}));
  CHECK_EQ_MINI(T(Hex{3, 0}, Hex{0, 0}), Expect({H(2, 0), H(1, 0)}));
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{2, 0}), Expect({H(1, 0)}));
}

TEST_CASE_MINI(OtherHexAxes) {
  // Along the SE axis every segment passes centre to centre through the
  // middle of shared sides, like a row.
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{0, 3}), Expect({H(0, 1), H(0, 2)}));
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{-3, 3}), Expect({H(-1, 1), H(-2, 2)}));
}

TEST_CASE_MINI(DueSouthRunsAlongASide) {
  // (0,0) -> (0,6) is the line X = 0. It leaves Hex{0,0} at its south corner
  // (0,2), runs along the side (0,2)-(0,4) that is the west side of Hex{0,1}
  // and the east side of Hex{-1,1}, and enters Hex{-1,2} at its north corner
  // (0,4). Neither Hex{0,1} nor Hex{-1,1} is entered.
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{-1, 2}), Expect({S(Hex{0, 1}, Hex{-1, 1})}));
  CHECK_EQ_MINI(S(Hex{0, 1}, Hex{-1, 1}), LineItem::ForSide(Hexside{Hex{-1, 1}, Direction::kE}));
}

TEST_CASE_MINI(DueNorthAlongAHexDiagonal) {
  // Hex{2,-4} has centre (0,-12): again X = 0, distance 4. From (0,0): the
  // side (0,-2)-(0,-4) between Hex{0,-1} (centre (-1,-3)) and Hex{1,-1}
  // (centre (1,-3)); then the interior of Hex{1,-2} (centre (0,-6)) from its
  // south corner (0,-4) to its north corner (0,-8); then the side
  // (0,-8)-(0,-10) between Hex{1,-3} (centre (-1,-9)) and Hex{2,-3}
  // (centre (1,-9)); then Hex{2,-4}'s south corner (0,-10).
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{2, -4}),
                Expect({S(Hex{0, -1}, Hex{1, -1}), H(1, -2), S(Hex{1, -3}, Hex{2, -3})}));
  CHECK_EQ_MINI(T(Hex{2, -4}, Hex{0, 0}),
                Expect({S(Hex{1, -3}, Hex{2, -3}), H(1, -2), S(Hex{0, -1}, Hex{1, -1})}));
}

TEST_CASE_MINI(BetweenTwoNeighboursRunsAlongTheirSide) {
  // Hex{1,1} (centre (3,3)) is at distance 2 off every axis. The segment
  // (0,0)-(3,3) passes through the corner (1,1) shared by Hex{0,0}, Hex{1,0}
  // and Hex{0,1}, then runs along the side (1,1)-(2,2), which is the SW side
  // of Hex{1,0} and the NE side of Hex{0,1}, then reaches corner (2,2) of
  // Hex{1,1}. So it is a hexside, not a vertex-only touch.
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{1, 1}), Expect({S(Hex{1, 0}, Hex{0, 1})}));
  CHECK_EQ_MINI(S(Hex{1, 0}, Hex{0, 1}), LineItem::ForSide(Hexside{Hex{0, 1}, Direction::kNE}));
}

TEST_CASE_MINI(TouchingOnlyAVertexDoesNotCount) {
  // Hex{4,1} has centre (9,3): the segment is y = x / 3. It crosses the east
  // side of Hex{0,0} at (1,1/3) into Hex{1,0} (centre (2,0)), and at t = 1/3
  // passes exactly through (3,1), the corner shared by Hex{1,0}, Hex{2,0} and
  // Hex{1,1}. Just before it is inside Hex{1,0}, just after inside Hex{2,0}
  // (point (4,4/3)); Hex{1,1} (centre (3,3)) is touched only at that corner,
  // so it is not listed. The segment then crosses Hex{2,0}'s SE side at
  // (4.5,1.5), the midpoint, into Hex{2,1}; by central symmetry it passes
  // through corner (6,2) touching Hex{3,0} only there, and ends via Hex{3,1}.
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{4, 1}), Expect({H(1, 0), H(2, 0), H(2, 1), H(3, 1)}));
}

TEST_CASE_MINI(GenericLineWithoutSpecialPoints) {
  // Hex{2,1} has centre (5,3); gcd(5,3) = 1, so no lattice point (and hence
  // no corner) lies strictly inside the segment y = 3x/5. It leaves Hex{0,0}
  // through its east side at (1,0.6), leaves Hex{1,0} through its SE side
  // x + y = 4 at (2.5,1.5), and leaves Hex{1,1} through its east side at
  // (4,2.4) into Hex{2,1}.
  CHECK_EQ_MINI(T(Hex{0, 0}, Hex{2, 1}), Expect({H(1, 0), H(1, 1)}));
}

TEST_CASE_MINI(SameRowIsExactlyTheHexesBetween) {
  for (int r = -6; r <= 6; ++r) {
    for (int q1 = -8; q1 <= 8; ++q1) {
      for (int q2 = -8; q2 <= 8; ++q2) {
        std::vector<LineItem> expected;
        const int step = q2 > q1 ? 1 : -1;
        for (int q = q1 + step; q != q2 && q1 != q2; q += step) {
          expected.push_back(H(q, r));
        }
        CHECK_EQ_MINI(T(Hex{q1, r}, Hex{q2, r}), Expect(expected));
      }
    }
  }
  // A long row far from the origin.
  const std::vector<LineItem> long_row = Items(Hex{-200, 57}, Hex{200, 57});
  REQUIRE_MINI(long_row.size() == 399u);
  for (std::size_t i = 0; i < long_row.size(); ++i) {
    CHECK_EQ_MINI(long_row[i], H(-199 + static_cast<int>(i), 57));
  }
}

// The lattice geometry again, written independently of line.cc: a hex is
// crossed iff some open sub-interval of the segment between consecutive
// crossings of the hex's six edge lines has its midpoint strictly inside;
// a side is run along iff the segment is collinear with the side and their
// overlap has positive length.
struct Corner {
  std::int64_t x;
  std::int64_t y;
};

std::array<Corner, 6> Corners(Hex hex) {
  const std::int64_t x = 2 * std::int64_t{hex.q} + hex.r;
  const std::int64_t y = 3 * std::int64_t{hex.r};
  // Corner i and i+1 bound the side facing kAllDirections[i].
  return {{{x, y - 2}, {x + 1, y - 1}, {x + 1, y + 1}, {x, y + 2}, {x - 1, y + 1}, {x - 1, y - 1}}};
}

std::int64_t Cross(Corner o, Corner a, Corner b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

bool ReferenceCrossesInterior(Corner a, Corner b, Hex hex) {
  const std::array<Corner, 6> c = Corners(hex);
  // Parameters t = num / den (den = common positive denominator) where the
  // segment meets each edge line.
  std::vector<std::pair<std::int64_t, std::int64_t>> cuts = {{0, 1}, {1, 1}};
  for (int i = 0; i < 6; ++i) {
    const Corner p = c[static_cast<std::size_t>(i)];
    const Corner q = c[static_cast<std::size_t>((i + 1) % 6)];
    const std::int64_t fa = Cross(p, q, a);
    const std::int64_t fb = Cross(p, q, b);
    if (fa == fb) continue;  // Parallel to this edge line.
    std::int64_t num = fa;
    std::int64_t den = fa - fb;  // f(t) = fa + t (fb - fa) = 0.
    if (den < 0) {
      num = -num;
      den = -den;
    }
    if (num > 0 && num < den) cuts.push_back({num, den});
  }
  std::sort(cuts.begin(), cuts.end(),
            [](auto x, auto y) { return x.first * y.second < y.first * x.second; });
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    // Midpoint m = (n1/d1 + n2/d2) / 2 = mn / md.
    const std::int64_t mn = cuts[i].first * cuts[i + 1].second + cuts[i + 1].first * cuts[i].second;
    const std::int64_t md = 2 * cuts[i].second * cuts[i + 1].second;
    if (mn == 2 * cuts[i].first * cuts[i + 1].second) continue;  // Empty.
    // Point = a + m (b - a), scaled by md; strictly left of every edge
    // (corners are listed clockwise on screen, i.e. with y growing down).
    const Corner point{a.x * md + mn * (b.x - a.x), a.y * md + mn * (b.y - a.y)};
    bool inside = true;
    for (int k = 0; k < 6; ++k) {
      const Corner p = c[static_cast<std::size_t>(k)];
      const Corner q = c[static_cast<std::size_t>((k + 1) % 6)];
      const Corner ps{p.x * md, p.y * md};
      const Corner qs{q.x * md, q.y * md};
      if (Cross(ps, qs, point) <= 0) inside = false;
    }
    if (inside) return true;
  }
  return false;
}

bool ReferenceRunsAlong(Corner a, Corner b, Corner p, Corner q) {
  if (Cross(a, b, p) != 0 || Cross(a, b, q) != 0) return false;
  const auto along = [&](Corner v) {
    return (v.x - a.x) * (b.x - a.x) + (v.y - a.y) * (b.y - a.y);
  };
  const std::int64_t length = along(b);
  const std::int64_t lo = std::max<std::int64_t>(0, std::min(along(p), along(q)));
  const std::int64_t hi = std::min(length, std::max(along(p), along(q)));
  return lo < hi;
}

void CheckAgainstReference(Hex from, Hex to) {
  const int d = Distance(from, to);
  const Corner a{2 * std::int64_t{from.q} + from.r, 3 * std::int64_t{from.r}};
  const Corner b{2 * std::int64_t{to.q} + to.r, 3 * std::int64_t{to.r}};
  std::set<Hex> expected_hexes;
  std::set<Hexside> expected_sides;
  for (int dq = -d; dq <= d; ++dq) {
    for (int dr = -d; dr <= d; ++dr) {
      const Hex hex = from + Hex{dq, dr};
      if (Distance(hex, from) > d || Distance(hex, to) > d) continue;
      if (hex != from && hex != to && ReferenceCrossesInterior(a, b, hex)) {
        expected_hexes.insert(hex);
      }
      const std::array<Corner, 6> c = Corners(hex);
      for (std::size_t i = 0; i < 6; ++i) {
        if (ReferenceRunsAlong(a, b, c[i], c[(i + 1) % 6])) {
          expected_sides.insert(SideOf(hex, kAllDirections[i]));
        }
      }
    }
  }
  std::set<Hex> hexes;
  std::set<Hexside> sides;
  for (const LineItem& item : Items(from, to)) {
    if (item.kind == LineItem::Kind::kHex) {
      hexes.insert(item.hex);
    } else {
      sides.insert(item.side);
    }
  }
  CHECK_MINI(hexes == expected_hexes);
  CHECK_MINI(sides == expected_sides);
}

TEST_CASE_MINI(MatchesIndependentReference) {
  const std::vector<Hex> region = Region(5);
  for (const Hex a : region) {
    for (const Hex b : region) CheckAgainstReference(a, b);
  }
  CheckAgainstReference(Hex{-7, 3}, Hex{9, -12});
  CheckAgainstReference(Hex{40, -20}, Hex{13, 15});
}

// Checks the contract's structural properties for one pair.
void CheckProperties(Hex from, Hex to) {
  const std::vector<LineItem> items = Items(from, to);
  const int d = Distance(from, to);

  // Reversal symmetry.
  std::vector<LineItem> reversed = Items(to, from);
  std::reverse(reversed.begin(), reversed.end());
  CHECK_MINI(items == reversed);

  std::set<Hex> seen;
  std::set<Hexside> seen_sides;
  for (const LineItem& item : items) {
    if (item.kind == LineItem::Kind::kHex) {
      CHECK_MINI(seen.insert(item.hex).second);
      CHECK_MINI(item.hex != from && item.hex != to);
      CHECK_MINI(Distance(from, item.hex) <= d && Distance(item.hex, to) <= d);
    } else {
      CHECK_MINI(seen_sides.insert(item.side).second);
      CHECK_MINI(item.side == SideOf(item.side.hex, item.side.dir));
      const auto [x, y] = Sides(item.side);
      CHECK_MINI(x != from && x != to && y != from && y != to);
    }
  }

  // Continuity: walking from `from` through the items to `to`, each step
  // goes to an adjacent hex (a crossed side or a passed corner: the three
  // hexes at a corner are mutually adjacent), a run along a side starts and
  // ends at corners shared with the hexes before and after it, and two sides
  // are never consecutive (no two sides at a corner are collinear).
  std::vector<LineItem> chain = {LineItem::ForHex(from)};
  chain.insert(chain.end(), items.begin(), items.end());
  chain.push_back(LineItem::ForHex(to));
  if (from == to) return;
  for (std::size_t i = 0; i + 1 < chain.size(); ++i) {
    const LineItem& x = chain[i];
    const LineItem& y = chain[i + 1];
    if (x.kind == LineItem::Kind::kHex && y.kind == LineItem::Kind::kHex) {
      CHECK_MINI(Adjacent(x.hex, y.hex));
    } else if (x.kind == LineItem::Kind::kHexside && y.kind == LineItem::Kind::kHexside) {
      CHECK_MINI(false);
    } else {
      const Hex hex = x.kind == LineItem::Kind::kHex ? x.hex : y.hex;
      const Hexside side = x.kind == LineItem::Kind::kHex ? y.side : x.side;
      const auto [p, q] = Sides(side);
      CHECK_MINI(Adjacent(hex, p) && Adjacent(hex, q));
    }
  }
}

TEST_CASE_MINI(StructuralProperties) {
  const std::vector<Hex> region = Region(5);
  for (const Hex a : region) {
    for (const Hex b : region) CheckProperties(a, b);
  }
  CheckProperties(Hex{0, 0}, Hex{300, -150});
  CheckProperties(Hex{-120, 200}, Hex{150, -90});
  CheckProperties(Hex{17, -400}, Hex{-17, 400});
}

TEST_CASE_MINI(InvariantUnderTranslationAndRotation) {
  const std::vector<Hex> region = Region(4);
  const Hex shift{-13, 29};
  for (const Hex a : region) {
    for (const Hex b : region) {
      const std::vector<LineItem> items = Items(a, b);
      std::vector<LineItem> shifted;
      std::vector<LineItem> rotated;
      for (const LineItem& item : items) {
        LineItem moved = item;
        moved.hex = item.kind == LineItem::Kind::kHex ? item.hex + shift : Hex{};
        moved.side.hex = item.kind == LineItem::Kind::kHexside ? item.side.hex + shift : Hex{};
        shifted.push_back(moved);
        rotated.push_back(Rotate(item));
      }
      CHECK_MINI(Items(a + shift, b + shift) == shifted);
      CHECK_MINI(Items(Rotate(a), Rotate(b)) == rotated);
    }
  }
}

}  // namespace
}  // namespace pbem::engine
