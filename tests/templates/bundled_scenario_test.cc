// The real bundled data, loaded with the codec: the renderer draws it, and the in-code
// transcription the other tests and the benchmarks use (templates/testing/sample_maps) is
// checked hex for hex against it, so that it cannot drift from the data files.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "engine/core/dice.h"
#include "engine/morne_plaine/bot.h"
#include "engine/morne_plaine/turn.h"
#include "proto/codec/codec.h"
#include "templates/map_renderer.h"
#include "templates/testing/sample_maps.h"
#include "templates/turn_events.h"

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

// Real engine turns (the legal-order bot against itself, seeded dice): every event the map
// shows is read, and each unit eliminated in a turn is a cross where it fell, no counter.
TEST_CASE("a bot game's turns render with every event drawn", "[templates][render][codec]") {
  const Loaded b = LoadBundled();
  engine::GameState state = engine::InitialState(b.scenario, "bot-game");
  engine::SeededDice dice(20261122);
  RenderOptions options;
  options.unit_ids = false;
  int combats = 0;
  int eliminations_checked = 0;
  int moves = 0;
  for (int turn = 0; turn < 2 * b.scenario.turns && !state.finished; ++turn) {
    const engine::Orders orders =
        engine::BotOrders(b.ruleset, b.scenario, state, static_cast<std::uint64_t>(turn) + 7);
    const engine::TurnResult result =
        engine::ResolvePlayerTurn(b.ruleset, b.scenario, state, orders, dice);
    MapImage image;
    const Status st =
        RenderMap(b.ruleset, b.scenario, result.next_state, &result.events, options, &image);
    INFO("player-turn " << turn << ": " << st.message);
    REQUIRE(st.ok);
    CHECK(image.events_not_drawn() == 0);
    const TurnDrawing drawing = CollectTurnDrawing(&result.events, b.scenario);
    CHECK(drawing.turn_played == state.turn);
    CHECK(drawing.side_played == state.side_to_move);
    combats += static_cast<int>(drawing.combats.size());
    moves += static_cast<int>(drawing.moves.size());
    for (const Ghost& g : drawing.ghosts) {
      CHECK(result.next_state.unit(g.unit).eliminated);
      if (result.next_state.UnitAt(g.hex)) continue;  // a unit advanced into the hex
      const Box counter = image.layout().CounterBox(g.hex);
      const Point c = counter.centre();
      const Rgb px = image.PixelAt(static_cast<int>(c.x), static_cast<int>(c.y));
      INFO(b.scenario.unit(g.unit).id << " at " << engine::FormatLabel(g.hex));
      CHECK(std::abs(px.r - kEliminatedColour.r) + std::abs(px.g - kEliminatedColour.g) +
                std::abs(px.b - kEliminatedColour.b) <
            24);
      const Rgb side = SideColour(b.scenario.unit(g.unit).side);
      const Box inner{counter.x + 3, counter.y + 3, counter.w - 6, counter.h - 6};
      int side_pixels = 0;
      for (int y = static_cast<int>(inner.y); y < static_cast<int>(inner.bottom()); ++y) {
        for (int x = static_cast<int>(inner.x); x < static_cast<int>(inner.right()); ++x) {
          if (image.PixelAt(x, y) == side) ++side_pixels;
        }
      }
      CHECK(side_pixels == 0);
      ++eliminations_checked;
    }
    state = result.next_state;
  }
  // The game had something to show.
  CHECK(moves > 20);
  CHECK(combats > 0);
  CHECK(eliminations_checked > 0);
}

}  // namespace
}  // namespace pbem::templates
