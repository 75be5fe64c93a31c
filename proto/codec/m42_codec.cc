// M42's ruleset and scenario (m42_codec.h). Conversion collects problems as (field path,
// message) and locates them at the end (internal::Locator), as ruleset_codec.cc does. Every
// list is walked with a loop over a count bounded before the walk; nothing recurses on input.
#include "proto/codec/m42_codec.h"

#include <google/protobuf/generated_enum_reflection.h>

#include <set>
#include <string>
#include <utility>

#include "engine/m42/state.h"
#include "proto/codec/data_checker.h"
#include "proto/codec/shown.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec {
namespace {

namespace v1 = pbem::v1;
namespace pb = google::protobuf;
using internal::Checker;
using internal::EnumPair;
using internal::Indexed;
using internal::Located;
using internal::Problem;
using internal::ToProtoEnum;

// Bounds of the schema's comments (m42_ruleset.proto, m42_scenario.proto).
constexpr std::int64_t kMaxLengthIn = 1'000'000;  // 1000": beyond any table
constexpr std::int64_t kMaxCoordIn = 1'000'000;
constexpr std::int64_t kMaxBaseIn = 100'000;
constexpr std::int64_t kMaxThicknessIn = 100'000;
constexpr int kMaxBands = 16;
constexpr int kMaxPlayers = 8;
constexpr int kMaxFeatures = 1000;
constexpr int kMaxUnits = 1000;
constexpr int kMaxModels = 10000;
constexpr int kMaxPoints = 1000;
constexpr int kMaxSteps = 100;
constexpr int kMaxFloors = 100;
constexpr int kMaxOpenings = 100;
constexpr int kMaxLevel = 1000;
constexpr int kMaxMv = 100;
constexpr std::int64_t kMaxFacing = 360'000;
constexpr EnumPair<v1::M42Measure, m42::Measure> kMeasures[] = {
    {v1::M42_MEASURE_BASE_EDGE, m42::Measure::kBaseEdge},
    {v1::M42_MEASURE_CENTRE, m42::Measure::kCentre}};
constexpr EnumPair<v1::M42DifficultModel, m42::DifficultModel> kDifficultModels[] = {
    {v1::M42_DIFFICULT_MODEL_HALVE_ALLOWANCE_ONCE, m42::DifficultModel::kHalveAllowanceOnce},
    {v1::M42_DIFFICULT_MODEL_DOUBLE_COST_INSIDE, m42::DifficultModel::kDoubleCostInside},
    {v1::M42_DIFFICULT_MODEL_HALVE_PER_FEATURE, m42::DifficultModel::kHalvePerFeature}};
constexpr EnumPair<v1::M42CoherencyCheck, m42::CoherencyCheck> kCoherencyChecks[] = {
    {v1::M42_COHERENCY_CHECK_CONNECTED, m42::CoherencyCheck::kConnected},
    {v1::M42_COHERENCY_CHECK_SEQUENCE, m42::CoherencyCheck::kSequence}};
constexpr EnumPair<v1::M42TaskForceScope, m42::TaskForceScope> kTaskForceScopes[] = {
    {v1::M42_TASK_FORCE_SCOPE_PLAYER, m42::TaskForceScope::kPlayer},
    {v1::M42_TASK_FORCE_SCOPE_SCENARIO, m42::TaskForceScope::kScenario}};
constexpr EnumPair<v1::M42NonTaskForceFriend, m42::NonTaskForceFriend> kFriends[] = {
    {v1::M42_NON_TASK_FORCE_FRIEND_IMPASSABLE, m42::NonTaskForceFriend::kImpassable},
    {v1::M42_NON_TASK_FORCE_FRIEND_SLOW, m42::NonTaskForceFriend::kSlow}};
constexpr EnumPair<v1::M42HillSlowOn, m42::HillSlowOn> kHillSlowOns[] = {
    {v1::M42_HILL_SLOW_ON_ASCENT_ONLY, m42::HillSlowOn::kAscentOnly},
    {v1::M42_HILL_SLOW_ON_ANY_CROSSING, m42::HillSlowOn::kAnyCrossing}};
constexpr EnumPair<v1::M42FloorAccess, m42::FloorAccess> kFloorAccesses[] = {
    {v1::M42_FLOOR_ACCESS_ANYWHERE, m42::FloorAccess::kAnywhere}};
constexpr EnumPair<v1::M42TableEdge, m42::TableEdge> kTableEdges[] = {
    {v1::M42_TABLE_EDGE_WALL, m42::TableEdge::kWall},
    {v1::M42_TABLE_EDGE_NONE, m42::TableEdge::kNone}};
constexpr EnumPair<v1::M42FacingDefault, m42::FacingDefault> kFacingDefaults[] = {
    {v1::M42_FACING_DEFAULT_KEEP, m42::FacingDefault::kKeep}};
constexpr EnumPair<v1::M42OnIllegalOrder, m42::OnIllegalOrder> kOnIllegalOrders[] = {
    {v1::M42_ON_ILLEGAL_ORDER_HOLD_AND_SPEND, m42::OnIllegalOrder::kHoldAndSpend}};
constexpr EnumPair<v1::M42Roads, m42::Roads> kRoads[] = {{v1::M42_ROADS_NONE, m42::Roads::kNone}};

class RulesetConverter : public Checker {
 public:
  explicit RulesetConverter(const v1::M42Ruleset& proto) : p_(proto) {}

