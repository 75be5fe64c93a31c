// The validation of an Advance or an Evade (french-fantasy.md §5.3): the first failing check
// decides and a unit move is atomic. `state` is not changed; resolve.h executes a legal move.
//
// How the steps are walked (W-R11): step 1 tries its codes in this order, each over the whole
// entry: UNKNOWN_UNIT (the unit, `from`, then `allow_pass_through`), UNKNOWN_BASE,
// BASE_NOT_IN_UNIT, DUPLICATE_BASE, MALFORMED_LEG (legs.h), WRONG_SUBPHASE, NOT_OWN_UNIT.
// Steps 2 and 3 check the unit. Step 4 takes the bases in listed order, each after the earlier
// ones have moved, through all its checks before the next base; step 5 follows once every base
// has passed.
//
// Readings chosen where the digest is open (tested in tests/engine/wme):
// - A removed base (alive = false) is UNKNOWN_BASE. A listed base needs at least one leg.
// - WRONG_SUBPHASE: an ADVANCE in the initiative block (initiative allows only an evade or a
//   charge, [WME-CMD]); an EVADE in the orders block is EVADE_NOT_BY_INITIATIVE (T10 c).
// - MODE_CONFLICT (WME-R01): an ordered move of a unit that moved by initiative this turn, or a
//   second initiative move. A unit whose initiative move was illegal may still get orders
//   (GAP-20).
// - UNIT_CANNOT_MOVE: confused is tested before engaged (the digest's order).
// - Evade `from` omitted: the nearest visible enemy is taken. NOT_NEAREST_VISIBLE_ENEMY names
//   the first nearest (state order). EVADE_FIRST_BASE_WRONG: the first listed base must be a
//   base of the unit nearest the evaded enemy (WME-R33; ties: any of them). The direction
//   (WME-P08, GAP-18) is checked on the first listed base: it needs a translation leg.
// - Allowance (§1.4, WME-R09..R13): the formation at the start of the move (GAP-12); a base
//   partly on `broken` terrain at the start counts the unit as irregular for speed (W-R13);
//   flyers are exempt from both; a fortified unit halves the kinds in fortified_half_for
//   (GAP-11); an evade is at full speed.
// - Step 4 order: EXCEEDS_ALLOWANCE; then a sweep through an ENEMY base is CROSSES_OTHER_UNIT
//   before the squeeze rule is applied to terrain and friends, because an enemy is never a
//   side of a squeeze and T07 expects CROSSES_OTHER_UNIT{M, U2} although M meets the rock
//   first; then the neck rule (WME-P12, W-R5, W-R6: TERRAIN_FORBIDDEN, CROSSES_OTHER_UNIT,
//   NO_PASSAGE); OWN_BASE_CROSS_NOT_ALLOWED (W-R1); ENEMY_CONTACT_WITHOUT_CHARGE (W-R12);
//   OFF_TABLE (end of each leg, GAP-29).
// - ENEMY_CONTACT_WITHOUT_CHARGE: with min_enemy_gap_cm = 0 the sweep must stay more than eps
//   from every enemy base (W-R12); with a gap g > 0, at least g - eps (a minimum, §0.3), tested
//   as "not within g - eps - 1 unit" (0.1 µm).
// - Flyers with flyers_pass_over (GAP-37): terrain, other units and own bases are tested at the
//   end pose only.
// - *Traversée de rangs* (WME-R35): for an evade, the sweep may cross a unit named in
//   allow_pass_through that belongs to the same player; every unit so crossed is `crossed`.
//   Naming a unit of another player is PASS_THROUGH_NOT_ACCEPTED (step 5): the order format
//   carries no other player's consent. An end overlap with a crossed unit is
//   PASS_THROUGH_NOT_CLEARED (T12 b), not BASE_OVERLAP.
// - Step 5 order: BASE_OVERLAP (moved bases in listed order against every other base in state
//   order), FORMATION_BROKEN, EVADE_ENDS_NEAR_COMBAT (the unit's bases, listed ones first, in
//   listed order, against engaged units in state order), PASS_THROUGH_NOT_CLEARED,
//   PASS_THROUGH_UNIT_ENGAGED, PASS_THROUGH_NOT_ACCEPTED.
#ifndef PBEM_ENGINE_WME_VALIDATE_H_
#define PBEM_ENGINE_WME_VALIDATE_H_

#include <string>
#include <vector>

#include "engine/table/formation.h"
#include "engine/wme/legs.h"
#include "engine/wme/orders.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/state.h"
#include "engine/wme/verdict.h"

namespace pbem::wme {

struct PlannedBase {
  std::size_t index = 0;  // into State::bases
  PlannedLegs legs;
  table::Coord travelled = 0;  // largest corner travel, rounded up to a unit
};

struct MoveCheck {
  Verdict verdict;
  std::vector<PlannedBase> bases;    // listed order; complete when verdict.kind == kOk
  std::vector<std::string> crossed;  // friendly units passed through (WME-R35), state order
  table::Formation formation = table::Formation::kLine;  // at the end (ok only)
  table::Coord allowance = 0;
};

// §5.3 steps 1-5 for `order` given by `player` in `subphase`. WME-R01, R05, R09-R36 through
// WME-P02, P03, P05-P08, P10, P12-P15.
MoveCheck CheckMove(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                    const std::string& player, const MoveOrder& order, Subphase subphase);

// Whether `unit` counts as irregular for speed at the start of a move (GAP-12, W-R13): its
// formation is neither line nor column, or one of its bases is partly on `broken` terrain (by
// more than epsilon). Used by advances and, in charge.cc, by the charge allowance (C-1).
bool IrregularForSpeed(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                       const std::string& unit);

// The allowance of a move (§1.4 table; readings above), in table units.
table::Coord Allowance(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                       const UnitState& unit, MoveKindOrder kind);

// Steps 4 and 5 (going.cc): `check.bases` is planned; fills `verdict` on the first failure,
// else `crossed` and `formation`.
void CheckGoing(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                const MoveOrder& order, MoveCheck& check);

// Step 1, shared by moves and charges (codes in the order above; `named_units` are the other
// units the entry names): fills `planned` with the listed bases' legs.
std::optional<Verdict> CheckUnderstood(const Ruleset& ruleset, const State& state,
                                       const std::string& player, const std::string& unit,
                                       const std::vector<std::string>& named_units,
                                       const std::vector<BaseOrder>& bases, bool wrong_subphase,
                                       std::vector<PlannedBase>& planned);

// Step 2 (WME-R01, [WME-CMD]): UNIT_CANNOT_MOVE, MODE_CONFLICT.
std::optional<Verdict> CheckCanMove(const UnitState& unit, Subphase subphase);

// A refusal of `unit` with `reason` (the kind follows the reason's step).
Verdict Refusal(const std::string& unit, Reason reason);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_VALIDATE_H_
