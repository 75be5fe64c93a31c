// M42's turn results (m42_codec.h; the schema, its units and ranges: m42_turn_result.proto).
// Writing is a field-by-field copy. Reading takes the message as hostile (archives are imported
// from files): it collects problems as (field path, message), as the orders' converter does,
// bounds every list before walking it and recurses on nothing.
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "proto/codec/data_checker.h"
#include "proto/codec/m42_action_checker.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec {
namespace {

namespace v1 = pbem::v1;
using internal::EnumName;
using internal::EnumPair;
using internal::Indexed;
using internal::IsId;
using internal::Located;
using internal::ToProtoEnum;
using m42::Reason;
using m42::Thou;
using m42::VerdictKind;

constexpr int kMaxVerdicts = 1000;         // one per action; M42Orders holds at most 1000
constexpr int kMaxEvents = 1'000'000;      // about what a 4 MiB message can hold
constexpr Thou kMaxCoordThou = 1'000'000;  // 1000": the scenario's and the orders' bound
// Floor of the diagonal of that square (2e6 * sqrt(2) = 2828427.1), plus one: the longest
// distance between two points of it.
constexpr Thou kMaxDistanceThou = 2'828'428;
// A path of at most 10000 vertices (the ruleset's max_path_vertices at most): 9999 legs.
constexpr Thou kMaxPathThou = 9'999 * kMaxDistanceThou;
constexpr Thou kMaxLengthThou = 1'000'000;  // a ruleset or unit length: clearance, coherency
constexpr int kMaxAllowanceIn = 100 * 100;  // action factor at most 100, Mv at most 100
constexpr Thou kMaxAllowanceThou = Thou{kMaxAllowanceIn} * m42::kThouPerInch;
constexpr int kMaxFloor = 1000;
constexpr std::int64_t kMaxFacingMdeg = 359'999;
constexpr std::int64_t kMaxTurn = 1'000'000'000;   // the state's own bound (engine/system/m42.cc)
constexpr std::string_view kBaseSuffix = ".base";  // a structure's base (engine/m42/going.cc)

constexpr EnumPair<v1::M42Verdict::Kind, VerdictKind> kVerdictKinds[] = {
    {v1::M42Verdict::OK, VerdictKind::kOk},
    {v1::M42Verdict::INVALID, VerdictKind::kInvalid},
    {v1::M42Verdict::ILLEGAL, VerdictKind::kIllegal}};

// What a verdict of each reason holds (engine/m42/validate.cc; the table of
// m42_turn_result.proto): its kind, whether it names a model and another thing, and the
// largest value and limit it gives (-1: none).
struct ReasonShape {
  v1::M42Verdict::Reason proto;
  Reason engine;
  VerdictKind kind;
  bool model;
  bool other;
  Thou max_value;
  Thou max_limit;
};
constexpr ReasonShape Shape(v1::M42Verdict::Reason proto, Reason engine, VerdictKind kind,
                            bool model = false, bool other = false, Thou max_value = -1,
                            Thou max_limit = -1) {
  return ReasonShape{proto, engine, kind, model, other, max_value, max_limit};
}
using V = v1::M42Verdict;
constexpr VerdictKind kOk = VerdictKind::kOk;
constexpr VerdictKind kInvalid = VerdictKind::kInvalid;
constexpr VerdictKind kIllegal = VerdictKind::kIllegal;
constexpr ReasonShape kShapes[] = {
    Shape(V::REASON_NONE, Reason::kNone, kOk),
    Shape(V::UNKNOWN_UNIT, Reason::kUnknownUnit, kInvalid),
    Shape(V::UNKNOWN_MODEL, Reason::kUnknownModel, kInvalid, true),
    Shape(V::MODEL_NOT_IN_UNIT, Reason::kModelNotInUnit, kInvalid, true),
    Shape(V::DUPLICATE_MODEL, Reason::kDuplicateModel, kInvalid, true),
    Shape(V::MALFORMED_PATH, Reason::kMalformedPath, kInvalid, true),
    Shape(V::PATH_START_MISMATCH, Reason::kPathStartMismatch, kInvalid, true),
    Shape(V::UNIT_ALREADY_ACTED, Reason::kUnitAlreadyActed, kInvalid),
    Shape(V::NOT_ACTIVE_PLAYER, Reason::kNotActivePlayer, kInvalid),
    Shape(V::ACTION_FORBIDS_MOVE, Reason::kActionForbidsMove, kIllegal, true),
    Shape(V::TURN_FORBIDDEN, Reason::kTurnForbidden, kIllegal, true),
    Shape(V::IMPASSABLE, Reason::kImpassable, kIllegal, true, true),
    Shape(V::LEVEL_CHANGE_OUTSIDE_FLOOR, Reason::kLevelChangeOutsideFloor, kIllegal, true),
    Shape(V::OFF_FLOOR, Reason::kOffFloor, kIllegal, true),
    Shape(V::OFF_TABLE, Reason::kOffTable, kIllegal, true),
    Shape(V::AT_THE_DOUBLE_IN_SLOW_GOING, Reason::kAtTheDoubleInSlowGoing, kIllegal, true, true),
    Shape(V::EXCEEDS_ALLOWANCE, Reason::kExceedsAllowance, kIllegal, true, false, kMaxPathThou,
          kMaxAllowanceThou),
    Shape(V::ENEMY_TOO_CLOSE, Reason::kEnemyTooClose, kIllegal, true, true, kMaxDistanceThou,
          kMaxLengthThou),
    Shape(V::ENDS_ON_FRIENDLY, Reason::kEndsOnFriendly, kIllegal, true, true),
    Shape(V::CROSSES_NON_TASK_FORCE, Reason::kCrossesNonTaskForce, kIllegal, true, true),
    Shape(V::ENDS_ON_OBSTACLE, Reason::kEndsOnObstacle, kIllegal, true, true),
    Shape(V::COHERENCY, Reason::kCoherency, kIllegal, true, true, kMaxDistanceThou, kMaxLengthThou),
};
static_assert(std::size(kShapes) == static_cast<std::size_t>(m42::kLastReason) + 1,
              "one shape per reason code (engine/m42/verdict.h)");

const ReasonShape* ShapeOf(Reason reason) {
  for (const ReasonShape& s : kShapes) {
    if (s.engine == reason) return &s;
  }
  return nullptr;
}

const ReasonShape* ShapeOf(v1::M42Verdict::Reason reason) {
  for (const ReasonShape& s : kShapes) {
    if (s.proto == reason) return &s;
  }
  return nullptr;
}

// "ACTION_FORBIDS_MOVE..COHERENCY": the codes of `kind`'s verdicts, first to last.
std::string CodesOf(VerdictKind kind) {
  std::string first;
  std::string last;
  for (const ReasonShape& s : kShapes) {
    if (s.kind != kind) continue;
    if (first.empty()) first = EnumName(s.proto);
    last = EnumName(s.proto);
  }
  return first + ".." + last;
}

class TurnResultConverter : public internal::M42Checker {
 public:
  explicit TurnResultConverter(const v1::M42TurnResult& proto) : p_(proto) {}