  m42::Ruleset Run() {
    m42::Ruleset r = m42::DefaultRuleset();
    FormatVersion(p_.format_version());
    if (p_.has_ruleset() && Id("ruleset", p_.ruleset())) r.ruleset = p_.ruleset();
    Length("epsilon_in", p_.has_epsilon_in(), p_.epsilon_in(), 0, 1000, r.epsilon_in);
    Length("default_base_diameter_in", p_.has_default_base_diameter_in(),
           p_.default_base_diameter_in(), 1, kMaxBaseIn, r.default_base_diameter_in);
    Enum("measure", p_.has_measure(), p_.measure(), kMeasures, r.measure);
    if (p_.has_distance_3d()) r.distance_3d = p_.distance_3d();
    const v1::M42ActionMoveFactor& f = p_.action_move_factor();
    Factor("advance", f.has_advance(), f.advance(), m42::Action::kAdvance, r);
    Factor("at_the_double", f.has_at_the_double(), f.at_the_double(), m42::Action::kAtTheDouble, r);
    Factor("open_fire", f.has_open_fire(), f.open_fire(), m42::Action::kOpenFire, r);
    Factor("get_down", f.has_get_down(), f.get_down(), m42::Action::kGetDown, r);
    Enum("difficult_model", p_.has_difficult_model(), p_.difficult_model(), kDifficultModels,
         r.difficult_model);
    Length("enemy_clearance_in", p_.has_enemy_clearance_in(), p_.enemy_clearance_in(), 0,
           kMaxLengthIn, r.enemy_clearance_in);
    Length("close_combat_range_in", p_.has_close_combat_range_in(), p_.close_combat_range_in(), 0,
           kMaxLengthIn, r.close_combat_range_in);
    Length("coherency_in", p_.has_coherency_in(), p_.coherency_in(), 0, kMaxLengthIn,
           r.coherency_in);
    Enum("coherency_check", p_.has_coherency_check(), p_.coherency_check(), kCoherencyChecks,
         r.coherency_check);
    if (p_.has_leader_moves_first()) r.leader_moves_first = p_.leader_moves_first();
    Enum("task_force_scope", p_.has_task_force_scope(), p_.task_force_scope(), kTaskForceScopes,
         r.task_force_scope);
    Enum("non_task_force_friend", p_.has_non_task_force_friend(), p_.non_task_force_friend(),
         kFriends, r.non_task_force_friend);
    if (p_.has_area_slow_when_inside()) r.area_slow_when_inside = p_.area_slow_when_inside();
    Enum("hill_slow_on", p_.has_hill_slow_on(), p_.hill_slow_on(), kHillSlowOns, r.hill_slow_on);
    if (p_.has_count_vertical_distance()) r.count_vertical_distance = p_.count_vertical_distance();
    Enum("floor_access", p_.has_floor_access(), p_.floor_access(), kFloorAccesses, r.floor_access);
    if (p_.has_opening_requires_fit()) r.opening_requires_fit = p_.opening_requires_fit();
    if (p_.has_leaper_ignores_walls()) r.leaper_ignores_walls = p_.leaper_ignores_walls();
    Length("linear_obstacle_thickness_in", p_.has_linear_obstacle_thickness_in(),
           p_.linear_obstacle_thickness_in(), 0, kMaxThicknessIn, r.linear_obstacle_thickness_in);
    if (p_.has_allow_end_on_obstacle()) r.allow_end_on_obstacle = p_.allow_end_on_obstacle();
    if (p_.has_explicit_impassable()) r.explicit_impassable = p_.explicit_impassable();
    Enum("table_edge", p_.has_table_edge(), p_.table_edge(), kTableEdges, r.table_edge);
    Enum("facing_default", p_.has_facing_default(), p_.facing_default(), kFacingDefaults,
         r.facing_default);
    Enum("on_illegal_order", p_.has_on_illegal_order(), p_.on_illegal_order(), kOnIllegalOrders,
         r.on_illegal_order);
    Enum("roads", p_.has_roads(), p_.roads(), kRoads, r.roads);
    Bands("obstacle_bands.normal", p_.obstacle_bands().normal(), r.obstacle_bands_normal);
    Bands("obstacle_bands.leaper", p_.obstacle_bands().leaper(), r.obstacle_bands_leaper);
    if (p_.has_max_path_vertices()) {
      InRange("max_path_vertices", p_.max_path_vertices(), 2, 10000, r.max_path_vertices);
    }
    return r;
  }

