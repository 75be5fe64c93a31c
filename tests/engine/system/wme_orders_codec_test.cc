// The French game's orders through the codec (pbem.v1.WmeOrders,
// proto/pbem/v1/wme_orders.proto): the digest's own example (§5.1) reads as written; random
// orders of every shape go out and come back in every format unchanged (engine/wme has no bot
// to draw them, so the test draws them); and what the codec refuses is named by its field, in
// text with its line.
#include <cmath>
#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "engine/core/dice.h"
#include "proto/codec/wme_codec.h"
#include "tests/engine/mini_test.h"

namespace pbem::wme {
namespace {

// The digest's §5.1 example with its "..." left out, each entry in its own block.
constexpr char kDigestExample[] = R"(
initiative {                       # sub-phase 1, processed in the order written
  evade { unit: "u5" from: "x1"    # 'from' must be the nearest visible enemy within range
    allow_pass_through: "g1"
    base { id: "u5.2" leg { translate { x: 24 y: 10 } } }          # first base = nearest to x1
    base { id: "u5.1" leg { translate { x: 20 y: 10 } } }
    base { id: "u5.3" leg { translate { x: 28 y: 10 } } }
  }
}
initiative { charge { unit: "u3" target: "e2" envelop: true support: "u4" placement: AUTO } }
orders {
  move { unit: "u7" kind: ADVANCE
    base { id: "u7.1" leg { rotate { deg: -90 pivot: CENTRE } } leg { translate { x: 56 y: 50 } } }
    base { id: "u7.2" leg { rotate { deg: 12.5 pivot_point { x: 3.25 y: -1 } } } }
  }
}
orders { charge { unit: "u8" target: "e9" placement: EXPLICIT first_base: "u8.2" reserve: LINE
  base { id: "u8.2" leg { translate { x: 44 y: 58 } } } } }
)";

std::string Opt(const std::optional<std::string>& s) { return s ? *s : "-"; }

std::string BasesText(const std::vector<BaseOrder>& bases) {
  std::string out;
  for (const BaseOrder& b : bases) {
    out += "  " + b.id;
    for (const LegOrder& l : b.legs) {
      out += l.kind == LegOrder::Kind::kTranslate
                 ? " T(" + std::to_string(l.x) + "," + std::to_string(l.y) + ")"
                 : " R(" + std::to_string(l.deg_mdeg) + "," +
                       std::to_string(static_cast<int>(l.pivot)) + "," + std::to_string(l.x) + "," +
                       std::to_string(l.y) + ")";
    }
    out += "\n";
  }
  return out;
}

// Every field of the orders, as text (the engine's structs have no operator==).
std::string Text(const TurnOrders& o) {
  std::string out = o.player + "\n";
  for (const auto* list : {&o.initiative, &o.orders}) {
    out += list == &o.initiative ? "initiative\n" : "orders\n";
    for (const Entry& e : *list) {
      if (const auto* m = std::get_if<MoveOrder>(&e)) {
        out += "move " + m->unit + " " + std::to_string(static_cast<int>(m->kind)) + " from " +
               Opt(m->from) + " through";
        for (const std::string& id : m->allow_pass_through) out += " " + id;
        out += "\n" + BasesText(m->bases);
      } else {
        const auto& c = std::get<ChargeOrder>(e);
        out += "charge " + c.unit + " " + c.target + " " + (c.envelop ? "envelop" : "-") + " " +
               Opt(c.support) + " " + std::to_string(static_cast<int>(c.placement)) + " " +
               Opt(c.first_base) + " " + Opt(c.target_base) + " " +
               (c.reserve ? std::to_string(static_cast<int>(*c.reserve)) : "-") + "\n" +
               BasesText(c.bases);
      }
    }
  }
  return out;
}

TEST_CASE_MINI(WmeOrdersTheDigestsExampleReadsAsWritten) {
  const auto loaded =
      codec::ParseWmeOrders(kDigestExample, codec::Format::kText, "ordres.textproto", "nord");
  if (!loaded.ok()) std::fprintf(stderr, "%s", loaded.ErrorText().c_str());
  REQUIRE_MINI(loaded.ok());
  CHECK_EQ_MINI(Text(loaded.value().orders), std::string("nord\n"
                                                         "initiative\n"
                                                         "move u5 1 from x1 through g1\n"
                                                         "  u5.2 T(24000,10000)\n"
                                                         "  u5.1 T(20000,10000)\n"
                                                         "  u5.3 T(28000,10000)\n"
                                                         "charge u3 e2 envelop u4 0 - - -\n"
                                                         "orders\n"
                                                         "move u7 0 from - through\n"
                                                         "  u7.1 R(-90000,0,0,0) T(56000,50000)\n"
                                                         "  u7.2 R(12500,5,3250,-1000)\n"
                                                         "charge u8 e9 - - 1 u8.2 - 1\n"
                                                         "  u8.2 T(44000,58000)\n"));
}

std::string RandomId(engine::Pcg32& rng) {
  const char* const ids[] = {"u1", "u2.3", "x_9", "E-1", "g"};
  return ids[rng.Bounded(5)];
}
std::int64_t RandomMilli(engine::Pcg32& rng, std::int64_t limit) {
  return static_cast<std::int64_t>(rng.Bounded(static_cast<std::uint32_t>(2 * limit + 1))) - limit;
}
std::vector<BaseOrder> RandomBases(engine::Pcg32& rng) {
  std::vector<BaseOrder> bases(rng.Bounded(4));
  for (BaseOrder& b : bases) {
    b.id = RandomId(rng);
    b.legs.resize(rng.Bounded(4));
    for (LegOrder& l : b.legs) {
      l.kind = rng.Bounded(2) == 0 ? LegOrder::Kind::kTranslate : LegOrder::Kind::kRotate;
      if (l.kind == LegOrder::Kind::kRotate) {
        l.deg_mdeg = RandomMilli(rng, 360'000);
        l.pivot = static_cast<Pivot>(rng.Bounded(6));
        if (l.pivot != Pivot::kPoint) continue;
      }
      l.x = RandomMilli(rng, 1'000'000);
      l.y = RandomMilli(rng, 1'000'000);
    }
  }
  return bases;
}
std::vector<Entry> RandomEntries(engine::Pcg32& rng) {
  std::vector<Entry> entries(rng.Bounded(5));
  for (Entry& e : entries) {
    if (rng.Bounded(2) == 0) {
      MoveOrder m;
      m.unit = RandomId(rng);
      m.kind = rng.Bounded(2) == 0 ? MoveKindOrder::kAdvance : MoveKindOrder::kEvade;
      if (rng.Bounded(2) == 0) m.from = RandomId(rng);
      for (std::uint32_t i = rng.Bounded(3); i > 0; --i)
        m.allow_pass_through.push_back(RandomId(rng));
      m.bases = RandomBases(rng);
      e = m;
    } else {
      ChargeOrder c;
      c.unit = RandomId(rng);
      c.target = RandomId(rng);
      c.envelop = rng.Bounded(2) == 0;
      if (rng.Bounded(2) == 0) c.support = RandomId(rng);
      c.placement = rng.Bounded(2) == 0 ? Placement::kAuto : Placement::kExplicit;
      if (rng.Bounded(2) == 0) c.first_base = RandomId(rng);
      if (rng.Bounded(2) == 0) c.target_base = RandomId(rng);
      if (rng.Bounded(2) == 0) c.reserve = rng.Bounded(2) == 0 ? Reserve::kBehind : Reserve::kLine;
      c.bases = RandomBases(rng);
      e = c;
    }
  }
  return entries;
}

TEST_CASE_MINI(WmeOrdersOfEveryShapeComeBackUnchangedInEveryFormat) {
  engine::Pcg32 rng(20261127, 17);
  int compared = 0;
  int wrong = 0;
  for (int i = 0; i < 300; ++i) {
    TurnOrders orders;
    orders.player = "sud";
    orders.initiative = RandomEntries(rng);
    orders.orders = RandomEntries(rng);
    const pbem::v1::WmeOrders proto = codec::WmeOrdersToProto(orders);
    for (codec::Format format :
         {codec::Format::kText, codec::Format::kJson, codec::Format::kBinary}) {
      const auto back = codec::ParseWmeOrders(codec::SerializeMessage(proto, format), format,
                                              "random", orders.player);
      if (!back.ok()) std::fprintf(stderr, "%s", back.ErrorText().c_str());
      if (!back.ok() || Text(back.value().orders) != Text(orders)) ++wrong;
      ++compared;
    }
  }
  CHECK_EQ_MINI(wrong, 0);
  CHECK_EQ_MINI(compared, 900);
}

// "-0" is 0: the same orders whether they travelled as text, JSON or binary (protobuf's JSON
// printer drops a negative zero as a default value; the binary keeps its sign).
TEST_CASE_MINI(WmeOrdersANegativeZeroIsZeroInEveryFormat) {
  const auto loaded = codec::ParseWmeOrders(
      "orders { move { unit: \"u\" base { id: \"b\" leg { rotate { deg: -0 pivot_point { x: -0 "
      "y: 1 } } } } } }",
      codec::Format::kText, "o", "nord");
  REQUIRE_MINI(loaded.ok());
  const pbem::v1::WmeOrders& proto = loaded.value().proto;
  for (codec::Format format : {codec::Format::kJson, codec::Format::kBinary}) {
    pbem::v1::WmeOrders back;
    REQUIRE_MINI(
        codec::ParseMessage(codec::SerializeMessage(proto, format), format, "o", back).ok());
    CHECK_EQ_MINI(codec::SerializeMessage(back, codec::Format::kBinary),
                  codec::SerializeMessage(proto, codec::Format::kBinary));
  }
  CHECK_MINI(!std::signbit(proto.orders(0).move().base(0).leg(0).rotate().pivot_point().x()));
}

std::string ErrorOf(const std::string& text, codec::Format format = codec::Format::kText) {
  const auto loaded = codec::ParseWmeOrders(text, format, "ordres.textproto", "nord");
  return loaded.ok() ? std::string() : loaded.errors().front().ToString();
}

TEST_CASE_MINI(WmeOrdersTheCodecRefusesNamingTheField) {
  CHECK_EQ_MINI(
      ErrorOf("orders {\n  move { unit: \"u7\"\n    base { id: \"u7.1\" leg { translate { "
              "x: 1.0001 y: 2 } } }\n  }\n}\n"),
      std::string("ordres.textproto:3:41: orders[0].move.base[0].leg[0].translate.x: "
                  "1.0001 has more than 3 decimals (thousandths of a centimetre at "
                  "most)"));
  CHECK_MINI(ErrorOf("orders { move { unit: \"u7\" base { id: \"b\" leg { translate { x: -1000.5 "
                     "} } } } }")
                 .find("translate.x: must be -1000..1000 cm, got -1000.5") != std::string::npos);
  CHECK_MINI(ErrorOf("orders { move { unit: \"u7\" base { id: \"b\" leg { rotate { deg: 361 } } "
                     "} } }")
                 .find("rotate.deg: must be -360..360 degrees") != std::string::npos);
  CHECK_MINI(ErrorOf("orders { move { unit: \"u7\" base { id: \"b\" leg { rotate { deg: 10 pivot: "
                     "FL pivot_point { x: 1 y: 1 } } } } } }")
                 .find("rotate.pivot: give a pivot or a pivot_point, not both") !=
             std::string::npos);
  CHECK_MINI(ErrorOf("orders { move { unit: \"u7\" base { id: \"b\" leg { } } } }")
                 .find("leg[0]: empty (a translate or a rotate)") != std::string::npos);
  CHECK_MINI(
      ErrorOf("initiative { }").find("initiative[0]: empty (one of move, evade or charge)") !=
      std::string::npos);
  CHECK_MINI(ErrorOf("initiative { evade { unit: \"u1\" kind: ADVANCE } }")
                 .find("initiative[0].evade.kind: an evade is an EVADE") != std::string::npos);
  CHECK_MINI(
      ErrorOf("orders { charge { unit: \"u1\" } }").find("orders[0].charge.target: missing") !=
      std::string::npos);
  CHECK_MINI(ErrorOf("orders { charge { unit: \"u1\" target: \"e 1\" } }").find("is not an id") !=
             std::string::npos);
  CHECK_MINI(ErrorOf(R"({"orders":[{"move":{"unit":"u","base":[{"id":"b","leg":[)"
                     R"({"translate":{"x":"Infinity","y":0}}]}]}}]})",
                     codec::Format::kJson)
                 .find("translate.x: must be -1000..1000 cm, got inf") != std::string::npos);
  // Two kinds in one entry: the parser's own error (a oneof set twice), with its line.
  CHECK_MINI(ErrorOf("orders { move { unit: \"a\" } charge { unit: \"a\" target: \"b\" } }")
                 .find("ordres.textproto:1:") != std::string::npos);
}

}  // namespace
}  // namespace pbem::wme
