// M42's orders through the codec (pbem.v1.M42Orders, proto/pbem/v1/m42_orders.proto): the
// digest's own example (§5.1) reads as written; the soak bot's orders go out and come back in
// every format unchanged and resolve the same; every decimal of 3 places reads exactly; and
// what the codec refuses is named by its field, in text with its line.
#include <cstdio>
#include <string>
#include <vector>

#include "engine/m42/bot.h"
#include "engine/m42/canonical.h"
#include "engine/m42/resolve.h"
#include "engine/m42/scenarios.h"
#include "engine/m42/state.h"
#include "proto/codec/m42_codec.h"
#include "tests/engine/mini_test.h"

namespace pbem::m42 {
namespace {

// The digest's §5.1 example, unchanged but for a floor given on the ground.
constexpr char kDigestExample[] = R"(
action {
  unit: "alpha"
  kind: ADVANCE                 # ADVANCE | AT_THE_DOUBLE | OPEN_FIRE | GET_DOWN
  fire: AFTER_MOVE              # ADVANCE only
  model {
    id: "a2"
    path { x: 10 y: 16 } path { x: 10 y: 20 }
    face_deg: 90
  }
  model { id: "a1" path { x: 13 y: 16 } path { x: 13 y: 20 } }
  model { id: "a9" path { x: 31 y: 11 floor: 0 } path { x: 31 y: 11 floor: 1 } path { x: 32.125 y: 12.5 floor: 1 } }
}
action { unit: "bravo" kind: GET_DOWN }
)";

// Every field of the orders, as text (the engine's structs have no operator==).
std::string Text(const Orders& o) {
  std::string out = o.player + "\n";
  for (const UnitOrder& a : o.actions) {
    out += a.unit + " " + std::string(ActionName(a.kind)) + " " +
           std::to_string(static_cast<int>(a.fire)) + "\n";
    for (const ModelOrder& m : a.models) {
      out += "  " + m.id + " face " + (m.face_mdeg ? std::to_string(*m.face_mdeg) : "-");
      for (const PathVertex& v : m.path) {
        out += " (" + std::to_string(v.x_thou) + "," + std::to_string(v.y_thou) + "," +
               (v.floor ? std::to_string(*v.floor) : "-") + ")";
      }
      out += "\n";
    }
  }
  return out;
}

TEST_CASE_MINI(M42OrdersTheDigestsExampleReadsAsWritten) {
  const auto loaded =
      codec::ParseM42Orders(kDigestExample, codec::Format::kText, "orders.textproto", "blue");
  if (!loaded.ok()) std::fprintf(stderr, "%s", loaded.ErrorText().c_str());
  REQUIRE_MINI(loaded.ok());
  CHECK_EQ_MINI(Text(loaded.value().orders),
                std::string("blue\n"
                            "alpha ADVANCE 2\n"
                            "  a2 face 90000 (10000,16000,-) (10000,20000,-)\n"
                            "  a1 face - (13000,16000,-) (13000,20000,-)\n"
                            "  a9 face - (31000,11000,0) (31000,11000,1) (32125,12500,1)\n"
                            "bravo GET_DOWN 0\n"));
}

TEST_CASE_MINI(M42OrdersOfTheBotComeBackUnchangedInEveryFormat) {
  const Ruleset ruleset = DefaultRuleset();
  const Scenario scenario = PumpingStation();
  InitialStateResult initial = InitialState(ruleset, scenario);
  REQUIRE_MINI(initial.problems.empty());
  State state = *initial.state;
  int orders_seen = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Orders orders = BotOrders(ruleset, scenario, state, seed);
    const pbem::v1::M42Orders proto = codec::M42OrdersToProto(orders);
    for (codec::Format format :
         {codec::Format::kText, codec::Format::kJson, codec::Format::kBinary}) {
      const std::string bytes = codec::SerializeMessage(proto, format);
      const auto back = codec::ParseM42Orders(bytes, format, "bot", orders.player);
      if (!back.ok()) std::fprintf(stderr, "%s", back.ErrorText().c_str());
      REQUIRE_MINI(back.ok());
      CHECK_EQ_MINI(Text(back.value().orders), Text(orders));
      // The same player-turn, to the last event.
      CHECK_EQ_MINI(CanonicalText(ResolvePlayerTurn(ruleset, scenario, state, back.value().orders)),
                    CanonicalText(ResolvePlayerTurn(ruleset, scenario, state, orders)));
      ++orders_seen;
    }
    state = ResolvePlayerTurn(ruleset, scenario, state, orders).next;
  }
  CHECK_EQ_MINI(orders_seen, 36);
}

