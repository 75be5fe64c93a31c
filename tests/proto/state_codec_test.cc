// Game states, events and turn results to and from messages.
#include <catch2/catch.hpp>

#include "proto/codec/codec.h"
#include "tests/proto/test_data.h"

namespace pbem::codec {
namespace {

using testing::Skirmish;

TEST_CASE("a state round-trips through its message", "[state]") {
  const engine::Ruleset rs = testing::MiniRuleset();
  const engine::Scenario s = Skirmish(rs);
  engine::GameState state = engine::InitialState(s, "g7");
  state.turn = 3;
  state.side_to_move = engine::Side::kOrange;
  state.units[0].hex = *engine::ParseLabel("0203");
  state.units[0].mv = 2;
  state.units[0].charged_targets.push_back(engine::UnitId{3});
  state.units[3].eliminated = true;
  state.units[3].hex.reset();
  state.objective_owners[*engine::ParseLabel("0505")] = engine::Side::kBlue;

  const pbem::v1::GameState proto = StateToProto(state, s);
  CHECK(proto.game_id() == "g7");
  CHECK(proto.scenario() == "skirmish");
  CHECK(proto.ruleset() == "mini");
  CHECK(proto.side_to_move() == pbem::v1::SIDE_ORANGE);
  CHECK(proto.units(0).charged_targets(0) == "o-inf-1");

  // Through the binary form too.
  pbem::v1::GameState parsed;
  REQUIRE(
      ParseMessage(SerializeMessage(proto, Format::kBinary), Format::kBinary, "s", parsed).ok());
  const auto back = StateFromProto(parsed, s);
  INFO(back.ErrorText());
  REQUIRE(back.ok());
  const engine::GameState& b = back.value();
  CHECK(b.turn == 3);
  CHECK(b.side_to_move == engine::Side::kOrange);
  CHECK(b.units[0].hex == state.units[0].hex);
  CHECK(b.units[0].mv == 2);
  REQUIRE(b.units[0].charged_targets.size() == 1);
  CHECK(b.units[0].charged_targets[0] == engine::UnitId{3});
  CHECK(b.units[3].eliminated);
  CHECK_FALSE(b.units[3].hex.has_value());
  CHECK(b.objective_owners == state.objective_owners);
  CHECK(b.fort_owners == state.fort_owners);
}

TEST_CASE("a state with unknown or missing units is refused, naming fields", "[state]") {
  const engine::Ruleset rs = testing::MiniRuleset();
  const engine::Scenario s = Skirmish(rs);
  pbem::v1::GameState proto = StateToProto(engine::InitialState(s, "g"), s);
  proto.mutable_units(1)->set_id("nobody");
  proto.mutable_units(2)->set_hex("9999");
  const auto back = StateFromProto(proto, s);
  REQUIRE_FALSE(back.ok());
  const std::string text = back.ErrorText();
  CHECK(text.find("units[1].id: unknown unit 'nobody'") != std::string::npos);
  CHECK(text.find("units[2].hex: hex 9999 is off the map") != std::string::npos);
  CHECK(text.find("unit 'b-gen-1' of the scenario is missing") != std::string::npos);
}

TEST_CASE("events and turn results name units and hexes like players do", "[state]") {
  const engine::Ruleset rs = testing::MiniRuleset();
  const engine::Scenario s = Skirmish(rs);
  engine::TurnResult result;
  result.next_state = engine::InitialState(s, "g9");
  result.message = "bonne chance";
  engine::Event step;
  step.phase = engine::Phase::kMovement;
  step.unit = engine::UnitId{0};
  step.hexes = {*engine::ParseLabel("0102"), *engine::ParseLabel("0202")};
  step.body = engine::payload::MoveStep{2, 1, "road"};
  engine::Event die;
  die.phase = engine::Phase::kMovement;
  die.body = engine::payload::Die{};
  die.die = engine::DieRoll{engine::Die::kD4, 3, "marsh_stuck_test"};
  result.events = {step, die};
  engine::OrderVerdict ok;
  ok.unit = "b-inf-1";
  result.verdicts = {ok};

  const pbem::v1::TurnResult p =
      TurnResultToProto(result, s, 1, engine::Side::kBlue, TurnResultFormat::kArgs);
  CHECK(p.format_version() == 1);
  CHECK(p.game_id() == "g9");
  CHECK(p.turn() == 1);
  CHECK(p.side() == pbem::v1::SIDE_BLUE);
  REQUIRE(p.events_size() == 2);
  CHECK(p.events(0).seq() == 1);
  CHECK(p.events(0).kind() == "move_step");
  CHECK(p.events(0).unit() == "b-inf-1");
  CHECK(p.events(0).hexes(1) == "0202");
  REQUIRE(p.events(0).args_size() == 3);
  CHECK(p.events(0).args(0) == "2");
  CHECK(p.events(0).args(1) == "1");
  CHECK(p.events(0).args(2) == "road");
  CHECK(p.events(1).die() == pbem::v1::DIE_D4);
  CHECK(p.events(1).value() == 3);
  CHECK(p.events(1).purpose() == "marsh_stuck_test");
  CHECK(p.verdicts(0).verdict() == pbem::v1::VERDICT_OK);
  CHECK(p.verdicts(0).reason() == "none");
  CHECK(p.next_state().units_size() == 5);
  CHECK(p.message() == "bonne chance");

  // Format 2 (the default): the same events, the payload named and typed, no args.
  const pbem::v1::TurnResult typed = TurnResultToProto(result, s, 1, engine::Side::kBlue);
  CHECK(typed.format_version() == 2);
  REQUIRE(typed.events_size() == 2);
  CHECK(typed.events(0).args_size() == 0);
  CHECK(typed.events(0).move_step().cost() == 2);
  CHECK(typed.events(0).move_step().points_left() == 1);
  CHECK(typed.events(0).move_step().basis() == "road");
  CHECK(typed.events(1).has_die_event());
  CHECK_FALSE(typed.events(1).die_event().has_stuck_chance());
  CHECK(typed.events(1).die() == pbem::v1::DIE_D4);
}

}  // namespace
}  // namespace pbem::codec
