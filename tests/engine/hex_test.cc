#include "engine/hex/hex.h"

#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

// All hexes within `radius` of the origin.
std::vector<Hex> Region(int radius) {
  std::vector<Hex> hexes;
  for (int q = -radius; q <= radius; ++q) {
    for (int r = -radius; r <= radius; ++r) {
      const Hex hex{q, r};
      if (Distance(hex, Hex{}) <= radius) hexes.push_back(hex);
    }
  }
  return hexes;
}

TEST_CASE_MINI(DirectionOrderIsClockwiseFromNorthEast) {
  CHECK_EQ_MINI(kAllDirections.size(), 6u);
  for (std::size_t i = 0; i < kAllDirections.size(); ++i) {
    CHECK_EQ_MINI(static_cast<std::size_t>(kAllDirections[i]), i);
  }
  CHECK_EQ_MINI(kAllDirections[0], Direction::kNE);
  CHECK_EQ_MINI(kAllDirections[1], Direction::kE);
  CHECK_EQ_MINI(kAllDirections[2], Direction::kSE);
  CHECK_EQ_MINI(kAllDirections[3], Direction::kSW);
  CHECK_EQ_MINI(kAllDirections[4], Direction::kW);
  CHECK_EQ_MINI(kAllDirections[5], Direction::kNW);
}

TEST_CASE_MINI(OppositeAndRotation) {
  CHECK_EQ_MINI(Opposite(Direction::kNE), Direction::kSW);
  CHECK_EQ_MINI(Opposite(Direction::kE), Direction::kW);
  CHECK_EQ_MINI(Opposite(Direction::kSE), Direction::kNW);
  CHECK_EQ_MINI(Opposite(Direction::kSW), Direction::kNE);
  CHECK_EQ_MINI(Opposite(Direction::kW), Direction::kE);
  CHECK_EQ_MINI(Opposite(Direction::kNW), Direction::kSE);
  CHECK_EQ_MINI(RotateClockwise(Direction::kNE, 1), Direction::kE);
  CHECK_EQ_MINI(RotateClockwise(Direction::kNE, -1), Direction::kNW);
  CHECK_EQ_MINI(RotateClockwise(Direction::kNW, 1), Direction::kNE);
  CHECK_EQ_MINI(RotateClockwise(Direction::kW, 3), Direction::kE);
  CHECK_EQ_MINI(RotateClockwise(Direction::kE, 6), Direction::kE);
  CHECK_EQ_MINI(RotateClockwise(Direction::kE, 0), Direction::kE);
  CHECK_EQ_MINI(RotateClockwise(Direction::kE, -13), Direction::kNE);
  // INT_MAX = 6k + 1 and INT_MIN = 6k' - 2.
  CHECK_EQ_MINI(RotateClockwise(Direction::kNE, std::numeric_limits<int>::max()), Direction::kE);
  CHECK_EQ_MINI(RotateClockwise(Direction::kNE, std::numeric_limits<int>::min()), Direction::kW);
  for (const Direction dir : kAllDirections) {
    CHECK_EQ_MINI(Opposite(Opposite(dir)), dir);
    CHECK_EQ_MINI(RotateClockwise(RotateClockwise(dir, 4), -4), dir);
  }
}

TEST_CASE_MINI(DirectionNamesRoundTrip) {
  const std::vector<std::string> names = {"NE", "E", "SE", "SW", "W", "NW"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    CHECK_EQ_MINI(DirectionName(kAllDirections[i]), names[i]);
    CHECK_EQ_MINI(ParseDirection(names[i]), kAllDirections[i]);
  }
  CHECK_EQ_MINI(ParseDirection("ne"), Direction::kNE);
  CHECK_EQ_MINI(ParseDirection("sW"), Direction::kSW);
  CHECK_MINI(!ParseDirection("N").has_value());
  CHECK_MINI(!ParseDirection(" E").has_value());
  CHECK_MINI(!ParseDirection("NEE").has_value());
  CHECK_MINI(!ParseDirection("").has_value());
}

TEST_CASE_MINI(NeighborVectors) {
  const Hex origin{};
  CHECK_EQ_MINI(Neighbor(origin, Direction::kNE), (Hex{1, -1}));
  CHECK_EQ_MINI(Neighbor(origin, Direction::kE), (Hex{1, 0}));
  CHECK_EQ_MINI(Neighbor(origin, Direction::kSE), (Hex{0, 1}));
  CHECK_EQ_MINI(Neighbor(origin, Direction::kSW), (Hex{-1, 1}));
  CHECK_EQ_MINI(Neighbor(origin, Direction::kW), (Hex{-1, 0}));
  CHECK_EQ_MINI(Neighbor(origin, Direction::kNW), (Hex{0, -1}));
  const Hex hex{3, -7};
  const std::array<Hex, 6> around = Neighbors(hex);
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK_EQ_MINI(around[i], Neighbor(hex, kAllDirections[i]));
    CHECK_EQ_MINI(around[i] - hex, DirectionVector(kAllDirections[i]));
    CHECK_EQ_MINI(Distance(hex, around[i]), 1);
    CHECK_MINI(Adjacent(hex, around[i]));
    CHECK_EQ_MINI(DirectionTo(hex, around[i]), kAllDirections[i]);
    CHECK_EQ_MINI(DirectionTo(around[i], hex), Opposite(kAllDirections[i]));
    CHECK_EQ_MINI(Neighbor(around[i], Opposite(kAllDirections[i])), hex);
  }
  CHECK_EQ_MINI((Hex{2, -3}).s(), 1);
}