 private:
  void Length(const std::string& path, bool has, std::int64_t value, std::int64_t low,
              std::int64_t high, m42::Thou& out) {
    if (has) InRange(path, value, low, high, out);
  }
  void Factor(std::string_view name, bool has, std::int32_t value, m42::Action action,
              m42::Ruleset& r) {
    if (has) {
      InRange("action_move_factor." + std::string(name), value, 0, 100,
              r.action_move_factor[static_cast<std::size_t>(action)]);
    }
  }
  void Bands(const std::string& path, const pb::RepeatedPtrField<v1::M42ObstacleBand>& bands,
             std::vector<m42::ObstacleBand>& out) {
    if (bands.empty()) return;  // the default bands
    if (!Count(path, bands.size(), 1, kMaxBands)) return;
    std::vector<m42::ObstacleBand> read;
    for (int i = 0; i < bands.size(); ++i) {
      const v1::M42ObstacleBand& b = bands[i];
      m42::ObstacleBand band;
      if (b.has_max_in()) {
        m42::Thou max = 0;
        InRange(Indexed(path, i) + ".max_in", b.max_in(), 0, kMaxLengthIn, max);
        band.max = max;
      }
      band.inclusive = !b.has_inclusive() || b.inclusive();
      band.going = m42::Going{b.slow(), b.difficult(), b.impassible()};
      read.push_back(band);
    }
    out = std::move(read);
  }

  const v1::M42Ruleset& p_;
};

std::string EngineMessage(std::string_view code) {
  if (code == "not_implemented") return "this value is not implemented by the engine";
  if (code == "bands_not_increasing") {
    return "bands must have increasing max_in, only the last without one";
  }
  return "refused by the engine (" + std::string(code) + ")";
}

Result<LoadedM42Ruleset> ConvertRuleset(const v1::M42Ruleset& merged,
                                        const internal::Locator& locator) {
  RulesetConverter converter(merged);
  m42::Ruleset ruleset = converter.Run();
  std::vector<Problem> problems = std::move(converter.problems());
  // The engine's own check, on a ruleset every range of which is already checked: what is left
  // is what the engine cannot honour. Its keys are the message's field paths.
  if (problems.empty()) {
    for (const m42::RulesetProblem& p : m42::CheckRuleset(ruleset)) {
      problems.push_back(Problem{p.key, EngineMessage(p.code)});
    }
  }
  if (!problems.empty()) return Located(problems, locator);
  return LoadedM42Ruleset{std::move(ruleset), merged};
}

class ScenarioConverter : public Checker {
 public:
  ScenarioConverter(const v1::M42Scenario& proto, const m42::Ruleset& ruleset)
      : p_(proto), rs_(ruleset) {}

  m42::Scenario Run() {
    FormatVersion(p_.format_version());
    SameRuleset(p_.ruleset(), rs_.ruleset);
    InRange("table_width_in", p_.table_width_in(), 1, kMaxLengthIn, s_.table_width_in);
    InRange("table_height_in", p_.table_height_in(), 1, kMaxLengthIn, s_.table_height_in);
    Players(p_.players(), kMaxPlayers, s_.players);
    Terrain();
    Units();
    Models();
    return std::move(s_);
  }

