// Builders for the French mass-battle game's tests: the digest's §7 common setup (table
// 180 x 120 cm, blue = player 1, red = player 2, infantry NON_CHOC 4 x 2, cavalry and flyers
// CHOC 2 x 4), positions in thousandths of a centimetre, headings in millidegrees.
#ifndef PBEM_TESTS_ENGINE_WME_FIXTURES_H_
#define PBEM_TESTS_ENGINE_WME_FIXTURES_H_

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/wme/charge.h"
#include "engine/wme/resolve.h"
#include "engine/wme/validate.h"
#include "tests/engine/mini_test.h"

namespace pbem::wme::testing {

// Thousandths of a centimetre from centimetres given as cm + thousandths (no floating point).
constexpr Milli Cm(std::int64_t cm, std::int64_t thousandths = 0) {
  return cm * 1000 + thousandths;
}

inline table::Point Pt(Milli x, Milli y) {
  std::optional<table::Point> p = table::Point::Make(ToUnits(x), ToUnits(y));
  if (!p) std::abort();
  return *p;
}

inline table::Polygon Poly(std::vector<std::pair<Milli, Milli>> vertices) {
  std::vector<table::Point> points;
  for (auto [x, y] : vertices) points.push_back(Pt(x, y));
  std::optional<table::Polygon> p = table::Polygon::Make(points);
  if (!p) std::abort();
  return *p;
}

// An axis-aligned box from (x0, y0) to (x1, y1).
inline table::Polygon Box(Milli x0, Milli y0, Milli x1, Milli y1) {
  return Poly({{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}});
}

struct Pose {
  Milli x = 0;
  Milli y = 0;
  std::int64_t heading_mdeg = 90000;
};

struct Game {
  Ruleset ruleset = DefaultRuleset();
  Scenario scenario;
  Game() { scenario.players = {"blue", "red"}; }

  // Bases are named "<unit>.1", "<unit>.2", ... in the order given.
  UnitSpec& Unit(const std::string& id, const std::string& owner, TroopType type,
                 std::vector<Pose> poses) {
    scenario.units.push_back(UnitSpec{id, owner, type, {}, {}, false, false, false, false, 0});
    for (std::size_t i = 0; i < poses.size(); ++i) {
      scenario.bases.push_back(BaseSpec{id + "." + std::to_string(i + 1), id,
                                        Pt(poses[i].x, poses[i].y), poses[i].heading_mdeg});
    }
    return scenario.units.back();
  }
  void Feature(const std::string& id, TerrainCategory category, table::Polygon polygon,
               bool blocks_los = false) {
    TerrainFeature f;
    f.id = id;
    f.category = category;
    f.pieces = {std::move(polygon)};
    f.blocks_los = blocks_los;
    scenario.terrain.push_back(std::move(f));
  }
  State Start() const {
    InitialStateResult r = InitialState(ruleset, scenario);
    if (!r.state) std::abort();
    return *r.state;
  }
};

inline LegOrder Translate(Milli x, Milli y) {
  LegOrder leg;
  leg.kind = LegOrder::Kind::kTranslate;
  leg.x = x;
  leg.y = y;
  return leg;
}

inline LegOrder Rotate(std::int64_t mdeg, Pivot pivot = Pivot::kCentre) {
  LegOrder leg;
  leg.kind = LegOrder::Kind::kRotate;
  leg.deg_mdeg = mdeg;
  leg.pivot = pivot;
  return leg;
}

inline MoveOrder Advance(const std::string& unit, std::vector<BaseOrder> bases) {
  MoveOrder m;
  m.unit = unit;
  m.kind = MoveKindOrder::kAdvance;
  m.bases = std::move(bases);
  return m;
}

inline MoveOrder EvadeFrom(const std::string& unit, const std::string& from,
                           std::vector<BaseOrder> bases) {
  MoveOrder m = Advance(unit, std::move(bases));
  m.kind = MoveKindOrder::kEvade;
  m.from = from;
  return m;
}

// The verdict of one move for `player` (blue unless said) in `subphase`.
inline Verdict Check(const Game& g, const MoveOrder& order, Subphase subphase = Subphase::kOrders,
                     const std::string& player = "blue") {
  return CheckMove(g.ruleset, g.scenario, g.Start(), player, order, subphase).verdict;
}

inline Verdict Ok(const std::string& unit) {
  Verdict v;
  v.unit = unit;
  return v;
}

inline Verdict Refused(const std::string& unit, Reason reason, const std::string& base = "",
                       const std::string& other = "") {
  Verdict v = Refusal(unit, reason);
  v.base = base;
  v.other = other;
  return v;
}

// WME-T10 setup: blue infantry line E facing north, red cavalry X (one CHOC base facing south)
// 12 cm ahead of E.2 when x_y = 45.
inline Game T10Game(Milli x_y = Cm(45)) {
  Game g;
  g.Unit("E", "blue", TroopType::kInfantry, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}, {Cm(28), Cm(30)}});
  g.Unit("X", "red", TroopType::kCavalry, {{Cm(24), x_y, 270000}});
  return g;
}