  M42TurnResultBody Run() {
    M42TurnResultBody out;
    if (Count("verdicts", p_.verdicts_size(), 0, kMaxVerdicts)) {
      for (int i = 0; i < p_.verdicts_size(); ++i) {
        out.verdicts.push_back(Verdict(Indexed("verdicts", i), p_.verdicts(i)));
      }
    }
    if (Count("events", p_.events_size(), 0, kMaxEvents)) {
      for (int i = 0; i < p_.events_size(); ++i) {
        std::optional<m42::Event> event = Event(Indexed("events", i), p_.events(i));
        if (event) out.events.push_back(std::move(*event));
      }
    }
    out.next_state = p_.next_state();
    return out;
  }

 private:
  m42::Verdict Verdict(const std::string& path, const v1::M42Verdict& v) {
    m42::Verdict out;
    if (Id(path + ".unit", v.unit())) out.unit = v.unit();
    const bool kind_known = Known(kVerdictKinds, v.kind());
    if (v.kind() == v1::M42Verdict::KIND_UNSPECIFIED) {
      Add(path + ".kind", "missing (OK, INVALID or ILLEGAL)");
    } else {
      Enum(path + ".kind", true, v.kind(), kVerdictKinds, out.kind);
    }
    const ReasonShape* shape = ShapeOf(v.reason());
    if (shape == nullptr) {
      Add(path + ".reason", "unknown reason code " + EnumName(v.reason()));
      return out;
    }
    out.reason = shape->engine;
    const std::string reason = "reason " + EnumName(shape->proto);
    if (kind_known && out.kind != shape->kind) {
      Add(path + ".kind", "must be " + EnumName(ToProtoEnum(kVerdictKinds, shape->kind)) +
                              " with " + reason + ", got " + EnumName(v.kind()));
    }
    if (Given(path + ".model", !v.model().empty(), shape->model, reason, "a model") &&
        shape->model && Id(path + ".model", v.model())) {
      out.model = v.model();
    }
    if (Given(path + ".other", !v.other().empty(), shape->other, reason,
              "a feature or another model") &&
        shape->other && FeatureId(path + ".other", v.other())) {
      out.other = v.other();
    }
    Thou n = 0;
    if (Given(path + ".value", v.has_value(), shape->max_value >= 0, reason, "a value") &&
        v.has_value() && InRange(path + ".value", v.value(), 0, shape->max_value, n)) {
      out.value = n;
    }
    if (Given(path + ".limit", v.has_limit(), shape->max_limit >= 0, reason, "a limit") &&
        v.has_limit() && InRange(path + ".limit", v.limit(), 0, shape->max_limit, n)) {
      out.limit = n;
    }
    return out;
  }

