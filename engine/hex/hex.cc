#include "engine/hex/hex.h"

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>

namespace pbem::engine {
namespace {

constexpr std::array<std::string_view, 6> kDirectionNames = {"NE", "E", "SE", "SW", "W", "NW"};

constexpr std::array<Hex, 6> kDirectionVectors = {Hex{1, -1}, Hex{1, 0},  Hex{0, 1},
                                                  Hex{-1, 1}, Hex{-1, 0}, Hex{0, -1}};

constexpr int Index(Direction dir) { return static_cast<int>(dir); }

constexpr char AsciiUpper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}

// Floor division by 2 that is also correct for negative numbers (C++ integer
// division truncates toward zero, which would break odd-r for negative rows).
constexpr std::int64_t FloorHalf(std::int64_t v) { return (v - (v & 1)) / 2; }

int DigitCount(std::int64_t v) {
  int digits = 1;
  while (v >= 10) {
    v /= 10;
    ++digits;
  }
  return digits;
}

void AppendPadded(std::string& out, std::int64_t value, int width) {
  const std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) {
    out.append(static_cast<std::size_t>(width) - digits.size(), '0');
  }
  out += digits;
}

// Parses a run of ASCII digits; nullopt on a non-digit or a value above
// kMaxLabelNumber (bounded early so long inputs cannot overflow).
constexpr std::int64_t kMaxLabelNumber = 999'999'999;

std::optional<std::int64_t> ParseDigits(std::string_view text) {
  std::int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
    if (value > kMaxLabelNumber) return std::nullopt;
  }
  return value;
}

std::uint64_t Mix64(std::uint64_t z) {
  // SplitMix64 finaliser: cheap and spreads neighbouring hexes well.
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t PackHex(Hex hex) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(hex.q)) << 32) |
         static_cast<std::uint32_t>(hex.r);
}

}  // namespace

Direction Opposite(Direction dir) { return RotateClockwise(dir, 3); }

Direction RotateClockwise(Direction dir, int steps) {
  // Reduce `steps` first so that the sum cannot overflow for any int.
  const int turned = ((Index(dir) + steps % 6) % 6 + 6) % 6;
  return static_cast<Direction>(turned);
}

std::string_view DirectionName(Direction dir) {
  return kDirectionNames[static_cast<std::size_t>(Index(dir))];
}

std::optional<Direction> ParseDirection(std::string_view text) {
  for (const Direction dir : kAllDirections) {
    const std::string_view name = DirectionName(dir);
    if (name.size() != text.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < name.size(); ++i) {
      if (AsciiUpper(text[i]) != name[i]) same = false;
    }
    if (same) return dir;
  }
  return std::nullopt;
}

Hex DirectionVector(Direction dir) {
  return kDirectionVectors[static_cast<std::size_t>(Index(dir))];
}

Hex Neighbor(Hex hex, Direction dir) { return hex + DirectionVector(dir); }

std::array<Hex, 6> Neighbors(Hex hex) {
  std::array<Hex, 6> result;
  for (std::size_t i = 0; i < kAllDirections.size(); ++i) {
    result[i] = Neighbor(hex, kAllDirections[i]);
  }
  return result;
}

int Distance(Hex a, Hex b) {
  // 64-bit so that differences of extreme coordinates cannot overflow.
  const std::int64_t dq = std::int64_t{a.q} - b.q;
  const std::int64_t dr = std::int64_t{a.r} - b.r;
  const std::int64_t ds = -dq - dr;
  const auto abs = [](std::int64_t v) { return v < 0 ? -v : v; };
  return static_cast<int>((abs(dq) + abs(dr) + abs(ds)) / 2);
}

bool Adjacent(Hex a, Hex b) { return Distance(a, b) == 1; }

std::optional<Direction> DirectionTo(Hex from, Hex to) {
  for (const Direction dir : kAllDirections) {
    if (Neighbor(from, dir) == to) return dir;
  }
  return std::nullopt;
}

std::ostream& operator<<(std::ostream& os, Hex hex) {
  return os << '(' << hex.q << ',' << hex.r << ')';
}

std::ostream& operator<<(std::ostream& os, Direction dir) { return os << DirectionName(dir); }

Offset ToOffset(Hex hex) {
  const std::int64_t col = hex.q + FloorHalf(hex.r);
  return Offset{static_cast<int>(col), static_cast<int>(hex.r)};
}

Hex FromOffset(Offset offset) {
  const std::int64_t q = offset.col - FloorHalf(offset.row);
  return Hex{static_cast<std::int32_t>(q), static_cast<std::int32_t>(offset.row)};
}

std::string FormatLabel(Hex hex, int min_width) {
  const Offset offset = ToOffset(hex);
  if (offset.col < 0 || offset.row < 0) {
    // Appended piecewise: GCC 12 -O2 reports a false -Wrestrict on the
    // equivalent chain of operator+ calls.
    std::string debug = "(";
    debug += std::to_string(hex.q);
    debug += ',';
    debug += std::to_string(hex.r);
    debug += ')';
    return debug;
  }
  const std::int64_t col = std::int64_t{offset.col} + 1;
  const std::int64_t row = std::int64_t{offset.row} + 1;
  const int width = std::max({2, min_width, DigitCount(std::max(col, row))});
  std::string label;
  AppendPadded(label, col, width);
  AppendPadded(label, row, width);
  return label;
}

std::optional<Hex> ParseLabel(std::string_view text) {
  if (text.size() < 4 || text.size() % 2 != 0) return std::nullopt;
  const std::size_t half = text.size() / 2;
  const std::optional<std::int64_t> col = ParseDigits(text.substr(0, half));
  const std::optional<std::int64_t> row = ParseDigits(text.substr(half));
  if (!col || !row || *col < 1 || *row < 1) return std::nullopt;
  return FromOffset(Offset{static_cast<int>(*col - 1), static_cast<int>(*row - 1)});
}

Hexside SideOf(Hex hex, Direction dir) {
  switch (dir) {
    case Direction::kNE:
    case Direction::kE:
    case Direction::kSE:
      return Hexside{hex, dir};
    case Direction::kSW:
    case Direction::kW:
    case Direction::kNW:
      break;
  }
  // Seen from the neighbour, the same side faces the opposite way.
  return Hexside{Neighbor(hex, dir), Opposite(dir)};
}

std::pair<Hex, Hex> Sides(Hexside side) { return {side.hex, Neighbor(side.hex, side.dir)}; }

std::optional<Hexside> SideBetween(Hex a, Hex b) {
  const std::optional<Direction> dir = DirectionTo(a, b);
  if (!dir) return std::nullopt;
  return SideOf(a, *dir);
}

std::ostream& operator<<(std::ostream& os, const Hexside& side) {
  return os << side.hex << '/' << side.dir;
}

}  // namespace pbem::engine

std::size_t std::hash<pbem::engine::Hex>::operator()(const pbem::engine::Hex& hex) const noexcept {
  return static_cast<std::size_t>(pbem::engine::Mix64(pbem::engine::PackHex(hex)));
}

std::size_t std::hash<pbem::engine::Hexside>::operator()(
    const pbem::engine::Hexside& side) const noexcept {
  const std::uint64_t hex_bits = pbem::engine::Mix64(pbem::engine::PackHex(side.hex));
  const auto dir_bits = static_cast<std::uint64_t>(side.dir) + 1;
  return static_cast<std::size_t>(pbem::engine::Mix64(hex_bits + dir_bits));
}