TEST_CASE_MINI(DistanceAndAdjacency) {
  CHECK_EQ_MINI(Distance(Hex{}, Hex{}), 0);
  CHECK_EQ_MINI(Distance(Hex{}, Hex{3, -1}), 3);
  CHECK_EQ_MINI(Distance(Hex{}, Hex{-2, 5}), 5);
  CHECK_EQ_MINI(Distance(Hex{1, 1}, Hex{-1, -1}), 4);
  CHECK_EQ_MINI(Distance(Hex{0, 0}, Hex{2, -4}), 4);
  CHECK_MINI(!Adjacent(Hex{}, Hex{}));
  CHECK_MINI(!Adjacent(Hex{}, Hex{1, 1}));
  CHECK_MINI(!DirectionTo(Hex{}, Hex{}).has_value());
  CHECK_MINI(!DirectionTo(Hex{}, Hex{2, 0}).has_value());
  CHECK_MINI(!DirectionTo(Hex{}, Hex{1, 1}).has_value());
  const std::vector<Hex> region = Region(4);
  CHECK_EQ_MINI(region.size(), 61u);  // 3 * 4 * 5 + 1.
  for (const Hex a : region) {
    for (const Hex b : region) {
      CHECK_EQ_MINI(Distance(a, b), Distance(b, a));
      CHECK_EQ_MINI(Adjacent(a, b), Distance(a, b) == 1);
      CHECK_EQ_MINI(DirectionTo(a, b).has_value(), Distance(a, b) == 1);
      for (const Hex c : Neighbors(b)) {
        // Moving one step changes the distance by at most one.
        const int delta = Distance(a, c) - Distance(a, b);
        CHECK_MINI(delta >= -1 && delta <= 1);
      }
    }
  }
}

TEST_CASE_MINI(OffsetKnownValues) {
  // Odd-r: rows with an odd index are shifted half a hex east, so the hex
  // south-east of (0,0) is (0,1) and the one south-west of (0,1) is (0,2).
  CHECK_EQ_MINI(ToOffset(Hex{0, 0}).col, 0);
  CHECK_EQ_MINI(ToOffset(Hex{0, 1}).col, 0);    // SE of origin.
  CHECK_EQ_MINI(ToOffset(Hex{-1, 2}).col, 0);   // SW of (0,1).
  CHECK_EQ_MINI(ToOffset(Hex{0, 2}).col, 1);    // SE of (0,1).
  CHECK_EQ_MINI(ToOffset(Hex{-1, 1}).col, -1);  // SW of origin.
  CHECK_EQ_MINI(ToOffset(Hex{1, -1}).col, 0);   // NE of origin.
  CHECK_EQ_MINI(ToOffset(Hex{0, -1}).col, -1);  // NW of origin.
  CHECK_EQ_MINI(ToOffset(Hex{0, -1}).row, -1);
  CHECK_EQ_MINI(ToOffset(Hex{-3, 7}).col, 0);
  CHECK_EQ_MINI(ToOffset(Hex{-3, 7}).row, 7);
  CHECK_EQ_MINI(FromOffset(Offset{11, 4}), (Hex{9, 4}));
  CHECK_EQ_MINI(FromOffset(Offset{0, -3}), (Hex{2, -3}));
}

TEST_CASE_MINI(OffsetRoundTripsEverywhere) {
  for (int q = -30; q <= 30; ++q) {
    for (int r = -30; r <= 30; ++r) {
      const Hex hex{q, r};
      CHECK_EQ_MINI(FromOffset(ToOffset(hex)), hex);
      const Offset offset{q, r};
      CHECK_MINI(ToOffset(FromOffset(offset)) == offset);
      // Within a row, east neighbours are the next column.
      CHECK_EQ_MINI(ToOffset(Neighbor(hex, Direction::kE)).col, ToOffset(hex).col + 1);
    }
  }
}

TEST_CASE_MINI(LabelsFormat) {
  CHECK_EQ_MINI(FormatLabel(Hex{0, 0}), "0101");
  CHECK_EQ_MINI(FormatLabel(FromOffset(Offset{11, 4})), "1205");
  CHECK_EQ_MINI(FormatLabel(FromOffset(Offset{9, 9})), "1010");
  CHECK_EQ_MINI(FormatLabel(FromOffset(Offset{99, 0})), "100001");
  CHECK_EQ_MINI(FormatLabel(FromOffset(Offset{29, 119})), "030120");
  CHECK_EQ_MINI(FormatLabel(Hex{0, 0}, 3), "001001");
  CHECK_EQ_MINI(FormatLabel(Hex{0, 0}, 1), "0101");
  CHECK_EQ_MINI(FormatLabel(FromOffset(Offset{99, 0}), 2), "100001");
  // Hexes left of or above 0101 have no label: a debug form is returned.
  CHECK_EQ_MINI(FormatLabel(Hex{0, -1}), "(0,-1)");
  CHECK_EQ_MINI(FormatLabel(Hex{-1, 1}), "(-1,1)");
  CHECK_MINI(!ParseLabel(FormatLabel(Hex{-1, 1})).has_value());
}

