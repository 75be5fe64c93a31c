#include "engine/morne_plaine/movement_phase.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "engine/morne_plaine/bombardment.h"
#include "engine/morne_plaine/movement.h"
#include "engine/morne_plaine/reach.h"

namespace pbem::engine {

namespace {

// How far one unit has got in this phase.
struct Progress {
  MoverState mover;
  bool can_move = true;  // false: a battery that bombarded (digest 3.1)
  bool ended = false;    // entered an enemy ZoC: no more movement (digest 4.6)
};

class MovementPhase {
 public:
  MovementPhase(const Ruleset& ruleset, const Scenario& scenario, GameState& state, Side mover,
                DiceSource& dice, std::vector<Event>& events)
      : ruleset_(ruleset),
        scenario_(scenario),
        map_(scenario.map),
        state_(state),
        mover_(mover),
        dice_(dice),
        events_(events),
        board_(scenario, state) {}

  MovementPhaseResult Run(const Orders& orders, const MoveOrderObserver& observer) {
    MovementPhaseResult result;
    for (std::size_t i = 0; i < orders.moves.size(); ++i) {
      trace_ = MoveOrderTrace{};
      trace_.index = static_cast<int>(i);
      trace_.first_event = events_.size();
      trace_.destination = orders.moves[i].destination.has_value();
      result.verdicts.push_back(Resolve(static_cast<int>(i), orders.moves[i]));
      if (observer) {
        trace_.verdict = &result.verdicts.back();
        observer(trace_);
      }
    }
    return result;
  }

 private:
  // ---- Events ------------------------------------------------------------

  void Emit(std::optional<UnitId> unit, std::vector<Hex> hexes, EventBody body,
            std::optional<DieRoll> die = std::nullopt) {
    events_.push_back(
        Event{Phase::kMovement, unit, std::move(hexes), std::move(body), std::move(die)});
  }

  int Roll(Die die, std::optional<UnitId> unit, std::vector<Hex> hexes, std::string purpose,
           payload::Die body = {}) {
    const int value = dice_.Roll(die);
    Emit(unit, std::move(hexes), body, DieRoll{die, value, std::move(purpose)});
    return value;
  }

  const std::string& Id(UnitId u) const { return scenario_.unit(u).id; }
  const TerrainType& TerrainAt(Hex h) const { return ruleset_.terrain_type(map_.terrain(h)); }

  // ---- One order -----------------------------------------------------------

  Progress& ProgressOf(UnitId unit) {
    const auto it = progress_.find(unit.value);
    if (it != progress_.end()) return it->second;
    const Allowance allowance = MovementAllowance(ruleset_, scenario_, state_, unit);
    Progress p;
    p.mover.at = *state_.unit(unit).hex;
    p.mover.points_left = allowance.points;
    p.mover.route = TurnStartRoute();
    p.can_move = allowance.can_move;
    return progress_.emplace(unit.value, p).first->second;
  }

