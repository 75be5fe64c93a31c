// The real bundled data, loaded with the codec: the renderer draws it, and the in-code
// transcription the other tests and the benchmarks use (templates/testing/sample_maps) is
// checked hex for hex against it, so that it cannot drift from the data files.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "proto/codec/codec.h"
#include "templates/map_renderer.h"
#include "templates/testing/sample_maps.h"

namespace pbem::templates {
namespace {

[[maybe_unused]] const bool kFontCachesReleased = testing::ReleaseFontCachesAtExit();

using engine::Hex;

const std::filesystem::path kSourceDir = PBEM_SOURCE_DIR;

struct Loaded {
  engine::Ruleset ruleset;
  engine::Scenario scenario;
};

Loaded LoadBundled() {
  auto rs = codec::LoadRulesetDir(kSourceDir / "engine/rulesets/morne-plaine");
  INFO(rs.ErrorText());
  REQUIRE(rs.ok());
  auto sc = codec::LoadScenarioFile(kSourceDir / "engine/scenarios/bois-de-la-morne.textproto",
                                    rs.value().ruleset);
  INFO(sc.ErrorText());
  REQUIRE(sc.ok());
  return Loaded{rs.value().ruleset, sc.value().scenario};
}

TEST_CASE("the bundled scenario from its data files renders", "[templates][render][codec]") {
  const Loaded b = LoadBundled();
  const engine::GameState state = engine::InitialState(b.scenario, "bundled");
  MapImage image;
  const Status st = RenderMap(b.ruleset, b.scenario, state, nullptr, RenderOptions{}, &image);
  INFO(st.message);
  REQUIRE(st.ok);
  CHECK(image.width() == 1774);
  CHECK(image.height() == 1160);
  for (std::size_t i = 0; i < b.scenario.units.size(); ++i) {
    const engine::UnitSpec& spec = b.scenario.units[i];
    INFO(spec.id);
    REQUIRE(spec.start_hex);
    const Box box = image.layout().CounterBox(*spec.start_hex);
    const Rgb px = image.PixelAt(static_cast<int>(box.x + box.w * 0.15),
                                 static_cast<int>(box.y + box.h * 0.55));
    CHECK(px == SideColour(spec.side));
  }
  std::vector<std::uint8_t> png;
  REQUIRE(EncodePng(image.surface(), PngOptions{}, &png).ok);
  DecodedPng decoded;
  REQUIRE(DecodePng(png, &decoded).ok);
  CHECK(decoded.width == image.width());
}

TEST_CASE("the in-code transcription matches the data files", "[templates][codec]") {
  const Loaded real = LoadBundled();
  const engine::Ruleset rs = testing::MornePlaineRuleset();
  const engine::Scenario copy = testing::BoisDeLaMorne(rs);
  const engine::Map& a = real.scenario.map;
  const engine::Map& b = copy.map;
  REQUIRE(a.width() == b.width());
  REQUIRE(a.height() == b.height());
  CHECK(real.scenario.title == copy.title);

  // Terrain names and colours the renderer relies on.
  for (const engine::TerrainType& t : rs.terrain) {
    const auto id = real.ruleset.FindTerrain(t.name);
    INFO(t.name);
    REQUIRE(id);
    CHECK(real.ruleset.terrain_type(*id).colour == t.colour);
  }
  for (const Hex hex : a.AllHexes()) {
    INFO(engine::FormatLabel(hex));
    CHECK(real.ruleset.terrain_type(a.terrain(hex)).name == rs.terrain_type(b.terrain(hex)).name);
    CHECK(a.level(hex) == b.level(hex));
    for (engine::Direction dir :
         {engine::Direction::kNE, engine::Direction::kE, engine::Direction::kSE}) {
      if (!a.Contains(engine::Neighbor(hex, dir))) continue;
      const engine::Hexside side = engine::SideOf(hex, dir);
      CHECK(a.side(side).water == b.side(side).water);
      CHECK(a.side(side).crossing == b.side(side).crossing);
    }
  }
  REQUIRE(a.routes().size() == b.routes().size());
  for (std::size_t i = 0; i < a.routes().size(); ++i) {
    CHECK(a.routes()[i].name == b.routes()[i].name);
    CHECK(a.routes()[i].track == b.routes()[i].track);
    CHECK(a.routes()[i].hexes == b.routes()[i].hexes);
  }
  REQUIRE(real.scenario.units.size() == copy.units.size());
  for (std::size_t i = 0; i < copy.units.size(); ++i) {
    const engine::UnitSpec& x = real.scenario.units[i];
    const engine::UnitSpec& y = copy.units[i];
    INFO(x.id);
    CHECK(x.id == y.id);
    CHECK(x.side == y.side);
    CHECK(x.corps == y.corps);
    CHECK(x.arm == y.arm);
    CHECK(x.cs == y.cs);
    CHECK(x.mv == y.mv);
    CHECK(x.ma == y.ma);
    CHECK(x.bv == y.bv);
    CHECK(x.command_radius == y.command_radius);
    CHECK(x.start_hex == y.start_hex);
  }
  REQUIRE(real.scenario.objectives.size() == copy.objectives.size());
  for (std::size_t i = 0; i < copy.objectives.size(); ++i) {
    CHECK(real.scenario.objectives[i].hexes == copy.objectives[i].hexes);
    CHECK(real.scenario.objectives[i].vp_blue == copy.objectives[i].vp_blue);
    CHECK(real.scenario.objectives[i].vp_orange == copy.objectives[i].vp_orange);
    CHECK(real.scenario.objectives[i].initial_owner == copy.objectives[i].initial_owner);
  }
  CHECK(real.scenario.fort_owners == copy.fort_owners);
}

}  // namespace
}  // namespace pbem::templates
