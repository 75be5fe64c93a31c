#include "engine/morne_plaine/victory.h"

#include <cstdint>
#include <string>

namespace pbem::engine {

namespace {

int Index(Side side) { return static_cast<int>(side); }

std::string HolderName(const std::optional<Side>& side) {
  return side ? std::string(SideName(*side)) : std::string("none");
}

// The side with strictly more of `count` (indexed by side), if any.
std::optional<Side> Majority(const int count[2]) {
  if (count[0] > count[1]) return Side::kBlue;
  if (count[1] > count[0]) return Side::kOrange;
  return std::nullopt;
}

}  // namespace

std::string_view VictoryLevelName(VictoryLevel level) {
  switch (level) {
    case VictoryLevel::kDraw:
      return "draw";
    case VictoryLevel::kMinor:
      return "minor";
    case VictoryLevel::kTactical:
      return "tactical";
    case VictoryLevel::kMajor:
      return "major";
    case VictoryLevel::kTotal:
      return "total";
  }
  return "draw";
}

VictoryLevel LevelForDifference(int difference) {
  if (difference < 0) difference = -difference;
  switch (difference) {
    case 0:
      return VictoryLevel::kDraw;
    case 1:
      return VictoryLevel::kMinor;
    case 2:
      return VictoryLevel::kTactical;
    case 3:
      return VictoryLevel::kMajor;
    default:
      return VictoryLevel::kTotal;
  }
}

bool IsLastPlayerTurn(const Scenario& scenario, const GameState& state) {
  return state.turn >= scenario.turns && state.side_to_move != scenario.first_side;
}

std::optional<Side> ObjectiveHolder(const Scenario& scenario, const GameState& state,
                                    const Objective& objective) {
  int count[2] = {0, 0};
  const bool passing =
      objective.kind == ObjectiveKind::kPassing || objective.kind == ObjectiveKind::kPassingZone;
  for (const Hex& hex : objective.hexes) {
    if (passing) {
      const auto it = state.objective_owners.find(hex);
      if (it != state.objective_owners.end()) ++count[Index(it->second)];
    } else {
      const std::optional<UnitId> unit = state.UnitAt(hex);
      // Digest 8.1, R9: a leader never takes an objective hex.
      if (unit && !scenario.unit(*unit).is_leader()) ++count[Index(scenario.unit(*unit).side)];
    }
  }
  return Majority(count);
}

int UnitStrength(const Ruleset& ruleset, const UnitSpec& spec, int cs, int mv, bool eliminated) {
  if (eliminated) return 0;
  switch (spec.arm) {
    case Arm::kLeader:
      return ruleset.params.leader_strength_points;
    case Arm::kArtillery:
      return spec.bv * spec.range;
    default:
      return cs * mv;
  }
}

StrengthComparison CompareStrength(const Ruleset& ruleset, const Scenario& scenario,
                                   const GameState& state) {
  StrengthComparison c;
  for (std::size_t i = 0; i < scenario.units.size() && i < state.units.size(); ++i) {
    const UnitSpec& spec = scenario.units[i];
    const UnitState& u = state.units[i];
    c.initial[Index(spec.side)] += UnitStrength(ruleset, spec, spec.cs, spec.mv, false);
    c.current[Index(spec.side)] += UnitStrength(ruleset, spec, u.cs, u.mv, u.eliminated);
  }
  for (int s = 0; s < 2; ++s) {
    c.lost[s] =
        c.initial[s] == 0 ? Rational(0) : Rational(c.initial[s] - c.current[s], c.initial[s]);
  }
  const Rational& blue = c.lost[Index(Side::kBlue)];
  const Rational& orange = c.lost[Index(Side::kOrange)];
  if (blue == orange) return c;
  // The side whose opponent lost the larger fraction gains.
  c.side = orange > blue ? Side::kBlue : Side::kOrange;
  const Rational gap = orange > blue ? orange - blue : blue - orange;
  c.vp = gap * Rational(100) >= Rational(ruleset.params.strength_vp_gap_percent) ? 2 : 1;
  return c;
}

GameOutcome ScoreGame(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
                      std::vector<Event>& events) {
  int vp[2] = {0, 0};
  for (const Objective& o : scenario.objectives) {
    const std::optional<Side> holder = ObjectiveHolder(scenario, state, o);
    int earned = 0;
    if (holder) {
      earned = *holder == Side::kBlue ? o.vp_blue : o.vp_orange;
      vp[Index(*holder)] += earned;
    }
    events.push_back(Event{Phase::kEndOfTurn, std::nullopt, o.hexes,
                           payload::VictoryPoints{o.name, HolderName(holder), earned, {}},
                           std::nullopt});
  }
  if (ruleset.params.strength_vp_model == StrengthVpModel::kLossRatio) {
    const StrengthComparison c = CompareStrength(ruleset, scenario, state);
    if (c.side) vp[Index(*c.side)] += c.vp;
    events.push_back(Event{
        Phase::kEndOfTurn,
        std::nullopt,
        {},
        payload::VictoryPoints{"strength", HolderName(c.side), c.vp,
                               payload::LostStrength{c.lost[Index(Side::kBlue)].ToString(),
                                                     c.lost[Index(Side::kOrange)].ToString()}},
        std::nullopt});
  }
  GameOutcome outcome;
  outcome.vp_blue = vp[Index(Side::kBlue)];
  outcome.vp_orange = vp[Index(Side::kOrange)];
  outcome.level = LevelForDifference(outcome.vp_blue - outcome.vp_orange);
  if (outcome.vp_blue > outcome.vp_orange) outcome.winner = Side::kBlue;
  if (outcome.vp_orange > outcome.vp_blue) outcome.winner = Side::kOrange;
  events.push_back(
      Event{Phase::kEndOfTurn,
            std::nullopt,
            {},
            payload::GameEnd{outcome.winner ? std::string(SideName(*outcome.winner)) : "draw",
                             std::string(VictoryLevelName(outcome.level)), outcome.vp_blue,
                             outcome.vp_orange},
            std::nullopt});
  return outcome;
}

}  // namespace pbem::engine