  OrderVerdict Resolve(int index, const MoveOrder& m) {
    OrderVerdict v{OrderKind::kMove, index, m.unit, VerdictKind::kOk, Reason::kNone, {}};
    const auto finish = [&v](VerdictKind kind, Reason reason, std::vector<Arg> args) {
      v.verdict = kind;
      v.reason = reason;
      v.args = std::move(args);
      return v;
    };
    if (m.problem) return finish(VerdictKind::kInvalid, m.problem->reason, m.problem->args);
    const auto unit = scenario_.FindUnit(m.unit);
    if (!unit) return finish(VerdictKind::kInvalid, Reason::kUnknownUnit, {m.unit});
    if (scenario_.unit(*unit).side != mover_) {
      return finish(VerdictKind::kIllegal, Reason::kNotYourUnit, {m.unit});
    }
    const UnitState& us = state_.unit(*unit);
    if (us.eliminated) return finish(VerdictKind::kIllegal, Reason::kUnitEliminated, {m.unit});
    if (!us.hex) return finish(VerdictKind::kIllegal, Reason::kUnitNotOnMap, {m.unit});
    if (m.path.empty() && !m.destination) {
      return finish(VerdictKind::kInvalid, Reason::kEmptyPath, {});
    }
    if (!m.path.empty() && m.destination) {
      return finish(VerdictKind::kInvalid, Reason::kPathAndDestination, {});
    }
    const Hex start = *us.hex;
    trace_.start = start;
    // The order is checked whole before anything moves: a path that is not
    // understood changes nothing (as ValidateOrders reports it).
    if (m.destination && !map_.Contains(*m.destination)) {
      return finish(VerdictKind::kInvalid, Reason::kHexOffMap, {*m.destination});
    }
    Hex prev = start;
    for (std::size_t s = 0; s < m.path.size(); ++s) {
      const Hex h = m.path[s];
      const auto step = static_cast<std::int64_t>(s);
      if (!map_.Contains(h)) return finish(VerdictKind::kInvalid, Reason::kHexOffMap, {h, step});
      if (!Adjacent(prev, h)) {
        return finish(VerdictKind::kInvalid, Reason::kPathNotAdjacent, {prev, h, step});
      }
      prev = h;
    }
    for (const Hex& h : m.no_charge_at) {
      if (!map_.Contains(h)) return finish(VerdictKind::kInvalid, Reason::kHexOffMap, {h});
    }
    if (m.from && *m.from != start) {
      return finish(VerdictKind::kIllegal, Reason::kFromMismatch, {*m.from, start});
    }

    Progress& p = ProgressOf(*unit);
    p.mover.at = start;
    if (!p.can_move) return finish(VerdictKind::kIllegal, Reason::kBombardedCannotMove, {start});
    // Digest 4.3: a stuck unit cannot move any more this turn.
    if (us.stuck) return finish(VerdictKind::kIllegal, Reason::kStuckInMarsh, {start});
    // Digest 4.6: entering an enemy ZoC ended its movement for the turn.
    if (p.ended) return finish(VerdictKind::kIllegal, Reason::kMoveEndedInZoc, {start});

    std::vector<Hex> path = m.path;
    if (m.destination) {
      if (*m.destination == start) {
        EmitMoveEnd(*unit, Reason::kNone);
        return v;
      }
      // The cheapest legal path (reach.h tie-break); never a charge.
      // One cache for the phase: the map's step costs are filled once.
      if (!reach_cache_) reach_cache_ = std::make_unique<ReachCache>(ruleset_, map_);
      const ReachSet reach = FindReach(scenario_, state_, board_, *unit, p.mover, *reach_cache_);
      for (const ReachSet::Entry& e : reach.hexes()) trace_.considered.push_back(e.hex);
      const ReachSet::Entry* to = reach.Find(*m.destination);
      if (to == nullptr) {
        return finish(VerdictKind::kIllegal, Reason::kDestinationUnreachable,
                      {*m.destination, std::int64_t{p.mover.points_left}});
      }
      path = reach.PathTo(*to);
    } else {
      trace_.considered = path;
    }
    trace_.path = path;
    const bool may_charge = !m.destination && !m.no_charge;
    return Walk(v, *unit, path, may_charge, m.no_charge_at);
  }

