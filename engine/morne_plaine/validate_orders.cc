#include "engine/morne_plaine/validate_orders.h"

#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "engine/morne_plaine/bombardment.h"
#include "engine/morne_plaine/check_dry_run.h"
#include "engine/morne_plaine/combat.h"
#include "engine/morne_plaine/movement.h"

namespace pbem::engine {

namespace {

OrderVerdict Make(OrderKind kind, int index, std::string unit, VerdictKind verdict, Reason reason,
                  std::vector<Arg> args = {}) {
  return OrderVerdict{kind, index, std::move(unit), verdict, reason, std::move(args)};
}

// Shared checks for an order naming one of the player's units. Returns a
// verdict when the unit cannot be used, nullopt when it can.
std::optional<OrderVerdict> CheckOwnUnit(const Scenario& scenario, const GameState& state,
                                         Side side, OrderKind kind, int index,
                                         const std::string& id, std::optional<UnitId> unit,
                                         bool must_be_on_map) {
  if (!unit) {
    return Make(kind, index, id, VerdictKind::kInvalid, Reason::kUnknownUnit, {id});
  }
  if (scenario.unit(*unit).side != side) {
    return Make(kind, index, id, VerdictKind::kIllegal, Reason::kNotYourUnit, {id});
  }
  const UnitState& us = state.unit(*unit);
  if (us.eliminated) {
    return Make(kind, index, id, VerdictKind::kIllegal, Reason::kUnitEliminated, {id});
  }
  if (must_be_on_map && !us.hex) {
    return Make(kind, index, id, VerdictKind::kIllegal, Reason::kUnitNotOnMap, {id});
  }
  return std::nullopt;
}

class Checker {
 public:
  Checker(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
          const Orders& orders)
      : ruleset_(ruleset), scenario_(scenario), state_(state), orders_(orders) {
    // One lookup table per call: Scenario::FindUnit is a linear search, and a
    // turn of 800 units a side names hundreds of units (turn_bench).
    ids_.reserve(scenario.units.size());
    for (std::size_t i = 0; i < scenario.units.size(); ++i) {
      ids_.emplace(scenario.units[i].id, UnitId{static_cast<std::int32_t>(i)});
    }
  }

  std::vector<OrderVerdict> Run() {
    side_ = orders_.side.value_or(state_.side_to_move);
    Header();
    Placements();
    // The rest is judged on a dry run of the resolver's own phases, from
    // the state as the turn starts (placements and command check included).
    CheckDryRun dry_run(ruleset_, scenario_, state_, orders_, side_, out_);
    setup_only_ = scenario_.setup_only_first_turn && state_.turn == 1;
    Bombardments(dry_run);
    Moves(dry_run);
    Attacks(dry_run);
    return std::move(out_);
  }

 private:
  void Header() {
    const auto header = [&](VerdictKind v, Reason r, std::vector<Arg> args) {
      out_.push_back(Make(OrderKind::kHeader, 0, "", v, r, std::move(args)));
    };
    if (state_.finished) header(VerdictKind::kIllegal, Reason::kGameFinished, {state_.game_id});
    if (!orders_.other_system.empty()) {
      header(VerdictKind::kInvalid, Reason::kWrongSystem, {orders_.other_system});
    }
    if (!orders_.game_id.empty() && !state_.game_id.empty() && orders_.game_id != state_.game_id) {
      header(VerdictKind::kInvalid, Reason::kWrongGame, {orders_.game_id, state_.game_id});
    }
    if (orders_.turn <= 0) {
      header(VerdictKind::kInvalid, Reason::kMissingField, {std::string("turn")});
    } else if (orders_.turn != state_.turn) {
      header(VerdictKind::kIllegal, Reason::kWrongTurn,
             {std::int64_t{orders_.turn}, std::int64_t{state_.turn}});
    }
    if (!orders_.side) {
      header(VerdictKind::kInvalid, Reason::kMissingField, {std::string("side")});
    } else if (*orders_.side != state_.side_to_move) {
      header(VerdictKind::kIllegal, Reason::kWrongSide,
             {std::string(SideName(*orders_.side)), std::string(SideName(state_.side_to_move))});
    }
  }