  // The path of the element an engine problem names by id (a model, unit or feature).
  std::string PathOf(const std::string& id) const {
    for (int i = 0; i < p_.models_size(); ++i) {
      if (p_.models(i).id() == id) return Indexed("models", i);
    }
    for (int i = 0; i < p_.units_size(); ++i) {
      if (p_.units(i).id() == id) return Indexed("units", i);
    }
    const auto& t = p_.terrain();
    const auto find = [&id](const auto& list, std::string_view name) -> std::string {
      for (int i = 0; i < list.size(); ++i) {
        if (list[i].id() == id) return "terrain." + Indexed(name, i);
      }
      return "";
    };
    for (const std::string& path :
         {find(t.hills(), "hills"), find(t.areas(), "areas"),
          find(t.linear_obstacles(), "linear_obstacles"),
          find(t.point_obstacles(), "point_obstacles"), find(t.structures(), "structures"),
          find(t.impassable(), "impassable")}) {
      if (!path.empty()) return path;
    }
    return "";
  }

 private:
  std::optional<table::Point> Point(const std::string& path, bool has, const v1::M42Point& p) {
    return Checker::Point(path, has, "x_in", p.x_in(), "y_in", p.y_in(), kMaxCoordIn,
                          table::kUnitsPerThousandthInch);
  }
  std::optional<std::vector<table::Point>> Points(const std::string& path,
                                                  const pb::RepeatedPtrField<v1::M42Point>& list,
                                                  int low) {
    return Checker::Points(
        path, list, low, kMaxPoints,
        [this](const std::string& at, const v1::M42Point& p) { return Point(at, true, p); });
  }
  std::optional<table::Polygon> Polygon(const std::string& path, bool has,
                                        const v1::M42Polygon& p) {
    if (!has) {
      Add(path, "missing (a polygon is required)");
      return std::nullopt;
    }
    return SimplePolygon(path, Points(path + ".points", p.points(), 3));
  }
  m42::Thou Height(const std::string& path, std::int64_t value) {
    m42::Thou out = 0;
    InRange(path + ".height_in", value, 0, kMaxLengthIn, out);
    return out;
  }

