// Round bases (M42 §4): distances between bases, enemy clearance, friendly pass-through, terrain
// contact of a swept base, coherency. Every length (limits, epsilons, radii) is in table units;
// the M42 epsilon is 0.01" = 2540 units (key epsilon_in). All answers are exact (distance.h).
#ifndef PBEM_ENGINE_TABLE_DISCS_H_
#define PBEM_ENGINE_TABLE_DISCS_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "engine/table/distance.h"

namespace pbem::table {

// M42-P02 model distance dist(a, b) = max(0, |c_a - c_b| - r_a - r_b), compared with `limit`:
// sign(dist - limit). "Within X" (M42-P14 near, M42-P15 close combat) is
// CompareEdgeDistance(a, b, X + eps) <= 0.
int CompareEdgeDistance(const Disc& a, const Disc& b, Coord limit);

// floor(dist(a, b)) in units (for reports).
Coord EdgeDistanceFloor(const Disc& a, const Disc& b);

// M42-P02: overlap <=> |c_a - c_b| < r_a + r_b - eps (the bases interpenetrate by more than
// eps). Also M42-P13 (ending overlap).
bool Overlap(const Disc& a, const Disc& b, Coord eps);

// M42-P02: touch <=> | |c_a - c_b| - r_a - r_b | <= eps.
bool Touch(const Disc& a, const Disc& b, Coord eps);

// M42-P05 enemy clearance: a base of radius `radius` moving along `path` keeps
// min_i d_seg_i(c_e) - r - r_e >= clearance - eps for every enemy e (passing and ending,
// M42-R12/R13). Returns the enemies that break it, in input order, with their closest edge
// distance rounded down (M-R4 then names the smallest).
struct ClearanceBreach {
  std::size_t enemy = 0;
  Coord edge_distance_floor = 0;
};
std::vector<ClearanceBreach> EnemyClearance(const Polyline& path, Coord radius,
                                            const std::vector<Disc>& enemies, Coord clearance,
                                            Coord eps);

// M42-P12 pass-through: the swept base overlaps the other base by more than eps, i.e. the
// distance from its centre to the path is < radius + r_other - eps.
bool SweepOverlapsDisc(const Polyline& path, Coord radius, const Disc& other, Coord eps);

// M42-P06 area terrain contact (enters, leaves, crosses or moves within), and M-R6 explicit
// impassable areas: the swept base shares area with the polygon's interior <=> the distance
// from the centre path to the polygon (0 if a point of it is inside) is < radius - eps. A base
// that only touches the boundary does not count.
bool SweepSharesArea(const Polyline& path, Coord radius, const Polygon& polygon, Coord eps);

// The swept base touches or overlaps the polygon: distance from the path <= radius + eps.
bool SweepTouches(const Polyline& path, Coord radius, const Polygon& polygon, Coord eps);

// M42-P07 linear obstacle crossing: the centre path meets the obstacle's centre line (proper
// or touching intersection).
bool PathsMeet(const Polyline& path, const Polyline& centre_line);

// M42-P07 (GAP-18): the disc overlaps the obstacle's body (its centre line dilated by half its
// thickness) by more than eps: distance from the disc's centre to the centre line
// < r + thickness / 2 - eps. Used at the start and end of a move (ruling M-R7).
bool DiscOverlapsBody(const Disc& disc, const Polyline& centre_line, Coord half_thickness,
                      Coord eps);

// M42-P08 point obstacle crossing: the centre path meets the closed footprint.
bool PathMeets(const Polyline& path, const Polygon& polygon);

// M42-P17 (GAP-17): every disc along the path stays inside the table [0, width] x [0, height]
// (the base may touch the edge). The table is convex, so the path's vertices decide.
bool SweepInsideTable(const Polyline& path, Coord radius, Coord width, Coord height);

// M42-P14 coherency. Models in movement order with their end positions (all radii);
// near(a, b) <=> dist(a, b) <= limit + eps with limit = coherency_in.
enum class CoherencyMode { kSequence, kConnected };
struct CoherencyBreach {
  std::size_t model = 0;    // first listed model outside the group reachable from model 0
  std::size_t nearest = 0;  // its nearest model inside that group (ties: lowest index)
  Coord edge_distance_floor = 0;
};
// nullopt when coherent. kSequence: every j >= 1 is near some i < j (then `nearest` is the
// nearest earlier model). kConnected: the near-graph is connected.
std::optional<CoherencyBreach> Coherency(const std::vector<Disc>& models, Coord limit, Coord eps,
                                         CoherencyMode mode);

}  // namespace pbem::table

#endif  // PBEM_ENGINE_TABLE_DISCS_H_
