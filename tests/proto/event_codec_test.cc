// Events in both formats of pbem.v1.TurnResult: format 2 (a typed body per kind) round-trips
// every kind; format-1 bytes (args) still decode to the same engine events; a format-2 event
// without its body, or with another kind's, is refused naming the field.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "proto/codec/codec.h"
#include "tests/proto/test_data.h"

namespace pbem::codec {
namespace {

// Sets every field of a payload to a value no other field has (optional ones present), so a
// field written into another's place decodes differently. Sides and levels are enums on the
// wire: they get names the engine gives, alternating.
struct DistinctFiller {
  int next = 0;

  void operator()(const char*, std::int64_t& n) {
    ++next;
    n = next % 2 ? next : -next;
  }
  void operator()(const char* name, std::string& s) {
    const std::string field = name;
    ++next;
    if (field == "side") {
      s = next % 2 ? "blue" : "orange";
    } else if (field == "level") {
      s = "tactical";
    } else {
      s = field + "-" + std::to_string(next);
    }
  }
  template <typename T>
  void operator()(const char* name, std::optional<T>& value) {
    (*this)(name, value.emplace());
  }
  template <typename T>
  void operator()(const char*, T& nested) {
    T::Fields(nested, *this);
  }
};

template <std::size_t I = 0>
void AddOneEventPerKind(std::vector<engine::Event>& events, DistinctFiller& filler) {
  if constexpr (I < std::variant_size_v<engine::EventBody>) {
    engine::Event e;
    e.phase = engine::Phase::kCombat;
    e.unit = engine::UnitId{static_cast<std::int32_t>(I % 5)};
    e.hexes = {*engine::ParseLabel("0102")};
    e.body = engine::EventBody(std::in_place_index<I>);
    std::visit([&filler](auto& fields) { std::decay_t<decltype(fields)>::Fields(fields, filler); },
               e.body);
    if (e.kind() == engine::EventKind::kDie) {
      e.die = engine::DieRoll{engine::Die::kD4, 3, "marsh_stuck_test"};
    }
    events.push_back(std::move(e));
    AddOneEventPerKind<I + 1>(events, filler);
  }
}

engine::TurnResult OneEventPerKind(const engine::Scenario& s) {
  engine::TurnResult result;
  result.next_state = engine::InitialState(s, "g1");
  DistinctFiller filler;
  AddOneEventPerKind(result.events, filler);
  REQUIRE(result.events.size() == engine::kEventKindCount);
  return result;
}

// One event of each kind on the skirmish scenario, and the result encoded in either format.
struct OneOfEach {
  engine::Ruleset rs = testing::MiniRuleset();
  engine::Scenario s = testing::Skirmish(rs);
  engine::TurnResult result = OneEventPerKind(s);

  pbem::v1::TurnResult Encoded(TurnResultFormat format) const {
    return TurnResultToProto(result, s, 2, engine::Side::kOrange, format);
  }
};

// Through the binary bytes and back to engine values.
engine::TurnResult Decoded(const pbem::v1::TurnResult& proto, const engine::Scenario& s) {
  pbem::v1::TurnResult parsed;
  REQUIRE(
      ParseMessage(SerializeMessage(proto, Format::kBinary), Format::kBinary, "r", parsed).ok());
  auto back = TurnResultFromProto(parsed, s, "result");
  INFO(back.ErrorText());
  REQUIRE(back.ok());
  return std::move(back).value();
}

void CheckSameEvents(const std::vector<engine::Event>& expected,
                     const std::vector<engine::Event>& actual) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("event " << engine::EventKindName(expected[i].kind()));
    CHECK(actual[i].kind() == expected[i].kind());
    CHECK(actual[i].phase == expected[i].phase);
    CHECK(actual[i].unit == expected[i].unit);
    CHECK(actual[i].hexes == expected[i].hexes);
    // Every field, in the table's order, as text.
    CHECK(engine::EventArgs(actual[i].body) == engine::EventArgs(expected[i].body));
    CHECK(actual[i].die.has_value() == expected[i].die.has_value());
  }
}

TEST_CASE("format 2: every event kind round-trips with each field set", "[events]") {
  const OneOfEach one;
  const pbem::v1::TurnResult proto = one.Encoded(TurnResultFormat::kTyped);
  CHECK(proto.format_version() == 2);
  for (const pbem::v1::Event& e : proto.events()) {
    INFO(e.kind());
    CHECK(e.args_size() == 0);
    CHECK(e.body_case() != pbem::v1::Event::BODY_NOT_SET);
  }
  CHECK(proto.events(17).turn_end().side() != pbem::v1::SIDE_UNSPECIFIED);
  CHECK(proto.events(18).game_end().level() == pbem::v1::VICTORY_TACTICAL);
  CHECK(proto.events(9).combat().steps().defender().water().rfind("water-", 0) == 0);
  CheckSameEvents(one.result.events, Decoded(proto, one.s).events);
  // The default is format 2.
  CHECK(TurnResultToProto(one.result, one.s, 2, engine::Side::kOrange).format_version() == 2);
}

