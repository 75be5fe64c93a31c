#include "engine/morne_plaine/bot.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/bombardment.h"
#include "engine/morne_plaine/combat.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/movement.h"
#include "engine/morne_plaine/reach.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::engine {

namespace {

constexpr std::uint64_t kBotStream = 0x626f74;  // "bot"

UnitId IdOf(std::size_t i) { return UnitId{static_cast<std::int32_t>(i)}; }

// The nearest enemy unit on the map or objective hex not held by `side`.
std::optional<Hex> MoveTarget(const Scenario& scenario, const GameState& state, Side side,
                              Hex from) {
  std::optional<Hex> best;
  int best_distance = 0;
  const auto consider = [&](Hex h) {
    const int d = Distance(from, h);
    if (!best || d < best_distance) {
      best = h;
      best_distance = d;
    }
  };
  for (std::size_t i = 0; i < scenario.units.size() && i < state.units.size(); ++i) {
    if (scenario.units[i].side != side && state.units[i].on_map()) consider(*state.units[i].hex);
  }
  for (const Objective& o : scenario.objectives) {
    for (const Hex h : o.hexes) {
      const auto owner = state.objective_owners.find(h);
      if (owner == state.objective_owners.end() || owner->second != side) consider(h);
    }
  }
  return best;
}

// Turn-1 set-up for `side` on `start` (digest 2): each own unit off the map
// (not eliminated), and one non-fixed unit on the map in four, goes to a hex
// of the side's deployment zone that no unit holds or has been given: within
// its corps leader's radius of the leader when there is such a hex (the
// leader as it stands, or as placed just before), else any. Each choice is
// drawn with `rng` among the candidates in label order.
void PlanPlacements(const Scenario& scenario, GameState& start, Side side, Pcg32& rng,
                    Orders& orders) {
  const std::set<Hex>& zone = scenario.deployment[static_cast<int>(side)];
  if (zone.empty()) return;
  std::set<Hex> taken;
  for (const UnitState& u : start.units) {
    if (u.on_map()) taken.insert(*u.hex);
  }
  for (std::size_t i = 0; i < scenario.units.size(); ++i) {
    const UnitSpec& spec = scenario.units[i];
    UnitState& us = start.units[i];
    if (spec.side != side || spec.fixed || us.eliminated) continue;
    const bool off_map = !us.hex.has_value();
    if (!off_map && rng.Bounded(4) != 0) continue;
    std::optional<Hex> leader_at;
    int radius = 0;
    if (!spec.is_leader()) {
      if (const auto leader = scenario.LeaderOf(side, spec.corps)) {
        if (start.unit(*leader).on_map()) leader_at = start.unit(*leader).hex;
        radius = scenario.unit(*leader).command_radius;
      }
    }
    std::vector<Hex> any;
    std::vector<Hex> near;
    for (const Hex h : zone) {
      if (taken.count(h) > 0 || !scenario.map.Contains(h)) continue;
      any.push_back(h);
      if (leader_at && Distance(h, *leader_at) <= radius) near.push_back(h);
    }
    const std::vector<Hex>& pool = near.empty() ? any : near;
    if (pool.empty()) continue;
    const Hex to = pool[rng.Bounded(static_cast<std::uint32_t>(pool.size()))];
    taken.insert(to);
    us.hex = to;
    orders.placements.push_back(PlacementOrder{spec.id, to, {}});
  }
}

}  // namespace

