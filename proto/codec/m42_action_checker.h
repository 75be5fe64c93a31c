// Private to the codec: what M42's orders (m42_orders_codec.cc) and turn results
// (m42_turn_result_codec.cc) both read, a unit's action and when it fires (m42_orders.proto's
// M42Action.Kind and Fire): one table per enum, both directions, and one check, so the two
// messages accept and refuse the same values with the same words.
#ifndef PBEM_PROTO_CODEC_M42_ACTION_CHECKER_H_
#define PBEM_PROTO_CODEC_M42_ACTION_CHECKER_H_

#include <string>

#include "engine/m42/orders.h"
#include "engine/m42/ruleset.h"
#include "pbem/v1/m42_orders.pb.h"
#include "proto/codec/data_checker.h"

namespace pbem::codec::internal {

inline constexpr EnumPair<pbem::v1::M42Action::Kind, m42::Action> kM42Actions[] = {
    {pbem::v1::M42Action::ADVANCE, m42::Action::kAdvance},
    {pbem::v1::M42Action::AT_THE_DOUBLE, m42::Action::kAtTheDouble},
    {pbem::v1::M42Action::OPEN_FIRE, m42::Action::kOpenFire},
    {pbem::v1::M42Action::GET_DOWN, m42::Action::kGetDown}};
inline constexpr EnumPair<pbem::v1::M42Action::Fire, m42::Fire> kM42Fires[] = {
    {pbem::v1::M42Action::FIRE_UNSPECIFIED, m42::Fire::kUnset},
    {pbem::v1::M42Action::BEFORE_MOVE, m42::Fire::kBeforeMove},
    {pbem::v1::M42Action::AFTER_MOVE, m42::Fire::kAfterMove}};

class M42Checker : public Checker {
 protected:
  // The action (required) at `action_path` into `action_out`, and when it fires (only an
  // ADVANCE says) at `fire_path` into `fire_out`.
  void ActionAndFire(const std::string& action_path, pbem::v1::M42Action::Kind action,
                     const std::string& fire_path, pbem::v1::M42Action::Fire fire,
                     m42::Action& action_out, m42::Fire& fire_out) {
    if (action == pbem::v1::M42Action::KIND_UNSPECIFIED) {
      Add(action_path, "missing (ADVANCE, AT_THE_DOUBLE, OPEN_FIRE or GET_DOWN)");
    } else {
      Enum(action_path, true, action, kM42Actions, action_out);
    }
    Enum(fire_path, true, fire, kM42Fires, fire_out);
    if (fire_out != m42::Fire::kUnset && action != pbem::v1::M42Action::ADVANCE) {
      Add(fire_path, "only an ADVANCE says when it fires");
    }
  }
};

}  // namespace pbem::codec::internal

#endif  // PBEM_PROTO_CODEC_M42_ACTION_CHECKER_H_
