// The bundled scenario "pumping_station" (engine/m42/scenarios.h, issue 16 point 6): what the
// issue asks of it (48" x 48", two platoons of about 20 models in 4-5 units, terrain of every
// Going class, an impassable feature, a building with two floors), a clean start, and one probe
// move per feature showing the Going the pipeline gives it.
#include "engine/m42/scenarios.h"

#include <map>

#include "engine/m42/soak.h"
#include "engine/table/discs.h"
#include "tests/engine/m42/fixtures.h"

namespace pbem::m42::test {
namespace {

TEST_CASE_MINI(PumpingStationIsWhatTheIssueAsks) {
  const Scenario s = PumpingStation();
  CHECK_EQ_MINI(s.table_width_in, 48000);
  CHECK_EQ_MINI(s.table_height_in, 48000);
  CHECK_EQ_MINI(s.players.size(), std::size_t{2});
  std::map<std::string, int> units, models;
  for (const UnitSpec& u : s.units) ++units[u.owner];
  for (const ModelSpec& m : s.models) {
    for (const UnitSpec& u : s.units) {
      if (u.id == m.unit) ++models[u.owner];
    }
  }
  for (const std::string& player : s.players) {
    CHECK_MINI(units[player] >= 4 && units[player] <= 5);
    CHECK_MINI(models[player] >= 18 && models[player] <= 22);
  }
  // Every Going class of §2.2 for an ordinary unit, and an impassable area.
  const Ruleset r = DefaultRuleset();
  std::map<std::string, Going> obstacles;
  for (const LinearObstacle& o : s.terrain.linear_obstacles) {
    obstacles[o.id] = ObstacleGoing(r.obstacle_bands_normal, o.height_in);
  }
  for (const PointObstacle& o : s.terrain.point_obstacles) {
    obstacles[o.id] = ObstacleGoing(r.obstacle_bands_normal, o.height_in);
  }
  CHECK_MINI((obstacles["low_wall"] == Going{.slow = true}));
  CHECK_MINI((obstacles["crate"] == Going{.slow = true}));
  CHECK_MINI((obstacles["hedge"] == Going{.slow = true, .difficult = true}));
  CHECK_MINI(obstacles["pipeline"].impassible);
  CHECK_MINI(obstacles["statue"].impassible);
  CHECK_EQ_MINI(s.terrain.impassable.size(), std::size_t{1});
  CHECK_EQ_MINI(s.terrain.hills.size(), std::size_t{1});
  REQUIRE_MINI(s.terrain.structures.size() == 1);
  const Structure& station = s.terrain.structures[0];
  CHECK_MINI(station.base.has_value());
  REQUIRE_MINI(station.floors.size() == 2);
  CHECK_EQ_MINI(station.floors[0].level, 1);
  CHECK_EQ_MINI(station.floors[1].level, 2);
}

TEST_CASE_MINI(PumpingStationStartsClean) {
  const Ruleset r = DefaultRuleset();
  const Scenario s = PumpingStation();
  const InitialStateResult start = InitialState(r, s);
  REQUIRE_MINI(start.state.has_value());
  CHECK_EQ_MINI(CheckInvariants(r, s, *start.state).size(), std::size_t{0});
  const table::Coord eps = ToUnits(r.epsilon_in);
  for (const UnitSpec& u : s.units) {
    std::vector<table::Disc> discs;
    for (const ModelState& m : start.state->models) {
      if (m.unit == u.id) discs.push_back(*table::Disc::Make(m.pos, m.radius));
    }
    CHECK_MINI(!table::Coherency(discs, ToUnits(u.spread_in.value_or(r.coherency_in)), eps,
                                 table::CoherencyMode::kSequence));
  }
  // No two enemy models within 30".
  for (const ModelState& a : start.state->models) {
    for (const ModelState& b : start.state->models) {
      if (FindUnit(*start.state, a.unit)->owner == FindUnit(*start.state, b.unit)->owner) continue;
      CHECK_MINI(table::CompareEdgeDistance(*table::Disc::Make(a.pos, a.radius),
                                            *table::Disc::Make(b.pos, b.radius),
                                            ToUnits(30000)) > 0);
    }
  }
}

// One blue model "p1" of a unit "probe" (Mv 10) added at (x, y), moving along `path` from there.
PlayerTurnResult Probe(double x, double y, Action kind, std::vector<PathVertex> path) {
  Scenario s = PumpingStation();
  UnitSpec u = MakeUnit("probe", "blue");
  u.mv_in = 10;
  s.units.push_back(u);
  ModelSpec m;
  m.id = "p1";
  m.unit = "probe";
  m.pos = P(x, y);
  s.models.push_back(m);
  const Ruleset r = DefaultRuleset();
  const InitialStateResult start = InitialState(r, s);
  if (!start.state) return {};
  path.insert(path.begin(), V(x, y));
  return ResolvePlayerTurn(r, s, *start.state,
                           Orders{"blue", {Act("probe", kind, {Move("p1", std::move(path))})}});
}

std::vector<std::string> SlowIds(const PlayerTurnResult& r) {
  std::vector<std::string> out;
  for (const SlowGoing& e : EventsOf<SlowGoing>(r)) out.push_back(e.feature);
  return out;
}

TEST_CASE_MINI(PumpingStationSlowFeatures) {
  // At The Double is refused across each Slow feature; an Advance crosses it.
  const struct {
    double x, y, tx, ty;
    const char* feature;
  } cases[] = {
      {24, 11, 24, 13, "low_wall"},
      {11.5, 13, 11.5, 16, "crate"},
      {35, 18, 38, 18, "woods"},
      {10, 16, 10, 20, "kessel_rise"},
      {24, 31, 24, 33, "marsh"},
      {39, 31, 39, 33, "hedge"},
      {31.25, 22.5, 31.25, 26, "station.base"},
  };
  for (const auto& c : cases) {
    const PlayerTurnResult atd = Probe(c.x, c.y, Action::kAtTheDouble, {V(c.tx, c.ty)});
    REQUIRE_MINI(atd.verdicts.size() == 1);
    ExpectIllegal(atd.verdicts[0], "AT_THE_DOUBLE_IN_SLOW_GOING", "p1", c.feature);
    const PlayerTurnResult adv = Probe(c.x, c.y, Action::kAdvance, {V(c.tx, c.ty)});
    REQUIRE_MINI(adv.verdicts.size() == 1);
    CHECK_MINI(Legal(adv.verdicts[0]));
    CHECK_EQ_MINI(SlowIds(adv), std::vector<std::string>{c.feature});
  }
}

TEST_CASE_MINI(PumpingStationDifficultFeatures) {
  // The marsh and the hedge are Slow and Difficult: an Advance of Mv 10 gets 5".
  for (const auto& [x, y, ty, feature] :
       {std::tuple{24.0, 31.0, 33.0, "marsh"}, std::tuple{39.0, 31.0, 33.0, "hedge"}}) {
    const PlayerTurnResult r = Probe(x, y, Action::kAdvance, {V(x, ty)});
    const auto difficult = EventsOf<DifficultGoing>(r);
    REQUIRE_MINI(difficult.size() == 1);
    CHECK_EQ_MINI(difficult[0].feature, std::string(feature));
    CHECK_EQ_MINI(difficult[0].allowance, 5);
    const PlayerTurnResult far = Probe(x, y, Action::kAdvance, {V(x, ty), V(x + 3.5, ty)});
    ExpectIllegal(far.verdicts.at(0), "EXCEEDS_ALLOWANCE", "p1", "", 5500, 5000);
  }
  // The station's blind west wall is Difficult; its south door is not.
  const PlayerTurnResult wall = Probe(27, 27, Action::kAdvance, {V(29, 27)});
  CHECK_MINI(Legal(wall.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<DifficultGoing>(wall).size(), std::size_t{1});
  const PlayerTurnResult door = Probe(31.25, 22.5, Action::kAdvance, {V(31.25, 26)});
  CHECK_MINI(Legal(door.verdicts.at(0)));
  CHECK_EQ_MINI(EventsOf<DifficultGoing>(door).size(), std::size_t{0});
  // Through the door and up both floors: Difficult (climbing), allowance 5, length 3.5.
  const PlayerTurnResult up =
      Probe(31.25, 22.5, Action::kAdvance, {V(31.25, 26), V(31.25, 26, 1), V(31.25, 26, 2)});
  REQUIRE_MINI(Legal(up.verdicts.at(0)));
  CHECK_EQ_MINI(ModelIn(up.next, "p1").floor, 2);
  CHECK_EQ_MINI(ModelIn(up.next, "p1").structure, std::optional<std::string>("station"));
  CHECK_EQ_MINI(EventsOf<DifficultGoing>(up).at(0).allowance, 5);
}

TEST_CASE_MINI(PumpingStationImpassableFeatures) {
  ExpectIllegal(Probe(6, 33, Action::kAdvance, {V(6, 35)}).verdicts.at(0), "IMPASSABLE", "p1",
                "pipeline");
  ExpectIllegal(Probe(39, 38.5, Action::kAdvance, {V(42, 38.5)}).verdicts.at(0), "IMPASSABLE", "p1",
                "statue");
  ExpectIllegal(Probe(23, 18, Action::kAdvance, {V(23, 26)}).verdicts.at(0), "IMPASSABLE", "p1",
                "sump");
}

}  // namespace
}  // namespace pbem::m42::test
