#include "templates/map_renderer.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "templates/png_writer.h"
#include "templates/testing/sample_maps.h"
#include "tests/templates/render_checks.h"

namespace pbem::templates {
namespace {

[[maybe_unused]] const bool kFontCachesReleased = testing::ReleaseFontCachesAtExit();

using engine::Hex;
using engine::Side;
using engine::UnitId;

using render_checks::Bundled;
using render_checks::CountNear;
using render_checks::L;
using render_checks::Near;
using render_checks::Render;
using render_checks::Show;

// Pixels of a counter's left-middle patch: between the corps strip and the bottom values,
// left of the arm symbol, where nothing but the counter colour is drawn.
std::vector<Rgb> CounterBodyPatch(const MapImage& image, Hex hex) {
  const Box box = image.layout().CounterBox(hex);
  std::vector<Rgb> out;
  const int x0 = static_cast<int>(box.x + box.w * 0.08);
  const int x1 = static_cast<int>(box.x + box.w * 0.22);
  const int y0 = static_cast<int>(box.y + box.h * 0.5);
  const int y1 = static_cast<int>(box.y + box.h * 0.6);
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) out.push_back(image.PixelAt(x, y));
  }
  return out;
}

TEST_CASE("the bundled scenario renders at its expected size", "[templates][render]") {
  const Bundled b;
  const MapImage image = Render(b);
  // 30x20 hexes of size 32: hex width 56, row step 48, so a grid of 1708 x 976 px; edge
  // labels of 11.5 px need margins of 25 px (left, right) and 20 px (top, bottom); padding 8;
  // a 34 px title; a legend of 32 entries in 8 columns of 210 px, 4 rows of 22 px, 6 px
  // below the bottom labels.
  CHECK(image.layout().hex_size() == 32);
  CHECK(image.layout().grid_box().w == 1708);
  CHECK(image.layout().grid_box().h == 976);
  CHECK(image.width() == 8 + 25 + 1708 + 25 + 8);
  CHECK(image.height() == 8 + 34 + 20 + 976 + 20 + 6 + 4 * 22 + 8);
  CHECK(cairo_image_surface_get_width(image.surface()) == 1774);
  CHECK(cairo_image_surface_get_height(image.surface()) == 1160);
  const MapLayout expected = ComputeMapLayout(b.ruleset, b.scenario, nullptr, RenderOptions{});
  CHECK(expected.image_width() == image.width());
  CHECK(expected.image_height() == image.height());
}

TEST_CASE("a counter carries its side's colour at its hex", "[templates][render]") {
  const Bundled b;
  const MapImage image = Render(b);
  for (const char* id : {"b-i1", "b-hc1", "b-fa1", "o-i2", "o-lc1", "o-ha1"}) {
    const UnitId unit = b.Unit(id);
    const Side side = b.scenario.unit(unit).side;
    const Hex hex = *b.state.unit(unit).hex;
    INFO(id << " at " << engine::FormatLabel(hex));
    for (const Rgb px : CounterBodyPatch(image, hex)) {
      INFO("pixel " << Show(px));
      CHECK(px == SideColour(side));
    }
  }
}

TEST_CASE("the counter sits on the unit's hex and nowhere else", "[templates][render]") {
  const Bundled b;
  const MapImage image = Render(b);
  // The hex south of a blue unit (empty clear ground) shows no blue at all.
  const Hex empty = L("1406");
  REQUIRE_FALSE(b.state.UnitAt(empty));
  const Box hex_box{image.layout().Centre(empty).x - 20, image.layout().Centre(empty).y - 20, 40,
                    40};
  CHECK(CountNear(image, hex_box, kBlueSideColour, 2) == 0);
  CHECK(CountNear(image, image.layout().CounterBox(L("1404")), kBlueSideColour, 0) > 300);
}

