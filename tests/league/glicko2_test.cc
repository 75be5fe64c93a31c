// Glicko-2 against Glickman's worked example and against values computed by hand.
#include "daemon/league/glicko2.h"

#include <catch2/catch.hpp>

namespace pbem::league {
namespace {

TEST_CASE("Glicko-2: Glickman's worked example (glicko2.pdf, tau = 0.5)") {
  // The paper: a 1500 / RD 200 / volatility 0.06 player beats a 1400/30 player, loses to a
  // 1550/100 and to a 1700/300 player in one period. The paper gives r' = 1464.06,
  // RD' = 151.52, sigma' = 0.05999 (intermediate: v = 1.7785, delta = -0.4834).
  Glicko2Params params;
  params.tau = 0.5;
  Rating player{1500, 200, 0.06};
  std::vector<RatedResult> results = {
      {{1400, 30, 0.06}, 1},
      {{1550, 100, 0.06}, 0},
      {{1700, 300, 0.06}, 0},
  };
  Rating after = UpdateRating(player, results, params);
  CHECK(after.rating == Approx(1464.06).margin(0.005));
  CHECK(after.rd == Approx(151.52).margin(0.005));
  // The paper prints sigma' truncated to five decimals (0.059996 -> 0.05999).
  CHECK(after.volatility == Approx(0.05999).margin(0.00001));
  CHECK(after.volatility == Approx(0.059996).margin(0.0000005));
}

TEST_CASE("Glicko-2: a period with no game only widens the RD") {
  // RD' = sqrt(RD^2 + (sigma * 173.7178)^2) = sqrt(40000 + 10.4231^2) = sqrt(40108.64)
  //     = 200.2714; rating and volatility unchanged.
  Rating after = UpdateRating({1500, 200, 0.06}, {}, Glicko2Params{});
  CHECK(after.rating == 1500);
  CHECK(after.volatility == 0.06);
  CHECK(after.rd == Approx(200.2714).margin(0.0005));
}

TEST_CASE("Glicko-2: two new players, one period, by hand") {
  // Both 1500/350/0.06. phi = 350/173.7178 = 2.014761; g(phi) = 1/sqrt(1 + 3 phi^2/pi^2)
  // = 1/sqrt(2.233868) = 0.669070; E = 0.5; v = 1/(g^2 E(1-E)) = 8.93541;
  // sum g(s-E) = 0.334535 for the winner. delta^2 = 8.935 < phi^2 + v = 12.99, so the
  // volatility stays 0.06 to five digits; phi* = sqrt(4.059262 + 0.0036) = 2.015654;
  // phi' = 1/sqrt(1/phi*^2 + 1/v) = 1/sqrt(0.246132 + 0.111914) = 1.671209 -> RD 290.32;
  // mu' = phi'^2 * 0.334535 = 0.934337 -> r' = 1500 + 162.31 = 1662.31 (loser 1337.69).
  // A draw: sum = 0, so r' = 1500 and the same RD 290.32.
  Glicko2Params params;
  std::map<std::string, Rating> before;
  std::vector<RatedGame> games = {{"ann", "dan", 1.0}, {"bob", "cid", 0.5}};
  auto after = RatePeriod(before, games, params);
  REQUIRE(after.size() == 4);
  CHECK(after["ann"].rating == Approx(1662.31).margin(0.01));
  CHECK(after["dan"].rating == Approx(1337.69).margin(0.01));
  CHECK(after["bob"].rating == Approx(1500).margin(1e-9));
  CHECK(after["cid"].rating == Approx(1500).margin(1e-9));
  for (const auto& name : {"ann", "bob", "cid", "dan"}) {
    CHECK(after[name].rd == Approx(290.32).margin(0.01));
    CHECK(after[name].volatility == Approx(0.06).margin(0.00001));
  }
}

TEST_CASE("Glicko-2: a player absent from the round keeps the rating, RD grows") {
  std::map<std::string, Rating> before = {{"eve", {1600, 100, 0.06}}};
  auto after = RatePeriod(before, {{"ann", "dan", 0.0}}, Glicko2Params{});
  CHECK(after["eve"].rating == 1600);
  CHECK(after["eve"].rd > 100);
  CHECK(after["dan"].rating == Approx(1662.31).margin(0.01));
}

}  // namespace
}  // namespace pbem::league
