// The French game's turn result (wme_codec.h; the schema and its bounds: wme_turn_result.proto).
// Shaped as wme_orders_codec.cc: problems collected as (field path, message); every list
// bounded before it is walked; nothing recurses on input. A stored result comes from a file
// (archives are imported), so every field is checked against what the engine can give before
// an engine value is built.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "proto/codec/data_checker.h"
#include "proto/codec/wme_codec.h"
#include "proto/codec/wme_codec_tables.h"

namespace pbem::codec {
namespace {

namespace v1 = pbem::v1;
using internal::Checker;
using internal::EnumPair;
using internal::Indexed;
using internal::kWmeMoveKinds;
using internal::ToProtoEnum;

// One verdict per entry: the orders' 1000 initiative entries and 1000 orders.
constexpr int kMaxVerdicts = 2000;
// Each entry moves at most a unit and its supporter, base by base, and names the units it
// crossed or touched: far fewer events than this for any scenario the codec loads.
constexpr int kMaxEvents = 200'000;
// Every position the engine reports is a table point (engine/table/fixed.h's kMaxCoord) to the
// nearest thousandth.
constexpr std::int64_t kMaxCoordMilli = wme::NearestMilli(table::kMaxCoord);
// A base's travel over 1000 legs, each at most a full turn about a point within the bounds, is
// below 10^12 thousandths; so are the ruleset's lengths and the contact counts.
constexpr std::int64_t kMaxLengthMilli = 1'000'000'000'000;
constexpr std::int64_t kMaxHeadingMdeg = 359'999;  // NormaliseHeading's range
constexpr std::int64_t kMaxRoll = 100;             // DiceSource: dice of 2..100 sides
constexpr std::int64_t kMaxTurn = 1'000'000'000;   // the canonical state's bound

constexpr EnumPair<v1::WmeVerdict::Kind, wme::VerdictKind> kVerdictKinds[] = {
    {v1::WmeVerdict::OK, wme::VerdictKind::kOk},
    {v1::WmeVerdict::INVALID, wme::VerdictKind::kInvalid},
    {v1::WmeVerdict::ILLEGAL, wme::VerdictKind::kIllegal}};
constexpr EnumPair<v1::WmeFormationNowEvent::Formation, table::Formation> kFormations[] = {
    {v1::WmeFormationNowEvent::LINE, table::Formation::kLine},
    {v1::WmeFormationNowEvent::COLUMN, table::Formation::kColumn},
    {v1::WmeFormationNowEvent::IRREGULAR, table::Formation::kIrregular},
    {v1::WmeFormationNowEvent::NONE, table::Formation::kNone}};
constexpr EnumPair<v1::WmeChargeContactEvent::Zone, table::Zone> kZones[] = {
    {v1::WmeChargeContactEvent::FRONT, table::Zone::kFront},
    {v1::WmeChargeContactEvent::LEFT_FLANK, table::Zone::kLeftFlank},
    {v1::WmeChargeContactEvent::RIGHT_FLANK, table::Zone::kRightFlank},
    {v1::WmeChargeContactEvent::REAR, table::Zone::kRear}};

// The proto's reason codes are wme::Reason's numbers (wme_turn_result.proto).
v1::WmeVerdict::Reason ReasonToProto(wme::Reason reason) {
  return static_cast<v1::WmeVerdict::Reason>(static_cast<int>(reason));
}

class ResultConverter : public Checker {
 public:
  explicit ResultConverter(const v1::WmeTurnResult& proto) : p_(proto) {}

  WmeTurnResultBody Run() {
    WmeTurnResultBody out;
    if (Count("verdicts", p_.verdicts_size(), 0, kMaxVerdicts)) {
      for (int i = 0; i < p_.verdicts_size(); ++i) {
        out.verdicts.push_back(Verdict(Indexed("verdicts", i), p_.verdicts(i)));
      }
    }
    if (Count("events", p_.events_size(), 0, kMaxEvents)) {
      for (int i = 0; i < p_.events_size(); ++i) {
        out.events.push_back(Event(Indexed("events", i), p_.events(i)));
      }
    }
    if (p_.next_state().size() > kMaxInputBytes) {
      Add("next_state", "larger than " + std::to_string(kMaxInputBytes) + " bytes");
    } else {
      out.next_state = p_.next_state();
    }
    return out;
  }

