#include "templates/testing/sample_maps.h"

#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace pbem::templates::testing {

namespace {

using engine::Arm;
using engine::Direction;
using engine::Hex;
using engine::Side;

// Sample data is written by hand: a bad label is a bug in this file.
Hex L(std::string_view label) {
  const auto hex = engine::ParseLabel(label);
  if (!hex) {
    std::fprintf(stderr, "sample_maps: bad label %.*s\n", static_cast<int>(label.size()),
                 label.data());
    std::abort();
  }
  return *hex;
}

// "CCRR:CCRR", both corners inclusive.
std::vector<Hex> Area(std::string_view area) {
  const Hex a = L(area.substr(0, 4));
  const Hex b = L(area.substr(5, 4));
  const engine::Offset oa = engine::ToOffset(a);
  const engine::Offset ob = engine::ToOffset(b);
  std::vector<Hex> out;
  for (int row = oa.row; row <= ob.row; ++row) {
    for (int col = oa.col; col <= ob.col; ++col) out.push_back(engine::FromOffset({col, row}));
  }
  return out;
}

// "CCRR:DIR".
engine::Hexside SideAt(std::string_view text) {
  const auto dir = engine::ParseDirection(text.substr(5));
  if (!dir) std::abort();
  return engine::SideOf(L(text.substr(0, 4)), *dir);
}

engine::TerrainId Terrain(const engine::Ruleset& rs, std::string_view name) {
  const auto id = rs.FindTerrain(name);
  if (!id) std::abort();
  return *id;
}

engine::TerrainType MakeTerrain(std::string name, std::string colour) {
  engine::TerrainType t;
  t.name = std::move(name);
  t.colour = std::move(colour);
  t.move_costs = {engine::MoveCost{false, 1, {}}};
  t.stuck_chance_in_4 = {0};
  return t;
}

engine::UnitType MakeType(std::string name, Arm arm, engine::UnitValues defaults) {
  engine::UnitType t;
  t.name = std::move(name);
  t.arm = arm;
  t.movement_class = engine::MovementClassId{0};
  t.defaults = defaults;
  return t;
}

// A unit with its type's default values (scenario overrides applied by the caller).
engine::UnitSpec MakeUnit(const engine::Ruleset& rs, std::string id, std::string name, Side side,
                          std::string corps, std::string_view type, Hex at) {
  const auto type_id = rs.FindUnitType(type);
  if (!type_id) std::abort();
  const engine::UnitType& t = rs.unit_type(*type_id);
  engine::UnitSpec u;
  u.id = std::move(id);
  u.name = std::move(name);
  u.side = side;
  u.corps = std::move(corps);
  u.type = *type_id;
  u.arm = t.arm;
  u.cs = t.defaults.cs.value_or(0);
  u.mv = t.defaults.mv.value_or(0);
  u.ma = t.defaults.ma.value_or(0);
  u.bv = t.defaults.bv.value_or(0);
  u.range = t.defaults.range.value_or(0);
  u.command_radius = t.defaults.command_radius.value_or(0);
  u.start_hex = at;
  return u;
}

void SetTerrain(engine::Scenario& s, const std::vector<Hex>& hexes, engine::TerrainId t) {
  for (Hex h : hexes) s.map.SetTerrain(h, t);
}

void SetWater(engine::Scenario& s, const std::vector<std::string_view>& sides, engine::Water w,
              engine::Crossing c = engine::Crossing::kNone) {
  for (std::string_view side : sides) s.map.SetSide(SideAt(side), engine::HexsideInfo{w, c});
}

engine::Route MakeRoute(std::string name, bool track, const std::vector<std::string_view>& hexes) {
  engine::Route r;
  r.name = std::move(name);
  r.track = track;
  for (std::string_view h : hexes) r.hexes.push_back(L(h));
  return r;
}

engine::Objective MakeObjective(std::string name, engine::ObjectiveKind kind,
                                std::vector<Hex> hexes, int vp_blue, int vp_orange,
                                std::optional<Side> owner = std::nullopt) {
  engine::Objective o;
  o.name = std::move(name);
  o.kind = kind;
  o.hexes = std::move(hexes);
  o.vp_blue = vp_blue;
  o.vp_orange = vp_orange;
  o.initial_owner = owner;
  return o;
}

std::uint32_t Mix(std::uint32_t a, std::uint32_t b, std::uint32_t salt) {
  std::uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA6Bu ^ salt * 0xC2B2AE35u;
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return h;
}

// A route from `from` to `to`, each step to the neighbour closest to `to` (ties: the first
// direction in rule order), bridging any water it crosses.
void AddGreedyRoute(engine::Scenario& s, std::string name, bool track, Hex from, Hex to) {
  engine::Route r;
  r.name = std::move(name);
  r.track = track;
  Hex cur = from;
  r.hexes.push_back(cur);
  while (cur != to) {
    Hex best = cur;
    int best_d = engine::Distance(cur, to);
    for (Direction d : engine::kAllDirections) {
      const Hex n = engine::Neighbor(cur, d);
      if (!s.map.Contains(n)) continue;
      const int dist = engine::Distance(n, to);
      if (dist < best_d) {
        best = n;
        best_d = dist;
      }
    }
    if (best == cur) break;
    const engine::Hexside side = *engine::SideBetween(cur, best);
    engine::HexsideInfo info = s.map.side(side);
    if (info.water != engine::Water::kNone && info.crossing == engine::Crossing::kNone) {
      info.crossing = engine::Crossing::kBridge;
      s.map.SetSide(side, info);
    }
    cur = best;
    r.hexes.push_back(cur);
  }
  s.map.AddRoute(std::move(r));
}

}  // namespace

