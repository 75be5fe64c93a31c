// The French game's turn results through the codec (pbem.v1.WmeTurnResult,
// proto/pbem/v1/wme_turn_result.proto): real resolutions (the digest's worked set-ups, random
// charges, the bundled scenario through the registry) go out and come back equal in every
// format with the state's bytes; every event kind and reason code does too; the bytes are
// deterministic; and a stored result the engine could not have given is refused naming the
// field.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/system/registry.h"
#include "engine/system/wme.h"
#include "proto/codec/systems.h"
#include "proto/codec/wme_codec.h"
#include "tests/engine/mini_test.h"
#include "tests/engine/system/codec_parser.h"
#include "tests/engine/system/data_files.h"
#include "tests/engine/system/turn_result_check.h"
#include "tests/engine/wme/fixtures.h"
#include "tests/engine/wme/layouts.h"

namespace pbem::wme {
namespace {

using namespace testing;
using codec::Format;
using game_system::test::Bytes;
constexpr TroopType kInf = TroopType::kInfantry;

// What the tests saw come back: event kinds by variant index, reason codes.
struct Seen {
  std::set<std::size_t> kinds;
  std::set<Reason> reasons;
};

// ToProto, serialised in every format, parsed, FromProto: the same verdicts, events and state
// bytes each time.
void CheckRoundTrip(const codec::WmeTurnResultBody& want, Seen& seen) {
  const pbem::v1::WmeTurnResult proto =
      codec::WmeTurnResultToProto(want.verdicts, want.events, want.next_state);
  for (const Format format : {Format::kBinary, Format::kText, Format::kJson}) {
    pbem::v1::WmeTurnResult parsed;
    REQUIRE_MINI(
        codec::ParseMessage(codec::SerializeMessage(proto, format), format, "r", parsed).ok());
    const auto back = codec::WmeTurnResultFromProto(parsed);
    if (!back.ok()) std::fprintf(stderr, "%s", back.ErrorText().c_str());
    REQUIRE_MINI(back.ok());
    CHECK_MINI(back.value().verdicts == want.verdicts);
    CHECK_MINI(back.value().events == want.events);
    CHECK_MINI(back.value().next_state == want.next_state);
  }
  for (const Verdict& v : want.verdicts) seen.reasons.insert(v.reason);
  for (const Event& e : want.events) {
    seen.kinds.insert(e.index());
    if (const auto* held = std::get_if<UnitHeld>(&e)) seen.reasons.insert(held->reason);
  }
}

// The state after a resolution as the game system stores it.
std::string Encoded(const Game& g, const State& state) {
  const game_system::Registry registry = game_system::BuiltinRegistry();
  const game_system::GameSystem& system = **registry.Find("wme");
  const auto bytes = system.EncodeState(game_system::WmeSetupOf({g.ruleset, g.scenario}),
                                        game_system::WmeStateOf(state));
  if (!bytes.ok()) std::abort();
  return *bytes;
}

codec::WmeTurnResultBody Resolve(const Game& g, const TurnOrders& orders, DiceSource& dice) {
  PlayerTurnResult r = ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), orders, dice);
  return {r.verdicts, r.events, Encoded(g, r.next)};
}

// The worked set-ups of the engine's tests (tests/engine/wme): an evade through the ranks with
// its confusion tests, moves refused and held, a charge with a neighbour touched (WME-R52), a
// zone tie decided by a die (WME-T14), a charge with a supporter behind.
TEST_CASE_MINI(WmeTurnResultsOfWorkedCasesComeBackEqual) {
  Seen seen;
  const Game t12 = T12Game();
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    SeededDice dice(seed);
    CheckRoundTrip(Resolve(t12, {"blue", {EvadeThroughG()}, {}}, dice), seen);
  }
  MoveOrder stranger = EvadeThroughG();
  stranger.unit = "nobody";
  MoveOrder far = Advance("E", {{"E.1", {Translate(Cm(20), Cm(90))}}});
  ScriptedDice none({});
  CheckRoundTrip(Resolve(t12, {"blue", {stranger}, {far, ChargeAt("G", "E")}}, none), seen);

  Game contact;
  contact.Unit("S", "blue", kInf, {{Cm(100), Cm(30)}});
  contact.Unit("P", "blue", kInf, {{Cm(100), Cm(28)}});
  contact.Unit("R", "red", kInf, {{Cm(100), Cm(50), 270000}});
  contact.Unit("T5", "red", kInf, {{Cm(104), Cm(50), 270000}});
  ChargeOrder supported = ChargeAt("S", "R");
  supported.support = "P";
  CheckRoundTrip(Resolve(contact, {"blue", {}, {ChargeAt("S", "R")}}, none), seen);
  CheckRoundTrip(Resolve(contact, {"blue", {}, {supported}}, none), seen);

  Game tie;
  tie.Unit("T", "red", kInf, {{Cm(60), Cm(50), 0}, {Cm(60), Cm(54), 0}, {Cm(60), Cm(58), 0}});
  tie.Unit("B", "blue", kInf, {{Cm(68), Cm(41)}});
  ScriptedDice two({2});
  CheckRoundTrip(Resolve(tie, {"blue", {}, {ChargeAt("B", "T")}}, two), seen);

  CHECK_EQ_MINI(seen.kinds.size(), std::variant_size_v<Event>);  // play reaches every kind
  CHECK_MINI(seen.reasons.count(Reason::kUnknownUnit) == 1);
  CHECK_MINI(seen.reasons.count(Reason::kExceedsAllowance) == 1);
  CHECK_MINI(seen.reasons.count(Reason::kTargetNotEnemy) == 1);
}