TEST_CASE("an eliminated unit is not drawn", "[templates][render]") {
  Bundled b;
  const UnitId unit = b.Unit("b-i1");  // on clear ground at 1404, no road, no label below
  const Hex hex = *b.state.unit(unit).hex;
  const MapImage before = Render(b);
  const Box counter = before.layout().CounterBox(hex);
  REQUIRE(CountNear(before, counter, kBlueSideColour, 0) > 300);

  b.state.unit(unit).eliminated = true;
  const MapImage image = Render(b);
  const Rgb clear = *ParseHexColour(b.ruleset.terrain[0].colour);
  for (const Rgb px : CounterBodyPatch(image, hex)) {
    INFO("pixel " << Show(px));
    CHECK(px == clear);
  }
  CHECK(CountNear(image, counter, kBlueSideColour, 40) == 0);

  // Off the map (hex cleared) is the same.
  b.state.unit(unit).eliminated = false;
  b.state.unit(unit).hex.reset();
  const MapImage off = Render(b);
  CHECK(CountNear(off, counter, kBlueSideColour, 40) == 0);
}

TEST_CASE("terrain is filled with the ruleset's colour", "[templates][render]") {
  const Bundled b;
  RenderOptions options;
  options.labels_in_every_hex = false;
  const MapImage image = Render(b, nullptr, options);
  // Hexes without glyph, road or unit: the centre pixel is the terrain colour.
  CHECK(image.PixelAt(static_cast<int>(image.layout().Centre(L("0202")).x),
                      static_cast<int>(image.layout().Centre(L("0202")).y)) ==
        *ParseHexColour("#e6eec4"));
  // Woods carry trees: most of a woods hex is the woods colour or darker tree green.
  const Point woods = image.layout().Centre(L("0503"));
  const Rgb px = image.PixelAt(static_cast<int>(woods.x) + 9, static_cast<int>(woods.y) - 14);
  INFO(Show(px));
  CHECK(px.g > px.r);
  CHECK(px.g > px.b);
}

TEST_CASE("objectives are ringed in their holder's colour", "[templates][render]") {
  const Bundled b;
  const MapImage image = Render(b);
  const MapLayout& layout = image.layout();
  // On the ring (84% of the way to the side midpoint, thickness 3 px): Gué de la Ferme (2211)
  // is held by orange at the start, the village (1612) by nobody.
  const auto ring_pixel = [&](Hex h) {
    const Point c = layout.Centre(h);
    const Point m = layout.SideMidpoint(h, engine::Neighbor(h, engine::Direction::kW));
    // The W side is vertical: the pixel containing the point lies wholly inside the stroke.
    return image.PixelAt(static_cast<int>(std::floor(c.x + (m.x - c.x) * 0.84)),
                         static_cast<int>(std::floor(c.y + (m.y - c.y) * 0.84)));
  };
  CHECK(Near(ring_pixel(L("2211")), kOrangeSideColour, 40));
  CHECK(Near(ring_pixel(L("1612")), kNeutralObjectiveColour, 40));
}

TEST_CASE("move arrows follow kMoveStep events", "[templates][render]") {
  Bundled b;
  const UnitId unit = b.Unit("b-i1");
  const std::vector<Hex> path = {L("1404"), L("1405"), L("1406")};
  const std::vector<engine::Event> events = testing::MoveEvents(unit, path);
  b.state.unit(unit).hex = path.back();

  const MapImage plain = Render(b);
  const MapImage with_arrows = Render(b, &events);
  CHECK(with_arrows.events_drawn() == 2);
  CHECK(with_arrows.events_not_drawn() == 0);
  // The arrow runs through the centre of 1405, where nothing blue was before.
  const Point mid = with_arrows.layout().Centre(L("1405"));
  const Box around{mid.x - 3, mid.y - 3, 6, 6};
  CHECK(CountNear(plain, around, kBlueSideColour, 10) == 0);
  CHECK(CountNear(with_arrows, around, kBlueSideColour, 10) > 10);
  // The counter moved: blue at 1406, only the dashed start outline left at 1404.
  for (const Rgb px : CounterBodyPatch(with_arrows, L("1406"))) CHECK(px == kBlueSideColour);
  CHECK(CountNear(with_arrows, with_arrows.layout().CounterBox(L("1404")), kBlueSideColour, 10) <
        200);
  // draw_events off: the events are ignored.
  RenderOptions off;
  off.draw_events = false;
  const MapImage ignored = Render(b, &events, off);
  CHECK(ignored.events_drawn() == 0);
  CHECK(CountNear(ignored, around, kBlueSideColour, 10) == 0);
}

