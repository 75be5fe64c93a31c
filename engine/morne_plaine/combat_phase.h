// The combat phase (digest 5): attack orders resolved one by one in the
// order listed, with the arithmetic of combat.h, the losses and morale tests
// of the CRT, retreats through the shared retreat code of movement.h,
// advance after combat, victorious flags and the elimination bonus.
#ifndef PBEM_ENGINE_MORNE_PLAINE_COMBAT_PHASE_H_
#define PBEM_ENGINE_MORNE_PLAINE_COMBAT_PHASE_H_

#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

struct CombatPhaseResult {
  std::vector<OrderVerdict> verdicts;  // one per attack order, in order
};

// Resolves the attacks of `mover`. `checked` holds ValidateOrders' verdicts
// for the attack orders (kind kAttack, by index); what it refused stays
// refused. Each accepted attack is checked against the board of the moment,
// in this order: both units still on the map (unit_eliminated {unit}), the
// attacker has not attacked (already_attacked) nor the defender been
// attacked (already_defended) this phase, contact (not_in_contact {defender
// hex}: adjacent, not across a river without a bridge or ford nor a slope of
// two levels or more), the attacker not demoralised
// (demoralised_cannot_attack {attacker hex}), leaders_may_attack /
// artillery_may_attack (may_not_attack {arm}).
//
// Then, per attack (events in this order):
//  1. kSupport per supporting unit (CombatSupports, each with its corrected
//     CS; with support_reuse kOnce a unit supports once per phase),
//     offensive first; kDie d6 "combat"; kCombat {defender id,
//     attacker's corrected CS, defender's corrected CS, total attack, total
//     defence, column label, roll, final result, CRT cell "A/D" text}.
//  2. Losses (CS points, digest 5.6): kLoss {0, cs lost, "combat"}, the
//     attacker's first; CS 0: kEliminated {"combat"}.
//  3. Morale tests of the surviving units marked '*', defender first
//     (digest 5.7): kDie d9 "combat_morale_test", kMoraleTest {roll, roll,
//     MV, "passed" | "failed", "combat"}; a draw above the MV fails. Leaders
//     are exempt.
//  4. Retreats of the units that failed, defender first: ChooseRetreatHex
//     against the opposing combatant (R6); kRetreat {from, to} {"combat"},
//     then 1 MV per enemy ZoC on the new hex other than that combatant's
//     (kLoss {.., .., "retreat_zoc"}, digest 5.8); no hex: kEliminated
//     {"no_retreat"}. Artillery retreats only when
//     artillery_retreats_after_combat, else it is eliminated.
//  5. The victorious unit (R9: the combatant that neither retreated nor was
//     eliminated, when its opponent did one or the other) is flagged
//     victorious; it regains 1 MV (up to its initial MV) when its opponent
//     was eliminated (kMoraleGained {1, "elimination"}); it advances into the
//     vacated hex (kAdvance {from, to}) unless it is artillery, a mounted
//     unit in a fort (mounted_never_leave_fort), the new hex ranks lower
//     (terrain advance ranks, a hill hex ranks at least hill_rank), or it
//     would leave an objective hex for a non-objective one; after an
//     elimination only when advance_after_elimination.
// The elimination bonus above is the combat phase's own. With
// elimination_bonus_scope kAll a unit that eliminates outside the combat
// phase also regains 1 MV (GrantEliminationBonus, bombardment.h): a battery
// whose shot eliminates, and in the movement phase a charger whose target
// is eliminated and a battery whose reaction fire eliminates.
// Forced moves (retreat, advance) take forts and passing objectives as
// movement does when passing_includes_forced_moves (leaders never take
// objectives, R9).
CombatPhaseResult ResolveCombatPhase(const Ruleset& ruleset, const Scenario& scenario,
                                     GameState& state, Side mover, const Orders& orders,
                                     const std::vector<OrderVerdict>& checked, DiceSource& dice,
                                     std::vector<Event>& events);

// The advance rank of `hex` for `unit` (digest 5.10): the terrain's
// advance_rank_mounted or advance_rank_foot, raised to hill_rank on a hill
// (a hex higher than at least one neighbour on the map, GAP DEFAULT).
int AdvanceRank(const Ruleset& ruleset, const Scenario& scenario, UnitId unit, Hex hex);

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_COMBAT_PHASE_H_