  // Carries out the steps of `path`, stopping at the first illegal one or
  // when a rule ends the move.
  OrderVerdict Walk(OrderVerdict v, UnitId unit, const std::vector<Hex>& path, bool may_charge,
                    const std::vector<Hex>& no_charge_at) {
    Progress& p = progress_.at(unit.value);
    int taken = 0;
    bool refused = false;  // a step was not allowed
    bool ended = false;    // a rule ended the move (ZoC, stuck, eliminated)
    Reason reason = Reason::kNone;
    std::vector<Arg> args;
    std::optional<Direction> last_dir;
    bool last_chargeable = false;
    // The hex a charge advance already entered (a flag and a Hex, not an
    // optional: GCC's -O2 maybe-uninitialized warning misfires on it).
    bool has_skip = false;
    Hex skip;
    std::size_t consumed = 0;  // path entries dealt with
    for (std::size_t k = 0; k < path.size() && !ended; ++k) {
      const Hex from = *state_.unit(unit).hex;
      const Hex to = path[k];
      if (has_skip && to == skip && to == from) {
        // The path names the charged unit's hex, which the charge advance
        // has already entered.
        has_skip = false;
        consumed = k + 1;
        continue;
      }
      has_skip = false;
      const StepRules rules(ruleset_, scenario_, state_, board_, unit);
      const StepCheck check = rules.Check(p.mover, to, rules.EnemyControl(from));
      if (!check.legal) {
        refused = true;
        reason = check.reason;
        args = check.args;
        break;
      }
      // R4: batteries are judged just before the step.
      const std::vector<UnitId> batteries = ReactionCandidates(unit, to);
      ApplyStep(unit, from, to, check.cost, check.next, std::string(StepBasisName(check.basis)));
      ++taken;
      consumed = k + 1;

      // Digest 4.7: two straight steps into clear hexes with a chargeable
      // enemy next in line charge it.
      const Direction dir = *DirectionTo(from, to);
      bool chargeable = may_charge && ChargeStepAllowed(unit, from, to, no_charge_at);
      std::optional<Hex> vacated;
      if (chargeable && last_chargeable && last_dir == dir) {
        if (const auto target = ChargeTarget(unit, to, dir)) {
          vacated = ResolveCharge(unit, *target, to);
          // Digest 5.11 GAP: with elimination_bonus_scope kAll a charge that
          // eliminates its target (artillery, no retreat, or the retreat's
          // morale loss) gives the charger its 1 MV back.
          if (state_.unit(*target).eliminated) {
            GrantEliminationBonus(ruleset_, scenario_, state_, unit, Phase::kMovement, events_);
          }
          chargeable = false;  // a new charge needs two new steps
        }
      }
      last_dir = dir;
      last_chargeable = chargeable;

      FireReactions(batteries, unit);
      if (!state_.unit(unit).on_map()) {
        ended = true;
        reason = Reason::kEliminatedDuringMove;
        args = {to};
        continue;
      }
      AfterEntering(unit, to);
      if (check.stuck_chance_in_4 > 0 && MarshTest(unit, to, check.stuck_chance_in_4)) {
        ended = true;
        reason = Reason::kStuckInMarsh;
        args = {to};
      }

      if (vacated && !ended) {
        // Digest 4.7: the charger takes the target's place (no MP cost by
        // default, charge_advance_cost); this counts as movement.
        last_chargeable = false;
        const std::vector<UnitId> advance_batteries = ReactionCandidates(unit, *vacated);
        const int cost = std::min(ruleset_.params.charge_advance_cost, p.mover.points_left);
        ApplyStep(unit, to, *vacated, cost < 0 ? 0 : cost, RouteState{}, "charge_advance");
        has_skip = true;
        skip = *vacated;
        FireReactions(advance_batteries, unit);
        if (!state_.unit(unit).on_map()) {
          ended = true;
          reason = Reason::kEliminatedDuringMove;
          args = {*vacated};
          continue;
        }
        AfterEntering(unit, *vacated);
        const int chance = StuckChance(unit, *vacated);
        if (chance > 0 && MarshTest(unit, *vacated, chance)) {
          ended = true;
          reason = Reason::kStuckInMarsh;
          args = {*vacated};
        }
      }

      // Digest 4.6: entering an enemy ZoC ends the move at once.
      if (!ended) {
        const Hex here = *state_.unit(unit).hex;
        const StepRules now(ruleset_, scenario_, state_, board_, unit);
        if (now.EnemyControl(here).any()) {
          ended = true;
          p.ended = true;
          reason = Reason::kEnteredEnemyZoc;
          args = {here};
        }
      }
    }

    if (refused) {
      v.verdict = taken > 0 ? VerdictKind::kPartial : VerdictKind::kIllegal;
      v.reason = reason;
      v.args = args;
    } else if (ended) {
      // Steps left over (the charged hex already entered does not count).
      std::size_t left = path.size() - consumed;
      if (left > 0 && has_skip && path[consumed] == skip) --left;
      if (left > 0) {
        v.verdict = VerdictKind::kPartial;
        v.reason = reason;
        v.args = args;
      }
    }
    if (state_.unit(unit).on_map() || taken > 0) {
      EmitMoveEnd(unit, refused || ended ? reason : Reason::kNone);
    }
    return v;
  }

