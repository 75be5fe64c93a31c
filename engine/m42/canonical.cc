#include "engine/m42/canonical.h"

#include <string_view>
#include <variant>

#include "engine/core/canonical.h"

namespace pbem::m42 {
namespace {

using Writer = engine::CanonicalWriter;

std::string_view FireName(Fire fire) {
  switch (fire) {
    case Fire::kUnset:
      return "unset";
    case Fire::kBeforeMove:
      return "before";
    case Fire::kAfterMove:
      return "after";
  }
  return "?";
}

struct EventFields {
  Writer& w;
  void operator()(const UnitActed& e) {
    w.Id(e.unit).Word(ActionName(e.action)).Word(FireName(e.fire));
  }
  void operator()(const UnitHeld& e) { w.Id(e.unit).Word(ReasonName(e.reason)); }
  void operator()(const ModelMoved& e) {
    w.Id(e.model).Int(e.from_x).Int(e.from_y).Int(e.from_floor);
    w.Int(e.to_x).Int(e.to_y).Int(e.to_floor).Int(e.length);
  }
  void operator()(const ModelTurned& e) { w.Id(e.model).Int(e.facing_mdeg); }
  void operator()(const SlowGoing& e) { w.Id(e.model).Id(e.feature); }
  void operator()(const DifficultGoing& e) { w.Id(e.model).Id(e.feature).Int(e.allowance); }
  void operator()(const ClosestEnemy& e) { w.Id(e.model).Id(e.enemy).Int(e.distance); }
  void operator()(const CloseCombatJoined& e) { w.Id(e.unit).Id(e.enemy_unit).Int(e.distance); }
  void operator()(const ActionPhaseEnded& e) { w.Id(e.player).Int(e.turn); }
};

}  // namespace

std::string CanonicalText(const PlayerTurnResult& result) {
  Writer w;
  for (const Verdict& v : result.verdicts) {
    w.Word("verdict").Id(v.unit).Word(VerdictKindName(v.kind)).Word(ReasonName(v.reason));
    w.Id(v.model).Id(v.other).Opt(v.value).Opt(v.limit);
    w.End();
  }
  for (const Event& e : result.events) {
    w.Word(EventKindName(e));
    std::visit(EventFields{w}, e);
    w.End();
  }
  const State& s = result.next;
  w.Word("state").Int(s.turn).Int(static_cast<std::int64_t>(s.active_player));
  w.End();
  for (const ModelState& m : s.models) {
    w.Word("model").Id(m.id).Id(m.unit).Int(m.pos.x()).Int(m.pos.y()).Int(m.floor);
    if (m.structure) {
      w.Id(*m.structure);
    } else {
      w.Word("-");
    }
    w.Int(m.facing_mdeg).Int(m.alive ? 1 : 0);
    w.End();
  }
  for (const UnitState& u : s.units) {
    w.Word("unit").Id(u.id).Id(u.owner).Id(u.task_force).Int(u.acted ? 1 : 0);
    w.Word(u.action ? ActionName(*u.action) : std::string_view("-"));
    for (const std::string& enemy : u.close_combat_with) w.Id(enemy);
    w.End();
  }
  return w.Take();
}

}  // namespace pbem::m42
