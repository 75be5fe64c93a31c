#include "engine/wme/canonical.h"

#include <optional>

#include "engine/core/canonical.h"

namespace pbem::wme {
namespace {

constexpr std::int64_t kMaxTurn = 1'000'000'000;
constexpr int kMaxBasesLost = 1000;

}  // namespace

std::string CanonicalStateText(const State& s) {
  engine::CanonicalWriter w;
  w.Word("state").Int(s.turn).Int(static_cast<std::int64_t>(s.active_player)).End();
  for (const BaseState& b : s.bases) {
    w.Word("base").Id(b.id).Id(b.unit).Int(b.centre.x()).Int(b.centre.y()).Int(b.heading_mdeg);
    w.Int(b.alive ? 1 : 0).End();
  }
  for (const UnitState& u : s.units) {
    w.Word("unit").Id(u.id).Id(u.owner);
    for (const bool flag : {u.engaged, u.confused, u.fortified, u.fanatic}) w.Int(flag ? 1 : 0);
    w.Int(u.bases_lost).Int(u.moved_by_initiative ? 1 : 0).Int(u.moved_by_order ? 1 : 0).End();
  }
  for (const CommanderState& c : s.commanders) {
    w.Word("commander").Id(c.id).Id(c.owner).Int(c.centre.x()).Int(c.centre.y());
    if (c.attached_to) {
      w.Id(*c.attached_to);
    } else {
      w.Word("-");
    }
    w.End();
  }
  return w.Take();
}

std::variant<State, StateTextError> StateFromCanonicalText(const Ruleset& ruleset,
                                                           const Scenario& scenario,
                                                           std::string_view bytes) {
  const InitialStateResult start = InitialState(ruleset, scenario);
  if (!start.state) return StateTextError{"the scenario has problems"};
  State s = *start.state;
  engine::CanonicalReader r(bytes);
  const auto fail = [&r](const std::string& what) {
    return StateTextError{"line " + std::to_string(r.line()) + ": " + what};
  };
  const auto flag = [&r]() -> std::optional<bool> {
    const auto v = r.IntIn(0, 1);
    return v ? std::optional<bool>(*v == 1) : std::nullopt;
  };
  const auto turn = r.Expect("state") ? r.IntIn(1, kMaxTurn) : std::nullopt;
  const auto active =
      turn ? r.IntIn(0, static_cast<std::int64_t>(scenario.players.size()) - 1) : std::nullopt;
  if (!active || !r.End()) return fail("expected 'state <turn> <active player>'");
  s.turn = static_cast<int>(*turn);
  s.active_player = static_cast<std::size_t>(*active);
  for (BaseState& b : s.bases) {
    const std::optional<std::string> id = r.Expect("base") ? r.Id() : std::nullopt;
    const std::optional<std::string> unit = id == b.id ? r.Id() : std::nullopt;
    if (unit != b.unit) return fail("expected 'base " + b.id + " " + b.unit + "'");
    const auto x = r.Int();
    const auto y = x ? r.Int() : std::nullopt;
    const std::optional<table::Point> centre = y ? table::Point::Make(*x, *y) : std::nullopt;
    const auto heading = centre ? r.IntIn(0, 359'999) : std::nullopt;
    const std::optional<bool> alive = heading ? flag() : std::nullopt;
    if (!alive || !r.End()) return fail("base " + b.id + ": a centre, a heading and alive");
    b.centre = *centre;
    b.heading_mdeg = *heading;
    b.alive = *alive;
  }
  for (UnitState& u : s.units) {
    const std::optional<std::string> id = r.Expect("unit") ? r.Id() : std::nullopt;
    const std::optional<std::string> owner = id == u.id ? r.Id() : std::nullopt;
    if (owner != u.owner) return fail("expected 'unit " + u.id + " " + u.owner + "'");
    bool* const flags[] = {&u.engaged, &u.confused, &u.fortified, &u.fanatic};
    for (bool* f : flags) {
      const std::optional<bool> v = flag();
      if (!v) return fail("unit " + u.id + ": four flags");
      *f = *v;
    }
    const auto lost = r.IntIn(0, kMaxBasesLost);
    const std::optional<bool> by_initiative = lost ? flag() : std::nullopt;
    const std::optional<bool> by_order = by_initiative ? flag() : std::nullopt;
    if (!by_order || !r.End()) return fail("unit " + u.id + ": bases lost and two move flags");
    u.bases_lost = static_cast<int>(*lost);
    u.moved_by_initiative = *by_initiative;
    u.moved_by_order = *by_order;
  }
  for (CommanderState& c : s.commanders) {
    const std::optional<std::string> id = r.Expect("commander") ? r.Id() : std::nullopt;
    const std::optional<std::string> owner = id == c.id ? r.Id() : std::nullopt;
    if (owner != c.owner) return fail("expected 'commander " + c.id + " " + c.owner + "'");
    const auto x = r.Int();
    const auto y = x ? r.Int() : std::nullopt;
    const std::optional<table::Point> centre = y ? table::Point::Make(*x, *y) : std::nullopt;
    if (!centre) return fail("commander " + c.id + ": a centre");
    c.centre = *centre;
    c.attached_to.reset();
    if (!r.Expect("-")) {
      c.attached_to = r.Id();
      bool known = false;
      for (const UnitState& u : s.units) known = known || (c.attached_to && u.id == *c.attached_to);
      if (!known) return fail("commander " + c.id + ": a unit it is attached to, or '-'");
    }
    if (!r.End()) return fail("commander " + c.id + ": end of line");
  }
  if (!r.AtEnd()) return fail("bytes after the state");
  return s;
}

}  // namespace pbem::wme