// WME-T12 setup: T10 plus blue line G between E and the south edge.
inline Game T12Game(bool g_engaged = false) {
  Game g = T10Game();
  g.Unit("G", "blue", TroopType::kInfantry, {{Cm(20), Cm(20)}, {Cm(24), Cm(20)}, {Cm(28), Cm(20)}})
      .engaged = g_engaged;
  return g;
}

// WME-T10 (a): E evades X straight south to y = to_y, E.2 (nearest X) first.
inline MoveOrder EvadeSouth(Milli to_y = Cm(10)) {
  return EvadeFrom("E", "X",
                   {{"E.2", {Translate(Cm(24), to_y)}},
                    {"E.1", {Translate(Cm(20), to_y)}},
                    {"E.3", {Translate(Cm(28), to_y)}}});
}

// WME-T12 (a): the same through G.
inline MoveOrder EvadeThroughG(Milli to_y = Cm(10)) {
  MoveOrder m = EvadeSouth(to_y);
  m.allow_pass_through = {"G"};
  return m;
}

// WME-T15 setup: red infantry line T facing east (x 59-61, y 48-60), blue line C 12 cm south
// of its right flank, facing north.
inline Game T15Game() {
  Game g;
  g.Unit("T", "red", TroopType::kInfantry,
         {{Cm(60), Cm(50), 0}, {Cm(60), Cm(54), 0}, {Cm(60), Cm(58), 0}});
  g.Unit("C", "blue", TroopType::kInfantry, {{Cm(56), Cm(36)}, {Cm(60), Cm(36)}, {Cm(64), Cm(36)}});
  return g;
}

// A charge by `unit` at `target`, AUTO placement.
inline ChargeOrder ChargeAt(const std::string& unit, const std::string& target,
                            std::optional<Reserve> reserve = std::nullopt) {
  ChargeOrder c;
  c.unit = unit;
  c.target = target;
  c.reserve = reserve;
  return c;
}

// The check of a charge ordered by blue in sub-phase 2.
inline ChargeCheck TryCharge(const Game& g, const ChargeOrder& c) {
  ScriptedDice dice({});
  return CheckCharge(g.ruleset, g.scenario, g.Start(), "blue", c, Subphase::kOrders, dice);
}

}  // namespace pbem::wme::testing

namespace pbem::wme {
inline std::ostream& operator<<(std::ostream& os, const Verdict& v) {
  os << "{" << v.unit << " " << VerdictKindName(v.kind) << " " << ReasonName(v.reason)
     << " base=" << v.base << " other=" << v.other;
  if (v.value) os << " value=" << *v.value;
  if (v.limit) os << " limit=" << *v.limit;
  if (!v.detail.empty()) os << " detail=" << v.detail;
  return os << "}";
}
}  // namespace pbem::wme

#endif  // PBEM_TESTS_ENGINE_WME_FIXTURES_H_
