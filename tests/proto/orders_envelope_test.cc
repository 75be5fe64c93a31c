// The orders envelope (proto/pbem/v1/orders.proto): Morne Plaine's orders read as they always
// have (its body is the envelope's own fields), another system's body rides in `body`, in
// every format, and a game takes only its own system's body (OrdersSystem, OrdersBodyProblem,
// OrdersFromProto's wrong_system).
#include <catch2/catch.hpp>

#include "proto/codec/codec.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/systems.h"
#include "proto/codec/wme_codec.h"

namespace pbem::codec {
namespace {

pbem::v1::Orders Parse(const std::string& bytes, Format format) {
  const auto parsed = ParseOrders(bytes, format, "orders", nullptr);
  INFO(parsed.ErrorText());
  REQUIRE(parsed.ok());
  return parsed.value();
}

constexpr char kM42Envelope[] = R"txt(
  game_id: "g42" turn: 3 player: "blue" token: "secret" message: "à vous"
  m42 {
    action { unit: "alpha" kind: ADVANCE model { id: "a1" path { x: 1 y: 2 } path { x: 4.5 y: 2 } } }
    action { unit: "bravo" kind: GET_DOWN }
  }
)txt";

TEST_CASE("another system's body rides in the envelope in every format", "[orders][envelope]") {
  const pbem::v1::Orders text = Parse(kM42Envelope, Format::kText);
  CHECK(OrdersSystem(text) == "m42");
  CHECK(text.player() == "blue");
  for (Format format : {Format::kText, Format::kJson, Format::kBinary}) {
    INFO(FormatName(format));
    const pbem::v1::Orders back = Parse(SerializeMessage(text, format), format);
    CHECK(SerializeMessage(back, Format::kBinary) == SerializeMessage(text, Format::kBinary));
    const auto orders = M42OrdersFromProto(back.m42(), back.player(), "orders");
    INFO(orders.ErrorText());
    REQUIRE(orders.ok());
    REQUIRE(orders.value().actions.size() == 2);
    CHECK(orders.value().player == "blue");
    CHECK(orders.value().actions[0].models[0].path[1].x_thou == 4500);
  }
  // The JSON names the body after its system, as text does.
  CHECK(SerializeMessage(text, Format::kJson).find("\"m42\": {") != std::string::npos);
  // The canonical bytes keep the body and drop the token, as for Morne Plaine's.
  pbem::v1::Orders canonical;
  REQUIRE(canonical.ParseFromString(CanonicalOrders(text)));
  CHECK(canonical.token().empty());
  CHECK(canonical.m42().action_size() == 2);
}

TEST_CASE("a negative zero gives the canonical bytes of zero", "[orders][envelope]") {
  const pbem::v1::Orders minus = Parse(
      R"txt(game_id: "g" player: "blue" m42 { action { unit: "a" kind: ADVANCE
            model { id: "m" path { x: -0 y: -0.0 } face_deg: -0 } } })txt",
      Format::kText);
  const pbem::v1::Orders plus = Parse(
      R"txt(game_id: "g" player: "blue" m42 { action { unit: "a" kind: ADVANCE
            model { id: "m" path { x: 0 y: 0 } face_deg: 0 } } })txt",
      Format::kText);
  CHECK(CanonicalOrders(minus) == CanonicalOrders(plus));
  // And the JSON of it reads back to the same bytes.
  const pbem::v1::Orders json = Parse(SerializeMessage(minus, Format::kJson), Format::kJson);
  CHECK(CanonicalOrders(json) == CanonicalOrders(plus));
}

TEST_CASE("Morne Plaine's orders carry no body and are Morne Plaine's", "[orders][envelope]") {
  const pbem::v1::Orders mp =
      Parse(R"txt(game_id: "g" turn: 1 side: SIDE_BLUE moves { unit: "b-i1" path: "0303" })txt",
            Format::kText);
  CHECK(OrdersSystem(mp) == kMornePlaineSystem);
  CHECK_FALSE(OrdersBodyProblem(mp, kMornePlaineSystem).has_value());
  CHECK(OrdersFromProto(mp).other_system.empty());
  // Sent to an M42 game: the missing body is named.
  CHECK(OrdersBodyProblem(mp, "m42") ==
        std::optional<std::string>(
            "field m42: missing; this game plays m42 and its orders go in that field"));
}

TEST_CASE("a game takes only its own system's body", "[orders][envelope]") {
  const pbem::v1::Orders m42 = Parse(kM42Envelope, Format::kText);
  CHECK_FALSE(OrdersBodyProblem(m42, "m42").has_value());
  CHECK(OrdersBodyProblem(m42, kMornePlaineSystem) ==
        std::optional<std::string>(
            "field m42: the orders are written for m42; this game plays morne-plaine"));
  CHECK(
      OrdersBodyProblem(m42, "wme") ==
      std::optional<std::string>("field m42: the orders are written for m42; this game plays wme"));
  // Morne Plaine's fields beside another body: named, not ignored.
  pbem::v1::Orders mixed = m42;
  mixed.add_attacks()->set_attacker("b-i1");
  CHECK(OrdersBodyProblem(mixed, "m42") ==
        std::optional<std::string>("field attacks: Morne Plaine's orders beside the m42 body"));
  // Morne Plaine's rules refuse the whole set (a header verdict, engine/morne_plaine), whatever
  // path the orders took to them: the check, the turn job, `pbem orders check`.
  CHECK(OrdersFromProto(m42).other_system == "m42");
  const pbem::v1::Orders wme = Parse(
      R"json({"gameId":"g","turn":1,"player":"nord","wme":{"initiative":[{"evade":{"unit":"u5"}}]}})json",
      Format::kJson);
  CHECK(OrdersSystem(wme) == "wme");
  CHECK(OrdersFromProto(wme).other_system == "wme");
  const auto turn = WmeOrdersFromProto(wme.wme(), wme.player(), "orders");
  REQUIRE(turn.ok());
  CHECK(turn.value().initiative.size() == 1);
}

}  // namespace
}  // namespace pbem::codec
