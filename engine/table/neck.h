// WME-P12 squeeze (neck) rule [DEFAULT model neck, GAP-17; rulings W-R5, W-R6]. N is the set of
// non-aggressive obstacles (impassable terrain for the mover, the bases of other friendly
// units; each feature or friendly unit is one obstacle, W-R6), rho the half-diagonal of the
// moving base. At every instant of the sweep, an overlap (WME-P02, depth > eps) between the base
// and some n in N is excused only if (a) some other n' in N is within rho of the base centre
// and (b) the centre is at least min_gap_cm / 2 (1 cm) - eps from both n and n'. Any other
// overlap is illegal; the start and end poses overlap nothing. Enemy bases are never in N: the
// caller tests them on their own (sweep.h).
//
// Numbers. At one pose everything is exact: rho^2 = (W^2 + D^2) / 4 is a fraction, so "within
// rho" compares squared distances with it (no eps: a maximum made of a root; (b) carries the
// tolerance). Over a move the poses are sampled: a translation leg in steps of at most `step`
// (the default is eps), a rotation leg in steps of whole millidegrees, at most 1 degree and at
// most `step` of corner travel (pi taken as 355/113, which only adds steps; a step is at least
// one millidegree, which bounds the travel only for corners within 5.7 m of the pivot when
// step = eps), plus the exact end pose. Every point of the base moves at most `step` (and the
// grid rounding of the corners, a unit) between two samples, so a breach lasting less than that
// (an overlap, or a gap under 1 cm, by less than `step`) can fall between samples.
#ifndef PBEM_ENGINE_TABLE_NECK_H_
#define PBEM_ENGINE_TABLE_NECK_H_

#include <optional>
#include <vector>

#include "engine/table/motion.h"

namespace pbem::table {

// One non-aggressive obstacle: a terrain feature as convex pieces, or a friendly unit's bases.
struct Obstacle {
  std::vector<Polygon> pieces;
};

struct NeckBreach {
  std::size_t obstacle = 0;  // the obstacle the base overlaps
  // Another obstacle within rho of the centre: the overlap is judged by the neck rule alone
  // and fails it, `NO_PASSAGE{base, gap}` (W-R5); without one (always at the start or end
  // pose), TERRAIN_FORBIDDEN or CROSSES_OTHER_UNIT.
  std::optional<std::size_t> neck_with;
  Coord gap_floor = 0;   // floor of the gap between the two obstacles (with neck_with)
  std::size_t pose = 0;  // which sampled pose (0 = the start)
};

// The rule at one pose; `end` (a start or end pose) excuses nothing.
std::optional<NeckBreach> NeckAtPose(const Rect& pose, const std::vector<Obstacle>& obstacles,
                                     Coord half_gap, Coord eps, bool end);

// The poses a move is checked at (the start, the samples, the exact end); empty if a leg is
// refused (motion.h).
std::vector<Rect> SampledPoses(const Rect& start, const std::vector<Leg>& legs, Coord step);

// The rule along a move: the first breaching pose, or nullopt if the move passes.
std::optional<NeckBreach> CheckNeck(const Rect& start, const std::vector<Leg>& legs,
                                    const std::vector<Obstacle>& obstacles, Coord half_gap,
                                    Coord eps, Coord step);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_NECK_H_
