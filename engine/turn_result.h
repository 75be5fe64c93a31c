// What resolving a player-turn returns: a verdict per order, the ordered
// event log (every step, every die with its purpose) and the next state. The
// event log is the engine's only trace: it never logs.
#ifndef PBEM_ENGINE_TURN_RESULT_H_
#define PBEM_ENGINE_TURN_RESULT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dice.h"
#include "engine/game_state.h"
#include "engine/ids.h"
#include "engine/verdict.h"

namespace pbem::engine {

// Stable event kinds; the names are the wire format.
enum class EventKind : std::uint8_t {
  kCommandCheck,
  kPlace,
  kDie,
  kBombard,
  kMoveStep,
  kMoveEnd,
  kStuck,
  kCharge,
  kReactionFire,
  kCombat,  // {defender, attacker CS, defender CS, attack, defence, odds, roll, die, cell,
            //  then the attacker's and the defender's strength steps (CS, after charge, after
            //  terrain, after water, terrain name, water kind) and the die modifiers
            //  (elevation, morale, terrain, terrain name)}
  kLoss,
  kMoraleTest,
  kRetreat,
  kEliminated,
  kAdvance,
  kRally,
  kObjectiveTaken,
  kTurnEnd,
  kGameEnd,
  kFortTaken,      // a fort passes to the side of the unit entering it (digest 4.6 GAP)
  kSupport,        // a unit supports a combat: {"offensive" | "defensive", corrected CS,
                   // then its strength steps as in kCombat}
  kMoraleGained,   // MV regained: {points, cause} (digest 5.11: "elimination")
  kVictoryPoints,  // game end scoring of an objective or of strength (digest 8)
};
std::string_view EventKindName(EventKind kind);  // "move_step", ...
std::optional<EventKind> ParseEventKind(std::string_view name);

struct DieRoll {
  Die die = Die::kD6;
  int value = 0;
  std::string purpose;  // e.g. "marsh_stuck_test", "charge_morale_test"
};

struct Event {
  Phase phase = Phase::kMovement;
  EventKind kind = EventKind::kMoveStep;
  std::optional<UnitId> unit;
  std::vector<Hex> hexes;
  std::vector<Arg> args;
  std::optional<DieRoll> die;
};

struct TurnResult {
  std::vector<OrderVerdict> verdicts;
  std::vector<Event> events;
  GameState next_state;
  std::string message;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_TURN_RESULT_H_
