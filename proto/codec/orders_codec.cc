// Orders: parsing in any format, where each order is in a text file, and the
// conversion to engine::Orders (which never fails: problems become verdicts).
#include <google/protobuf/descriptor.h>

#include "proto/codec/codec.h"
#include "proto/codec/systems.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec {

namespace {

std::vector<TextLocation> Locations(const internal::TokenIndex& tokens,
                                    const internal::ParseInfoTree& tree,
                                    const google::protobuf::Descriptor* desc,
                                    std::string_view field_name) {
  std::vector<TextLocation> out;
  const auto* field = desc->FindFieldByName(std::string(field_name));
  for (const internal::TextPos& pos : internal::ElementPositions(tokens, &tree, field)) {
    out.push_back(TextLocation{pos.line + 1, pos.column + 1});
  }
  return out;
}

std::optional<TextLocation> SingularLocation(const internal::ParseInfoTree& tree,
                                             const google::protobuf::Descriptor* desc,
                                             std::string_view field_name) {
  const auto* field = desc->FindFieldByName(std::string(field_name));
  if (field == nullptr) return std::nullopt;
  const auto loc = tree.GetLocation(field, -1);
  if (loc.line < 0) return std::nullopt;
  return TextLocation{loc.line + 1, loc.column + 1};
}

std::string WhereAt(std::string_view source, const std::optional<TextLocation>& loc) {
  if (!loc) return std::string(source);
  return std::string(source) + ":" + std::to_string(loc->line) + ":" + std::to_string(loc->column);
}

// A label that does not parse, as the problem of its order.
engine::DecodeProblem BadLabel(const std::string& label) {
  return engine::DecodeProblem{engine::Reason::kBadHexLabel, {label}};
}

engine::DecodeProblem Missing(std::string field) {
  return engine::DecodeProblem{engine::Reason::kMissingField, {std::move(field)}};
}

}  // namespace

Result<pbem::v1::Orders> ParseOrders(std::string_view bytes, std::optional<Format> format,
                                     std::string_view source) {
  return ParseOrders(bytes, format, source, nullptr);
}

Result<pbem::v1::Orders> ParseOrders(std::string_view bytes, std::optional<Format> format,
                                     std::string_view source, OrdersLocations* locations) {
  if (locations != nullptr) *locations = OrdersLocations{};
  const Format f = format.value_or(DetectFormat(bytes));
  pbem::v1::Orders orders;
  if (f != Format::kText) {
    auto parsed = ParseMessage(bytes, f, source, orders);
    if (!parsed.ok()) return parsed.errors();
    NormaliseNegativeZeros(orders);
    return orders;
  }
  internal::ParseInfoTree tree;
  auto parsed = internal::ParseText(bytes, source, orders, &tree);
  if (!parsed.ok()) return parsed.errors();
  NormaliseNegativeZeros(orders);
  if (locations != nullptr) {
    const auto* desc = orders.GetDescriptor();
    const internal::TokenIndex tokens(bytes);  // once for the four lists
    locations->placements = Locations(tokens, tree, desc, "placements");
    locations->bombardments = Locations(tokens, tree, desc, "bombardments");
    locations->moves = Locations(tokens, tree, desc, "moves");
    locations->attacks = Locations(tokens, tree, desc, "attacks");
    locations->game_id = SingularLocation(tree, desc, "game_id");
    locations->turn = SingularLocation(tree, desc, "turn");
    locations->side = SingularLocation(tree, desc, "side");
  }
  return orders;
}

std::string OrdersLocations::Where(std::string_view source,
                                   const engine::OrderVerdict& verdict) const {
  const std::vector<TextLocation>* list = nullptr;
  switch (verdict.order_kind) {
    case engine::OrderKind::kPlacement:
      list = &placements;
      break;
    case engine::OrderKind::kBombardment:
      list = &bombardments;
      break;
    case engine::OrderKind::kMove:
      list = &moves;
      break;
    case engine::OrderKind::kAttack:
      list = &attacks;
      break;
    case engine::OrderKind::kHeader: {
      switch (verdict.reason) {
        case engine::Reason::kWrongGame:
          return WhereAt(source, game_id);
        case engine::Reason::kWrongTurn:
          return WhereAt(source, turn);
        case engine::Reason::kWrongSide:
          return WhereAt(source, side);
        default:  // a missing field has no place in the file
          return std::string(source);
      }
    }
  }
  if (list == nullptr || verdict.index < 0 ||
      static_cast<std::size_t>(verdict.index) >= list->size()) {
    return std::string(source);
  }
  return WhereAt(source, (*list)[static_cast<std::size_t>(verdict.index)]);
}

