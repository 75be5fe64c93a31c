// pbem render, run as a program: from orders, from a written TurnResult and state, and from
// a stored turn in a SQLite game store. Each PNG is checked for its size (IHDR), decoded and
// compared byte for byte with the same map rendered in this process, and a counter's colour
// is checked at its hex.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/core/dice.h"
#include "engine/morne_plaine/turn.h"
#include "proto/codec/codec.h"
#include "storage/sqlite_repository.h"
#include "templates/map_renderer.h"
#include "templates/png_writer.h"

namespace pbem {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = PBEM_SOURCE_DIR;
const std::string kPbem = PBEM_BINARY;
const fs::path kScenario = kSource / "engine/scenarios/bois-de-la-morne.textproto";

struct Bundle {
  engine::Ruleset ruleset;
  engine::Scenario scenario;
};

const Bundle& Bundled() {
  static const Bundle bundle = [] {
    auto rs = codec::LoadRulesetDir(kSource / "engine/rulesets/morne-plaine");
    REQUIRE(rs.ok());
    auto sc = codec::LoadScenarioFile(kScenario, rs.value().ruleset);
    REQUIRE(sc.ok());
    return Bundle{rs.value().ruleset, sc.value().scenario};
  }();
  return bundle;
}

fs::path TempDir() {
  const fs::path dir = fs::temp_directory_path() /
                       ("pbem-render-test-" + std::to_string(static_cast<long>(::getpid())));
  fs::create_directories(dir);
  return dir;
}

std::vector<std::uint8_t> ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void WriteText(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

int Run(const std::string& args) {
  const std::string command = kPbem + " " + args + " 2>/dev/null";
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::uint32_t Be32(const std::vector<std::uint8_t>& b, std::size_t at) {
  return (std::uint32_t{b[at]} << 24) | (std::uint32_t{b[at + 1]} << 16) |
         (std::uint32_t{b[at + 2]} << 8) | std::uint32_t{b[at + 3]};
}

engine::Orders LoadOrders(const std::string& side) {
  const auto bytes = codec::ReadFile(
      kSource / ("engine/scenarios/bois-de-la-morne.orders-" + side + ".textproto"));
  REQUIRE(bytes.ok());
  const auto proto = codec::ParseOrders(bytes.value(), std::nullopt, side);
  REQUIRE(proto.ok());
  return codec::OrdersFromProto(proto.value());
}

// Blue's sample orders resolved from the initial state, as `pbem render --orders` does
// with --seed 7 (its first orders file rolls SeededDice(seed)).
engine::TurnResult BlueTurn() {
  const Bundle& b = Bundled();
  engine::GameState state = engine::InitialState(b.scenario, "demo");
  engine::SeededDice dice(7);
  return engine::ResolvePlayerTurn(b.ruleset, b.scenario, state, LoadOrders("blue"), dice);
}

// The map this process draws for that turn.
std::vector<std::uint8_t> Expected(const engine::TurnResult& r, int turn, engine::Side side) {
  const Bundle& b = Bundled();
  templates::RenderOptions options;
  options.game_id = r.next_state.game_id;
  options.turn_played = turn;
  options.side_played = side;
  std::vector<std::uint8_t> png;
  REQUIRE(templates::RenderMapPng(b.ruleset, b.scenario, r.next_state, &r.events, options,
                                  templates::PngOptions{}, &png)
              .ok);
  return png;
}

// The PNG's signature and IHDR size, and that it decodes to an image whose counter at b-i2's
// hex is blue.
void CheckPng(const std::vector<std::uint8_t>& png, const engine::TurnResult& r) {
  REQUIRE(png.size() > 10000);
  const std::vector<std::uint8_t> signature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  CHECK(std::vector<std::uint8_t>(png.begin(), png.begin() + 8) == signature);
  CHECK(std::string(png.begin() + 12, png.begin() + 16) == "IHDR");
  const Bundle& b = Bundled();
  const templates::MapLayout layout =
      templates::ComputeMapLayout(b.ruleset, b.scenario, &r.events, templates::RenderOptions{});
  CHECK(Be32(png, 16) == static_cast<std::uint32_t>(layout.image_width()));
  CHECK(Be32(png, 20) == static_cast<std::uint32_t>(layout.image_height()));
  templates::DecodedPng decoded;
  REQUIRE(templates::DecodePng(png, &decoded).ok);
  const engine::UnitId unit = *b.scenario.FindUnit("b-i2");
  const templates::Box box = layout.CounterBox(*r.next_state.unit(unit).hex);
  const int x = static_cast<int>(box.x + box.w * 0.15);
  const int y = static_cast<int>(box.y + box.h * 0.55);
  const std::uint8_t* px = &decoded.rgba[4 * (static_cast<std::size_t>(y) * decoded.width + x)];
  CHECK(templates::Rgb{px[0], px[1], px[2]} == templates::kBlueSideColour);
}

TEST_CASE("pbem render --orders draws the resolved turn", "[cli][render]") {
  const fs::path dir = TempDir();
  const fs::path out = dir / "orders.png";
  REQUIRE(Run("render --scenario " + kScenario.string() + " --orders " +
              (kSource / "engine/scenarios/bois-de-la-morne.orders-blue.textproto").string() +
              " --seed 7 -o " + out.string()) == 0);
  const engine::TurnResult r = BlueTurn();
  const std::vector<std::uint8_t> png = ReadBytes(out);
  CheckPng(png, r);
  CHECK(png == Expected(r, 1, engine::Side::kBlue));
}

TEST_CASE("pbem render --result and --state files", "[cli][render]") {
  const fs::path dir = TempDir();
  const Bundle& b = Bundled();
  const engine::TurnResult r = BlueTurn();
  const pbem::v1::TurnResult proto =
      codec::TurnResultToProto(r, b.scenario, 1, engine::Side::kBlue);
  WriteText(dir / "result.binpb", codec::SerializeMessage(proto, codec::Format::kBinary));
  WriteText(dir / "result.txtpb", codec::SerializeMessage(proto, codec::Format::kText));
  WriteText(
      dir / "state.json",
      codec::SerializeMessage(codec::StateToProto(r.next_state, b.scenario), codec::Format::kJson));
  const std::vector<std::uint8_t> expected = Expected(r, 1, engine::Side::kBlue);
  for (const char* file : {"result.binpb", "result.txtpb"}) {
    INFO(file);
    const fs::path out = dir / (std::string(file) + ".png");
    REQUIRE(Run("render --scenario " + kScenario.string() + " --result " + (dir / file).string() +
                " -o " + out.string()) == 0);
    const std::vector<std::uint8_t> png = ReadBytes(out);
    CheckPng(png, r);
    CHECK(png == expected);
  }
  // A state alone: no events, so no arrows, and a different image.
  const fs::path out = dir / "state.png";
  REQUIRE(Run("render --scenario " + kScenario.string() + " --state " +
              (dir / "state.json").string() + " -o " + out.string()) == 0);
  const std::vector<std::uint8_t> state_png = ReadBytes(out);
  REQUIRE(state_png.size() > 10000);
  CHECK(state_png != expected);

  // Bad input: a clear error and no file.
  WriteText(dir / "broken.txtpb", "next_state { units { id: \"no-such-unit\" } }\n");
  CHECK(Run("render --scenario " + kScenario.string() + " --result " +
            (dir / "broken.txtpb").string() + " -o " + (dir / "broken.png").string()) == 1);
  CHECK_FALSE(fs::exists(dir / "broken.png"));
  CHECK(Run("render --scenario " + kScenario.string()) == 2);  // no -o
  CHECK(Run("render --scenario " + kScenario.string() + " --turn 0 -o x.png") == 2);
  fs::remove_all(dir);
}

TEST_CASE("pbem render --game reads the stored turn", "[cli][render]") {
  const fs::path dir = TempDir() / "store";
  const Bundle& b = Bundled();
  const engine::TurnResult r = BlueTurn();
  {
    storage::SqliteRepository repo(dir);
    REQUIRE(repo.OpenOrMigrate().ok());
    storage::NewGame game;
    game.id = "demo";
    game.scenario = "bois-de-la-morne";
    game.ruleset_name = "morne-plaine";
    game.initial_state = codec::SerializeMessage(
        codec::StateToProto(engine::InitialState(b.scenario, "demo"), b.scenario),
        codec::Format::kBinary);
    REQUIRE(repo.CreateGame(game).ok());
    storage::TurnCommit commit;
    commit.game_id = "demo";
    commit.turn = 1;
    commit.side = "blue";
    commit.based_on = 0;
    commit.result = codec::SerializeMessage(
        codec::TurnResultToProto(r, b.scenario, 1, engine::Side::kBlue), codec::Format::kBinary);
    commit.next_state = codec::SerializeMessage(codec::StateToProto(r.next_state, b.scenario),
                                                codec::Format::kBinary);
    REQUIRE(repo.CommitTurn(commit).ok());
  }
  const fs::path out = dir / "turn1.png";
  REQUIRE(Run("render --game demo --turn 1 --db sqlite:" + dir.string() + " -o " + out.string()) ==
          0);
  const std::vector<std::uint8_t> png = ReadBytes(out);
  CheckPng(png, r);
  CHECK(png == Expected(r, 1, engine::Side::kBlue));

  // Nothing stored for orange's turn 1, for turn 2, for another game: errors, no file.
  const std::string db = " --db sqlite:" + dir.string() + " -o " + (dir / "none.png").string();
  CHECK(Run("render --game demo --turn 1 --side orange" + db) == 1);
  CHECK(Run("render --game demo --turn 2" + db) == 1);
  CHECK(Run("render --game other --turn 1" + db) == 1);
  CHECK(Run("render --game demo --turn 1 --db postgres://x -o x.png") == 2);
  CHECK_FALSE(fs::exists(dir / "none.png"));
  fs::remove_all(dir.parent_path());
}

}  // namespace
}  // namespace pbem