TEST_CASE_MINI(LabelsParse) {
  CHECK_EQ_MINI(ParseLabel("0101"), Hex{});
  CHECK_EQ_MINI(ParseLabel("1205"), FromOffset(Offset{11, 4}));
  CHECK_EQ_MINI(ParseLabel("001001"), Hex{});
  CHECK_EQ_MINI(ParseLabel("123456"), FromOffset(Offset{122, 455}));
  CHECK_EQ_MINI(ParseLabel("030120"), FromOffset(Offset{29, 119}));
  const std::vector<std::string> bad = {
      "",     "1",     "101",   "10101",
      "0100", "0001",  "0000",  "01a1",
      "+101", "01 01", " 0101", "0101 ",
      "-101", "0x01",  "01.1",  "99999999999999999999999999999999"};
  for (const std::string& text : bad) {
    CHECK_MINI(!ParseLabel(text).has_value());
  }
  // The largest accepted numbers.
  CHECK_EQ_MINI(ParseLabel("999999999999999999"), FromOffset(Offset{999999998, 999999998}));
  CHECK_MINI(!ParseLabel("10000000000000000001").has_value());
}

TEST_CASE_MINI(LabelsRoundTrip) {
  for (int col = 0; col < 130; ++col) {
    for (int row = 0; row < 130; ++row) {
      const Hex hex = FromOffset(Offset{col, row});
      for (const int width : {2, 3, 4}) {
        const std::string label = FormatLabel(hex, width);
        CHECK_EQ_MINI(label.size() % 2, 0u);
        CHECK_EQ_MINI(ParseLabel(label), hex);
      }
    }
  }
}

TEST_CASE_MINI(HexsidesAreCanonical) {
  CHECK_EQ_MINI(SideOf(Hex{}, Direction::kW), (Hexside{Hex{-1, 0}, Direction::kE}));
  CHECK_EQ_MINI(SideOf(Hex{}, Direction::kSW), (Hexside{Hex{-1, 1}, Direction::kNE}));
  CHECK_EQ_MINI(SideOf(Hex{}, Direction::kNW), (Hexside{Hex{0, -1}, Direction::kSE}));
  CHECK_EQ_MINI(SideOf(Hex{}, Direction::kE), (Hexside{Hex{}, Direction::kE}));
  for (const Hex hex : Region(3)) {
    std::set<Hexside> own;
    for (const Direction dir : kAllDirections) {
      const Hexside side = SideOf(hex, dir);
      own.insert(side);
      CHECK_MINI(side.dir == Direction::kNE || side.dir == Direction::kE ||
                 side.dir == Direction::kSE);
      CHECK_EQ_MINI(side, SideOf(Neighbor(hex, dir), Opposite(dir)));
      CHECK_EQ_MINI(SideBetween(hex, Neighbor(hex, dir)), side);
      CHECK_EQ_MINI(SideBetween(Neighbor(hex, dir), hex), side);
      const auto [first, second] = Sides(side);
      CHECK_MINI((first == hex && second == Neighbor(hex, dir)) ||
                 (second == hex && first == Neighbor(hex, dir)));
    }
    CHECK_EQ_MINI(own.size(), 6u);
  }
  CHECK_MINI(!SideBetween(Hex{}, Hex{}).has_value());
  CHECK_MINI(!SideBetween(Hex{}, Hex{2, -1}).has_value());
}

TEST_CASE_MINI(HashesWork) {
  std::unordered_set<Hex> hexes;
  std::unordered_set<Hexside> sides;
  const std::vector<Hex> region = Region(6);
  for (const Hex hex : region) {
    hexes.insert(hex);
    for (const Direction dir : kAllDirections) sides.insert(SideOf(hex, dir));
  }
  CHECK_EQ_MINI(hexes.size(), region.size());
  // Each side is counted once although both hexes beside it insert it: a
  // radius-n region has 9n^2 + 15n + 6 distinct sides touching it.
  CHECK_EQ_MINI(sides.size(), 9u * 36u + 15u * 6u + 6u);
  CHECK_MINI(hexes.count(Hex{6, -6}) == 1);
  CHECK_MINI(hexes.count(Hex{7, -6}) == 0);
}

TEST_CASE_MINI(StreamOutput) {
  std::ostringstream out;
  out << Hex{1, -2} << ' ' << Direction::kSW << ' ' << SideOf(Hex{}, Direction::kW);
  CHECK_EQ_MINI(out.str(), "(1,-2) SW (-1,0)/E");
}

}  // namespace
}  // namespace pbem::engine
