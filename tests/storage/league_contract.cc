// The LeagueRepository contract, run on SQLite and on PostgreSQL.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "storage/league_repository.h"
#include "tests/storage/repository_contract.h"

namespace pbem::storage {
namespace {

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

NewLeague SampleLeague(const std::string& id) {
  return NewLeague{id, "Club " + id, "organiser-secret", "points=6,5,4,3,2,1,0,3", At(1000)};
}

NewLeaguePlayer SamplePlayer(const std::string& league, const std::string& name) {
  return NewLeaguePlayer{league, name, name + "@example.org", "token-" + name, At(2000)};
}

LeagueGameRecord SampleLeagueGame(const std::string& league, const std::string& id, int round,
                                  const std::string& blue, const std::string& orange) {
  LeagueGameRecord g;
  g.league_id = league;
  g.season = 1;
  g.round = round;
  g.game_id = id;
  g.blue = blue;
  g.orange = orange;
  return g;
}

struct Opened {
  std::unique_ptr<GameRepository> owner;
  LeagueRepository* leagues = nullptr;
};

Opened OpenLeagues(RepositoryHarness& harness) {
  Opened o;
  o.owner = harness.NewRepository();
  Result<int> opened = o.owner->OpenOrMigrate();
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  o.leagues = dynamic_cast<LeagueRepository*>(o.owner.get());
  REQUIRE(o.leagues != nullptr);
  return o;
}

}  // namespace

void RunLeagueRepositoryContract(const HarnessFactory& make_harness) {
  std::unique_ptr<RepositoryHarness> harness = make_harness();
  REQUIRE(harness != nullptr);
  Opened o = OpenLeagues(*harness);
  LeagueRepository& repo = *o.leagues;

  SECTION("leagues: create, read, organiser token; a taken id or unknown league is an error") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    Result<League> league = repo.GetLeague("spring");
    REQUIRE(league.ok());
    CHECK(league->name == "Club spring");
    CHECK(league->settings == "points=6,5,4,3,2,1,0,3");
    CHECK(league->created_at == At(1000));
    CHECK(league->organiser_token_sha256 == Sha256Hex("organiser-secret"));
    CHECK(*repo.VerifyOrganiserToken("spring", "organiser-secret"));
    CHECK_FALSE(*repo.VerifyOrganiserToken("spring", "guess"));
    CHECK(repo.CreateLeague(SampleLeague("spring")).code() == StatusCode::kAlreadyExists);
    CHECK(repo.GetLeague("autumn").status().code() == StatusCode::kNotFound);
    CHECK(repo.VerifyOrganiserToken("autumn", "x").status().code() == StatusCode::kNotFound);
    auto no_token = SampleLeague("winter");
    no_token.organiser_token.clear();
    CHECK(repo.CreateLeague(no_token).code() == StatusCode::kInvalidArgument);
    CHECK(repo.GetLeague("winter").status().code() == StatusCode::kNotFound);
  }

  SECTION("leagues: listed by id, in id order") {
    REQUIRE(repo.ListLeagueIds().ok());
    CHECK(repo.ListLeagueIds()->empty());
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    REQUIRE(repo.CreateLeague(SampleLeague("autumn")).ok());
    REQUIRE(repo.CreateLeague(SampleLeague("spring-b")).ok());
    CHECK(*repo.ListLeagueIds() == std::vector<std::string>{"autumn", "spring", "spring-b"});
  }

