#include "engine/table/available.h"

#include <algorithm>
#include <optional>

#include "engine/table/clip.h"
#include "engine/table/contact.h"

namespace pbem::table {
namespace {

struct Fraction {
  Int128 n = 0;
  Int128 d = 1;
};
int Cmp(Fraction a, Fraction b) { return CompareFractions(a.n, a.d, b.n, b.d); }

// The edge's frame: x along the edge from its first corner, y away from the target.
class Frame {
 public:
  Frame(Point a, Point b) : a_(a), e_(b - a) {
    const UInt128 len2 = static_cast<UInt128>(Dot(e_, e_));
    const UInt128 root = ISqrt(len2);
    exact_ = root * root == len2;
    len_ = exact_ ? root : ISqrt(len2 << 64);  // |e| or |e| * 2^32, floor
  }
  Coord Length() const { return Scale(static_cast<Int128>(Dot(e_, e_))); }
  // Clockwise corners: the outside of an edge is on its left.
  std::pair<Coord, Coord> Of(Point p) const {
    const Vector v = p - a_;
    return {Scale(Dot(v, e_)), Scale(Cross(e_, v))};
  }

 private:
  // round(v / |e|): exact when |e| is whole (then v is a multiple of it for grid points along
  // a table axis), else through the 32-bit root.
  Coord Scale(Int128 v) const {
    if (exact_) return static_cast<Coord>(RoundDiv(v, static_cast<Int128>(len_)));
    return static_cast<Coord>(RoundDiv(v * (Int128{1} << 32), static_cast<Int128>(len_)));
  }
  Point a_;
  Vector e_;
  UInt128 len_ = 0;
  bool exact_ = true;
};

// The open interval of probe positions s (its front edge from s to s + width along the edge)
// at which the probe [s, s + width] x [0, depth] meets the obstacle's interior.
std::optional<std::pair<Fraction, Fraction>> Blocked(const std::vector<std::pair<Coord, Coord>>& v,
                                                     Coord width, Coord depth) {
  Coord lo_y = v[0].second, hi_y = v[0].second;
  for (const auto& p : v) lo_y = std::min(lo_y, p.second), hi_y = std::max(hi_y, p.second);
  if (lo_y >= depth || hi_y <= 0) return std::nullopt;  // the interior misses the open strip
  std::optional<Fraction> lo, hi;
  auto take = [&](Fraction x) {
    if (!lo || Cmp(x, *lo) < 0) lo = x;
    if (!hi || Cmp(x, *hi) > 0) hi = x;
  };
  for (std::size_t i = 0; i < v.size(); ++i) {
    const auto [x1, y1] = v[i];
    const auto [x2, y2] = v[(i + 1) % v.size()];
    if (y1 >= 0 && y1 <= depth) take({x1, 1});
    for (const Coord h : {Coord{0}, depth}) {
      if ((y1 < h && y2 > h) || (y1 > h && y2 < h)) {
        // x1 + (x2 - x1)(h - y1) / (y2 - y1), den made positive.
        Int128 den = Int128{y2} - y1, num = Int128{x1} * den + (Int128{x2} - x1) * (h - y1);
        if (den < 0) den = -den, num = -num;
        take({num, den});
      }
    }
  }
  return std::make_pair(Fraction{lo->n - Int128{width} * lo->d, lo->d}, *hi);
}

}  // namespace

int ContactLength::Compare(Coord t) const {
  return CompareFractions(num, den, ClampThreshold(t), 1);
}

Coord ContactLength::FloorUnits() const { return static_cast<Coord>(num / den); }

bool Exposed(const Rect& base, std::size_t edge, const std::vector<Rect>& unit_others, Coord eps,
             std::int64_t eps_millidegrees) {
  for (const Rect& other : unit_others) {
    for (std::size_t j = 0; j < 4; ++j) {
      if (EdgesInContact(base.Edge(edge), other.Edge(j), eps, eps_millidegrees)) return false;
    }
  }
  return true;
}

ContactLength AvailableLength(const Rect& target, std::size_t edge, Coord probe_width,
                              Coord probe_depth, const std::vector<Polygon>& obstacles) {
  const Segment e = target.Edge(edge % 4);
  const Frame frame(e.a, e.b);
  const Coord len = frame.Length();
  std::vector<std::pair<Fraction, Fraction>> blocked;
  for (const Polygon& o : obstacles) {
    std::vector<std::pair<Coord, Coord>> local;
    for (const Point& p : o.vertices()) local.push_back(frame.Of(p));
    if (auto b = Blocked(local, probe_width, probe_depth)) blocked.push_back(*b);
  }
  // Overlap of [s, s + width] with [0, len]; largest on [min(0, len - w), max(0, len - w)].
  auto overlap = [&](Fraction s) {
    const Int128 end = std::min(s.n + Int128{probe_width} * s.d, Int128{len} * s.d);
    const Int128 start = std::max<Int128>(s.n, 0);
    return Fraction{std::max<Int128>(end - start, 0), s.d};
  };
  std::vector<Fraction> candidates{{std::min<Coord>(0, len - probe_width), 1},
                                   {std::max<Coord>(0, len - probe_width), 1}};
  for (const auto& [lo, hi] : blocked) candidates.insert(candidates.end(), {lo, hi});
  Fraction best{0, 1};
  for (const Fraction& s : candidates) {
    const bool free = std::none_of(blocked.begin(), blocked.end(), [&](const auto& b) {
      return Cmp(b.first, s) < 0 && Cmp(s, b.second) < 0;
    });
    if (!free) continue;
    const Fraction g = overlap(s);
    if (Cmp(g, best) > 0) best = g;
  }
  return {best.n, best.d};
}

bool Pinned(const std::vector<Rect>& target_unit, const std::vector<Rect>& enemies,
            const std::vector<Rect>& others, Coord probe_width, Coord probe_depth, Coord limit,
            Coord eps, std::int64_t eps_millidegrees) {
  for (std::size_t i = 0; i < target_unit.size(); ++i) {
    const Rect& base = target_unit[i];
    if (std::none_of(enemies.begin(), enemies.end(),
                     [&](const Rect& e) { return Touch(base, e, eps); })) {
      return false;
    }
    std::vector<Rect> unit_others;
    std::vector<Polygon> obstacles;
    for (std::size_t j = 0; j < target_unit.size(); ++j) {
      if (j == i) continue;
      unit_others.push_back(target_unit[j]);
      obstacles.push_back(target_unit[j].footprint());
    }
    for (const Rect& r : enemies) obstacles.push_back(r.footprint());
    for (const Rect& r : others) obstacles.push_back(r.footprint());
    for (std::size_t k = 0; k < 4; ++k) {
      if (!Exposed(base, k, unit_others, eps, eps_millidegrees)) continue;
      if (AvailableLength(base, k, probe_width, probe_depth, obstacles).Compare(limit + eps) > 0) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace pbem::table
