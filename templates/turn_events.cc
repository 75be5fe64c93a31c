#include "templates/turn_events.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <string_view>
#include <variant>

namespace pbem::templates {

namespace {

using engine::Event;
using engine::EventKind;
using engine::Hex;
using engine::UnitId;

// A number, as the engine writes it or as the wire format stores it (decimal text: stored
// turns decoded by codec::TurnResultFromProto).
std::optional<std::int64_t> IntArg(const Event& e, std::size_t i) {
  if (i >= e.args.size()) return std::nullopt;
  if (const auto* v = std::get_if<std::int64_t>(&e.args[i])) return *v;
  if (const auto* text = std::get_if<std::string>(&e.args[i])) {
    std::int64_t v = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, v);
    if (ec == std::errc() && ptr == end && !text->empty()) return v;
  }
  return std::nullopt;
}

std::optional<std::string> StringArg(const Event& e, std::size_t i) {
  if (i >= e.args.size()) return std::nullopt;
  if (const auto* v = std::get_if<std::string>(&e.args[i])) return *v;
  return std::nullopt;
}

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
    if (e.kind == EventKind::kTurnEnd) {
      TurnEnd(e);
      return;
    }
    if (e.kind == EventKind::kMoraleTest) {
      MoraleTest(e);
      return;
    }
    if (!IsVisualEvent(e.kind)) return;
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
    switch (e.kind) {
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
        const auto reason = StringArg(e, 1);
        if (!reason) return false;
        if (*reason != "none" && !e.hexes.empty()) AddStop(*e.unit, e.hexes[0], *reason);
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
        const std::size_t result_at = e.kind == EventKind::kBombard ? 6 : 4;
        const auto result = StringArg(e, result_at);
        if (!result) return false;
        const int hits = *result == "double_hit" ? 2 : *result == "hit" ? 1 : 0;
        if (hits == 0 && *result != "miss") return false;
        out_.fire.push_back(
            FireMark{*e.unit, e.hexes[0], e.hexes[1], e.kind == EventKind::kReactionFire, hits});
        return true;
      }
      case EventKind::kCombat: {
        if (!UnitOk(e) || !HexesOk(e, 2, 2)) return false;
        const auto odds = StringArg(e, 5);
        const auto die = IntArg(e, 7);
        const auto cell = StringArg(e, 8);
        if (!odds || !die || !cell) return false;
        out_.combats.push_back(
            CombatMark{*e.unit, e.hexes[0], e.hexes[1], *odds, static_cast<int>(*die), *cell});
        return true;
      }
      case EventKind::kLoss: {
        if (!UnitOk(e) || !HexesOk(e, 0, 1)) return false;
        const auto mv = IntArg(e, 0);
        const auto cs = IntArg(e, 1);
        if (!mv || !cs) return false;
        auto it = std::find_if(out_.losses.begin(), out_.losses.end(),
                               [&](const LossMark& l) { return l.unit == *e.unit; });
        if (it == out_.losses.end()) {
          out_.losses.push_back(LossMark{*e.unit, 0, 0});
          it = out_.losses.end() - 1;
        }
        it->mv += static_cast<int>(*mv);
        it->cs += static_cast<int>(*cs);
        return true;
      }
      case EventKind::kRetreat:
      case EventKind::kAdvance:
        if (!UnitOk(e) || !HexesOk(e, 2, 2)) return false;
        out_.forced.push_back(
            ForcedMove{*e.unit, e.hexes[0], e.hexes[1], e.kind == EventKind::kAdvance});
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

  void MoraleTest(const Event& e) {
    // A charged unit's test follows its charge: failed means the target broke.
    if (!open_charge_ || !UnitOk(e) || StringArg(e, 4) != std::optional<std::string>("charge")) {
      return;
    }
    const auto verdict = StringArg(e, 3);
    ChargeMark& c = out_.charges[*open_charge_];
    if (verdict == std::optional<std::string>("failed")) c.outcome = ChargeMark::Outcome::kBroke;
    if (verdict == std::optional<std::string>("passed")) c.outcome = ChargeMark::Outcome::kHeld;
    open_charge_.reset();
  }

  void TurnEnd(const Event& e) {
    const auto turn = IntArg(e, 0);
    const auto side_name = StringArg(e, 1);
    if (!turn || !side_name) return;
    const auto next = engine::ParseSide(*side_name);
    if (!next) return;
    // Play alternates; the game turn advances when the first side moves again.
    out_.side_played = engine::Opponent(*next);
    out_.turn_played = static_cast<int>(*next == scenario_.first_side ? *turn - 1 : *turn);
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
