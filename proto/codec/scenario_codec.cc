// Scenarios: a text-format file converted against a ruleset (labels, areas
// and hexsides parsed, names resolved, unit values filled from type
// defaults) and validated; every problem is reported at its file and line.
#include <algorithm>

#include "proto/codec/codec.h"
#include "proto/codec/shown.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec {

namespace {

namespace v1 = pbem::v1;

// Largest map side accepted: far beyond any real map, small enough that a
// typo cannot make us allocate gigabytes.
constexpr int kMaxMapSide = 1000;

std::string Indexed(std::string_view list, int i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

struct Problem {
  std::string path;
  std::string message;
};

bool Related(std::string_view a, std::string_view b) {
  const auto prefix = [](std::string_view whole, std::string_view part) {
    return whole.size() >= part.size() && whole.substr(0, part.size()) == part &&
           (whole.size() == part.size() || whole[part.size()] == '.' || whole[part.size()] == '[');
  };
  return prefix(a, b) || prefix(b, a);
}

class Converter {
 public:
  Converter(const v1::Scenario& proto, const engine::Ruleset& ruleset) : p_(proto), rs_(ruleset) {}

  engine::Scenario Run() {
    if (p_.format_version() > 1) {
      Add("format_version", "format version " + std::to_string(p_.format_version()) +
                                " is not supported (this build reads version 1)");
    }
    s_.name = p_.name();
    s_.title = p_.title();
    s_.description = p_.description();
    s_.ruleset = p_.ruleset();
    s_.turns = p_.turns();
    s_.first_side = SideFromProto(p_.first_side()).value_or(engine::Side::kBlue);
    s_.setup_only_first_turn = p_.setup_only_first_turn();

    bool map_ok = true;
    if (p_.width() < 1 || p_.width() > kMaxMapSide) {
      Add("width", "the map width must be 1 to " + std::to_string(kMaxMapSide) + ", got " +
                       std::to_string(p_.width()));
      map_ok = false;
    }
    if (p_.height() < 1 || p_.height() > kMaxMapSide) {
      Add("height", "the map height must be 1 to " + std::to_string(kMaxMapSide) + ", got " +
                        std::to_string(p_.height()));
      map_ok = false;
    }
    engine::TerrainId default_terrain;
    if (p_.default_terrain().empty()) {
      Add("default_terrain", "no default terrain given");
    } else if (const auto t = Terrain(p_.default_terrain(), "default_terrain")) {
      default_terrain = *t;
    }
    if (!map_ok) return std::move(s_);  // nothing below can be checked without a map
    s_.map = engine::Map(p_.width(), p_.height(), default_terrain);

    Hexes();
    Hexsides();
    Routes(p_.roads(), "roads", false);
    Routes(p_.tracks(), "tracks", true);
    Objectives();
    Deployment();
    Units();
    return std::move(s_);
  }

  std::vector<Problem>& problems() { return problems_; }
  // Paths whose validation problems are consequences of a reported one.
  const std::vector<std::string>& suppressed() const { return suppressed_; }

 private:
  void Add(std::string path, std::string message) {
    problems_.push_back(Problem{std::move(path), std::move(message)});
  }

  std::string MapSize() const {
    return std::to_string(s_.map.width()) + "x" + std::to_string(s_.map.height());
  }

  std::optional<engine::TerrainId> Terrain(const std::string& name, const std::string& path) {
    if (const auto id = rs_.FindTerrain(name)) return id;
    std::string known;
    for (const auto& t : rs_.terrain) known += (known.empty() ? "" : ", ") + t.name;
    Add(path, "unknown terrain '" + name + "' (ruleset '" + rs_.name + "' has: " + known + ")");
    return std::nullopt;
  }

  // A label on the map, or a problem at `path`.
  std::optional<engine::Hex> OnMap(const std::string& label, const std::string& path) {
    const auto hex = engine::ParseLabel(label);
    if (!hex) {
      Add(path, "bad hex label '" + label + "' (expected CCRR, e.g. \"0412\")");
      return std::nullopt;
    }
    if (!s_.map.Contains(*hex)) {
      Add(path, "hex " + label + " is off the map (" + MapSize() + ")");
      return std::nullopt;
    }
    return hex;
  }

  // "CCRR:CCRR": the rectangle of offset columns and rows between two
  // corners, inclusive.
  std::vector<engine::Hex> Area(const std::string& text, const std::string& path) {
    const auto colon = text.find(':');
    if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos) {
      Add(path, "bad area '" + text + "' (expected two corner labels \"CCRR:CCRR\")");
      return {};
    }
    const auto a = OnMap(text.substr(0, colon), path);
    const auto b = OnMap(text.substr(colon + 1), path);
    if (!a || !b) return {};
    const engine::Offset oa = engine::ToOffset(*a);
    const engine::Offset ob = engine::ToOffset(*b);
    std::vector<engine::Hex> out;
    for (int row = std::min(oa.row, ob.row); row <= std::max(oa.row, ob.row); ++row) {
      for (int col = std::min(oa.col, ob.col); col <= std::max(oa.col, ob.col); ++col) {
        out.push_back(engine::FromOffset(engine::Offset{col, row}));
      }
    }
    return out;
  }

  // The hexes of a "hexes" + "areas" pair of lists.
  std::vector<engine::Hex> HexSet(const google::protobuf::RepeatedPtrField<std::string>& hexes,
                                  const google::protobuf::RepeatedPtrField<std::string>& areas,
                                  const std::string& path) {
    std::vector<engine::Hex> out;
    for (int j = 0; j < hexes.size(); ++j) {
      if (const auto h = OnMap(hexes[j], path + Indexed(".hexes", j))) out.push_back(*h);
    }
    for (int j = 0; j < areas.size(); ++j) {
      const auto area = Area(areas[j], path + Indexed(".areas", j));
      out.insert(out.end(), area.begin(), area.end());
    }
    return out;
  }

  void Hexes() {
    struct FortClaim {
      engine::Hex hex;
      std::string path;
    };
    std::vector<FortClaim> claims;
    for (int i = 0; i < p_.hexes_size(); ++i) {
      const v1::HexArea& a = p_.hexes(i);
      const std::string path = Indexed("hexes", i);
      std::optional<engine::TerrainId> terrain;
      if (!a.terrain().empty()) terrain = Terrain(a.terrain(), path + ".terrain");
      const auto side = SideFromProto(a.fort_owner());
      for (const engine::Hex& h : HexSet(a.hexes(), a.areas(), path)) {
        if (terrain) s_.map.SetTerrain(h, *terrain);
        if (a.has_level()) s_.map.SetLevel(h, a.level());
        if (side) {
          s_.fort_owners[h] = *side;
          claims.push_back(FortClaim{h, path + ".fort_owner"});
        }
      }
    }
    // After every area is applied: a fort owner needs a fort.
    for (const FortClaim& c : claims) {
      const engine::TerrainId id = s_.map.terrain(c.hex);
      if (!id.valid() || id.index() >= rs_.terrain.size()) continue;  // already reported
      const engine::TerrainType& t = rs_.terrain_type(id);
      if (!t.fort) {
        Add(c.path, "hex " + engine::FormatLabel(c.hex) + " has a fort owner but its terrain '" +
                        t.name + "' is not a fort");
        s_.fort_owners.erase(c.hex);
      }
    }
  }

  void Hexsides() {
    for (int i = 0; i < p_.hexsides_size(); ++i) {
      const v1::HexsideFeature& f = p_.hexsides(i);
      engine::HexsideInfo info;
      switch (f.water()) {
        case v1::WATER_STREAM:
          info.water = engine::Water::kStream;
          break;
        case v1::WATER_RIVER:
          info.water = engine::Water::kRiver;
          break;
        case v1::WATER_MAJOR_RIVER:
          info.water = engine::Water::kMajorRiver;
          break;
        default:
          info.water = engine::Water::kNone;
          break;
      }
      switch (f.crossing()) {
        case v1::CROSSING_BRIDGE:
          info.crossing = engine::Crossing::kBridge;
          break;
        case v1::CROSSING_FORD:
          info.crossing = engine::Crossing::kFord;
          break;
        default:
          info.crossing = engine::Crossing::kNone;
          break;
      }
      for (int j = 0; j < f.sides_size(); ++j) {
        const std::string& text = f.sides(j);
        const std::string path = Indexed("hexsides", i) + Indexed(".sides", j);
        const auto colon = text.find(':');
        if (colon == std::string::npos) {
          Add(path,
              "bad hexside '" + text + "' (expected \"CCRR:DIR\", DIR one of NE E SE SW W NW)");
          continue;
        }
        const auto hex = OnMap(text.substr(0, colon), path);
        const auto dir = engine::ParseDirection(std::string_view(text).substr(colon + 1));
        if (!dir) {
          Add(path, "bad direction in hexside '" + text + "' (expected NE, E, SE, SW, W or NW)");
          continue;
        }
        if (!hex) continue;
        const engine::Hex other = engine::Neighbor(*hex, *dir);
        if (!s_.map.Contains(other)) {
          Add(path, "hexside " + text + " is on the map edge (the hex beyond it is off the map)");
          continue;
        }
        s_.map.SetSide(engine::SideOf(*hex, *dir), info);
      }
    }
  }

  void Routes(const google::protobuf::RepeatedPtrField<v1::Route>& routes, std::string_view list,
              bool track) {
    for (int i = 0; i < routes.size(); ++i) {
      const v1::Route& r = routes[i];
      const std::string path = Indexed(list, i);
      engine::Route route;
      route.name = r.name();
      route.track = track;
      bool ok = true;
      for (int j = 0; j < r.hexes_size(); ++j) {
        const std::string hp = path + Indexed(".hexes", j);
        const auto hex = OnMap(r.hexes(j), hp);
        if (!hex) {
          ok = false;
          continue;
        }
        if (!route.hexes.empty() && !engine::Adjacent(route.hexes.back(), *hex)) {
          Add(hp, "hex " + r.hexes(j) + " is not adjacent to the previous hex " +
                      engine::FormatLabel(route.hexes.back()) + " of the " +
                      (track ? "track" : "road"));
          ok = false;
        }
        route.hexes.push_back(*hex);
      }
      if (r.hexes_size() < 2) {
        Add(path, std::string("a ") + (track ? "track" : "road") + " needs at least two hexes");
        ok = false;
      }
      if (ok) s_.map.AddRoute(std::move(route));
    }
  }

  void Objectives() {
    for (int i = 0; i < p_.objectives_size(); ++i) {
      const v1::Objective& o = p_.objectives(i);
      const std::string path = Indexed("objectives", i);
      engine::Objective e;
      e.name = o.name();
      switch (o.kind()) {
        case v1::OBJECTIVE_OCCUPIED:
          e.kind = engine::ObjectiveKind::kOccupied;
          break;
        case v1::OBJECTIVE_PASSING:
          e.kind = engine::ObjectiveKind::kPassing;
          break;
        case v1::OBJECTIVE_OCCUPIED_ZONE:
          e.kind = engine::ObjectiveKind::kOccupiedZone;
          break;
        case v1::OBJECTIVE_PASSING_ZONE:
          e.kind = engine::ObjectiveKind::kPassingZone;
          break;
        default:
          Add(path + ".kind", "objective '" + o.name() +
                                  "' has no kind (OBJECTIVE_OCCUPIED, OBJECTIVE_PASSING, "
                                  "OBJECTIVE_OCCUPIED_ZONE or OBJECTIVE_PASSING_ZONE)");
          break;
      }
      for (int j = 0; j < o.hexes_size(); ++j) {
        if (const auto h = OnMap(o.hexes(j), path + Indexed(".hexes", j))) e.hexes.push_back(*h);
      }
      if (o.hexes_size() == 0)
        Add(path + ".hexes", "objective '" + Shown(o.name()) + "' has no hexes");
      e.vp_blue = o.vp_blue();
      e.vp_orange = o.vp_orange();
      e.initial_owner = SideFromProto(o.initial_owner());
      s_.objectives.push_back(std::move(e));
    }
  }

  void Deployment() {
    for (int i = 0; i < p_.deployment_zones_size(); ++i) {
      const v1::DeploymentZone& z = p_.deployment_zones(i);
      const std::string path = Indexed("deployment_zones", i);
      const auto side = SideFromProto(z.side());
      if (!side) Add(path + ".side", "a deployment zone needs a side (SIDE_BLUE or SIDE_ORANGE)");
      const auto hexes = HexSet(z.hexes(), z.areas(), path);
      if (side) s_.deployment[static_cast<int>(*side)].insert(hexes.begin(), hexes.end());
    }
  }

  // A unit value: the scenario's, else the type's default, else a problem
  // when `required`, else 0.
  int Value(const v1::UnitSpec& u, const std::string& path, std::string_view field, bool has,
            int value, const std::optional<int>& fallback, bool required, std::string_view why) {
    if (has) return value;
    if (fallback) return *fallback;
    if (required) {
      Add(path + "." + std::string(field), "unit '" + Shown(u.id()) + "' has no " +
                                               std::string(field) + " and its type '" + u.type() +
                                               "' gives no default (" + std::string(why) + ")");
    }
    return 0;
  }

  void Units() {
    for (int i = 0; i < p_.units_size(); ++i) {
      const v1::UnitSpec& u = p_.units(i);
      const std::string path = Indexed("units", i);
      engine::UnitSpec e;
      e.id = u.id();
      e.name = u.name();
      e.corps = u.corps();
      e.independent = u.independent();
      e.fixed = u.fixed();
      if (const auto side = SideFromProto(u.side())) {
        e.side = *side;
      } else {
        Add(path + ".side", "unit '" + Shown(u.id()) + "' has no side (SIDE_BLUE or SIDE_ORANGE)");
      }
      if (!u.start_hex().empty()) e.start_hex = OnMap(u.start_hex(), path + ".start_hex");

      const auto type_id = rs_.FindUnitType(u.type());
      if (!type_id) {
        std::string known;
        for (const auto& t : rs_.unit_types) known += (known.empty() ? "" : ", ") + t.name;
        Add(path + ".type", u.type().empty() ? "unit '" + Shown(u.id()) + "' has no type"
                                             : "unit '" + Shown(u.id()) + "': unknown unit type '" +
                                                   Shown(u.type()) + "' (ruleset '" + rs_.name +
                                                   "' has: " + known + ")");
        s_.units.push_back(std::move(e));  // keep indices aligned with the file
        suppressed_.push_back(path);       // its values are unknown: no more about it
        continue;
      }
      const engine::UnitType& type = rs_.unit_type(*type_id);
      const engine::UnitValues& d = type.defaults;
      e.type = *type_id;
      e.arm = type.arm;
      const bool leader = type.arm == engine::Arm::kLeader;
      const bool artillery = type.arm == engine::Arm::kArtillery;
      e.cs = Value(u, path, "cs", u.has_cs(), u.cs(), d.cs, true, "every unit has a CS");
      e.ma = Value(u, path, "ma", u.has_ma(), u.ma(), d.ma, true, "every unit has an MA");
      if (leader) {
        // Leaders have no MV (digest 1.5).
        if (u.has_mv()) Add(path + ".mv", "leader '" + Shown(u.id()) + "' has no MV; remove mv");
        e.mv = 0;
        e.command_radius =
            Value(u, path, "command_radius", u.has_command_radius(), u.command_radius(),
                  d.command_radius, true, "a leader needs a command radius");
      } else {
        e.mv = Value(u, path, "mv", u.has_mv(), u.mv(), d.mv, true, "every non-leader has an MV");
        e.command_radius = Value(u, path, "command_radius", u.has_command_radius(),
                                 u.command_radius(), d.command_radius, false, "");
      }
      e.bv = Value(u, path, "bv", u.has_bv(), u.bv(), d.bv, artillery,
                   "artillery needs a bombardment value");
      e.range = Value(u, path, "range", u.has_range(), u.range(), d.range, artillery,
                      "artillery needs a range");
      s_.units.push_back(std::move(e));
    }
  }

  const v1::Scenario& p_;
  const engine::Ruleset& rs_;
  engine::Scenario s_;
  std::vector<Problem> problems_;
  std::vector<std::string> suppressed_;
};

Result<LoadedScenario> Convert(const v1::Scenario& proto, const engine::Ruleset& ruleset,
                               const internal::Locator& locator) {
  Converter converter(proto, ruleset);
  engine::Scenario scenario = converter.Run();
  std::vector<Problem> problems = std::move(converter.problems());
  const std::size_t conversion_problems = problems.size();
  for (const engine::ScenarioProblem& sp : engine::ValidateScenario(scenario)) {
    // A unit whose start hex or value did not convert already has its error.
    bool repeated = false;
    for (std::size_t i = 0; i < conversion_problems && !repeated; ++i) {
      repeated = Related(problems[i].path, sp.path);
    }
    for (const std::string& prefix : converter.suppressed()) {
      repeated = repeated || Related(sp.path, prefix);
    }
    if (!repeated) problems.push_back(Problem{sp.path, sp.message});
  }
  if (!problems.empty()) {
    std::vector<Error> errors;
    for (const Problem& p : problems) errors.push_back(locator.At(p.path, p.message));
    return errors;
  }
  scenario.IndexUnits();
  return LoadedScenario{std::move(scenario), proto};
}

}  // namespace

Result<LoadedScenario> ScenarioFromProto(const pbem::v1::Scenario& proto, std::string_view source,
                                         const engine::Ruleset& ruleset) {
  return Convert(proto, ruleset, internal::Locator({}, std::string(source)));
}

Result<LoadedScenario> LoadScenarioText(std::string_view text, std::string_view source,
                                        const engine::Ruleset& ruleset) {
  v1::Scenario proto;
  internal::ParseInfoTree tree;
  auto parsed = internal::ParseText(text, source, proto, &tree);
  if (!parsed.ok()) return parsed.errors();
  internal::Locator locator({internal::TextSource{std::string(source), text, &proto, &tree}},
                            std::string(source));
  return Convert(proto, ruleset, locator);
}

Result<LoadedScenario> LoadScenarioFile(const std::filesystem::path& path,
                                        const engine::Ruleset& ruleset) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.errors();
  return LoadScenarioText(text.value(), path.string(), ruleset);
}

}  // namespace pbem::codec
