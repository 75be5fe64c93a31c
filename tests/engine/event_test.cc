// The typed event payloads (engine/morne_plaine/event.h) and their positional text form, the `args`
// of pbem.v1.Event: written in the table's order, read back to the same payload, and a stored form
// that does not fit refused with the field named (stored results are untrusted).
#include <string>
#include <variant>
#include <vector>

#include "engine/morne_plaine/turn_result.h"
#include "tests/engine/mini_test.h"

namespace pbem::engine {
namespace {

using Text = std::vector<std::string>;

std::string Problem(EventKind kind, const Text& args) {
  const auto body = EventBodyFromArgs(kind, args);
  const auto* problem = std::get_if<std::string>(&body);
  return problem != nullptr ? *problem : std::string("(decoded)");
}

TEST_CASE_MINI(EventArgsFollowTheTableOrder) {
  CHECK_MINI(EventArgs(payload::MoveStep{2, 1, "road"}) == (Text{"2", "1", "road"}));
  CHECK_MINI(EventArgs(payload::TurnEnd{3, "orange"}) == (Text{"3", "orange"}));
  CHECK_MINI(EventArgs(payload::Die{}).empty());
  CHECK_MINI(EventArgs(payload::Die{4}) == (Text{"4"}));
  const payload::Strength s{5, 7, 7, 3, "woods", "stream"};
  CHECK_MINI(EventArgs(payload::Support{"defensive", 3, s}) ==
             (Text{"defensive", "3", "5", "7", "7", "3", "woods", "stream"}));
  CHECK_MINI(EventArgs(payload::VictoryPoints{"strength", "blue", 2,
                                              payload::LostStrength{"0", "8/31"}}) ==
             (Text{"strength", "blue", "2", "0", "8/31"}));
  const payload::Combat combat{"o-i1", 4, 2, 4,      2,
                               "2:1",  5, 6, "0/1*", payload::CombatSteps{s, s, 1, 0, -1, "woods"}};
  CHECK_EQ_MINI(EventArgs(combat).size(), std::size_t{25});
}

TEST_CASE_MINI(EveryKindReadsBackItsOwnArgs) {
  const payload::Strength s{5, 7, 7, 3, "woods", "stream"};
  const std::vector<EventBody> bodies = {
      payload::CommandCheck{"out_of_command", "beyond_radius", 4},
      payload::Place{},
      payload::Die{2},
      payload::Bombard{"o-a1", 2, 1, 0, 3, 3, "hit"},
      payload::MoveStep{2, 1, "road"},
      payload::MoveEnd{0, "entered_enemy_zoc"},
      payload::Stuck{1, 2},
      payload::Charge{"o-i1"},
      payload::ReactionFire{"b-c1", 4, 4, 3, "miss"},
      payload::Combat{"o-i1", 4, 2, 4, 2, "2:1", 5, 6, "0/1*",
                      payload::CombatSteps{s, s, 1, 0, -1, "woods"}},
      payload::Loss{1, 0, "bombardment"},
      payload::MoraleTest{7, 9, 5, "failed", "charge"},
      payload::Retreat{"combat"},
      payload::Eliminated{"no_retreat"},
      payload::Advance{},
      payload::Rally{1, 4, "command+adjacent"},
      payload::ObjectiveTaken{"Moulin", "blue"},
      payload::TurnEnd{3, "orange"},
      payload::GameEnd{"draw", "draw", 2, 2},
      payload::FortTaken{"orange"},
      payload::Support{"offensive", 3, s},
      payload::MoraleGained{1, "elimination"},
      payload::VictoryPoints{"mill", "none", 0, std::nullopt},
  };
  CHECK_EQ_MINI(bodies.size(), kEventKindCount);
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const EventKind kind = static_cast<EventKind>(bodies[i].index());
    CHECK_EQ_MINI(bodies[i].index(), i);
    const Text args = EventArgs(bodies[i]);
    const auto back = EventBodyFromArgs(kind, args);
    REQUIRE_MINI(std::holds_alternative<EventBody>(back));
    CHECK_EQ_MINI(std::get<EventBody>(back).index(), i);
    CHECK_MINI(EventArgs(std::get<EventBody>(back)) == args);
  }
}

TEST_CASE_MINI(OldResultsWithoutTheDetailStillRead) {
  // pbem-engine 1 logged a combat's first nine fields and a support's first two.
  const auto combat =
      EventBodyFromArgs(EventKind::kCombat, {"o-i1", "4", "2", "4", "2", "2:1", "5", "6", "0/1*"});
  REQUIRE_MINI(std::holds_alternative<EventBody>(combat));
  const auto* c = std::get_if<payload::Combat>(&std::get<EventBody>(combat));
  REQUIRE_MINI(c != nullptr);
  CHECK_MINI(!c->steps.has_value());
  CHECK_EQ_MINI(c->cell, std::string("0/1*"));
  const auto support = EventBodyFromArgs(EventKind::kSupport, {"offensive", "3"});
  REQUIRE_MINI(std::holds_alternative<EventBody>(support));
  CHECK_MINI(!std::get<payload::Support>(std::get<EventBody>(support)).strength.has_value());
}

TEST_CASE_MINI(MalformedArgsNameTheField) {
  CHECK_EQ_MINI(Problem(EventKind::kTurnEnd, {"2x", "orange"}),
                std::string("args: turn_end.turn: '2x' is not a whole number"));
  CHECK_EQ_MINI(Problem(EventKind::kTurnEnd, {"", "orange"}),
                std::string("args: turn_end.turn: '' is not a whole number"));
  CHECK_EQ_MINI(Problem(EventKind::kMoveStep, {"2"}),
                std::string("args: move_step.points_left: missing (1 arguments)"));
  CHECK_EQ_MINI(Problem(EventKind::kAdvance, {"x"}),
                std::string("args: advance takes at most 0 arguments, not 1"));
  CHECK_EQ_MINI(Problem(EventKind::kTurnEnd, {"99999999999999999999", "blue"}),
                std::string("args: turn_end.turn: '99999999999999999999' is not a whole number"));
  // A detail begun must be whole: the nested field is named.
  CHECK_EQ_MINI(Problem(EventKind::kSupport, {"offensive", "3", "5", "x"}),
                std::string("args: support.strength.after_charge: 'x' is not a whole number"));
  CHECK_EQ_MINI(
      Problem(EventKind::kCombat, {"o-i1", "4", "2", "4", "2", "2:1", "5", "6", "0/1*", "5"}),
      std::string("args: combat.steps.attacker.after_charge: missing (10 arguments)"));
}

}  // namespace
}  // namespace pbem::engine