  // Digest 1.3 (FR-SET): in a set-up-only first turn every order but the
  // placements is refused (as ResolvePlayerTurn does).
  OrderVerdict SetupOnly(OrderKind kind, int idx, const std::string& unit) const {
    return Make(kind, idx, unit, VerdictKind::kIllegal, Reason::kSetupOnlyTurn,
                {std::int64_t{state_.turn}});
  }

  void Placements() {
    std::set<std::string> placed;
    std::map<Hex, std::string> taken;
    for (std::size_t i = 0; i < orders_.placements.size(); ++i) {
      const PlacementOrder& p = orders_.placements[i];
      const int idx = static_cast<int>(i);
      const auto kind = OrderKind::kPlacement;
      if (p.problem) {
        out_.push_back(
            Make(kind, idx, p.unit, VerdictKind::kInvalid, p.problem->reason, p.problem->args));
        continue;
      }
      if (auto v = CheckOwnUnit(scenario_, state_, side_, kind, idx, p.unit, Find(p.unit), false)) {
        out_.push_back(std::move(*v));
        continue;
      }
      const UnitId unit = *Find(p.unit);
      if (!scenario_.map.Contains(p.hex)) {
        out_.push_back(Make(kind, idx, p.unit, VerdictKind::kInvalid, Reason::kHexOffMap, {p.hex}));
        continue;
      }
      if (state_.turn != 1) {
        out_.push_back(Make(kind, idx, p.unit, VerdictKind::kIllegal, Reason::kSetupNotAllowed,
                            {std::int64_t{state_.turn}}));
        continue;
      }
      if (scenario_.unit(unit).fixed) {
        out_.push_back(
            Make(kind, idx, p.unit, VerdictKind::kIllegal, Reason::kUnitFixed, {p.unit}));
        continue;
      }
      if (placed.count(p.unit) > 0) {
        out_.push_back(
            Make(kind, idx, p.unit, VerdictKind::kIllegal, Reason::kDuplicateOrder, {p.unit}));
        continue;
      }
      const auto& zone = scenario_.deployment[static_cast<int>(side_)];
      if (zone.find(p.hex) == zone.end()) {
        out_.push_back(
            Make(kind, idx, p.unit, VerdictKind::kIllegal, Reason::kPlacementOutsideZone, {p.hex}));
        continue;
      }
      // Stacking: no other unit may stand there, whether it was there before
      // or placed by an earlier order.
      const auto other = state_.UnitAt(p.hex);
      const bool other_moves_away = other && placed.count(scenario_.unit(*other).id) > 0;
      if ((other && *other != unit && !other_moves_away) || taken.count(p.hex) > 0) {
        const std::string who = taken.count(p.hex) ? taken[p.hex] : scenario_.unit(*other).id;
        out_.push_back(Make(kind, idx, p.unit, VerdictKind::kIllegal, Reason::kPlacementOccupied,
                            {p.hex, who}));
        continue;
      }
      placed.insert(p.unit);
      taken[p.hex] = p.unit;
      out_.push_back(Make(kind, idx, p.unit, VerdictKind::kOk, Reason::kNone));
    }
  }