engine::Ruleset MornePlaineRuleset() {
  engine::Ruleset rs;
  rs.name = "morne-plaine";
  rs.version = "sample";
  rs.movement_classes = {{"infantry", ""}};
  // Names and colours as in engine/rulesets/morne-plaine/10-terrain.textproto.
  rs.terrain = {
      MakeTerrain("clear", "#e6eec4"),   MakeTerrain("rough", "#b9a57e"),
      MakeTerrain("coppice", "#93a65b"), MakeTerrain("orchard", "#c5e07a"),
      MakeTerrain("woods", "#3c7a3c"),   MakeTerrain("town", "#b5483b"),
      MakeTerrain("hamlet", "#d99a6c"),  MakeTerrain("marsh", "#86c1c6"),
      MakeTerrain("dune", "#ecd488"),    MakeTerrain("palm_grove", "#5fae7f"),
      MakeTerrain("fort", "#6b6b78"),
  };
  rs.terrain[10].fort = true;
  // Defaults as in engine/rulesets/morne-plaine/20-units.textproto.
  rs.unit_types = {
      MakeType("line_infantry", Arm::kInfantry, {5, 4, 3, {}, {}, {}}),
      MakeType("guard_infantry", Arm::kInfantry, {8, 6, 3, {}, {}, {}}),
      MakeType("light_cavalry", Arm::kCavalry, {3, 4, 5, {}, {}, {}}),
      MakeType("heavy_cavalry", Arm::kCavalry, {5, 5, 4, {}, {}, {}}),
      MakeType("foot_artillery", Arm::kArtillery, {2, 3, 2, 3, 3, {}}),
      MakeType("horse_artillery", Arm::kArtillery, {2, 3, 4, 2, 3, {}}),
      MakeType("leader", Arm::kLeader, {2, {}, 5, {}, {}, 2}),
  };
  return rs;
}

