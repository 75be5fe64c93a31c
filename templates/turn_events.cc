#include "templates/turn_events.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string_view>

namespace pbem::templates {

namespace {

using engine::Event;
using engine::EventKind;
using engine::Hex;
using engine::UnitId;
namespace payload = engine::payload;

// Kinds the map shows; the others (dice, command checks, support, rally, scoring) are told
// by the results mail.
bool IsVisualEvent(EventKind kind) {
  switch (kind) {
    case EventKind::kPlace:
    case EventKind::kBombard:
    case EventKind::kMoveStep:
    case EventKind::kMoveEnd:
    case EventKind::kStuck:
    case EventKind::kCharge:
    case EventKind::kReactionFire:
    case EventKind::kCombat:
    case EventKind::kLoss:
    case EventKind::kRetreat:
    case EventKind::kEliminated:
    case EventKind::kAdvance:
    case EventKind::kObjectiveTaken:
    case EventKind::kFortTaken:
      return true;
    default:
      return false;
  }
}

class Collector {
 public:
  explicit Collector(const engine::Scenario& scenario) : scenario_(scenario) {}

  void Add(const Event& e) {
    if (const auto* end = e.get<payload::TurnEnd>()) {
      TurnEnd(*end);
      return;
    }
    if (const auto* test = e.get<payload::MoraleTest>()) {
      MoraleTest(e, *test);
      return;
    }
    if (!IsVisualEvent(e.kind())) return;
    if (Read(e)) {
      ++out_.drawn;
    } else {
      ++out_.not_drawn;
    }
  }

  TurnDrawing Finish() {
    // A path of one hex shows no movement.
    std::erase_if(out_.moves, [](const MovePath& m) { return m.hexes.size() < 2; });
    // An eliminated unit's losses are told by its cross.
    std::erase_if(out_.losses, [&](const LossMark& l) {
      return (l.mv == 0 && l.cs == 0) ||
             std::any_of(out_.ghosts.begin(), out_.ghosts.end(),
                         [&](const Ghost& g) { return g.unit == l.unit; });
    });
    return std::move(out_);
  }

 private:
  bool UnitOk(const Event& e) const {
    return e.unit && e.unit->valid() && e.unit->index() < scenario_.units.size();
  }
  bool HexesOk(const Event& e, std::size_t min, std::size_t max) const {
    return e.hexes.size() >= min && e.hexes.size() <= max &&
           std::all_of(e.hexes.begin(), e.hexes.end(),
                       [&](Hex h) { return scenario_.map.Contains(h); });
  }