TEST_CASE("events without a drawing are counted, not drawn", "[templates][render]") {
  const Bundled b;
  std::vector<engine::Event> events(2);
  events[0].body = engine::payload::Combat{};
  events[0].phase = engine::Phase::kCombat;
  events[0].hexes = {L("1604"), L("1605")};
  events[1].body = engine::payload::Die{};  // told by the mail, not a map event
  const MapImage image = Render(b, &events);
  CHECK(image.events_drawn() == 0);
  CHECK(image.events_not_drawn() == 1);
}

TEST_CASE("same input, byte-identical PNG", "[templates][render][png]") {
  const Bundled b;
  const std::vector<engine::Event> events =
      testing::MoveEvents(b.Unit("o-lc1"), {L("0817"), L("0816"), L("0815")});
  Bundled moved;
  moved.state.unit(moved.Unit("o-lc1")).hex = L("0815");
  std::vector<std::uint8_t> first;
  std::vector<std::uint8_t> second;
  REQUIRE(RenderMapPng(moved.ruleset, moved.scenario, moved.state, &events, RenderOptions{},
                       PngOptions{}, &first)
              .ok);
  REQUIRE(RenderMapPng(moved.ruleset, moved.scenario, moved.state, &events, RenderOptions{},
                       PngOptions{}, &second)
              .ok);
  REQUIRE(first.size() > 1000);
  CHECK(first == second);
  // A different state gives a different image.
  std::vector<std::uint8_t> initial;
  REQUIRE(
      RenderMapPng(b.ruleset, b.scenario, b.state, nullptr, RenderOptions{}, PngOptions{}, &initial)
          .ok);
  CHECK(initial != first);
}

TEST_CASE("the PNG decodes to the rendered pixels", "[templates][render][png]") {
  const Bundled b;
  const MapImage image = Render(b);
  std::vector<std::uint8_t> png;
  REQUIRE(EncodePng(image.surface(), PngOptions{}, &png).ok);
  DecodedPng decoded;
  const Status st = DecodePng(png, &decoded);
  INFO(st.message);
  REQUIRE(st.ok);
  REQUIRE(decoded.width == image.width());
  REQUIRE(decoded.height == image.height());
  int mismatches = 0;
  for (int y = 0; y < image.height(); ++y) {
    for (int x = 0; x < image.width(); ++x) {
      const std::uint8_t* p = &decoded.rgba[4 * (static_cast<std::size_t>(y) * image.width() + x)];
      const Rgb want = image.PixelAt(x, y);
      if (p[0] != want.r || p[1] != want.g || p[2] != want.b || p[3] != 255) ++mismatches;
    }
  }
  CHECK(mismatches == 0);

  // cairo's own reader agrees, and cairo's writer encodes the same pixels.
  struct Reader {
    const std::vector<std::uint8_t>* bytes;
    std::size_t pos = 0;
  } reader{&png};
  cairo_surface_t* back = cairo_image_surface_create_from_png_stream(
      [](void* closure, unsigned char* data, unsigned int length) {
        auto* r = static_cast<Reader*>(closure);
        if (r->pos + length > r->bytes->size()) return CAIRO_STATUS_READ_ERROR;
        std::memcpy(data, r->bytes->data() + r->pos, length);
        r->pos += length;
        return CAIRO_STATUS_SUCCESS;
      },
      &reader);
  REQUIRE(cairo_surface_status(back) == CAIRO_STATUS_SUCCESS);
  CHECK(cairo_image_surface_get_width(back) == image.width());
  CHECK(cairo_image_surface_get_height(back) == image.height());
  const int stride = cairo_image_surface_get_stride(back);
  const unsigned char* data = cairo_image_surface_get_data(back);
  int cairo_mismatches = 0;
  for (int y = 0; y < image.height(); y += 7) {
    for (int x = 0; x < image.width(); ++x) {
      std::uint32_t v;
      std::memcpy(&v, data + static_cast<std::ptrdiff_t>(y) * stride + 4 * x, sizeof v);
      const Rgb got{static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
                    static_cast<std::uint8_t>(v)};
      if (got != image.PixelAt(x, y)) ++cairo_mismatches;
    }
  }
  cairo_surface_destroy(back);
  CHECK(cairo_mismatches == 0);

  std::vector<std::uint8_t> cairo_png;
  REQUIRE(EncodePngWithCairo(image.surface(), &cairo_png).ok);
  DecodedPng from_cairo;
  REQUIRE(DecodePng(cairo_png, &from_cairo).ok);
  CHECK(from_cairo.rgba == decoded.rgba);
}

