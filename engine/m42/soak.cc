#include "engine/m42/soak.h"

#include "engine/core/dice.h"
#include "engine/m42/bot.h"
#include "engine/m42/canonical.h"
#include "engine/table/discs.h"
#include "engine/table/predicates.h"

namespace pbem::m42 {
namespace {

const UnitSpec* SpecOf(const Scenario& scenario, const std::string& unit) {
  for (const UnitSpec& u : scenario.units) {
    if (u.id == unit) return &u;
  }
  return nullptr;
}

table::Disc DiscOf(const ModelState& m, bool centre = false) {
  return *table::Disc::Make(m.pos, centre ? 0 : m.radius);
}

bool SamePlace(const ModelState& a, const ModelState& b) {
  return a.pos == b.pos && a.floor == b.floor && a.structure == b.structure &&
         a.facing_mdeg == b.facing_mdeg && a.alive == b.alive;
}

// The impassable features a base on the ground shares area with.
std::vector<std::string> ImpassableUnder(const Ruleset& ruleset, const Scenario& scenario,
                                         const UnitSpec& unit, const ModelState& m) {
  std::vector<std::string> out;
  const table::Coord eps = ToUnits(ruleset.epsilon_in);
  const table::Polyline at = *table::Polyline::Make({m.pos});
  if (ruleset.explicit_impassable) {
    for (const ImpassableArea& a : scenario.terrain.impassable) {
      if (table::SweepSharesArea(at, m.radius, a.polygon, eps)) out.push_back(a.id);
    }
  }
  const auto& bands = unit.leaper ? ruleset.obstacle_bands_leaper : ruleset.obstacle_bands_normal;
  for (const LinearObstacle& o : scenario.terrain.linear_obstacles) {
    const table::Coord half =
        ToUnits(o.thickness_in.value_or(ruleset.linear_obstacle_thickness_in)) / 2;
    if (ObstacleGoing(bands, o.height_in).impassible &&
        table::DiscOverlapsBody(DiscOf(m), o.centre_line, half, eps)) {
      out.push_back(o.id);
    }
  }
  for (const PointObstacle& o : scenario.terrain.point_obstacles) {
    if (ObstacleGoing(bands, o.height_in).impassible &&
        table::SweepSharesArea(at, m.radius, o.footprint, eps)) {
      out.push_back(o.id);
    }
  }
  return out;
}

bool OnItsFloor(const Scenario& scenario, const ModelState& m) {
  for (const Structure& s : scenario.terrain.structures) {
    if (!m.structure || s.id != *m.structure) continue;
    for (const Floor& f : s.floors) {
      if (f.level == m.floor && table::InPolygon(m.pos, f.polygon)) return true;
    }
  }
  return false;
}

// The SplitMix64 chain of `pbem play` (daemon/cli/play_command.cc): the bot's seed for
// player-turn `pt` of game `game`.
std::uint64_t BotSeed(std::uint64_t seed, std::uint64_t game, std::uint64_t pt) {
  std::uint64_t s = seed;
  s = engine::SplitMix64(s) ^ game;
  s = engine::SplitMix64(s) ^ pt;
  static_cast<void>(
      engine::SplitMix64(s));  // `pbem play` draws the dice seed first; M42 movement rolls none
  return engine::SplitMix64(s);
}

void Count(const PlayerTurnResult& r, SoakCounts& c) {
  ++c.player_turns;
  for (const Verdict& v : r.verdicts) {
    ++c.actions;
    if (v.kind == VerdictKind::kOk) ++c.ok;
    if (v.kind == VerdictKind::kIllegal) ++c.illegal;
    if (v.kind == VerdictKind::kInvalid) ++c.invalid;
    if (v.reason != Reason::kNone) ++c.reasons[std::string(ReasonName(v.reason))];
  }
  for (const Event& e : r.events) {
    ++c.events[std::string(EventKindName(e))];
    if (const auto* acted = std::get_if<UnitActed>(&e)) {
      ++c.actions_done[std::string(ActionName(acted->action))];
    }
    if (const auto* moved = std::get_if<ModelMoved>(&e); moved && moved->to_floor > 0) {
      ++c.upper_floor_ends;
    }
  }
}

}  // namespace

std::vector<std::string> CheckInvariants(const Ruleset& ruleset, const Scenario& scenario,
                                         const State& state) {
  std::vector<std::string> out;
  const table::Coord eps = ToUnits(ruleset.epsilon_in);
  const table::Coord width = ToUnits(scenario.table_width_in);
  const table::Coord height = ToUnits(scenario.table_height_in);
  for (std::size_t i = 0; i < state.models.size(); ++i) {
    const ModelState& m = state.models[i];
    if (!m.alive) continue;
    for (std::size_t j = i + 1; j < state.models.size(); ++j) {
      const ModelState& o = state.models[j];
      if (o.alive && table::Overlap(DiscOf(m), DiscOf(o), eps)) {
        out.push_back(m.id + " overlaps " + o.id);
      }
    }
    if (ruleset.table_edge == TableEdge::kWall &&
        !table::SweepInsideTable(*table::Polyline::Make({m.pos}), m.radius, width, height)) {
      out.push_back(m.id + " is off the table");
    }
    const UnitSpec* unit = SpecOf(scenario, m.unit);
    if (m.floor == 0 && unit != nullptr) {
      for (const std::string& f : ImpassableUnder(ruleset, scenario, *unit, m)) {
        out.push_back(m.id + " stands on impassable " + f);
      }
    }
    if (m.floor > 0 && !OnItsFloor(scenario, m)) {
      out.push_back(m.id + " is not on floor " + std::to_string(m.floor) + " of its structure");
    }
  }
  return out;
}

std::vector<std::string> CheckActionEffect(const Ruleset& ruleset, const Scenario& scenario,
                                           const State& before, const State& after,
                                           const UnitOrder& order, const Verdict& verdict) {
  std::vector<std::string> out;
  const std::string what = order.unit + " (" + std::string(VerdictKindName(verdict.kind)) + " " +
                           std::string(ReasonName(verdict.reason)) + ")";
  if (before.models.size() != after.models.size()) return {what + ": models added or lost"};
  const bool ok = verdict.kind == VerdictKind::kOk;
  bool moved = false;
  std::vector<std::size_t> movers;
  for (std::size_t i = 0; i < before.models.size(); ++i) {
    const ModelState& b = before.models[i];
    const ModelState& a = after.models[i];
    if (SamePlace(b, a)) continue;
    if (!ok) out.push_back(what + ": refused, yet " + b.id + " changed");
    if (ok && b.unit != order.unit) out.push_back(what + ": changed " + b.id + " of " + b.unit);
    if (!(a.pos == b.pos) || a.floor != b.floor) moved = true, movers.push_back(i);
  }
  if (!ok || !moved) return out;
  const UnitSpec* unit = SpecOf(scenario, order.unit);
  const table::Coord eps = ToUnits(ruleset.epsilon_in);
  const bool centre = ruleset.measure == Measure::kCentre;
  std::vector<table::Disc> discs;
  for (const ModelState& m : after.models) {
    if (m.alive && m.unit == order.unit) discs.push_back(DiscOf(m, centre));
  }
  const Thou limit = unit && unit->spread_in ? *unit->spread_in : ruleset.coherency_in;
  if (table::Coherency(discs, ToUnits(limit), eps, table::CoherencyMode::kConnected)) {
    out.push_back(what + ": legal, yet the unit is not coherent");
  }
  if (centre) return out;
  const UnitState* own = FindUnit(after, order.unit);
  for (std::size_t i : movers) {
    const ModelState& m = after.models[i];
    for (const ModelState& e : after.models) {
      const UnitState* theirs = FindUnit(after, e.unit);
      if (!e.alive || own == nullptr || theirs == nullptr || theirs->owner == own->owner) continue;
      if (table::CompareEdgeDistance(DiscOf(m), DiscOf(e),
                                     ToUnits(ruleset.enemy_clearance_in) - eps) < 0) {
        out.push_back(what + ": " + m.id + " ends within clearance of " + e.id);
      }
    }
  }
  return out;
}

void SoakCounts::Add(const SoakCounts& o) {
  player_turns += o.player_turns;
  actions += o.actions;
  ok += o.ok;
  illegal += o.illegal;
  invalid += o.invalid;
  for (const auto& [k, n] : o.reasons) reasons[k] += n;
  for (const auto& [k, n] : o.events) events[k] += n;
  for (const auto& [k, n] : o.actions_done) actions_done[k] += n;
  upper_floor_ends += o.upper_floor_ends;
}

std::string HashHex(std::uint64_t hash) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) out[static_cast<std::size_t>(i)] = kDigits[hash & 15];
  return out;
}