  void Bombardments(CheckDryRun& dry_run) {
    // Batteries that fire (a refused order fires nothing: digest 3.1).
    std::set<std::string> fired;
    for (std::size_t i = 0; i < orders_.bombardments.size(); ++i) {
      const BombardmentOrder& b = orders_.bombardments[i];
      const int idx = static_cast<int>(i);
      const auto kind = OrderKind::kBombardment;
      if (b.problem) {
        out_.push_back(
            Make(kind, idx, b.unit, VerdictKind::kInvalid, b.problem->reason, b.problem->args));
        continue;
      }
      if (auto v = CheckOwnUnit(scenario_, state_, side_, kind, idx, b.unit, Find(b.unit), true)) {
        out_.push_back(std::move(*v));
        continue;
      }
      const UnitId unit = *Find(b.unit);
      if (scenario_.unit(unit).arm != Arm::kArtillery) {
        out_.push_back(
            Make(kind, idx, b.unit, VerdictKind::kIllegal, Reason::kNotArtillery, {b.unit}));
        continue;
      }
      if (!scenario_.map.Contains(b.target)) {
        out_.push_back(
            Make(kind, idx, b.unit, VerdictKind::kInvalid, Reason::kHexOffMap, {b.target}));
        continue;
      }
      if (fired.count(b.unit) > 0) {
        out_.push_back(
            Make(kind, idx, b.unit, VerdictKind::kIllegal, Reason::kDuplicateOrder, {b.unit}));
        continue;
      }
      const auto target = state_.UnitAt(b.target);
      if (!target) {
        out_.push_back(
            Make(kind, idx, b.unit, VerdictKind::kIllegal, Reason::kNoUnitAtTarget, {b.target}));
        continue;
      }
      if (scenario_.unit(*target).side == side_) {
        out_.push_back(Make(kind, idx, b.unit, VerdictKind::kIllegal, Reason::kTargetIsOwnUnit,
                            {b.target, scenario_.unit(*target).id}));
        continue;
      }
      if (setup_only_) {
        out_.push_back(SetupOnly(kind, idx, b.unit));
        continue;
      }
      // The bombardment phase itself, on the board of the moment: range,
      // line of sight, terrain, zones of control, a target still there.
      OrderVerdict v = Make(kind, idx, b.unit, VerdictKind::kOk, Reason::kNone);
      dry_run.Bombard(v);
      if (v.verdict == VerdictKind::kOk) fired.insert(b.unit);
      out_.push_back(std::move(v));
    }
  }

  // The movement phase's own verdicts from the dry run (movement_phase.h):
  // destinations judged in order after the earlier moves of the set, on the
  // path the resolution takes, charges announced.
  void Moves(CheckDryRun& dry_run) {
    if (setup_only_) {
      for (std::size_t i = 0; i < orders_.moves.size(); ++i) {
        out_.push_back(SetupOnly(OrderKind::kMove, static_cast<int>(i), orders_.moves[i].unit));
      }
      return;
    }
    for (OrderVerdict& v : dry_run.Move()) out_.push_back(std::move(v));
  }

