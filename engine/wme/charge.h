// A charge (french-fantasy.md §5.4) as far as it is implemented: steps 1-5 (eligibility, sight,
// allowance, the side contacted and whether it is available), step 6 (first base, its slot and
// AUTO path, range) and step 7 (the front line, charge_line.cc) for every charger of up to 7
// bases (a pinned target: charge_pinned.cc; a fortified one: charge_fortified.cc); step 8
// (envelopment, charge_envelop.cc) when asked for; step 9 (the *charge de soutien*,
// charge_support.cc) when the order names a supporter; then step 11 (resolve.cc: every base
// placed, the units in contact engaged). Every other charge that passes the implemented steps
// is refused INVALID CHARGE_NOT_SUPPORTED and changes nothing (an EXPLICIT charge at a pinned or
// fortified target: not implemented), so no charge is ever acknowledged that the engine cannot
// play. EXPLICIT placement: charge_explicit.cc. Step 10, counter-charge fire (C-2), belongs to
// the shooting chapter and never stops the contact (WME-R45): not played here.
//
// Readings chosen where the digest is open:
// - Step 1 uses the codes of §5.3 step 1 (validate.h) with `target` and `support` as named
//   units, then first_base (UNKNOWN_BASE, BASE_NOT_IN_UNIT: not the charger's) and target_base
//   (not the target's), then TARGET_NOT_ENEMY (engine addition, INVALID); then step 2's
//   UNIT_CANNOT_MOVE and MODE_CONFLICT; by initiative the W-R14 codes; then
//   FORTIFIED_NEEDS_INFANTRY (WME-R64).
// - Step 3 (WME-R42, C-1): half when the charger is irregular at the start and
//   irregular_charge_speed is half, flyers exempt (WME-R14). Irregular as for an advance
//   (validate.h, IrregularForSpeed): a base partly on broken ground at the start makes the
//   unit count as irregular for speed (the digest's terrain table, W-R13), so such a charger
//   goes at half too; the digest says so for speed in general, not for charges by name.
// - Step 4 (WME-P09): the reference rectangle of a LINE or COLUMN target is the smallest
//   rectangle aligned with its first base's heading holding all its bases; of an IRREGULAR
//   target, the footprint of its base nearest the charger (ties: state order). A tie (areas
//   within epsilon_area) rolls one D6 (GAP-34): 1-3 the first of the two zones in the order
//   front, left flank, right flank, rear; 4-6 the other. A fortified target is contacted in
//   front (WME-R65), no roll.
// - Step 5 (WME-P11, W-R3, W-R8): the zone's edge of every target base (front: edge 0, right
//   flank: 1, rear: 2, left flank: 3) that is exposed; the probe is the charger's base size;
//   obstacles are every base but the target base and the charger's, terrain the charger's
//   type may not enter, and the outside of the table (GAP-29). Available <=> the best length >=
//   min_contact - eps. Otherwise: pinned (WME-P17) -> the pinned procedure (charge_pinned.cc);
//   else TARGET_PROTECTED if some such edge offers more than eps, else
//   NO_EDGE_IN_ZONE. A fortified target skips step 5 (the probe against the wall, WME-P11's last
//   sentence, is not implemented).
// - Step 6 (WME-R46..R48, R54, GAP-24, GAP-25, W-R7): each charger base that sees a target
//   base (`first_base` if given) takes the nearest target base it sees that has a free slot on
//   the zone's edge (`target_base` if given; ties: state order, not the digest's edge-midpoint
//   rule); the slot is the frontal contact centred on that edge, else the free position with
//   the smallest offset (candidates: the centre, the two extreme positions, and the positions
//   where the slot's side meets an obstacle's vertex) with contact >= min_contact - eps; the
//   path is W-R7's (turn about the centre by the smallest angle, then straight). The first base
//   is the one with the least travel (ties: state order). No base with a slot:
//   CHARGE_TARGET_NOT_VISIBLE (WME-R46: the first base must see its target). The path's sweep
//   overlapping a base of another unit or forbidden terrain (beyond eps): PATH_BLOCKED (no
//   squeeze rule on the AUTO path); travel > allowance + eps: CHARGE_OUT_OF_RANGE.
#ifndef PBEM_ENGINE_WME_CHARGE_H_
#define PBEM_ENGINE_WME_CHARGE_H_