engine::Orders OrdersFromProto(const pbem::v1::Orders& proto) {
  engine::Orders out;
  out.game_id = proto.game_id();
  out.turn = proto.turn();
  out.side = SideFromProto(proto.side());
  out.message = proto.message();
  // Another system's body: the whole orders are refused (wrong_system), whatever else they hold.
  if (const std::string_view system = OrdersSystem(proto); system != kMornePlaineSystem) {
    out.other_system = std::string(system);
  }

  for (const auto& p : proto.placements()) {
    engine::PlacementOrder order;
    order.unit = p.unit();
    if (p.unit().empty()) {
      order.problem = Missing("unit");
    } else if (p.hex().empty()) {
      order.problem = Missing("hex");
    } else if (const auto hex = engine::ParseLabel(p.hex())) {
      order.hex = *hex;
    } else {
      order.problem = BadLabel(p.hex());
    }
    out.placements.push_back(std::move(order));
  }

  for (const auto& b : proto.bombardments()) {
    engine::BombardmentOrder order;
    order.unit = b.unit();
    if (b.unit().empty()) {
      order.problem = Missing("unit");
    } else if (b.target().empty()) {
      order.problem = Missing("target");
    } else if (const auto hex = engine::ParseLabel(b.target())) {
      order.target = *hex;
    } else {
      order.problem = BadLabel(b.target());
    }
    out.bombardments.push_back(std::move(order));
  }

  for (const auto& m : proto.moves()) {
    engine::MoveOrder order;
    order.unit = m.unit();
    order.no_charge = m.no_charge();
    // Every label is converted; the first one that does not parse becomes
    // the order's problem.
    const auto take = [&order](const std::string& label) -> std::optional<engine::Hex> {
      if (const auto hex = engine::ParseLabel(label)) return hex;
      if (!order.problem) order.problem = BadLabel(label);
      return std::nullopt;
    };
    if (m.unit().empty()) order.problem = Missing("unit");
    if (!m.from().empty()) order.from = take(m.from());
    for (const std::string& label : m.path()) {
      if (const auto hex = take(label)) order.path.push_back(*hex);
    }
    if (!m.destination().empty()) order.destination = take(m.destination());
    for (const std::string& label : m.no_charge_at()) {
      if (const auto hex = take(label)) order.no_charge_at.push_back(*hex);
    }
    out.moves.push_back(std::move(order));
  }

  for (const auto& a : proto.attacks()) {
    engine::AttackOrder order;
    order.attacker = a.attacker();
    order.defender = a.defender();
    if (a.attacker().empty()) {
      order.problem = Missing("attacker");
    } else if (a.defender().empty()) {
      order.problem = Missing("defender");
    }
    out.attacks.push_back(std::move(order));
  }
  return out;
}

pbem::v1::Orders OrdersToProto(const engine::Orders& orders, const engine::Scenario& scenario) {
  const int width = LabelWidth(scenario);
  const auto label = [width](engine::Hex hex) { return engine::FormatLabel(hex, width); };
  pbem::v1::Orders out;
  out.set_game_id(orders.game_id);
  out.set_turn(orders.turn);
  if (orders.side) out.set_side(SideToProto(*orders.side));
  for (const engine::PlacementOrder& p : orders.placements) {
    pbem::v1::Placement* o = out.add_placements();
    o->set_unit(p.unit);
    o->set_hex(label(p.hex));
  }
  for (const engine::BombardmentOrder& b : orders.bombardments) {
    pbem::v1::Bombardment* o = out.add_bombardments();
    o->set_unit(b.unit);
    o->set_target(label(b.target));
  }
  for (const engine::MoveOrder& m : orders.moves) {
    pbem::v1::Move* o = out.add_moves();
    o->set_unit(m.unit);
    for (const engine::Hex& h : m.path) o->add_path(label(h));
    if (m.destination) o->set_destination(label(*m.destination));
    if (m.from) o->set_from(label(*m.from));
    o->set_no_charge(m.no_charge);
    for (const engine::Hex& h : m.no_charge_at) o->add_no_charge_at(label(h));
  }
  for (const engine::AttackOrder& a : orders.attacks) {
    pbem::v1::Attack* o = out.add_attacks();
    o->set_attacker(a.attacker);
    o->set_defender(a.defender);
  }
  out.set_message(orders.message);
  return out;
}

std::string CanonicalOrders(const pbem::v1::Orders& orders) {
  pbem::v1::Orders normal = orders;
  normal.clear_token();
  if (normal.format_version() == 1) normal.clear_format_version();
  normal.DiscardUnknownFields();
  NormaliseNegativeZeros(normal);
  return SerializeMessage(normal, Format::kBinary);
}

}  // namespace pbem::codec