  void Terrain() {
    const v1::M42Terrain& t = p_.terrain();
    m42::Terrain& out = s_.terrain;
    std::set<std::string> ids;  // feature ids, unique across every kind (events name them)
    if (Count("terrain.hills", t.hills_size(), 0, kMaxFeatures)) {
      for (int i = 0; i < t.hills_size(); ++i) {
        const v1::M42Hill& h = t.hills(i);
        const std::string path = "terrain." + Indexed("hills", i);
        m42::Hill hill;
        hill.id = h.id();
        NewId(path, h.id(), ids);
        if (!Count(path + ".steps", h.steps_size(), 1, kMaxSteps)) continue;
        for (int k = 0; k < h.steps_size(); ++k) {
          if (auto step = Polygon(Indexed(path + ".steps", k), true, h.steps(k))) {
            hill.steps.push_back(std::move(*step));
          }
        }
        out.hills.push_back(std::move(hill));
      }
    }
    if (Count("terrain.areas", t.areas_size(), 0, kMaxFeatures)) {
      for (int i = 0; i < t.areas_size(); ++i) {
        const v1::M42AreaTerrain& a = t.areas(i);
        const std::string path = "terrain." + Indexed("areas", i);
        NewId(path, a.id(), ids);
        Word(path + ".kind", a.kind());
        auto polygon = Polygon(path + ".polygon", a.has_polygon(), a.polygon());
        const m42::Thou height = Height(path, a.height_in());
        if (polygon) {
          out.areas.push_back(
              m42::AreaTerrain{a.id(), a.kind(), std::move(*polygon), a.difficult(), height});
        }
      }
    }
    if (Count("terrain.linear_obstacles", t.linear_obstacles_size(), 0, kMaxFeatures)) {
      for (int i = 0; i < t.linear_obstacles_size(); ++i) {
        const v1::M42LinearObstacle& l = t.linear_obstacles(i);
        const std::string path = "terrain." + Indexed("linear_obstacles", i);
        NewId(path, l.id(), ids);
        const m42::Thou height = Height(path, l.height_in());
        std::optional<m42::Thou> thickness;
        if (l.has_thickness_in()) {
          thickness = 0;
          InRange(path + ".thickness_in", l.thickness_in(), 0, kMaxThicknessIn, *thickness);
        }
        auto points = Points(path + ".centre_line", l.centre_line(), 2);
        auto line = points ? table::Polyline::Make(std::move(*points)) : std::nullopt;
        if (line) {
          out.linear_obstacles.push_back(
              m42::LinearObstacle{l.id(), std::move(*line), height, thickness});
        }
      }
    }
    if (Count("terrain.point_obstacles", t.point_obstacles_size(), 0, kMaxFeatures)) {
      for (int i = 0; i < t.point_obstacles_size(); ++i) {
        const v1::M42PointObstacle& o = t.point_obstacles(i);
        const std::string path = "terrain." + Indexed("point_obstacles", i);
        NewId(path, o.id(), ids);
        auto footprint = Polygon(path + ".footprint", o.has_footprint(), o.footprint());
        const m42::Thou height = Height(path, o.height_in());
        if (footprint) {
          out.point_obstacles.push_back(m42::PointObstacle{o.id(), std::move(*footprint), height});
        }
      }
    }
    if (Count("terrain.structures", t.structures_size(), 0, kMaxFeatures)) {
      for (int i = 0; i < t.structures_size(); ++i) {
        Structure("terrain." + Indexed("structures", i), t.structures(i), ids);
      }
    }
    if (Count("terrain.impassable", t.impassable_size(), 0, kMaxFeatures)) {
      for (int i = 0; i < t.impassable_size(); ++i) {
        const v1::M42ImpassableArea& a = t.impassable(i);
        const std::string path = "terrain." + Indexed("impassable", i);
        NewId(path, a.id(), ids);
        if (auto polygon = Polygon(path + ".polygon", a.has_polygon(), a.polygon())) {
          out.impassable.push_back(m42::ImpassableArea{a.id(), std::move(*polygon)});
        }
      }
    }
  }

  void Structure(const std::string& path, const v1::M42Structure& p, std::set<std::string>& ids) {
    m42::Structure st;
    st.id = p.id();
    st.ruin = p.ruin();
    NewId(path, p.id(), ids);
    if (p.has_base()) st.base = Polygon(path + ".base", true, p.base());
    if (Count(path + ".floors", p.floors_size(), 0, kMaxFloors)) {
      for (int k = 0; k < p.floors_size(); ++k) {
        const std::string fp = Indexed(path + ".floors", k);
        int level = 1;
        InRange(fp + ".level", p.floors(k).level(), 1, kMaxLevel, level);
        auto polygon = Polygon(fp + ".polygon", p.floors(k).has_polygon(), p.floors(k).polygon());
        if (polygon) st.floors.push_back(m42::Floor{level, std::move(*polygon)});
      }
    }
    if (Count(path + ".walls", p.walls_size(), 0, kMaxFeatures)) {
      for (int k = 0; k < p.walls_size(); ++k) {
        const v1::M42StructureWall& w = p.walls(k);
        const std::string wp = Indexed(path + ".walls", k);
        m42::StructureWall wall;
        const auto from = Point(wp + ".from", w.has_from(), w.from());
        const auto to = Point(wp + ".to", w.has_to(), w.to());
        wall.height_in = Height(wp, w.height_in());
        if (!Count(wp + ".openings", w.openings_size(), 0, kMaxOpenings) || !from || !to) continue;
        wall.wall.line = table::Segment{*from, *to};
        for (int o = 0; o < w.openings_size(); ++o) {
          const v1::M42Opening& op = w.openings(o);
          const std::string opath = Indexed(wp + ".openings", o);
          m42::Thou a = 0;
          m42::Thou b = 0;
          if (InRange(opath + ".from_in", op.from_in(), 0, kMaxLengthIn, a) &&
              InRange(opath + ".to_in", op.to_in(), a, kMaxLengthIn, b)) {
            wall.wall.openings.push_back(table::Opening{m42::ToUnits(a), m42::ToUnits(b)});
          }
        }
        st.walls.push_back(std::move(wall));
      }
    }
    s_.terrain.structures.push_back(std::move(st));
  }