// A point `forward` along `heading` and `left` of it from (x, y), in Milli.
std::pair<Milli, Milli> Offset(Milli x, Milli y, std::int64_t heading, Milli forward, Milli left) {
  const table::UnitVector f = table::HeadingVector(heading);
  const table::UnitVector l = table::LeftOf(f);
  const table::Int128 one{table::kUnitOne};
  const auto along = [&one](Milli a, std::int64_t fa, Milli b, std::int64_t la) {
    return static_cast<Milli>(table::RoundDiv(table::Int128{a} * fa + table::Int128{b} * la, one));
  };
  return {x + along(forward, f.x, left, l.x), y + along(forward, f.y, left, l.y)};
}

// Random charges (layouts.h's generator, a fixed seed): a line T, a charger C facing it from a
// random bearing, sometimes a supporter S behind C, sometimes another unit near T; whatever
// the engine makes of them comes back equal.
TEST_CASE_MINI(WmeTurnResultsOfRandomChargesComeBackEqual) {
  Layouts rng(20261127);
  Seen seen;
  int resolved = 0;
  for (int round = 0; round < 150; ++round) {
    Game g;
    const std::int64_t th = rng.Heading(false);
    g.Unit("T", "red", kInf, rng.Line(static_cast<int>(rng.Between(1, 3)), Cm(90), Cm(60), th));
    const std::int64_t bearing = rng.Between(0, 359999);
    const auto [cx, cy] = Offset(Cm(90), Cm(60), bearing, rng.Between(8000, 20000), 0);
    const std::int64_t ch = NormaliseHeading(bearing + 180000);
    g.Unit("C", "blue", kInf, rng.Line(static_cast<int>(rng.Between(1, 3)), cx, cy, ch));
    ChargeOrder order =
        ChargeAt("C", "T", rng.Between(0, 1) == 0 ? Reserve::kBehind : Reserve::kLine);
    if (rng.Between(0, 1) == 0) {
      const auto [sx, sy] = Offset(cx, cy, ch, -2000, rng.Between(-4, 4) * 1000);
      g.Unit("S", "blue", kInf, rng.Line(static_cast<int>(rng.Between(1, 3)), sx, sy, ch));
      order.support = "S";
    }
    if (rng.Between(0, 2) == 0) {
      const auto [ox, oy] = Offset(Cm(90), Cm(60), th, 0, rng.Between(6000, 12000));
      g.Unit("O", "red", kInf, rng.Line(1, ox, oy, th));
    }
    if (!InitialState(g.ruleset, g.scenario).state) continue;
    ScriptedDice dice({3, 4, 5});
    CheckRoundTrip(Resolve(g, {"blue", {}, {order}}, dice), seen);
    ++resolved;
  }
  CHECK_MINI(resolved > 100);
  CHECK_MINI(seen.kinds.count(Event(SupportingCharge{}).index()) == 1);
  CHECK_MINI(seen.kinds.count(Event(ChargeContact{}).index()) == 1);
  CHECK_MINI(seen.reasons.size() > 3);
}

