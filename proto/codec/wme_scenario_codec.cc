// The French game's scenario (wme_codec.h); its ruleset is wme_codec.cc. Every list is walked
// with a loop over a count bounded before the walk; nothing recurses on input.
#include <set>
#include <string>
#include <utility>

#include "engine/wme/state.h"
#include "proto/codec/data_checker.h"
#include "proto/codec/shown.h"
#include "proto/codec/text_locations.h"
#include "proto/codec/wme_codec.h"
#include "proto/codec/wme_codec_tables.h"

namespace pbem::codec {
namespace {

namespace v1 = pbem::v1;
namespace pb = google::protobuf;
using internal::Checker;
using internal::EnumPair;
using internal::Indexed;
using internal::kWmeMaxCoordCm;
using internal::kWmeMaxLengthCm;
using internal::kWmeTroopTypes;
using internal::Located;
using internal::Problem;
using internal::ToProtoEnum;

// Bounds of the schema's comments (wme_scenario.proto).
constexpr int kMaxPlayers = 8;
constexpr int kMaxFeatures = 1000;
constexpr int kMaxPieces = 100;
constexpr int kMaxPoints = 1000;
constexpr int kMaxUnits = 1000;
constexpr int kMaxBases = 10000;
constexpr int kMaxCommanders = 100;
constexpr int kMaxBasesLost = 100;
constexpr std::int64_t kMaxHeading = 360'000;
constexpr std::int64_t kNorth = 90'000;

constexpr EnumPair<v1::WmeTerrainCategory, wme::TerrainCategory> kCategories[] = {
    {v1::WME_TERRAIN_CATEGORY_PASSABLE, wme::TerrainCategory::kPassable},
    {v1::WME_TERRAIN_CATEGORY_ROUGH, wme::TerrainCategory::kRough},
    {v1::WME_TERRAIN_CATEGORY_DIFFICULT, wme::TerrainCategory::kDifficult},
    {v1::WME_TERRAIN_CATEGORY_IMPASSABLE, wme::TerrainCategory::kImpassable}};
constexpr EnumPair<v1::WmeMount, wme::Mount> kMounts[] = {
    {v1::WME_MOUNT_NON_CHOC, wme::Mount::kNonChoc}, {v1::WME_MOUNT_CHOC, wme::Mount::kChoc}};

class ScenarioConverter : public Checker {
 public:
  ScenarioConverter(const v1::WmeScenario& proto, const wme::Ruleset& ruleset)
      : p_(proto), rs_(ruleset) {}

  wme::Scenario Run() {
    FormatVersion(p_.format_version());
    SameRuleset(p_.ruleset(), rs_.ruleset);
    InRange("table_width_cm", p_.table_width_cm(), 1, kWmeMaxLengthCm, s_.table_width_cm);
    InRange("table_height_cm", p_.table_height_cm(), 1, kWmeMaxLengthCm, s_.table_height_cm);
    Players(p_.players(), kMaxPlayers, s_.players);
    Terrain();
    Units();
    Bases();
    Commanders();
    return std::move(s_);
  }

  // The path of the element an engine problem names by id (a unit, base or commander).
  std::string PathOf(const std::string& id) const {
    for (int i = 0; i < p_.bases_size(); ++i) {
      if (p_.bases(i).id() == id) return Indexed("bases", i);
    }
    for (int i = 0; i < p_.units_size(); ++i) {
      if (p_.units(i).id() == id) return Indexed("units", i);
    }
    for (int i = 0; i < p_.commanders_size(); ++i) {
      if (p_.commanders(i).id() == id) return Indexed("commanders", i);
    }
    return "";
  }

 private:
  bool Known(const std::string& path, const std::string& id, const std::set<std::string>& ids,
             std::string_view what) {
    if (ids.count(id) != 0) return true;
    Add(path, "'" + Shown(id) + "' is not one of the scenario's " + std::string(what));
    return false;
  }

  std::optional<table::Point> Point(const std::string& path, bool has, const v1::WmePoint& p) {
    return Checker::Point(path, has, "x_cm", p.x_cm(), "y_cm", p.y_cm(), kWmeMaxCoordCm,
                          table::kUnitsPerThousandthCm);
  }

  std::optional<table::Polygon> Polygon(const std::string& path, const v1::WmePolygon& p) {
    return SimplePolygon(path, Points(path + ".points", p.points(), 3, kMaxPoints,
                                      [this](const std::string& at, const v1::WmePoint& point) {
                                        return Point(at, true, point);
                                      }));
  }

