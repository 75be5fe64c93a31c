// The events of a player-turn: a common header (phase, unit, hexes, die) and, per kind, a
// payload with named, typed fields. This file is THE reference table of event kinds and
// their fields; proto/pbem/v1/turn_result.proto (message Event) points here.
//
// Wire format (pbem.v1.Event): `kind` is EventKindName(kind); `hexes` are the header's hexes
// as labels. The payload, in format version 2, is the oneof `body`: the message <Kind>Event of
// proto/pbem/v1/morne_plaine_events.proto, whose fields have the names below (a nested
// Strength is a StrengthSteps; proto/codec/event_body_codec.cc maps them by name). In format
// version 1 it was `args`: the fields in the order Fields() visits them, numbers in decimal,
// text as is, a nested Strength as its six fields, an optional field only when present (always
// last); EventArgs and EventBodyFromArgs (engine/morne_plaine/event.cc) write and read it.
// proto/README.md, "Turn results and their events", has both.
//
// kind             hexes                      payload fields (wire order)
// command_check    unit's hex [, leader's]    status ("in_command" | "out_of_command"),
//                                             basis, distance
// place            hex                        -
// die              what the die is about      [stuck_chance] (die: which, value, purpose)
// bombard          firer's hex, target hex    target, roll, target_modifier, range_modifier,
//                                             modified, bv, result ("miss" | "hit" |
//                                             "double_hit")
// move_step        from, to                   cost, points_left, basis
// move_end         where it stopped (if on    points_left, reason (a Reason code)
//                  the map)
// stuck            hex                        roll, chance (die: the d4)
// charge           charger's hex, target's    target
// reaction_fire    firer's hex, target hex    target, roll, modified, bv, result
// combat           attacker's, defender's     defender, attacker_cs, defender_cs, attack,
//                                             defence, odds, roll, die, cell,
//                                             [steps: attacker Strength, defender Strength,
//                                             elevation, morale, terrain, terrain_name]
// loss             hex                        mv_lost, cs_lost, cause
// morale_test      hex                        roll, modified, needed, result ("passed" |
//                                             "failed"), cause ("charge" | "combat")
// retreat          from, to                   cause
// eliminated       last hex (if on the map)   cause
// advance          from, to                   -
// rally            hex                        gain, mv, conditions
// objective_taken  hex                        objective, side
// turn_end         -                          turn, side (the next turn and mover)
// game_end         -                          winner (a side or "draw"), level, vp_blue,
//                                             vp_orange
// fort_taken       hex                        side
// support          supporter's hex            role ("offensive" | "defensive"), cs,
//                                             [strength (Strength)]
// morale_gained    hex                        points, cause
// victory_points   the objective's hexes      source (an objective's name or "strength"),
//                                             holder, points, [lost: blue, orange]
// Strength (a unit's corrected strength, step by step): cs, after_charge, after_terrain,
// after_water, terrain, water.
#ifndef PBEM_ENGINE_MORNE_PLAINE_EVENT_H_
#define PBEM_ENGINE_MORNE_PLAINE_EVENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace pbem::engine::payload {

// Fields(self, f) calls f(name, field) for each field in wire order; `self` may be const.
#define PBEM_EVENT_FIELDS(...)            \
  template <typename Self, typename F>    \
  static void Fields(Self& self, F&& f) { \
    __VA_ARGS__;                          \
  }
#define PBEM_FIELD(name) f(#name, self.name)

struct Strength {
  std::int64_t cs = 0;
  std::int64_t after_charge = 0;
  std::int64_t after_terrain = 0;
  std::int64_t after_water = 0;
  std::string terrain;
  std::string water;
  PBEM_EVENT_FIELDS(PBEM_FIELD(cs), PBEM_FIELD(after_charge), PBEM_FIELD(after_terrain),
                    PBEM_FIELD(after_water), PBEM_FIELD(terrain), PBEM_FIELD(water))
};

struct CommandCheck {
  std::string status;
  std::string basis;
  std::int64_t distance = 0;
  PBEM_EVENT_FIELDS(PBEM_FIELD(status), PBEM_FIELD(basis), PBEM_FIELD(distance))
};

struct Place {
  PBEM_EVENT_FIELDS((void)self, (void)f)
};

struct Die {
  std::optional<std::int64_t> stuck_chance;  // the marsh stuck test's chance
  PBEM_EVENT_FIELDS(PBEM_FIELD(stuck_chance))
};

struct Bombard {
  std::string target;
  std::int64_t roll = 0;
  std::int64_t target_modifier = 0;
  std::int64_t range_modifier = 0;
  std::int64_t modified = 0;
  std::int64_t bv = 0;
  std::string result;
  PBEM_EVENT_FIELDS(PBEM_FIELD(target), PBEM_FIELD(roll), PBEM_FIELD(target_modifier),
                    PBEM_FIELD(range_modifier), PBEM_FIELD(modified), PBEM_FIELD(bv),
                    PBEM_FIELD(result))
};

struct MoveStep {
  std::int64_t cost = 0;
  std::int64_t points_left = 0;
  std::string basis;
  PBEM_EVENT_FIELDS(PBEM_FIELD(cost), PBEM_FIELD(points_left), PBEM_FIELD(basis))
};

struct MoveEnd {
  std::int64_t points_left = 0;
  std::string reason;
  PBEM_EVENT_FIELDS(PBEM_FIELD(points_left), PBEM_FIELD(reason))
};

struct Stuck {
  std::int64_t roll = 0;
  std::int64_t chance = 0;
  PBEM_EVENT_FIELDS(PBEM_FIELD(roll), PBEM_FIELD(chance))
};

struct Charge {
  std::string target;
  PBEM_EVENT_FIELDS(PBEM_FIELD(target))
};