  void Units() {
    if (!Count("units", p_.units_size(), 0, kMaxUnits)) return;
    for (int i = 0; i < p_.units_size(); ++i) {
      const v1::M42Unit& u = p_.units(i);
      const std::string path = Indexed("units", i);
      m42::UnitSpec unit;
      unit.id = u.id();
      unit.owner = u.owner();
      NewId(path, u.id(), unit_ids_);
      bool known = false;
      for (const std::string& player : s_.players) known = known || player == u.owner();
      if (!known) Add(path + ".owner", "'" + Shown(u.owner()) + "' is not one of the players");
      if (u.has_task_force() && Id(path + ".task_force", u.task_force())) {
        unit.task_force = u.task_force();
      }
      InRange(path + ".mv", u.mv(), 0, kMaxMv, unit.mv_in);
      unit.leaper = u.leaper();
      unit.limited_vision = u.limited_vision();
      if (u.has_spread_in()) {
        m42::Thou spread = 0;
        InRange(path + ".spread_in", u.spread_in(), 0, kMaxLengthIn, spread);
        unit.spread_in = spread;
      }
      s_.units.push_back(std::move(unit));
    }
  }

  void Models() {
    if (!Count("models", p_.models_size(), 0, kMaxModels)) return;
    std::set<std::string> ids;
    for (int i = 0; i < p_.models_size(); ++i) {
      const v1::M42Model& m = p_.models(i);
      const std::string path = Indexed("models", i);
      m42::ModelSpec model;
      model.id = m.id();
      model.unit = m.unit();
      NewId(path, m.id(), ids);
      if (unit_ids_.count(m.unit()) == 0) {
        Add(path + ".unit", "'" + Shown(m.unit()) + "' is not one of the scenario's units");
      }
      if (m.has_base_diameter_in()) {
        m42::Thou base = 0;
        InRange(path + ".base_diameter_in", m.base_diameter_in(), 1, kMaxBaseIn, base);
        model.base_diameter_in = base;
      }
      if (const auto pos = Point(path + ".pos", m.has_pos(), m.pos())) model.pos = *pos;
      InRange(path + ".floor", m.floor(), 0, kMaxLevel, model.floor);
      if (m.has_structure() != (m.floor() >= 1)) {
        Add(path + ".structure", m.floor() >= 1 ? "missing (required when floor >= 1)"
                                                : "given for a model on the ground (floor 0)");
      } else if (m.has_structure() && Id(path + ".structure", m.structure())) {
        model.structure = m.structure();
      }
      if (m.has_facing_mdeg()) {
        InRange(path + ".facing_mdeg", m.facing_mdeg(), -kMaxFacing, kMaxFacing, model.facing_mdeg);
      }
      s_.models.push_back(std::move(model));
    }
  }

  const v1::M42Scenario& p_;
  const m42::Ruleset& rs_;
  m42::Scenario s_;
  std::set<std::string> unit_ids_;
};

Result<LoadedM42Scenario> ConvertScenario(const v1::M42Scenario& proto, const m42::Ruleset& ruleset,
                                          const internal::Locator& locator) {
  ScenarioConverter converter(proto, ruleset);
  m42::Scenario scenario = converter.Run();
  std::vector<Problem> problems = std::move(converter.problems());
  // The engine's own checks (m42::InitialState's scenario problems) on what converted cleanly:
  // overlapping bases, hills not nested, floors and structures that do not match, ...
  if (problems.empty()) {
    for (const m42::ScenarioProblem& p : m42::InitialState(ruleset, scenario).problems) {
      problems.push_back(Problem{converter.PathOf(p.id), "refused by the engine: " + p.code +
                                                             (p.id.empty() ? "" : " " + p.id)});
    }
  }
  if (!problems.empty()) return Located(problems, locator);
  return LoadedM42Scenario{std::move(scenario), proto};
}

void PointToProto(const table::Point& p, v1::M42Point& out) {
  out.set_x_in(m42::NearestThou(p.x()));
  out.set_y_in(m42::NearestThou(p.y()));
}

void PolygonToProto(const table::Polygon& polygon, v1::M42Polygon& out) {
  for (const table::Point& p : polygon.vertices()) PointToProto(p, *out.add_points());
}

void BandsToProto(const std::vector<m42::ObstacleBand>& bands,
                  pb::RepeatedPtrField<v1::M42ObstacleBand>& out) {
  for (const m42::ObstacleBand& b : bands) {
    v1::M42ObstacleBand& band = *out.Add();
    if (b.max) band.set_max_in(*b.max);
    band.set_inclusive(b.inclusive);
    band.set_slow(b.going.slow);
    band.set_difficult(b.going.difficult);
    band.set_impassible(b.going.impassible);
  }
}

}  // namespace