  void Terrain() {
    if (!Count("terrain", p_.terrain_size(), 0, kMaxFeatures)) return;
    std::set<std::string> ids;
    for (int i = 0; i < p_.terrain_size(); ++i) {
      const v1::WmeTerrainFeature& t = p_.terrain(i);
      const std::string path = Indexed("terrain", i);
      wme::TerrainFeature f;
      f.id = t.id();
      NewId(path, t.id(), ids);
      if (t.kind().empty() || Word(path + ".kind", t.kind())) f.kind = t.kind();  // optional
      if (Count(path + ".pieces", t.pieces_size(), 1, kMaxPieces)) {
        for (int k = 0; k < t.pieces_size(); ++k) {
          if (auto piece = Polygon(Indexed(path + ".pieces", k), t.pieces(k))) {
            f.pieces.push_back(std::move(*piece));
          }
        }
      }
      Enum(path + ".category", true, t.category(), kCategories, f.category);
      f.broken = t.broken();
      f.dense = t.dense();
      f.blocks_los = t.blocks_los();
      InRange(path + ".see_into_cm", t.see_into_cm(), 0, kWmeMaxLengthCm, f.see_into_cm);
      f.fortification = t.fortification();
      f.high = t.high();
      s_.terrain.push_back(std::move(f));
    }
  }

  void Units() {
    if (!Count("units", p_.units_size(), 0, kMaxUnits)) return;
    for (int i = 0; i < p_.units_size(); ++i) {
      const v1::WmeUnit& u = p_.units(i);
      const std::string path = Indexed("units", i);
      wme::UnitSpec unit;
      unit.id = u.id();
      unit.owner = u.owner();
      if (NewId(path, u.id(), pieces_)) units_.insert(u.id());
      Known(path + ".owner", u.owner(), players(), "players");
      Enum(path + ".troop_type", true, u.troop_type(), kWmeTroopTypes, unit.troop_type);
      if (u.has_speed_cm()) {
        wme::Milli speed = 0;
        if (InRange(path + ".speed_cm", u.speed_cm(), 0, kWmeMaxLengthCm, speed)) {
          unit.speed_cm = speed;
        }
      }
      if (u.has_mount()) {
        wme::Mount mount = wme::Mount::kNonChoc;
        Enum(path + ".mount", true, u.mount(), kMounts, mount);
        unit.mount = mount;
      }
      unit.engaged = u.engaged();
      unit.confused = u.confused();
      unit.fortified = u.fortified();
      unit.fanatic = u.fanatic();
      InRange(path + ".bases_lost", u.bases_lost(), 0, kMaxBasesLost, unit.bases_lost);
      s_.units.push_back(std::move(unit));
    }
  }

  void Bases() {
    if (!Count("bases", p_.bases_size(), 0, kMaxBases)) return;
    for (int i = 0; i < p_.bases_size(); ++i) {
      const v1::WmeBase& b = p_.bases(i);
      const std::string path = Indexed("bases", i);
      wme::BaseSpec base;
      base.id = b.id();
      base.unit = b.unit();
      NewId(path, b.id(), pieces_);
      Known(path + ".unit", b.unit(), units_, "units");
      if (const auto centre = Point(path + ".centre", b.has_centre(), b.centre())) {
        base.centre = *centre;
      }
      base.heading_mdeg = kNorth;
      if (b.has_heading_mdeg()) {
        InRange(path + ".heading_mdeg", b.heading_mdeg(), -kMaxHeading, kMaxHeading,
                base.heading_mdeg);
      }
      s_.bases.push_back(std::move(base));
    }
  }

  void Commanders() {
    if (!Count("commanders", p_.commanders_size(), 0, kMaxCommanders)) return;
    for (int i = 0; i < p_.commanders_size(); ++i) {
      const v1::WmeCommander& c = p_.commanders(i);
      const std::string path = Indexed("commanders", i);
      wme::CommanderSpec commander;
      commander.id = c.id();
      commander.owner = c.owner();
      NewId(path, c.id(), pieces_);
      Known(path + ".owner", c.owner(), players(), "players");
      if (const auto centre = Point(path + ".centre", c.has_centre(), c.centre())) {
        commander.centre = *centre;
      }
      commander.general = c.general();
      commander.on_flyer = c.on_flyer();
      if (c.has_attached_to() && Known(path + ".attached_to", c.attached_to(), units_, "units")) {
        commander.attached_to = c.attached_to();
      }
      s_.commanders.push_back(std::move(commander));
    }
  }

  std::set<std::string> players() const {
    return std::set<std::string>(s_.players.begin(), s_.players.end());
  }

