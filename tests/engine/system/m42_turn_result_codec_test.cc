// M42's turn results through the codec (pbem.v1.M42TurnResult, m42_turn_result.proto): the
// soak bot's player-turns on the bundled scenario (every event kind, 13 of the 22 reasons) and
// hand-written orders (8 more reasons) go out and come back in every format with the same
// verdicts, events and next state, so the reader's table of what each reason holds is checked
// against the engine's own verdicts; every event kind and every reason code, written directly
// at the ends of the ranges, does too; the bytes are deterministic; and a hostile message is
// refused with its field named.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "engine/m42/bot.h"
#include "engine/m42/canonical.h"
#include "engine/m42/resolve.h"
#include "engine/m42/scenarios.h"
#include "engine/m42/state.h"
#include "engine/system/m42.h"
#include "proto/codec/m42_codec.h"
#include "tests/engine/mini_test.h"

namespace pbem::m42 {
namespace {

using codec::M42TurnResultBody;
namespace v1 = pbem::v1;

constexpr codec::Format kFormats[] = {codec::Format::kBinary, codec::Format::kText,
                                      codec::Format::kJson};

// Verdicts and events as canonical text, to print a difference (the state lines are a default
// state's, the same on both sides).
std::string Text(const M42TurnResultBody& body) {
  return CanonicalText(PlayerTurnResult{State{}, body.verdicts, body.events}) + body.next_state;
}

std::string Binary(const v1::M42TurnResult& proto) {
  return codec::SerializeMessage(proto, codec::Format::kBinary);
}

// `body` written, serialised in every format, parsed and read back: the same body, and the
// same bytes written again.
void CheckComesBack(const M42TurnResultBody& body) {
  const v1::M42TurnResult proto =
      codec::M42TurnResultToProto(body.verdicts, body.events, body.next_state);
  for (const codec::Format format : kFormats) {
    const std::string bytes = codec::SerializeMessage(proto, format);
    v1::M42TurnResult parsed;
    const auto ok = codec::ParseMessage(bytes, format, "result", parsed);
    if (!ok.ok()) std::fprintf(stderr, "%s", ok.ErrorText().c_str());
    REQUIRE_MINI(ok.ok());
    const auto back = codec::M42TurnResultFromProto(parsed, "result");
    if (!back.ok()) std::fprintf(stderr, "%s", back.ErrorText().c_str());
    REQUIRE_MINI(back.ok());
    CHECK_MINI(back.value() == body);
    CHECK_EQ_MINI(Text(back.value()), Text(body));
    const v1::M42TurnResult again = codec::M42TurnResultToProto(
        back.value().verdicts, back.value().events, back.value().next_state);
    CHECK_EQ_MINI(Binary(again), Binary(proto));
  }
}

std::string ReasonOf(const Verdict& v) { return std::string(ReasonName(v.reason)); }

// What play reaches: the bot's player-turns of a few games on the bundled scenario.
struct Played {
  int player_turns = 0;
  std::set<std::string> kinds;
  std::set<std::string> reasons;  // "" for OK
};

Played PlayAndCheck() {
  const Ruleset ruleset = DefaultRuleset();
  const Scenario scenario = PumpingStation();
  const std::unique_ptr<game_system::GameSystem> system = game_system::MakeM42();
  const game_system::Result<game_system::Setup> setup = system->LoadBundled(kPumpingStationName);
  Played played;
  if (!setup.ok()) {
    CHECK_MINI(setup.ok());
    return played;
  }
  for (std::uint64_t game = 1; game <= 4; ++game) {
    State state = *InitialState(ruleset, scenario).state;
    for (std::uint64_t t = 1; t <= 24; ++t) {
      const Orders orders = BotOrders(ruleset, scenario, state, game * 1000 + t);
      PlayerTurnResult result = ResolvePlayerTurn(ruleset, scenario, state, orders);
      const game_system::Result<std::string> next =
          system->EncodeState(*setup, game_system::M42StateOf(result.next));
      if (!next.ok()) {
        CHECK_MINI(next.ok());
        return played;
      }
      const M42TurnResultBody body{result.verdicts, result.events, *next};
      CheckComesBack(body);
      // The bytes written decode to the state played.
      const auto decoded = system->DecodeState(*setup, *next);
      CHECK_MINI(decoded.ok() && *system->EncodeState(*setup, *decoded) == *next);
      for (const Verdict& v : result.verdicts) played.reasons.insert(ReasonOf(v));
      for (const Event& e : result.events) played.kinds.insert(std::string(EventKindName(e)));
      ++played.player_turns;
      state = std::move(result.next);
    }
  }
  return played;
}

// A verdict of `reason` holding the arguments validate.cc gives it (m42_turn_result.proto's
// table), at the ends of their ranges.
Verdict VerdictOf(Reason reason) {
  Verdict v;
  v.unit = "u_1";
  v.reason = reason;
  const int r = static_cast<int>(reason);
  v.kind = reason == Reason::kNone                           ? VerdictKind::kOk
           : r <= static_cast<int>(Reason::kNotActivePlayer) ? VerdictKind::kInvalid
                                                             : VerdictKind::kIllegal;
  const bool no_model = reason == Reason::kNone || reason == Reason::kUnknownUnit ||
                        reason == Reason::kUnitAlreadyActed || reason == Reason::kNotActivePlayer;
  if (!no_model) v.model = "m." + std::to_string(r);
  switch (reason) {
    case Reason::kImpassable:
    case Reason::kEndsOnObstacle:
      v.other = "feature-" + std::to_string(r);
      break;
    case Reason::kAtTheDoubleInSlowGoing:
      // A structure's base: a 64-byte id and ".base".
      v.other = std::string(64, 's') + ".base";
      break;
    case Reason::kEndsOnFriendly:
    case Reason::kCrossesNonTaskForce:
      v.other = "friend";
      break;
    case Reason::kExceedsAllowance:
      v.value = Thou{9'999} * 2'828'428;
      v.limit = 10'000'000;
      break;
    case Reason::kEnemyTooClose:
      v.other = "enemy";
      v.value = 0;
      v.limit = 1'000'000;
      break;
    case Reason::kCoherency:
      v.other = std::string(64, 'n');
      v.value = 2'828'428;
      v.limit = 0;
      break;
    default:
      break;
  }
  return v;
}

// One event of each kind, at the ends of the ranges.
std::vector<Event> EveryKind() {
  return {
      UnitActed{"alpha", Action::kAdvance, Fire::kAfterMove},
      UnitActed{"bravo", Action::kGetDown, Fire::kUnset},
      UnitHeld{"charlie", Reason::kCoherency},
      UnitHeld{"delta", Reason::kActionForbidsMove},
      ModelMoved{"a1", -1'000'000, 1'000'000, 0, 1'000'000, -1'000'000, 1000,
                 Thou{9'999} * 2'828'428},
      ModelMoved{"a2", 0, 0, 1000, 0, 0, 0, 0},
      ModelTurned{"a1", 359'999},
      ModelTurned{"a2", 0},
      SlowGoing{"a1", "woods_1"},
      SlowGoing{"a1", std::string(64, 'h') + ".base"},
      DifficultGoing{"a1", "wall-3", 10'000},
      DifficultGoing{"a2", "hut.base", 0},
      ClosestEnemy{"a1", "x1", 2'828'428},
      CloseCombatJoined{"alpha", "xray", 0},
      CloseCombatJoined{"alpha", "yankee", 2'828'428},
      ActionPhaseEnded{"blue", 1'000'000'000},
      ActionPhaseEnded{std::string(64, 'p'), 1},
  };
}

TEST_CASE_MINI(M42TurnResultsOfTheBotComeBackInEveryFormat) {
  const Played played = PlayAndCheck();
  CHECK_EQ_MINI(played.player_turns, 96);
  // Play reaches every kind of event and these reasons, so that the reader's table of what each
  // reason holds is checked against the engine's own verdicts (the next case reaches more).
  CHECK_EQ_MINI(played.kinds.size(), std::variant_size_v<Event>);
  const std::set<std::string> reasons = {"",
                                         "ACTION_FORBIDS_MOVE",
                                         "AT_THE_DOUBLE_IN_SLOW_GOING",
                                         "COHERENCY",
                                         "ENDS_ON_FRIENDLY",
                                         "ENDS_ON_OBSTACLE",
                                         "ENEMY_TOO_CLOSE",
                                         "EXCEEDS_ALLOWANCE",
                                         "IMPASSABLE",
                                         "OFF_FLOOR",
                                         "PATH_START_MISMATCH",
                                         "TURN_FORBIDDEN",
                                         "UNKNOWN_MODEL"};
  for (const std::string& reason : reasons) {
    if (!played.reasons.count(reason)) std::printf("not played: reason '%s'\n", reason.c_str());
    CHECK_MINI(played.reasons.count(reason) == 1);
  }
}

ModelOrder Walk(std::string id, std::vector<PathVertex> path) {
  return ModelOrder{std::move(id), std::move(path), std::nullopt};
}
PathVertex At(double x, double y, std::optional<int> floor = std::nullopt) {
  return PathVertex{std::llround(x * 1000), std::llround(y * 1000), floor};
}

// Orders written for the reasons the bot does not give (of those a scenario without other task
// forces can give): the engine's verdicts on them come back too.
TEST_CASE_MINI(M42TurnResultsOfHandWrittenRefusalsComeBack) {
  const Ruleset ruleset = DefaultRuleset();
  const Scenario scenario = PumpingStation();
  const State state = *InitialState(ruleset, scenario).state;
  Orders orders;
  orders.player = "blue";
  const auto act = [&orders](std::string unit, Action kind, std::vector<ModelOrder> models) {
    orders.actions.push_back(UnitOrder{std::move(unit), kind, Fire::kUnset, std::move(models)});
  };
  act("zulu", Action::kAdvance, {});
  act("b_hq", Action::kAdvance, {Walk("b_sq1_1", {At(6, 5), At(6, 6)})});
  act("b_hq", Action::kAdvance,
      {Walk("b_hq_1", {At(22, 3), At(22, 4)}), Walk("b_hq_1", {At(22, 4), At(22, 5)})});
  act("b_hq", Action::kAdvance, {Walk("b_hq_1", {At(22, 3), At(22, 4, -1)})});
  act("r_hq", Action::kGetDown, {});
  act("b_wpn", Action::kGetDown, {});
  act("b_wpn", Action::kGetDown, {});
  act("b_sq1", Action::kAdvance, {Walk("b_sq1_1", {At(6, 5), At(6, 0.3)})});
  act("b_sq2", Action::kAdvance, {Walk("b_sq2_1", {At(30, 5, 0), At(30, 5, 1), At(30, 6, 1)})});
  const PlayerTurnResult result = ResolvePlayerTurn(ruleset, scenario, state, orders);
  std::vector<std::string> reasons;
  for (const Verdict& v : result.verdicts) reasons.push_back(ReasonOf(v));
  CHECK_MINI(reasons == (std::vector<std::string>{"UNKNOWN_UNIT", "MODEL_NOT_IN_UNIT",
                                                  "DUPLICATE_MODEL", "MALFORMED_PATH",
                                                  "NOT_ACTIVE_PLAYER", "", "UNIT_ALREADY_ACTED",
                                                  "OFF_TABLE", "LEVEL_CHANGE_OUTSIDE_FLOOR"}));
  CheckComesBack(M42TurnResultBody{result.verdicts, result.events, "state 1 1\n"});
}

TEST_CASE_MINI(M42TurnResultsEveryKindAndReasonComesBack) {
  M42TurnResultBody body;
  for (int r = 0; r <= static_cast<int>(kLastReason); ++r) {
    body.verdicts.push_back(VerdictOf(static_cast<Reason>(r)));
  }
  body.events = EveryKind();
  body.next_state = "state 1 0\n";
  CheckComesBack(body);
  std::set<std::string> kinds;
  for (const Event& e : body.events) kinds.insert(std::string(EventKindName(e)));
  CHECK_EQ_MINI(kinds.size(), std::variant_size_v<Event>);
  CHECK_EQ_MINI(body.verdicts.size(), static_cast<std::size_t>(kLastReason) + 1);
  // Each reason under its digest name, in every format that writes names.
  const v1::M42TurnResult proto = codec::M42TurnResultToProto(body.verdicts, {}, "");
  const std::string text = codec::SerializeMessage(proto, codec::Format::kText);
  for (int r = 1; r <= static_cast<int>(kLastReason); ++r) {
    const std::string name(ReasonName(static_cast<Reason>(r)));
    CHECK_MINI(text.find("reason: " + name + "\n") != std::string::npos);
  }
  // An empty result (no verdict, no event, no state) is a result too.
  CheckComesBack(M42TurnResultBody{});
}

TEST_CASE_MINI(M42TurnResultsBytesAreDeterministic) {
  std::vector<Verdict> verdicts;
  for (int r = 0; r <= static_cast<int>(kLastReason); ++r) {
    verdicts.push_back(VerdictOf(static_cast<Reason>(r)));
  }
  const std::vector<Event> events = EveryKind();
  const std::string first = Binary(codec::M42TurnResultToProto(verdicts, events, "state 1 0\n"));
  for (int i = 0; i < 3; ++i) {
    CHECK_EQ_MINI(Binary(codec::M42TurnResultToProto(verdicts, events, "state 1 0\n")), first);
  }
  // Text and JSON written back to binary: the same bytes.
  const v1::M42TurnResult proto = codec::M42TurnResultToProto(verdicts, events, "state 1 0\n");
  for (const codec::Format format : {codec::Format::kText, codec::Format::kJson}) {
    v1::M42TurnResult parsed;
    REQUIRE_MINI(
        codec::ParseMessage(codec::SerializeMessage(proto, format), format, "r", parsed).ok());
    CHECK_EQ_MINI(Binary(parsed), first);
  }
}

// The errors of `proto` read back, one a line, or "" when it is accepted.
std::string ErrorsOf(const v1::M42TurnResult& proto) {
  const auto back = codec::M42TurnResultFromProto(proto, "r.bin");
  return back.ok() ? std::string() : back.ErrorText();
}

// A valid message, changed by `change`: its errors.
std::string ErrorsAfter(const std::function<void(v1::M42TurnResult&)>& change) {
  std::vector<Verdict> verdicts;
  for (int r = 0; r <= static_cast<int>(kLastReason); ++r) {
    verdicts.push_back(VerdictOf(static_cast<Reason>(r)));
  }
  v1::M42TurnResult proto = codec::M42TurnResultToProto(verdicts, EveryKind(), "state 1 0\n");
  change(proto);
  return ErrorsOf(proto);
}

bool Says(const std::string& errors, const std::string& what) {
  if (errors.find(what) != std::string::npos) return true;
  std::printf("expected '%s' in:\n%s\n", what.c_str(), errors.c_str());
  return false;
}

TEST_CASE_MINI(M42TurnResultsTheReaderRefusesNamingTheField) {
  CHECK_EQ_MINI(ErrorsAfter([](v1::M42TurnResult&) {}), std::string());
  // Enum values out of range (binary keeps an unknown number in an open enum).
  CHECK_EQ_MINI(
      ErrorsAfter([](v1::M42TurnResult& p) {
        p.mutable_verdicts(0)->set_kind(static_cast<v1::M42Verdict::Kind>(7));
      }),
      std::string("r.bin: verdicts[0].kind: must be one of OK, INVALID, ILLEGAL, got 7\n"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_verdicts(3)->set_reason(static_cast<v1::M42Verdict::Reason>(22));
                  }),
                  "r.bin: verdicts[3].reason: unknown reason code 22"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(1)->mutable_unit_acted()->set_action(
                        static_cast<v1::M42Action::Kind>(5));
                  }),
                  "events[1].unit_acted.action: must be one of ADVANCE, AT_THE_DOUBLE, "
                  "OPEN_FIRE, GET_DOWN, got 5"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(0)->mutable_unit_acted()->set_fire(
                        static_cast<v1::M42Action::Fire>(-1));
                  }),
                  "events[0].unit_acted.fire: must be one of FIRE_UNSPECIFIED, BEFORE_MOVE, "
                  "AFTER_MOVE, got -1"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(2)->mutable_unit_held()->set_reason(
                        v1::M42Verdict::UNKNOWN_MODEL);
                  }),
                  "events[2].unit_held.reason: must be an ILLEGAL verdict's reason "
                  "(ACTION_FORBIDS_MOVE..COHERENCY), got UNKNOWN_MODEL"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_verdicts(0)->set_kind(v1::M42Verdict::KIND_UNSPECIFIED);
                  }),
                  "verdicts[0].kind: missing (OK, INVALID or ILLEGAL)"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(1)->mutable_unit_acted()->set_action(
                        v1::M42Action::KIND_UNSPECIFIED);
                  }),
                  "events[1].unit_acted.action: missing"));
  // Ids: characters, length, required; a structure's base may pass 64 bytes by ".base" only.
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) { p.mutable_verdicts(2)->set_unit("a b"); }),
                  "verdicts[2].unit: 'a b' is not an id"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(4)->mutable_model_moved()->set_model(std::string(65, 'm'));
                  }),
                  "events[4].model_moved.model: '" + std::string(64, 'm') + "...' is not an id"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(13)->mutable_close_combat_joined()->clear_enemy_unit();
                  }),
                  "events[13].close_combat_joined.enemy_unit: missing (an id is required)"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(9)->mutable_slow_going()->set_feature(std::string(65, 'h') +
                                                                           ".base");
                  }),
                  "events[9].slow_going.feature: '"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(12)->mutable_closest_enemy()->set_enemy(std::string(64, 'e') +
                                                                             ".base");
                  }),
                  "events[12].closest_enemy.enemy: '"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(15)->mutable_action_phase_ended()->set_player("blue\n");
                  }),
                  "events[15].action_phase_ended.player: 'blue?' is not an id"));
  // Numbers out of the ranges the engine gives.
  CHECK_EQ_MINI(ErrorsAfter([](v1::M42TurnResult& p) {
                  p.mutable_events(4)->mutable_model_moved()->set_to_x_thou(1'000'001);
                }),
                std::string("r.bin: events[4].model_moved.to_x_thou: must be -1000000..1000000, "
                            "got 1000001\n"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(4)->mutable_model_moved()->set_from_y_thou(INT64_MIN);
                  }),
                  "events[4].model_moved.from_y_thou: must be -1000000..1000000, got "
                  "-9223372036854775808"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(5)->mutable_model_moved()->set_to_floor(-1);
                  }),
                  "events[5].model_moved.to_floor: must be 0..1000, got -1"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(5)->mutable_model_moved()->set_length_thou(-1);
                  }),
                  "events[5].model_moved.length_thou: must be 0..28281451572, got -1"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(6)->mutable_model_turned()->set_facing_mdeg(360'000);
                  }),
                  "events[6].model_turned.facing_mdeg: must be 0..359999, got 360000"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(10)->mutable_difficult_going()->set_allowance(10'001);
                  }),
                  "events[10].difficult_going.allowance: must be 0..10000, got 10001"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(12)->mutable_closest_enemy()->set_distance_thou(-5);
                  }),
                  "events[12].closest_enemy.distance_thou: must be 0..2828428, got -5"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(14)->mutable_close_combat_joined()->set_distance_thou(
                        2'828'429);
                  }),
                  "events[14].close_combat_joined.distance_thou: must be 0..2828428"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(16)->mutable_action_phase_ended()->set_turn(0);
                  }),
                  "events[16].action_phase_ended.turn: must be 1..1000000000, got 0"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_verdicts(17)->set_limit(1'000'001);  // ENEMY_TOO_CLOSE
                  }),
                  "verdicts[17].limit: must be 0..1000000, got 1000001"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_verdicts(16)->set_value(-1);  // EXCEEDS_ALLOWANCE
                  }),
                  "verdicts[16].value: must be 0..28281451572, got -1"));
  // A verdict whose kind or arguments are not its reason's.
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_verdicts(14)->set_kind(v1::M42Verdict::OK);  // OFF_TABLE
                  }),
                  "verdicts[14].kind: must be ILLEGAL with reason OFF_TABLE, got OK"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_verdicts(0)->set_kind(v1::M42Verdict::INVALID);  // no reason
                  }),
                  "verdicts[0].kind: must be OK with reason REASON_NONE, got INVALID"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) { p.mutable_verdicts(1)->set_value(3); }),
                  "verdicts[1].value: not given with reason UNKNOWN_UNIT"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) { p.mutable_verdicts(0)->set_model("a1"); }),
                  "verdicts[0].model: not given with reason REASON_NONE"));
  CHECK_MINI(
      Says(ErrorsAfter([](v1::M42TurnResult& p) { p.mutable_verdicts(11)->clear_other(); }),
           "verdicts[11].other: missing (reason IMPASSABLE names a feature or another model)"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) { p.mutable_verdicts(21)->clear_limit(); }),
                  "verdicts[21].limit: missing (reason COHERENCY names a limit)"));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) { p.mutable_verdicts(14)->clear_model(); }),
                  "verdicts[14].model: missing (reason OFF_TABLE names a model)"));
  // An event with no body; fire given with another action than ADVANCE.
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) { p.add_events(); }),
                  "events[17]: no body (one of unit_acted, "));
  CHECK_MINI(Says(ErrorsAfter([](v1::M42TurnResult& p) {
                    p.mutable_events(1)->mutable_unit_acted()->set_fire(v1::M42Action::BEFORE_MOVE);
                  }),
                  "events[1].unit_acted.fire: only an ADVANCE says when it fires"));
  // Every problem is reported, not only the first.
  const std::string all = ErrorsAfter([](v1::M42TurnResult& p) {
    p.mutable_verdicts(2)->set_unit("");
    p.mutable_events(6)->mutable_model_turned()->set_facing_mdeg(-1);
    p.mutable_events(16)->mutable_action_phase_ended()->set_turn(-1);
  });
  CHECK_EQ_MINI(static_cast<int>(std::count(all.begin(), all.end(), '\n')), 3);
}

}  // namespace
}  // namespace pbem::m42
