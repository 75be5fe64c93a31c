// M42-P14 coherency: the digest's T10-T12, the limit and one unit either side, and both modes
// against brute force (Warshall's transitive closure) on random units.
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/table/discs.h"
#include "tests/engine/table/reference.h"

namespace pbem::table {
namespace {

using namespace reference::units;

Disc At(double x, double y) { return *Disc::Make(In(x, y), kR); }

TEST_CASE("T10-T12: coherency at 2 inches and with SPREAD", "[table]") {
  const Coord two = 2 * kInch;
  // T10: order a2, a1, a3; a3 ends at (16.1, 20): 2.100 from a1.
  const auto t10 =
      Coherency({At(10, 20), At(13, 20), At(16.1, 20)}, two, kEps, CoherencyMode::kConnected);
  REQUIRE(t10.has_value());
  CHECK(t10->model == 2);
  CHECK(t10->nearest == 1);
  CHECK(t10->edge_distance_floor == 2100 * kUnitsPerThousandthInch);
  CHECK_FALSE(
      Coherency({At(10, 20), At(13, 20), At(16, 20)}, two, kEps, CoherencyMode::kConnected));
  // T11: order a2, a3, a1: connected passes, sequence fails on a3 (5.000 from a2).
  const std::vector<Disc> t11{At(10, 20), At(16, 20), At(13, 20)};
  CHECK_FALSE(Coherency(t11, two, kEps, CoherencyMode::kConnected));
  const auto seq = Coherency(t11, two, kEps, CoherencyMode::kSequence);
  REQUIRE(seq.has_value());
  CHECK(seq->model == 1);
  CHECK(seq->nearest == 0);
  CHECK(seq->edge_distance_floor == 5 * kInch);
  // T12: SPREAD(3"): a3 at (17, 20) is 3.000 from a1.
  const std::vector<Disc> t12{At(10, 20), At(13, 20), At(17, 20)};
  CHECK_FALSE(Coherency(t12, 3 * kInch, kEps, CoherencyMode::kConnected));
  CHECK(Coherency(t12, two, kEps, CoherencyMode::kConnected).has_value());
}

TEST_CASE("coherency limit is C + eps exactly", "[table]") {
  const Coord c = 2 * kInch;
  const Disc a = *Disc::Make(P(0, 0), kR);
  auto pair_at = [&](Coord x) {
    return Coherency({a, *Disc::Make(P(x, 0), kR)}, c, kEps, CoherencyMode::kConnected);
  };
  CHECK_FALSE(pair_at(2 * kR + c + kEps).has_value());
  CHECK(pair_at(2 * kR + c + kEps + 1).has_value());
  CHECK_FALSE(pair_at(2 * kR + c + kEps - 1).has_value());
  CHECK_FALSE(Coherency({a}, c, kEps, CoherencyMode::kSequence).has_value());
  CHECK_FALSE(Coherency({}, c, kEps, CoherencyMode::kConnected).has_value());
}

TEST_CASE("coherency agrees with brute force on random units", "[table]") {
  reference::Rng rng(40);
  int broken_connected = 0, broken_sequence = 0;
  for (int i = 0; i < 5000; ++i) {
    const int n = static_cast<int>(rng.Between(1, 9));
    std::vector<Disc> m;
    for (int k = 0; k < n; ++k) {
      const Point c = rng.PointIn(0, 40);
      m.push_back(*Disc::Make(c, rng.Between(0, 3)));
    }
    const Coord limit = rng.Between(0, 8), eps = rng.Between(0, 1);
    // near by the reference: |c| <= limit + eps + r_a + r_b.
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    for (int a = 0; a < n; ++a) {
      for (int b = 0; b < n; ++b) {
        const auto d2 = reference::Dist2PointSegment(m[a].centre(), m[b].centre(), m[b].centre());
        reach[a][b] =
            a == b || reference::Cmp(d2, limit + eps + m[a].radius() + m[b].radius()) <= 0;
      }
    }
    std::vector<std::vector<bool>> near = reach;
    for (int k = 0; k < n; ++k) {
      for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) reach[a][b] = reach[a][b] || (reach[a][k] && reach[k][b]);
      }
    }
    int first_out = -1;
    for (int j = 0; j < n && first_out < 0; ++j) {
      if (!reach[0][j]) first_out = j;
    }
    const auto got = Coherency(m, limit, eps, CoherencyMode::kConnected);
    REQUIRE(got.has_value() == (first_out >= 0));
    if (got) {
      REQUIRE(static_cast<int>(got->model) == first_out);
      REQUIRE(reach[0][got->nearest]);
      ++broken_connected;
    }
    int first_seq = -1;
    for (int j = 1; j < n && first_seq < 0; ++j) {
      bool ok = false;
      for (int k = 0; k < j; ++k) ok = ok || near[k][j];
      if (!ok) first_seq = j;
    }
    const auto seq = Coherency(m, limit, eps, CoherencyMode::kSequence);
    REQUIRE(seq.has_value() == (first_seq >= 0));
    if (seq) {
      REQUIRE(static_cast<int>(seq->model) == first_seq);
      REQUIRE(static_cast<int>(seq->nearest) < first_seq);
      ++broken_sequence;
    }
  }
  CHECK(broken_connected > 500);
  CHECK(broken_sequence > broken_connected);
}

}  // namespace
}  // namespace pbem::table