Orders BotOrders(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                 std::uint64_t seed) {
  Orders orders;
  orders.game_id = state.game_id;
  orders.turn = state.turn;
  orders.side = state.side_to_move;
  if (state.finished || state.units.size() != scenario.units.size()) return orders;
  const Side side = state.side_to_move;

  Pcg32 rng(seed, kBotStream);

  // The board as the turn will see it once it starts.
  GameState start = state;
  ResetForPlayerTurn(scenario, start, side);

  // Set-up (digest 2), turn 1 only: every own unit off the map is placed,
  // and one non-fixed unit in four is moved elsewhere in the zone.
  if (state.turn == 1) PlanPlacements(scenario, start, side, rng, orders);
  std::vector<Event> scratch;
  RunCommandCheck(ruleset, scenario, start, side, scratch);
  if (scenario.setup_only_first_turn && state.turn == 1) return orders;

  const auto own_on_map = [&](std::size_t i) {
    return scenario.units[i].side == side && start.units[i].on_map();
  };
  std::vector<bool> busy(scenario.units.size(), false);  // attacks or bombards: no move

  // Attacks.
  std::set<std::size_t> defenders;
  for (std::size_t i = 0; i < scenario.units.size(); ++i) {
    if (!own_on_map(i)) continue;
    const UnitSpec& spec = scenario.units[i];
    // Leaders and batteries may attack where the ruleset allows it (digest
    // 5.1 GAP); the bot sends a leader one time in four and a battery one time
    // in two (otherwise it bombards), so the soak exercises both.
    const bool leader = spec.is_leader();
    const bool battery = spec.arm == Arm::kArtillery;
    if (leader && !ruleset.params.leaders_may_attack) continue;
    if (battery && !ruleset.params.artillery_may_attack) continue;
    if ((leader || battery) && rng.Bounded(leader ? 4 : 2) != 0) continue;
    if (IsDemoralised(spec, start.units[i])) continue;  // leaders never are
    const Hex at = *start.units[i].hex;
    for (const Hex n : Neighbors(at)) {
      const std::optional<UnitId> other = start.UnitAt(n);
      if (!other || scenario.unit(*other).side == side) continue;
      if (!start.unit(*other).on_map() || defenders.count(other->index()) > 0) continue;
      if (!InCombatContact(ruleset, scenario.map, at, n)) continue;
      orders.attacks.push_back(AttackOrder{spec.id, scenario.unit(*other).id, {}});
      defenders.insert(other->index());
      busy[i] = true;
      break;
    }
  }

  // Bombardments.
  std::set<std::size_t> targeted;
  for (std::size_t i = 0; i < scenario.units.size(); ++i) {
    if (!own_on_map(i) || busy[i] || scenario.units[i].arm != Arm::kArtillery) continue;
    const Hex at = *start.units[i].hex;
    std::optional<std::size_t> best;
    int best_distance = 0;
    for (std::size_t j = 0; j < scenario.units.size(); ++j) {
      if (scenario.units[j].side == side || !start.units[j].on_map()) continue;
      if (defenders.count(j) > 0 || targeted.count(j) > 0) continue;
      const Hex target = *start.units[j].hex;
      const int d = Distance(at, target);
      if (best && d >= best_distance) continue;
      if (CheckBombardment(ruleset, scenario, start, IdOf(i), target)) continue;
      best = j;
      best_distance = d;
    }
    if (!best) continue;
    orders.bombardments.push_back(
        BombardmentOrder{scenario.units[i].id, *start.units[*best].hex, {}});
    targeted.insert(*best);
    busy[i] = true;
  }

  // Moves.
  std::set<Hex> claimed;  // every hex of an earlier mover's path
  for (std::size_t i = 0; i < scenario.units.size(); ++i) {
    if (!own_on_map(i) || busy[i]) continue;
    if (rng.Bounded(4) == 0) continue;
    const Hex at = *start.units[i].hex;
    const std::optional<Hex> target = MoveTarget(scenario, start, side, at);
    if (!target) continue;
    const std::vector<ReachableHex> reach = ReachableThisTurn(ruleset, scenario, start, IdOf(i));
    const ReachableHex* best = nullptr;
    int best_distance = Distance(at, *target);
    for (const ReachableHex& r : reach) {
      if (r.path.empty()) continue;
      const int d = Distance(r.hex, *target);
      if (d >= best_distance) continue;
      const bool crosses = std::any_of(r.path.begin(), r.path.end(),
                                       [&claimed](Hex h) { return claimed.count(h) > 0; });
      if (crosses) continue;
      best = &r;
      best_distance = d;
    }
    if (best == nullptr) continue;
    MoveOrder m;
    m.unit = scenario.units[i].id;
    m.path = best->path;
    m.no_charge = true;
    claimed.insert(best->path.begin(), best->path.end());
    orders.moves.push_back(std::move(m));
  }
  return orders;
}

