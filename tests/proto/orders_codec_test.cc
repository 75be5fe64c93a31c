// OrdersFromProto: labels to hexes; what cannot be read becomes a problem on
// the order, never a failure.
#include <catch2/catch.hpp>

#include "proto/codec/codec.h"

namespace pbem::codec {
namespace {

pbem::v1::Orders Parse(const std::string& text) {
  const auto parsed = ParseOrders(text, Format::kText, "t.textproto");
  INFO(parsed.ErrorText());
  REQUIRE(parsed.ok());
  return parsed.value();
}

TEST_CASE("orders convert labels to hexes", "[orders]") {
  const engine::Orders o = OrdersFromProto(Parse(R"txt(
    game_id: "g" turn: 2 side: SIDE_ORANGE message: "hi"
    placements { unit: "p" hex: "0102" }
    bombardments { unit: "b" target: "0304" }
    moves { unit: "m" path: ["0101", "0201"] from: "0102" no_charge: true no_charge_at: "0101" }
    moves { unit: "d" destination: "1012" }
    attacks { attacker: "x" defender: "y" }
  )txt"));
  CHECK(o.game_id == "g");
  CHECK(o.turn == 2);
  REQUIRE(o.side.has_value());
  CHECK(*o.side == engine::Side::kOrange);
  CHECK(o.message == "hi");
  REQUIRE(o.placements.size() == 1);
  CHECK(o.placements[0].hex == *engine::ParseLabel("0102"));
  CHECK_FALSE(o.placements[0].problem.has_value());
  CHECK(o.bombardments[0].target == *engine::ParseLabel("0304"));
  REQUIRE(o.moves.size() == 2);
  CHECK(o.moves[0].path.size() == 2);
  CHECK(o.moves[0].from == engine::ParseLabel("0102"));
  CHECK(o.moves[0].no_charge);
  CHECK(o.moves[0].no_charge_at.size() == 1);
  CHECK_FALSE(o.moves[0].destination.has_value());
  CHECK(o.moves[1].destination == engine::ParseLabel("1012"));
  CHECK(o.attacks[0].attacker == "x");
  CHECK(o.attacks[0].defender == "y");
}

TEST_CASE("a bad label becomes a bad_hex_label problem on its order", "[orders]") {
  const engine::Orders o = OrdersFromProto(Parse(R"txt(
    side: SIDE_BLUE
    placements { unit: "p" hex: "01x2" }
    bombardments { unit: "b" target: "12345" }
    moves { unit: "m" path: ["0101", "nowhere", "0000"] }
    moves { unit: "ok" path: "0101" }
  )txt"));
  REQUIRE(o.placements[0].problem.has_value());
  CHECK(o.placements[0].problem->reason == engine::Reason::kBadHexLabel);
  REQUIRE(o.placements[0].problem->args.size() == 1);
  CHECK(std::get<std::string>(o.placements[0].problem->args[0]) == "01x2");
  REQUIRE(o.bombardments[0].problem.has_value());
  CHECK(std::get<std::string>(o.bombardments[0].problem->args[0]) == "12345");
  REQUIRE(o.moves[0].problem.has_value());
  CHECK(o.moves[0].problem->reason == engine::Reason::kBadHexLabel);
  CHECK(std::get<std::string>(o.moves[0].problem->args[0]) == "nowhere");
  CHECK_FALSE(o.moves[1].problem.has_value());
}

TEST_CASE("missing required fields become missing_field problems", "[orders]") {
  const engine::Orders o = OrdersFromProto(Parse(R"txt(
    placements { unit: "p" }
    attacks { attacker: "x" }
    moves { path: "0101" }
  )txt"));
  CHECK_FALSE(o.side.has_value());  // SIDE_UNSPECIFIED
  REQUIRE(o.placements[0].problem.has_value());
  CHECK(o.placements[0].problem->reason == engine::Reason::kMissingField);
  CHECK(std::get<std::string>(o.placements[0].problem->args[0]) == "hex");
  REQUIRE(o.attacks[0].problem.has_value());
  CHECK(std::get<std::string>(o.attacks[0].problem->args[0]) == "defender");
  REQUIRE(o.moves[0].problem.has_value());
  CHECK(std::get<std::string>(o.moves[0].problem->args[0]) == "unit");
}

TEST_CASE("verdicts carry reason codes and formatted arguments", "[orders]") {
  engine::OrderVerdict v;
  v.order_kind = engine::OrderKind::kMove;
  v.index = 2;
  v.unit = "b-i1";
  v.verdict = engine::VerdictKind::kInvalid;
  v.reason = engine::Reason::kPathNotAdjacent;
  v.args = {*engine::ParseLabel("0405"), *engine::ParseLabel("0607"), std::int64_t{1}};
  const pbem::v1::OrderVerdict p = VerdictToProto(v);
  CHECK(p.order_kind() == pbem::v1::ORDER_MOVE);
  CHECK(p.index() == 2);
  CHECK(p.unit() == "b-i1");
  CHECK(p.verdict() == pbem::v1::VERDICT_INVALID);
  CHECK(p.reason() == "path_not_adjacent");
  REQUIRE(p.args_size() == 3);
  CHECK(p.args(0) == "0405");
  CHECK(p.args(1) == "0607");
  CHECK(p.args(2) == "1");
  CHECK(FormatArg(std::string("name")) == "name");
}

}  // namespace
}  // namespace pbem::codec