  // An argument set when its reason gives it, unset when it does not.
  bool Given(const std::string& path, bool set, bool wanted, const std::string& reason,
             std::string_view what) {
    if (set == wanted) return true;
    Add(path, set ? "not given with " + reason
                  : "missing (" + reason + " names " + std::string(what) + ")");
    return false;
  }

  template <typename P, typename E, std::size_t N>
  static bool Known(const EnumPair<P, E> (&table)[N], P value) {
    for (const auto& pair : table) {
      if (pair.proto == value) return true;
    }
    return false;
  }

  // A terrain feature's or a model's id, or a structure's base ("<structure id>.base", which
  // may be longer than an id).
  bool FeatureId(const std::string& path, const std::string& id) {
    if (id.size() > kBaseSuffix.size() && id.ends_with(kBaseSuffix) &&
        IsId(std::string_view(id).substr(0, id.size() - kBaseSuffix.size()))) {
      return true;
    }
    return Id(path, id);
  }

  std::optional<m42::Event> Event(const std::string& path, const v1::M42Event& e) {
    using B = v1::M42Event;
    switch (e.body_case()) {
      case B::kUnitActed:
        return UnitActed(path + ".unit_acted", e.unit_acted());
      case B::kUnitHeld:
        return UnitHeld(path + ".unit_held", e.unit_held());
      case B::kModelMoved:
        return ModelMoved(path + ".model_moved", e.model_moved());
      case B::kModelTurned: {
        const std::string at = path + ".model_turned";
        m42::ModelTurned out;
        if (Id(at + ".model", e.model_turned().model())) out.model = e.model_turned().model();
        InRange(at + ".facing_mdeg", e.model_turned().facing_mdeg(), 0, kMaxFacingMdeg,
                out.facing_mdeg);
        return out;
      }
      case B::kSlowGoing: {
        const std::string at = path + ".slow_going";
        m42::SlowGoing out;
        if (Id(at + ".model", e.slow_going().model())) out.model = e.slow_going().model();
        if (FeatureId(at + ".feature", e.slow_going().feature())) {
          out.feature = e.slow_going().feature();
        }
        return out;
      }
      case B::kDifficultGoing: {
        const std::string at = path + ".difficult_going";
        const v1::M42DifficultGoingEvent& d = e.difficult_going();
        m42::DifficultGoing out;
        if (Id(at + ".model", d.model())) out.model = d.model();
        if (FeatureId(at + ".feature", d.feature())) out.feature = d.feature();
        InRange(at + ".allowance", d.allowance(), 0, kMaxAllowanceIn, out.allowance);
        return out;
      }
      case B::kClosestEnemy: {
        const std::string at = path + ".closest_enemy";
        const v1::M42ClosestEnemyEvent& c = e.closest_enemy();
        m42::ClosestEnemy out;
        if (Id(at + ".model", c.model())) out.model = c.model();
        if (Id(at + ".enemy", c.enemy())) out.enemy = c.enemy();
        InRange(at + ".distance_thou", c.distance_thou(), 0, kMaxDistanceThou, out.distance);
        return out;
      }
      case B::kCloseCombatJoined: {
        const std::string at = path + ".close_combat_joined";
        const v1::M42CloseCombatJoinedEvent& c = e.close_combat_joined();
        m42::CloseCombatJoined out;
        if (Id(at + ".unit", c.unit())) out.unit = c.unit();
        if (Id(at + ".enemy_unit", c.enemy_unit())) out.enemy_unit = c.enemy_unit();
        InRange(at + ".distance_thou", c.distance_thou(), 0, kMaxDistanceThou, out.distance);
        return out;
      }
      case B::kActionPhaseEnded: {
        const std::string at = path + ".action_phase_ended";
        const v1::M42ActionPhaseEndedEvent& a = e.action_phase_ended();
        m42::ActionPhaseEnded out;
        if (Id(at + ".player", a.player())) out.player = a.player();
        InRange(at + ".turn", a.turn(), 1, kMaxTurn, out.turn);
        return out;
      }
      case B::BODY_NOT_SET:
        break;
    }
    Add(path,
        "no body (one of unit_acted, unit_held, model_moved, model_turned, slow_going, "
        "difficult_going, closest_enemy, close_combat_joined, action_phase_ended)");
    return std::nullopt;
  }

