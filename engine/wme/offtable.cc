#include "engine/wme/offtable.h"

#include <algorithm>

namespace pbem::wme {
namespace {

// How far p is beyond `edge` (positive outside the table), and its coordinate along it.
struct EdgeFrame {
  TableEdge edge;
  table::Coord width;
  table::Coord height;
  table::Coord Beyond(table::Point p) const {
    switch (edge) {
      case TableEdge::kWest:
        return -p.x();
      case TableEdge::kEast:
        return p.x() - width;
      case TableEdge::kSouth:
        return -p.y();
      case TableEdge::kNorth:
        return p.y() - height;
    }
    return 0;
  }
  table::Coord Along(table::Point p) const {
    return edge == TableEdge::kWest || edge == TableEdge::kEast ? p.y() : p.x();
  }
};

constexpr TableEdge kEdges[] = {TableEdge::kWest, TableEdge::kEast, TableEdge::kSouth,
                                TableEdge::kNorth};

EdgeFrame FrameOf(const Scenario& scenario, TableEdge edge) {
  return EdgeFrame{edge, ToUnits(scenario.table_width_cm), ToUnits(scenario.table_height_cm)};
}

std::optional<table::Point> OnEdge(const EdgeFrame& frame, table::Coord along,
                                   table::Coord inward) {
  switch (frame.edge) {
    case TableEdge::kWest:
      return table::Point::Make(inward, along);
    case TableEdge::kEast:
      return table::Point::Make(frame.width - inward, along);
    case TableEdge::kSouth:
      return table::Point::Make(along, inward);
    case TableEdge::kNorth:
      return table::Point::Make(along, frame.height - inward);
  }
  return std::nullopt;
}

std::int64_t InwardHeading(TableEdge edge) {
  switch (edge) {
    case TableEdge::kWest:
      return 0;
    case TableEdge::kEast:
      return 180000;
    case TableEdge::kSouth:
      return 90000;
    case TableEdge::kNorth:
      return 270000;
  }
  return 0;
}

}  // namespace

bool LeftTable(const Ruleset& ruleset, const Scenario& scenario, const State& state,
               const std::string& unit) {
  for (std::size_t i : BasesOf(state, unit)) {
    if (!table::OnTable(Footprint(state.bases[i]), ToUnits(scenario.table_width_cm),
                        ToUnits(scenario.table_height_cm), ToUnits(ruleset.epsilon_cm))) {
      return true;
    }
  }
  return false;
}

std::optional<ExitPoint> FindExitPoint(const Ruleset& ruleset, const Scenario& scenario,
                                       const State& state, const std::string& unit) {
  std::optional<ExitPoint> best;
  table::Coord best_depth = ToUnits(ruleset.epsilon_cm);  // beyond by more than eps (P14)
  for (TableEdge edge : kEdges) {
    const EdgeFrame frame = FrameOf(scenario, edge);
    table::Coord depth = 0;
    std::optional<table::Coord> lo, hi;
    auto span = [&lo, &hi](table::Coord a) {
      lo = lo ? std::min(*lo, a) : a;
      hi = hi ? std::max(*hi, a) : a;
    };
    for (std::size_t i : BasesOf(state, unit)) {
      const std::array<table::Point, 4> k = Footprint(state.bases[i]).corners();
      for (std::size_t c = 0; c < 4; ++c) {
        const table::Point p = k[c];
        const table::Point q = k[(c + 1) % 4];
        const table::Coord bp = frame.Beyond(p);
        const table::Coord bq = frame.Beyond(q);
        depth = std::max(depth, bp);
        if (bp >= 0) span(frame.Along(p));
        if ((bp < 0) != (bq < 0)) {  // the side crosses the edge line
          const table::Int128 ap = frame.Along(p);
          const table::Int128 aq = frame.Along(q);
          span(static_cast<table::Coord>(ap + table::RoundDiv((aq - ap) * bp, bp - bq)));
        }
      }
    }
    if (depth > best_depth && lo) {
      const std::optional<table::Point> point =
          OnEdge(frame, static_cast<table::Coord>(table::RoundDiv(*lo + table::Int128{*hi}, 2)), 0);
      if (!point) continue;
      best_depth = depth;
      best = ExitPoint{edge, *point};
    }
  }
  return best;
}

std::optional<std::vector<ReturnPose>> ReturnPlacement(const Ruleset& ruleset,
                                                       const Scenario& scenario, const State& state,
                                                       const std::string& unit,
                                                       const ExitPoint& exit) {
  const std::vector<std::size_t> bases = BasesOf(state, unit);
  const UnitState* self = FindUnit(state, unit);
  if (bases.empty() || self == nullptr) return std::nullopt;
  const EdgeFrame frame = FrameOf(scenario, exit.edge);
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  const table::Coord gap = ToUnits(ruleset.reentry_enemy_gap_cm);
  const table::Coord step = ToUnits(ruleset.reentry_step_cm);
  const table::Coord along0 = frame.Along(exit.point);
  const table::Coord length =
      exit.edge == TableEdge::kWest || exit.edge == TableEdge::kEast ? frame.height : frame.width;
  const table::Int128 n = static_cast<table::Int128>(bases.size());
  auto place = [&](table::Coord slide) -> std::optional<std::vector<ReturnPose>> {
    std::vector<ReturnPose> poses;
    for (std::size_t k = 0; k < bases.size(); ++k) {
      const BaseState& base = state.bases[bases[k]];
      const table::Coord offset = static_cast<table::Coord>(
          table::RoundDiv((2 * static_cast<table::Int128>(k) - n + 1) * base.width, 2));
      const std::optional<table::Point> centre =
          OnEdge(frame, along0 + slide + offset, base.depth / 2);
      if (!centre) return std::nullopt;
      const std::optional<table::Rect> rect = FootprintAt(base, *centre, InwardHeading(exit.edge));
      if (!rect || !table::OnTable(*rect, frame.width, frame.height, eps)) return std::nullopt;
      for (const BaseState& other : state.bases) {
        if (!other.alive || other.unit == unit) continue;
        const table::Rect there = Footprint(other);
        if (table::Overlap(*rect, there, eps)) return std::nullopt;  // WME-R25
        const UnitState* owner = FindUnit(state, other.unit);
        if (owner != nullptr && owner->owner != self->owner &&
            table::ConvexDistance(rect->footprint(), there.footprint()).Compare(gap - eps) < 0) {
          return std::nullopt;
        }
      }
      poses.push_back(ReturnPose{base.id, *centre, InwardHeading(exit.edge)});
    }
    return poses;
  };
  // W-R10: towards the edge's midpoint first; from the midpoint itself, + first.
  const bool plus_first = 2 * along0 <= length;
  for (table::Coord s = 0; s <= length; s += step) {
    for (int side = 0; side < (s == 0 ? 1 : 2); ++side) {
      const bool plus = (side == 0) == plus_first;
      if (auto poses = place(plus ? s : -s)) return poses;
    }
  }
  return std::nullopt;
}

std::optional<OffTableResult> ResolveLeftTable(const Ruleset& ruleset, const Scenario& scenario,
                                               const State& state, const std::string& unit,
                                               DiceSource& dice) {
  const std::optional<ExitPoint> exit = FindExitPoint(ruleset, scenario, state, unit);
  const UnitState* self = FindUnit(state, unit);
  if (!exit || self == nullptr || ruleset.off_table_fate.empty()) return std::nullopt;
  OffTableResult result;
  result.exit = *exit;
  result.roll = dice.Roll(6);
  result.modified = result.roll + ruleset.off_table_modifier_per_lost_base * self->bases_lost;
  result.fate = ruleset.off_table_fate.back().fate;
  for (const FateBand& band : ruleset.off_table_fate) {
    if (result.modified <= band.max) {
      result.fate = band.fate;
      break;
    }
  }
  if (result.fate == Fate::kReturnNow) {
    result.returned = ReturnPlacement(ruleset, scenario, state, unit, *exit);
  }
  for (const CommanderState& commander : state.commanders) {  // WME-R69
    if (commander.general && commander.attached_to == unit && result.fate != Fate::kReturnNow) {
      result.general_lost = true;
      result.army_withdraws = true;
    }
  }
  return result;
}

}  // namespace pbem::wme
