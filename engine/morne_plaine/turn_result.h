// What resolving a player-turn returns: a verdict per order, the ordered
// event log (every step, every die with its purpose) and the next state. The
// event log is the engine's only trace: it never logs.
#ifndef PBEM_ENGINE_MORNE_PLAINE_TURN_RESULT_H_
#define PBEM_ENGINE_MORNE_PLAINE_TURN_RESULT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/event.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

// Stable event kinds, in the order of EventBody's alternatives; the names are the wire
// format. Each kind's fields: the reference table in engine/morne_plaine/event.h.
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
  kCombat,
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
  kSupport,        // a unit supports a combat
  kMoraleGained,   // MV regained (digest 5.11: "elimination")
  kVictoryPoints,  // game end scoring of an objective or of strength (digest 8)
};
inline constexpr std::size_t kEventKindCount = 23;
static_assert(std::variant_size_v<EventBody> == kEventKindCount);
std::string_view EventKindName(EventKind kind);  // "move_step", ...
std::optional<EventKind> ParseEventKind(std::string_view name);

// The payload of `kind` with every field at its default; nullopt for a value outside the enum.
std::optional<EventBody> EmptyEventBody(EventKind kind);

// A payload in its positional text form, the `args` of pbem.v1.Event (format version 1):
// its fields in the order of engine/morne_plaine/event.h's table, numbers in decimal, text as is.
std::vector<std::string> EventArgs(const EventBody& body);
// And back: the payload, or a problem naming the field, e.g. "args: combat.roll: 'x' is
// not a whole number" (stored results and archives are untrusted input).
std::variant<EventBody, std::string> EventBodyFromArgs(EventKind kind,
                                                       const std::vector<std::string>& args);

struct DieRoll {
  Die die = Die::kD6;
  int value = 0;
  std::string purpose;  // e.g. "marsh_stuck_test", "charge_morale_test"
};

struct Event {
  Phase phase = Phase::kMovement;
  std::optional<UnitId> unit;
  std::vector<Hex> hexes;  // what each kind's hexes are: engine/morne_plaine/event.h
  EventBody body;
  std::optional<DieRoll> die;

  EventKind kind() const { return static_cast<EventKind>(body.index()); }
  // The payload when it is of kind T, else null.
  template <typename T>
  const T* get() const {
    return std::get_if<T>(&body);
  }
};

struct TurnResult {
  std::vector<OrderVerdict> verdicts;
  std::vector<Event> events;
  GameState next_state;
  std::string message;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_TURN_RESULT_H_
