// The archive page from a game stored in SQLite: the stored turns decode back to the same
// words (TurnResultFromProto), and the pages link, number and picture every turn.
#include "templates/archive.h"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <sstream>

#include "proto/codec/codec.h"
#include "storage/sqlite_repository.h"
#include "templates/png_writer.h"
#include "tests/archive/fixture_game.h"

namespace pbem {
namespace {

namespace fs = std::filesystem;

fs::path TempDir() {
  std::string pattern = (fs::temp_directory_path() / "pbem-archive-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

const templates::MailTemplates& Mail() {
  static const templates::MailTemplates mail = [] {
    templates::MailTemplates m;
    const templates::Status s =
        templates::MailTemplates::Load(templates::DefaultMailTemplateDir(PBEM_SOURCE_DIR), &m);
    INFO(s.message);
    REQUIRE(s.ok);
    return m;
  }();
  return mail;
}

TEST_CASE("a stored game becomes an archive with every turn's map and report") {
  const fs::path dir = TempDir();
  storage::SqliteRepository repo(dir / "db");
  REQUIRE(repo.OpenOrMigrate().ok());
  constexpr int kTurns = 10;
  const testing::FixtureGame game =
      testing::PlayFixtureGame(PBEM_SOURCE_DIR, "g7", kTurns, 7, &repo);
  INFO(game.error);
  REQUIRE(game.error.empty());
  REQUIRE(game.turns.size() == kTurns);

  // What storage holds decodes back to the same verdicts and events.
  auto stored = repo.ListTurns("g7");
  REQUIRE(stored.ok());
  REQUIRE(stored.value().size() == kTurns);
  templates::ArchiveInput from_engine;
  templates::ArchiveInput from_storage;
  for (templates::ArchiveInput* in : {&from_engine, &from_storage}) {
    in->ruleset = &game.ruleset;
    in->scenario = &game.scenario;
    in->game_id = "g7";
    in->initial_state = engine::InitialState(game.scenario, "g7");
  }
  int combats = 0;
  for (int k = 0; k < kTurns; ++k) {
    const testing::FixtureTurn& t = game.turns[static_cast<std::size_t>(k)];
    pbem::v1::TurnResult proto;
    REQUIRE(codec::ParseMessage(stored.value()[static_cast<std::size_t>(k)].result,
                                codec::Format::kBinary, "turn", proto)
                .ok());
    auto decoded = codec::TurnResultFromProto(proto, game.scenario, "turn");
    INFO(decoded.ErrorText());
    REQUIRE(decoded.ok());
    const engine::TurnResult& d = decoded.value();
    REQUIRE(d.events.size() == t.result.events.size());
    for (std::size_t i = 0; i < d.events.size(); ++i) {
      CHECK(d.events[i].kind() == t.result.events[i].kind());
      CHECK(d.events[i].phase == t.result.events[i].phase);
      CHECK(d.events[i].unit == t.result.events[i].unit);
      CHECK(d.events[i].hexes == t.result.events[i].hexes);
      CHECK(engine::EventArgs(d.events[i].body) == engine::EventArgs(t.result.events[i].body));
      if (t.result.events[i].kind() == engine::EventKind::kCombat) ++combats;
    }
    REQUIRE(d.verdicts.size() == t.result.verdicts.size());
    for (std::size_t i = 0; i < d.verdicts.size(); ++i) {
      CHECK(d.verdicts[i].reason == t.result.verdicts[i].reason);
    }
    CHECK(d.next_state.turn == t.result.next_state.turn);
    for (templates::ArchiveInput* in : {&from_engine, &from_storage}) {
      templates::ArchiveTurn turn;
      turn.turn = t.turn;
      turn.side = t.side;
      turn.result = in == &from_engine ? t.result : d;
      turn.revealed_seed = t.seed;
      turn.commitment = t.commitment;
      in->turns.push_back(std::move(turn));
    }
  }
  // The bot's game has fights to tell (the scenario puts the armies close).
  CHECK(combats > 0);

  const fs::path templates_dir = templates::DefaultArchiveTemplateDir(PBEM_SOURCE_DIR);
  const fs::path a = dir / "a";
  const fs::path b = dir / "b";
  REQUIRE(
      templates::WriteArchive(Mail(), templates::Language::kEnglish, templates_dir, from_engine, a)
          .ok);
  REQUIRE(
      templates::WriteArchive(Mail(), templates::Language::kEnglish, templates_dir, from_storage, b)
          .ok);

  // Typed engine arguments and the stored text give the same pages, word for word.
  for (int k = 1; k <= kTurns; ++k) {
    const std::string page = templates::ArchiveTurnPage(k);
    INFO(page);
    CHECK(Slurp(a / page) == Slurp(b / page));
  }
  CHECK(Slurp(a / "index.html") == Slurp(b / "index.html"));

  const std::string index = Slurp(a / "index.html");
  CHECK(fs::exists(a / "style.css"));
  CHECK(fs::exists(a / templates::ArchiveMapFile(0)));
  CHECK(Has(index, "href=\"turn-001.html\""));
  CHECK(Has(index, "href=\"turn-010.html\""));
  CHECK(Has(index, "Le Bois de la Morne: game g7"));
  const engine::GameState& last = game.turns.back().result.next_state;
  CHECK(Has(index, "The game goes on: turn " + std::to_string(last.turn) + ", " +
                       std::string(engine::SideName(last.side_to_move)) + " to move."));
  bool saw_odds = false;
  const std::regex img(
      R"re(<img class="map" id="map" src="([^"]+)" width="(\d+)" height="(\d+)")re");
  for (int k = 1; k <= kTurns; ++k) {
    const testing::FixtureTurn& t = game.turns[static_cast<std::size_t>(k - 1)];
    const std::string html = Slurp(a / templates::ArchiveTurnPage(k));
    INFO("page " << k);
    CHECK(Has(html, "data-sequence=\"" + std::to_string(k) + "\" data-turn=\"" +
                        std::to_string(t.turn) + "\""));
    CHECK(Has(html, "href=\"" +
                        (k > 1 ? templates::ArchiveTurnPage(k - 1) : std::string("index.html")) +
                        "\""));
    CHECK(Has(html, "id=\"next\"") == (k < kTurns));
    if (k < kTurns) CHECK(Has(html, "href=\"" + templates::ArchiveTurnPage(k + 1) + "\""));
    CHECK(Has(html, "now revealed: <code>" + t.seed + "</code>"));
    CHECK_FALSE(Has(html, "http://"));
    CHECK_FALSE(Has(html, "https://"));
    for (const engine::Event& e : t.result.events) {
      const auto* combat = e.get<engine::payload::Combat>();
      if (combat == nullptr) continue;
      CHECK(Has(html, "odds " + combat->odds + ". Die " + std::to_string(combat->roll)));
      saw_odds = true;
    }
    // The map named by the page exists and has the size the page gives it.
    std::smatch m;
    REQUIRE(std::regex_search(html, m, img));
    CHECK(m[1].str() == templates::ArchiveMapFile(k));
    const std::string png = Slurp(a / m[1].str());
    templates::DecodedPng decoded;
    REQUIRE(templates::DecodePng(std::vector<std::uint8_t>(png.begin(), png.end()), &decoded).ok);
    CHECK(std::to_string(decoded.width) == m[2].str());
    CHECK(std::to_string(decoded.height) == m[3].str());
  }
  CHECK(saw_odds == (combats > 0));

  // The French archive of the same game: every sentence found (no template left unrendered).
  const fs::path c = dir / "c";
  REQUIRE(
      templates::WriteArchive(Mail(), templates::Language::kFrench, templates_dir, from_storage, c)
          .ok);
  for (int k = 1; k <= kTurns; ++k) {
    const std::string html = Slurp(c / templates::ArchiveTurnPage(k));
    INFO("page " << k);
    CHECK(Has(html, "<html lang=\"fr\">"));
    CHECK_FALSE(Has(html, "{{"));
    CHECK(Has(html, "maintenant révélée"));
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pbem
