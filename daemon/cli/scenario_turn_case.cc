#include <algorithm>
#include <set>

#include "daemon/cli/scenario_parts.h"
#include "engine/core/dice.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/turn.h"
#include "engine/morne_plaine/validate_orders.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::cli::scenario {
namespace {

constexpr std::string_view kDefaultRuleset = "engine/rulesets/morne-plaine";
// The game id of the state a turn case runs against; orders may leave their
// game_id empty (then it is not checked) or name this one.
constexpr std::string_view kCaseGameId = "case";

bool ExpectIsEmpty(const v1::Expect& expect) {
  std::vector<const gpb::FieldDescriptor*> fields;
  expect.GetReflection()->ListFields(expect, &fields);
  return fields.empty();
}

std::string_view OrderKindLabel(v1::OrderKind kind) {
  switch (kind) {
    case v1::ORDER_PLACEMENT:
      return "placement";
    case v1::ORDER_BOMBARDMENT:
      return "bombardment";
    case v1::ORDER_MOVE:
      return "move";
    case v1::ORDER_ATTACK:
      return "attack";
    case v1::ORDER_HEADER:
      return "header";
    default:
      return "unspecified";
  }
}

std::string VerdictName(const v1::OrderVerdict& v) {
  return "verdicts[" + std::string(OrderKindLabel(v.order_kind())) + " " +
         std::to_string(v.index()) + "]";
}

// Expected verdicts are matched to actual ones by (order_kind, index); when
// several actual verdicts share the key (header verdicts), the first unused
// one that agrees on every set field is taken, else the first unused one.
void CompareVerdicts(const v1::Expect& expect, const std::vector<v1::OrderVerdict>& actual,
                     CaseOutcome& outcome) {
  const std::set<std::string> key_fields = {"order_kind", "index"};
  std::vector<bool> used(actual.size(), false);
  for (const v1::OrderVerdict& e : expect.verdicts()) {
    std::optional<std::size_t> pick;
    std::optional<std::size_t> first;
    for (std::size_t j = 0; j < actual.size(); ++j) {
      const v1::OrderVerdict& a = actual[j];
      if (used[j] || a.order_kind() != e.order_kind() || a.index() != e.index()) continue;
      if (!first) first = j;
      if (MatchesSetFields(e, a, key_fields)) {
        pick = j;
        break;
      }
    }
    if (!pick) pick = first;
    if (!pick) {
      outcome.mismatches.push_back(Mismatch(VerdictName(e), "a verdict " + ShortText(e), "none"));
      continue;
    }
    used[*pick] = true;
    for (std::string& line : DiffSetFields(e, actual[*pick], VerdictName(e), key_fields)) {
      outcome.mismatches.push_back(std::move(line));
    }
  }
  if (expect.has_verdict_count() && expect.verdict_count() != static_cast<int>(actual.size())) {
    outcome.mismatches.push_back(Mismatch("expect.verdict_count",
                                          Quote(std::to_string(expect.verdict_count())),
                                          Quote(std::to_string(actual.size()))));
    for (const v1::OrderVerdict& a : actual) {
      outcome.mismatches.push_back("  | " + VerdictName(a) + " " + ShortText(a));
    }
  }
}

// Expected events must appear in order; other events may come between them.
void CompareEvents(const v1::Expect& expect, const std::vector<v1::Event>& actual,
                   CaseOutcome& outcome) {
  std::size_t next = 0;
  for (int i = 0; i < expect.events_size(); ++i) {
    const v1::Event& e = expect.events(i);
    std::size_t j = next;
    while (j < actual.size() && !MatchesSetFields(e, actual[j], {})) ++j;
    if (j == actual.size()) {
      outcome.mismatches.push_back(Mismatch(
          "events[" + std::to_string(i) + "]",
          "an event " + ShortText(e) +
              (next > 0 ? " after event seq " + std::to_string(actual[next - 1].seq()) : ""),
          "none"));
      continue;
    }
    next = j + 1;
  }
}

// The actual state of a unit as an ExpectedUnit with every field set; the
// hex label is written `width` digits per number.
v1::ExpectedUnit ActualUnit(const std::string& id, const engine::UnitState& u, int width) {
  v1::ExpectedUnit a;
  a.set_id(id);
  a.set_hex(u.hex ? engine::FormatLabel(*u.hex, width) : std::string());
  a.set_cs(u.cs);
  a.set_mv(u.mv);
  a.set_eliminated(u.eliminated);
  a.set_in_command(u.in_command);
  a.set_stuck(u.stuck);
  a.set_moved_this_turn(u.moved_this_turn);
  a.set_bombarded_this_turn(u.bombarded_this_turn);
  a.set_reaction_fires(u.reaction_fires);
  a.set_victorious(u.victorious);
  return a;
}

// A case that stops because something it names does not load.
CaseOutcome LoadErrors(const std::string& what, const std::vector<codec::Error>& errors) {
  CaseOutcome outcome;
  outcome.errors.push_back(what);
  for (const std::string& e : ErrorStrings(errors)) outcome.errors.push_back("  | " + e);
  return outcome;
}

class TurnRunner {
 public:
  TurnRunner(const v1::ScenarioCase& sc, const fs::path& root, std::string source,
             RulesetCache& rulesets)
      : sc_(sc), root_(root), source_(std::move(source)), rulesets_(rulesets) {}

