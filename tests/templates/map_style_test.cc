#include "templates/map_style.h"

#include <catch2/catch.hpp>

namespace pbem::templates {
namespace {

TEST_CASE("ParseHexColour reads #rrggbb in either case", "[templates][style]") {
  CHECK(ParseHexColour("#e6eec4") == Rgb{0xe6, 0xee, 0xc4});
  CHECK(ParseHexColour("#3C7A3C") == Rgb{0x3c, 0x7a, 0x3c});
  CHECK(ParseHexColour("#000000") == Rgb{0, 0, 0});
}

TEST_CASE("ParseHexColour rejects anything else", "[templates][style]") {
  CHECK_FALSE(ParseHexColour(""));
  CHECK_FALSE(ParseHexColour("e6eec4"));
  CHECK_FALSE(ParseHexColour("#e6eec"));
  CHECK_FALSE(ParseHexColour("#e6eec45"));
  CHECK_FALSE(ParseHexColour("#g6eec4"));
  CHECK_FALSE(ParseHexColour(" #e6eec4"));
}

TEST_CASE("side and corps colours", "[templates][style]") {
  CHECK(SideColour(engine::Side::kBlue) == kBlueSideColour);
  CHECK(SideColour(engine::Side::kOrange) == kOrangeSideColour);
  CHECK(CounterInkColour(engine::Side::kBlue) != CounterInkColour(engine::Side::kOrange));
  // Corps strips differ within a side, differ from the counter, and repeat after the palette.
  for (engine::Side side : {engine::Side::kBlue, engine::Side::kOrange}) {
    CHECK(CorpsStripColour(side, 0) != CorpsStripColour(side, 1));
    CHECK(CorpsStripColour(side, 0) != SideColour(side));
    CHECK(CorpsStripColour(side, 0) == CorpsStripColour(side, 5));
    CHECK(CorpsStripColour(side, -1) == CorpsStripColour(side, 4));
  }
}

TEST_CASE("Luma orders dark and light colours", "[templates][style]") {
  CHECK(Luma({0, 0, 0}) == 0);
  CHECK(Luma({255, 255, 255}) == 255);
  CHECK(Luma(*ParseHexColour("#3c7a3c")) < 110);  // woods: light labels
  CHECK(Luma(*ParseHexColour("#e6eec4")) > 110);  // clear: dark labels
}

}  // namespace
}  // namespace pbem::templates