engine::Scenario BoisDeLaMorne(const engine::Ruleset& rs) {
  using engine::Crossing;
  using engine::ObjectiveKind;
  using engine::Water;
  engine::Scenario s;
  s.name = "bois-de-la-morne";
  s.title = "Le Bois de la Morne";
  s.ruleset = "morne-plaine";
  s.map = engine::Map(30, 20, Terrain(rs, "clear"));

  for (Hex h : Area("0512:1015")) s.map.SetLevel(h, 1);
  for (Hex h : Area("0913:1114")) s.map.SetLevel(h, 2);

  SetTerrain(s, Area("0503:0604"), Terrain(rs, "woods"));
  SetTerrain(s, {L("1904"), L("2004")}, Terrain(rs, "coppice"));
  SetTerrain(s, {L("2403"), L("2503")}, Terrain(rs, "palm_grove"));
  SetTerrain(s, {L("1209"), L("1309"), L("1409")}, Terrain(rs, "marsh"));
  SetTerrain(s, {L("0411")}, Terrain(rs, "hamlet"));
  SetTerrain(s, {L("0512"), L("0612")}, Terrain(rs, "rough"));
  SetTerrain(s, {L("1013")}, Terrain(rs, "fort"));
  s.fort_owners[L("1013")] = Side::kOrange;
  SetTerrain(s, {L("1512"), L("1612"), L("1613")}, Terrain(rs, "town"));
  SetTerrain(s, {L("1412"), L("1413")}, Terrain(rs, "orchard"));
  SetTerrain(s, Area("1913:2114"), Terrain(rs, "woods"));
  SetTerrain(s, {L("2015")}, Terrain(rs, "woods"));
  SetTerrain(s, {L("2616"), L("2716")}, Terrain(rs, "dune"));

  SetWater(s,
           {"0110:SW", "0110:SE", "0210:SW", "0210:SE", "0310:SW", "0310:SE", "0410:SE", "0510:SW",
            "0510:SE", "0610:SW", "0610:SE", "0710:SW", "0710:SE", "0810:SE", "0910:SW", "0910:SE",
            "1010:SW", "1010:SE"},
           Water::kStream);
  SetWater(s, {"0410:SW"}, Water::kStream, Crossing::kBridge);
  SetWater(s, {"0810:SW"}, Water::kStream, Crossing::kFord);
  SetWater(s, {"1110:SW", "1110:SE", "1210:SW", "1210:SE", "1310:SW", "1310:SE", "1410:SW",
               "1410:SE", "1510:SW", "1510:SE", "1610:SE", "1710:SW", "1710:SE", "1810:SW",
               "1810:SE", "1910:SW", "1910:SE", "2010:SW", "2010:SE", "2110:SW", "2110:SE",
               "2210:SE", "2310:SW", "2310:SE", "2410:SW", "2410:SE", "2510:SW", "2510:SE"},
           Water::kRiver);
  SetWater(s, {"1610:SW"}, Water::kRiver, Crossing::kBridge);
  SetWater(s, {"2210:SW"}, Water::kRiver, Crossing::kFord);
  SetWater(s,
           {"2610:SW", "2610:SE", "2710:SW", "2710:SE", "2810:SW", "2810:SE", "2910:SW", "2910:SE",
            "3010:SW"},
           Water::kMajorRiver);

  s.map.AddRoute(
      MakeRoute("Chaussée de Namur", false,
                {"1601", "1602", "1603", "1604", "1605", "1606", "1607", "1608", "1609", "1610",
                 "1611", "1612", "1613", "1614", "1615", "1616", "1617", "1618", "1619", "1620"}));
  s.map.AddRoute(
      MakeRoute("Route de Wavre", false,
                {"0107", "0207", "0307", "0407", "0507", "0607", "0707", "0807", "0907", "1007",
                 "1107", "1207", "1307", "1407", "1507", "1607", "1707", "1807", "1907", "2007",
                 "2107", "2207", "2307", "2407", "2507", "2607", "2707", "2807", "2907", "3007"}));
  s.map.AddRoute(MakeRoute("Chemin du Gué", true,
                           {"1615", "1515", "1415", "1315", "1215", "1114", "1014", "0914", "0814",
                            "0813", "0812", "0811", "0810", "0809", "0808", "0807"}));

  s.objectives = {
      MakeObjective("Village de Morne-Plaine", ObjectiveKind::kOccupied, {L("1612")}, 2, 1),
      MakeObjective("Pont de la Morne", ObjectiveKind::kOccupied, {L("1611")}, 1, 1),
      MakeObjective("Gué de la Ferme", ObjectiveKind::kPassing, {L("2211")}, 1, 1, Side::kOrange),
      MakeObjective("Plateau du Mont-Morne", ObjectiveKind::kOccupiedZone,
                    {L("0913"), L("1013"), L("1113"), L("0914"), L("1014"), L("1114")}, 1, 1),
  };
  for (Hex h : Area("0101:3004")) s.deployment[0].insert(h);
  for (Hex h : Area("0117:3020")) s.deployment[1].insert(h);

  const Side B = Side::kBlue;
  const Side O = Side::kOrange;
  auto unit = [&](const char* id, const char* name, Side side, const char* corps, const char* type,
                  const char* at) {
    s.units.push_back(MakeUnit(rs, id, name, side, corps, type, L(at)));
    return &s.units.back();
  };
  unit("b-l1", "Lt-Gen. Sir Henry Ashcombe", B, "I Corps", "leader", "1603")->command_radius = 3;
  unit("b-i1", "Highland Brigade", B, "I Corps", "line_infantry", "1404");
  unit("b-i2", "Brigade Lambert", B, "I Corps", "line_infantry", "1604");
  {
    engine::UnitSpec* u =
        unit("b-i3", "Brigade van Bylandt (Dutch-Belgians)", B, "I Corps", "line_infantry", "1804");
    u->cs = 4;
    u->mv = 3;
  }
  unit("b-i4", "Brunswick Leib-Bataillon", B, "I Corps", "line_infantry", "1302");
  unit("b-g1", "1st Foot Guards", B, "I Corps", "guard_infantry", "1502");
  unit("b-fa1", "Sandham's Foot Battery", B, "I Corps", "foot_artillery", "1704")->fixed = true;
  unit("b-l2", "Lt-Gen. the Earl of Uxmoor", B, "Cavalry Corps", "leader", "2302");
  unit("b-lc1", "23rd Light Dragoons", B, "Cavalry Corps", "light_cavalry", "2204");
  unit("b-lc2", "Hussar Brigade", B, "Cavalry Corps", "light_cavalry", "2404");
  unit("b-hc1", "Household Brigade", B, "Cavalry Corps", "heavy_cavalry", "2303");
  unit("b-ha1", "Mercer's Troop, Royal Horse Artillery", B, "Cavalry Corps", "horse_artillery",
       "2203");
  unit("o-l1", "Général comte d'Erlanger", O, "1er Corps", "leader", "1618")->command_radius = 3;
  unit("o-i1", "Division Quiot", O, "1er Corps", "line_infantry", "1617");
  unit("o-i2", "Division Donzelot", O, "1er Corps", "line_infantry", "1417");
  unit("o-i3", "Division Marcognet", O, "1er Corps", "line_infantry", "1817");
  unit("o-i4", "Division Durutte", O, "1er Corps", "line_infantry", "1519")->cs = 4;
  unit("o-fa1", "Grande batterie du 1er Corps", O, "1er Corps", "foot_artillery", "1718")->bv = 4;
  unit("o-l2", "Maréchal de Saint-Aubin", O, "Garde et réserve", "leader", "0918");
  unit("o-g1", "Chasseurs à pied de la Garde", O, "Garde et réserve", "guard_infantry", "1018")
      ->fixed = true;
  unit("o-lc1", "Chasseurs à cheval de Piré", O, "Garde et réserve", "light_cavalry", "0817");
  unit("o-hc1", "Cuirassiers de Milhaud", O, "Garde et réserve", "heavy_cavalry", "0919");
  unit("o-hc2", "Carabiniers à cheval", O, "Garde et réserve", "heavy_cavalry", "1119");
  unit("o-ha1", "Artillerie à cheval de la Garde", O, "Garde et réserve", "horse_artillery",
       "1017");

  s.turns = 12;
  s.first_side = Side::kBlue;
  return s;
}