  void EmitMoveEnd(UnitId unit, Reason reason) {
    const UnitState& us = state_.unit(unit);
    const Progress& p = progress_.at(unit.value);
    std::vector<Hex> hexes;
    if (us.on_map()) hexes.push_back(*us.hex);
    Emit(unit, std::move(hexes),
         payload::MoveEnd{p.mover.points_left, std::string(ReasonCode(reason))});
  }

  void ApplyStep(UnitId unit, Hex from, Hex to, int cost, RouteState next, std::string basis) {
    Progress& p = progress_.at(unit.value);
    UnitState& us = state_.unit(unit);
    board_.MoveUnit(unit, from, to);
    us.hex = to;
    us.moved_this_turn = true;
    p.mover.at = to;
    p.mover.points_left -= cost;
    if (p.mover.points_left < 0) p.mover.points_left = 0;
    p.mover.route = next;
    p.mover.has_moved = true;
    Emit(unit, {from, to}, payload::MoveStep{cost, p.mover.points_left, std::move(basis)});
  }

  // ---- Marsh (digest 4.3, R1) --------------------------------------------

  int StuckChance(UnitId unit, Hex hex) const {
    const MovementClassId cls = StuckClass(ruleset_, scenario_.unit(unit));
    const TerrainType& t = TerrainAt(hex);
    if (!cls.valid() || cls.index() >= t.stuck_chance_in_4.size()) return 0;
    return t.stuck_chance_in_4[cls.index()];
  }

  // Draws 1-4; stuck when the draw <= chance. Returns true when stuck.
  bool MarshTest(UnitId unit, Hex hex, int chance) {
    const int roll = Roll(Die::kD4, unit, {hex}, "marsh_stuck_test", payload::Die{chance});
    if (roll > chance) return false;
    state_.unit(unit).stuck = true;
    Emit(unit, {hex}, payload::Stuck{roll, chance}, DieRoll{Die::kD4, roll, "marsh_stuck_test"});
    return true;
  }

  // ---- Objectives and forts (digest 4.6 GAP, 8.4, R9) ----------------------

  void AfterEntering(UnitId unit, Hex hex) {
    ClaimEnteredHex(ruleset_, scenario_, state_, unit, hex, Phase::kMovement, events_);
  }

  // ---- Losses (digest 5.12, W08-QA 7) --------------------------------------

  // Takes `points` of morale from `unit`: from MV while it lasts, the rest
  // from CS; leaders (no MV) take them on CS. CS 0 eliminates.
  void TakeMoraleLoss(UnitId unit, int points, const std::string& cause) {
    if (points <= 0) return;
    UnitState& us = state_.unit(unit);
    const MoraleLossSplit split = SplitMoraleLoss(scenario_.unit(unit), us, points);
    us.mv -= split.mv_lost;
    us.cs -= split.cs_lost;
    const Hex at = *us.hex;
    Emit(unit, {at}, payload::Loss{split.mv_lost, split.cs_lost, cause});
    if (us.cs <= 0) Eliminate(unit, cause);
  }

  void Eliminate(UnitId unit, const std::string& cause) {
    EliminateUnit(state_, board_, unit, Phase::kMovement, cause, events_);
  }

  // ---- Charges (digest 4.7, rulings R5, R6, R8) ----------------------------

  // Whether the step from -> to can be one of the two steps of a charge.
  bool ChargeStepAllowed(UnitId unit, Hex from, Hex to,
                         const std::vector<Hex>& no_charge_at) const {
    const UnitSpec& spec = scenario_.unit(unit);
    // Only mounted units charge; demoralised units cannot (digest 4.7).
    if (!IsMounted(ruleset_, spec) || IsDemoralised(spec, state_.unit(unit))) return false;
    // Every hex crossed must be clear terrain; roads and tracks change nothing.
    if (!TerrainAt(to).charge_path) return false;
    if (std::find(no_charge_at.begin(), no_charge_at.end(), to) != no_charge_at.end()) {
      return false;
    }
    // R8: across a bridge (or ford) only if it spans a stream, never a river.
    const Water water = map_.side(*SideBetween(from, to)).water;
    return water == Water::kNone || water == Water::kStream;
  }