TEST_CASE("format 1 bytes still decode to the same engine events", "[events]") {
  const OneOfEach one;
  const pbem::v1::TurnResult proto = one.Encoded(TurnResultFormat::kArgs);
  CHECK(proto.format_version() == 1);
  for (const pbem::v1::Event& e : proto.events()) {
    CHECK(e.body_case() == pbem::v1::Event::BODY_NOT_SET);
  }
  CHECK(proto.events(3).args(0).rfind("target-", 0) == 0);
  CheckSameEvents(one.result.events, Decoded(proto, one.s).events);
  // A result written before format_version existed (absent) is format 1 too.
  pbem::v1::TurnResult unversioned = proto;
  unversioned.clear_format_version();
  CheckSameEvents(one.result.events, Decoded(unversioned, one.s).events);
}

TEST_CASE("a format-1 result in the current format is the one written in format 2", "[events]") {
  const OneOfEach one;
  const pbem::v1::TurnResult old = one.Encoded(TurnResultFormat::kArgs);
  const pbem::v1::TurnResult typed = one.Encoded(TurnResultFormat::kTyped);
  const auto upgraded = TurnResultInCurrentFormat(old, "result");
  INFO(upgraded.ErrorText());
  REQUIRE(upgraded.ok());
  CHECK(SerializeMessage(upgraded.value(), Format::kBinary) ==
        SerializeMessage(typed, Format::kBinary));
  const auto same = TurnResultInCurrentFormat(typed, "result");
  REQUIRE(same.ok());
  CHECK(SerializeMessage(same.value(), Format::kBinary) ==
        SerializeMessage(typed, Format::kBinary));

  pbem::v1::TurnResult bad = old;
  bad.mutable_events(4)->set_args(0, "two");
  const auto refused = TurnResultInCurrentFormat(bad, "result");
  REQUIRE_FALSE(refused.ok());
  CHECK_THAT(refused.ErrorText(),
             Catch::Contains("result: events[4]: args: move_step.cost: 'two' is not a whole "
                             "number"));
}

std::string DecodeError(const pbem::v1::TurnResult& proto, const engine::Scenario& s) {
  const auto back = TurnResultFromProto(proto, s, "result");
  REQUIRE_FALSE(back.ok());
  return back.ErrorText();
}

TEST_CASE("a format-2 event without its body, or with another kind's, is refused", "[events]") {
  const OneOfEach one;
  const engine::Scenario& s = one.s;
  const pbem::v1::TurnResult good = one.Encoded(TurnResultFormat::kTyped);
  REQUIRE(good.events(9).kind() == "combat");

  pbem::v1::TurnResult missing = good;
  missing.mutable_events(9)->clear_body();
  CHECK_THAT(DecodeError(missing, s),
             Catch::Contains("result: events[9]: body: missing (kind 'combat' needs its combat "
                             "body)"));

  pbem::v1::TurnResult other = good;
  *other.mutable_events(9)->mutable_charge() = good.events(7).charge();
  CHECK_THAT(DecodeError(other, s),
             Catch::Contains("events[9]: body: charge given for kind 'combat' (it needs combat)"));

  pbem::v1::TurnResult nested = good;
  nested.mutable_events(9)->mutable_combat()->mutable_steps()->clear_attacker();
  CHECK_THAT(DecodeError(nested, s), Catch::Contains("events[9]: body: combat.steps.attacker: "
                                                     "missing"));

  pbem::v1::TurnResult side = good;
  side.mutable_events(17)->mutable_turn_end()->set_side(pbem::v1::SIDE_UNSPECIFIED);
  CHECK_THAT(DecodeError(side, s),
             Catch::Contains("events[17]: body: turn_end.side: unspecified or unknown Side 0"));

  pbem::v1::TurnResult with_args = good;
  with_args.mutable_events(4)->add_args("2");
  CHECK_THAT(DecodeError(with_args, s), Catch::Contains("events[4]: args: not used in format 2"));

  pbem::v1::TurnResult old_with_body = one.Encoded(TurnResultFormat::kArgs);
  *old_with_body.mutable_events(4)->mutable_move_step() = good.events(4).move_step();
  CHECK_THAT(DecodeError(old_with_body, s),
             Catch::Contains("events[4]: body: not used in format 1"));

  pbem::v1::TurnResult newer = good;
  newer.set_format_version(3);
  CHECK_THAT(DecodeError(newer, s),
             Catch::Contains("format_version: 3 is newer than this program knows (2)"));
}

}  // namespace
}  // namespace pbem::codec