 private:
  wme::Verdict Verdict(const std::string& path, const v1::WmeVerdict& v) {
    wme::Verdict out;
    IdInto(path + ".unit", v.unit(), out.unit);
    Required(path + ".kind", v.kind(), kVerdictKinds, out.kind);
    Reason(path + ".reason", v.reason(), out.reason);
    if (out.kind != wme::VerdictKind::kOk && v.reason() == v1::WmeVerdict::NONE) {
      Add(path + ".reason", "missing (a refused entry says why)");
    }
    if (!v.base().empty()) IdInto(path + ".base", v.base(), out.base);
    if (!v.other().empty()) IdInto(path + ".other", v.other(), out.other);
    if (v.has_value()) Length(path + ".value", v.value(), out.value.emplace());
    if (v.has_limit()) Length(path + ".limit", v.limit(), out.limit.emplace());
    Detail(path + ".detail", out.reason, v.detail(), out.detail);
    return out;
  }

  void Reason(const std::string& path, v1::WmeVerdict::Reason reason, wme::Reason& out) {
    const int n = static_cast<int>(reason);
    if (!v1::WmeVerdict::Reason_IsValid(n) || n > static_cast<int>(wme::kLastReason)) {
      Add(path, "unknown reason code " + std::to_string(n));
      return;
    }
    out = static_cast<wme::Reason>(n);
  }

  // The condition word of the two reasons that have one (verdict.h), none for the others.
  void Detail(const std::string& path, wme::Reason reason, const std::string& detail,
              std::string& out) {
    const auto one_of = [&](const auto& words) {
      std::string names;
      for (const std::string_view word : words) {
        if (word == detail) {
          out = detail;
          return;
        }
        names += (names.empty() ? "" : ", ") + std::string(word);
      }
      Add(path, "must be one of " + names + ", got '" + Shown(detail) + "'");
    };
    if (reason == wme::Reason::kUnitCannotMove) {
      one_of(wme::kCannotMoveConditions);
    } else if (reason == wme::Reason::kSupportNotEligible) {
      one_of(wme::kSupportConditions);
    } else if (!detail.empty()) {
      Add(path, "not used by reason " + internal::EnumName(ReasonToProto(reason)) + ", got '" +
                    Shown(detail) + "'");
    }
  }