// The bundled scenario through the codec's registry, as pbemd plays it: blue's turn (a move,
// a move too far, a charge out of reach, a unit unknown), then red's with no orders.
TEST_CASE_MINI(WmeTurnResultsOfTheBundledScenarioComeBackEqual) {
  const game_system::Registry registry = codec::SystemRegistry();
  const game_system::GameSystem& system = **registry.Find("wme");
  const auto setup = system.Load(game_system::test::BundledData("wme", "wme/palissade.textproto"));
  REQUIRE_MINI(setup.ok());
  game_system::State state = *system.InitialState(*setup, "g1");
  const TurnOrders blue{"blue",
                        {},
                        {Advance("b_inf1", {{"b_inf1.1", {Translate(Cm(56), Cm(25))}},
                                            {"b_inf1.2", {Translate(Cm(60), Cm(25))}},
                                            {"b_inf1.3", {Translate(Cm(64), Cm(25))}}}),
                         Advance("b_inf2", {{"b_inf2.1", {Translate(Cm(80), Cm(90))}}}),
                         ChargeAt("b_cav", "r_cav"), Advance("ghost", {})}};
  Seen seen;
  for (const TurnOrders& orders : {blue, TurnOrders{"red", {}, {}}}) {
    const auto r = system.ResolvePlayerTurn(*setup, state, game_system::WmeOrdersOf(orders), 11);
    REQUIRE_MINI(r.ok());
    codec::WmeTurnResultBody want;
    for (const game_system::Verdict& v : r->verdicts) {
      want.verdicts.push_back(*v.detail.As<Verdict>("wme"));
    }
    for (const game_system::Event& e : r->events) want.events.push_back(*e.detail.As<Event>("wme"));
    want.next_state = *system.EncodeState(*setup, r->next);
    CHECK_EQ_MINI(want.verdicts.size(), orders.orders.size());
    CheckRoundTrip(want, seen);
    // The whole envelope through the system (GameSystem::EncodeTurnResult / DecodeTurnResult):
    // its body is this one, with the player whose turn it was.
    const std::string bytes =
        game_system::test::CheckTurnResultRoundTrip(system, *setup, state, *r);
    pbem::v1::TurnResult envelope;
    REQUIRE_MINI(envelope.ParseFromString(bytes));
    CHECK_EQ_MINI(envelope.player(), orders.player);
    CHECK_MINI(codec::WmeTurnResultFromProto(envelope.wme()).value() == want);
    state = r->next;
  }
  CHECK_MINI(seen.kinds.count(Event(Moved{}).index()) == 1);
  CHECK_MINI(seen.reasons.count(Reason::kUnknownUnit) == 1);
}

