#include "engine/morne_plaine/combat_phase.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "engine/morne_plaine/bombardment.h"
#include "engine/morne_plaine/combat.h"
#include "engine/morne_plaine/movement.h"

namespace pbem::engine {

int AdvanceRank(const Ruleset& ruleset, const Scenario& scenario, UnitId unit, Hex hex) {
  const Map& map = scenario.map;
  const TerrainType& t = ruleset.terrain_type(map.terrain(hex));
  int rank = IsMounted(ruleset, scenario.unit(unit)) ? t.advance_rank_mounted : t.advance_rank_foot;
  for (const Hex n : Neighbors(hex)) {
    if (map.Contains(n) && map.level(n) < map.level(hex)) {
      rank = std::max(rank, ruleset.params.hill_rank);
      break;
    }
  }
  return rank;
}

namespace {

// A unit's strength steps as event arguments (read by the players' report): CS, after the
// charge, after the terrain, after the water, the terrain's name and the water's kind.
payload::Strength Steps(const CorrectedStrength& c) {
  return {c.cs, c.after_charge, c.after_terrain, c.after_water, c.terrain, c.water};
}

class CombatPhase {
 public:
  CombatPhase(const Ruleset& ruleset, const Scenario& scenario, GameState& state, DiceSource& dice,
              std::vector<Event>& events)
      : ruleset_(ruleset),
        scenario_(scenario),
        map_(scenario.map),
        state_(state),
        dice_(dice),
        events_(events),
        board_(scenario, state) {}

  // Returns the refusal, or nullopt when the attack was fought.
  std::optional<std::pair<Reason, std::vector<Arg>>> Attack(UnitId att, UnitId def) {
    const UnitSpec& as = scenario_.unit(att);
    const UnitSpec& ds = scenario_.unit(def);
    UnitState& a = state_.unit(att);
    UnitState& d = state_.unit(def);
    if (!a.on_map()) return Refuse(Reason::kUnitEliminated, {as.id});
    if (!d.on_map()) return Refuse(Reason::kUnitEliminated, {ds.id});
    // Digest 5.1: one attack per attacker and per defender each phase.
    if (a.has_attacked) return Refuse(Reason::kAlreadyAttacked, {as.id});
    if (d.has_been_attacked) return Refuse(Reason::kAlreadyDefended, {ds.id});
    const Hex ah = *a.hex;
    const Hex dh = *d.hex;
    // Digest 5.1: no combat where movement is forbidden.
    if (!InCombatContact(ruleset_, map_, ah, dh)) return Refuse(Reason::kNotInContact, {dh});
    if (IsDemoralised(as, a)) return Refuse(Reason::kDemoralisedCannotAttack, {ah});
    if ((as.is_leader() && !ruleset_.params.leaders_may_attack) ||
        (as.arm == Arm::kArtillery && !ruleset_.params.artillery_may_attack)) {
      return Refuse(Reason::kMayNotAttack, {std::string(ArmName(as.arm))});
    }
    a.has_attacked = true;
    d.has_been_attacked = true;
    Fight(att, def);
    return std::nullopt;
  }

 private:
  static std::optional<std::pair<Reason, std::vector<Arg>>> Refuse(Reason r, std::vector<Arg> a) {
    return std::make_pair(r, std::move(a));
  }

  void Emit(std::optional<UnitId> unit, std::vector<Hex> hexes, EventBody body,
            std::optional<DieRoll> die = std::nullopt) {
    events_.push_back(
        Event{Phase::kCombat, unit, std::move(hexes), std::move(body), std::move(die)});
  }

  int Roll(Die die, UnitId unit, std::vector<Hex> hexes, std::string purpose) {
    const int value = dice_.Roll(die);
    Emit(unit, std::move(hexes), payload::Die{}, DieRoll{die, value, std::move(purpose)});
    return value;
  }

  void Eliminate(UnitId unit, const std::string& cause) {
    EliminateUnit(state_, board_, unit, Phase::kCombat, cause, events_);
  }

  // Morale points off MV, then CS (digest 5.12); CS 0 eliminates.
  void TakeMoraleLoss(UnitId unit, int points, const std::string& cause) {
    if (points <= 0) return;
    UnitState& us = state_.unit(unit);
    const MoraleLossSplit split = SplitMoraleLoss(scenario_.unit(unit), us, points);
    us.mv -= split.mv_lost;
    us.cs -= split.cs_lost;
    Emit(unit, {*us.hex}, payload::Loss{split.mv_lost, split.cs_lost, cause});
    if (us.cs <= 0) Eliminate(unit, cause);
  }

  // CRT losses are CS points (digest 5.6).
  void TakeCsLoss(UnitId unit, int points) {
    if (points <= 0) return;
    UnitState& us = state_.unit(unit);
    const int lost = std::min(points, us.cs);
    us.cs -= lost;
    Emit(unit, {*us.hex}, payload::Loss{0, lost, "combat"});
    if (us.cs <= 0) Eliminate(unit, "combat");
  }

