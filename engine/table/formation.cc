#include "engine/table/formation.h"

#include <algorithm>
#include <numeric>

namespace pbem::table {
namespace {

// v . u with u a unit vector scaled by 2^60: the offset along u, times 2^60.
Int128 Along(Vector v, UnitVector u) { return Int128{v.x} * u.x + Int128{v.y} * u.y; }

// |offset| is within eps of `target` (both in units; offset scaled by 2^60).
bool Near(Int128 offset, Coord target, Coord eps) {
  const Int128 a = offset < 0 ? -offset : offset;
  const Int128 one = Int128{1} << kUnitBits;
  return a >= (Int128{target} - eps) * one && a <= (Int128{target} + eps) * one;
}

// Consecutive bases along `order_by` are spaced by `spacing` along it, and offset across it by
// 0 or `step`.
bool Regular(const std::vector<Rect>& bases, UnitVector order_by, UnitVector across, Coord spacing,
             Coord step, Coord eps) {
  std::vector<std::size_t> order(bases.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    const Int128 a = Along(bases[i].centre() - Point(), order_by);
    const Int128 b = Along(bases[j].centre() - Point(), order_by);
    return a != b ? a < b : i < j;
  });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const Vector d = bases[order[k]].centre() - bases[order[k - 1]].centre();
    const Int128 across_offset = Along(d, across);
    if (!Near(Along(d, order_by), spacing, eps)) return false;
    if (!Near(across_offset, 0, eps) && !Near(across_offset, step, eps)) return false;
  }
  return true;
}

}  // namespace

Formation Classify(const std::vector<Rect>& bases, Coord eps, std::int64_t eps_millidegrees) {
  if (bases.empty() || OutOfFormation(bases, eps)) return Formation::kNone;
  const std::int64_t heading = bases[0].heading();
  for (const Rect& b : bases) {
    std::int64_t diff = (b.heading() - heading) % kMillidegreesPerTurn;
    if (diff < 0) diff += kMillidegreesPerTurn;
    if (diff > kMillidegreesPerTurn / 2) diff = kMillidegreesPerTurn - diff;
    if (diff > eps_millidegrees) return Formation::kIrregular;
  }
  const UnitVector f = HeadingVector(heading);
  const UnitVector l = LeftOf(f);
  const Coord w = bases[0].width();
  const Coord d = bases[0].depth();
  if (Regular(bases, l, f, w, d, eps)) return Formation::kLine;
  if (Regular(bases, f, l, d, w, eps)) return Formation::kColumn;
  return Formation::kIrregular;
}

}  // namespace pbem::table