Result<LoadedM42Ruleset> M42RulesetFromProto(const pbem::v1::M42Ruleset& proto,
                                             std::string_view source) {
  return ConvertRuleset(proto, internal::Locator({}, std::string(source)));
}

Result<LoadedM42Ruleset> LoadM42RulesetFiles(const std::vector<NamedText>& files) {
  return internal::LoadFiles<v1::M42Ruleset>(files, ConvertRuleset);
}

pbem::v1::M42Ruleset M42RulesetToProto(const m42::Ruleset& r) {
  v1::M42Ruleset p;
  p.set_ruleset(r.ruleset);
  p.set_epsilon_in(r.epsilon_in);
  p.set_default_base_diameter_in(r.default_base_diameter_in);
  p.set_measure(ToProtoEnum(kMeasures, r.measure));
  p.set_distance_3d(r.distance_3d);
  v1::M42ActionMoveFactor& f = *p.mutable_action_move_factor();
  const auto factor = [&r](m42::Action a) {
    return r.action_move_factor[static_cast<std::size_t>(a)];
  };
  f.set_advance(factor(m42::Action::kAdvance));
  f.set_at_the_double(factor(m42::Action::kAtTheDouble));
  f.set_open_fire(factor(m42::Action::kOpenFire));
  f.set_get_down(factor(m42::Action::kGetDown));
  p.set_difficult_model(ToProtoEnum(kDifficultModels, r.difficult_model));
  p.set_enemy_clearance_in(r.enemy_clearance_in);
  p.set_close_combat_range_in(r.close_combat_range_in);
  p.set_coherency_in(r.coherency_in);
  p.set_coherency_check(ToProtoEnum(kCoherencyChecks, r.coherency_check));
  p.set_leader_moves_first(r.leader_moves_first);
  p.set_task_force_scope(ToProtoEnum(kTaskForceScopes, r.task_force_scope));
  p.set_non_task_force_friend(ToProtoEnum(kFriends, r.non_task_force_friend));
  p.set_area_slow_when_inside(r.area_slow_when_inside);
  p.set_hill_slow_on(ToProtoEnum(kHillSlowOns, r.hill_slow_on));
  p.set_count_vertical_distance(r.count_vertical_distance);
  p.set_floor_access(ToProtoEnum(kFloorAccesses, r.floor_access));
  p.set_opening_requires_fit(r.opening_requires_fit);
  p.set_leaper_ignores_walls(r.leaper_ignores_walls);
  p.set_linear_obstacle_thickness_in(r.linear_obstacle_thickness_in);
  p.set_allow_end_on_obstacle(r.allow_end_on_obstacle);
  p.set_explicit_impassable(r.explicit_impassable);
  p.set_table_edge(ToProtoEnum(kTableEdges, r.table_edge));
  p.set_facing_default(ToProtoEnum(kFacingDefaults, r.facing_default));
  p.set_on_illegal_order(ToProtoEnum(kOnIllegalOrders, r.on_illegal_order));
  p.set_roads(ToProtoEnum(kRoads, r.roads));
  BandsToProto(r.obstacle_bands_normal, *p.mutable_obstacle_bands()->mutable_normal());
  BandsToProto(r.obstacle_bands_leaper, *p.mutable_obstacle_bands()->mutable_leaper());
  p.set_max_path_vertices(static_cast<std::uint32_t>(r.max_path_vertices));
  return p;
}

Result<LoadedM42Scenario> M42ScenarioFromProto(const pbem::v1::M42Scenario& proto,
                                               std::string_view source,
                                               const m42::Ruleset& ruleset) {
  return ConvertScenario(proto, ruleset, internal::Locator({}, std::string(source)));
}