  m42::UnitActed UnitActed(const std::string& path, const v1::M42UnitActedEvent& e) {
    m42::UnitActed out;
    if (Id(path + ".unit", e.unit())) out.unit = e.unit();
    ActionAndFire(path + ".action", e.action(), path + ".fire", e.fire(), out.action, out.fire);
    return out;
  }

  m42::UnitHeld UnitHeld(const std::string& path, const v1::M42UnitHeldEvent& e) {
    m42::UnitHeld out;
    if (Id(path + ".unit", e.unit())) out.unit = e.unit();
    const ReasonShape* shape = ShapeOf(e.reason());
    if (shape == nullptr || shape->kind != VerdictKind::kIllegal) {
      // A unit holds for an ILLEGAL order only (GAP-20).
      Add(path + ".reason", "must be an ILLEGAL verdict's reason (" +
                                CodesOf(VerdictKind::kIllegal) + "), got " + EnumName(e.reason()));
    } else {
      out.reason = shape->engine;
    }
    return out;
  }

  m42::ModelMoved ModelMoved(const std::string& path, const v1::M42ModelMovedEvent& e) {
    m42::ModelMoved out;
    if (Id(path + ".model", e.model())) out.model = e.model();
    InRange(path + ".from_x_thou", e.from_x_thou(), -kMaxCoordThou, kMaxCoordThou, out.from_x);
    InRange(path + ".from_y_thou", e.from_y_thou(), -kMaxCoordThou, kMaxCoordThou, out.from_y);
    InRange(path + ".from_floor", e.from_floor(), 0, kMaxFloor, out.from_floor);
    InRange(path + ".to_x_thou", e.to_x_thou(), -kMaxCoordThou, kMaxCoordThou, out.to_x);
    InRange(path + ".to_y_thou", e.to_y_thou(), -kMaxCoordThou, kMaxCoordThou, out.to_y);
    InRange(path + ".to_floor", e.to_floor(), 0, kMaxFloor, out.to_floor);
    InRange(path + ".length_thou", e.length_thou(), 0, kMaxPathThou, out.length);
    return out;
  }

