// WME-P06 line / column / irregular: the digest's units, the offsets at eps and one unit more,
// the heading tolerance at 0.5 degrees and one millidegree more, and turned units.
#include <catch2/catch.hpp>

#include "engine/table/formation.h"
#include "engine/table/motion.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

constexpr std::int64_t kHalfDegree = 500;

Rect Base(Point c, std::int64_t heading = 90000) {
  return *Rect::Make(c, 4 * kCm, 2 * kCm, heading);
}

Formation Of(std::vector<Rect> bases) { return Classify(bases, kEpsCm, kHalfDegree); }

TEST_CASE("T01, T02, T08: line, irregular, column", "[table]") {
  CHECK(Of({Base(Cm(20, 30)), Base(Cm(24, 30)), Base(Cm(28, 30))}) == Formation::kLine);
  CHECK(Of({Base(Cm(28, 30)), Base(Cm(20, 30)), Base(Cm(24, 30))}) == Formation::kLine);
  CHECK(Of({Base(Cm(20, 30)), Base(Cm(24, 31)), Base(Cm(28, 30))}) == Formation::kIrregular);
  CHECK(Of({Base(Cm(60, 40)), Base(Cm(60, 38))}) == Formation::kColumn);
  CHECK(Of({Base(Cm(20, 30)), Base(Cm(24, 32))}) == Formation::kLine);  // en escalier
  CHECK(Of({Base(Cm(20, 30))}) == Formation::kLine);                    // W-R9
  CHECK(Of({Base(Cm(20, 30)), Base(Cm(30, 30))}) == Formation::kNone);
  CHECK(Of({}) == Formation::kNone);
}

TEST_CASE("offsets and headings at their tolerances", "[table]") {
  const Rect a = Base(Cm(20, 30));
  const Coord x = Cm(24, 0).x(), y = Cm(0, 30).y();
  CHECK(Of({a, Base(P(x, y + kEpsCm))}) == Formation::kLine);
  CHECK(Of({a, Base(P(x, y + kEpsCm + 1))}) == Formation::kIrregular);
  CHECK(Of({a, Base(P(x, y + 2 * kCm - kEpsCm))}) == Formation::kLine);
  CHECK(Of({a, Base(P(x, y + 2 * kCm - kEpsCm - 1))}) == Formation::kIrregular);
  CHECK(Of({a, Base(Cm(24, 30), 90000 + kHalfDegree)}) == Formation::kLine);
  CHECK(Of({a, Base(Cm(24, 30), 90000 - kHalfDegree - 1)}) == Formation::kIrregular);
  CHECK(Of({Base(Cm(20, 30), 359900), Base(Cm(20, 34), 200)}) == Formation::kLine);  // wraps
}

TEST_CASE("a line turned 30 degrees is still a line", "[table]") {
  const Rect a = Base(Cm(50, 50), 30000);
  const Rect b = *Rect::Make(*Rotate(Cm(46, 50), Cm(50, 50), -60000), 4 * kCm, 2 * kCm, 30000);
  CHECK(Of({a, b}) == Formation::kLine);
  const Rect c = *Rect::Make(*Rotate(Cm(50, 48), Cm(50, 50), -60000), 4 * kCm, 2 * kCm, 30000);
  CHECK(Of({a, c}) == Formation::kColumn);
}

}  // namespace
}  // namespace pbem::table
