// A crash between rating a round and what follows it (issue 20), against the real pbemd
// (SQLite, file outbox): PBEM_FAULT=league.after_rating:abort makes pbemd abort right after
// the round's last result is stored, the round rated and its standings mails enqueued, before
// the next round starts (or the season ends). Restarted, pbemd's league pass sees the
// complete round with nothing after it and does what was missed: the next round exists
// exactly once and its mails go out once; a season whose last round was cut off ends once,
// announced once. Checked in the store itself (league::CompleteStalledRound then finds
// nothing to do) and in the outbox.
#include <Poco/Exception.h>
#include <stdlib.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "daemon/league/season.h"
#include "daemon/turn/dice.h"
#include "storage/sqlite_repository.h"
#include "tests/league/pbemd_process.h"
#include "tests/support/temp_dir.h"

namespace pbem {
namespace {

using namespace pbemd_process;  // NOLINT: Pbemd, kAdmin, the outbox readers
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

constexpr const char* kOrganiser = "club-organiser-secret";
constexpr const char* kFault = "league.after_rating:abort";

// A pbemd started with PBEM_FAULT set to `fault` (empty: none armed).
std::unique_ptr<Pbemd> Start(const fs::path& dir, const std::string& fault) {
  if (fault.empty()) {
    unsetenv("PBEM_FAULT");
  } else {
    setenv("PBEM_FAULT", fault.c_str(), 1);
  }
  auto pbemd = std::make_unique<Pbemd>(dir);
  unsetenv("PBEM_FAULT");
  return pbemd;
}

void CreateLeague(Pbemd& pbemd, const std::string& id, const std::vector<std::string>& players) {
  const std::string spec = R"({"id":")" + id + R"(","organiserToken":")" + kOrganiser + R"("})";
  REQUIRE(pbemd.Send("POST", "/v1/leagues", spec, kAdmin).status == 201);
  for (const std::string& p : players) {
    const std::string body =
        R"({"name":")" + p + R"(","email":")" + p + R"(@example.org","language":"en"})";
    REQUIRE(pbemd.Send("POST", "/v1/leagues/" + id + "/players", body).status == 201);
  }
  REQUIRE(pbemd.Send("POST", "/v1/leagues/" + id + "/start", "", kOrganiser).status == 201);
}

// The organiser's draw for `game`; the HTTP status, or 0 when pbemd died answering.
int Draw(Pbemd& pbemd, const std::string& league, const std::string& game) {
  try {
    return pbemd
        .Send("POST", "/v1/leagues/" + league + "/games/" + game + "/result", R"({"draw":true})",
              kOrganiser)
        .status;
  } catch (const Poco::Exception&) {
    return 0;
  }
}

std::vector<storage::LeagueGameRecord> GamesOfRound(const fs::path& data, const std::string& league,
                                                    int round) {
  storage::SqliteRepository repo(data);
  REQUIRE(repo.OpenOrMigrate().ok());
  Result<std::vector<storage::LeagueGameRecord>> games = repo.ListLeagueGames(league);
  REQUIRE(games.ok());
  std::vector<storage::LeagueGameRecord> out;
  for (const auto& g : *games) {
    if (g.round == round) out.push_back(g);
  }
  return out;
}

// The outbox mails whose subject contains `words`, once at least `count` of them are sent.
std::vector<Mail> MailsOnceSent(const Pbemd& pbemd, const std::string& words, std::size_t count) {
  const auto give_up = Clock::now() + std::chrono::seconds(30);
  for (;;) {
    std::vector<Mail> found;
    for (Mail& m : ReadOutbox(pbemd.outbox())) {
      if (m.subject.find(words) != std::string::npos) found.push_back(std::move(m));
    }
    if (found.size() >= count || Clock::now() > give_up) return found;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// How often `words` occur in the log of the pbemd started last (each appends to one file).
std::size_t CountInLog(const Pbemd& pbemd, std::size_t log_start, const std::string& words) {
  const std::string text = pbemd.Log().substr(log_start);
  std::size_t n = 0;
  for (auto at = text.find(words); at != std::string::npos; at = text.find(words, at + 1)) ++n;
  return n;
}

// What CompleteStalledRound finds to do for `league` now, in the store itself: nothing, when
// the round and season are followed up. Its loader refuses: any round it tried to start shows.
bool NothingStalled(const fs::path& data, const std::string& league) {
  storage::SqliteRepository repo(data);
  REQUIRE(repo.OpenOrMigrate().ok());
  const league::MaterialLoader refuse = [](const std::string&) -> Result<league::GameMaterial> {
    return Status::FailedPrecondition("the check starts no round");
  };
  daemon::SystemEntropy entropy;
  Result<std::optional<league::Advance>> done = league::CompleteStalledRound(
      repo, league, refuse, entropy, fs::path(PBEM_SOURCE_DIR) / "templates/league",
      std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now()));
  REQUIRE(done.ok());
  return !done->has_value();
}

TEST_CASE("a crash after rating a round: the restarted pbemd starts the next round once") {
  testing::TempDir dir("pbem-league-recovery");
  const fs::path data = dir.path() / "data";
  const std::vector<std::string> club = {"Ann", "Bob", "Cid", "Dot"};
  std::size_t log_start = 0;  // where the log of the pbemd started last begins

  // 1. Armed: the round's last result is rated, then pbemd aborts before round 2.
  {
    std::unique_ptr<Pbemd> pbemd = Start(dir.path(), kFault);
    CreateLeague(*pbemd, "club", club);
    CreateLeague(*pbemd, "duo", {"Eve", "Fay"});
    REQUIRE(Draw(*pbemd, "club", "club-s1-r1-g1") == 200);
    CHECK(Draw(*pbemd, "club", "club-s1-r1-g2") == 0);  // pbemd died answering
    pbemd->Stop();
    CHECK(CountInLog(*pbemd, log_start,
                     "event=fault_point name=league.after_rating action=abort") == 1);
    log_start = pbemd->Log().size();
  }
  // The store holds the complete, rated round and nothing after it.
  {
    std::vector<storage::LeagueGameRecord> round1 = GamesOfRound(data, "club", 1);
    REQUIRE(round1.size() == 2);
    for (const auto& g : round1) CHECK(g.result == "draw");
    storage::SqliteRepository repo(data);
    REQUIRE(repo.OpenOrMigrate().ok());
    CHECK(repo.RatingHistory("club")->size() == 4);
    CHECK(GamesOfRound(data, "club", 2).empty());
  }

  // 2. Restarted (still armed: the repair does not pass the point): round 2 starts once.
  {
    std::unique_ptr<Pbemd> pbemd = Start(dir.path(), kFault);
    std::vector<Mail> round2 = MailsOnceSent(*pbemd, "round 2, season 1", club.size());
    CHECK(round2.size() == club.size());
    std::vector<std::string> to;
    for (const Mail& m : round2) to.push_back(m.to);
    std::sort(to.begin(), to.end());
    // Addresses are stored in lower case.
    CHECK(to == std::vector<std::string>{"ann@example.org", "bob@example.org", "cid@example.org",
                                         "dot@example.org"});
    // The season of duo: its only round's result, then the abort before the season's end.
    CHECK(Draw(*pbemd, "duo", "duo-s1-r1-g1") == 0);
    pbemd->Stop();
    CHECK(CountInLog(*pbemd, log_start,
                     "event=league_round_recovered league=club season=1 round=2") == 1);
    CHECK(CountInLog(*pbemd, log_start, "name=league.after_rating action=abort") == 1);
    log_start = pbemd->Log().size();
  }
  CHECK(GamesOfRound(data, "club", 2).size() == 2);
  CHECK(NothingStalled(data, "club"));
  {  // duo's game is recorded and rated, its season not ended
    storage::SqliteRepository repo(data);
    REQUIRE(repo.OpenOrMigrate().ok());
    CHECK(repo.GetLeagueGame("duo-s1-r1-g1")->result == "draw");
    CHECK(repo.RatingHistory("duo")->size() == 2);
    Result<std::vector<storage::LeagueSeason>> seasons = repo.ListLeagueSeasons("duo");
    REQUIRE(seasons.ok());
    for (const auto& s : *seasons) CHECK_FALSE(s.finished_at.has_value());
  }

  // 3. Restarted, unarmed: duo's season ends once, announced once; club has one round 2.
  {
    std::unique_ptr<Pbemd> pbemd = Start(dir.path(), "");
    std::vector<Mail> ended = MailsOnceSent(*pbemd, "season 1 is over", 2);
    CHECK(ended.size() == 2);
    // Every mail pbemd ever sent: round 2's four once, the season's end two once.
    CHECK(MailsOnceSent(*pbemd, "round 2, season 1", club.size()).size() == club.size());
    pbemd->Stop();
    CHECK(CountInLog(*pbemd, log_start, "event=league_season_recovered league=duo season=1") == 1);
    CHECK(CountInLog(*pbemd, log_start, "event=league_round_recovered") == 0);
  }
  CHECK(NothingStalled(data, "club"));
  CHECK(NothingStalled(data, "duo"));
  CHECK(GamesOfRound(data, "club", 2).size() == 2);
  storage::SqliteRepository repo(data);
  REQUIRE(repo.OpenOrMigrate().ok());
  Result<std::vector<storage::LeagueSeason>> seasons = repo.ListLeagueSeasons("duo");
  REQUIRE(seasons.ok());
  REQUIRE(seasons->size() == 1);
  CHECK(seasons->front().finished_at.has_value());
}

}  // namespace
}  // namespace pbem
