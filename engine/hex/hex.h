// Hex grid geometry for the engine: pointy-top hexes in axial coordinates.
//
// North is up and r grows southward. Every rule computation uses `Hex`;
// offset coordinates and `CCRR` labels exist only for the player-facing edge
// (order parsers, report templates).
//
// Coordinate range: all functions here are exact for |q|, |r| < 2^24, far
// beyond any map the game uses (a few hundred hexes across).

#ifndef PBEM_ENGINE_HEX_HEX_H_
#define PBEM_ENGINE_HEX_HEX_H_

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace pbem::engine {

// The six neighbour directions of a pointy-top hex. The clockwise order
// starting at north-east is a rule of the game: reaction fire and retreat
// tie-breaks walk directions in this order, so never reorder the values.
enum class Direction : std::uint8_t { kNE = 0, kE, kSE, kSW, kW, kNW };

// All directions in rule order (clockwise from north-east).
inline constexpr std::array<Direction, 6> kAllDirections = {
    Direction::kNE, Direction::kE, Direction::kSE, Direction::kSW, Direction::kW, Direction::kNW};

// The direction pointing the other way (NE <-> SW, E <-> W, SE <-> NW).
Direction Opposite(Direction dir);

// Rotates `dir` by `steps` sixths of a turn; positive is clockwise, negative
// counter-clockwise, any magnitude is allowed.
Direction RotateClockwise(Direction dir, int steps);

// "NE", "E", "SE", "SW", "W" or "NW".
std::string_view DirectionName(Direction dir);

// Inverse of DirectionName; ASCII case-insensitive ("ne" and "Ne" parse too).
// Anything else, including surrounding spaces, yields nullopt.
std::optional<Direction> ParseDirection(std::string_view text);

// A hex in axial coordinates (the cube coordinate s = -q - r is implied).
// Also used as a displacement vector by operator+ / operator-.
struct Hex {
  std::int32_t q = 0;
  std::int32_t r = 0;

  constexpr std::int32_t s() const { return -q - r; }

  friend auto operator<=>(const Hex&, const Hex&) = default;
  friend bool operator==(const Hex&, const Hex&) = default;
};

constexpr Hex operator+(Hex a, Hex b) { return Hex{a.q + b.q, a.r + b.r}; }
constexpr Hex operator-(Hex a, Hex b) { return Hex{a.q - b.q, a.r - b.r}; }

// The unit axial vector of `dir`: NE (+1,-1), E (+1,0), SE (0,+1),
// SW (-1,+1), W (-1,0), NW (0,-1).
Hex DirectionVector(Direction dir);

// The adjacent hex in direction `dir`.
Hex Neighbor(Hex hex, Direction dir);

// The six neighbours, indexed like kAllDirections.
std::array<Hex, 6> Neighbors(Hex hex);

// Number of steps between two hexes (0 for the same hex).
int Distance(Hex a, Hex b);

// True iff Distance(a, b) == 1.
bool Adjacent(Hex a, Hex b);

// The direction from `from` to `to` when they are adjacent, else nullopt
// (also for from == to).
std::optional<Direction> DirectionTo(Hex from, Hex to);

// Debug form "(q,r)"; used by test diagnostics and logs, never by rules.
std::ostream& operator<<(std::ostream& os, Hex hex);
std::ostream& operator<<(std::ostream& os, Direction dir);

// 0-based offset coordinates in the "odd-r" layout: rows are horizontal and
// rows with an odd index are shifted half a hex east. Hex{0,0} is (0,0).
struct Offset {
  int col = 0;
  int row = 0;

  friend bool operator==(const Offset&, const Offset&) = default;
};

// Exact conversions for every hex, negative coordinates included:
// FromOffset(ToOffset(h)) == h and ToOffset(FromOffset(o)) == o.
Offset ToOffset(Hex hex);
Hex FromOffset(Offset offset);

// The player-facing `CCRR` label: 1-based column then 1-based row, both
// zero-padded to the same width, which is the larger of `min_width` and the
// digit count of the larger number. `min_width` below 2 is treated as 2 so
// that every label parses back (ParseLabel needs at least four digits).
// "0101" is Hex{0,0}; a 30x120 map's corner is "030120".
// A hex with a negative offset column or row has no label; for such a hex
// the result is the debug form "(q,r)", which ParseLabel rejects.
std::string FormatLabel(Hex hex, int min_width = 2);

// Parses a `CCRR` label: an even number (at least four) of ASCII digits, the
// first half the 1-based column and the second half the 1-based row, both at
// least 1 and at most 999999999. Anything else (signs, spaces, odd length,
// zero column or row) yields nullopt.
std::optional<Hex> ParseLabel(std::string_view text);

// Identity of one hexside. Canonical form: `dir` is kNE, kE or kSE, so that
// the side between two hexes has exactly one representation. Build values
// with SideOf or SideBetween; aggregate-initialising a Hexside with another
// direction gives a non-canonical value that compares unequal to its
// canonical twin.
struct Hexside {
  Hex hex;
  Direction dir = Direction::kNE;

  friend auto operator<=>(const Hexside&, const Hexside&) = default;
  friend bool operator==(const Hexside&, const Hexside&) = default;
};

// The side of `hex` facing `dir`, in canonical form.
Hexside SideOf(Hex hex, Direction dir);

// The two hexes sharing the side: (side.hex, Neighbor(side.hex, side.dir)).
std::pair<Hex, Hex> Sides(Hexside side);

// The side between two adjacent hexes, else nullopt.
std::optional<Hexside> SideBetween(Hex a, Hex b);

// Debug form "(q,r)/E".
std::ostream& operator<<(std::ostream& os, const Hexside& side);

}  // namespace pbem::engine

template <>
struct std::hash<pbem::engine::Hex> {
  std::size_t operator()(const pbem::engine::Hex& hex) const noexcept;
};

template <>
struct std::hash<pbem::engine::Hexside> {
  std::size_t operator()(const pbem::engine::Hexside& side) const noexcept;
};

#endif  // PBEM_ENGINE_HEX_HEX_H_