  // The enemy unit next in line that may be charged from `at` in `dir`.
  std::optional<UnitId> ChargeTarget(UnitId unit, Hex at, Direction dir) const {
    const Hex t = Neighbor(at, dir);
    if (!map_.Contains(t)) return std::nullopt;
    const auto target = board_.UnitAt(t);
    if (!target || scenario_.unit(*target).side == scenario_.unit(unit).side) return std::nullopt;
    // Digest 4.7: units in woods, dunes, palm groves and towns cannot be
    // charged (forts can, #26).
    if (TerrainAt(t).charge_proof) return std::nullopt;
    const Hexside side = *SideBetween(at, t);
    const Water water = map_.side(side).water;
    // R8: not through a river, bridged or not; never up a steep slope.
    if (water == Water::kRiver || water == Water::kMajorRiver) return std::nullopt;
    if (map_.SlopeCount(side) >= 2) return std::nullopt;
    return target;
  }

  // The morale test of the charged unit and its outcome. Returns the hex the
  // charger is to advance into when the charge succeeds.
  std::optional<Hex> ResolveCharge(UnitId charger, UnitId target, Hex at) {
    const UnitSpec& cs = scenario_.unit(charger);
    const UnitSpec& ts = scenario_.unit(target);
    UnitState& c = state_.unit(charger);
    UnitState& t = state_.unit(target);
    const Hex target_hex = *t.hex;
    Emit(charger, {at, target_hex}, payload::Charge{ts.id});
    const int roll = Roll(Die::kD9, charger, {at, target_hex}, "charge_morale_test");
    // Digest 4.7: the CS difference is added to the draw; leaders test on
    // CS + command radius.
    const int modified = roll + (c.cs - t.cs);
    int test_mv = ts.is_leader() ? t.cs + ts.command_radius : t.mv;
    // V2008 modifiers to the target's MV: uphill +1, downhill -1 (the levels
    // of the charger's last hex and the target's hex), through a stream +1
    // (R8: whenever a stream separates them, bridged or not).
    const int rise = map_.level(target_hex) - map_.level(at);
    if (rise > 0) ++test_mv;
    if (rise < 0) --test_mv;
    if (map_.side(*SideBetween(at, target_hex)).water == Water::kStream) ++test_mv;
    const bool fails = modified > test_mv;
    Emit(target, {target_hex},
         payload::MoraleTest{roll, modified, test_mv, fails ? "failed" : "passed", "charge"});
    if (!fails) return std::nullopt;  // no effect (digest 4.7 "Failure")

    // The x1.5 bonus of the following combat is owed against this target.
    c.charged_targets.push_back(target);
    if (ts.arm == Arm::kArtillery) {
      // Artillery never retreats from a charge: it is eliminated.
      Eliminate(target, "charge");
      return target_hex;
    }
    const auto retreat = ChooseRetreatHex(ruleset_, scenario_, state_, board_, target, charger);
    if (!retreat) {
      // Other units, an enemy fort, the map edge or impassable sides all
      // round: eliminated (digest 4.7, #12).
      Eliminate(target, "no_retreat");
      return target_hex;
    }
    board_.MoveUnit(target, target_hex, *retreat);
    t.hex = *retreat;
    Emit(target, {target_hex, *retreat}, payload::Retreat{"charge"});
    if (ruleset_.params.passing_includes_forced_moves) AfterEntering(target, *retreat);
    if (!ts.is_leader()) {
      // 1 MV, plus 1 per ZoC of enemy units other than the charger on the
      // retreat hex (leaders ignore the morale effects).
      const Control control =
          ControlOf(ruleset_, scenario_, state_, board_, *retreat, cs.side, charger);
      TakeMoraleLoss(target, 1 + control.count(), "charge");
    }
    return target_hex;
  }

  // ---- Reaction fire (digest 3.5, R4, R8) ----------------------------------

  // Contact for reaction fire: adjacent, not across a slope of two levels or
  // more, nor across a river or major river without a bridge or ford (R8).
  bool InContact(Hex a, Hex b) const {
    const auto side = SideBetween(a, b);
    if (!side || !map_.Contains(a) || !map_.Contains(b)) return false;
    const HexsideInfo info = map_.side(*side);
    if ((info.water == Water::kRiver || info.water == Water::kMajorRiver) &&
        info.crossing == Crossing::kNone) {
      return false;
    }
    return map_.SlopeCount(*side) < 2;
  }

