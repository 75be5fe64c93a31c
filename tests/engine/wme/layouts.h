// Random layouts for the French mass-battle game's property tests (charge_property_test.cc,
// support_property_test.cc): the project's PCG32 (engine/core/dice.h) with fixed seeds, and an
// FNV-1a fingerprint to compare a gcc build with a clang build.
#ifndef PBEM_TESTS_ENGINE_WME_LAYOUTS_H_
#define PBEM_TESTS_ENGINE_WME_LAYOUTS_H_

#include <cstdint>
#include <vector>

#include "engine/core/dice.h"
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme::testing {

struct Fnv {
  std::uint64_t h = 1469598103934665603ULL;
  void Add(std::int64_t v) {
    for (int i = 0; i < 8; ++i) {
      h = (h ^ ((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff)) * 1099511628211ULL;
    }
  }
};

class Layouts {
 public:
  explicit Layouts(std::uint64_t seed) : rng_(seed, 17) {}
  std::int64_t Between(std::int64_t lo, std::int64_t hi) {
    return lo + static_cast<std::int64_t>(rng_.Bounded(static_cast<std::uint32_t>(hi - lo + 1)));
  }

  // A line of `n` infantry bases centred at (x, y) facing `heading`, side by side.
  std::vector<Pose> Line(int n, Milli x, Milli y, std::int64_t heading) {
    const table::UnitVector l = table::LeftOf(table::HeadingVector(heading));
    std::vector<Pose> out;
    for (int k = 0; k < n; ++k) {
      const std::int64_t off = (2 * k - (n - 1)) * 2000;  // Milli: W = 4 cm
      const Milli dx = static_cast<Milli>(
          table::RoundDiv(table::Int128{off} * l.x, table::Int128{table::kUnitOne}));
      const Milli dy = static_cast<Milli>(
          table::RoundDiv(table::Int128{off} * l.y, table::Int128{table::kUnitOne}));
      out.push_back({x + dx, y + dy, heading});
    }
    return out;
  }

  // A multiple of 15 degrees, or any millidegree when `any`.
  std::int64_t Heading(bool any) { return any ? Between(0, 359999) : Between(0, 23) * 15000; }

 private:
  engine::Pcg32 rng_;
};

}  // namespace pbem::wme::testing

#endif  // PBEM_TESTS_ENGINE_WME_LAYOUTS_H_
