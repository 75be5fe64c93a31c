#include "engine/morne_plaine/check_dry_run.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/core/dice.h"
#include "engine/morne_plaine/bombardment.h"
#include "engine/morne_plaine/turn.h"

namespace pbem::engine {

namespace {

// The dry run's dice: always the highest face. Any fixed draw would do:
// what a die decides is marked uncertain, never promised.
class FixedDice : public DiceSource {
 public:
  int Roll(Die die) override { return Faces(die); }
};

bool IsDie(const Event& e) { return e.kind() == EventKind::kDie; }

// `hexes` and every hex within `radius` of them (off the map included).
std::set<Hex> Around(const std::vector<Hex>& hexes, int radius) {
  std::set<Hex> area(hexes.begin(), hexes.end());
  std::vector<Hex> ring(area.begin(), area.end());
  for (int r = 0; r < radius; ++r) {
    std::vector<Hex> next;
    for (const Hex& h : ring) {
      for (const Hex& n : Neighbors(h)) {
        if (area.insert(n).second) next.push_back(n);
      }
    }
    ring = std::move(next);
  }
  return area;
}

}  // namespace

bool Uncertainty::Unit(const GameState& state, UnitId unit) const {
  if (everything_ || units_.count(unit.value) > 0) return true;
  const UnitState& us = state.unit(unit);
  return us.hex && hexes_.count(*us.hex) > 0;
}

bool Uncertainty::Near(const std::vector<Hex>& hexes, int radius) const {
  if (everything_) return true;
  if (hexes_.empty()) return false;
  for (const Hex& h : Around(hexes, radius)) {
    if (hexes_.count(h) > 0) return true;
  }
  return false;
}

void Uncertainty::AddArea(const Scenario& scenario, const GameState& state,
                          const std::vector<Hex>& hexes, int radius) {
  for (const Hex& h : Around(hexes, radius)) {
    if (!scenario.map.Contains(h)) continue;
    hexes_.insert(h);
    if (const auto unit = state.UnitAt(h)) units_.insert(unit->value);
  }
}

CheckDryRun::CheckDryRun(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                         const Orders& orders, Side side,
                         const std::vector<OrderVerdict>& placements)
    : ruleset_(ruleset), scenario_(scenario), orders_(orders), side_(side), state_(state) {
  ResetForPlayerTurn(scenario_, state_, side_);
  for (const OrderVerdict& v : placements) {
    if (v.order_kind != OrderKind::kPlacement || v.verdict != VerdictKind::kOk) continue;
    const PlacementOrder& p = orders_.placements[static_cast<std::size_t>(v.index)];
    state_.unit(*scenario_.FindUnit(p.unit)).hex = p.hex;
  }
  RunCommandCheck(ruleset_, scenario_, state_, side_, events_);
}

void CheckDryRun::Bombard(OrderVerdict& verdict) {
  if (verdict.verdict != VerdictKind::kOk) return;
  const BombardmentOrder& order = orders_.bombardments[static_cast<std::size_t>(verdict.index)];
  const auto target = state_.UnitAt(order.target);
  // An earlier shot may have eliminated the target (no_target), or not.
  const bool uncertain = uncertain_.Everything() || (target ? uncertain_.Unit(state_, *target)
                                                            : uncertain_.Near({order.target}, 0));
  const int mv_before = target ? state_.unit(*target).mv : 0;
  const std::size_t first = events_.size();
  FixedDice dice;
  BombardmentPhaseResult r = ResolveBombardmentPhase(ruleset_, scenario_, state_, side_, orders_,
                                                     {verdict}, dice, events_);
  verdict = std::move(r.verdicts.at(0));
  if (uncertain) {
    verdict.verdict = VerdictKind::kOk;
    verdict.reason = Reason::kDependsOnDice;
    verdict.args.clear();
    // Whether it fires, and so whether it may move (digest 3.1), is open.
    const UnitId firer = *scenario_.FindUnit(order.unit);
    uncertain_.AddUnit(firer);
    open_firers_.insert(firer.value);
  }
  const bool fired =
      std::any_of(events_.begin() + static_cast<std::ptrdiff_t>(first), events_.end(), IsDie);
  if (!fired || !target) return;
  // A shot costs its target at most twice loss_mv morale, MV first (digest
  // 3.4, 5.12), and changes nothing else. What later orders read of the
  // target is whether it may end demoralised (no zone of control) or
  // eliminated (no target, a free hex, the battery's elimination bonus):
  // only then is it uncertain. Leaders take the loss on CS.
  const auto it = worst_mv_.emplace(target->value, mv_before).first;
  it->second -= 2 * ruleset_.params.bombard.loss_mv;
  if (scenario_.unit(*target).is_leader() || it->second <= 0) {
    uncertain_.AddUnit(*target);
    uncertain_.AddArea(scenario_, state_, {order.target}, 0);
    if (ruleset_.params.elimination_bonus_scope == EliminationBonusScope::kAll) {
      uncertain_.AddUnit(*scenario_.FindUnit(order.unit));
    }
  }
}

std::vector<OrderVerdict> CheckDryRun::Move() {
  FixedDice dice;
  std::vector<OrderVerdict> out;
  ResolveMovementPhase(ruleset_, scenario_, state_, side_, orders_, dice, events_,
                       [&](const MoveOrderTrace& t) { out.push_back(JudgeMove(t)); });
  return out;
}

// The rules a move reads reach two hexes from its route at most: zones of
// control on the hexes it enters and leaves (one), the batteries that may
// react, themselves judged on the zones of control around them (two), and a
// charged unit's retreat hex (two).
constexpr int kMoveReach = 2;

OrderVerdict CheckDryRun::JudgeMove(const MoveOrderTrace& t) {
  OrderVerdict v = *t.verdict;
  const auto note = [&v](Reason reason, std::vector<Arg> args) {
    v.verdict = VerdictKind::kOk;
    v.reason = reason;
    v.args = std::move(args);
  };
  // Not understood, not the player's unit, a battery certain to have
  // fired: no die changes that.
  if (v.verdict == VerdictKind::kInvalid || v.reason == Reason::kNotYourUnit) return v;
  const MoveOrder& m = orders_.moves[static_cast<std::size_t>(t.index)];
  const UnitId unit = *scenario_.FindUnit(m.unit);
  if (v.reason == Reason::kBombardedCannotMove && open_firers_.count(unit.value) == 0) return v;
  std::vector<Hex> footprint = t.considered;
  if (t.start) footprint.push_back(*t.start);

  const bool uncertain_before = uncertain_.Everything() || uncertain_.Unit(state_, unit) ||
                                uncertain_.Near(footprint, kMoveReach);
  std::size_t first_die = events_.size();
  const Event* charge = nullptr;
  bool step_after_die = false;
  for (std::size_t i = t.first_event; i < events_.size(); ++i) {
    const Event& e = events_[i];
    if (IsDie(e) && first_die == events_.size()) first_die = i;
    if (e.kind() == EventKind::kCharge && charge == nullptr) charge = &e;
    if (e.kind() == EventKind::kMoveStep && first_die < i) step_after_die = true;
  }
  const bool dice_in_order = first_die < events_.size();

  if (uncertain_before) {
    note(Reason::kDependsOnDice, {});
  } else if (charge != nullptr) {
    note(Reason::kWillCharge,
         {charge->hexes.at(0), charge->hexes.at(1), charge->get<payload::Charge>()->target});
  } else if (dice_in_order && (v.verdict != VerdictKind::kOk || step_after_die)) {
    note(Reason::kDependsOnDice, {});
  } else if (t.destination && v.verdict == VerdictKind::kOk && !t.path.empty()) {
    std::vector<Arg> path(t.path.begin(), t.path.end());
    note(Reason::kViaPath, std::move(path));
  }

  // What this order makes uncertain for the ones after it.
  if (uncertain_before) {
    uncertain_.AddUnit(unit);
    // Drawn differently, the dice may send a destination order anywhere.
    if (t.destination) uncertain_.AddEverything();
    uncertain_.AddArea(scenario_, state_, footprint, kMoveReach);
  }
  if (dice_in_order) {
    uncertain_.AddUnit(unit);
    std::vector<Hex> touched = footprint;
    for (std::size_t i = first_die; i < events_.size(); ++i) {
      const Event& e = events_[i];
      if (e.unit) uncertain_.AddUnit(*e.unit);
      touched.insert(touched.end(), e.hexes.begin(), e.hexes.end());
    }
    uncertain_.AddArea(scenario_, state_, touched, kMoveReach);
  }
  return v;
}

}  // namespace pbem::engine
