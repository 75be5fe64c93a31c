#include <sstream>

#include "daemon/league/league_flow.h"

// The league settings as stored text (leagues.settings): EncodeSettings, DecodeSettings.
namespace pbem::league {

std::string EncodeSettings(const LeagueSettings& s) {
  std::ostringstream out;
  const PointsTable& p = s.points;
  out << "points " << p.total << ' ' << p.major << ' ' << p.tactical << ' ' << p.minor << ' '
      << p.draw << ' ' << p.loss << ' ' << p.forfeit_loss << ' ' << p.forfeit_win << '\n';
  out << "limits";
  for (const auto& step : s.limits.steps) out << ' ' << step.finished << ':' << step.max_active;
  out << '\n' << "rank_after " << s.limits.finished_to_rank << '\n';
  out.precision(17);
  out << "glicko " << s.glicko.initial_rating << ' ' << s.glicko.initial_rd << ' '
      << s.glicko.initial_volatility << ' ' << s.glicko.tau << '\n';
  out << "sides " << (s.sides == SideRule::kBothSides ? "both" : "balanced") << '\n';
  out << "language " << s.language << '\n';
  out << "pairing " << (s.pairing == PairingSystem::kSwiss ? "swiss" : "round_robin") << '\n';
  out << "swiss_rounds " << s.swiss_rounds << '\n';
  out << "scenarios";
  for (const auto& name : s.scenarios) out << ' ' << name;
  out << '\n' << "deadlines " << s.turn_timeout.count() << ' ' << s.reminder_before.count() << '\n';
  out << "registration " << (s.registration_open ? "open" : "closed") << '\n';
  return out.str();
}

Result<LeagueSettings> DecodeSettings(const std::string& text) {
  LeagueSettings s;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string key;
    if (!(words >> key)) continue;
    auto bad = [&](const std::string& why) {
      return Status::InvalidArgument("league settings line " + std::to_string(number) + " (" +
                                     line + "): " + why);
    };
    bool ok = true;
    if (key == "points") {
      PointsTable& p = s.points;
      ok = static_cast<bool>(words >> p.total >> p.major >> p.tactical >> p.minor >> p.draw >>
                             p.loss >> p.forfeit_loss >> p.forfeit_win);
    } else if (key == "limits") {
      s.limits.steps.clear();
      std::string step;
      while (words >> step) {
        const auto colon = step.find(':');
        if (colon == std::string::npos) return bad("a limit is <finished>:<max games>");
        try {
          s.limits.steps.push_back(
              {std::stoi(step.substr(0, colon)), std::stoi(step.substr(colon + 1))});
        } catch (const std::exception&) {
          return bad("a limit is <finished>:<max games>");
        }
      }
      ok = !s.limits.steps.empty();
    } else if (key == "rank_after") {
      ok = static_cast<bool>(words >> s.limits.finished_to_rank) && s.limits.finished_to_rank >= 0;
    } else if (key == "glicko") {
      Glicko2Params& g = s.glicko;
      ok = static_cast<bool>(words >> g.initial_rating >> g.initial_rd >> g.initial_volatility >>
                             g.tau) &&
           g.initial_rd > 0 && g.initial_volatility > 0 && g.tau > 0;
    } else if (key == "sides") {
      std::string v;
      words >> v;
      if (v != "balanced" && v != "both") return bad("sides is balanced or both");
      s.sides = v == "both" ? SideRule::kBothSides : SideRule::kBalanced;
    } else if (key == "pairing") {
      std::string v;
      words >> v;
      if (v != "round_robin" && v != "swiss") return bad("pairing is round_robin or swiss");
      s.pairing = v == "swiss" ? PairingSystem::kSwiss : PairingSystem::kRoundRobin;
    } else if (key == "swiss_rounds") {
      if (!(words >> s.swiss_rounds) || s.swiss_rounds < 0) {
        return bad("swiss_rounds is a number from 0");
      }
    } else if (key == "scenarios") {
      s.scenarios.clear();
      std::string name;
      while (words >> name) {
        if (name.find_first_of("/\\") != std::string::npos || name.front() == '.') {
          return bad("a scenario is a name, not a path");
        }
        s.scenarios.push_back(name);
      }
      ok = !s.scenarios.empty();
    } else if (key == "deadlines") {
      long long timeout = 0, reminder = 0;
      ok = static_cast<bool>(words >> timeout >> reminder) && timeout >= 0 && reminder >= 0 &&
           (timeout == 0 || reminder < timeout);
      s.turn_timeout = std::chrono::seconds(timeout);
      s.reminder_before = std::chrono::seconds(reminder);
    } else if (key == "registration") {
      std::string v;
      words >> v;
      if (v != "open" && v != "closed") return bad("registration is open or closed");
      s.registration_open = v == "open";
    } else if (key == "language") {
      words >> s.language;
      if (s.language != "en" && s.language != "fr") return bad("language is en or fr");
    } else {
      return bad("unknown setting " + key);
    }
    if (!ok) return bad("bad value");
  }
  return s;
}

}  // namespace pbem::league
