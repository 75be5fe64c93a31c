// What every system's EncodeTurnResult / DecodeTurnResult must do with a resolved player-turn
// (turn_result_envelope_test.cc, wme_turn_result_codec_test.cc): the bytes decode to the same
// verdicts, events and next state and encode again to the same bytes, the envelope names the
// turn and the side or player `before` waited for, and its body is the system's own. The
// decoded events carry the same unit and args as the resolved ones (built by one function).
#ifndef PBEM_TESTS_ENGINE_SYSTEM_TURN_RESULT_CHECK_H_
#define PBEM_TESTS_ENGINE_SYSTEM_TURN_RESULT_CHECK_H_

#include <string>

#include "engine/system/game_system.h"
#include "pbem/v1/turn_result.pb.h"
#include "proto/codec/systems.h"
#include "tests/engine/mini_test.h"

namespace pbem::game_system::test {

// The envelope's bytes of `resolved`, checked; "" when a check failed.
inline std::string CheckTurnResultRoundTrip(const GameSystem& system, const Setup& setup,
                                            const State& before, const TurnResolution& resolved) {
  const Result<std::string> bytes = system.EncodeTurnResult(setup, before, resolved);
  CHECK_MINI(bytes.ok());
  if (!bytes.ok()) return {};
  pbem::v1::TurnResult envelope;
  CHECK_MINI(envelope.ParseFromString(*bytes));
  CHECK_EQ_MINI(std::string(codec::TurnResultSystem(envelope)), std::string(system.name()));
  const Result<TurnInfo> whose = system.WhoseTurn(setup, before);
  CHECK_MINI(whose.ok());
  if (whose.ok()) {
    CHECK_EQ_MINI(envelope.turn(), whose->turn);
    if (system.name() != "morne-plaine") CHECK_EQ_MINI(envelope.player(), whose->side);
  }
  const Result<TurnResolution> decoded = system.DecodeTurnResult(setup, *bytes);
  CHECK_MINI(decoded.ok());
  if (!decoded.ok()) return {};
  CHECK_EQ_MINI(decoded->verdicts.size(), resolved.verdicts.size());
  for (std::size_t i = 0; i < decoded->verdicts.size() && i < resolved.verdicts.size(); ++i) {
    CHECK_EQ_MINI(decoded->verdicts[i].reason, resolved.verdicts[i].reason);
    CHECK_EQ_MINI(decoded->verdicts[i].unit, resolved.verdicts[i].unit);
    CHECK_MINI(decoded->verdicts[i].kind == resolved.verdicts[i].kind);
    CHECK_MINI(decoded->verdicts[i].args == resolved.verdicts[i].args);
  }
  CHECK_EQ_MINI(decoded->events.size(), resolved.events.size());
  for (std::size_t i = 0; i < decoded->events.size() && i < resolved.events.size(); ++i) {
    CHECK_EQ_MINI(decoded->events[i].kind, resolved.events[i].kind);
    CHECK_EQ_MINI(decoded->events[i].unit, resolved.events[i].unit);
    CHECK_MINI(decoded->events[i].args == resolved.events[i].args);
  }
  CHECK_EQ_MINI(*system.EncodeState(setup, decoded->next),
                *system.EncodeState(setup, resolved.next));
  const Result<std::string> again = system.EncodeTurnResult(setup, before, *decoded);
  CHECK_MINI(again.ok() && *again == *bytes);
  return *bytes;
}

}  // namespace pbem::game_system::test

#endif  // PBEM_TESTS_ENGINE_SYSTEM_TURN_RESULT_CHECK_H_