  wme::Event Event(const std::string& path, const v1::WmeEvent& e) {
    switch (e.body_case()) {
      case v1::WmeEvent::kUnitMoved: {
        const std::string at = path + ".unit_moved";
        wme::UnitMoved out;
        IdInto(at + ".unit", e.unit_moved().unit(), out.unit);
        Required(at + ".kind", e.unit_moved().kind(), kWmeMoveKinds, out.kind);
        out.by_initiative = e.unit_moved().by_initiative();
        return out;
      }
      case v1::WmeEvent::kUnitHeld: {
        const std::string at = path + ".unit_held";
        wme::UnitHeld out;
        IdInto(at + ".unit", e.unit_held().unit(), out.unit);
        Reason(at + ".reason", e.unit_held().reason(), out.reason);
        if (e.unit_held().reason() == v1::WmeVerdict::NONE) {
          Add(at + ".reason", "missing (a held unit says why)");
        }
        return out;
      }
      case v1::WmeEvent::kMoved:
        return Moved(path + ".moved", e.moved());
      case v1::WmeEvent::kFormationNow: {
        const std::string at = path + ".formation_now";
        wme::FormationNow out;
        IdInto(at + ".unit", e.formation_now().unit(), out.unit);
        Required(at + ".formation", e.formation_now().formation(), kFormations, out.formation);
        return out;
      }
      case v1::WmeEvent::kRanksPassedThrough: {
        const std::string at = path + ".ranks_passed_through";
        wme::RanksPassedThrough out;
        IdInto(at + ".evader", e.ranks_passed_through().evader(), out.evader);
        IdInto(at + ".crossed", e.ranks_passed_through().crossed(), out.crossed);
        return out;
      }
      case v1::WmeEvent::kConfusionTest: {
        const std::string at = path + ".confusion_test";
        wme::ConfusionTest out;
        IdInto(at + ".unit", e.confusion_test().unit(), out.unit);
        InRange(at + ".roll", e.confusion_test().roll(), 1, kMaxRoll, out.roll);
        out.confused = e.confusion_test().confused();
        return out;
      }
      case v1::WmeEvent::kPhaseEnded: {
        const std::string at = path + ".phase_ended";
        wme::PhaseEnded out;
        IdInto(at + ".player", e.phase_ended().player(), out.player);
        InRange(at + ".turn", e.phase_ended().turn(), 1, kMaxTurn, out.turn);
        return out;
      }
      case v1::WmeEvent::kZoneTieRoll: {
        const std::string at = path + ".zone_tie_roll";
        wme::ZoneTieRoll out;
        IdInto(at + ".charger", e.zone_tie_roll().charger(), out.charger);
        IdInto(at + ".target", e.zone_tie_roll().target(), out.target);
        InRange(at + ".roll", e.zone_tie_roll().roll(), 1, kMaxRoll, out.roll);
        return out;
      }
      case v1::WmeEvent::kChargeContact: {
        const std::string at = path + ".charge_contact";
        const v1::WmeChargeContactEvent& c = e.charge_contact();
        wme::ChargeContact out;
        IdInto(at + ".charger", c.charger(), out.charger);
        IdInto(at + ".target", c.target(), out.target);
        Required(at + ".side", c.side(), kZones, out.side);
        IdInto(at + ".base", c.base(), out.base);
        IdInto(at + ".target_base", c.target_base(), out.target_base);
        return out;
      }
      case v1::WmeEvent::kAdditionalChargedUnit: {
        wme::AdditionalChargedUnit out;
        IdInto(path + ".additional_charged_unit.unit", e.additional_charged_unit().unit(),
               out.unit);
        return out;
      }
      case v1::WmeEvent::kSupportingCharge: {
        const std::string at = path + ".supporting_charge";
        wme::SupportingCharge out;
        IdInto(at + ".supporter", e.supporting_charge().supporter(), out.supporter);
        IdInto(at + ".charger", e.supporting_charge().charger(), out.charger);
        return out;
      }
      case v1::WmeEvent::BODY_NOT_SET:
        break;
    }
    Add(path, "empty (one body, named after the event's kind)");
    return wme::PhaseEnded{};
  }

  wme::Moved Moved(const std::string& at, const v1::WmeMovedEvent& m) {
    wme::Moved out;
    IdInto(at + ".base", m.base(), out.base);
    InRange(at + ".from_x", m.from_x(), -kMaxCoordMilli, kMaxCoordMilli, out.from_x);
    InRange(at + ".from_y", m.from_y(), -kMaxCoordMilli, kMaxCoordMilli, out.from_y);
    InRange(at + ".from_heading_mdeg", m.from_heading_mdeg(), 0, kMaxHeadingMdeg,
            out.from_heading_mdeg);
    InRange(at + ".to_x", m.to_x(), -kMaxCoordMilli, kMaxCoordMilli, out.to_x);
    InRange(at + ".to_y", m.to_y(), -kMaxCoordMilli, kMaxCoordMilli, out.to_y);
    InRange(at + ".to_heading_mdeg", m.to_heading_mdeg(), 0, kMaxHeadingMdeg, out.to_heading_mdeg);
    Length(at + ".travelled", m.travelled(), out.travelled);
    return out;
  }

  void IdInto(const std::string& path, const std::string& id, std::string& out) {
    if (Id(path, id)) out = id;
  }
  void Length(const std::string& path, std::int64_t value, wme::Milli& out) {
    InRange(path, value, 0, kMaxLengthMilli, out);
  }
  // An enum every verdict or event sets: its 0 (UNSPECIFIED) is a missing field.
  template <typename P, typename E, std::size_t N>
  void Required(const std::string& path, P value, const EnumPair<P, E> (&table)[N], E& out) {
    if (static_cast<int>(value) == 0) {
      Add(path, "missing");
      return;
    }
    Enum(path, true, value, table, out);
  }

