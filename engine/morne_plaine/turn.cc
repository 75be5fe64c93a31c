#include "engine/morne_plaine/turn.h"

#include <string>
#include <utility>

#include "engine/morne_plaine/bombardment.h"
#include "engine/morne_plaine/combat_phase.h"
#include "engine/morne_plaine/movement.h"
#include "engine/morne_plaine/movement_phase.h"
#include "engine/morne_plaine/rally.h"
#include "engine/morne_plaine/validate_orders.h"
#include "engine/morne_plaine/victory.h"

namespace pbem::engine {

namespace {

// The verdicts ValidateOrders gave one kind of order, by index.
std::vector<OrderVerdict> OfKind(const std::vector<OrderVerdict>& all, OrderKind kind) {
  std::vector<OrderVerdict> out;
  for (const OrderVerdict& v : all) {
    if (v.order_kind == kind) out.push_back(v);
  }
  return out;
}

// Orders of a phase the engine does not resolve (yet, or in this turn):
// what ValidateOrders refused stays refused; the rest gets `reason`.
void Refuse(const std::vector<OrderVerdict>& checked, Reason reason, std::vector<Arg> args,
            std::vector<OrderVerdict>& out) {
  for (OrderVerdict v : checked) {
    if (IsAcceptable(v.verdict)) {
      v.verdict = VerdictKind::kIllegal;
      v.reason = reason;
      v.args = args;
    }
    out.push_back(std::move(v));
  }
}

}  // namespace

void ResetForPlayerTurn(const Scenario& scenario, GameState& state, Side side) {
  for (std::size_t i = 0; i < state.units.size() && i < scenario.units.size(); ++i) {
    UnitState& u = state.units[i];
    if (scenario.units[i].side == side) {
      u.stuck = false;
      u.moved_this_turn = false;
      u.charged_targets.clear();
      u.victorious = false;
      u.has_attacked = false;
    } else {
      // Digest 3.5, R4: a battery's reaction fires count per enemy
      // player-turn.
      u.reaction_fires = 0;
      u.has_been_attacked = false;
    }
  }
}

void RunCommandCheck(const Ruleset& ruleset, const Scenario& scenario, GameState& state, Side side,
                     std::vector<Event>& events) {
  const Phase phase = state.turn == 1 ? Phase::kSetup : Phase::kBombardment;
  for (std::size_t i = 0; i < state.units.size() && i < scenario.units.size(); ++i) {
    if (scenario.units[i].side != side || !state.units[i].on_map()) continue;
    const UnitId id{static_cast<std::int32_t>(i)};
    const CommandStatus status = CheckCommand(ruleset, scenario, state, id);
    state.units[i].in_command = status.in_command;
    std::vector<Hex> hexes{*state.units[i].hex};
    if (status.leader && state.unit(*status.leader).on_map() && *status.leader != id) {
      hexes.push_back(*state.unit(*status.leader).hex);
    }
    events.push_back(
        Event{phase, id, std::move(hexes),
              payload::CommandCheck{status.in_command ? "in_command" : "out_of_command",
                                    std::string(CommandBasisName(status.basis)), status.distance},
              std::nullopt});
  }
}

TurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                             const GameState& state, const Orders& orders, DiceSource& dice) {
  return ResolvePlayerTurn(ruleset, scenario, state, orders, dice, PhaseObserver());
}

TurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                             const GameState& state, const Orders& orders, DiceSource& dice,
                             const PhaseObserver& observer) {
  const auto after = [&observer](Phase phase, const GameState& at) {
    if (observer) observer(phase, at);
  };
  TurnResult result;
  const std::vector<OrderVerdict> checked = ValidateOrders(ruleset, scenario, state, orders);
  const std::vector<OrderVerdict> header = OfKind(checked, OrderKind::kHeader);
  if (!header.empty()) {
    // Orders for another game, turn or side are not resolved at all.
    result.verdicts = header;
    result.next_state = state;
    return result;
  }

  GameState next = state;
  const Side mover = state.side_to_move;
  ResetForPlayerTurn(scenario, next, mover);

  // 1. Units set up (digest 2): ValidateOrders has judged the placements in
  // sequence against this state; the accepted ones are carried out.
  for (const OrderVerdict& v : OfKind(checked, OrderKind::kPlacement)) {
    if (v.verdict == VerdictKind::kOk) {
      const PlacementOrder& p = orders.placements[static_cast<std::size_t>(v.index)];
      const UnitId id = *scenario.FindUnit(p.unit);
      next.unit(id).hex = p.hex;
      result.events.push_back(Event{Phase::kSetup, id, {p.hex}, payload::Place{}, std::nullopt});
    }
    result.verdicts.push_back(v);
  }

  // Digest 1.6: command is checked at the start of each of the owner's
  // player-turns, in turn 1 right after placement.
  RunCommandCheck(ruleset, scenario, next, mover, result.events);
  after(Phase::kSetup, next);

  const std::vector<OrderVerdict> bombardments = OfKind(checked, OrderKind::kBombardment);
  const std::vector<OrderVerdict> attacks = OfKind(checked, OrderKind::kAttack);
  if (scenario.setup_only_first_turn && state.turn == 1) {
    // Digest 1.3 (FR-SET): turn 1 is reserved for set-up.
    const std::vector<Arg> args{std::int64_t{state.turn}};
    Refuse(bombardments, Reason::kSetupOnlyTurn, args, result.verdicts);
    for (std::size_t i = 0; i < orders.moves.size(); ++i) {
      result.verdicts.push_back(OrderVerdict{OrderKind::kMove, static_cast<int>(i),
                                             orders.moves[i].unit, VerdictKind::kIllegal,
                                             Reason::kSetupOnlyTurn, args});
    }
    Refuse(attacks, Reason::kSetupOnlyTurn, args, result.verdicts);
  } else {
    // 2. Bombardment phase (digest 3).
    BombardmentPhaseResult fired = ResolveBombardmentPhase(ruleset, scenario, next, mover, orders,
                                                           bombardments, dice, result.events);
    for (OrderVerdict& v : fired.verdicts) result.verdicts.push_back(std::move(v));
    after(Phase::kBombardment, next);

    // 3. Movement phase (digest 4), with charges and reaction fire.
    MovementPhaseResult moved =
        ResolveMovementPhase(ruleset, scenario, next, mover, orders, dice, result.events);
    for (OrderVerdict& v : moved.verdicts) result.verdicts.push_back(std::move(v));
    after(Phase::kMovement, next);

    // 4. Combat phase (digest 5).
    CombatPhaseResult fought =
        ResolveCombatPhase(ruleset, scenario, next, mover, orders, attacks, dice, result.events);
    for (OrderVerdict& v : fought.verdicts) result.verdicts.push_back(std::move(v));
    after(Phase::kCombat, next);
    // 5. Rally phase (digest 6), on the positions at the end of combat.
    ResolveRallyPhase(ruleset, scenario, next, mover, result.events);
    after(Phase::kRally, next);
  }

  // 6. End of turn (digest 7): the firing of this turn's bombardment phase
  // stops mattering once its movement phase is over.
  for (std::size_t i = 0; i < next.units.size() && i < scenario.units.size(); ++i) {
    if (scenario.units[i].side == mover) next.units[i].bombarded_this_turn = false;
  }
  result.message = orders.message;
  // Digest 8: the game ends with the last player-turn of its last game turn.
  const bool last = IsLastPlayerTurn(scenario, state);
  if (mover == scenario.first_side) {
    next.side_to_move = Opponent(mover);
  } else {
    next.side_to_move = scenario.first_side;
    ++next.turn;
  }
  result.events.push_back(
      Event{Phase::kEndOfTurn,
            std::nullopt,
            {},
            payload::TurnEnd{next.turn, std::string(SideName(next.side_to_move))},
            std::nullopt});
  if (last) {
    next.outcome = ScoreGame(ruleset, scenario, next, result.events);
    next.finished = true;
  }
  after(Phase::kEndOfTurn, next);
  result.next_state = std::move(next);
  return result;
}

}  // namespace pbem::engine