engine::Scenario LargeSampleMap(const engine::Ruleset& rs, int width, int height) {
  engine::Scenario s;
  s.name = "large-sample";
  s.title = "Generated sample map " + std::to_string(width) + "x" + std::to_string(height);
  s.ruleset = "morne-plaine";
  s.map = engine::Map(width, height, Terrain(rs, "clear"));
  const auto at = [](int col, int row) { return engine::FromOffset({col, row}); };
  const auto chance = [](int col, int row, std::uint32_t salt, std::uint32_t per_mille) {
    return Mix(static_cast<std::uint32_t>(col), static_cast<std::uint32_t>(row), salt) % 1000 <
           per_mille;
  };

  // Hills: rings of level around a few summits; the last one has a steep plateau.
  const int hills = std::max(1, width * height / 500);
  for (int i = 0; i < hills; ++i) {
    const Hex top =
        at(static_cast<int>(Mix(i, 1, 11) % width), static_cast<int>(Mix(i, 2, 11) % height));
    const bool plateau = i == hills - 1;
    for (Hex h : s.map.AllHexes()) {
      const int d = engine::Distance(h, top);
      int level = plateau ? (d <= 1 ? 2 : 0) : (d <= 1 ? 2 : d <= 3 ? 1 : 0);
      if (!plateau && d == 0 && i % 2 == 0) level = 3;
      if (level > s.map.level(h)) s.map.SetLevel(h, level);
    }
  }

  // Terrain patches: woods, coppice, orchards, marsh, rough, dunes, palms.
  struct Patch {
    const char* terrain;
    std::uint32_t salt;
    std::uint32_t seeds_per_mille;
    int radius;
    std::uint32_t fill_per_mille;
  };
  const Patch patches[] = {{"woods", 21, 25, 2, 700},  {"coppice", 22, 10, 1, 600},
                           {"orchard", 23, 6, 1, 700}, {"rough", 24, 8, 1, 500},
                           {"dune", 25, 3, 1, 500},    {"palm_grove", 26, 3, 1, 500}};
  for (const Patch& p : patches) {
    const engine::TerrainId t = Terrain(rs, p.terrain);
    for (Hex seed : s.map.AllHexes()) {
      const engine::Offset o = engine::ToOffset(seed);
      if (!chance(o.col, o.row, p.salt, p.seeds_per_mille)) continue;
      for (Hex h : s.map.AllHexes()) {
        const engine::Offset oh = engine::ToOffset(h);
        if (engine::Distance(h, seed) <= p.radius &&
            chance(oh.col, oh.row, p.salt + 100, p.fill_per_mille)) {
          s.map.SetTerrain(h, t);
        }
      }
    }
  }

  // A river across the middle (a major river at its east end) and a stream in the north.
  const int river_row = height / 2;
  const int stream_row = height / 4;
  const int major_from = width - std::max(1, width / 6);
  for (int col = 0; col < width; ++col) {
    const engine::Water w = col >= major_from ? engine::Water::kMajorRiver : engine::Water::kRiver;
    for (Direction d : {Direction::kSW, Direction::kSE}) {
      const Hex h = at(col, river_row);
      if (!s.map.Contains(engine::Neighbor(h, d))) continue;
      const bool ford = col % 11 == 5 && d == Direction::kSW && w == engine::Water::kRiver;
      s.map.SetSide(engine::SideOf(h, d),
                    {w, ford ? engine::Crossing::kFord : engine::Crossing::kNone});
    }
    if (col < width / 2) {
      for (Direction d : {Direction::kSW, Direction::kSE}) {
        const Hex h = at(col, stream_row);
        if (!s.map.Contains(engine::Neighbor(h, d))) continue;
        s.map.SetSide(engine::SideOf(h, d), {engine::Water::kStream, engine::Crossing::kNone});
      }
    }
    // Marsh along the north bank.
    if (chance(col, river_row, 31, 250)) s.map.SetTerrain(at(col, river_row), Terrain(rs, "marsh"));
  }

  // Towns with hamlets and a fort, objectives in the towns.
  const int towns = std::max(2, width * height / 400);
  for (int i = 0; i < towns; ++i) {
    const int col = 2 + static_cast<int>(Mix(i, 3, 41) % std::max(1, width - 4));
    const int row = 2 + static_cast<int>(Mix(i, 4, 41) % std::max(1, height - 4));
    const Hex c = at(col, row);
    s.map.SetTerrain(c, Terrain(rs, "town"));
    const Hex e = engine::Neighbor(c, Direction::kE);
    if (s.map.Contains(e)) s.map.SetTerrain(e, Terrain(rs, "town"));
    const Hex sw = engine::Neighbor(c, Direction::kSW);
    if (s.map.Contains(sw)) s.map.SetTerrain(sw, Terrain(rs, "hamlet"));
    if (i < 4) {
      s.objectives.push_back(MakeObjective(
          "Town " + std::to_string(i + 1), engine::ObjectiveKind::kOccupied, {c}, 1 + i % 2, 1,
          i % 3 == 0 ? std::optional<Side>(Side::kOrange) : std::nullopt));
    }
    if (i == 1) {
      const Hex f = engine::Neighbor(c, Direction::kNW);
      if (s.map.Contains(f)) {
        s.map.SetTerrain(f, Terrain(rs, "fort"));
        s.fort_owners[f] = Side::kBlue;
      }
    }
  }

  // Roads north to south and west to east, a track; water crossed is bridged.
  for (int k = 1; k <= std::max(1, width / 20); ++k) {
    const int col = k * width / (std::max(1, width / 20) + 1);
    AddGreedyRoute(s, "North road " + std::to_string(k), false, at(col, 0),
                   at(std::min(width - 1, col + height / 6), height - 1));
  }
  AddGreedyRoute(s, "Cross road", false, at(0, height / 3), at(width - 1, height / 3 + 2));
  AddGreedyRoute(s, "Farm track", true, at(width / 5, height - 1), at(width / 2, river_row - 3));

  // Units: corps of a leader and seven units, blue in the north, orange in the south.
  static constexpr const char* kTypes[] = {"line_infantry",  "line_infantry", "guard_infantry",
                                           "light_cavalry",  "heavy_cavalry", "foot_artillery",
                                           "horse_artillery"};
  const int per_side = std::max(8, width * height / 60);
  for (Side side : {Side::kBlue, Side::kOrange}) {
    int placed = 0;
    for (int row = 0; row < height && placed < per_side; ++row) {
      const int r = side == Side::kBlue ? 1 + row : height - 2 - row;
      if (r < 0 || r >= height) break;
      for (int col = 1 + row % 2; col < width - 1 && placed < per_side; col += 2) {
        const Hex h = at(col, r);
        if (rs.terrain_type(s.map.terrain(h)).fort) continue;
        const int corps = placed / 8;
        const std::string corps_name =
            std::string(side == Side::kBlue ? "Corps " : "Corps O") + std::to_string(corps + 1);
        const char* type = placed % 8 == 0 ? "leader" : kTypes[(placed % 8) - 1];
        const std::string id =
            std::string(side == Side::kBlue ? "b" : "o") + std::to_string(placed);
        s.units.push_back(MakeUnit(rs, id, id, side, corps_name, type, h));
        ++placed;
      }
    }
  }
  s.turns = 12;
  return s;
}

std::vector<engine::Event> MoveEvents(engine::UnitId unit, const std::vector<Hex>& path) {
  std::vector<engine::Event> out;
  for (std::size_t i = 1; i < path.size(); ++i) {
    engine::Event e;
    e.phase = engine::Phase::kMovement;
    e.body = engine::payload::MoveStep{};
    e.unit = unit;
    e.hexes = {path[i - 1], path[i]};
    out.push_back(std::move(e));
  }
  return out;
}

bool ReleaseFontCachesAtExit() {
  static const bool registered = [] {
    std::atexit([] {
      cairo_debug_reset_static_data();
      FcFini();
    });
    return true;
  }();
  return registered;
}

}  // namespace pbem::templates::testing
