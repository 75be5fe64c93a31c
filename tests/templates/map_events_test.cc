// The turn's events on the map: what the pixels show for moves, stopped moves, charges,
// bombardments, combats, retreats and eliminations, and the legend entries that explain
// them. Events are written in the engine's formats (templates/turn_events.h); the bundled
// test plays real engine turns (bundled_scenario_test.cc).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "templates/map_renderer.h"
#include "templates/testing/sample_maps.h"
#include "templates/turn_events.h"
#include "tests/templates/positional_event.h"
#include "tests/templates/render_checks.h"

namespace pbem::templates {
namespace {

[[maybe_unused]] const bool kFontCachesReleased = testing::ReleaseFontCachesAtExit();

using engine::Arg;
using engine::Event;
using engine::EventKind;
using engine::Hex;
using engine::Phase;
using engine::Side;
using engine::UnitId;

using render_checks::Bundled;
using render_checks::CountIf;
using render_checks::CountNear;
using render_checks::L;
using render_checks::Near;
using render_checks::Render;
using render_checks::Show;

Event Ev(EventKind kind, std::optional<UnitId> unit, std::vector<Hex> hexes, std::vector<Arg> args,
         Phase phase = Phase::kCombat) {
  return Event{phase, unit, std::move(hexes), pbem::testing::PositionalBody(kind, args),
               std::nullopt};
}

// The whole pixels within `half` of p (both ends included).
Box Around(Point p, double half) {
  const double x0 = std::floor(p.x - half);
  const double y0 = std::floor(p.y - half);
  return Box{x0, y0, std::floor(p.x + half) - x0 + 1, std::floor(p.y + half) - y0 + 1};
}

Point Along(const MapImage& image, Hex a, Hex b, double t) {
  const Point pa = image.layout().Centre(a);
  const Point pb = image.layout().Centre(b);
  return {pa.x + (pb.x - pa.x) * t, pa.y + (pb.y - pa.y) * t};
}

// The legend entry whose label starts with `prefix`; fails the test when there is none.
Box LegendBox(const MapImage& image, const std::string& prefix) {
  const auto& labels = image.legend_labels();
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i].rfind(prefix, 0) == 0) return image.layout().LegendItem(static_cast<int>(i));
  }
  FAIL("no legend entry starting with '" << prefix << "'");
  return {};
}

