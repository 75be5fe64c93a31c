#include "engine/table/clip.h"

namespace pbem::table {

std::vector<Point> Clip(const std::vector<Point>& polygon, const HalfPlane& h) {
  std::vector<Point> out;
  for (std::size_t i = 0; i < polygon.size(); ++i) {
    const Point p = polygon[i];
    const Point q = polygon[(i + 1) % polygon.size()];
    const Int128 sp = h.At(p), sq = h.At(q);
    if (sp >= 0) out.push_back(p);
    if ((sp >= 0) != (sq >= 0) && sp != 0 && sq != 0) {
      // p + (q - p) sp / (sp - sq); |q - p| <= 2^30 and |sp| < 2^93: the products fit.
      const Int128 den = sp - sq;
      const Int128 x =
          p.x() + RoundDiv((Int128{q.x()} - p.x()) * sp, den < 0 ? -den : den) * (den < 0 ? -1 : 1);
      const Int128 y =
          p.y() + RoundDiv((Int128{q.y()} - p.y()) * sp, den < 0 ? -den : den) * (den < 0 ? -1 : 1);
      // On the segment p-q, so within the bounds already checked for p and q.
      out.push_back(*Point::Make(static_cast<Coord>(x), static_cast<Coord>(y)));
    }
  }
  return out;
}

int CompareFractions(Int128 a, Int128 b, Int128 c, Int128 d) {
  const int sa = Sign3<Int128>(a, 0), sc = Sign3<Int128>(c, 0);
  if (sa != sc) return Sign3(sa, sc);
  if (sa == 0) return 0;
  // Same sign: compare |a| d with |c| b, reversed for negatives.
  auto mag = [](Int128 v) { return static_cast<UInt128>(v < 0 ? -v : v); };
  const int s = CompareProducts(mag(a), static_cast<UInt128>(d), mag(c), static_cast<UInt128>(b));
  return sa > 0 ? s : -s;
}

}  // namespace pbem::table
