#include "proto/codec/event_body_codec.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <array>
#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/core/check.h"

namespace pbem::codec {

namespace {

namespace gpb = google::protobuf;

// "move_step" -> "MoveStep".
std::string PascalCase(std::string_view snake) {
  std::string out;
  bool upper = true;
  for (const char c : snake) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

// The field of oneof `body` that carries each kind: the one of message type <Kind>Event.
const gpb::FieldDescriptor* BodyField(engine::EventKind kind) {
  static const std::array<const gpb::FieldDescriptor*, engine::kEventKindCount> fields = [] {
    std::array<const gpb::FieldDescriptor*, engine::kEventKindCount> out{};
    const gpb::OneofDescriptor* body = pbem::v1::Event::descriptor()->FindOneofByName("body");
    PBEM_CHECK(body != nullptr);
    for (std::size_t k = 0; k < engine::kEventKindCount; ++k) {
      const std::string type =
          PascalCase(engine::EventKindName(static_cast<engine::EventKind>(k))) + "Event";
      for (int i = 0; i < body->field_count(); ++i) {
        if (body->field(i)->message_type()->name() == type) out[k] = body->field(i);
      }
      PBEM_CHECK(out[k] != nullptr);
    }
    return out;
  }();
  return fields[static_cast<std::size_t>(kind)];
}

// Enums of the schema written as the engine's names: the value named prefix + NAME in upper
// case ("blue" <-> SIDE_BLUE, "draw" <-> VICTORY_DRAW).
std::string_view EnumPrefix(const gpb::EnumDescriptor& type) {
  if (type.full_name() == "pbem.v1.Side") return "SIDE_";
  if (type.full_name() == "pbem.v1.VictoryLevel") return "VICTORY_";
  PBEM_CHECK(false);
  return "";
}

const gpb::FieldDescriptor* FieldNamed(const gpb::Message& message, const char* name) {
  const gpb::FieldDescriptor* field = message.GetDescriptor()->FindFieldByName(name);
  PBEM_CHECK(field != nullptr);
  return field;
}

struct BodyWriter {
  gpb::Message& message;

  void operator()(const char* name, std::int64_t n) {
    const gpb::FieldDescriptor* field = FieldNamed(message, name);
    PBEM_CHECK(field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_INT32);
    PBEM_CHECK(n >= std::numeric_limits<std::int32_t>::min() &&
               n <= std::numeric_limits<std::int32_t>::max());
    message.GetReflection()->SetInt32(&message, field, static_cast<std::int32_t>(n));
  }
  void operator()(const char* name, const std::string& s) {
    const gpb::FieldDescriptor* field = FieldNamed(message, name);
    if (field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_STRING) {
      message.GetReflection()->SetString(&message, field, s);
      return;
    }
    PBEM_CHECK(field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_ENUM);
    std::string value_name(EnumPrefix(*field->enum_type()));
    for (const char c : s)
      value_name += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const gpb::EnumValueDescriptor* value = field->enum_type()->FindValueByName(value_name);
    PBEM_CHECK(value != nullptr && value->number() != 0);
    message.GetReflection()->SetEnumValue(&message, field, value->number());
  }
  template <typename T>
  void operator()(const char* name, const std::optional<T>& value) {
    if (value) (*this)(name, *value);
  }
  template <typename T>
  void operator()(const char* name, const T& nested) {
    const gpb::FieldDescriptor* field = FieldNamed(message, name);
    PBEM_CHECK(field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_MESSAGE);
    T::Fields(nested, BodyWriter{*message.GetReflection()->MutableMessage(&message, field)});
  }
};

// Reads the fields of `message`; the first problem names the field ("combat.steps.attacker").
struct BodyReader {
  const gpb::Message& message;
  std::string prefix;
  std::string& problem;

  void operator()(const char* name, std::int64_t& n) {
    const gpb::FieldDescriptor* field = FieldNamed(message, name);
    PBEM_CHECK(field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_INT32);
    n = message.GetReflection()->GetInt32(message, field);
  }
  void operator()(const char* name, std::string& s) {
    const gpb::FieldDescriptor* field = FieldNamed(message, name);
    if (field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_STRING) {
      s = message.GetReflection()->GetString(message, field);
      return;
    }
    PBEM_CHECK(field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_ENUM);
    const int number = message.GetReflection()->GetEnumValue(message, field);
    const gpb::EnumValueDescriptor* value = field->enum_type()->FindValueByNumber(number);
    const std::string_view prefix_of_values = EnumPrefix(*field->enum_type());
    if (number == 0 || value == nullptr || value->name().rfind(prefix_of_values, 0) != 0) {
      if (problem.empty()) {
        problem = prefix + name + ": unspecified or unknown " + field->enum_type()->name() + " " +
                  std::to_string(number);
      }
      return;
    }
    s.clear();
    for (const char c : value->name().substr(prefix_of_values.size())) {
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  template <typename T>
  void operator()(const char* name, std::optional<T>& value) {
    if (message.GetReflection()->HasField(message, FieldNamed(message, name))) {
      (*this)(name, value.emplace());
    }
  }
  template <typename T>
  void operator()(const char* name, T& nested) {
    const gpb::FieldDescriptor* field = FieldNamed(message, name);
    PBEM_CHECK(field->cpp_type() == gpb::FieldDescriptor::CPPTYPE_MESSAGE);
    if (!message.GetReflection()->HasField(message, field)) {
      if (problem.empty()) problem = prefix + name + ": missing";
      return;
    }
    T::Fields(nested, BodyReader{message.GetReflection()->GetMessage(message, field),
                                 prefix + name + ".", problem});
  }
};

}  // namespace

void EventBodyToProto(const engine::EventBody& body, pbem::v1::Event& out) {
  const gpb::FieldDescriptor* field = BodyField(static_cast<engine::EventKind>(body.index()));
  gpb::Message& message = *out.GetReflection()->MutableMessage(&out, field);
  std::visit(
      [&message](const auto& fields) {
        std::decay_t<decltype(fields)>::Fields(fields, BodyWriter{message});
      },
      body);
}

std::variant<engine::EventBody, std::string> EventBodyFromProto(engine::EventKind kind,
                                                                const pbem::v1::Event& event) {
  const gpb::FieldDescriptor* field = BodyField(kind);
  const std::string name(engine::EventKindName(kind));
  if (event.body_case() == pbem::v1::Event::BODY_NOT_SET) {
    return "body: missing (kind '" + name + "' needs its " + field->name() + " body)";
  }
  if (static_cast<int>(event.body_case()) != field->number()) {
    const gpb::FieldDescriptor* given =
        pbem::v1::Event::descriptor()->FindFieldByNumber(static_cast<int>(event.body_case()));
    return "body: " + (given ? given->name() : std::string("an unknown body")) +
           " given for kind '" + name + "' (it needs " + field->name() + ")";
  }
  std::optional<engine::EventBody> body = engine::EmptyEventBody(kind);
  PBEM_CHECK(body.has_value());
  std::string problem;
  const gpb::Message& message = event.GetReflection()->GetMessage(event, field);
  std::visit(
      [&](auto& fields) {
        std::decay_t<decltype(fields)>::Fields(fields,
                                               BodyReader{message, "body: " + name + ".", problem});
      },
      *body);
  if (!problem.empty()) return problem;
  return std::move(*body);
}

}  // namespace pbem::codec