#include <functional>
#include <optional>
#include <string>

#include "engine/table/motion.h"
#include "engine/table/zones.h"
#include "engine/wme/dice.h"
#include "engine/wme/orders.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/scenario.h"
#include "engine/wme/state.h"
#include "engine/wme/validate.h"
#include "engine/wme/verdict.h"

namespace pbem::wme {

// The first base's placement (step 6).
struct FirstBase {
  std::size_t base = 0;         // into State::bases
  std::size_t target_base = 0;  // into State::bases
  std::vector<table::Leg> legs;
  std::optional<table::Rect> slot;
  table::Coord travel = 0;  // rounded up to a unit
};

// One base of the charger and where the charge puts it (steps 6-7).
struct PlacedBase {
  std::size_t base = 0;  // into State::bases
  std::vector<table::Leg> legs;
  table::Rect slot;
  table::Coord travel = 0;  // rounded up to a unit
};

// Step 7's result: the first base, then the others in the order they move; W-R4's counts.
struct FrontLine {
  std::vector<PlacedBase> bases;
  int touching_target = 0;             // (a) bases touching the charged unit
  int touching_enemy = 0;              // (b) bases touching any enemy unit
  int frontal = 0;                     // (c) bases in frontal contact (W-R2) with an enemy base
  Reserve reserve = Reserve::kBehind;  // where the bases out of contact went
  int enveloped = 0;                   // bases placed by step 8's wheel
};

// Step 9's result (charge_support.cc): the supporter's bases in the order they move.
struct SupportPlacement {
  std::string unit;
  std::vector<PlacedBase> bases;
  int touching_charger = 0;  // its bases whose front edge touches a charger base's rear edge
};

struct ChargeCheck {
  Verdict verdict;
  table::Coord allowance = 0;               // step 3
  std::optional<table::Zone> zone;          // step 4
  std::optional<int> zone_roll;             // step 4, GAP-34
  std::optional<Milli> available;           // step 5: the zone's best length, rounded down
  bool pinned = false;                      // step 5, WME-P17
  std::optional<FirstBase> first;           // step 6
  std::optional<FrontLine> line;            // step 7: every base's place, the first one first
  std::optional<SupportPlacement> support;  // step 9, when a supporter follows
};

// Rect::Edge index of the target's side a zone contacts (front 0, right 1, rear 2, left 3).
std::size_t ChargeEdge(table::Zone zone);

// Step 6 (charge_first.cc); `terrain`: the pieces the charger's type may not enter.
std::optional<Verdict> PlaceFirstBase(const Ruleset& ruleset, const Scenario& scenario,
                                      const State& state, const ChargeOrder& order,
                                      const std::vector<table::Polygon>& terrain,
                                      ChargeCheck& check);

// Step 7 (charge_line.cc): the front line of the charger, AUTO placement; FRONT_LINE_IMPOSSIBLE
// (ILLEGAL) or CHARGE_NOT_SUPPORTED (more than 7 bases) when it cannot be built.
std::optional<Verdict> BuildFrontLine(const Ruleset& ruleset, const State& state,
                                      const ChargeOrder& order,
                                      const std::vector<table::Polygon>& terrain,
                                      ChargeCheck& check);

// W-R4's counts of `line` (its touching_target, touching_enemy, frontal) from its slots.
void CountContacts(const Ruleset& ruleset, const State& state, const ChargeOrder& order,
                   FrontLine& line);

// Step 8 (charge_envelop.cc), when the order asks for it: the bases out of contact wheel onto
// the enemy. Returns the warning ENVELOP_CONDITIONS_NOT_MET (an OK verdict) when WME-R60 fails.
std::optional<Verdict> Envelop(const Ruleset& ruleset, const State& state, const ChargeOrder& order,
                               const std::vector<table::Polygon>& terrain, ChargeCheck& check);

// `placement: EXPLICIT` (charge_explicit.cc): the player's legs (`planned`, listed order)
// checked base by base, then against the AUTO placement's contact counts (W-R4).
std::optional<Verdict> CheckExplicit(const Ruleset& ruleset, const Scenario& scenario,
                                     const State& state, const ChargeOrder& order,
                                     const std::vector<PlannedBase>& planned,
                                     const std::vector<table::Polygon>& terrain,
                                     ChargeCheck& check);

// The pinned procedure (charge_pinned.cc, WME-R58): the first base corner to corner with the
// target and edge to edge with friends already in contact, instead of step 6's slot.
std::optional<Verdict> PlacePinned(const Ruleset& ruleset, const Scenario& scenario,
                                   const State& state, const ChargeOrder& order,
                                   const std::vector<table::Polygon>& terrain, ChargeCheck& check);

// Steps 5-6 against a fortified target (charge_fortified.cc, WME-R65, R66, P18): the first
// base against the fortification's outer face, in contact across it.
std::optional<Verdict> PlaceFortified(const Ruleset& ruleset, const Scenario& scenario,
                                      const State& state, const ChargeOrder& order,
                                      std::vector<table::Polygon> terrain, ChargeCheck& check);

// Step 9 (charge_support.cc), when the order names a supporter and steps 1-8 carried the charge
// out: the supporter's bases in line behind the charger (check.support). Returns the warning
// SUPPORT_NOT_ELIGIBLE (an OK verdict; the main charge proceeds alone) when it cannot follow.
std::optional<Verdict> PlaceSupport(const Ruleset& ruleset, const Scenario& scenario,
                                    const State& state, const std::string& player,
                                    const ChargeOrder& order, ChargeCheck& check);

// Step 3 (WME-R42, C-1): the charge allowance of `unit` from its starting formation.
table::Coord ChargeAllowance(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                             const std::string& unit);

// What a charging base of `type` may not enter: the terrain its type may not enter (§2) and the
// outside of the table (GAP-29).
std::vector<table::Polygon> ForbiddenTo(const Ruleset& ruleset, const Scenario& scenario,
                                        TroopType type);

// W-R7's AUTO path from `start` to `slot`: turn about the centre by the smallest angle (exactly
// 180 degrees: +180), then straight on (charge_first.cc).
std::vector<table::Leg> AutoLegs(const table::Rect& start, const table::Rect& slot);

// `base` (into State::bases) brought to `slot` by W-R7's AUTO path, when it travels at most
// `allowance` + eps and its sweep is free (SweepBlocked); else nullopt (charge_first.cc).
std::optional<PlacedBase> ReachByAuto(const Ruleset& ruleset, const State& state,
                                      const std::string& unit, std::size_t base,
                                      const table::Rect& slot, table::Coord allowance,
                                      const std::vector<table::Polygon>& terrain);

// For every charger base (`first_base` if given) and every target base it sees
// (`target_base` if given), the places `slots(base, target)` proposes that overlap none of
// `obstacles` and that the base reaches (ReachByAuto over `terrain`): the least travel becomes
// check.first (ties: the first found); none: ILLEGAL FRONT_LINE_IMPOSSIBLE (charge_first.cc).
using SlotsFor =
    std::function<std::vector<table::Rect>(const BaseState& base, const table::Rect& target)>;
std::optional<Verdict> PlaceLeastTravel(const Ruleset& ruleset, const Scenario& scenario,
                                        const State& state, const ChargeOrder& order,
                                        const std::vector<table::Polygon>& terrain,
                                        const std::vector<table::Polygon>& obstacles,
                                        const SlotsFor& slots, ChargeCheck& check);

// Whether the sweep of `start` along `legs` overlaps, beyond epsilon, a base of a unit other
// than `unit` or a piece of `terrain` (PATH_BLOCKED; the charger's own bases are no obstacle).
bool SweepBlocked(const Ruleset& ruleset, const State& state, const std::string& unit,
                  const table::Rect& start, const std::vector<table::Leg>& legs,
                  const std::vector<table::Polygon>& terrain);

// §5.4 steps 1-6 (and 11 when carried out) for `order` given by `player` in `subphase`; `dice` only
// for a zone tie. WME-R37..R44, R54, R56, R57, R64, R65 through WME-P09, P10, P11, P17.
ChargeCheck CheckCharge(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                        const std::string& player, const ChargeOrder& order, Subphase subphase,
                        DiceSource& dice);

// WME-P09's reference rectangle of `target` seen from `charger` (reading above).
table::Rect ReferenceRect(const Ruleset& ruleset, const State& state, const std::string& target,
                          const std::string& charger);

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_CHARGE_H_