  CaseOutcome Run() {
    const v1::TurnCase& tc = sc_.turn();
    if (tc.mode() != v1::TURN_MODE_CHECK && tc.mode() != v1::TURN_MODE_RESOLVE) {
      return Error("turn.mode must be TURN_MODE_CHECK or TURN_MODE_RESOLVE");
    }
    const fs::path ruleset_dir =
        root_ / (sc_.ruleset().empty() ? std::string(kDefaultRuleset) : sc_.ruleset());
    const auto& ruleset = rulesets_.Get(ruleset_dir);
    if (!ruleset.ok()) {
      return LoadErrors("ruleset " + ruleset_dir.string() + " does not load:", ruleset.errors());
    }
    // Parameter overrides: merged over the ruleset's and validated again.
    std::optional<codec::LoadedRuleset> overridden;
    if (sc_.has_parameters()) {
      v1::Ruleset merged = ruleset.value().proto;
      merged.mutable_parameters()->MergeFrom(sc_.parameters());
      auto converted = codec::RulesetFromProto(merged, source_ + ": parameters");
      if (!converted.ok()) return LoadErrors("the parameters do not load:", converted.errors());
      overridden.emplace(std::move(converted).value());
    }
    const engine::Ruleset& rules = overridden ? overridden->ruleset : ruleset.value().ruleset;

    if (tc.has_scenario() == !tc.scenario_file().empty()) {
      return Error("turn: give either scenario or scenario_file");
    }
    const auto scenario =
        tc.has_scenario()
            ? codec::ScenarioFromProto(tc.scenario(), source_ + ": turn.scenario", rules)
            : codec::LoadScenarioFile(root_ / tc.scenario_file(), rules);
    if (!scenario.ok()) return LoadErrors("the scenario does not load:", scenario.errors());
    const engine::Scenario& sc = scenario.value().scenario;
    label_width_ = std::max<int>(
        2, static_cast<int>(std::to_string(std::max(sc.map.width(), sc.map.height())).size()));

    engine::GameState state = engine::InitialState(sc, std::string(kCaseGameId));
    if (tc.turn() != 0) state.turn = tc.turn();
    if (tc.side_to_move() != v1::SIDE_UNSPECIFIED) {
      const auto side = codec::SideFromProto(tc.side_to_move());
      if (!side) return Error("turn.side_to_move: not a side");
      state.side_to_move = *side;
    }
    for (int i = 0; i < tc.state_size(); ++i) {
      if (!ApplyOverride(tc.state(i), i, sc, state)) return std::move(outcome_);
    }
    if (!CheckExpectedUnits(sc)) return std::move(outcome_);

    const engine::Orders orders = codec::OrdersFromProto(tc.orders());
    if (tc.mode() == v1::TURN_MODE_RESOLVE) {
      std::vector<engine::ScriptedRoll> script;
      for (const v1::ScriptedDie& d : tc.dice()) {
        engine::ScriptedRoll roll;
        if (d.die() == v1::DIE_D4) roll.die = engine::Die::kD4;
        if (d.die() == v1::DIE_D6) roll.die = engine::Die::kD6;
        if (d.die() == v1::DIE_D9) roll.die = engine::Die::kD9;
        roll.value = d.value();
        script.push_back(roll);
      }
      engine::ScriptedDice dice(std::move(script));
      const engine::TurnResult result = engine::ResolvePlayerTurn(rules, sc, state, orders, dice);
      if (!dice.ok()) outcome_.mismatches.push_back("turn.dice: " + dice.problem());
      if (dice.remaining() > 0) {
        outcome_.mismatches.push_back("turn.dice: " + std::to_string(dice.remaining()) +
                                      " scripted rolls were not used");
      }
      // The catalogue's expected events are written in format 1 (kind, unit, hexes, args):
      // compared with the events in that format, and blessed in it.
      const v1::TurnResult proto = codec::TurnResultToProto(
          result, sc, state.turn, state.side_to_move, codec::TurnResultFormat::kArgs);
      const std::vector<v1::OrderVerdict> verdicts(proto.verdicts().begin(),
                                                   proto.verdicts().end());
      const std::vector<v1::Event> events(proto.events().begin(), proto.events().end());
      Compare(sc, result.next_state, verdicts, events);
      return std::move(outcome_);
    }

    std::vector<v1::OrderVerdict> verdicts;
    for (const engine::OrderVerdict& v : engine::ValidateOrders(rules, sc, state, orders)) {
      verdicts.push_back(codec::VerdictToProto(v));
    }
    const std::vector<v1::Event> events;  // checking orders changes nothing and logs nothing
    Compare(sc, state, verdicts, events);
    return std::move(outcome_);
  }

