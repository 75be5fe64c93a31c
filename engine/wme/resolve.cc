#include "engine/wme/resolve.h"

#include <algorithm>

#include "engine/table/formation.h"
#include "engine/wme/charge.h"
#include "engine/wme/validate.h"

namespace pbem::wme {
namespace {

void ConfusionTest(const Ruleset& ruleset, State& state, const std::string& unit, DiceSource& dice,
                   std::vector<Event>& events) {
  const int roll = dice.Roll(ruleset.confusion_die);
  const bool confused = roll <= ruleset.confusion_confused_if_le;
  if (confused) FindUnit(state, unit)->confused = true;
  events.push_back(wme::ConfusionTest{unit, roll, confused});
}

// §5.3 step 6 `Moved`, and the base takes its new pose.
void MoveBase(BaseState& base, const table::Rect& end, table::Coord travelled,
              std::vector<Event>& events) {
  events.push_back(Moved{base.id, NearestMilli(base.centre.x()), NearestMilli(base.centre.y()),
                         base.heading_mdeg, NearestMilli(end.centre().x()),
                         NearestMilli(end.centre().y()), NormaliseHeading(end.heading()),
                         NearestMilli(travelled)});
  base.centre = end.centre();
  base.heading_mdeg = NormaliseHeading(end.heading());
}

// §5.4 steps 9 and 11 (charge.h): every base of the front line takes its place, first base
// first, then the supporter's; the charger, its supporter and the target are engaged, and so is
// any other enemy unit a placed base of the charger touches (WME-R52).
void ExecuteCharge(const Ruleset& ruleset, State& state, const ChargeOrder& order,
                   Subphase subphase, const ChargeCheck& check, std::vector<Event>& events) {
  const FrontLine& line = *check.line;
  for (const PlacedBase& placed : line.bases) {
    MoveBase(state.bases[placed.base], placed.slot, placed.travel, events);
  }
  std::vector<table::Rect> rects;
  for (const PlacedBase& placed : line.bases) rects.push_back(placed.slot);
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  events.push_back(FormationNow{order.unit, table::Classify(rects, eps, ruleset.epsilon_deg)});
  UnitState& unit = *FindUnit(state, order.unit);
  (subphase == Subphase::kInitiative ? unit.moved_by_initiative : unit.moved_by_order) = true;
  unit.engaged = true;
  if (check.support) {  // step 9 (charge_support.cc): in the charge, never in enemy contact
    std::vector<table::Rect> behind;
    for (const PlacedBase& placed : check.support->bases) {
      MoveBase(state.bases[placed.base], placed.slot, placed.travel, events);
      behind.push_back(placed.slot);
    }
    events.push_back(
        FormationNow{check.support->unit, table::Classify(behind, eps, ruleset.epsilon_deg)});
    events.push_back(SupportingCharge{check.support->unit, order.unit});
    UnitState& supporter = *FindUnit(state, check.support->unit);
    (subphase == Subphase::kInitiative ? supporter.moved_by_initiative : supporter.moved_by_order) =
        true;
    supporter.engaged = true;
  }
  FindUnit(state, order.target)->engaged = true;
  events.push_back(ChargeContact{order.unit, order.target, *check.zone,
                                 state.bases[check.first->base].id,
                                 state.bases[check.first->target_base].id});
  for (UnitState& other : state.units) {
    if (other.owner == unit.owner || other.id == order.target) continue;
    for (std::size_t j : BasesOf(state, other.id)) {
      const table::Rect enemy = Footprint(state.bases[j]);
      const bool touched = std::any_of(rects.begin(), rects.end(), [&](const table::Rect& r) {
        return table::Touch(r, enemy, eps);
      });
      if (!other.engaged && touched) {
        other.engaged = true;
        events.push_back(AdditionalChargedUnit{other.id});
      }
    }
  }
}

// §5.3 step 6.
void Execute(const Ruleset& ruleset, State& state, const MoveOrder& order, Subphase subphase,
             const MoveCheck& check, DiceSource& dice, std::vector<Event>& events) {
  for (const PlannedBase& planned : check.bases) {
    MoveBase(state.bases[planned.index], planned.legs.end(), planned.travelled, events);
  }
  events.push_back(FormationNow{order.unit, check.formation});
  UnitState& unit = *FindUnit(state, order.unit);
  const bool by_initiative = subphase == Subphase::kInitiative;
  (by_initiative ? unit.moved_by_initiative : unit.moved_by_order) = true;
  events.push_back(UnitMoved{order.unit, order.kind, by_initiative});
  for (const std::string& crossed : check.crossed) {
    events.push_back(RanksPassedThrough{order.unit, crossed});
  }
  if (!check.crossed.empty()) {
    ConfusionTest(ruleset, state, order.unit, dice, events);
    for (const std::string& crossed : check.crossed) {
      ConfusionTest(ruleset, state, crossed, dice, events);
    }
  }
}

void ResolveEntry(const Ruleset& ruleset, const Scenario& scenario, State& state,
                  const std::string& player, const Entry& entry, Subphase subphase,
                  DiceSource& dice, PlayerTurnResult& result) {
  if (const ChargeOrder* charge = std::get_if<ChargeOrder>(&entry)) {
    const ChargeCheck check =
        CheckCharge(ruleset, scenario, state, player, *charge, subphase, dice);
    if (check.zone_roll) {
      result.events.push_back(ZoneTieRoll{charge->unit, charge->target, *check.zone_roll});
    }
    result.verdicts.push_back(check.verdict);
    if (check.verdict.kind == VerdictKind::kIllegal) {
      result.events.push_back(UnitHeld{charge->unit, check.verdict.reason});
    } else if (check.verdict.kind == VerdictKind::kOk) {
      ExecuteCharge(ruleset, state, *charge, subphase, check, result.events);
    }
    return;
  }
  const MoveOrder& order = std::get<MoveOrder>(entry);
  const MoveCheck check = CheckMove(ruleset, scenario, state, player, order, subphase);
  result.verdicts.push_back(check.verdict);
  if (check.verdict.kind == VerdictKind::kIllegal) {
    result.events.push_back(UnitHeld{order.unit, check.verdict.reason});
  } else if (check.verdict.kind == VerdictKind::kOk) {
    Execute(ruleset, state, order, subphase, check, dice, result.events);
  }
}

}  // namespace

PlayerTurnResult ResolvePlayerTurn(const Ruleset& ruleset, const Scenario& scenario,
                                   const State& state, const TurnOrders& orders, DiceSource& dice) {
  PlayerTurnResult result;
  result.next = state;
  for (const Entry& entry : orders.initiative) {
    ResolveEntry(ruleset, scenario, result.next, orders.player, entry, Subphase::kInitiative, dice,
                 result);
  }
  for (const Entry& entry : orders.orders) {
    ResolveEntry(ruleset, scenario, result.next, orders.player, entry, Subphase::kOrders, dice,
                 result);
  }
  result.events.push_back(PhaseEnded{orders.player, result.next.turn});
  for (UnitState& unit : result.next.units) {
    unit.moved_by_initiative = false;
    unit.moved_by_order = false;
  }
  if (!scenario.players.empty()) {
    result.next.active_player = (result.next.active_player + 1) % scenario.players.size();
    if (result.next.active_player == 0) ++result.next.turn;
  }
  return result;
}

std::vector<Verdict> CheckOrders(const Ruleset& ruleset, const Scenario& scenario,
                                 const State& state, const TurnOrders& orders, DiceSource& dice) {
  return ResolvePlayerTurn(ruleset, scenario, state, orders, dice).verdicts;
}

}  // namespace pbem::wme