  const v1::WmeTurnResult& p_;
};

// One body message per event struct (wme_turn_result.proto).
struct EventBodyOf {
  v1::WmeEvent& e;
  void operator()(const wme::UnitMoved& m) const {
    v1::WmeUnitMovedEvent& p = *e.mutable_unit_moved();
    p.set_unit(m.unit);
    p.set_kind(ToProtoEnum(kWmeMoveKinds, m.kind));
    p.set_by_initiative(m.by_initiative);
  }
  void operator()(const wme::UnitHeld& h) const {
    v1::WmeUnitHeldEvent& p = *e.mutable_unit_held();
    p.set_unit(h.unit);
    p.set_reason(ReasonToProto(h.reason));
  }
  void operator()(const wme::Moved& m) const {
    v1::WmeMovedEvent& p = *e.mutable_moved();
    p.set_base(m.base);
    p.set_from_x(m.from_x);
    p.set_from_y(m.from_y);
    p.set_from_heading_mdeg(m.from_heading_mdeg);
    p.set_to_x(m.to_x);
    p.set_to_y(m.to_y);
    p.set_to_heading_mdeg(m.to_heading_mdeg);
    p.set_travelled(m.travelled);
  }
  void operator()(const wme::FormationNow& f) const {
    v1::WmeFormationNowEvent& p = *e.mutable_formation_now();
    p.set_unit(f.unit);
    p.set_formation(ToProtoEnum(kFormations, f.formation));
  }
  void operator()(const wme::RanksPassedThrough& r) const {
    v1::WmeRanksPassedThroughEvent& p = *e.mutable_ranks_passed_through();
    p.set_evader(r.evader);
    p.set_crossed(r.crossed);
  }
  void operator()(const wme::ConfusionTest& c) const {
    v1::WmeConfusionTestEvent& p = *e.mutable_confusion_test();
    p.set_unit(c.unit);
    p.set_roll(c.roll);
    p.set_confused(c.confused);
  }
  void operator()(const wme::PhaseEnded& f) const {
    v1::WmePhaseEndedEvent& p = *e.mutable_phase_ended();
    p.set_player(f.player);
    p.set_turn(f.turn);
  }
  void operator()(const wme::ZoneTieRoll& z) const {
    v1::WmeZoneTieRollEvent& p = *e.mutable_zone_tie_roll();
    p.set_charger(z.charger);
    p.set_target(z.target);
    p.set_roll(z.roll);
  }
  void operator()(const wme::ChargeContact& c) const {
    v1::WmeChargeContactEvent& p = *e.mutable_charge_contact();
    p.set_charger(c.charger);
    p.set_target(c.target);
    p.set_side(ToProtoEnum(kZones, c.side));
    p.set_base(c.base);
    p.set_target_base(c.target_base);
  }
  void operator()(const wme::AdditionalChargedUnit& a) const {
    e.mutable_additional_charged_unit()->set_unit(a.unit);
  }
  void operator()(const wme::SupportingCharge& s) const {
    v1::WmeSupportingChargeEvent& p = *e.mutable_supporting_charge();
    p.set_supporter(s.supporter);
    p.set_charger(s.charger);
  }
};

}  // namespace

v1::WmeTurnResult WmeTurnResultToProto(const std::vector<wme::Verdict>& verdicts,
                                       const std::vector<wme::Event>& events,
                                       std::string_view next_state) {
  v1::WmeTurnResult p;
  for (const wme::Verdict& v : verdicts) {
    v1::WmeVerdict& out = *p.add_verdicts();
    out.set_unit(v.unit);
    out.set_kind(ToProtoEnum(kVerdictKinds, v.kind));
    out.set_reason(ReasonToProto(v.reason));
    out.set_base(v.base);
    out.set_other(v.other);
    if (v.value) out.set_value(*v.value);
    if (v.limit) out.set_limit(*v.limit);
    out.set_detail(v.detail);
  }
  for (const wme::Event& e : events) std::visit(EventBodyOf{*p.add_events()}, e);
  p.set_next_state(std::string(next_state));
  return p;
}

Result<WmeTurnResultBody> WmeTurnResultFromProto(const v1::WmeTurnResult& proto) {
  ResultConverter converter(proto);
  WmeTurnResultBody body = converter.Run();
  if (!converter.problems().empty()) {
    return internal::Located(converter.problems(), internal::Locator({}, ""));
  }
  return body;
}

}  // namespace pbem::codec
