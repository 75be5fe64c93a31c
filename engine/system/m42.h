// M42 behind the game-system interface (system name "m42"). For the code that may name M42's
// types: its codec and tests. Everything else uses game_system.h.
//
// What the engine offers and what it does not:
// - Load: M42 has no data format yet (issue 16's proto schema): kNotSupported. Its bundled
//   scenario "pumping_station" is built in C++ (engine/m42/scenarios.h): LoadBundled.
// - M42's movement rules use no dice: the seed is ignored.
// - GameOutcome: the movement chapter has no end of game: kNotSupported.
// - EncodeState: the state lines of engine/m42/canonical.h's CanonicalText; DecodeState reads
//   them back (radii from the scenario's bases, as InitialState sets them).
// - BotOrders: engine/m42/bot.h.
#ifndef PBEM_ENGINE_SYSTEM_M42_H_
#define PBEM_ENGINE_SYSTEM_M42_H_

#include <memory>
#include <string_view>

#include "engine/m42/orders.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenario.h"
#include "engine/m42/state.h"
#include "engine/system/game_system.h"

namespace pbem::game_system {

inline constexpr std::string_view kM42 = "m42";

struct M42Setup {
  m42::Ruleset ruleset;
  m42::Scenario scenario;
};

std::unique_ptr<GameSystem> MakeM42();

Setup M42SetupOf(M42Setup setup);
Orders M42OrdersOf(m42::Orders orders);
State M42StateOf(m42::State state);

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_M42_H_
