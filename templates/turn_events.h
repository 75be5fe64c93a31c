// What the map shows of a player-turn's event log (engine/morne_plaine/turn_result.h): the log read
// once into the marks the renderer draws. Pure (no cairo): the same events give the same marks.
//
// Event formats read (as the engine writes them, or decoded from storage with numbers as
// decimal text; malformed events are counted, not drawn):
//   kMoveStep      unit, [from, to] (or [to])            one step of a move or charge advance
//   kMoveEnd       unit, [hex], {points left, reason}    reason != "none": the move was stopped
//   kStuck         unit, [hex]                           stuck in marsh (a stop)
//   kCharge        charger, [from, target hex], {target id}
//   kMoraleTest    unit, [hex], {roll, modified, mv, "failed"|"passed", cause}
//   kBombard       battery, [from, at], {target id, roll, ..., "miss"|"hit"|"double_hit"}
//   kReactionFire  battery, [from, at], {target id, roll, modified, bv, "hit"|"miss"}
//   kCombat        attacker, [from, at], {defender id, att, def, attack, defence, odds label,
//                  roll, die result, cell "a/d" with '*' for a morale test}
//   kLoss          unit, [hex], {MV lost, CS lost, cause}
//   kRetreat       unit, [from, to], {cause}
//   kAdvance       unit, [from, vacated]
//   kEliminated    unit, [hex] (or [] when it was off the map), {cause}
//   kPlace, kObjectiveTaken, kFortTaken: shown by the state itself (counter, ring, fort).
//   kTurnEnd       {next turn, next side}: gives the turn and side that were played.
#ifndef PBEM_TEMPLATES_TURN_EVENTS_H_
#define PBEM_TEMPLATES_TURN_EVENTS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"

namespace pbem::templates {

// A unit's movement this turn: every hex it passed through, in order (a charge advance
// included), and where and why it was stopped short, if it was.
struct MovePath {
  engine::UnitId unit;
  std::vector<engine::Hex> hexes;
};

struct StopMark {
  engine::UnitId unit;
  engine::Hex hex;
  std::string reason;  // the engine's reason code, e.g. "entered_enemy_zoc"
};

struct ChargeMark {
  engine::UnitId charger;
  engine::Hex from;
  engine::Hex target;
  // The target's morale test: failed (it broke: retreat or elimination), passed (it held),
  // or unknown when the log has no test for it.
  enum class Outcome : std::uint8_t { kUnknown, kBroke, kHeld } outcome = Outcome::kUnknown;
};

struct FireMark {
  engine::UnitId battery;
  engine::Hex from;
  engine::Hex at;
  bool reaction = false;  // reaction fire during the enemy's movement (else bombardment)
  int hits = 0;           // 0 miss, 1 hit, 2 double hit
};

struct CombatMark {
  engine::UnitId attacker;
  engine::Hex from;
  engine::Hex at;
  std::string odds;    // the CRT column label, "2:1"
  int die = 0;         // the modified die result
  std::string result;  // the CRT cell, "1/2*"
};

// A forced move after a charge or combat: a retreat, or the winner's advance.
struct ForcedMove {
  engine::UnitId unit;
  engine::Hex from;
  engine::Hex to;
  bool advance = false;
};

// An eliminated unit: drawn as a crossed-out ghost at the last hex it held.
struct Ghost {
  engine::UnitId unit;
  engine::Hex hex;
};

// Morale and strength lost by one unit over the turn.
struct LossMark {
  engine::UnitId unit;
  int mv = 0;
  int cs = 0;
};

struct TurnDrawing {
  std::vector<MovePath> moves;  // paths of two hexes or more, in order of first step
  std::vector<StopMark> stops;
  std::vector<ChargeMark> charges;
  std::vector<FireMark> fire;
  std::vector<CombatMark> combats;
  std::vector<ForcedMove> forced;
  std::vector<Ghost> ghosts;
  std::vector<LossMark> losses;
  // The player-turn the log resolves, from its kTurnEnd event.
  std::optional<int> turn_played;
  std::optional<engine::Side> side_played;
  int drawn = 0;      // events shown (by a mark, or by the state: placements, objectives)
  int not_drawn = 0;  // events of a visual kind that could not be read
};

// Reads `events` (may be null: nothing to draw). Hexes off the map and units unknown to
// the scenario make an event unreadable (counted in not_drawn).
TurnDrawing CollectTurnDrawing(const std::vector<engine::Event>* events,
                               const engine::Scenario& scenario);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_TURN_EVENTS_H_
