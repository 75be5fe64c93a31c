#include "daemon/league/pairing.h"

#include <algorithm>
#include <functional>

namespace pbem::league {

Result<std::vector<Round>> RoundRobin(const std::vector<std::string>& players, SideRule rule) {
  if (players.size() < 2) {
    return Status::InvalidArgument("a round robin needs at least 2 players, got " +
                                   std::to_string(players.size()));
  }
  std::set<std::string> seen;
  for (const auto& p : players) {
    if (p.empty()) return Status::InvalidArgument("a player has an empty name");
    if (!seen.insert(p).second) return Status::InvalidArgument("player " + p + " is listed twice");
  }
  // nullopt = the bye seat.
  std::vector<std::optional<std::string>> seats(players.begin(), players.end());
  if (seats.size() % 2 == 1) seats.push_back(std::nullopt);
  const size_t n = seats.size();
  std::vector<Round> rounds;
  for (size_t r = 0; r + 1 < n; ++r) {
    Round round;
    round.number = static_cast<int>(r) + 1;
    for (size_t i = 0; i < n / 2; ++i) {
      const auto& top = seats[i];
      const auto& bottom = seats[n - 1 - i];
      if (!top || !bottom) {
        round.bye = top ? *top : *bottom;
        continue;
      }
      bool top_blue = i > 0 || r % 2 == 0;
      Pairing p = top_blue ? Pairing{*top, *bottom} : Pairing{*bottom, *top};
      round.games.push_back(p);
      if (rule == SideRule::kBothSides) round.games.push_back(Pairing{p.orange, p.blue});
    }
    rounds.push_back(std::move(round));
    // Rotate seats 1..n-1 one step: the last seat moves to position 1.
    std::rotate(seats.begin() + 1, seats.end() - 1, seats.end());
  }
  return rounds;
}

namespace {

bool RanksAbove(const SwissPlayer& a, const SwissPlayer& b) {
  if (a.score != b.score) return a.score > b.score;
  if (a.rating != b.rating) return a.rating > b.rating;
  return a.id < b.id;
}

// True when `a` (ranked above `b`) should play blue against `b`.
bool FirstPlaysBlue(const SwissPlayer& a, const SwissPlayer& b) {
  int da = a.orange_games - a.blue_games;
  int db = b.orange_games - b.blue_games;
  if (da != db) return da > db;
  bool a_last_orange = a.last_was_blue.has_value() && !*a.last_was_blue;
  bool b_last_orange = b.last_was_blue.has_value() && !*b.last_was_blue;
  if (a_last_orange != b_last_orange) return a_last_orange;
  return true;
}

}  // namespace

Result<Round> SwissRound(std::vector<SwissPlayer> players, int round_number) {
  std::set<std::string> seen;
  for (const auto& p : players) {
    if (!seen.insert(p.id).second)
      return Status::InvalidArgument("player " + p.id + " is listed twice");
  }
  std::sort(players.begin(), players.end(), RanksAbove);
  Round round;
  round.number = round_number;
  if (players.size() % 2 == 1) {
    size_t bye = players.size() - 1;
    for (size_t i = players.size(); i-- > 0;) {
      if (!players[i].had_bye) {
        bye = i;
        break;
      }
    }
    round.bye = players[bye].id;
    players.erase(players.begin() + static_cast<std::ptrdiff_t>(bye));
  }
  const size_t n = players.size();
  std::vector<bool> paired(n, false);
  std::vector<std::pair<size_t, size_t>> chosen;

  std::function<bool()> solve = [&]() -> bool {
    size_t p = 0;
    while (p < n && paired[p]) ++p;
    if (p == n) return true;
    // Unpaired players of P's score group (P first), then lower groups.
    std::vector<size_t> group, lower;
    for (size_t i = p + 1; i < n; ++i) {
      if (paired[i]) continue;
      (players[i].score == players[p].score ? group : lower).push_back(i);
    }
    std::vector<size_t> order;
    size_t g = group.size() + 1;  // with P
    size_t half = g / 2;          // index within [P, group...] of P's preferred opponent
    size_t start = half >= 1 ? half - 1 : 0;  // index into `group`
    for (size_t k = start; k < group.size(); ++k) order.push_back(group[k]);
    for (size_t k = start; k-- > 0;) order.push_back(group[k]);
    order.insert(order.end(), lower.begin(), lower.end());
    paired[p] = true;
    for (size_t q : order) {
      if (players[p].opponents.count(players[q].id) || players[q].opponents.count(players[p].id)) {
        continue;
      }
      paired[q] = true;
      chosen.emplace_back(p, q);
      if (solve()) return true;
      chosen.pop_back();
      paired[q] = false;
    }
    paired[p] = false;
    return false;
  };
  if (!solve()) {
    return Status::FailedPrecondition("no Swiss pairing for round " + std::to_string(round_number) +
                                      " avoids a rematch");
  }
  for (auto [a, b] : chosen) {
    const auto& pa = players[a];
    const auto& pb = players[b];
    round.games.push_back(FirstPlaysBlue(pa, pb) ? Pairing{pa.id, pb.id} : Pairing{pb.id, pa.id});
  }
  return round;
}

}  // namespace pbem::league