TEST_CASE("a large map gets a smaller hex size", "[templates][render]") {
  const engine::Ruleset rs = testing::MornePlaineRuleset();
  const engine::Scenario scenario = testing::LargeSampleMap(rs, 60, 40);
  const engine::GameState state = engine::InitialState(scenario, "large");
  MapImage image;
  REQUIRE(RenderMap(rs, scenario, state, nullptr, RenderOptions{}, &image).ok);
  CHECK(image.layout().hex_size() == 22);  // (2400 - 60) / (sqrt(3) * 60.5) = 22.3
  CHECK(image.width() <= 2400);
  // A fixed hex size is taken as given.
  RenderOptions fixed;
  fixed.hex_size = 15;
  fixed.legend = false;
  fixed.title = false;
  REQUIRE(RenderMap(rs, scenario, state, nullptr, fixed, &image).ok);
  CHECK(image.layout().hex_size() == Approx(15).margin(1.0 / 3));
  CHECK(image.layout().legend_box().h == 0);
}

TEST_CASE("the title bar shows whose turn it is", "[templates][render]") {
  Bundled b;
  const auto bar_pixel = [](const MapImage& image) {
    const Box& title = image.layout().title_box();
    return image.PixelAt(static_cast<int>(title.x + 10), static_cast<int>(title.bottom() - 3));
  };
  CHECK(bar_pixel(Render(b)) == kBlueSideColour);
  b.state.side_to_move = Side::kOrange;
  CHECK(bar_pixel(Render(b)) == kOrangeSideColour);
}

TEST_CASE("a fort is drawn in its holder's colour", "[templates][render]") {
  Bundled b;  // the Redoute du Mont-Morne, 1013, is held by orange at the start
  const auto centre_pixel = [](const MapImage& image) {
    const Point c = image.layout().Centre(L("1013"));
    return image.PixelAt(static_cast<int>(c.x), static_cast<int>(c.y));
  };
  CHECK(centre_pixel(Render(b)) == kOrangeSideColour);
  b.state.fort_owners[L("1013")] = Side::kBlue;
  CHECK(centre_pixel(Render(b)) == kBlueSideColour);
}

TEST_CASE("an image cairo cannot hold is refused", "[templates][render]") {
  const engine::Ruleset rs = testing::MornePlaineRuleset();
  engine::Scenario wide;
  wide.map = engine::Map(2000, 2, engine::TerrainId{0});
  RenderOptions options;
  options.hex_size = 32;
  MapImage image;
  const Status st =
      RenderMap(rs, wide, engine::InitialState(wide, "wide"), nullptr, options, &image);
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("too large") != std::string::npos);
}

TEST_CASE("a state from another scenario is refused", "[templates][render]") {
  const Bundled b;
  engine::GameState wrong = b.state;
  wrong.units.pop_back();
  MapImage image;
  const Status st = RenderMap(b.ruleset, b.scenario, wrong, nullptr, RenderOptions{}, &image);
  CHECK_FALSE(st.ok);
  CHECK(st.message.find("units") != std::string::npos);
  CHECK(image.width() == 0);
}

TEST_CASE("unknown terrain and a missing colour still render", "[templates][render]") {
  Bundled b;
  b.ruleset.terrain[0].colour = "green";  // malformed: drawn in the fallback grey
  b.scenario.map.SetTerrain(L("0101"), engine::TerrainId{99});
  RenderOptions options;
  options.labels_in_every_hex = false;
  const MapImage image = Render(b, nullptr, options);
  const Point c = image.layout().Centre(L("0202"));
  CHECK(image.PixelAt(static_cast<int>(c.x), static_cast<int>(c.y)) == kUnknownTerrainColour);
}

}  // namespace
}  // namespace pbem::templates
