// TurnResultFromProto: a stored pbem.v1.TurnResult back into engine values, for the archive
// page and the results mail of a turn read from storage.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "proto/codec/codec.h"
#include "proto/codec/event_body_codec.h"
#include "proto/codec/shown.h"

namespace pbem::codec {

namespace {

// The proto enums number the engine's values from 1 (0 is UNSPECIFIED).
template <typename E>
std::optional<E> FromProtoEnum(int value, int count) {
  if (value < 1 || value > count) return std::nullopt;
  return static_cast<E>(value - 1);
}

// What FromProtoEnum<engine::VerdictKind> relies on (engine/core/verdict_kind.h).
static_assert(pbem::v1::VERDICT_OK == static_cast<int>(engine::VerdictKind::kOk) + 1 &&
              pbem::v1::VERDICT_INVALID == static_cast<int>(engine::VerdictKind::kInvalid) + 1 &&
              pbem::v1::VERDICT_ILLEGAL == static_cast<int>(engine::VerdictKind::kIllegal) + 1 &&
              pbem::v1::VERDICT_PARTIAL == static_cast<int>(engine::VerdictKind::kPartial) + 1);

std::string NewerFormat(const pbem::v1::TurnResult& proto) {
  return "format_version: " + std::to_string(proto.format_version()) +
         " is newer than this program knows (" +
         std::to_string(static_cast<int>(kCurrentTurnResultFormat)) + ")";
}

// The payload of event `p` (of kind `kind`) written in `format`, or a problem naming the field.
std::variant<engine::EventBody, std::string> PayloadOf(const pbem::v1::Event& p,
                                                       engine::EventKind kind,
                                                       TurnResultFormat format) {
  if (format == TurnResultFormat::kArgs) {
    if (p.body_case() != pbem::v1::Event::BODY_NOT_SET) {
      return std::string("body: not used in format 1 (the payload is in args)");
    }
    return engine::EventBodyFromArgs(kind,
                                     std::vector<std::string>(p.args().begin(), p.args().end()));
  }
  if (p.args_size() > 0) return std::string("args: not used in format 2 (the payload is in body)");
  return EventBodyFromProto(kind, p);
}

}  // namespace

Result<engine::TurnResult> TurnResultFromProto(const pbem::v1::TurnResult& proto,
                                               const engine::Scenario& scenario,
                                               std::string_view source) {
  std::vector<Error> errors;
  const std::string where(source);
  engine::TurnResult out;
  const std::optional<TurnResultFormat> format = TurnResultFormatOf(proto);
  if (!format) return std::vector<Error>{Error{where, NewerFormat(proto)}};
  for (int i = 0; i < proto.verdicts_size(); ++i) {
    const pbem::v1::OrderVerdict& p = proto.verdicts(i);
    const std::string path = where + ": verdicts[" + std::to_string(i) + "]";
    engine::OrderVerdict v;
    const auto kind = FromProtoEnum<engine::OrderKind>(p.order_kind(), 5);
    const auto verdict = FromProtoEnum<engine::VerdictKind>(p.verdict(), 4);
    const auto reason = engine::ParseReasonCode(p.reason().empty() ? "none" : p.reason());
    if (!kind) errors.push_back(Error{path, "order_kind: unspecified or unknown"});
    if (!verdict) errors.push_back(Error{path, "verdict: unspecified or unknown"});
    if (!reason) errors.push_back(Error{path, "reason: unknown code '" + Shown(p.reason()) + "'"});
    if (!kind || !verdict || !reason) continue;
    v.order_kind = *kind;
    v.index = p.index();
    v.unit = p.unit();
    v.verdict = *verdict;
    v.reason = *reason;
    for (const std::string& a : p.args()) v.args.emplace_back(a);
    out.verdicts.push_back(std::move(v));
  }
  for (int i = 0; i < proto.events_size(); ++i) {
    const pbem::v1::Event& p = proto.events(i);
    const std::string path = where + ": events[" + std::to_string(i) + "]";
    engine::Event e;
    const auto phase = FromProtoEnum<engine::Phase>(p.phase(), 6);
    const auto kind = engine::ParseEventKind(p.kind());
    if (!phase) errors.push_back(Error{path, "phase: unspecified or unknown"});
    if (!kind) errors.push_back(Error{path, "kind: unknown event '" + p.kind() + "'"});
    if (!phase || !kind) continue;
    auto body = PayloadOf(p, *kind, *format);
    if (const auto* problem = std::get_if<std::string>(&body)) {
      errors.push_back(Error{path, *problem});
      continue;
    }
    e.phase = *phase;
    e.body = std::move(std::get<engine::EventBody>(body));
    if (!p.unit().empty()) {
      const auto unit = scenario.FindUnit(p.unit());
      if (!unit) {
        errors.push_back(Error{path, "unit: unknown unit '" + p.unit() + "'"});
        continue;
      }
      e.unit = *unit;
    }
    bool bad_hex = false;
    for (const std::string& label : p.hexes()) {
      const auto hex = engine::ParseLabel(label);
      if (!hex) {
        errors.push_back(Error{path, "hexes: bad hex label '" + label + "'"});
        bad_hex = true;
        break;
      }
      e.hexes.push_back(*hex);
    }
    if (bad_hex) continue;
    if (p.die() != pbem::v1::DIE_UNSPECIFIED) {
      const auto die = FromProtoEnum<engine::Die>(p.die(), 3);
      if (!die) {
        errors.push_back(Error{path, "die: unknown"});
        continue;
      }
      e.die = engine::DieRoll{*die, p.value(), p.purpose()};
    }
    out.events.push_back(std::move(e));
  }
  if (proto.has_next_state()) {
    auto state = StateFromProto(proto.next_state(), scenario);
    if (!state.ok()) {
      for (const Error& e : state.errors()) {
        errors.push_back(
            Error{where + ": next_state" + (e.where.empty() ? "" : " " + e.where), e.message});
      }
    } else {
      out.next_state = std::move(state).value();
    }
  }
  out.message = proto.message();
  if (!errors.empty()) return errors;
  return out;
}

Result<pbem::v1::TurnResult> TurnResultInCurrentFormat(const pbem::v1::TurnResult& proto,
                                                       std::string_view source) {
  const std::optional<TurnResultFormat> format = TurnResultFormatOf(proto);
  if (format == kCurrentTurnResultFormat) return proto;
  if (!format) return Result<pbem::v1::TurnResult>::Fail(std::string(source), NewerFormat(proto));
  std::vector<Error> errors;
  pbem::v1::TurnResult out = proto;
  out.set_format_version(static_cast<std::uint32_t>(kCurrentTurnResultFormat));
  for (int i = 0; i < out.events_size(); ++i) {
    pbem::v1::Event& e = *out.mutable_events(i);
    const std::string path = std::string(source) + ": events[" + std::to_string(i) + "]";
    const auto kind = engine::ParseEventKind(e.kind());
    if (!kind) {
      errors.push_back(Error{path, "kind: unknown event '" + e.kind() + "'"});
      continue;
    }
    auto body = PayloadOf(e, *kind, TurnResultFormat::kArgs);
    if (const auto* problem = std::get_if<std::string>(&body)) {
      errors.push_back(Error{path, *problem});
      continue;
    }
    e.clear_args();
    EventBodyToProto(std::get<engine::EventBody>(body), e);
  }
  if (!errors.empty()) return errors;
  return out;
}

}  // namespace pbem::codec