struct ReactionFire {
  std::string target;
  std::int64_t roll = 0;
  std::int64_t modified = 0;
  std::int64_t bv = 0;
  std::string result;
  PBEM_EVENT_FIELDS(PBEM_FIELD(target), PBEM_FIELD(roll), PBEM_FIELD(modified), PBEM_FIELD(bv),
                    PBEM_FIELD(result))
};

// What a combat's report details: both sides' strength steps and the die's modifiers.
struct CombatSteps {
  Strength attacker;
  Strength defender;
  std::int64_t elevation = 0;
  std::int64_t morale = 0;
  std::int64_t terrain = 0;
  std::string terrain_name;
  PBEM_EVENT_FIELDS(PBEM_FIELD(attacker), PBEM_FIELD(defender), PBEM_FIELD(elevation),
                    PBEM_FIELD(morale), PBEM_FIELD(terrain), PBEM_FIELD(terrain_name))
};

struct Combat {
  std::string defender;
  std::int64_t attacker_cs = 0;
  std::int64_t defender_cs = 0;
  std::int64_t attack = 0;
  std::int64_t defence = 0;
  std::string odds;
  std::int64_t roll = 0;
  std::int64_t die = 0;
  std::string cell;
  std::optional<CombatSteps> steps;  // absent in results of pbem-engine 1
  PBEM_EVENT_FIELDS(PBEM_FIELD(defender), PBEM_FIELD(attacker_cs), PBEM_FIELD(defender_cs),
                    PBEM_FIELD(attack), PBEM_FIELD(defence), PBEM_FIELD(odds), PBEM_FIELD(roll),
                    PBEM_FIELD(die), PBEM_FIELD(cell), PBEM_FIELD(steps))
};

struct Loss {
  std::int64_t mv_lost = 0;
  std::int64_t cs_lost = 0;
  std::string cause;
  PBEM_EVENT_FIELDS(PBEM_FIELD(mv_lost), PBEM_FIELD(cs_lost), PBEM_FIELD(cause))
};

struct MoraleTest {
  std::int64_t roll = 0;
  std::int64_t modified = 0;
  std::int64_t needed = 0;
  std::string result;
  std::string cause;
  PBEM_EVENT_FIELDS(PBEM_FIELD(roll), PBEM_FIELD(modified), PBEM_FIELD(needed), PBEM_FIELD(result),
                    PBEM_FIELD(cause))
};

struct Retreat {
  std::string cause;
  PBEM_EVENT_FIELDS(PBEM_FIELD(cause))
};

struct Eliminated {
  std::string cause;
  PBEM_EVENT_FIELDS(PBEM_FIELD(cause))
};

struct Advance {
  PBEM_EVENT_FIELDS((void)self, (void)f)
};

struct Rally {
  std::int64_t gain = 0;
  std::int64_t mv = 0;
  std::string conditions;
  PBEM_EVENT_FIELDS(PBEM_FIELD(gain), PBEM_FIELD(mv), PBEM_FIELD(conditions))
};

struct ObjectiveTaken {
  std::string objective;
  std::string side;
  PBEM_EVENT_FIELDS(PBEM_FIELD(objective), PBEM_FIELD(side))
};

struct TurnEnd {
  std::int64_t turn = 0;
  std::string side;
  PBEM_EVENT_FIELDS(PBEM_FIELD(turn), PBEM_FIELD(side))
};

struct GameEnd {
  std::string winner;
  std::string level;
  std::int64_t vp_blue = 0;
  std::int64_t vp_orange = 0;
  PBEM_EVENT_FIELDS(PBEM_FIELD(winner), PBEM_FIELD(level), PBEM_FIELD(vp_blue),
                    PBEM_FIELD(vp_orange))
};

struct FortTaken {
  std::string side;
  PBEM_EVENT_FIELDS(PBEM_FIELD(side))
};

struct Support {
  std::string role;
  std::int64_t cs = 0;
  std::optional<Strength> strength;  // absent in results of pbem-engine 1
  PBEM_EVENT_FIELDS(PBEM_FIELD(role), PBEM_FIELD(cs), PBEM_FIELD(strength))
};

struct MoraleGained {
  std::int64_t points = 0;
  std::string cause;
  PBEM_EVENT_FIELDS(PBEM_FIELD(points), PBEM_FIELD(cause))
};

// Strength losses compared at the end (digest 8, the loss-ratio model), as rationals' text.
struct LostStrength {
  std::string blue;
  std::string orange;
  PBEM_EVENT_FIELDS(PBEM_FIELD(blue), PBEM_FIELD(orange))
};

struct VictoryPoints {
  std::string source;
  std::string holder;
  std::int64_t points = 0;
  std::optional<LostStrength> lost;  // only for source "strength"
  PBEM_EVENT_FIELDS(PBEM_FIELD(source), PBEM_FIELD(holder), PBEM_FIELD(points), PBEM_FIELD(lost))
};

#undef PBEM_FIELD
#undef PBEM_EVENT_FIELDS

}  // namespace pbem::engine::payload

namespace pbem::engine {

// One alternative per EventKind, in the enum's order (EventKindOf relies on it).
using EventBody =
    std::variant<payload::CommandCheck, payload::Place, payload::Die, payload::Bombard,
                 payload::MoveStep, payload::MoveEnd, payload::Stuck, payload::Charge,
                 payload::ReactionFire, payload::Combat, payload::Loss, payload::MoraleTest,
                 payload::Retreat, payload::Eliminated, payload::Advance, payload::Rally,
                 payload::ObjectiveTaken, payload::TurnEnd, payload::GameEnd, payload::FortTaken,
                 payload::Support, payload::MoraleGained, payload::VictoryPoints>;

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_EVENT_H_
