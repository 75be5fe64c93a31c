#include "engine/m42/bot.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/m42/resolve.h"
#include "engine/m42/validate.h"
#include "engine/table/fixed.h"
#include "engine/table/predicates.h"

namespace pbem::m42 {
namespace {

constexpr std::uint64_t kBotStream = 0x4d3432;  // "M42"
constexpr int kAttempts = 3;

// A point or displacement in thousandths of an inch.
struct Vec {
  Thou x = 0;
  Thou y = 0;
};
Vec operator+(Vec a, Vec b) { return {a.x + b.x, a.y + b.y}; }
Vec operator-(Vec a, Vec b) { return {a.x - b.x, a.y - b.y}; }
// v * num / den, each component rounded towards zero.
Vec Scale(Vec v, Thou num, Thou den) { return {v.x * num / den, v.y * num / den}; }
Thou Norm(Vec v) {
  const table::UInt128 sq = table::Square(v.x) + table::Square(v.y);
  return static_cast<Thou>(table::ISqrt(sq));
}
Thou SquaredNorm(Vec v) { return v.x * v.x + v.y * v.y; }

// Model positions are on the thousandth grid (orders and scenario data are, M-R1).
Vec PosOf(const ModelState& m) {
  return {m.pos.x() / table::kUnitsPerThousandthInch, m.pos.y() / table::kUnitsPerThousandthInch};
}
std::optional<table::Point> PointOf(Vec v) {
  return table::Point::Make(ToUnits(v.x), ToUnits(v.y));
}

// The direction of `v` to the nearest 45 degrees, in millidegrees (tan 22.5 = 0.41421...).
std::optional<std::int64_t> Heading(Vec v) {
  if (v.x == 0 && v.y == 0) return std::nullopt;
  const Thou ax = v.x < 0 ? -v.x : v.x;
  const Thou ay = v.y < 0 ? -v.y : v.y;
  if (100000 * ay <= 41421 * ax) return v.x > 0 ? 0 : 180000;
  if (100000 * ax <= 41421 * ay) return v.y > 0 ? 90000 : 270000;
  if (v.x > 0) return v.y > 0 ? 45000 : 315000;
  return v.y > 0 ? 135000 : 225000;
}

// A draw in [lo, hi].
Thou Between(engine::Pcg32& rng, Thou lo, Thou hi) {
  return lo + static_cast<Thou>(rng.Bounded(static_cast<std::uint32_t>(hi - lo + 1)));
}

// Objectives: the table's centre, then the centre (vertex average) of each structure's base or
// first floor, in scenario order.
std::vector<Vec> Objectives(const Scenario& scenario) {
  std::vector<Vec> out{{scenario.table_width_in / 2, scenario.table_height_in / 2}};
  for (const Structure& s : scenario.terrain.structures) {
    const table::Polygon* shape = s.base ? &*s.base : nullptr;
    if (shape == nullptr && !s.floors.empty()) shape = &s.floors.front().polygon;
    if (shape == nullptr) continue;
    Vec sum;
    for (const table::Point& p : shape->vertices()) {
      sum.x += p.x() / table::kUnitsPerThousandthInch;
      sum.y += p.y() / table::kUnitsPerThousandthInch;
    }
    const Thou n = static_cast<Thou>(shape->size());
    out.push_back({sum.x / n, sum.y / n});
  }
  return out;
}

// The enemy model nearest `from` (ties: state order).
const ModelState* NearestEnemy(const State& state, const std::string& owner, Vec from) {
  const ModelState* best = nullptr;
  Thou best_d = 0;
  for (const ModelState& m : state.models) {
    const UnitState* u = FindUnit(state, m.unit);
    if (!m.alive || u == nullptr || u->owner == owner) continue;
    const Thou d = SquaredNorm(PosOf(m) - from);
    if (best == nullptr || d < best_d) best = &m, best_d = d;
  }
  return best;
}

// The floor `level` of a structure holding `at` (the model's own structure when it is on one).
bool FloorHolds(const Scenario& scenario, const std::optional<std::string>& structure, int level,
                Vec at) {
  const std::optional<table::Point> p = PointOf(at);
  if (!p) return false;
  for (const Structure& s : scenario.terrain.structures) {
    if (structure && s.id != *structure) continue;
    for (const Floor& f : s.floors) {
      if (f.level == level && table::InPolygon(*p, f.polygon)) return true;
    }
  }
  return false;
}

struct Plan {
  std::vector<Vec> legs;  // displacements of the inner and last vertices from the start
  std::optional<std::int64_t> face;
};

// The unit's common displacement: `budget` thousandths towards `to`, in 1-3 legs.
Plan PlanLegs(engine::Pcg32& rng, Vec to, Thou budget) {
  Plan plan;
  const Thou dist = Norm(to);
  const Vec step = dist == 0 ? Vec{budget, 0} : Scale(to, budget, dist);
  const Vec side{-step.y, step.x};
  const Thou legs = Between(rng, 1, 3);
  const Thou stray = 1000 / (3 * legs);  // thousandths of |step|
  for (Thou k = 1; k <= legs; ++k) {
    Vec at = Scale(step, k, legs);
    if (k < legs) {
      const Thou off = Between(rng, -stray, stray);
      at = at + Scale(side, off, 1000);
    }
    plan.legs.push_back(at);
  }
  plan.face = Heading(step);
  return plan;
}

ModelOrder PlanModel(const Scenario& scenario, engine::Pcg32& rng, const ModelState& m,
                     const Plan& plan, bool first_attempt) {
  ModelOrder mo{m.id, {}, std::nullopt};
  const Vec start = PosOf(m);
  mo.path.push_back({start.x, start.y, std::nullopt});
  int floor = m.floor;
  std::optional<std::string> structure = m.structure;
  if (floor > 0 && rng.Bounded(4) != 0) {
    mo.path.push_back({start.x, start.y, 0});
    floor = 0;
    structure.reset();
  }
  for (const Vec& leg : plan.legs) {
    const Vec at = start + leg;
    mo.path.push_back({at.x, at.y, std::nullopt});
  }
  if (rng.Bounded(6) == 0) {
    const Thou jx = Between(rng, -300, 300);
    const Thou jy = Between(rng, -300, 300);
    mo.path.back().x_thou += jx;
    mo.path.back().y_thou += jy;
  }
  if (rng.Bounded(15) == 0) {  // a straggler
    const Thou jx = Between(rng, -2500, 2500);
    const Thou jy = Between(rng, -2500, 2500);
    mo.path.back().x_thou += jx;
    mo.path.back().y_thou += jy;
  }
  const Vec end{mo.path.back().x_thou, mo.path.back().y_thou};
  for (int climbs = 0; climbs < 2; ++climbs) {
    if (!FloorHolds(scenario, structure, floor + 1, end) || rng.Bounded(2) != 0) break;
    ++floor;
    mo.path.push_back({end.x, end.y, floor});
  }
  if (rng.Bounded(4) == 0) mo.face_mdeg = plan.face;
  if (first_attempt && rng.Bounded(200) == 0) {
    if (rng.Bounded(2) == 0) {
      mo.path.front().x_thou += 500;
    } else {
      mo.id = "nobody";
    }
  }
  return mo;
}

UnitOrder PlanUnit(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                   const UnitSpec& spec, const std::vector<const ModelState*>& models,
                   const std::vector<Vec>& objectives, int attempt, engine::Pcg32& rng) {
  const std::uint32_t roll = rng.Bounded(16);
  const Action kind = roll < 8    ? Action::kAdvance
                      : roll < 12 ? Action::kAtTheDouble
                      : roll < 14 ? Action::kGetDown
                                  : Action::kOpenFire;
  UnitOrder order{spec.id, kind, Fire::kUnset, {}};
  if (kind == Action::kAdvance) {
    const std::uint32_t fire = rng.Bounded(3);
    order.fire = fire == 0 ? Fire::kUnset : fire == 1 ? Fire::kBeforeMove : Fire::kAfterMove;
  }
  Vec centre;
  for (const ModelState* m : models) centre = centre + PosOf(*m);
  centre = Scale(centre, 1, static_cast<Thou>(models.size()));
  const ModelState* enemy = NearestEnemy(state, spec.owner, centre);
  const bool to_objective = rng.Bounded(4) == 0 || enemy == nullptr;
  // A first plan may also head 5" beyond the west edge (OFF_TABLE).
  const std::size_t choices = objectives.size() + (attempt == 0 ? 1 : 0);
  const std::size_t which = rng.Bounded(static_cast<std::uint32_t>(choices));
  const Vec off_table{-5000, centre.y};
  const Vec target = !to_objective               ? PosOf(*enemy)
                     : which < objectives.size() ? objectives[which]
                                                 : off_table;

  const int factor = ruleset.action_move_factor[static_cast<std::size_t>(kind)];
  if (factor == 0 && rng.Bounded(8) != 0) {
    if (kind == Action::kOpenFire && rng.Bounded(2) == 0) {
      for (const ModelState* m : models) {
        order.models.push_back(ModelOrder{m->id, {}, Heading(target - PosOf(*m))});
      }
    }
    return order;
  }
  const Thou allowance = static_cast<Thou>(std::max(factor, 1)) * spec.mv_in * kThouPerInch;
  const bool overreach = attempt == 0 && rng.Bounded(10) == 0;
  const Thou percent = overreach ? Between(rng, 110, 150) : Between(rng, 60, 100) >> attempt;
  Thou budget = allowance * percent / 100;
  const Vec to = target - centre;
  if (!to_objective) budget = std::min(budget, Norm(to) - 3000);
  if (budget < 300) budget = 300;  // crowded: a short step, often refused
  const Plan plan = PlanLegs(rng, to, budget);

  // Front first: no model ends where a model listed after it still stands.
  std::vector<const ModelState*> listed = models;
  const Vec dir = plan.legs.back();
  std::stable_sort(listed.begin(), listed.end(), [&](const ModelState* a, const ModelState* b) {
    const Vec pa = PosOf(*a), pb = PosOf(*b);
    return pa.x * dir.x + pa.y * dir.y > pb.x * dir.x + pb.y * dir.y;
  });
  for (const ModelState* m : listed)
    order.models.push_back(PlanModel(scenario, rng, *m, plan, attempt == 0));
  return order;
}

}  // namespace

Orders BotOrders(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                 std::uint64_t seed) {
  Orders orders;
  if (state.active_player >= scenario.players.size()) return orders;
  orders.player = scenario.players[state.active_player];
  engine::Pcg32 rng(seed, kBotStream);
  const std::vector<Vec> objectives = Objectives(scenario);
  State now = state;  // where the actions planned so far leave the models
  for (const UnitSpec& spec : scenario.units) {
    if (spec.owner != orders.player) continue;
    std::vector<const ModelState*> models;
    for (const ModelState& m : now.models) {
      if (m.alive && m.unit == spec.id) models.push_back(&m);
    }
    if (models.empty() || rng.Bounded(10) == 0) continue;
    UnitOrder order;
    bool legal = false;
    for (int attempt = 0; attempt < kAttempts; ++attempt) {
      order = PlanUnit(ruleset, scenario, now, spec, models, objectives, attempt, rng);
      legal = CheckAction(ruleset, scenario, now, orders.player, order).verdict.kind ==
              VerdictKind::kOk;
      if (legal || rng.Bounded(4) == 0) break;  // one refusal in four is kept
    }
    orders.actions.push_back(std::move(order));
    if (legal) now.models = ResolvePlayerTurn(ruleset, scenario, state, orders).next.models;
  }
  return orders;
}

}  // namespace pbem::m42