  // Forts and passing objectives change hands on forced moves too
  // (passing_includes_forced_moves; R9: never for a leader's objective).
  void AfterEntering(UnitId unit, Hex hex) {
    if (!ruleset_.params.passing_includes_forced_moves) return;
    ClaimEnteredHex(ruleset_, scenario_, state_, unit, hex, Phase::kCombat, events_);
  }

  bool IsObjectiveHex(Hex hex) const {
    for (const Objective& o : scenario_.objectives) {
      if (std::find(o.hexes.begin(), o.hexes.end(), hex) != o.hexes.end()) return true;
    }
    return false;
  }

  // Morale test (digest 5.7): a 1-9 draw above the current MV fails (MV 4
  // with a 4 passes). Returns true when the unit fails.
  bool MoraleTest(UnitId unit) {
    const UnitState& us = state_.unit(unit);
    const Hex at = *us.hex;
    const int roll = Roll(Die::kD9, unit, {at}, "combat_morale_test");
    const bool fails = roll > us.mv;
    Emit(unit, {at}, payload::MoraleTest{roll, roll, us.mv, fails ? "failed" : "passed", "combat"});
    return fails;
  }

  // Retreat after combat (digest 5.8, R5, R6). Returns true when the unit
  // left its hex (retreated or was eliminated).
  void Retreat(UnitId unit, UnitId enemy) {
    const UnitSpec& spec = scenario_.unit(unit);
    UnitState& us = state_.unit(unit);
    if (spec.arm == Arm::kArtillery && !ruleset_.params.artillery_retreats_after_combat) {
      Eliminate(unit, "no_retreat");
      return;
    }
    const Hex from = *us.hex;
    const std::optional<Hex> to =
        ChooseRetreatHex(ruleset_, scenario_, state_, board_, unit, enemy);
    if (!to) {
      Eliminate(unit, "no_retreat");
      return;
    }
    board_.MoveUnit(unit, from, *to);
    us.hex = *to;
    Emit(unit, {from, *to}, payload::Retreat{"combat"});
    AfterEntering(unit, *to);
    if (spec.is_leader()) return;  // leaders ignore the morale effects
    const Control control =
        ControlOf(ruleset_, scenario_, state_, board_, *to, Opponent(spec.side), enemy);
    TakeMoraleLoss(unit, control.count(), "retreat_zoc");
  }

  // Digest 5.2 GAP support_reuse: with kOnce a unit supports at most once in
  // the phase (the DEFAULT kUnlimited keeps every support).
  std::vector<UnitId> Unused(std::vector<UnitId> supports) {
    if (ruleset_.params.support_reuse != SupportReuse::kOnce) return supports;
    std::vector<UnitId> out;
    for (const UnitId u : supports) {
      if (supported_.insert(u.value).second) out.push_back(u);
    }
    return out;
  }

  void Fight(UnitId att, UnitId def) {
    const UnitSpec& as = scenario_.unit(att);
    const UnitSpec& ds = scenario_.unit(def);
    const Hex ah = *state_.unit(att).hex;
    const Hex dh = *state_.unit(def).hex;

    // Digest 5.2 to 5.4: supports, corrected strengths, odds.
    const std::vector<UnitId> offensive =
        Unused(CombatSupports(ruleset_, scenario_, state_, board_, def, as.side, att));
    const std::vector<UnitId> defensive =
        Unused(CombatSupports(ruleset_, scenario_, state_, board_, att, ds.side, def));
    const CorrectedStrength att_strength =
        CorrectStrength(ruleset_, scenario_, state_, att, CombatSide::kAttacking, def);
    const CorrectedStrength def_strength =
        CorrectStrength(ruleset_, scenario_, state_, def, CombatSide::kDefending, def);
    const int att_value = att_strength.value;
    const int def_value = def_strength.value;
    int attack = att_value;
    int defence = def_value;
    // Each support's corrected CS joins its side's total, logged with its steps.
    const auto supports = [&](const std::vector<UnitId>& units, CombatSide side, const char* kind,
                              int& total) {
      for (const UnitId s : units) {
        const CorrectedStrength c = CorrectStrength(ruleset_, scenario_, state_, s, side, def);
        total += c.value;
        Emit(s, {*state_.unit(s).hex}, payload::Support{kind, c.value, Steps(c)});
      }
    };
    supports(offensive, CombatSide::kAttacking, "offensive", attack);
    supports(defensive, CombatSide::kDefending, "defensive", defence);
    const CombatResultsTable& crt = ruleset_.crt;
    const Odds odds = ComputeOdds(crt, attack, defence);
    const int roll = Roll(Die::kD6, att, {ah, dh}, "combat");
    const CombatDie die = ModifyCombatDie(ruleset_, scenario_, state_, att, def, roll);
    const CrtCell cell = CrtLookup(crt, odds.column, die.result);
    const std::string cell_text =
        std::to_string(cell.attacker_loss) + (cell.attacker_test ? "*" : "") + "/" +
        std::to_string(cell.defender_loss) + (cell.defender_test ? "*" : "");
    Emit(att, {ah, dh},
         payload::Combat{
             ds.id, att_value, def_value, attack, defence,
             crt.columns[static_cast<std::size_t>(odds.column)].label, roll, die.result, cell_text,
             payload::CombatSteps{Steps(att_strength), Steps(def_strength), die.elevation,
                                  die.morale, die.terrain, die.terrain_name}});

    // Digest 5.7 DEFAULT order: losses, tests (defender first), retreats,
    // advance, victorious flags and the elimination bonus.
    TakeCsLoss(att, cell.attacker_loss);
    TakeCsLoss(def, cell.defender_loss);
    const bool def_fails =
        cell.defender_test && state_.unit(def).on_map() && !ds.is_leader() && MoraleTest(def);
    const bool att_fails =
        cell.attacker_test && state_.unit(att).on_map() && !as.is_leader() && MoraleTest(att);
    if (def_fails) Retreat(def, att);
    if (att_fails) Retreat(att, def);

    // R9: the victorious unit neither retreated nor was eliminated; its
    // opponent did one or the other.
    const bool att_stays = state_.unit(att).on_map() && !att_fails;
    const bool def_stays = state_.unit(def).on_map() && !def_fails;
    if (att_stays && !def_stays) Victory(att, def, ah, dh);
    if (def_stays && !att_stays) Victory(def, att, dh, ah);
  }