  SECTION("leagues: the settings change (registration closed); the rest stays") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    REQUIRE(repo.SetLeagueSettings("spring", "registration closed\n").ok());
    Result<League> league = repo.GetLeague("spring");
    REQUIRE(league.ok());
    CHECK(league->settings == "registration closed\n");
    CHECK(league->name == "Club spring");
    CHECK(*repo.VerifyOrganiserToken("spring", "organiser-secret"));
    CHECK(repo.SetLeagueSettings("autumn", "x").code() == StatusCode::kNotFound);
    CHECK(repo.GetLeague("autumn").status().code() == StatusCode::kNotFound);
  }

  SECTION("players: join once, token hashes, remove; errors change nothing") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    REQUIRE(repo.AddLeaguePlayer(SamplePlayer("spring", "bob")).ok());
    NewLeaguePlayer ann = SamplePlayer("spring", "ann");
    ann.language = "fr";
    REQUIRE(repo.AddLeaguePlayer(ann).ok());
    Status twice = repo.AddLeaguePlayer(SamplePlayer("spring", "ann"));
    CHECK(twice.code() == StatusCode::kAlreadyExists);
    CHECK_THAT(twice.message(), Catch::Contains("adding player ann to league spring") &&
                                    Catch::Contains("in the league already"));
    CHECK(repo.AddLeaguePlayer(SamplePlayer("autumn", "cid")).code() == StatusCode::kNotFound);
    auto players = repo.ListLeaguePlayers("spring");
    REQUIRE(players.ok());
    REQUIRE(players->size() == 2);
    CHECK((*players)[0].player == "ann");
    CHECK((*players)[0].mail_address == "ann@example.org");
    CHECK((*players)[0].token_sha256 == Sha256Hex("token-ann"));
    CHECK((*players)[0].language == "fr");
    CHECK((*players)[1].player == "bob");
    CHECK((*players)[1].language == "en");
    CHECK(repo.ListLeaguePlayers("autumn").status().code() == StatusCode::kNotFound);
    REQUIRE(repo.RemoveLeaguePlayer("spring", "bob").ok());
    CHECK(repo.RemoveLeaguePlayer("spring", "bob").code() == StatusCode::kNotFound);
    CHECK(repo.ListLeaguePlayers("spring")->size() == 1);
  }

  SECTION("players: one address per league, ASCII case aside; other leagues may share it") {
    // Issue 13, findings 8 and 12: a league join is unique per (league, address), in one
    // transaction, with a unique index behind it (migration 9).
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    REQUIRE(repo.CreateLeague(SampleLeague("autumn")).ok());
    REQUIRE(repo.AddLeaguePlayer(SamplePlayer("spring", "ann")).ok());
    NewLeaguePlayer again = SamplePlayer("spring", "anna");
    again.mail_address = "ANN@Example.org";
    Status taken = repo.AddLeaguePlayer(again);
    CHECK(taken.code() == StatusCode::kAlreadyExists);
    CHECK_THAT(taken.message(), Catch::Contains("the address ANN@Example.org is in the league"));
    CHECK(repo.ListLeaguePlayers("spring")->size() == 1);
    again.league_id = "autumn";
    CHECK(repo.AddLeaguePlayer(again).ok());
    // A replacement may not take another player's address, but may keep the old one's.
    REQUIRE(repo.AddLeaguePlayer(SamplePlayer("spring", "bob")).ok());
    NewLeaguePlayer cid = SamplePlayer("spring", "cid");
    cid.mail_address = "bob@example.org";
    CHECK(repo.ReplaceLeaguePlayer("ann", cid).code() == StatusCode::kAlreadyExists);
    cid.mail_address = "ann@example.org";
    CHECK(repo.ReplaceLeaguePlayer("ann", cid).ok());
    CHECK(repo.ListLeaguePlayers("spring")->size() == 2);
  }

  SECTION("a round: games, players, league records and mails in one transaction or nothing") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    GameRepository* games = o.owner.get();
    const auto game = [](const std::string& id) {
      NewGameWithPlayers g;
      g.game.id = id;
      g.game.scenario = "s";
      g.game.ruleset_name = "r";
      g.game.ruleset_version = "1";
      g.game.engine_version = "e";
      g.game.created_at = At(3000);
      g.players = {{id, "blue", "ann@example.org", "t-" + id + "-b"},
                   {id, "orange", "bob@example.org", "t-" + id + "-o"}};
      return g;
    };
    NewMail mail;
    mail.recipient = "ann@example.org";
    mail.subject = "round 1";
    mail.body = "your games";
    mail.next_try = At(3000);
    // The second game's id is taken: the first game, the records and the mail stay out too.
    REQUIRE(games->CreateGame(game("spring-g2").game).ok());
    Status refused = repo.AddLeagueRound({game("spring-g1"), game("spring-g2")},
                                         {SampleLeagueGame("spring", "spring-g1", 1, "ann", "bob"),
                                          SampleLeagueGame("spring", "spring-g2", 1, "bob", "ann")},
                                         {mail});
    CHECK(refused.code() == StatusCode::kAlreadyExists);
    CHECK(games->GetGame("spring-g1").status().code() == StatusCode::kNotFound);
    CHECK(games->ListPlayers("spring-g1")->empty());
    CHECK(repo.ListLeagueGames("spring")->empty());
    CHECK(games->DueMail(At(10000), 10)->empty());
    // A league record naming an unknown league refuses the whole round as well.
    CHECK(repo.AddLeagueRound({game("spring-g1")},
                              {SampleLeagueGame("winter", "spring-g1", 1, "ann", "bob")}, {mail})
              .code() == StatusCode::kNotFound);
    CHECK(games->GetGame("spring-g1").status().code() == StatusCode::kNotFound);
    // Whole: all of it.
    REQUIRE(repo.AddLeagueRound({game("spring-g1"), game("spring-g3")},
                                {SampleLeagueGame("spring", "spring-g1", 1, "ann", "bob"),
                                 SampleLeagueGame("spring", "spring-g3", 1, "bob", "ann")},
                                {mail})
                .ok());
    CHECK(games->ListPlayers("spring-g3")->size() == 2);
    CHECK(*games->VerifyToken("spring-g1", "orange", "t-spring-g1-o"));
    CHECK(repo.ListLeagueGames("spring")->size() == 2);
    CHECK(games->DueMail(At(10000), 10)->size() == 1);
  }

  SECTION("games and results; a replacement takes over the pending games only") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    for (const char* name : {"ann", "bob", "cid"}) {
      REQUIRE(repo.AddLeaguePlayer(SamplePlayer("spring", name)).ok());
    }
    REQUIRE(repo.AddLeagueGames({SampleLeagueGame("spring", "s1-r1-a", 1, "ann", "bob"),
                                 SampleLeagueGame("spring", "s1-r2-a", 2, "cid", "ann")})
                .ok());
    // One unknown league in the batch: nothing of the batch is stored.
    CHECK(repo.AddLeagueGames({SampleLeagueGame("spring", "s1-r3-a", 3, "bob", "cid"),
                               SampleLeagueGame("autumn", "x", 1, "bob", "cid")})
              .code() == StatusCode::kNotFound);
    CHECK(repo.GetLeagueGame("s1-r3-a").status().code() == StatusCode::kNotFound);
    CHECK(repo.AddLeagueGames({SampleLeagueGame("spring", "s1-r1-a", 1, "x", "y")}).code() ==
          StatusCode::kAlreadyExists);

    auto result = SampleLeagueGame("spring", "s1-r1-a", 1, "ann", "bob");
    result.result = "victory";
    result.winner = "orange";
    result.level = "major";
    auto pending = repo.ListPendingLeagueGames();
    REQUIRE(pending.ok());
    REQUIRE(pending->size() == 2);
    CHECK((*pending)[0].game_id == "s1-r1-a");
    CHECK((*pending)[1].game_id == "s1-r2-a");
    REQUIRE(repo.RecordLeagueResult(result).ok());
    pending = repo.ListPendingLeagueGames();
    REQUIRE(pending->size() == 1);
    CHECK((*pending)[0].game_id == "s1-r2-a");
    result.game_id = "nope";
    CHECK(repo.RecordLeagueResult(result).code() == StatusCode::kNotFound);
    auto game = repo.GetLeagueGame("s1-r1-a");
    REQUIRE(game.ok());
    CHECK(game->result == "victory");
    CHECK(game->winner == "orange");
    CHECK(game->level == "major");

    // ann vanishes: dan takes her pending game; the finished one stays hers.
    REQUIRE(repo.ReplaceLeaguePlayer("ann", SamplePlayer("spring", "dan")).ok());
    auto games = repo.ListLeagueGames("spring");
    REQUIRE(games.ok());
    REQUIRE(games->size() == 2);
    CHECK((*games)[0].blue == "ann");
    CHECK((*games)[1].game_id == "s1-r2-a");
    CHECK((*games)[1].orange == "dan");
    CHECK((*games)[1].result == "pending");
    auto players = repo.ListLeaguePlayers("spring");
    REQUIRE(players->size() == 3);
    CHECK((*players)[0].player == "bob");
    CHECK((*players)[2].player == "dan");
    CHECK((*players)[2].token_sha256 == Sha256Hex("token-dan"));
    // Replacing by someone already there, or someone not there: refused, nothing changed.
    CHECK(repo.ReplaceLeaguePlayer("bob", SamplePlayer("spring", "cid")).code() ==
          StatusCode::kAlreadyExists);
    CHECK(repo.ReplaceLeaguePlayer("ann", SamplePlayer("spring", "eve")).code() ==
          StatusCode::kNotFound);
    CHECK(repo.ListLeaguePlayers("spring")->size() == 3);
  }

  SECTION("seasons: seats pinned at the start; a replacement takes its seat while played") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    for (const char* name : {"ann", "bob", "cid"}) {
      REQUIRE(repo.AddLeaguePlayer(SamplePlayer("spring", name)).ok());
    }
    CHECK(repo.ListLeagueSeasons("spring")->empty());
    CHECK(repo.ListLeagueSeasons("autumn").status().code() == StatusCode::kNotFound);
    CHECK(repo.StartLeagueSeason({"autumn", 1, {"ann"}, At(3000), std::nullopt}).code() ==
          StatusCode::kNotFound);
    CHECK(repo.StartLeagueSeason({"spring", 0, {"ann"}, At(3000), std::nullopt}).code() ==
          StatusCode::kInvalidArgument);
    // Seats in the order given (not name order).
    REQUIRE(
        repo.StartLeagueSeason({"spring", 1, {"cid", "ann", "bob"}, At(3000), std::nullopt}).ok());
    CHECK(repo.StartLeagueSeason({"spring", 1, {"ann"}, At(3100), std::nullopt}).code() ==
          StatusCode::kAlreadyExists);
    auto seasons = repo.ListLeagueSeasons("spring");
    REQUIRE(seasons.ok());
    REQUIRE(seasons->size() == 1);
    CHECK((*seasons)[0].seats == std::vector<std::string>{"cid", "ann", "bob"});
    CHECK((*seasons)[0].started_at == At(3000));
    CHECK_FALSE((*seasons)[0].finished_at.has_value());

    // Season 1 ends with one mail; again: refused, no second mail.
    NewMail champion;
    champion.recipient = "ann@example.org";
    champion.subject = "season 1 is over";
    champion.body = "table";
    champion.next_try = At(4000);
    REQUIRE(repo.FinishLeagueSeason("spring", 1, At(4000), {champion}).ok());
    CHECK(repo.FinishLeagueSeason("spring", 1, At(4100), {champion}).code() ==
          StatusCode::kAlreadyExists);
    CHECK(repo.FinishLeagueSeason("autumn", 1, At(4100), {}).code() == StatusCode::kNotFound);
    auto due = o.owner->DueMail(At(5000), 10);
    REQUIRE(due.ok());
    REQUIRE(due->size() == 1);
    CHECK((*due)[0].subject == "season 1 is over");
    REQUIRE(
        repo.StartLeagueSeason({"spring", 2, {"bob", "ann", "cid"}, At(6000), std::nullopt}).ok());

    // ann vanishes in season 2: dan takes her seat there; finished season 1 keeps her.
    REQUIRE(repo.ReplaceLeaguePlayer("ann", SamplePlayer("spring", "dan")).ok());
    seasons = repo.ListLeagueSeasons("spring");
    REQUIRE(seasons->size() == 2);
    CHECK((*seasons)[0].seats == std::vector<std::string>{"cid", "ann", "bob"});
    CHECK((*seasons)[0].finished_at == At(4000));
    CHECK((*seasons)[1].seats == std::vector<std::string>{"bob", "dan", "cid"});
    CHECK_FALSE((*seasons)[1].finished_at.has_value());

    // A season never started through StartLeagueSeason (stored before seasons were) ends too.
    REQUIRE(repo.FinishLeagueSeason("spring", 3, At(7000), {}).ok());
    seasons = repo.ListLeagueSeasons("spring");
    REQUIRE(seasons->size() == 3);
    CHECK((*seasons)[2].seats.empty());
    CHECK((*seasons)[2].finished_at == At(7000));
  }

  SECTION("ratings history: appended per round, read back in order, no period twice") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    NewMail standings;
    standings.recipient = "ann@example.org";
    standings.subject = "standings after round 1";
    standings.body = "table";
    standings.next_try = At(3000);
    REQUIRE(repo.AppendRatings({{"spring", "bob", 1, 1, 1337.69, 290.32, 0.059999},
                                {"spring", "ann", 1, 1, 1662.31, 290.32, 0.059999}},
                               {standings}, std::nullopt)
                .ok());
    REQUIRE(
        repo.AppendRatings({{"spring", "ann", 1, 2, 1700.5, 250.25, 0.06}}, {}, std::nullopt).ok());
    // A period stored already: refused as a whole, its mails not enqueued either.
    CHECK(repo.AppendRatings(
                  {{"spring", "ann", 1, 3, 1, 1, 0.06}, {"spring", "ann", 1, 2, 1, 1, 0.06}},
                  {standings}, std::nullopt)
              .code() == StatusCode::kAlreadyExists);
    auto due = o.owner->DueMail(At(5000), 10);
    REQUIRE(due.ok());
    REQUIRE(due->size() == 1);
    CHECK((*due)[0].subject == "standings after round 1");
    auto history = repo.RatingHistory("spring");
    REQUIRE(history.ok());
    REQUIRE(history->size() == 3);
    CHECK((*history)[0].player == "ann");
    CHECK((*history)[0].round == 1);
    CHECK((*history)[0].rating == 1662.31);
    CHECK((*history)[0].volatility == 0.059999);
    CHECK((*history)[1].round == 2);
    CHECK((*history)[1].rd == 250.25);
    CHECK((*history)[2].player == "bob");

    // The result that completes a round goes in the same transaction, or not at all.
    REQUIRE(repo.AddLeagueGames({SampleLeagueGame("spring", "s1-r4-a", 4, "ann", "bob")}).ok());
    auto done = SampleLeagueGame("spring", "s1-r4-a", 4, "ann", "bob");
    done.result = "draw";
    CHECK(repo.AppendRatings({{"spring", "ann", 1, 2, 1, 1, 0.06}}, {}, done).code() ==
          StatusCode::kAlreadyExists);
    CHECK(repo.GetLeagueGame("s1-r4-a")->result == "pending");
    auto stray = done;
    stray.game_id = "nope";
    CHECK(repo.AppendRatings({{"spring", "ann", 1, 4, 1, 1, 0.06}}, {}, stray).code() ==
          StatusCode::kNotFound);
    CHECK(repo.RatingHistory("spring")->size() == 3);
    REQUIRE(repo.AppendRatings({{"spring", "ann", 1, 4, 1, 1, 0.06}}, {}, done).ok());
    CHECK(repo.GetLeagueGame("s1-r4-a")->result == "draw");
    CHECK(repo.RatingHistory("spring")->size() == 4);
  }

  SECTION("corrections: a compare-and-set that replaces the ratings from the period on") {
    REQUIRE(repo.CreateLeague(SampleLeague("spring")).ok());
    REQUIRE(repo.AddLeaguePlayer(SamplePlayer("spring", "ann")).ok());
    REQUIRE(repo.AddLeaguePlayer(SamplePlayer("spring", "bob")).ok());
    auto r1 = SampleLeagueGame("spring", "g1", 1, "ann", "bob");
    auto r2 = SampleLeagueGame("spring", "g2", 2, "bob", "ann");
    REQUIRE(repo.AddLeagueGames({r1, r2}).ok());
    r1.result = "victory";
    r1.winner = "blue";
    r1.level = "major";
    r2.result = "draw";
    r2.level = "draw";
    REQUIRE(repo.AppendRatings({{"spring", "ann", 1, 1, 1600, 300, 0.06},
                                {"spring", "bob", 1, 1, 1400, 300, 0.06}},
                               {}, r1)
                .ok());
    REQUIRE(repo.AppendRatings({{"spring", "ann", 1, 2, 1590, 280, 0.06},
                                {"spring", "bob", 1, 2, 1410, 280, 0.06}},
                               {}, r2)
                .ok());
    auto corrected = r2;
    corrected.result = "victory";
    corrected.winner = "orange";
    corrected.level = "total";
    NewMail mail{"ann@example.org", "corrected", "body", {}, At(5)};
    LeagueCorrection correction{0, r2, corrected, "bob played with a second account", At(9000)};
    // Not what is stored: refused, nothing changed.
    LeagueCorrection stale = correction;
    stale.before.result = "pending";
    CHECK(repo.CorrectLeagueResult(stale, {}, {mail}).code() == StatusCode::kFailedPrecondition);
    LeagueCorrection no_reason = correction;
    no_reason.reason.clear();
    CHECK(repo.CorrectLeagueResult(no_reason, {}, {}).code() == StatusCode::kInvalidArgument);
    // A rerated period before the corrected one is refused.
    CHECK(repo.CorrectLeagueResult(correction, {{"spring", "ann", 1, 1, 1, 1, 0.06}}, {}).code() ==
          StatusCode::kInvalidArgument);
    CHECK(repo.GetLeagueGame("g2")->result == "draw");
    CHECK(repo.ListLeagueCorrections("spring")->empty());
    CHECK(o.owner->DueMail(At(1'000'000'000'000), 10)->empty());
    CHECK(repo.RatingHistory("spring")->size() == 4);

    REQUIRE(repo.CorrectLeagueResult(correction, {{"spring", "ann", 1, 2, 1650, 270, 0.06}}, {mail})
                .ok());
    CHECK(o.owner->DueMail(At(1'000'000'000'000), 10)->size() == 1);
    Result<LeagueGameRecord> now = repo.GetLeagueGame("g2");
    CHECK(now->result == "victory");
    CHECK(now->winner == "orange");
    CHECK(now->level == "total");
    // Period (1, 2) replaced by what was given (bob's gone: not rated again), (1, 1) kept.
    auto history = repo.RatingHistory("spring");
    REQUIRE(history->size() == 3);
    CHECK((*history)[0].round == 1);
    CHECK((*history)[0].rating == 1600);
    CHECK((*history)[1].round == 2);
    CHECK((*history)[1].rating == 1650);
    CHECK((*history)[2].player == "bob");
    CHECK((*history)[2].round == 1);
    auto corrections = repo.ListLeagueCorrections("spring");
    REQUIRE(corrections->size() == 1);
    CHECK((*corrections)[0].id > 0);
    CHECK((*corrections)[0].before.game_id == "g2");
    CHECK((*corrections)[0].before.round == 2);
    CHECK((*corrections)[0].before.result == "draw");
    CHECK((*corrections)[0].after.winner == "orange");
    CHECK((*corrections)[0].reason == "bob played with a second account");
    CHECK((*corrections)[0].at == At(9000));
    // Correcting from the old result again: it is no longer stored.
    CHECK(repo.CorrectLeagueResult(correction, {}, {}).code() == StatusCode::kFailedPrecondition);
    CHECK(repo.ListLeagueCorrections("spring")->size() == 1);
    CHECK(repo.ListLeagueCorrections("nope").status().code() == StatusCode::kNotFound);
    auto unknown = correction;
    unknown.before.game_id = unknown.after.game_id = "nope";
    CHECK(repo.CorrectLeagueResult(unknown, {}, {}).code() == StatusCode::kNotFound);
  }
}

}  // namespace pbem::storage