 private:
  CaseOutcome Error(std::string message) {
    outcome_.errors.push_back(std::move(message));
    return std::move(outcome_);
  }

  bool ApplyOverride(const v1::ExpectedUnit& o, int i, const engine::Scenario& sc,
                     engine::GameState& state) {
    const std::string where = "turn.state[" + std::to_string(i) + "]";
    const auto id = sc.FindUnit(o.id());
    if (!id) {
      outcome_.errors.push_back(where + ": unknown unit " + Quote(o.id()));
      return false;
    }
    engine::UnitState& u = state.unit(*id);
    if (o.has_hex()) {
      if (o.hex().empty()) {
        u.hex.reset();
      } else if (const auto hex = engine::ParseLabel(o.hex())) {
        u.hex = *hex;
      } else {
        outcome_.errors.push_back(where + ".hex: bad label " + Quote(o.hex()));
        return false;
      }
    }
    if (o.has_cs()) u.cs = o.cs();
    if (o.has_mv()) u.mv = o.mv();
    if (o.has_eliminated()) u.eliminated = o.eliminated();
    if (o.has_in_command()) u.in_command = o.in_command();
    if (o.has_stuck()) u.stuck = o.stuck();
    if (o.has_moved_this_turn()) u.moved_this_turn = o.moved_this_turn();
    if (o.has_bombarded_this_turn()) u.bombarded_this_turn = o.bombarded_this_turn();
    if (o.has_reaction_fires()) u.reaction_fires = o.reaction_fires();
    if (o.has_victorious()) u.victorious = o.victorious();
    return true;
  }

  bool CheckExpectedUnits(const engine::Scenario& sc) {
    for (int i = 0; i < sc_.expect().units_size(); ++i) {
      const v1::ExpectedUnit& e = sc_.expect().units(i);
      const std::string where = "expect.units[" + std::to_string(i) + "]";
      if (!sc.FindUnit(e.id())) {
        outcome_.errors.push_back(where + ": unknown unit " + Quote(e.id()));
      } else if (e.has_hex() && !e.hex().empty() && !engine::ParseLabel(e.hex())) {
        outcome_.errors.push_back(where + ".hex: bad label " + Quote(e.hex()));
      }
    }
    return outcome_.errors.empty();
  }

  void Compare(const engine::Scenario& sc, const engine::GameState& post,
               const std::vector<v1::OrderVerdict>& verdicts,
               const std::vector<v1::Event>& events) {
    const v1::Expect& expect = sc_.expect();
    v1::Expect actual;
    for (const v1::OrderVerdict& v : verdicts) *actual.add_verdicts() = v;
    actual.set_verdict_count(static_cast<int>(verdicts.size()));
    if (expect.events_size() > 0) {
      for (const v1::Event& e : events) *actual.add_events() = e;
    }
    for (const v1::ExpectedUnit& e : expect.units()) {
      const engine::UnitId id = *sc.FindUnit(e.id());
      const int width =
          e.has_hex() && !e.hex().empty() ? static_cast<int>(e.hex().size() / 2) : label_width_;
      v1::ExpectedUnit a = ActualUnit(e.id(), post.unit(id), width);
      for (std::string& line : DiffSetFields(e, a, "units[" + e.id() + "]", {"id"})) {
        outcome_.mismatches.push_back(std::move(line));
      }
      // Bless keeps the expectation partial: only the fields it names.
      std::vector<const gpb::FieldDescriptor*> all;
      a.GetReflection()->ListFields(a, &all);
      for (const gpb::FieldDescriptor* f : all) {
        if (f->name() != "id" && !e.GetReflection()->HasField(e, f)) {
          a.GetReflection()->ClearField(&a, f);
        }
      }
      *actual.add_units() = std::move(a);
    }
    CompareVerdicts(expect, verdicts, outcome_);
    CompareEvents(expect, events, outcome_);
    if (ExpectIsEmpty(expect)) outcome_.mismatches.push_back("expect: states nothing");
    outcome_.actual = std::move(actual);
  }

  const v1::ScenarioCase& sc_;
  const fs::path& root_;
  std::string source_;
  RulesetCache& rulesets_;
  int label_width_ = 2;
  CaseOutcome outcome_;
};

}  // namespace

CaseOutcome RunTurnCase(const v1::ScenarioCase& sc, const fs::path& root, std::string source,
                        RulesetCache& rulesets) {
  return TurnRunner(sc, root, std::move(source), rulesets).Run();
}

}  // namespace pbem::cli::scenario