// Every reason with the arguments verdict.h gives it, every event kind with the bounds' own
// values: what play does not reach comes back too.
codec::WmeTurnResultBody EverythingOnce() {
  codec::WmeTurnResultBody body;
  for (int r = 0; r <= static_cast<int>(kLastReason); ++r) {
    Verdict v;
    v.unit = "u" + std::to_string(r);
    v.reason = static_cast<Reason>(r);
    v.kind =
        r == 0 ? VerdictKind::kOk : (r % 2 == 0 ? VerdictKind::kIllegal : VerdictKind::kInvalid);
    if (r % 3 == 0) v.base = "u.1";
    if (r % 4 != 0) v.other = "E-2";
    if (r % 5 == 0) v.value = 0;
    if (r % 5 == 1) v.limit = 1'000'000'000'000;
    if (v.reason == Reason::kUnitCannotMove) v.detail = "engaged";
    if (v.reason == Reason::kSupportNotEligible) v.detail = "not_behind";
    body.verdicts.push_back(v);
  }
  body.events = {UnitMoved{"A", MoveKindOrder::kEvade, true},
                 UnitHeld{"B", Reason::kTargetNotEnemy},
                 Moved{"A.1", -5'368'709, 5'368'709, 0, 5'368'709, -5'368'709, 359'999, 0},
                 Moved{"A.2", 0, 0, 359'999, 1, -1, 1, 1'000'000'000'000},
                 FormationNow{"A", table::Formation::kNone},
                 FormationNow{"A", table::Formation::kColumn},
                 FormationNow{"A", table::Formation::kIrregular},
                 RanksPassedThrough{"A", "G_1"},
                 ConfusionTest{"G_1", 100, true},
                 PhaseEnded{"blue", 1'000'000'000},
                 ZoneTieRoll{"C", "T", 1},
                 ChargeContact{"C", "T", table::Zone::kRear, "C.2", "T.3"},
                 ChargeContact{"C", "T", table::Zone::kLeftFlank, "C.2", "T.3"},
                 ChargeContact{"C", "T", table::Zone::kRightFlank, "C.2", "T.3"},
                 AdditionalChargedUnit{"O"},
                 SupportingCharge{"S", "C"}};
  body.next_state = std::string("state 1 0\n\0\xff", 12);
  return body;
}

TEST_CASE_MINI(WmeTurnResultsOfEveryKindAndReasonComeBackEqual) {
  Seen seen;
  CheckRoundTrip(EverythingOnce(), seen);
  CHECK_EQ_MINI(seen.kinds.size(), std::variant_size_v<Event>);
  CHECK_EQ_MINI(seen.reasons.size(), static_cast<std::size_t>(kLastReason) + 1);
  CheckRoundTrip({}, seen);  // nothing at all
}

// The proto's codes are the engine's: same numbers, same names, none more.
TEST_CASE_MINI(WmeTurnResultReasonCodesAreTheEngines) {
  const auto* reasons = pbem::v1::WmeVerdict::Reason_descriptor();
  CHECK_EQ_MINI(reasons->value_count(), static_cast<int>(kLastReason) + 1);
  for (int r = 1; r <= static_cast<int>(kLastReason); ++r) {
    const auto* value = reasons->FindValueByNumber(r);
    REQUIRE_MINI(value != nullptr);
    CHECK_EQ_MINI(value->name(), std::string(ReasonName(static_cast<Reason>(r))));
  }
  CHECK_EQ_MINI(reasons->FindValueByNumber(0)->name(), std::string("NONE"));
}

TEST_CASE_MINI(WmeTurnResultsSerialiseDeterministically) {
  const codec::WmeTurnResultBody body = EverythingOnce();
  const std::string once =
      Bytes(codec::WmeTurnResultToProto(body.verdicts, body.events, body.next_state));
  const std::string twice =
      Bytes(codec::WmeTurnResultToProto(body.verdicts, body.events, body.next_state));
  CHECK_EQ_MINI(once, twice);
  pbem::v1::WmeTurnResult parsed;
  REQUIRE_MINI(parsed.ParseFromString(once));
  const auto back = codec::WmeTurnResultFromProto(parsed);
  REQUIRE_MINI(back.ok());
  CHECK_EQ_MINI(Bytes(codec::WmeTurnResultToProto(back.value().verdicts, back.value().events,
                                                  back.value().next_state)),
                once);
}

// The first error of `text` (a WmeTurnResult in text format) read back, or "" if accepted.
std::string ErrorOf(const std::string& text) {
  pbem::v1::WmeTurnResult proto;
  const auto parsed = codec::ParseMessage(text, Format::kText, "r", proto);
  if (!parsed.ok()) return "unparsed: " + parsed.ErrorText();
  const auto back = codec::WmeTurnResultFromProto(proto);
  return back.ok() ? std::string() : back.errors().front().ToString();
}

bool Says(const std::string& text, const std::string& part) {
  const std::string error = ErrorOf(text);
  if (error.find(part) != std::string::npos) return true;
  std::fprintf(stderr, "wanted '%s', got '%s'\n", part.c_str(), error.c_str());
  return false;
}

TEST_CASE_MINI(WmeTurnResultsTheEngineCouldNotGiveAreRefusedNamingTheField) {
  const std::string ok_verdict = "verdicts { unit: \"u1\" kind: OK }";
  CHECK_EQ_MINI(ErrorOf(ok_verdict), std::string());
  // Enums out of range, and those every result sets left out.
  CHECK_MINI(Says("verdicts { unit: \"u1\" kind: 7 }", "verdicts[0].kind: must be one of OK"));
  CHECK_MINI(Says("verdicts { unit: \"u1\" }", "verdicts[0].kind: missing"));
  CHECK_MINI(Says("verdicts { unit: \"u1\" kind: ILLEGAL reason: 40 }",
                  "verdicts[0].reason: unknown reason code 40"));
  CHECK_MINI(Says("verdicts { unit: \"u1\" kind: ILLEGAL }", "verdicts[0].reason: missing"));
  CHECK_MINI(
      Says("events { phase_ended { player: \"blue\" turn: 1 } }\n"
           "events { formation_now { unit: \"A\" formation: 9 } }",
           "events[1].formation_now.formation: must be one of LINE, COLUMN"));
  CHECK_MINI(
      Says("events { charge_contact { charger: \"C\" target: \"T\" base: \"C.1\" "
           "target_base: \"T.1\" } }",
           "events[0].charge_contact.side: missing"));
  CHECK_MINI(Says("events { unit_moved { unit: \"A\" kind: KIND_UNSPECIFIED } }",
                  "events[0].unit_moved.kind: missing"));
  CHECK_MINI(Says("events { unit_held { unit: \"A\" reason: 99 } }",
                  "events[0].unit_held.reason: unknown reason code 99"));
  // Ids as the orders' codec reads them.
  CHECK_MINI(Says("verdicts { unit: \"u 1\" kind: OK }", "verdicts[0].unit: 'u 1' is not an id"));
  CHECK_MINI(Says("verdicts { kind: OK }", "verdicts[0].unit: missing (an id is required)"));
  CHECK_MINI(Says("verdicts { unit: \"u\" kind: ILLEGAL reason: OFF_TABLE base: \"" +
                      std::string(65, 'b') + "\" }",
                  "verdicts[0].base: '"));
  CHECK_MINI(Says("events { supporting_charge { supporter: \"S\" charger: \"C\\n\" } }",
                  "events[0].supporting_charge.charger: 'C?' is not an id"));
  // Numbers beyond what the engine gives.
  CHECK_MINI(
      Says("events { phase_ended { player: \"blue\" turn: 1 } } events { phase_ended { "
           "player: \"blue\" turn: 1 } } events { phase_ended { player: \"blue\" turn: 1 "
           "} }\nevents { moved { base: \"A.1\" to_x: 5368710 } }",
           "events[3].moved.to_x: must be -5368709..5368709, got 5368710"));
  CHECK_MINI(Says("events { moved { base: \"A.1\" from_heading_mdeg: 360000 } }",
                  "events[0].moved.from_heading_mdeg: must be 0..359999, got 360000"));
  CHECK_MINI(Says("events { moved { base: \"A.1\" travelled: -1 } }",
                  "events[0].moved.travelled: must be 0..1000000000000, got -1"));
  CHECK_MINI(Says("events { confusion_test { unit: \"G\" roll: 0 } }",
                  "events[0].confusion_test.roll: must be 1..100, got 0"));
  CHECK_MINI(Says("events { zone_tie_roll { charger: \"C\" target: \"T\" roll: 101 } }",
                  "events[0].zone_tie_roll.roll: must be 1..100, got 101"));
  CHECK_MINI(Says("events { phase_ended { player: \"blue\" } }",
                  "events[0].phase_ended.turn: must be 1..1000000000, got 0"));
  CHECK_MINI(
      Says("verdicts { unit: \"u\" kind: ILLEGAL reason: EXCEEDS_ALLOWANCE value: "
           "1000000000001 }",
           "verdicts[0].value: must be 0..1000000000000"));
  // Conditions as verdict.h lists them; an event without its body.
  CHECK_MINI(Says("verdicts { unit: \"u\" kind: ILLEGAL reason: UNIT_CANNOT_MOVE detail: \"x\" }",
                  "verdicts[0].detail: must be one of confused, engaged, got 'x'"));
  CHECK_MINI(Says("verdicts { unit: \"u\" kind: ILLEGAL reason: OFF_TABLE detail: \"moved\" }",
                  "verdicts[0].detail: not used by reason OFF_TABLE"));
  CHECK_MINI(Says("events { }", "events[0]: empty (one body"));
  CHECK_MINI(Says("verdicts { unit: \"u\" kind: OK detail: \"engaged\" }",
                  "verdicts[0].detail: not used by reason NONE, got 'engaged'"));
  std::string many;
  for (int i = 0; i < 2001; ++i) many += ok_verdict + "\n";
  CHECK_MINI(Says(many, "verdicts: needs 0..2000 entries, got 2001"));
  // Every problem is reported, not only the first.
  pbem::v1::WmeTurnResult two;
  two.add_events()->mutable_moved()->set_to_y(-9'000'000);
  two.add_verdicts();
  const auto refused = codec::WmeTurnResultFromProto(two);
  REQUIRE_MINI(!refused.ok());
  CHECK_MINI(refused.ErrorText().find("events[0].moved.to_y") != std::string::npos);
  CHECK_MINI(refused.ErrorText().find("events[0].moved.base: missing") != std::string::npos);
  CHECK_MINI(refused.ErrorText().find("verdicts[0].kind: missing") != std::string::npos);
}

}  // namespace
}  // namespace pbem::wme