std::vector<std::string> CheckInvariants(const Scenario& scenario, const GameState& state) {
  std::vector<std::string> problems;
  if (state.units.size() != scenario.units.size()) {
    problems.push_back("state has " + std::to_string(state.units.size()) + " units, scenario " +
                       std::to_string(scenario.units.size()));
    return problems;
  }
  std::map<Hex, std::string> seen;
  for (std::size_t i = 0; i < scenario.units.size(); ++i) {
    const UnitSpec& spec = scenario.units[i];
    const UnitState& us = state.units[i];
    const std::string& id = spec.id;
    if (us.cs < 0 || us.cs > spec.cs) {
      problems.push_back(id + ": CS " + std::to_string(us.cs) + " outside 0.." +
                         std::to_string(spec.cs));
    }
    if (us.mv < 0 || us.mv > us.mv_initial) {
      problems.push_back(id + ": MV " + std::to_string(us.mv) + " outside 0.." +
                         std::to_string(us.mv_initial));
    }
    if (us.eliminated && us.hex) {
      problems.push_back(id + ": eliminated but still at " + FormatLabel(*us.hex));
    }
    if (!us.on_map()) continue;
    const Hex h = *us.hex;
    if (us.cs <= 0) problems.push_back(id + ": on the map at " + FormatLabel(h) + " with CS 0");
    if (!scenario.map.Contains(h)) {
      problems.push_back(id + ": at " + FormatLabel(h) + ", off the map");
    }
    const auto [where, fresh] = seen.emplace(h, id);
    if (!fresh) problems.push_back(id + ": shares " + FormatLabel(h) + " with " + where->second);
  }
  return problems;
}

std::vector<std::string> CheckMovesExplained(const Scenario& scenario, const GameState& before,
                                             const std::vector<Event>& events,
                                             const GameState& after) {
  std::vector<std::string> problems;
  if (before.units.size() != scenario.units.size() || after.units.size() != scenario.units.size()) {
    problems.push_back("state and scenario disagree on the number of units");
    return problems;
  }
  std::vector<std::optional<Hex>> at(scenario.units.size());
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (before.units[i].on_map()) at[i] = before.units[i].hex;
  }
  for (const Event& e : events) {
    if (!e.unit || e.unit->index() >= at.size()) continue;
    const std::size_t i = e.unit->index();
    const std::string& id = scenario.units[i].id;
    const std::string kind(EventKindName(e.kind()));
    switch (e.kind()) {
      case EventKind::kPlace:
        if (before.turn != 1)
          problems.push_back(id + ": placed in turn " + std::to_string(before.turn));
        if (e.hexes.size() == 1) at[i] = e.hexes[0];
        break;
      case EventKind::kMoveStep:
      case EventKind::kRetreat:
      case EventKind::kAdvance: {
        if (e.hexes.size() != 2) {
          problems.push_back(id + ": " + kind + " without its two hexes");
          break;
        }
        const Hex from = e.hexes[0];
        const Hex to = e.hexes[1];
        if (!at[i] || *at[i] != from) {
          problems.push_back(id + ": " + kind + " from " + FormatLabel(from) + " but it stands " +
                             (at[i] ? "at " + FormatLabel(*at[i]) : std::string("off the map")));
        }
        if (!Adjacent(from, to) || !scenario.map.Contains(to)) {
          problems.push_back(id + ": " + kind + " " + FormatLabel(from) + " -> " + FormatLabel(to) +
                             " is not one step on the map");
        }
        at[i] = to;
        break;
      }
      case EventKind::kEliminated:
        at[i].reset();
        break;
      default:
        break;
    }
  }
  for (std::size_t i = 0; i < at.size(); ++i) {
    const std::optional<Hex> now =
        after.units[i].on_map() ? after.units[i].hex : std::optional<Hex>();
    if (now != at[i]) {
      problems.push_back(scenario.units[i].id + ": stands " +
                         (now ? "at " + FormatLabel(*now) : std::string("off the map")) +
                         ", the log says " +
                         (at[i] ? FormatLabel(*at[i]) : std::string("off the map")));
    }
  }
  return problems;
}

}  // namespace pbem::engine
