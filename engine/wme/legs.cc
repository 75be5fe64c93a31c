#include "engine/wme/legs.h"

#include <cstdlib>

namespace pbem::wme {
namespace {

std::optional<table::Point> PointOf(Milli x, Milli y) {
  const std::optional<table::Coord> ux = table::FromThousandthsOfCm(x);
  const std::optional<table::Coord> uy = table::FromThousandthsOfCm(y);
  if (!ux || !uy) return std::nullopt;
  return table::Point::Make(*ux, *uy);
}

std::optional<table::Point> PivotOf(const table::Rect& pose, const LegOrder& leg) {
  switch (leg.pivot) {
    case Pivot::kCentre:
      return pose.centre();
    case Pivot::kFL:
      return pose.FL();
    case Pivot::kFR:
      return pose.FR();
    case Pivot::kRL:
      return pose.RL();
    case Pivot::kRR:
      return pose.RR();
    case Pivot::kPoint:
      return PointOf(leg.x, leg.y);
  }
  return std::nullopt;
}

bool Within(table::Vector v, table::Coord eps) {
  return table::Dot(v, v) <= table::Int128{eps} * eps;
}

}  // namespace

std::optional<PlannedLegs> PlanLegs(const table::Rect& start, const std::vector<LegOrder>& legs,
                                    std::size_t max_legs) {
  if (legs.empty() || legs.size() > max_legs) return std::nullopt;
  PlannedLegs planned;
  planned.poses.push_back(start);
  for (const LegOrder& order : legs) {
    const table::Rect& pose = planned.poses.back();
    table::Leg leg;
    if (order.kind == LegOrder::Kind::kTranslate) {
      const std::optional<table::Point> target = PointOf(order.x, order.y);
      if (!target) return std::nullopt;
      leg.kind = table::Leg::Kind::kTranslate;
      leg.target = *target;
    } else {
      if (std::llabs(order.deg_mdeg) > table::kMillidegreesPerTurn) return std::nullopt;
      const std::optional<table::Point> pivot = PivotOf(pose, order);
      if (!pivot) return std::nullopt;
      leg.kind = table::Leg::Kind::kRotate;
      leg.millidegrees = order.deg_mdeg;
      leg.pivot = *pivot;
    }
    const std::optional<table::Motion> motion = table::Move(pose, {leg});
    if (!motion) return std::nullopt;
    planned.legs.push_back(leg);
    planned.poses.push_back(motion->end);
  }
  return planned;
}

bool SameRigidMotion(const PlannedLegs& a, const PlannedLegs& b, table::Coord eps,
                     std::int64_t eps_mdeg) {
  if (a.legs.size() != b.legs.size()) return false;
  for (std::size_t k = 0; k < a.legs.size(); ++k) {
    const table::Leg& la = a.legs[k];
    const table::Leg& lb = b.legs[k];
    if (la.kind != lb.kind) return false;
    if (la.kind == table::Leg::Kind::kTranslate) {
      const table::Vector da = la.target - a.poses[k].centre();
      const table::Vector db = lb.target - b.poses[k].centre();
      if (!Within({da.x - db.x, da.y - db.y}, eps)) return false;
    } else {
      if (std::llabs(la.millidegrees - lb.millidegrees) > eps_mdeg) return false;
      if (!Within(la.pivot - lb.pivot, eps)) return false;
    }
  }
  return true;
}

}  // namespace pbem::wme