  void Attacks(CheckDryRun& dry_run) {
    // Units that attack or are attacked: only attacks the check accepts
    // count (digest 5.1: only attacks fought do; a refused order consumes
    // nothing).
    std::set<std::string> attackers;
    std::set<std::string> defenders;
    for (std::size_t i = 0; i < orders_.attacks.size(); ++i) {
      const AttackOrder& a = orders_.attacks[i];
      const int idx = static_cast<int>(i);
      const auto kind = OrderKind::kAttack;
      if (a.problem) {
        out_.push_back(
            Make(kind, idx, a.attacker, VerdictKind::kInvalid, a.problem->reason, a.problem->args));
        continue;
      }
      if (auto v = CheckOwnUnit(scenario_, state_, side_, kind, idx, a.attacker, Find(a.attacker),
                                false)) {
        out_.push_back(std::move(*v));
        continue;
      }
      const auto defender = Find(a.defender);
      if (!defender) {
        out_.push_back(
            Make(kind, idx, a.attacker, VerdictKind::kInvalid, Reason::kUnknownUnit, {a.defender}));
        continue;
      }
      if (a.defender == a.attacker) {
        out_.push_back(
            Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kAttackSelf, {a.attacker}));
        continue;
      }
      if (scenario_.unit(*defender).side == side_) {
        out_.push_back(Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kAttackOwnUnit,
                            {a.defender}));
        continue;
      }
      if (state_.unit(*defender).eliminated) {
        out_.push_back(Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kUnitEliminated,
                            {a.defender}));
        continue;
      }
      // One attack per attacker and per defender each combat phase (digest 5.1).
      if (attackers.count(a.attacker) > 0) {
        out_.push_back(Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kDuplicateOrder,
                            {a.attacker}));
        continue;
      }
      if (defenders.count(a.defender) > 0) {
        out_.push_back(Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kDuplicateOrder,
                            {a.defender}));
        continue;
      }
      if (setup_only_) {
        out_.push_back(SetupOnly(kind, idx, a.attacker));
        continue;
      }
      const UnitId att = *Find(a.attacker);
      Uncertainty& uncertain = dry_run.uncertainty();
      const GameState& board = dry_run.state();
      // Where a die moved or weakened either unit (reaction fire, a
      // charge, a marsh, an earlier combat), the combat phase decides.
      const bool dice = uncertain.Unit(board, att) || uncertain.Unit(board, *defender);
      if (dice) {
        out_.push_back(Make(kind, idx, a.attacker, VerdictKind::kOk, Reason::kDependsOnDice, {}));
      } else if (auto v = AttackPreCheck(board, idx, a, att, *defender)) {
        out_.push_back(std::move(*v));
        continue;
      } else {
        out_.push_back(Make(kind, idx, a.attacker, VerdictKind::kOk, Reason::kNone));
      }
      attackers.insert(a.attacker);
      defenders.insert(a.defender);
      // The combat's dice touch both combatants (losses, retreat, advance).
      uncertain.AddUnit(att);
      uncertain.AddUnit(*defender);
    }
  }

  // What the combat phase will find on `board`, the dry run's board at
  // combat (digest 5.1, 5.12), with the reasons it gives: combat contact
  // between the two units; a demoralised attacker (no morale comes back
  // before the rally phase); leaders or artillery when the ruleset forbids
  // them to attack.
  std::optional<OrderVerdict> AttackPreCheck(const GameState& board, int idx, const AttackOrder& a,
                                             UnitId att, UnitId def) const {
    const auto kind = OrderKind::kAttack;
    const UnitSpec& as = scenario_.unit(att);
    const auto ah = board.unit(att).hex;
    const auto dh = board.unit(def).hex;
    if (!ah || !dh) {
      return Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kUnitEliminated,
                  {ah ? a.defender : a.attacker});
    }
    if (!InCombatContact(ruleset_, scenario_.map, *ah, *dh)) {
      return Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kNotInContact, {*dh});
    }
    if (IsDemoralised(as, board.unit(att))) {
      return Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kDemoralisedCannotAttack,
                  {*ah});
    }
    if ((as.is_leader() && !ruleset_.params.leaders_may_attack) ||
        (as.arm == Arm::kArtillery && !ruleset_.params.artillery_may_attack)) {
      return Make(kind, idx, a.attacker, VerdictKind::kIllegal, Reason::kMayNotAttack,
                  {std::string(ArmName(as.arm))});
    }
    return std::nullopt;
  }

  std::optional<UnitId> Find(std::string_view id) const {
    const auto it = ids_.find(id);
    if (it == ids_.end()) return std::nullopt;
    return it->second;
  }

  const Ruleset& ruleset_;
  const Scenario& scenario_;
  const GameState& state_;
  const Orders& orders_;
  Side side_ = Side::kBlue;
  bool setup_only_ = false;
  std::unordered_map<std::string_view, UnitId> ids_;
  std::vector<OrderVerdict> out_;
};

}  // namespace

std::vector<OrderVerdict> ValidateOrders(const Ruleset& ruleset, const Scenario& scenario,
                                         const GameState& state, const Orders& orders) {
  return Checker(ruleset, scenario, state, orders).Run();
}

bool AllAcceptable(const std::vector<OrderVerdict>& verdicts) {
  for (const OrderVerdict& v : verdicts) {
    if (!IsAcceptable(v.verdict)) return false;
  }
  return true;
}

}  // namespace pbem::engine