  const v1::M42TurnResult& p_;
};

// ---- Writing ---------------------------------------------------------------------------------

struct EventWriter {
  v1::M42Event& p;
  void operator()(const m42::UnitActed& e) {
    v1::M42UnitActedEvent& b = *p.mutable_unit_acted();
    b.set_unit(e.unit);
    b.set_action(ToProtoEnum(internal::kM42Actions, e.action));
    b.set_fire(ToProtoEnum(internal::kM42Fires, e.fire));
  }
  void operator()(const m42::UnitHeld& e) {
    v1::M42UnitHeldEvent& b = *p.mutable_unit_held();
    b.set_unit(e.unit);
    const ReasonShape* shape = ShapeOf(e.reason);
    b.set_reason(shape != nullptr ? shape->proto : v1::M42Verdict::REASON_NONE);
  }
  void operator()(const m42::ModelMoved& e) {
    v1::M42ModelMovedEvent& b = *p.mutable_model_moved();
    b.set_model(e.model);
    b.set_from_x_thou(e.from_x);
    b.set_from_y_thou(e.from_y);
    b.set_from_floor(e.from_floor);
    b.set_to_x_thou(e.to_x);
    b.set_to_y_thou(e.to_y);
    b.set_to_floor(e.to_floor);
    b.set_length_thou(e.length);
  }
  void operator()(const m42::ModelTurned& e) {
    v1::M42ModelTurnedEvent& b = *p.mutable_model_turned();
    b.set_model(e.model);
    b.set_facing_mdeg(e.facing_mdeg);
  }
  void operator()(const m42::SlowGoing& e) {
    v1::M42SlowGoingEvent& b = *p.mutable_slow_going();
    b.set_model(e.model);
    b.set_feature(e.feature);
  }
  void operator()(const m42::DifficultGoing& e) {
    v1::M42DifficultGoingEvent& b = *p.mutable_difficult_going();
    b.set_model(e.model);
    b.set_feature(e.feature);
    b.set_allowance(e.allowance);
  }
  void operator()(const m42::ClosestEnemy& e) {
    v1::M42ClosestEnemyEvent& b = *p.mutable_closest_enemy();
    b.set_model(e.model);
    b.set_enemy(e.enemy);
    b.set_distance_thou(e.distance);
  }
  void operator()(const m42::CloseCombatJoined& e) {
    v1::M42CloseCombatJoinedEvent& b = *p.mutable_close_combat_joined();
    b.set_unit(e.unit);
    b.set_enemy_unit(e.enemy_unit);
    b.set_distance_thou(e.distance);
  }
  void operator()(const m42::ActionPhaseEnded& e) {
    v1::M42ActionPhaseEndedEvent& b = *p.mutable_action_phase_ended();
    b.set_player(e.player);
    b.set_turn(e.turn);
  }
};

}  // namespace

v1::M42TurnResult M42TurnResultToProto(const std::vector<m42::Verdict>& verdicts,
                                       const std::vector<m42::Event>& events,
                                       std::string_view next_state) {
  v1::M42TurnResult p;
  for (const m42::Verdict& v : verdicts) {
    v1::M42Verdict& verdict = *p.add_verdicts();
    verdict.set_unit(v.unit);
    verdict.set_kind(ToProtoEnum(kVerdictKinds, v.kind));
    const ReasonShape* shape = ShapeOf(v.reason);
    verdict.set_reason(shape != nullptr ? shape->proto : v1::M42Verdict::REASON_NONE);
    verdict.set_model(v.model);
    verdict.set_other(v.other);
    if (v.value) verdict.set_value(*v.value);
    if (v.limit) verdict.set_limit(*v.limit);
  }
  for (const m42::Event& e : events) std::visit(EventWriter{*p.add_events()}, e);
  p.set_next_state(std::string(next_state));
  return p;
}

Result<M42TurnResultBody> M42TurnResultFromProto(const v1::M42TurnResult& proto,
                                                 std::string_view source) {
  TurnResultConverter converter(proto);
  M42TurnResultBody body = converter.Run();
  if (!converter.problems().empty()) {
    return Located(converter.problems(), internal::Locator({}, std::string(source)));
  }
  return body;
}

}  // namespace pbem::codec
