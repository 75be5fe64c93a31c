// The digest's §6 common setup and small builders for the M42 tests: table 72" x 48", every
// base 1.000", epsilon 0.01"; blue units Alpha (Mv 5) and Bravo (same Task Force), red unit
// Xray. Coordinates are written in inches in the tests and converted once to thousandths
// (exact for up to three decimals, M-R1); the engine itself sees only integers.
#ifndef PBEM_TESTS_ENGINE_M42_FIXTURES_H_
#define PBEM_TESTS_ENGINE_M42_FIXTURES_H_

#include <cmath>
#include <string>
#include <vector>

#include "engine/m42/resolve.h"
#include "engine/m42/validate.h"
#include "tests/engine/mini_test.h"

namespace pbem::m42::test {

inline Thou T(double inches) { return std::llround(inches * 1000); }
inline table::Point P(double x, double y) {
  return *table::Point::Make(ToUnits(T(x)), ToUnits(T(y)));
}
inline table::Polygon Poly(std::vector<std::pair<double, double>> xy) {
  std::vector<table::Point> points;
  for (auto [x, y] : xy) points.push_back(P(x, y));
  return *table::Polygon::Make(points);
}
inline table::Polygon Square(double x0, double y0, double x1, double y1) {
  return Poly({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
}
inline table::Polyline Line(std::vector<std::pair<double, double>> xy) {
  std::vector<table::Point> points;
  for (auto [x, y] : xy) points.push_back(P(x, y));
  return *table::Polyline::Make(points);
}

// A path vertex in inches, with an optional floor.
inline PathVertex V(double x, double y) { return {T(x), T(y), std::nullopt}; }
inline PathVertex V(double x, double y, int floor) { return {T(x), T(y), floor}; }

inline ModelOrder Move(std::string id, std::vector<PathVertex> path) {
  return ModelOrder{std::move(id), std::move(path), std::nullopt};
}
inline ModelOrder Turn(std::string id, double deg, std::vector<PathVertex> path = {}) {
  return ModelOrder{std::move(id), std::move(path), std::llround(deg * 1000)};
}
inline UnitOrder Act(std::string unit, Action kind, std::vector<ModelOrder> models) {
  return UnitOrder{std::move(unit), kind, Fire::kUnset, std::move(models)};
}

inline UnitSpec MakeUnit(std::string id, std::string owner) {
  UnitSpec u;
  u.id = std::move(id);
  u.task_force = owner;
  u.owner = std::move(owner);
  u.mv_in = 5;
  return u;
}

inline AreaTerrain Area(std::string id, table::Polygon polygon, bool difficult = false) {
  AreaTerrain a{std::move(id), "woods", std::move(polygon), difficult, 0};
  return a;
}

// §6 T19's ruin: no base, floor 1 = square (30,10)(36,16).
inline Structure FloorOneStructure(std::string id, bool ruin) {
  Structure s;
  s.id = std::move(id);
  s.ruin = ruin;
  s.floors.push_back(Floor{1, Square(30, 10, 36, 16)});
  return s;
}

struct World {
  Ruleset ruleset = DefaultRuleset();
  Scenario scenario;

  World() {
    scenario.players = {"blue", "red"};
    scenario.units = {MakeUnit("alpha", "blue"), MakeUnit("bravo", "blue"),
                      MakeUnit("xray", "red")};
  }
  UnitSpec& Unit(const std::string& id) {
    for (UnitSpec& u : scenario.units) {
      if (u.id == id) return u;
    }
    scenario.units.push_back(MakeUnit(id, "blue"));
    return scenario.units.back();
  }
  World& Model(std::string id, std::string unit, double x, double y, double facing = 90,
               int floor = 0, std::optional<std::string> structure = std::nullopt) {
    ModelSpec m;
    m.id = std::move(id);
    m.unit = std::move(unit);
    m.pos = P(x, y);
    m.facing_mdeg = std::llround(facing * 1000);
    m.floor = floor;
    m.structure = std::move(structure);
    scenario.models.push_back(std::move(m));
    return *this;
  }
  LinearObstacle& Obstacle(std::string id, double height,
                           std::vector<std::pair<double, double>> xy) {
    scenario.terrain.linear_obstacles.push_back(
        LinearObstacle{std::move(id), Line(std::move(xy)), T(height), std::nullopt});
    return scenario.terrain.linear_obstacles.back();
  }
  // §6 T05: O1 along y = 12 from x = 5 to 15, thickness default 0.25".
  void O1(double height) { Obstacle("O1", height, {{5, 12}, {15, 12}}); }

  State Start() const {
    InitialStateResult r = InitialState(ruleset, scenario);
    if (!r.state) {
      engine::mini_test::ReportFailure(__FILE__, __LINE__,
                                       "scenario refused: " + r.problems[0].code);
      return State{};
    }
    return *r.state;
  }
  std::string OwnerOf(const std::string& unit) const {
    for (const UnitSpec& u : scenario.units) {
      if (u.id == unit) return u.owner;
    }
    return "blue";
  }
  // The state with `player` active.
  State StartFor(const std::string& player) const {
    State s = Start();
    for (std::size_t i = 0; i < scenario.players.size(); ++i) {
      if (scenario.players[i] == player) s.active_player = i;
    }
    return s;
  }
  // §5.2 for one order given by its unit's owner, who is active.
  Verdict Check(const UnitOrder& order) const {
    const std::string player = OwnerOf(order.unit);
    return CheckAction(ruleset, scenario, StartFor(player), player, order).verdict;
  }
  PlayerTurnResult Resolve(std::vector<UnitOrder> actions, std::string player = "blue") const {
    return ResolvePlayerTurn(ruleset, scenario, StartFor(player),
                             Orders{player, std::move(actions)});
  }
};

// The verdict's reason name ("" when legal), for readable failures.
inline std::string Code(const Verdict& v) { return std::string(ReasonName(v.reason)); }

inline bool Legal(const Verdict& v) {
  if (v.kind == VerdictKind::kOk) return true;
  std::cout << "    verdict: " << VerdictKindName(v.kind) << " " << Code(v) << " {" << v.model
            << ", " << v.other << ", " << (v.value ? *v.value : -1) << ", "
            << (v.limit ? *v.limit : -1) << "}\n";
  return false;
}

// An ILLEGAL (or, with kind kInvalid, INVALID) verdict with its reason and arguments.
inline void ExpectVerdict(const Verdict& v, VerdictKind kind, const std::string& code,
                          const std::string& model, const std::string& other = "",
                          std::optional<Thou> value = std::nullopt,
                          std::optional<Thou> limit = std::nullopt) {
  CHECK_EQ_MINI(VerdictKindName(v.kind), VerdictKindName(kind));
  CHECK_EQ_MINI(Code(v), code);
  CHECK_EQ_MINI(v.model, model);
  CHECK_EQ_MINI(v.other, other);
  CHECK_EQ_MINI(v.value, value);
  CHECK_EQ_MINI(v.limit, limit);
}
inline void ExpectIllegal(const Verdict& v, const std::string& code, const std::string& model,
                          const std::string& other = "", std::optional<Thou> value = std::nullopt,
                          std::optional<Thou> limit = std::nullopt) {
  ExpectVerdict(v, VerdictKind::kIllegal, code, model, other, value, limit);
}

template <typename E>
std::vector<E> EventsOf(const PlayerTurnResult& r) {
  std::vector<E> out;
  for (const Event& e : r.events) {
    if (const E* p = std::get_if<E>(&e)) out.push_back(*p);
  }
  return out;
}

inline const ModelState& ModelIn(const State& s, const std::string& id) {
  static const ModelState none;
  const ModelState* m = FindModel(s, id);
  return m ? *m : none;
}

}  // namespace pbem::m42::test

#endif  // PBEM_TESTS_ENGINE_M42_FIXTURES_H_