Result<LoadedM42Scenario> LoadM42ScenarioText(std::string_view text, std::string_view source,
                                              const m42::Ruleset& ruleset) {
  return internal::LoadText<v1::M42Scenario>(
      text, source, [&ruleset](const v1::M42Scenario& proto, const internal::Locator& locator) {
        return ConvertScenario(proto, ruleset, locator);
      });
}

pbem::v1::M42Scenario M42ScenarioToProto(const m42::Scenario& s, std::string_view name,
                                         std::string_view ruleset) {
  v1::M42Scenario p;
  p.set_name(std::string(name));
  p.set_ruleset(std::string(ruleset));
  p.set_table_width_in(s.table_width_in);
  p.set_table_height_in(s.table_height_in);
  for (const std::string& player : s.players) p.add_players(player);
  v1::M42Terrain& t = *p.mutable_terrain();
  for (const m42::Hill& h : s.terrain.hills) {
    v1::M42Hill& hill = *t.add_hills();
    hill.set_id(h.id);
    for (const table::Polygon& step : h.steps) PolygonToProto(step, *hill.add_steps());
  }
  for (const m42::AreaTerrain& a : s.terrain.areas) {
    v1::M42AreaTerrain& area = *t.add_areas();
    area.set_id(a.id);
    area.set_kind(a.kind);
    PolygonToProto(a.polygon, *area.mutable_polygon());
    area.set_difficult(a.difficult);
    area.set_height_in(a.height_in);
  }
  for (const m42::LinearObstacle& l : s.terrain.linear_obstacles) {
    v1::M42LinearObstacle& line = *t.add_linear_obstacles();
    line.set_id(l.id);
    for (const table::Point& v : l.centre_line.vertices()) PointToProto(v, *line.add_centre_line());
    line.set_height_in(l.height_in);
    if (l.thickness_in) line.set_thickness_in(*l.thickness_in);
  }
  for (const m42::PointObstacle& o : s.terrain.point_obstacles) {
    v1::M42PointObstacle& point = *t.add_point_obstacles();
    point.set_id(o.id);
    PolygonToProto(o.footprint, *point.mutable_footprint());
    point.set_height_in(o.height_in);
  }
  for (const m42::Structure& st : s.terrain.structures) {
    v1::M42Structure& out = *t.add_structures();
    out.set_id(st.id);
    if (st.base) PolygonToProto(*st.base, *out.mutable_base());
    for (const m42::Floor& f : st.floors) {
      v1::M42Floor& floor = *out.add_floors();
      floor.set_level(f.level);
      PolygonToProto(f.polygon, *floor.mutable_polygon());
    }
    for (const m42::StructureWall& w : st.walls) {
      v1::M42StructureWall& wall = *out.add_walls();
      PointToProto(w.wall.line.a, *wall.mutable_from());
      PointToProto(w.wall.line.b, *wall.mutable_to());
      for (const table::Opening& o : w.wall.openings) {
        v1::M42Opening& opening = *wall.add_openings();
        opening.set_from_in(m42::NearestThou(o.from));
        opening.set_to_in(m42::NearestThou(o.to));
      }
      wall.set_height_in(w.height_in);
    }
    out.set_ruin(st.ruin);
  }
  for (const m42::ImpassableArea& a : s.terrain.impassable) {
    v1::M42ImpassableArea& area = *t.add_impassable();
    area.set_id(a.id);
    PolygonToProto(a.polygon, *area.mutable_polygon());
  }
  for (const m42::UnitSpec& u : s.units) {
    v1::M42Unit& unit = *p.add_units();
    unit.set_id(u.id);
    unit.set_owner(u.owner);
    if (u.task_force) unit.set_task_force(*u.task_force);
    unit.set_mv(u.mv_in);
    unit.set_leaper(u.leaper);
    unit.set_limited_vision(u.limited_vision);
    if (u.spread_in) unit.set_spread_in(*u.spread_in);
  }
  for (const m42::ModelSpec& m : s.models) {
    v1::M42Model& model = *p.add_models();
    model.set_id(m.id);
    model.set_unit(m.unit);
    if (m.base_diameter_in) model.set_base_diameter_in(*m.base_diameter_in);
    PointToProto(m.pos, *model.mutable_pos());
    model.set_floor(m.floor);
    if (m.structure) model.set_structure(*m.structure);
    model.set_facing_mdeg(m.facing_mdeg);
  }
  return p;
}

}  // namespace pbem::codec
