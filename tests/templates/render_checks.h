// What the renderer tests share: the bundled scenario (transcribed in code) at its initial
// state, rendering it, and counting pixels of a colour.
#ifndef PBEM_TESTS_TEMPLATES_RENDER_CHECKS_H_
#define PBEM_TESTS_TEMPLATES_RENDER_CHECKS_H_

#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "templates/map_renderer.h"
#include "templates/testing/sample_maps.h"

namespace pbem::templates::render_checks {

inline engine::Hex L(const char* label) { return *engine::ParseLabel(label); }

struct Bundled {
  engine::Ruleset ruleset = testing::MornePlaineRuleset();
  engine::Scenario scenario = testing::BoisDeLaMorne(ruleset);
  engine::GameState state = engine::InitialState(scenario, "test");

  engine::UnitId Unit(const char* id) const { return *scenario.FindUnit(id); }
};

inline MapImage Render(const Bundled& b, const std::vector<engine::Event>* events = nullptr,
                       const RenderOptions& options = {}) {
  MapImage image;
  const Status st = RenderMap(b.ruleset, b.scenario, b.state, events, options, &image);
  INFO(st.message);
  REQUIRE(st.ok);
  return image;
}

inline bool Near(Rgb a, Rgb b, int tolerance) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance &&
         std::abs(a.b - b.b) <= tolerance;
}

inline std::string Show(Rgb c) {
  return "(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
}

// Pixels of `box` (its corners truncated to whole pixels) for which `pred` holds.
inline int CountIf(const MapImage& image, Box box, const std::function<bool(Rgb)>& pred) {
  int n = 0;
  for (int y = static_cast<int>(box.y); y < static_cast<int>(box.bottom()); ++y) {
    for (int x = static_cast<int>(box.x); x < static_cast<int>(box.right()); ++x) {
      if (pred(image.PixelAt(x, y))) ++n;
    }
  }
  return n;
}

inline int CountNear(const MapImage& image, Box box, Rgb colour, int tolerance) {
  return CountIf(image, box, [&](Rgb px) { return Near(px, colour, tolerance); });
}

}  // namespace pbem::templates::render_checks

#endif  // PBEM_TESTS_TEMPLATES_RENDER_CHECKS_H_
