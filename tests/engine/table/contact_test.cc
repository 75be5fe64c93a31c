// WME-P04 contact kinds: the digest's lines, irregular units, en escalier and charges at the
// limit and one unit either side, a small turn inside and outside the angle tolerance, and
// axis-aligned random bases against intervals.
#include "engine/table/contact.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "engine/table/motion.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

constexpr std::int64_t kHalfDegree = 500;

Rect Base(Point c, std::int64_t heading = 90000, Coord w = 4 * kCm, Coord d = 2 * kCm) {
  return *Rect::Make(c, w, d, heading);
}

TEST_CASE("T01, T02, en escalier: edge and corner contacts", "[table]") {
  const Rect a = Base(Cm(20, 30));
  CHECK(ContactKind(a, Base(Cm(24, 30)), kEpsCm, kHalfDegree) == Contact::kEdge);  // a line
  CHECK(ContactKind(a, Base(Cm(24, 31)), kEpsCm, kHalfDegree) == Contact::kEdge);  // 1 cm shared
  CHECK(ContactKind(a, Base(Cm(24, 32)), kEpsCm, kHalfDegree) == Contact::kCorner);
  CHECK(ContactKind(a, Base(Cm(30, 30)), kEpsCm, kHalfDegree) == Contact::kNone);
  // Shared length exactly eps is a corner contact; one unit more is an edge contact.
  const Coord y = Cm(0, 32).y() - kEpsCm;
  CHECK(ContactKind(a, Base(P(Cm(24, 0).x(), y)), kEpsCm, kHalfDegree) == Contact::kCorner);
  CHECK(ContactKind(a, Base(P(Cm(24, 0).x(), y - 1)), kEpsCm, kHalfDegree) == Contact::kEdge);
  // Apart by eps still touches along the edge; one unit more does not touch.
  const Coord x = Cm(24, 0).x() + kEpsCm;
  CHECK(ContactKind(a, Base(P(x, Cm(0, 30).y())), kEpsCm, kHalfDegree) == Contact::kEdge);
  CHECK(ContactKind(a, Base(P(x + 1, Cm(0, 30).y())), kEpsCm, kHalfDegree) == Contact::kNone);
  const auto pair = EdgeContact(a, Base(Cm(24, 30)), kEpsCm, kHalfDegree);
  REQUIRE(pair.has_value());
  CHECK(pair->a == 1);  // facing north, the right side is the east side
  CHECK(pair->b == 3);
}

TEST_CASE("T15, T17: frontal contacts on the front and on the flank", "[table]") {
  // T17: blue (40, 58, 90) against red (40, 60, 270): front to front.
  CHECK(FrontalContactEdge(Base(Cm(40, 58)), Base(Cm(40, 60), 270000), kEpsCm, kHalfDegree) ==
        std::size_t{0});
  // T15: C.2 at (60, 47, 90) against T's base (60, 50, 0) facing east: its right flank.
  CHECK(FrontalContactEdge(Base(Cm(60, 47)), Base(Cm(60, 50), 0), kEpsCm, kHalfDegree) ==
        std::size_t{1});
  // Side by side is an edge contact but not a frontal one.
  CHECK_FALSE(FrontalContactEdge(Base(Cm(20, 30)), Base(Cm(24, 30)), kEpsCm, kHalfDegree));
}

TEST_CASE("the angle tolerance: turned 0.4 degrees is along the edge, 0.6 is a corner", "[table]") {
  // A base turned about its front-left corner, which stays on the other base's front edge.
  const Rect target = Base(Cm(40, 60), 270000);  // front edge y = 59, x 38-42
  auto turned = [&](std::int64_t md) {
    const Rect straight = Base(Cm(40, 58));
    const auto c = Rotate(straight.centre(), straight.FL(), -md);
    return *Rect::Make(*c, 4 * kCm, 2 * kCm, 90000 - md);
  };
  CHECK(FrontalContactEdge(turned(400), target, kEpsCm, kHalfDegree) == std::size_t{0});
  CHECK_FALSE(FrontalContactEdge(turned(600), target, kEpsCm, kHalfDegree).has_value());
  CHECK(ContactKind(turned(600), target, kEpsCm, kHalfDegree) == Contact::kCorner);
}

