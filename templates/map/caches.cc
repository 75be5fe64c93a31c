// The caches of templates/map/caches.h: keys written out in full, the process-wide hex
// stamps and static layers.
#include "templates/map/caches.h"

#include <cstring>

namespace pbem::templates::map_detail {

using engine::Direction;
using engine::Hex;

void AppendBytes(std::string* key, const void* data, std::size_t n) {
  key->append(static_cast<const char*>(data), n);
}
void AppendInt(std::string* key, long long v) { AppendBytes(key, &v, sizeof v); }
void AppendDouble(std::string* key, double v) { AppendBytes(key, &v, sizeof v); }
void AppendString(std::string* key, const std::string& v) {
  AppendInt(key, static_cast<long long>(v.size()));
  key->append(v);
}

StampCache& Stamps() {
  static StampCache cache;
  return cache;
}

std::string StaticLayerKey(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const engine::GameState& state, const MapLayout& layout,
                           const RenderOptions& options) {
  std::string key;
  const engine::Map& map = scenario.map;
  for (long long v :
       {static_cast<long long>(layout.image_width()), static_cast<long long>(layout.map_band_top()),
        static_cast<long long>(layout.map_band_bottom()), static_cast<long long>(map.width()),
        static_cast<long long>(map.height()), static_cast<long long>(options.labels_in_every_hex),
        static_cast<long long>(options.elevation_shading)}) {
    AppendInt(&key, v);
  }
  const Box& g = layout.grid_box();
  for (double v : {layout.hex_size(), g.x, g.y, g.w, g.h}) AppendDouble(&key, v);
  AppendInt(&key, static_cast<long long>(ruleset.terrain.size()));
  for (const engine::TerrainType& t : ruleset.terrain) {
    AppendString(&key, t.name);
    AppendString(&key, t.colour);
  }
  for (Hex hex : map.AllHexes()) {
    const engine::TerrainId t = map.terrain(hex);
    AppendInt(&key, t.valid() ? static_cast<long long>(t.index()) : -1);
    AppendInt(&key, map.level(hex));
    for (Direction dir : {Direction::kNE, Direction::kE, Direction::kSE}) {
      if (!map.Contains(engine::Neighbor(hex, dir))) continue;
      const engine::HexsideInfo info = map.side(engine::SideOf(hex, dir));
      AppendInt(&key, static_cast<int>(info.water) * 16 + static_cast<int>(info.crossing));
    }
  }
  AppendInt(&key, static_cast<long long>(map.routes().size()));
  for (const engine::Route& r : map.routes()) {
    AppendInt(&key, r.track ? 1 : 0);
    AppendInt(&key, static_cast<long long>(r.hexes.size()));
    for (Hex h : r.hexes)
      AppendInt(&key, (static_cast<long long>(h.q) << 32) ^ (h.r & 0xffffffffLL));
  }
  for (const engine::Objective& o : scenario.objectives) {
    AppendInt(&key, static_cast<long long>(o.hexes.size()));
    for (Hex h : o.hexes)
      AppendInt(&key, (static_cast<long long>(h.q) << 32) ^ (h.r & 0xffffffffLL));
  }
  AppendInt(&key, static_cast<long long>(state.fort_owners.size()));
  for (const auto& [h, side] : state.fort_owners) {
    AppendInt(&key, (static_cast<long long>(h.q) << 32) ^ (h.r & 0xffffffffLL));
    AppendInt(&key, static_cast<int>(side));
  }
  return key;
}

StaticLayerCache& LayerCache() {
  static StaticLayerCache cache;
  return cache;
}

void CopyLayerRows(const StaticLayer& layer, int y0, int y1, bool to_layer,
                   unsigned char* image_pixels) {
  const int from = std::max(y0, layer.top);
  const int to = std::min(y1, layer.bottom);
  if (from >= to) return;
  unsigned char* image = image_pixels + static_cast<std::ptrdiff_t>(from) * layer.stride;
  unsigned char* cached =
      layer.pixels.get() + static_cast<std::ptrdiff_t>(from - layer.top) * layer.stride;
  const std::size_t bytes = static_cast<std::size_t>(to - from) * layer.stride;
  if (to_layer) {
    std::memcpy(cached, image, bytes);
  } else {
    std::memcpy(image, cached, bytes);
  }
}

}  // namespace pbem::templates::map_detail