  void Victory(UnitId winner, UnitId loser, Hex from, Hex vacated) {
    UnitState& w = state_.unit(winner);
    const UnitSpec& ws = scenario_.unit(winner);
    w.victorious = true;
    const bool eliminated = state_.unit(loser).eliminated;
    // Digest 5.11: +1 MV for an elimination, never above the initial MV.
    if (eliminated && !ws.is_leader() && w.mv < w.mv_initial) {
      ++w.mv;
      Emit(winner, {from}, payload::MoraleGained{1, "elimination"});
    }
    // Digest 5.10: advance after combat.
    if (eliminated && !ruleset_.params.advance_after_elimination) return;
    if (ws.arm == Arm::kArtillery) return;
    if (board_.UnitAt(vacated)) return;
    const bool mounted = IsMounted(ruleset_, ws);
    if (mounted && ruleset_.params.mounted_never_leave_fort &&
        ruleset_.terrain_type(map_.terrain(from)).fort) {
      return;
    }
    if (AdvanceRank(ruleset_, scenario_, winner, vacated) <
        AdvanceRank(ruleset_, scenario_, winner, from)) {
      return;
    }
    if (IsObjectiveHex(from) && !IsObjectiveHex(vacated)) return;
    board_.MoveUnit(winner, from, vacated);
    w.hex = vacated;
    w.moved_this_turn = true;  // advance counts as movement for rally (digest 5.10)
    Emit(winner, {from, vacated}, payload::Advance{});
    AfterEntering(winner, vacated);
  }

  const Ruleset& ruleset_;
  const Scenario& scenario_;
  const Map& map_;
  GameState& state_;
  DiceSource& dice_;
  std::vector<Event>& events_;
  Board board_;
  std::set<std::int32_t> supported_;  // support_reuse kOnce
};

}  // namespace

CombatPhaseResult ResolveCombatPhase(const Ruleset& ruleset, const Scenario& scenario,
                                     GameState& state, Side mover, const Orders& orders,
                                     const std::vector<OrderVerdict>& checked, DiceSource& dice,
                                     std::vector<Event>& events) {
  CombatPhaseResult result;
  // Digest 5.2, 5.11: "victorious" means victorious earlier in this combat
  // phase; flags left from the other side's last phase do not count.
  for (UnitState& u : state.units) u.victorious = false;
  CombatPhase phase(ruleset, scenario, state, dice, events);
  for (const OrderVerdict& v : checked) {
    if (v.order_kind != OrderKind::kAttack) continue;
    OrderVerdict out = v;
    if (v.verdict == VerdictKind::kOk) {
      const AttackOrder& order = orders.attacks[static_cast<std::size_t>(v.index)];
      const UnitId att = *scenario.FindUnit(order.attacker);
      const UnitId def = *scenario.FindUnit(order.defender);
      if (scenario.unit(att).side != mover || scenario.unit(def).side == mover) {
        out.verdict = VerdictKind::kIllegal;
        out.reason = Reason::kNotYourUnit;
        out.args = {order.attacker};
      } else if (auto refusal = phase.Attack(att, def)) {
        out.verdict = VerdictKind::kIllegal;
        out.reason = refusal->first;
        out.args = std::move(refusal->second);
      } else {
        // Fought: the check's note (depends_on_dice) has been answered.
        out.reason = Reason::kNone;
        out.args.clear();
      }
    }
    result.verdicts.push_back(std::move(out));
  }
  return result;
}

}  // namespace pbem::engine
