// The map of a scenario: a rectangle of pointy-top hexes in the odd-r offset
// layout (row 0 at the north edge), with terrain and elevation level per hex,
// water and crossings per hexside, and roads and tracks as chains of hexes.
#ifndef PBEM_ENGINE_MORNE_PLAINE_MAP_H_
#define PBEM_ENGINE_MORNE_PLAINE_MAP_H_

#include <cstdint>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/ids.h"

namespace pbem::engine {

struct HexsideInfo {
  Water water = Water::kNone;
  Crossing crossing = Crossing::kNone;
};

// A road or a track: consecutive hexes are adjacent. Following the same
// route is what earns the road rate (digest 4.5).
struct Route {
  std::string name;
  bool track = false;
  std::vector<Hex> hexes;
};

class Map {
 public:
  Map() = default;
  // REQUIRES: width >= 1, height >= 1.
  Map(int width, int height, TerrainId default_terrain);

  int width() const { return width_; }
  int height() const { return height_; }
  bool Contains(Hex hex) const;
  // Every hex of the map, row by row from the north-west corner.
  std::vector<Hex> AllHexes() const;

  // REQUIRES: Contains(hex).
  TerrainId terrain(Hex hex) const { return terrain_[Index(hex)]; }
  int level(Hex hex) const { return level_[Index(hex)]; }
  void SetTerrain(Hex hex, TerrainId terrain) { terrain_[Index(hex)] = terrain; }
  void SetLevel(Hex hex, int level) { level_[Index(hex)] = level; }

  // REQUIRES: both hexes of the side are on the map.
  HexsideInfo side(Hexside side) const { return sides_[SideIndex(side)]; }
  void SetSide(Hexside side, HexsideInfo info) { sides_[SideIndex(side)] = info; }
  // Slope symbols on a hexside: the difference of the two levels.
  int SlopeCount(Hexside side) const;

  // Adds a route; returns its index. REQUIRES: consecutive hexes adjacent and
  // on the map (the codec checks this and reports the line).
  int AddRoute(Route route);
  const std::vector<Route>& routes() const { return routes_; }
  // Indices of the routes that run along `side` (connect its two hexes).
  const std::vector<std::int32_t>& RoutesAlong(Hexside side) const {
    return route_sides_[SideIndex(side)];
  }
  // Indices of the routes that pass through `hex`.
  const std::vector<std::int32_t>& RoutesThrough(Hex hex) const { return route_hexes_[Index(hex)]; }

 private:
  std::size_t Index(Hex hex) const;
  std::size_t SideIndex(Hexside side) const;

  int width_ = 0;
  int height_ = 0;
  std::vector<TerrainId> terrain_;
  std::vector<int> level_;
  // Three canonical sides (NE, E, SE) per hex; a side between two map hexes
  // always has its canonical hex on the map.
  std::vector<HexsideInfo> sides_;
  std::vector<Route> routes_;
  std::vector<std::vector<std::int32_t>> route_sides_;
  std::vector<std::vector<std::int32_t>> route_hexes_;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_MAP_H_