  // Records one visual event; false when it cannot be read.
  bool Read(const Event& e) {
    switch (e.kind()) {
      case EventKind::kPlace:
      case EventKind::kObjectiveTaken:
      case EventKind::kFortTaken:
        // The counter, the objective ring and the fort carry these in the state.
        return true;
      case EventKind::kMoveStep: {
        if (!UnitOk(e) || !HexesOk(e, 1, 2)) return false;
        MovePath& path = PathOf(*e.unit);
        for (Hex h : e.hexes) {
          if (path.hexes.empty() || path.hexes.back() != h) path.hexes.push_back(h);
        }
        last_hex_[e.unit->index()] = e.hexes.back();
        return true;
      }
      case EventKind::kMoveEnd: {
        if (!UnitOk(e) || !HexesOk(e, 0, 1)) return false;
        const std::string& reason = e.get<payload::MoveEnd>()->reason;
        if (reason != "none" && !e.hexes.empty()) AddStop(*e.unit, e.hexes[0], reason);
        return true;
      }
      case EventKind::kStuck:
        if (!UnitOk(e) || !HexesOk(e, 1, 1)) return false;
        AddStop(*e.unit, e.hexes[0], "stuck_in_marsh");
        return true;
      case EventKind::kCharge:
        if (!UnitOk(e) || !HexesOk(e, 2, 2)) return false;
        out_.charges.push_back(ChargeMark{*e.unit, e.hexes[0], e.hexes[1], {}});
        open_charge_ = out_.charges.size() - 1;
        return true;
      case EventKind::kBombard:
      case EventKind::kReactionFire: {
        if (!UnitOk(e) || !HexesOk(e, 2, 2)) return false;
        const auto* bombard = e.get<payload::Bombard>();
        const std::string& result =
            bombard ? bombard->result : e.get<payload::ReactionFire>()->result;
        const int hits = result == "double_hit" ? 2 : result == "hit" ? 1 : 0;
        if (hits == 0 && result != "miss") return false;
        out_.fire.push_back(FireMark{*e.unit, e.hexes[0], e.hexes[1], bombard == nullptr, hits});
        return true;
      }
      case EventKind::kCombat: {
        if (!UnitOk(e) || !HexesOk(e, 2, 2)) return false;
        const auto& combat = *e.get<payload::Combat>();
        out_.combats.push_back(CombatMark{*e.unit, e.hexes[0], e.hexes[1], combat.odds,
                                          static_cast<int>(combat.die), combat.cell});
        return true;
      }
      case EventKind::kLoss: {
        if (!UnitOk(e) || !HexesOk(e, 0, 1)) return false;
        const auto& loss = *e.get<payload::Loss>();
        auto it = std::find_if(out_.losses.begin(), out_.losses.end(),
                               [&](const LossMark& l) { return l.unit == *e.unit; });
        if (it == out_.losses.end()) {
          out_.losses.push_back(LossMark{*e.unit, 0, 0});
          it = out_.losses.end() - 1;
        }
        it->mv += static_cast<int>(loss.mv_lost);
        it->cs += static_cast<int>(loss.cs_lost);
        return true;
      }
      case EventKind::kRetreat:
      case EventKind::kAdvance:
        if (!UnitOk(e) || !HexesOk(e, 2, 2)) return false;
        out_.forced.push_back(
            ForcedMove{*e.unit, e.hexes[0], e.hexes[1], e.kind() == EventKind::kAdvance});
        last_hex_[e.unit->index()] = e.hexes[1];
        return true;
      case EventKind::kEliminated: {
        if (!UnitOk(e) || !HexesOk(e, 0, 1)) return false;
        std::optional<Hex> at;
        if (!e.hexes.empty()) {
          at = e.hexes[0];
        } else if (const auto it = last_hex_.find(e.unit->index()); it != last_hex_.end()) {
          at = it->second;
        }
        // Eliminated off the map with no hex ever logged: nothing to show where.
        if (at) out_.ghosts.push_back(Ghost{*e.unit, *at});
        return true;
      }
      default:
        return false;
    }
  }

  void MoraleTest(const Event& e, const payload::MoraleTest& test) {
    // A charged unit's test follows its charge: failed means the target broke.
    if (!open_charge_ || !UnitOk(e) || test.cause != "charge") return;
    ChargeMark& c = out_.charges[*open_charge_];
    if (test.result == "failed") c.outcome = ChargeMark::Outcome::kBroke;
    if (test.result == "passed") c.outcome = ChargeMark::Outcome::kHeld;
    open_charge_.reset();
  }

  void TurnEnd(const payload::TurnEnd& end) {
    const auto next = engine::ParseSide(end.side);
    if (!next) return;
    // Play alternates; the game turn advances when the first side moves again.
    out_.side_played = engine::Opponent(*next);
    out_.turn_played = static_cast<int>(*next == scenario_.first_side ? end.turn - 1 : end.turn);
  }

  MovePath& PathOf(UnitId unit) {
    auto it = std::find_if(out_.moves.begin(), out_.moves.end(),
                           [&](const MovePath& m) { return m.unit == unit; });
    if (it != out_.moves.end()) return *it;
    out_.moves.push_back(MovePath{unit, {}});
    return out_.moves.back();
  }

  void AddStop(UnitId unit, Hex hex, const std::string& reason) {
    // A marsh test failure is followed by the move's end with the same reason: one mark.
    for (const StopMark& s : out_.stops) {
      if (s.unit == unit && s.hex == hex) return;
    }
    out_.stops.push_back(StopMark{unit, hex, reason});
  }

  const engine::Scenario& scenario_;
  TurnDrawing out_;
  std::optional<std::size_t> open_charge_;
  std::map<std::size_t, Hex> last_hex_;
};

}  // namespace

TurnDrawing CollectTurnDrawing(const std::vector<engine::Event>* events,
                               const engine::Scenario& scenario) {
  Collector collector(scenario);
  if (events != nullptr) {
    for (const Event& e : *events) collector.Add(e);
  }
  return collector.Finish();
}

}  // namespace pbem::templates