  const v1::WmeScenario& p_;
  const wme::Ruleset& rs_;
  wme::Scenario s_;
  std::set<std::string> pieces_;  // ids of units, bases and commanders: one namespace (state.h)
  std::set<std::string> units_;
};

Result<LoadedWmeScenario> ConvertScenario(const v1::WmeScenario& proto, const wme::Ruleset& ruleset,
                                          const internal::Locator& locator) {
  ScenarioConverter converter(proto, ruleset);
  wme::Scenario scenario = converter.Run();
  std::vector<Problem> problems = std::move(converter.problems());
  // The engine's own checks (wme::InitialState's scenario problems) on what converted cleanly:
  // a unit without bases, a base whose footprint leaves engine/table's range, ...
  if (problems.empty()) {
    for (const wme::ScenarioProblem& p : wme::InitialState(ruleset, scenario).problems) {
      problems.push_back(Problem{converter.PathOf(p.id), "refused by the engine: " + p.code +
                                                             (p.id.empty() ? "" : " " + p.id)});
    }
  }
  if (!problems.empty()) return Located(problems, locator);
  return LoadedWmeScenario{std::move(scenario), proto};
}

void PointToProto(const table::Point& p, v1::WmePoint& out) {
  out.set_x_cm(wme::NearestMilli(p.x()));
  out.set_y_cm(wme::NearestMilli(p.y()));
}

}  // namespace

Result<LoadedWmeScenario> WmeScenarioFromProto(const pbem::v1::WmeScenario& proto,
                                               std::string_view source,
                                               const wme::Ruleset& ruleset) {
  return ConvertScenario(proto, ruleset, internal::Locator({}, std::string(source)));
}

Result<LoadedWmeScenario> LoadWmeScenarioText(std::string_view text, std::string_view source,
                                              const wme::Ruleset& ruleset) {
  return internal::LoadText<v1::WmeScenario>(
      text, source, [&ruleset](const v1::WmeScenario& proto, const internal::Locator& locator) {
        return ConvertScenario(proto, ruleset, locator);
      });
}

pbem::v1::WmeScenario WmeScenarioToProto(const wme::Scenario& s, std::string_view name,
                                         std::string_view ruleset) {
  v1::WmeScenario p;
  p.set_name(std::string(name));
  p.set_ruleset(std::string(ruleset));
  p.set_table_width_cm(s.table_width_cm);
  p.set_table_height_cm(s.table_height_cm);
  for (const std::string& player : s.players) p.add_players(player);
  for (const wme::TerrainFeature& f : s.terrain) {
    v1::WmeTerrainFeature& t = *p.add_terrain();
    t.set_id(f.id);
    t.set_kind(f.kind);
    for (const table::Polygon& piece : f.pieces) {
      v1::WmePolygon& polygon = *t.add_pieces();
      for (const table::Point& v : piece.vertices()) PointToProto(v, *polygon.add_points());
    }
    t.set_category(ToProtoEnum(kCategories, f.category));
    t.set_broken(f.broken);
    t.set_dense(f.dense);
    t.set_blocks_los(f.blocks_los);
    t.set_see_into_cm(f.see_into_cm);
    t.set_fortification(f.fortification);
    t.set_high(f.high);
  }
  for (const wme::UnitSpec& u : s.units) {
    v1::WmeUnit& unit = *p.add_units();
    unit.set_id(u.id);
    unit.set_owner(u.owner);
    unit.set_troop_type(ToProtoEnum(kWmeTroopTypes, u.troop_type));
    if (u.speed_cm) unit.set_speed_cm(*u.speed_cm);
    if (u.mount) unit.set_mount(ToProtoEnum(kMounts, *u.mount));
    unit.set_engaged(u.engaged);
    unit.set_confused(u.confused);
    unit.set_fortified(u.fortified);
    unit.set_fanatic(u.fanatic);
    unit.set_bases_lost(u.bases_lost);
  }
  for (const wme::BaseSpec& b : s.bases) {
    v1::WmeBase& base = *p.add_bases();
    base.set_id(b.id);
    base.set_unit(b.unit);
    PointToProto(b.centre, *base.mutable_centre());
    base.set_heading_mdeg(b.heading_mdeg);
  }
  for (const wme::CommanderSpec& c : s.commanders) {
    v1::WmeCommander& commander = *p.add_commanders();
    commander.set_id(c.id);
    commander.set_owner(c.owner);
    PointToProto(c.centre, *commander.mutable_centre());
    commander.set_general(c.general);
    commander.set_on_flyer(c.on_flyer);
    if (c.attached_to) commander.set_attached_to(*c.attached_to);
  }
  return p;
}

}  // namespace pbem::codec
