#include "engine/morne_plaine/map.h"

#include <algorithm>
#include <cstdlib>

#include "engine/core/check.h"

namespace pbem::engine {

Map::Map(int width, int height, TerrainId default_terrain)
    : width_(width),
      height_(height),
      terrain_(static_cast<std::size_t>(width * height), default_terrain),
      level_(static_cast<std::size_t>(width * height), 0),
      sides_(static_cast<std::size_t>(width * height) * 3),
      route_sides_(static_cast<std::size_t>(width * height) * 3),
      route_hexes_(static_cast<std::size_t>(width * height)) {}

bool Map::Contains(Hex hex) const {
  const Offset o = ToOffset(hex);
  return o.col >= 0 && o.col < width_ && o.row >= 0 && o.row < height_;
}

std::vector<Hex> Map::AllHexes() const {
  std::vector<Hex> out;
  out.reserve(static_cast<std::size_t>(width_ * height_));
  for (int row = 0; row < height_; ++row) {
    for (int col = 0; col < width_; ++col) out.push_back(FromOffset({col, row}));
  }
  return out;
}

std::size_t Map::Index(Hex hex) const {
  const Offset o = ToOffset(hex);
  PBEM_CHECK(o.col >= 0 && o.col < width_ && o.row >= 0 && o.row < height_);
  return static_cast<std::size_t>(o.row * width_ + o.col);
}

std::size_t Map::SideIndex(Hexside side) const {
  return Index(side.hex) * 3 + static_cast<std::size_t>(side.dir);
}

int Map::SlopeCount(Hexside side) const {
  const auto [a, b] = Sides(side);
  return std::abs(level(a) - level(b));
}

int Map::AddRoute(Route route) {
  const auto id = static_cast<std::int32_t>(routes_.size());
  for (std::size_t i = 0; i < route.hexes.size(); ++i) {
    auto& through = route_hexes_[Index(route.hexes[i])];
    if (std::find(through.begin(), through.end(), id) == through.end()) through.push_back(id);
    if (i == 0) continue;
    const auto side = SideBetween(route.hexes[i - 1], route.hexes[i]);
    PBEM_CHECK(side.has_value());
    auto& along = route_sides_[SideIndex(*side)];
    if (std::find(along.begin(), along.end(), id) == along.end()) along.push_back(id);
  }
  routes_.push_back(std::move(route));
  return id;
}

}  // namespace pbem::engine