bool HasLegend(const MapImage& image, const std::string& prefix) {
  for (const std::string& l : image.legend_labels()) {
    if (l.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// A fight south of the blue lines: b-i1 (moved to 1409) attacks o-i2 (moved to 1410), which
// loses its last 2 CS and is eliminated; b-i1 stays.
struct Fight {
  Bundled b;
  std::vector<Event> events;
  Fight() {
    b.state.unit(b.Unit("b-i1")).hex = L("1409");
    engine::UnitState& o = b.state.unit(b.Unit("o-i2"));
    o.hex.reset();
    o.eliminated = true;
    o.cs = 0;
    events = {
        Ev(EventKind::kCombat, b.Unit("b-i1"), {L("1409"), L("1410")},
           {std::string("o-i2"), std::int64_t{4}, std::int64_t{2}, std::int64_t{4}, std::int64_t{2},
            std::string("2:1"), std::int64_t{5}, std::int64_t{5}, std::string("0/2")}),
        Ev(EventKind::kLoss, b.Unit("o-i2"), {L("1410")},
           {std::int64_t{0}, std::int64_t{2}, std::string("combat")}),
        Ev(EventKind::kEliminated, b.Unit("o-i2"), {L("1410")}, {std::string("combat")}),
    };
  }
};

TEST_CASE("a combat is a red arrow from the attacker to the defender", "[templates][events]") {
  const Fight f;
  const MapImage image = Render(f.b, &f.events);
  CHECK(image.events_drawn() == 3);
  CHECK(image.events_not_drawn() == 0);
  // The arrow crosses the hexside between the two hexes.
  const Point mid = Along(image, L("1409"), L("1410"), 0.5);
  CHECK(CountNear(image, Around(mid, 1.5), kCombatColour, 12) >= 4);
  // Without the events nothing red is there.
  const MapImage plain = Render(f.b, nullptr);
  CHECK(CountNear(plain, Around(mid, 1.5), kCombatColour, 40) == 0);
  // The legend explains the arrow, with the arrow itself in its symbol box.
  CHECK_FALSE(HasLegend(plain, "combat"));
  CHECK(CountNear(image, LegendBox(image, "combat"), kCombatColour, 12) > 20);
}

TEST_CASE("the legend speaks the player's language when given its words", "[templates][events]") {
  const Fight f;
  const MapWords french{{"map.combat", "combat\u00a0: rapport · dé · att./déf."},
                        {"terrain.woods", "bois"},
                        {"arg.infantry", "infanterie"}};
  RenderOptions options;
  options.words = &french;
  const MapImage image = Render(f.b, &f.events, options);
  CHECK(HasLegend(image, "combat\u00a0: rapport"));
  CHECK(HasLegend(image, "bois"));
  CHECK(HasLegend(image, "infanterie"));
  CHECK_FALSE(HasLegend(image, "combat: odds"));
  // Without words: English, as before.
  const MapImage english = Render(f.b, &f.events);
  CHECK(HasLegend(english, "combat: odds"));
  CHECK(HasLegend(english, "woods"));
}

TEST_CASE("an eliminated unit is a crossed-out ghost, its counter gone", "[templates][events]") {
  const Fight f;
  const MapImage image = Render(f.b, &f.events);
  const Box counter = image.layout().CounterBox(L("1410"));
  // The cross meets in the middle of where the counter stood.
  const Point c = counter.centre();
  INFO(Show(image.PixelAt(static_cast<int>(c.x), static_cast<int>(c.y))));
  CHECK(Near(image.PixelAt(static_cast<int>(c.x), static_cast<int>(c.y)), kEliminatedColour, 8));
  // No orange body: inside the dashed outline not a single orange pixel.
  const Box inner{counter.x + 3, counter.y + 3, counter.w - 6, counter.h - 6};
  CHECK(CountNear(image, inner, kOrangeSideColour, 30) == 0);
  // The unit's initial hex shows no counter either (the state has it off the map).
  CHECK(CountNear(image, image.layout().CounterBox(L("1417")), kOrangeSideColour, 0) == 0);
  // The attacker's counter is at its hex in its colour.
  CHECK(CountNear(image, image.layout().CounterBox(L("1409")), kBlueSideColour, 0) > 300);
  CHECK(CountNear(image, LegendBox(image, "eliminated"), kEliminatedColour, 8) > 10);
  // A loss on a unit that left the map has no tag (the ghost tells it); the legend has no
  // loss entry.
  CHECK_FALSE(HasLegend(image, "MV + CS lost"));
}

TEST_CASE("a move arrow follows the path and a stopped move is marked", "[templates][events]") {
  Bundled b;
  const UnitId unit = b.Unit("b-i1");
  const std::vector<Hex> path = {L("1404"), L("1405"), L("1406")};
  std::vector<Event> events = testing::MoveEvents(unit, path);
  events.push_back(Ev(EventKind::kMoveEnd, unit, {L("1406")},
                      {std::int64_t{0}, std::string("entered_enemy_zoc")}, Phase::kMovement));
  b.state.unit(unit).hex = path.back();
  const MapImage image = Render(b, &events);
  CHECK(image.events_drawn() == 3);
  // The arrow's pixels lie on the line between consecutive hex centres.
  for (const auto& [from, to, t] :
       std::vector<std::tuple<Hex, Hex, double>>{{path[0], path[1], 0.5},
                                                 {path[0], path[1], 0.75},
                                                 {path[1], path[2], 0.25},
                                                 {path[1], path[2], 0.5}}) {
    const Point p = Along(image, from, to, t);
    INFO(engine::FormatLabel(from) << "->" << engine::FormatLabel(to) << " t " << t);
    CHECK(CountNear(image, Around(p, 1.5), kBlueSideColour, 10) >= 4);
  }
  // ... and not off it: the centre of the hex beside the path stays free of blue.
  CHECK(CountNear(image, Around(image.layout().Centre(L("1305")), 3), kBlueSideColour, 40) == 0);
  // The stop mark sits on the counter's top-left corner.
  const Box counter = image.layout().CounterBox(L("1406"));
  const double r = std::max(4.5, image.layout().hex_size() * 0.17);
  CHECK(Near(image.PixelAt(static_cast<int>(counter.x), static_cast<int>(counter.y - r * 0.65)),
             kStopColour, 8));
  CHECK(CountNear(image, LegendBox(image, "move stopped"), kStopColour, 8) > 10);
  CHECK(HasLegend(image, "moved"));

  // A move that ended as ordered has no mark.
  std::get<engine::payload::MoveEnd>(events.back().body).reason = "none";
  const MapImage plain = Render(b, &events);
  CHECK(CountNear(plain, Around({counter.x, counter.y - r * 0.65}, 1), kStopColour, 40) == 0);
  CHECK_FALSE(HasLegend(plain, "move stopped"));
}

TEST_CASE("bombardment: a dashed line to a burst, and the target's loss tag",
          "[templates][events]") {
  Bundled b;
  const UnitId target = b.Unit("o-i1");
  b.state.unit(target).hex = L("1707");
  b.state.unit(target).mv -= 1;
  const std::vector<Event> events = {
      Ev(EventKind::kBombard, b.Unit("b-fa1"), {L("1704"), L("1707")},
         {std::string("o-i1"), std::int64_t{5}, std::int64_t{0}, std::int64_t{0}, std::int64_t{5},
          std::int64_t{3}, std::string("hit")},
         Phase::kBombardment),
      Ev(EventKind::kLoss, target, {L("1707")},
         {std::int64_t{1}, std::int64_t{0}, std::string("bombardment")}, Phase::kBombardment),
  };
  const MapImage image = Render(b, &events);
  CHECK(image.events_drawn() == 2);
  // Dashes along the line between the two counters.
  int on_line = 0;
  for (double t : {0.35, 0.45, 0.55}) {
    on_line += CountNear(image, Around(Along(image, L("1704"), L("1707"), t), 4), kFireColour, 12);
  }
  CHECK(on_line > 8);
  // The burst, filled for a hit, just before the target's counter.
  const Box counter = image.layout().CounterBox(L("1707"));
  CHECK(CountNear(image, Box{counter.x, counter.y - 12, counter.w, 12}, kFireColour, 12) > 10);
  // The loss tag at the counter's top-right corner.
  CHECK(CountNear(image, Around({counter.right(), counter.y}, 6), kLossColour, 0) > 10);
  CHECK(CountNear(image, LegendBox(image, "bombardment"), kFireColour, 12) > 10);
  CHECK(HasLegend(image, "MV + CS lost"));
  CHECK_FALSE(HasLegend(image, "reaction fire"));
}

TEST_CASE("a charge is outlined in black, the target's retreat dashed", "[templates][events]") {
  Bundled b;
  const UnitId charger = b.Unit("b-hc1");
  const UnitId target = b.Unit("o-lc1");
  b.state.unit(charger).hex = L("2506");
  b.state.unit(target).hex = L("2606");
  std::vector<Event> events = testing::MoveEvents(charger, {L("2206"), L("2306"), L("2406")});
  events.push_back(Ev(EventKind::kCharge, charger, {L("2406"), L("2506")}, {std::string("o-lc1")},
                      Phase::kMovement));
  events.push_back(Ev(EventKind::kMoraleTest, target, {L("2506")},
                      {std::int64_t{7}, std::int64_t{8}, std::int64_t{4}, std::string("failed"),
                       std::string("charge")},
                      Phase::kMovement));
  events.push_back(Ev(EventKind::kRetreat, target, {L("2506"), L("2606")}, {std::string("charge")},
                      Phase::kMovement));
  events.push_back(Ev(EventKind::kMoveStep, charger, {L("2406"), L("2506")},
                      {std::int64_t{0}, std::int64_t{0}, std::string("charge_advance")},
                      Phase::kMovement));
  const MapImage image = Render(b, &events);
  const TurnDrawing drawing = CollectTurnDrawing(&events, b.scenario);
  REQUIRE(drawing.charges.size() == 1);
  CHECK(drawing.charges[0].outcome == ChargeMark::Outcome::kBroke);
  CHECK(image.events_drawn() == 5);

  // Across the charge line (horizontal, between 2406 and 2506): dark outline pixels above
  // and below the blue line. A plain move on the same line has a white halo instead.
  const Point mid = Along(image, L("2406"), L("2506"), 0.5);
  const auto dark = [](Rgb px) { return Luma(px) < 50; };
  const Box strip{std::floor(mid.x), std::floor(mid.y) - 7, 1, 15};
  CHECK(CountIf(image, strip, dark) >= 2);
  CHECK(CountNear(image, strip, kBlueSideColour, 10) >= 2);
  std::vector<Event> moves_only =
      testing::MoveEvents(charger, {L("2206"), L("2306"), L("2406"), L("2506")});
  const MapImage plain = Render(b, &moves_only);
  CHECK(CountIf(plain, strip, dark) == 0);

  // The retreat: orange dashes from 2506 towards the counter at 2606.
  const Point r = Along(image, L("2506"), L("2606"), 0.45);
  CHECK(CountNear(image, Box{r.x - 5, r.y - 1.5, 10, 3}, kOrangeSideColour, 10) >= 6);
  CHECK(HasLegend(image, "charge"));
  CHECK(HasLegend(image, "retreat"));
}

TEST_CASE("the turn played comes from the end-of-turn event", "[templates][events]") {
  const Bundled b;  // blue moves first
  std::vector<Event> events = {Ev(EventKind::kTurnEnd, std::nullopt, {},
                                  {std::int64_t{3}, std::string("blue")}, Phase::kEndOfTurn)};
  TurnDrawing d = CollectTurnDrawing(&events, b.scenario);
  CHECK(d.turn_played == 2);
  CHECK(d.side_played == Side::kOrange);
  events[0].body = engine::payload::TurnEnd{3, "orange"};
  d = CollectTurnDrawing(&events, b.scenario);
  CHECK(d.turn_played == 3);
  CHECK(d.side_played == Side::kBlue);
  // Not an event the map draws; and the title changes with it.
  CHECK(d.drawn == 0);
  const MapImage with = Render(b, &events);
  const MapImage without = Render(b, nullptr);
  const Box& title = with.layout().title_box();
  int differ = 0;
  for (int y = static_cast<int>(title.y); y < static_cast<int>(title.bottom()); ++y) {
    for (int x = static_cast<int>(title.x); x < static_cast<int>(title.right()); ++x) {
      if (with.PixelAt(x, y) != without.PixelAt(x, y)) ++differ;
    }
  }
  CHECK(differ > 50);
}

TEST_CASE("unreadable events are counted, not drawn", "[templates][events]") {
  const Bundled b;
  std::vector<Event> events = {
      Event{Phase::kCombat,
            std::nullopt,
            {L("1604"), L("1605")},
            engine::payload::Combat{},
            std::nullopt},  // no attacker
      Ev(EventKind::kRetreat, b.Unit("b-i1"), {L("1404"), Hex{99, 99}},
         {std::string("combat")}),  // off the map
      Ev(EventKind::kBombard, b.Unit("b-fa1"), {L("1704"), L("1707")},
         {std::string("o-i1"), std::int64_t{1}, std::int64_t{0}, std::int64_t{0}, std::int64_t{1},
          std::int64_t{3}, std::string("sideways")}),  // a result the map does not know
      Ev(EventKind::kDie, b.Unit("b-i1"), {}, {}),     // told by the mail: neither
  };
  const MapImage image = Render(b, &events);
  CHECK(image.events_drawn() == 0);
  CHECK(image.events_not_drawn() == 3);
}

// The same colour at every pixel (RGB24 leaves the top byte of each pixel undefined).
bool SamePixels(const MapImage& a, const MapImage& b) {
  if (a.width() != b.width() || a.height() != b.height()) return false;
  for (int y = 0; y < a.height(); ++y) {
    for (int x = 0; x < a.width(); ++x) {
      if (a.PixelAt(x, y) != b.PixelAt(x, y)) return false;
    }
  }
  return true;
}

// The generated 60x40 map at its initial state: an image of over a million pixels, drawn in
// two bands by default.
struct Large {
  engine::Ruleset ruleset = testing::MornePlaineRuleset();
  engine::Scenario scenario = testing::LargeSampleMap(ruleset, 60, 40);
  engine::GameState state = engine::InitialState(scenario, "large");

  MapImage Render(const RenderOptions& options) const {
    MapImage image;
    REQUIRE(RenderMap(ruleset, scenario, state, nullptr, options, &image).ok);
    return image;
  }
};

TEST_CASE("drawing in bands on threads gives the same pixels", "[templates][render]") {
  Fight f;
  f.events.push_back(Ev(
      EventKind::kReactionFire, f.b.Unit("o-ha1"), {L("1017"), L("1117")},
      {std::string("b-i4"), std::int64_t{2}, std::int64_t{2}, std::int64_t{3}, std::string("hit")},
      Phase::kMovement));
  // Every band draws the static layer too (not copied from the cache).
  RenderOptions one;
  one.threads = 1;
  one.reuse_static_layer = false;
  MapImage reference;
  REQUIRE(RenderMap(f.b.ruleset, f.b.scenario, f.b.state, &f.events, one, &reference).ok);
  for (int threads : {2, 3, 7}) {
    INFO(threads << " threads");
    RenderOptions options = one;
    options.threads = threads;
    MapImage banded;
    REQUIRE(RenderMap(f.b.ruleset, f.b.scenario, f.b.state, &f.events, options, &banded).ok);
    CHECK(SamePixels(reference, banded));
  }
  // The large map, whose default is two bands.
  const Large large;
  RenderOptions automatic;
  automatic.reuse_static_layer = false;
  CHECK(SamePixels(large.Render(one), large.Render(automatic)));
}

std::vector<std::uint8_t> Png(const MapImage& image) {
  std::vector<std::uint8_t> png;
  REQUIRE(EncodePng(image.surface(), PngOptions{}, &png).ok);
  return png;
}

TEST_CASE("a static layer copied from the cache gives the same bytes as drawing it",
          "[templates][render][png]") {
  Fight f;
  RenderOptions drawn;
  drawn.reuse_static_layer = false;
  RenderOptions reused;  // the default
  REQUIRE(reused.reuse_static_layer);
  ClearStaticLayerCache();
  MapImage reference;
  MapImage first;
  MapImage second;
  // The reference draws its hex stamps too; the later renders take them from the cache.
  REQUIRE(RenderMap(f.b.ruleset, f.b.scenario, f.b.state, &f.events, drawn, &reference).ok);
  CHECK_FALSE(reference.static_layer_reused());
  REQUIRE(RenderMap(f.b.ruleset, f.b.scenario, f.b.state, &f.events, reused, &first).ok);
  CHECK_FALSE(first.static_layer_reused());  // drawn, then kept
  REQUIRE(RenderMap(f.b.ruleset, f.b.scenario, f.b.state, &f.events, reused, &second).ok);
  CHECK(second.static_layer_reused());
  CHECK(Png(first) == Png(reference));
  CHECK(Png(second) == Png(reference));

  // Another turn of the same game (no events, units elsewhere) reuses the layer and still
  // draws what that turn shows.
  Bundled later = f.b;
  later.state.unit(later.Unit("b-i1")).hex = L("1410");
  MapImage later_drawn;
  MapImage later_reused;
  REQUIRE(RenderMap(later.ruleset, later.scenario, later.state, nullptr, drawn, &later_drawn).ok);
  REQUIRE(RenderMap(later.ruleset, later.scenario, later.state, nullptr, reused, &later_reused).ok);
  CHECK(later_reused.static_layer_reused());
  CHECK(Png(later_reused) == Png(later_drawn));
  CHECK(Png(later_reused) != Png(second));

  // The large map on two bands: each band copies its rows of the layer.
  const Large large;
  const MapImage large_drawn = large.Render(drawn);
  const MapImage large_first = large.Render(reused);
  const MapImage large_reused = large.Render(reused);
  CHECK(large_reused.static_layer_reused());
  CHECK(Png(large_first) == Png(large_drawn));
  CHECK(Png(large_reused) == Png(large_drawn));
}

TEST_CASE("a new fort holder, map or size draws a new static layer", "[templates][render]") {
  Bundled b;
  ClearStaticLayerCache();
  MapImage image;
  REQUIRE(RenderMap(b.ruleset, b.scenario, b.state, nullptr, RenderOptions{}, &image).ok);
  REQUIRE(RenderMap(b.ruleset, b.scenario, b.state, nullptr, RenderOptions{}, &image).ok);
  REQUIRE(image.static_layer_reused());

  Bundled fort = b;  // the Redoute du Mont-Morne, 1013, changes hands
  fort.state.fort_owners[L("1013")] = Side::kBlue;
  REQUIRE(RenderMap(fort.ruleset, fort.scenario, fort.state, nullptr, RenderOptions{}, &image).ok);
  CHECK_FALSE(image.static_layer_reused());

  Bundled stream = b;  // one more stream
  const engine::Hexside side = engine::SideOf(L("0505"), engine::Direction::kE);
  engine::HexsideInfo info = stream.scenario.map.side(side);
  info.water =
      info.water == engine::Water::kStream ? engine::Water::kRiver : engine::Water::kStream;
  stream.scenario.map.SetSide(side, info);
  REQUIRE(RenderMap(stream.ruleset, stream.scenario, stream.state, nullptr, RenderOptions{}, &image)
              .ok);
  CHECK_FALSE(image.static_layer_reused());

  RenderOptions smaller;
  smaller.hex_size = 20;
  REQUIRE(RenderMap(b.ruleset, b.scenario, b.state, nullptr, smaller, &image).ok);
  CHECK_FALSE(image.static_layer_reused());
  // Four layers are kept: the first is still there.
  REQUIRE(RenderMap(b.ruleset, b.scenario, b.state, nullptr, RenderOptions{}, &image).ok);
  CHECK(image.static_layer_reused());

  // A fifth pushes out the one used least recently (the fort's).
  RenderOptions no_labels;
  no_labels.labels_in_every_hex = false;
  REQUIRE(RenderMap(b.ruleset, b.scenario, b.state, nullptr, no_labels, &image).ok);
  CHECK_FALSE(image.static_layer_reused());
  REQUIRE(RenderMap(fort.ruleset, fort.scenario, fort.state, nullptr, RenderOptions{}, &image).ok);
  CHECK_FALSE(image.static_layer_reused());
}

TEST_CASE("every event kind together, byte-identical PNGs", "[templates][events][png]") {
  Fight f;
  f.events.push_back(Ev(
      EventKind::kReactionFire, f.b.Unit("o-ha1"), {L("1017"), L("1117")},
      {std::string("b-i4"), std::int64_t{2}, std::int64_t{2}, std::int64_t{3}, std::string("miss")},
      Phase::kMovement));
  f.events.push_back(Ev(EventKind::kAdvance, f.b.Unit("b-i1"), {L("1409"), L("1410")}, {}));
  f.b.state.unit(f.b.Unit("b-i1")).hex = L("1410");
  std::vector<std::uint8_t> first;
  std::vector<std::uint8_t> second;
  REQUIRE(RenderMapPng(f.b.ruleset, f.b.scenario, f.b.state, &f.events, RenderOptions{},
                       PngOptions{}, &first)
              .ok);
  REQUIRE(RenderMapPng(f.b.ruleset, f.b.scenario, f.b.state, &f.events, RenderOptions{},
                       PngOptions{}, &second)
              .ok);
  CHECK(first == second);
  const MapImage image = Render(f.b, &f.events);
  CHECK(image.events_not_drawn() == 0);
  CHECK(HasLegend(image, "reaction fire"));
  CHECK(HasLegend(image, "advance"));
  // The winner advanced into the ghost's hex: its counter covers the cross.
  const Box counter = image.layout().CounterBox(L("1410"));
  CHECK(CountNear(image, Box{counter.x + 3, counter.y + counter.h * 0.45, 6, 4}, kBlueSideColour,
                  0) > 10);
}

TEST_CASE("an elimination shows where it happened even under the winner's counter",
          "[templates][events]") {
  Fight f;
  f.events.push_back(Ev(EventKind::kAdvance, f.b.Unit("b-i1"), {L("1409"), L("1410")}, {}));
  f.b.state.unit(f.b.Unit("b-i1")).hex = L("1410");
  const MapImage image = Render(f.b, &f.events);
  const Box counter = image.layout().CounterBox(L("1410"));
  // The crossed-out ghost sticks out left of the winner's counter.
  const Box left{counter.x - std::round(counter.w * 0.45), counter.y, std::round(counter.w * 0.4),
                 counter.h};
  CHECK(CountNear(image, left, kEliminatedColour, 8) > 10);
  // The winner's counter is whole, in its colour.
  CHECK(CountNear(image, Box{counter.x + 3, counter.y + counter.h * 0.45, 6, 4}, kBlueSideColour,
                  0) > 10);
  // Where no unit stands on the ghost, it stays where the counter was.
  const Fight alone;
  const MapImage lone = Render(alone.b, &alone.events);
  CHECK(CountNear(lone, left, kEliminatedColour, 8) == 0);
}

TEST_CASE("a move's start stays outlined when another unit moved in", "[templates][events]") {
  Bundled b;
  const UnitId first = b.Unit("b-i1");
  const UnitId second = b.Unit("b-i2");
  // b-i1 leaves 1404 for 1405; b-i2 comes into 1404 from 1403.
  std::vector<Event> events = testing::MoveEvents(first, {L("1404"), L("1405")});
  for (const Event& e : testing::MoveEvents(second, {L("1403"), L("1404")})) events.push_back(e);
  b.state.unit(first).hex = L("1405");
  b.state.unit(second).hex = L("1404");
  const MapImage image = Render(b, &events);
  const MapImage plain = Render(b, nullptr);
  const Box counter = image.layout().CounterBox(L("1404"));
  // The dashed box of b-i1's start runs around b-i2's counter, outside it (left side).
  const Box strip{counter.x - 5, counter.y, 3, counter.h};
  CHECK(CountNear(image, strip, kBlueSideColour, 10) > 6);
  CHECK(CountNear(plain, strip, kBlueSideColour, 10) == 0);
  // A start left empty keeps its filled dashed box in place of the counter.
  const Box start = image.layout().CounterBox(L("1403"));
  const Box edge{start.x, start.y + 4, 3, start.h - 8};
  CHECK(CountNear(image, edge, kBlueSideColour, 50) > 6);
  CHECK(CountNear(plain, edge, kBlueSideColour, 50) == 0);
}

TEST_CASE("a combat's label covers no counter, whichever way the attack goes",
          "[templates][events]") {
  for (const engine::Direction dir : engine::kAllDirections) {
    Bundled b;
    const Hex from = L("1409");
    const Hex at = engine::Neighbor(from, dir);
    INFO("attack towards " << engine::FormatLabel(at));
    b.state.unit(b.Unit("b-i1")).hex = from;
    b.state.unit(b.Unit("b-i2")).hex = engine::Neighbor(from, engine::Opposite(dir));
    b.state.unit(b.Unit("o-i2")).hex = at;
    const std::vector<Event> events = {
        Ev(EventKind::kCombat, b.Unit("b-i1"), {from, at},
           {std::string("o-i2"), std::int64_t{4}, std::int64_t{2}, std::int64_t{4}, std::int64_t{2},
            std::string("2:1"), std::int64_t{5}, std::int64_t{5}, std::string("0/1")})};
    const MapImage image = Render(b, &events);
    REQUIRE(image.event_label_boxes().size() == 1);
    const Box label = image.event_label_boxes()[0];
    for (const engine::UnitState& u : b.state.units) {
      if (!u.on_map()) continue;
      const Box c = image.layout().CounterBox(*u.hex);
      INFO("counter in " << engine::FormatLabel(*u.hex));
      CHECK_FALSE((label.x < c.right() && c.x < label.right() && label.y < c.bottom() &&
                   c.y < label.bottom()));
    }
  }
}

TEST_CASE("events read back from their stored text draw the same marks", "[templates][events]") {
  // Stored results keep each payload as text (the wire format's args); the engine's reader
  // gives the same typed payload back.
  Fight f;
  f.events.push_back(Ev(EventKind::kTurnEnd, std::nullopt, {},
                        {std::int64_t{2}, std::string("orange")}, Phase::kEndOfTurn));
  std::vector<Event> as_text = f.events;
  for (Event& e : as_text) {
    auto body = engine::EventBodyFromArgs(e.kind(), engine::EventArgs(e.body));
    REQUIRE(std::holds_alternative<engine::EventBody>(body));
    e.body = std::get<engine::EventBody>(std::move(body));
  }
  const TurnDrawing numbers = CollectTurnDrawing(&f.events, f.b.scenario);
  const TurnDrawing text = CollectTurnDrawing(&as_text, f.b.scenario);
  CHECK(text.not_drawn == 0);
  CHECK(text.drawn == numbers.drawn);
  REQUIRE(text.combats.size() == 1);
  CHECK(text.combats[0].die == numbers.combats[0].die);
  CHECK(text.losses.size() == numbers.losses.size());
  CHECK(text.turn_played == 2);
  const MapImage a = Render(f.b, &f.events);
  const MapImage b = Render(f.b, &as_text);
  CHECK(SamePixels(a, b));
  // Text that is not a whole number is refused, naming the field.
  const auto bad = engine::EventBodyFromArgs(EventKind::kTurnEnd, {"2x", "orange"});
  REQUIRE(std::holds_alternative<std::string>(bad));
  CHECK(std::get<std::string>(bad) == "args: turn_end.turn: '2x' is not a whole number");
}

}  // namespace
}  // namespace pbem::templates
