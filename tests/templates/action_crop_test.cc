// The action crop of the results mail (templates/action_crop.h): the box holds the turn's
// events, stays within its bounds and the map band, centres on the fighting when the action is
// wider than the bounds, and CropPng gives the map's own pixels, the same bytes every time.
#include "templates/action_crop.h"

#include <catch2/catch.hpp>
#include <vector>

#include "templates/map_renderer.h"
#include "templates/testing/sample_maps.h"
#include "tests/templates/render_checks.h"

namespace pbem::templates {
namespace {

[[maybe_unused]] const bool kFontCachesReleased = testing::ReleaseFontCachesAtExit();

using engine::Arg;
using engine::Event;
using engine::EventKind;
using engine::Hex;
using engine::Phase;
using render_checks::Bundled;
using render_checks::L;
using render_checks::Render;

bool Holds(const PixelBox& box, Point p) {
  return p.x >= box.x && p.x < box.x + box.w && p.y >= box.y && p.y < box.y + box.h;
}

std::vector<Event> Combat(const Bundled& b, Hex from, Hex at) {
  return {Event{Phase::kCombat,
                b.Unit("b-i1"),
                {from, at},
                engine::payload::Combat{"o-i2", 4, 2, 4, 2, "2:1", 5, 5, "0/1", std::nullopt},
                std::nullopt}};
}

TEST_CASE("the action box holds the turn's events, within its bounds", "[templates][crop]") {
  Bundled b;
  b.state.unit(b.Unit("b-i1")).hex = L("1409");
  b.state.unit(b.Unit("o-i2")).hex = L("1410");
  std::vector<Event> events = Combat(b, L("1409"), L("1410"));
  const MapImage image = Render(b, &events);
  const CropOptions options;
  const PixelBox box = ActionBox(image, b.scenario, b.state, &events, options);
  INFO(box.x << "," << box.y << " " << box.w << "x" << box.h);
  CHECK(Holds(box, image.layout().Centre(L("1409"))));
  CHECK(Holds(box, image.layout().Centre(L("1410"))));
  CHECK(box.w >= options.min_width);
  CHECK(box.h >= options.min_height);
  CHECK(box.w <= options.max_width);
  CHECK(box.h <= options.max_height);
  CHECK(box.x >= 0);
  CHECK(box.x + box.w <= image.width());
  CHECK(box.y >= image.layout().map_band_top());
  CHECK(box.y + box.h <= image.layout().map_band_bottom());
  // Small action: centred on it.
  const Point mid = image.layout().Centre(L("1409"));
  CHECK(std::abs(box.x + box.w / 2.0 - mid.x) < image.layout().hex_width());

  // The same inputs, the same box and the same bytes.
  CHECK(ActionBox(image, b.scenario, b.state, &events, options) == box);
  std::vector<std::uint8_t> first;
  std::vector<std::uint8_t> second;
  REQUIRE(CropPng(image, box, {}, &first).ok);
  REQUIRE(CropPng(Render(b, &events), box, {}, &second).ok);
  CHECK(first == second);
  // The crop is the map's pixels at full scale.
  DecodedPng crop;
  REQUIRE(DecodePng(first, &crop).ok);
  REQUIRE(crop.width == box.w);
  REQUIRE(crop.height == box.h);
  int differing = 0;
  for (int y = 0; y < box.h; y += 7) {
    for (int x = 0; x < box.w; x += 5) {
      const Rgb want = image.PixelAt(box.x + x, box.y + y);
      const std::size_t i = static_cast<std::size_t>((y * box.w + x) * 4);
      differing +=
          crop.rgba[i] != want.r || crop.rgba[i + 1] != want.g || crop.rgba[i + 2] != want.b;
    }
  }
  CHECK(differing == 0);
}

TEST_CASE("action wider than the bounds: the box centres on the fighting", "[templates][crop]") {
  Bundled b;
  b.state.unit(b.Unit("b-i1")).hex = L("0309");
  b.state.unit(b.Unit("o-i2")).hex = L("0310");
  std::vector<Event> events = Combat(b, L("0309"), L("0310"));
  // A move far away on the other side of the map.
  for (const Event& e : testing::MoveEvents(b.Unit("b-i2"), {L("2804"), L("2805"), L("2806")})) {
    events.push_back(e);
  }
  b.state.unit(b.Unit("b-i2")).hex = L("2806");
  const MapImage image = Render(b, &events);
  const PixelBox box = ActionBox(image, b.scenario, b.state, &events);
  CHECK(box.w == CropOptions{}.max_width);
  CHECK(Holds(box, image.layout().Centre(L("0309"))));
  CHECK(Holds(box, image.layout().Centre(L("0310"))));
  CHECK_FALSE(Holds(box, image.layout().Centre(L("2806"))));
}

TEST_CASE("a turn without events shows where the side to move stands", "[templates][crop]") {
  Bundled b;
  const MapImage image = Render(b, nullptr);
  const PixelBox box = ActionBox(image, b.scenario, b.state, nullptr);
  // The armies stand at both ends of the map, too far apart for one crop: the side to move's
  // units are shown, not the empty middle of the map.
  int held = 0;
  for (std::size_t i = 0; i < b.state.units.size(); ++i) {
    const engine::UnitState& u = b.state.units[i];
    if (u.on_map() && b.scenario.units[i].side == b.state.side_to_move) {
      held += Holds(box, image.layout().Centre(*u.hex));
    }
  }
  CHECK(held >= 3);
  CHECK(box.w <= CropOptions{}.max_width);
  CHECK(box.h <= CropOptions{}.max_height);
  std::vector<std::uint8_t> png;
  CHECK(CropPng(image, box, {}, &png).ok);
  // A box off the image holds nothing: an error, not a crash.
  CHECK_FALSE(CropPng(image, PixelBox{image.width() + 10, 0, 50, 50}, {}, &png).ok);
}

}  // namespace
}  // namespace pbem::templates
