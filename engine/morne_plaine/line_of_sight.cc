#include "engine/morne_plaine/line_of_sight.h"

#include <cstdint>

#include "engine/hex/line.h"

namespace pbem::engine {

bool HexBlocksSight(const Ruleset& ruleset, const Map& map, Hex from, Hex to, Hex h) {
  // A hex off the map has no terrain and no level: nothing to block with.
  if (!map.Contains(h)) return false;
  const std::int64_t height =
      map.level(h) + (ruleset.terrain_type(map.terrain(h)).blocks_los ? 1 : 0);
  const std::int64_t lf = map.level(from);
  const std::int64_t lt = map.level(to);
  const std::int64_t d = Distance(from, h);
  const std::int64_t big_d = Distance(from, to);
  // Digest 3.3 step 5: H > Lf + (Lt - Lf) * d / D, times D > 0. Step 4
  // (equal levels, H > L) is the case Lt == Lf.
  return height * big_d > lf * big_d + (lt - lf) * d;
}

LosResult LineOfSight(const Ruleset& ruleset, const Map& map, Hex from, Hex to) {
  LosResult out;
  if (ruleset.params.los_model == LosModel::kNone || from == to) return out;
  for (const LineItem& item : TraceLine(from, to).items) {
    if (item.kind == LineItem::Kind::kHex) {
      if (HexBlocksSight(ruleset, map, from, to, item.hex)) {
        out.clear = false;
        out.block = LosBlock{{item.hex}};
        return out;
      }
      continue;
    }
    // Digest 3.3 step 2: a line along a hexside is blocked only when the
    // hexes on both sides block.
    const auto [a, b] = Sides(item.side);
    if (HexBlocksSight(ruleset, map, from, to, a) && HexBlocksSight(ruleset, map, from, to, b)) {
      out.clear = false;
      out.block = LosBlock{{a, b}};
      return out;
    }
  }
  return out;
}

}  // namespace pbem::engine
