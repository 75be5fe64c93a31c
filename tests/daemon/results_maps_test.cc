// The maps of the results mail (daemon/results_maps.h) from a real turn of the bundled
// scenario: one drawing per language (the title and legend in it), the whole map named after
// the game, turn and side, the action crop cut from it at full scale, and the crop put first
// in the HTML body.
#include "daemon/results_maps.h"

#include <catch2/catch.hpp>
#include <string>

#include "daemon/turn/turn_job.h"
#include "proto/codec/codec.h"
#include "templates/png_writer.h"
#include "tests/daemon/turn_fixture.h"

namespace pbem::daemon {
namespace {

using testing::BlueOrdersText;
using testing::TurnFixture;

struct PlayedTurn {
  TurnFixture f;
  std::shared_ptr<const ScenarioData> data;
  engine::GameState next;
  engine::TurnResult result;
  PlayedTurn() {
    auto loaded = f.catalog.Scenario("bois-de-la-morne");
    REQUIRE(loaded.ok());
    data = *loaded;
    const engine::GameState start = engine::InitialState(data->scenario, "g");
    auto orders = codec::ParseOrders(BlueOrdersText(""), std::nullopt, "blue orders");
    REQUIRE(orders.ok());
    orders.value().set_game_id("g");
    const Resolution resolution =
        ResolveWithSeed(data->ruleset, data->scenario, start, orders.value(), Bytes(32, '\x07'));
    next = resolution.next;
    auto decoded = codec::TurnResultFromProto(resolution.result_proto, data->scenario, "turn");
    REQUIRE(decoded.ok());
    result = std::move(decoded).value();
    REQUIRE_FALSE(result.events.empty());
  }
};

templates::DecodedPng Decoded(const storage::Attachment& a) {
  templates::DecodedPng png;
  REQUIRE(templates::DecodePng({a.data.begin(), a.data.end()}, &png).ok);
  return png;
}

TEST_CASE("results maps: one drawing per language, named after game, turn and side",
          "[daemon][maps]") {
  PlayedTurn t;
  ResultsMaps maps(*t.data, t.next, t.result.events, "g", 1, engine::Side::kBlue,
                   t.f.mail_templates);
  Result<const ResultsMapFiles*> english = maps.For(templates::Language::kEnglish);
  REQUIRE(english.ok());
  CHECK(maps.renders() == 1);
  Result<const ResultsMapFiles*> again = maps.For(templates::Language::kEnglish);
  REQUIRE(again.ok());
  CHECK(*again == *english);  // the same files: not drawn again
  CHECK(maps.renders() == 1);
  Result<const ResultsMapFiles*> french = maps.For(templates::Language::kFrench);
  REQUIRE(french.ok());
  CHECK(maps.renders() == 2);

  const ResultsMapFiles& en = **english;
  const ResultsMapFiles& fr = **french;
  CHECK(en.whole.filename == "g-turn-1-blue.png");
  CHECK(en.action.filename == "g-turn-1-blue-action.png");
  CHECK(fr.whole.filename == "g-turn-1-blue.png");
  // The title and legend are worded in each language: the images differ.
  CHECK(en.whole.data != fr.whole.data);

  // The crop is the whole map's own pixels in its box: full scale, not resampled.
  const templates::DecodedPng whole = Decoded(en.whole);
  const templates::DecodedPng crop = Decoded(en.action);
  const templates::PixelBox box = en.action_box;
  REQUIRE(crop.width == box.w);
  REQUIRE(crop.height == box.h);
  CHECK(box.w < whole.width);
  CHECK(box.h < whole.height);
  CHECK(box.w <= 760);
  CHECK(box.h <= 520);
  int differing = 0;
  for (int y = 0; y < crop.height; ++y) {
    for (int x = 0; x < crop.width * 4; ++x) {
      differing +=
          crop.rgba[static_cast<std::size_t>(y * crop.width * 4 + x)] !=
          whole.rgba[static_cast<std::size_t>((box.y + y) * whole.width * 4 + box.x * 4 + x)];
    }
  }
  CHECK(differing == 0);

  // The same turn drawn again by another process gives the same bytes.
  ResultsMaps other(*t.data, t.next, t.result.events, "g", 1, engine::Side::kBlue,
                    t.f.mail_templates);
  Result<const ResultsMapFiles*> redrawn = other.For(templates::Language::kEnglish);
  REQUIRE(redrawn.ok());
  CHECK((*redrawn)->whole.data == en.whole.data);
  CHECK((*redrawn)->action.data == en.action.data);
}

TEST_CASE("results maps: the crop comes first in the body, at its own size", "[daemon][maps]") {
  ResultsMapFiles files;
  files.action.filename = "g-turn-2-orange-action.png";
  files.action_box = templates::PixelBox{10, 20, 640, 400};
  const std::string html =
      "<!DOCTYPE html>\n<html><head><title>t</title></head>\n"
      "<body style=\"font-family: sans-serif\">\n<p>Hello,</p>\n</body></html>";
  const std::string out = WithActionMap(html, files, "Map <of> \"the\" turn & all");
  const std::size_t img = out.find("<img src=\"cid:g-turn-2-orange-action.png\"");
  REQUIRE(img != std::string::npos);
  CHECK(img > out.find("<body style=\"font-family: sans-serif\">"));
  CHECK(img < out.find("<p>Hello,</p>"));
  CHECK_THAT(out, Catch::Contains("width=\"640\" height=\"400\""));
  CHECK_THAT(out, Catch::Contains("max-width: none"));
  CHECK_THAT(out, Catch::Contains("alt=\"Map &lt;of&gt; &quot;the&quot; turn &amp; all\""));
}

}  // namespace
}  // namespace pbem::daemon
