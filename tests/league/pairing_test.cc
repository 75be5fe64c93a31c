// Pairings: small schedules written out by hand, and the properties of larger ones.
#include "daemon/league/pairing.h"

#include <catch2/catch.hpp>
#include <map>
#include <set>

namespace pbem::league {
namespace {

using Games = std::vector<Pairing>;

TEST_CASE("Round robin, 4 players, by hand") {
  // Seats [A B C D]; round 1: A-D (fixed seat blue in even rounds), B-C (top row blue).
  // Rotate -> [A D B C]; round 2: C-A (fixed seat orange), D-B.
  // Rotate -> [A C D B]; round 3: A-B, C-D.
  auto rounds = RoundRobin({"A", "B", "C", "D"}, SideRule::kBalanced);
  REQUIRE(rounds.ok());
  const auto& r = rounds.value();
  REQUIRE(r.size() == 3);
  CHECK(r[0].games == Games{{"A", "D"}, {"B", "C"}});
  CHECK(r[1].games == Games{{"C", "A"}, {"D", "B"}});
  CHECK(r[2].games == Games{{"A", "B"}, {"C", "D"}});
  for (const auto& round : r) CHECK_FALSE(round.bye.has_value());
  CHECK(r[2].number == 3);
}

TEST_CASE("Round robin, 3 players: one bye per round, by hand") {
  // Seats [A B C -]; round 1: A meets the bye seat, B-C. [A - B C]: C-A, bye B.
  // [A C - B]: A-B, bye C.
  auto rounds = RoundRobin({"A", "B", "C"}, SideRule::kBalanced);
  REQUIRE(rounds.ok());
  const auto& r = rounds.value();
  REQUIRE(r.size() == 3);
  CHECK(r[0].games == Games{{"B", "C"}});
  CHECK(r[0].bye == "A");
  CHECK(r[1].games == Games{{"C", "A"}});
  CHECK(r[1].bye == "B");
  CHECK(r[2].games == Games{{"A", "B"}});
  CHECK(r[2].bye == "C");
}

TEST_CASE("Round robin with both sides: each pairing twice in its round, sides swapped") {
  auto rounds = RoundRobin({"A", "B", "C", "D"}, SideRule::kBothSides);
  REQUIRE(rounds.ok());
  REQUIRE(rounds.value().size() == 3);
  CHECK(rounds.value()[0].games == Games{{"A", "D"}, {"D", "A"}, {"B", "C"}, {"C", "B"}});
}

TEST_CASE("Round robin properties for 2..10 players") {
  for (int n = 2; n <= 10; ++n) {
    std::vector<std::string> players;
    for (int i = 0; i < n; ++i) players.push_back("p" + std::to_string(i));
    auto rounds = RoundRobin(players, SideRule::kBalanced);
    REQUIRE(rounds.ok());
    INFO("n = " << n);
    CHECK(rounds.value().size() == static_cast<size_t>(n % 2 == 0 ? n - 1 : n));
    std::set<std::pair<std::string, std::string>> met;
    std::map<std::string, int> blue, orange, byes;
    for (const auto& round : rounds.value()) {
      std::set<std::string> busy;
      for (const auto& g : round.games) {
        CHECK(busy.insert(g.blue).second);
        CHECK(busy.insert(g.orange).second);
        CHECK(met.insert(std::minmax(g.blue, g.orange)).second);  // no pair twice
        ++blue[g.blue];
        ++orange[g.orange];
      }
      if (round.bye) {
        CHECK(busy.insert(*round.bye).second);
        ++byes[*round.bye];
      }
      CHECK(busy.size() == players.size());
    }
    CHECK(met.size() == static_cast<size_t>(n * (n - 1) / 2));
    for (const auto& p : players) {
      INFO(p);
      CHECK(std::abs(blue[p] - orange[p]) <= 1);
      CHECK(byes[p] == (n % 2 == 1 ? 1 : 0));
    }
  }
}

TEST_CASE("Round robin rejects bad player lists") {
  CHECK(RoundRobin({"A"}, SideRule::kBalanced).status().code() == StatusCode::kInvalidArgument);
  auto dup = RoundRobin({"A", "B", "A"}, SideRule::kBalanced);
  CHECK(dup.status().code() == StatusCode::kInvalidArgument);
  CHECK(dup.status().message() == "player A is listed twice");
}

SwissPlayer Sp(std::string id, double score, double rating, int blue, int orange,
               std::set<std::string> opponents = {}) {
  SwissPlayer p;
  p.id = std::move(id);
  p.score = score;
  p.rating = rating;
  p.blue_games = blue;
  p.orange_games = orange;
  if (blue + orange > 0) p.last_was_blue = blue > orange;
  p.opponents = std::move(opponents);
  return p;
}

TEST_CASE("Swiss: score groups, top half against bottom half, sides balanced") {
  // After round 1: P1 (blue) beat P3, P4 (blue) lost to P2. Ranking P1 P2 (score 1), P3 P4.
  // Group {P1 P2}: P1-P2; P2 has been orange, P1 blue -> P2 plays blue. Group {P3 P4}:
  // P3 was orange -> P3 blue.
  auto round = SwissRound({Sp("P3", 0, 1700, 0, 1, {"P1"}), Sp("P1", 1, 1600, 1, 0, {"P3"}),
                           Sp("P4", 0, 1400, 1, 0, {"P2"}), Sp("P2", 1, 1500, 0, 1, {"P4"})},
                          2);
  REQUIRE(round.ok());
  CHECK(round.value().games == Games{{"P2", "P1"}, {"P3", "P4"}});
  CHECK(round.value().number == 2);
}

TEST_CASE("Swiss: eight equal players, round 1, top half meets bottom half") {
  // Ranked by rating: a..h. Group of 8: a-e, then b-f, c-g, d-h. Equal side histories: the
  // higher-ranked plays blue.
  std::vector<SwissPlayer> players;
  std::string names = "abcdefgh";
  for (size_t i = 0; i < names.size(); ++i) {
    players.push_back(
        Sp(std::string(1, names[i]), 0, 2000.0 - 10.0 * static_cast<double>(i), 0, 0));
  }
  auto round = SwissRound(players, 1);
  REQUIRE(round.ok());
  CHECK(round.value().games == Games{{"a", "e"}, {"b", "f"}, {"c", "g"}, {"d", "h"}});
}

TEST_CASE("Swiss: no rematch, floating down, and backtracking") {
  // P1 and P2 (score 2) met already: P1 floats down to P3, P2 to P4.
  auto floated = SwissRound({Sp("P1", 2, 1500, 0, 0, {"P2"}), Sp("P2", 2, 1500, 0, 0, {"P1"}),
                             Sp("P3", 1, 1500, 0, 0), Sp("P4", 1, 1500, 0, 0)},
                            3);
  REQUIRE(floated.ok());
  CHECK(floated.value().games == Games{{"P1", "P3"}, {"P2", "P4"}});
  // All on 0, ranked P1..P4: P1's first choice is P3, leaving P2-P4 who met; back up:
  // P1-P4, P2-P3.
  auto backtracked = SwissRound({Sp("P1", 0, 1900, 0, 0), Sp("P2", 0, 1800, 0, 0, {"P4"}),
                                 Sp("P3", 0, 1700, 0, 0), Sp("P4", 0, 1600, 0, 0, {"P2"})},
                                2);
  REQUIRE(backtracked.ok());
  CHECK(backtracked.value().games == Games{{"P1", "P4"}, {"P2", "P3"}});
  // Two players who met: no pairing.
  auto none = SwissRound({Sp("x", 0, 1500, 0, 0, {"y"}), Sp("y", 0, 1500, 0, 0, {"x"})}, 2);
  CHECK(none.status().code() == StatusCode::kFailedPrecondition);
}

TEST_CASE("Swiss: the bye goes to the lowest-ranked player without one") {
  auto p5 = Sp("P5", 0, 1400, 0, 0);
  p5.had_bye = true;
  auto round = SwissRound({Sp("P1", 1, 1500, 0, 0), Sp("P2", 1, 1500, 0, 0),
                           Sp("P3", 1, 1500, 0, 0), Sp("P4", 0, 1500, 0, 0), p5},
                          2);
  REQUIRE(round.ok());
  CHECK(round.value().bye == "P4");
  // Group {P1 P2 P3}: P1's preferred opponent is one below the half: P2 (g = 3, g/2 = 1);
  // P3 floats down to P5.
  CHECK(round.value().games == Games{{"P1", "P2"}, {"P3", "P5"}});
}

}  // namespace
}  // namespace pbem::league
