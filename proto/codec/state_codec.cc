// Game states, verdicts, events and turn results between engine types and
// pbem.v1 messages. Units are named by their scenario id and hexes by label.
#include <algorithm>
#include <cstdint>

#include "proto/codec/codec.h"
#include "proto/codec/event_body_codec.h"
#include "proto/codec/shown.h"

namespace pbem::codec {

namespace {

std::string Label(engine::Hex hex, int width) { return engine::FormatLabel(hex, width); }

pbem::v1::Phase PhaseToProto(engine::Phase phase) {
  switch (phase) {
    case engine::Phase::kSetup:
      return pbem::v1::PHASE_SETUP;
    case engine::Phase::kBombardment:
      return pbem::v1::PHASE_BOMBARDMENT;
    case engine::Phase::kMovement:
      return pbem::v1::PHASE_MOVEMENT;
    case engine::Phase::kCombat:
      return pbem::v1::PHASE_COMBAT;
    case engine::Phase::kRally:
      return pbem::v1::PHASE_RALLY;
    case engine::Phase::kEndOfTurn:
      return pbem::v1::PHASE_END_OF_TURN;
  }
  return pbem::v1::PHASE_UNSPECIFIED;
}

pbem::v1::VictoryLevel LevelToProto(engine::VictoryLevel level) {
  switch (level) {
    case engine::VictoryLevel::kDraw:
      return pbem::v1::VICTORY_DRAW;
    case engine::VictoryLevel::kMinor:
      return pbem::v1::VICTORY_MINOR;
    case engine::VictoryLevel::kTactical:
      return pbem::v1::VICTORY_TACTICAL;
    case engine::VictoryLevel::kMajor:
      return pbem::v1::VICTORY_MAJOR;
    case engine::VictoryLevel::kTotal:
      return pbem::v1::VICTORY_TOTAL;
  }
  return pbem::v1::VICTORY_LEVEL_UNSPECIFIED;
}

std::optional<engine::VictoryLevel> LevelFromProto(pbem::v1::VictoryLevel level) {
  switch (level) {
    case pbem::v1::VICTORY_DRAW:
      return engine::VictoryLevel::kDraw;
    case pbem::v1::VICTORY_MINOR:
      return engine::VictoryLevel::kMinor;
    case pbem::v1::VICTORY_TACTICAL:
      return engine::VictoryLevel::kTactical;
    case pbem::v1::VICTORY_MAJOR:
      return engine::VictoryLevel::kMajor;
    case pbem::v1::VICTORY_TOTAL:
      return engine::VictoryLevel::kTotal;
    default:
      return std::nullopt;
  }
}

pbem::v1::OrderKind OrderKindToProto(engine::OrderKind kind) {
  switch (kind) {
    case engine::OrderKind::kPlacement:
      return pbem::v1::ORDER_PLACEMENT;
    case engine::OrderKind::kBombardment:
      return pbem::v1::ORDER_BOMBARDMENT;
    case engine::OrderKind::kMove:
      return pbem::v1::ORDER_MOVE;
    case engine::OrderKind::kAttack:
      return pbem::v1::ORDER_ATTACK;
    case engine::OrderKind::kHeader:
      return pbem::v1::ORDER_HEADER;
  }
  return pbem::v1::ORDER_KIND_UNSPECIFIED;
}

pbem::v1::VerdictKind VerdictKindToProto(engine::VerdictKind kind) {
  switch (kind) {
    case engine::VerdictKind::kOk:
      return pbem::v1::VERDICT_OK;
    case engine::VerdictKind::kInvalid:
      return pbem::v1::VERDICT_INVALID;
    case engine::VerdictKind::kIllegal:
      return pbem::v1::VERDICT_ILLEGAL;
    case engine::VerdictKind::kPartial:
      return pbem::v1::VERDICT_PARTIAL;
  }
  return pbem::v1::VERDICT_UNSPECIFIED;
}

void AddOwners(const std::map<engine::Hex, engine::Side>& owners, int width,
               google::protobuf::RepeatedPtrField<pbem::v1::HexOwner>* out) {
  for (const auto& [hex, side] : owners) {  // std::map: ordered, deterministic
    pbem::v1::HexOwner* o = out->Add();
    o->set_hex(Label(hex, width));
    o->set_owner(SideToProto(side));
  }
}

// Reads HexOwner entries; errors name `field[i]`.
void ReadOwners(const google::protobuf::RepeatedPtrField<pbem::v1::HexOwner>& owners,
                std::string_view field, const engine::Scenario& scenario,
                std::map<engine::Hex, engine::Side>& out, std::vector<Error>& errors) {
  for (int i = 0; i < owners.size(); ++i) {
    const auto& o = owners[i];
    const std::string path = std::string(field) + "[" + std::to_string(i) + "]";
    const auto hex = engine::ParseLabel(o.hex());
    if (!hex) {
      errors.push_back(Error{"", path + ".hex: bad hex label '" + Shown(o.hex()) + "'"});
      continue;
    }
    if (!scenario.map.Contains(*hex)) {
      errors.push_back(Error{"", path + ".hex: hex " + o.hex() + " is off the map"});
      continue;
    }
    const auto side = SideFromProto(o.owner());
    if (!side) {
      errors.push_back(Error{"", path + ".owner: the owner side is unspecified"});
      continue;
    }
    out[*hex] = *side;
  }
}

}  // namespace

std::string FormatArg(const engine::Arg& arg) {
  if (const auto* n = std::get_if<std::int64_t>(&arg)) return std::to_string(*n);
  if (const auto* h = std::get_if<engine::Hex>(&arg)) return engine::FormatLabel(*h);
  return std::get<std::string>(arg);
}

int LabelWidth(const engine::Scenario& scenario) {
  int largest = std::max(scenario.map.width(), scenario.map.height());
  int digits = 1;
  while (largest >= 10) {
    largest /= 10;
    ++digits;
  }
  return std::max(2, digits);
}

pbem::v1::Side SideToProto(engine::Side side) {
  return side == engine::Side::kBlue ? pbem::v1::SIDE_BLUE : pbem::v1::SIDE_ORANGE;
}

std::optional<engine::Side> SideFromProto(pbem::v1::Side side) {
  switch (side) {
    case pbem::v1::SIDE_BLUE:
      return engine::Side::kBlue;
    case pbem::v1::SIDE_ORANGE:
      return engine::Side::kOrange;
    default:
      return std::nullopt;
  }
}

pbem::v1::Die DieToProto(engine::Die die) {
  switch (die) {
    case engine::Die::kD4:
      return pbem::v1::DIE_D4;
    case engine::Die::kD6:
      return pbem::v1::DIE_D6;
    case engine::Die::kD9:
      return pbem::v1::DIE_D9;
  }
  return pbem::v1::DIE_UNSPECIFIED;
}

pbem::v1::GameState StateToProto(const engine::GameState& state, const engine::Scenario& scenario) {
  const int width = LabelWidth(scenario);
  pbem::v1::GameState out;
  out.set_format_version(1);
  out.set_game_id(state.game_id);
  out.set_scenario(scenario.name);
  out.set_ruleset(scenario.ruleset);
  out.set_turn(state.turn);
  out.set_side_to_move(SideToProto(state.side_to_move));
  for (std::size_t i = 0; i < state.units.size(); ++i) {
    const engine::UnitState& u = state.units[i];
    pbem::v1::UnitState* p = out.add_units();
    p->set_id(i < scenario.units.size() ? scenario.units[i].id : "#" + std::to_string(i));
    if (u.hex) p->set_hex(Label(*u.hex, width));
    p->set_cs(u.cs);
    p->set_mv(u.mv);
    p->set_mv_initial(u.mv_initial);
    p->set_eliminated(u.eliminated);
    p->set_in_command(u.in_command);
    p->set_bombarded_this_turn(u.bombarded_this_turn);
    p->set_reaction_fires(u.reaction_fires);
    p->set_stuck(u.stuck);
    p->set_moved_this_turn(u.moved_this_turn);
    for (const engine::UnitId target : u.charged_targets) {
      p->add_charged_targets(target.valid() && target.index() < scenario.units.size()
                                 ? scenario.units[target.index()].id
                                 : "#" + std::to_string(target.value));
    }
    p->set_victorious(u.victorious);
    p->set_has_attacked(u.has_attacked);
    p->set_has_been_attacked(u.has_been_attacked);
  }
  AddOwners(state.objective_owners, width, out.mutable_objective_owners());
  AddOwners(state.fort_owners, width, out.mutable_fort_owners());
  out.set_finished(state.finished);
  if (state.finished || state.outcome.winner || state.outcome.vp_blue != 0 ||
      state.outcome.vp_orange != 0) {
    pbem::v1::GameOutcome* o = out.mutable_outcome();
    if (state.outcome.winner) o->set_winner(SideToProto(*state.outcome.winner));
    o->set_level(LevelToProto(state.outcome.level));
    o->set_vp_blue(state.outcome.vp_blue);
    o->set_vp_orange(state.outcome.vp_orange);
  }
  return out;
}

Result<engine::GameState> StateFromProto(const pbem::v1::GameState& proto,
                                         const engine::Scenario& scenario) {
  std::vector<Error> errors;
  if (proto.format_version() > 1) {
    errors.push_back(Error{"", "format_version: " + std::to_string(proto.format_version()) +
                                   " is not supported (this build reads 1)"});
  }
  if (!proto.scenario().empty() && !scenario.name.empty() && proto.scenario() != scenario.name) {
    errors.push_back(Error{"", "scenario: the state is for scenario '" + proto.scenario() +
                                   "', not '" + scenario.name + "'"});
  }
  engine::GameState state;
  state.game_id = proto.game_id();
  state.turn = proto.turn();
  if (state.turn < 1) errors.push_back(Error{"", "turn: must be at least 1"});
  if (const auto side = SideFromProto(proto.side_to_move())) {
    state.side_to_move = *side;
  } else {
    errors.push_back(Error{"", "side_to_move: the side to move is unspecified"});
  }

  state.units.resize(scenario.units.size());
  std::vector<int> seen(scenario.units.size(), -1);
  for (int i = 0; i < proto.units_size(); ++i) {
    const pbem::v1::UnitState& p = proto.units(i);
    const std::string path = "units[" + std::to_string(i) + "]";
    const auto id = scenario.FindUnit(p.id());
    if (!id) {
      errors.push_back(Error{"", path + ".id: unknown unit '" + Shown(p.id()) + "'"});
      continue;
    }
    if (seen[id->index()] >= 0) {
      errors.push_back(Error{"", path + ".id: unit '" + Shown(p.id()) +
                                     "' is listed twice (also units[" +
                                     std::to_string(seen[id->index()]) + "])"});
      continue;
    }
    seen[id->index()] = i;
    engine::UnitState& u = state.units[id->index()];
    if (!p.hex().empty()) {
      const auto hex = engine::ParseLabel(p.hex());
      if (!hex) {
        errors.push_back(Error{"", path + ".hex: bad hex label '" + Shown(p.hex()) + "'"});
      } else if (!scenario.map.Contains(*hex)) {
        errors.push_back(Error{"", path + ".hex: hex " + p.hex() + " is off the map"});
      } else {
        u.hex = *hex;
      }
    }
    u.cs = p.cs();
    u.mv = p.mv();
    u.mv_initial = p.mv_initial();
    u.eliminated = p.eliminated();
    u.in_command = p.in_command();
    u.bombarded_this_turn = p.bombarded_this_turn();
    u.reaction_fires = p.reaction_fires();
    if (u.reaction_fires < 0) {
      errors.push_back(Error{"", path + ".reaction_fires: must be 0 or more, got " +
                                     std::to_string(u.reaction_fires)});
    }
    u.stuck = p.stuck();
    u.moved_this_turn = p.moved_this_turn();
    for (int t = 0; t < p.charged_targets_size(); ++t) {
      const auto target = scenario.FindUnit(p.charged_targets(t));
      if (!target) {
        errors.push_back(Error{"", path + ".charged_targets[" + std::to_string(t) +
                                       "]: unknown unit '" + p.charged_targets(t) + "'"});
        continue;
      }
      u.charged_targets.push_back(*target);
    }
    u.victorious = p.victorious();
    u.has_attacked = p.has_attacked();
    u.has_been_attacked = p.has_been_attacked();
  }
  for (std::size_t i = 0; i < seen.size(); ++i) {
    if (seen[i] < 0) {
      errors.push_back(
          Error{"", "units: unit '" + scenario.units[i].id + "' of the scenario is missing"});
    }
  }
  ReadOwners(proto.objective_owners(), "objective_owners", scenario, state.objective_owners,
             errors);
  ReadOwners(proto.fort_owners(), "fort_owners", scenario, state.fort_owners, errors);
  state.finished = proto.finished();
  if (proto.has_outcome()) {
    const auto& o = proto.outcome();
    state.outcome.winner = SideFromProto(o.winner());
    if (const auto level = LevelFromProto(o.level())) state.outcome.level = *level;
    state.outcome.vp_blue = o.vp_blue();
    state.outcome.vp_orange = o.vp_orange();
  }
  if (!errors.empty()) return errors;
  return state;
}

pbem::v1::OrderVerdict VerdictToProto(const engine::OrderVerdict& verdict) {
  pbem::v1::OrderVerdict out;
  out.set_order_kind(OrderKindToProto(verdict.order_kind));
  out.set_index(verdict.index);
  out.set_unit(verdict.unit);
  out.set_verdict(VerdictKindToProto(verdict.verdict));
  out.set_reason(std::string(engine::ReasonCode(verdict.reason)));
  for (const engine::Arg& arg : verdict.args) out.add_args(FormatArg(arg));
  return out;
}

std::optional<TurnResultFormat> TurnResultFormatOf(const pbem::v1::TurnResult& proto) {
  switch (proto.format_version()) {
    case 0:
    case 1:
      return TurnResultFormat::kArgs;
    case 2:
      return TurnResultFormat::kTyped;
    default:
      return std::nullopt;
  }
}

pbem::v1::Event EventToProto(const engine::Event& event, int seq, const engine::Scenario& scenario,
                             TurnResultFormat format) {
  const int width = LabelWidth(scenario);
  pbem::v1::Event out;
  out.set_seq(seq);
  out.set_phase(PhaseToProto(event.phase));
  out.set_kind(std::string(engine::EventKindName(event.kind())));
  if (event.unit) {
    out.set_unit(event.unit->valid() && event.unit->index() < scenario.units.size()
                     ? scenario.units[event.unit->index()].id
                     : "#" + std::to_string(event.unit->value));
  }
  for (const engine::Hex& hex : event.hexes) out.add_hexes(Label(hex, width));
  if (format == TurnResultFormat::kArgs) {
    for (std::string& arg : engine::EventArgs(event.body)) out.add_args(std::move(arg));
  } else {
    EventBodyToProto(event.body, out);
  }
  if (event.die) {
    out.set_die(DieToProto(event.die->die));
    out.set_value(event.die->value);
    out.set_purpose(event.die->purpose);
  }
  return out;
}

pbem::v1::TurnResult TurnResultToProto(const engine::TurnResult& result,
                                       const engine::Scenario& scenario, int turn,
                                       engine::Side side, TurnResultFormat format) {
  pbem::v1::TurnResult out;
  out.set_format_version(static_cast<std::uint32_t>(format));
  out.set_game_id(result.next_state.game_id);
  out.set_turn(turn);
  out.set_side(SideToProto(side));
  for (const engine::OrderVerdict& v : result.verdicts) *out.add_verdicts() = VerdictToProto(v);
  for (std::size_t i = 0; i < result.events.size(); ++i) {
    *out.add_events() = EventToProto(result.events[i], static_cast<int>(i) + 1, scenario, format);
  }
  *out.mutable_next_state() = StateToProto(result.next_state, scenario);
  out.set_message(result.message);
  return out;
}

}  // namespace pbem::codec