  // The batteries that may react to `unit` entering `to`, judged before the
  // step, in the order NE, E, SE, SW, W, NW around `to` (W08-QA).
  std::vector<UnitId> ReactionCandidates(UnitId unit, Hex to) const {
    std::vector<UnitId> out;
    if (ruleset_.params.reaction_fire_per_enemy_turn <= 0) return out;
    const Side side = scenario_.unit(unit).side;
    for (const Direction dir : kAllDirections) {
      const Hex n = Neighbor(to, dir);
      const auto b = board_.UnitAt(n);
      if (!b || *b == unit) continue;
      const UnitSpec& spec = scenario_.unit(*b);
      if (spec.side == side || spec.arm != Arm::kArtillery) continue;
      if (state_.unit(*b).reaction_fires >= ruleset_.params.reaction_fire_per_enemy_turn) continue;
      if (!InContact(n, to)) continue;
      // Artillery in woods or a town may not fire (digest 3.1, #2), in
      // reaction either.
      if (TerrainAt(n).no_artillery_fire) continue;
      // Only a battery in no enemy ZoC may react (digest 3.5).
      if (ControlOf(ruleset_, scenario_, state_, board_, n, side).any()) continue;
      out.push_back(*b);
    }
    return out;
  }

  void FireReactions(const std::vector<UnitId>& batteries, UnitId target) {
    for (const UnitId b : batteries) {
      if (!state_.unit(target).on_map()) return;
      UnitState& bs = state_.unit(b);
      if (!bs.on_map() || bs.reaction_fires >= ruleset_.params.reaction_fire_per_enemy_turn) {
        continue;
      }
      ++bs.reaction_fires;
      BombardDefault(b, target);
    }
  }

  // The default bombardment model (digest 3.4, GAP default_v1), shared with
  // the bombardment phase (bombardment.h).
  void BombardDefault(UnitId firer, UnitId target) {
    const UnitSpec& fs = scenario_.unit(firer);
    const Hex from = *state_.unit(firer).hex;
    const Hex at = *state_.unit(target).hex;
    const int roll = Roll(BombardDie(ruleset_.params.bombard), firer, {from, at}, "reaction_fire");
    const BombardShot shot =
        JudgeBombardShot(ruleset_, fs, TerrainAt(at), Distance(from, at), roll);
    Emit(firer, {from, at},
         payload::ReactionFire{Id(target), shot.roll, shot.modified, shot.bv,
                               shot.hit ? "hit" : "miss"});
    TakeMoraleLoss(target, shot.loss, "reaction_fire");
    // Digest 5.11 GAP, elimination_bonus_scope kAll: as a bombardment shot.
    if (state_.unit(target).eliminated) {
      GrantEliminationBonus(ruleset_, scenario_, state_, firer, Phase::kMovement, events_);
    }
  }

  const Ruleset& ruleset_;
  const Scenario& scenario_;
  const Map& map_;
  GameState& state_;
  Side mover_;
  DiceSource& dice_;
  std::vector<Event>& events_;
  Board board_;
  std::unique_ptr<ReachCache> reach_cache_;  // built at the first destination order
  std::map<std::int32_t, Progress> progress_;
  MoveOrderTrace trace_;  // of the order being resolved
};

}  // namespace

MovementPhaseResult ResolveMovementPhase(const Ruleset& ruleset, const Scenario& scenario,
                                         GameState& state, Side mover, const Orders& orders,
                                         DiceSource& dice, std::vector<Event>& events) {
  return ResolveMovementPhase(ruleset, scenario, state, mover, orders, dice, events,
                              MoveOrderObserver());
}

MovementPhaseResult ResolveMovementPhase(const Ruleset& ruleset, const Scenario& scenario,
                                         GameState& state, Side mover, const Orders& orders,
                                         DiceSource& dice, std::vector<Event>& events,
                                         const MoveOrderObserver& observer) {
  return MovementPhase(ruleset, scenario, state, mover, dice, events).Run(orders, observer);
}

}  // namespace pbem::engine