GameRun PlayGame(const Ruleset& ruleset, const Scenario& scenario, std::uint64_t seed,
                 std::uint64_t game, int player_turns, Fnv1a64* all) {
  GameRun run;
  Fnv1a64 hash;
  InitialStateResult initial = InitialState(ruleset, scenario);
  if (!initial.state) {
    run.violations.push_back("scenario refused: " + initial.problems.front().code + " " +
                             initial.problems.front().id);
    return run;
  }
  State state = std::move(*initial.state);
  auto report = [&](int pt, const std::vector<std::string>& found) {
    for (const std::string& f : found) {
      run.violations.push_back("game " + std::to_string(game) + " player-turn " +
                               std::to_string(pt) + ": " + f);
    }
  };
  report(0, CheckInvariants(ruleset, scenario, state));
  for (int pt = 1; pt <= player_turns; ++pt) {
    const Orders orders =
        BotOrders(ruleset, scenario, state, BotSeed(seed, game, static_cast<std::uint64_t>(pt)));
    // After every action: the player-turn resolved up to that action.
    State at = state;
    Orders prefix{orders.player, {}};
    for (const UnitOrder& action : orders.actions) {
      prefix.actions.push_back(action);
      const PlayerTurnResult upto = ResolvePlayerTurn(ruleset, scenario, state, prefix);
      report(pt, CheckActionEffect(ruleset, scenario, at, upto.next, action, upto.verdicts.back()));
      report(pt, CheckInvariants(ruleset, scenario, upto.next));
      at = upto.next;
    }
    PlayerTurnResult result = ResolvePlayerTurn(ruleset, scenario, state, orders);
    for (std::size_t i = 0; i < at.models.size(); ++i) {
      if (!SamePlace(at.models[i], result.next.models[i])) {
        report(pt, {at.models[i].id + ": the whole player-turn leaves it elsewhere"});
      }
    }
    const std::string text = CanonicalText(result);
    hash.Add(text);
    if (all != nullptr) all->Add(text);
    Count(result, run.counts);
    state = std::move(result.next);
  }
  run.hash = hash.value();
  return run;
}

GameRun PlayGames(const Ruleset& ruleset, const Scenario& scenario, std::uint64_t seed,
                  std::uint64_t games, int player_turns) {
  GameRun total;
  Fnv1a64 all;
  for (std::uint64_t game = 1; game <= games; ++game) {
    GameRun run = PlayGame(ruleset, scenario, seed, game, player_turns, &all);
    total.violations.insert(total.violations.end(), run.violations.begin(), run.violations.end());
    total.counts.Add(run.counts);
  }
  total.hash = all.value();
  return total;
}

}  // namespace pbem::m42