// Every thousandth written as a decimal of up to 3 places reads back as itself, in text and in
// JSON (sampled across the whole range, and all of the first inch and the ends).
TEST_CASE_MINI(M42OrdersEveryDecimalOfThreePlacesIsExact) {
  std::vector<std::int64_t> samples;
  for (std::int64_t t = -1000; t <= 1000; ++t) samples.push_back(t);
  for (std::int64_t t = -1'000'000; t <= 1'000'000; t += 997) samples.push_back(t);
  for (std::int64_t t : {-1'000'000LL, -999'999LL, 999'999LL, 1'000'000LL}) samples.push_back(t);
  int wrong = 0;
  for (const std::int64_t t : samples) {
    const std::int64_t a = t < 0 ? -t : t;
    char decimal[40];
    std::snprintf(decimal, sizeof decimal, "%s%lld.%03lld", t < 0 ? "-" : "",
                  static_cast<long long>(a / 1000), static_cast<long long>(a % 1000));
    const std::string text = std::string("action { unit: \"u\" kind: ADVANCE model { id: \"m\" ") +
                             "path { x: " + decimal +
                             " y: 0 } face_deg: " + (a <= 360'000 ? decimal : "0") + " } }";
    const std::string json = std::string(R"({"action":[{"unit":"u","kind":"ADVANCE","model":[)") +
                             R"({"id":"m","path":[{"x":)" + decimal + R"(,"y":0}]}]}]})";
    for (const auto& [bytes, format] :
         {std::pair{text, codec::Format::kText}, std::pair{json, codec::Format::kJson}}) {
      const auto loaded = codec::ParseM42Orders(bytes, format, "orders", "blue");
      if (!loaded.ok() || loaded.value().orders.actions[0].models[0].path[0].x_thou != t) {
        ++wrong;
        continue;
      }
      const auto& face = loaded.value().orders.actions[0].models[0].face_mdeg;
      if (format == codec::Format::kText && face != (a <= 360'000 ? t : 0)) ++wrong;
    }
  }
  CHECK_EQ_MINI(wrong, 0);
  CHECK_MINI(samples.size() > 4000);
}

// The first error of `text` (text format), or "" when it loads.
std::string ErrorOf(const std::string& text, codec::Format format = codec::Format::kText) {
  const auto loaded = codec::ParseM42Orders(text, format, "orders.textproto", "blue");
  return loaded.ok() ? std::string() : loaded.errors().front().ToString();
}

TEST_CASE_MINI(M42OrdersTheCodecRefusesNamingTheField) {
  const std::string head =
      "action {\n  unit: \"alpha\"\n  kind: ADVANCE\n  model {\n    id: \"a1\"\n";
  // A fourth decimal: at its line, with the field's path.
  CHECK_EQ_MINI(ErrorOf(head + "    path { x: 10.0005 y: 3 }\n  }\n}\n"),
                std::string("orders.textproto:6:12: action[0].model[0].path[0].x: 10.0005 has "
                            "more than 3 decimals (thousandths of an inch at most)"));
  CHECK_MINI(ErrorOf(head + "    path { x: 1000.001 y: 3 }\n  }\n}\n")
                 .find("action[0].model[0].path[0].x: must be -1000..1000 inches, got 1000") !=
             std::string::npos);
  CHECK_MINI(
      ErrorOf(head + "    face_deg: 360.5\n  }\n}\n").find("face_deg: must be -360..360 degrees") !=
      std::string::npos);
  CHECK_MINI(ErrorOf(head + "    face_deg: 12.3456\n  }\n}\n")
                 .find("face_deg: 12.3456 has more than 3 decimals (thousandths of a degree") !=
             std::string::npos);
  CHECK_MINI(ErrorOf(head + "    path { x: 1 y: 1 floor: 1001 }\n  }\n}\n")
                 .find("path[0].floor: must be 0..1000, got 1001") != std::string::npos);
  CHECK_MINI(ErrorOf("action { unit: \"alpha\" }").find("action[0].kind: missing") !=
             std::string::npos);
  CHECK_MINI(ErrorOf("action { unit: \"alpha\" kind: GET_DOWN fire: BEFORE_MOVE }")
                 .find("action[0].fire: only an ADVANCE says when it fires") != std::string::npos);
  CHECK_MINI(ErrorOf("action { kind: GET_DOWN }").find("action[0].unit: missing") !=
             std::string::npos);
  CHECK_MINI(ErrorOf("action { unit: \"a b\" kind: GET_DOWN }").find("is not an id") !=
             std::string::npos);
  // Not numbers at all, in JSON (protobuf's JSON reads "NaN" and "Infinity" into a double).
  CHECK_MINI(ErrorOf(R"({"action":[{"unit":"u","kind":"ADVANCE","model":[{"id":"m","path":[)"
                     R"({"x":"NaN","y":"-Infinity"}]}]}]})",
                     codec::Format::kJson)
                 .find("path[0].x: must be -1000..1000 inches, got nan") != std::string::npos);
  // Unknown fields and a kind that does not exist are the parser's errors, with their line.
  CHECK_MINI(ErrorOf("action { unit: \"u\" kind: RUN }").find("orders.textproto:1:") !=
             std::string::npos);
  // A refused order set names every problem, not just the first: the unit and the kind of
  // the first action, the kind of the second.
  const auto both = codec::ParseM42Orders("action { unit: \"\" } action { unit: \"x\" }",
                                          codec::Format::kText, "o", "blue");
  REQUIRE_MINI(!both.ok());
  CHECK_EQ_MINI(both.errors().size(), std::size_t{3});
}

}  // namespace
}  // namespace pbem::m42