TEST_CASE("WME-P18: contact across a fortification", "[table]") {
  // Outer face along y = 50 (x 30-50), wall 1 cm thick: reach = 1 + 1 cm behind the face.
  const Segment face{Cm(30, 50), Cm(50, 50)};
  const Rect charger = Base(Cm(40, 49));  // front edge on y = 50, x 38-42
  const Coord reach = 2 * kCm;
  auto target_at = [&](Coord x, Coord front_y) {  // facing south, front edge at front_y
    return Base(P(x, front_y + kCm), 270000);
  };
  const Coord x = Cm(40, 0).x();
  CHECK(FortifiedContact(charger, face, target_at(x, Cm(0, 51.5).y()), reach, kEpsCm, 500));
  CHECK(FortifiedContact(charger, face, target_at(x, Cm(0, 52).y() + kEpsCm), reach, kEpsCm, 500));
  CHECK_FALSE(FortifiedContact(charger, face, target_at(x, Cm(0, 52).y() + kEpsCm + 1), reach,
                               kEpsCm, 500));
  // Lateral overlap: exactly eps is not enough, one unit more is.
  const Coord y = Cm(0, 51.5).y();
  CHECK_FALSE(
      FortifiedContact(charger, face, target_at(Cm(44, 0).x() - kEpsCm, y), reach, kEpsCm, 500));
  CHECK(FortifiedContact(charger, face, target_at(Cm(44, 0).x() - kEpsCm - 1, y), reach, kEpsCm,
                         500));
  // A charger not touching the face, or a target on the charger's side, is no contact.
  CHECK_FALSE(FortifiedContact(Base(Cm(40, 48)), face, target_at(x, y), reach, kEpsCm, 500));
  CHECK_FALSE(FortifiedContact(charger, face, Base(Cm(40, 49.5), 270000), reach, kEpsCm, 500));
}

TEST_CASE("contact kinds of axis-aligned bases agree with intervals", "[table]") {
  reference::Rng rng(110);
  int edges = 0, corners = 0;
  for (int i = 0; i < 40000; ++i) {
    const Point ca = rng.PointIn(0, 16);
    const Rect a = Base(ca, 90000 * rng.Between(0, 3), 4, 2);
    const Point cb = rng.PointIn(0, 16);
    const Rect b = Base(cb, 90000 * rng.Between(0, 3), 4, 2);
    const Coord eps = rng.Between(0, 1);
    auto box = [](const Rect& r, bool x, bool high) {
      Coord v = x ? r.FL().x() : r.FL().y();
      for (const Point& p : r.corners()) {
        const Coord c = x ? p.x() : p.y();
        v = high ? std::max(v, c) : std::min(v, c);
      }
      return v;
    };
    const Coord ax0 = box(a, true, false), ax1 = box(a, true, true);
    const Coord ay0 = box(a, false, false), ay1 = box(a, false, true);
    const Coord bx0 = box(b, true, false), bx1 = box(b, true, true);
    const Coord by0 = box(b, false, false), by1 = box(b, false, true);
    const Coord ox = std::min(ax1, bx1) - std::max(ax0, bx0);
    const Coord oy = std::min(ay1, by1) - std::max(ay0, by0);
    const bool vertical = (std::abs(ax1 - bx0) <= eps || std::abs(bx1 - ax0) <= eps) && oy > eps;
    const bool horizontal = (std::abs(ay1 - by0) <= eps || std::abs(by1 - ay0) <= eps) && ox > eps;
    const bool touch = Touch(a, b, eps);
    const Contact expected =
        !touch ? Contact::kNone : ((vertical || horizontal) ? Contact::kEdge : Contact::kCorner);
    REQUIRE(ContactKind(a, b, eps, kHalfDegree) == expected);
    edges += expected == Contact::kEdge;
    corners += expected == Contact::kCorner;
  }
  CHECK(edges > 1000);
  CHECK(corners > 200);
}

}  // namespace
}  // namespace pbem::table
