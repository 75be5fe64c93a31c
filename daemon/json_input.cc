#include "daemon/json_input.h"

#include <Poco/Dynamic/Var.h>
#include <Poco/Exception.h>
#include <Poco/JSON/Parser.h>

#include <limits>
#include <optional>

#include "proto/codec/json_depth.h"

namespace pbem::daemon {

Result<Poco::JSON::Object::Ptr> ParseJsonObject(const std::string& body) {
  if (std::optional<std::string> deep = codec::JsonDepthProblem(body)) {
    return Status::InvalidArgument("the body is not accepted: " + *deep);
  }
  try {
    Poco::Dynamic::Var parsed = Poco::JSON::Parser().parse(body);
    if (parsed.type() == typeid(Poco::JSON::Object::Ptr)) {
      if (Poco::JSON::Object::Ptr object = parsed.extract<Poco::JSON::Object::Ptr>()) {
        return object;
      }
    }
    return Status::InvalidArgument("the body is not a JSON object");
  } catch (const Poco::Exception& e) {
    return Status::InvalidArgument("the body is not a JSON object: " + e.displayText());
  }
}

Result<std::int64_t> IntegerField(const Poco::JSON::Object& object, const std::string& key,
                                  std::int64_t fallback, std::int64_t min, std::int64_t max,
                                  const std::string& name) {
  if (!object.has(key) || object.isNull(key)) return fallback;
  const Poco::Dynamic::Var value = object.get(key);
  const std::string range = " (from " + std::to_string(min) + " to " + std::to_string(max) + ")";
  if (!value.isInteger() || value.isString() || value.isBoolean()) {
    return Status::InvalidArgument("\"" + name + "\" must be a whole number" + range);
  }
  std::int64_t number = 0;
  if (value.isSigned()) {
    number = value.convert<Poco::Int64>();
  } else {
    const Poco::UInt64 unsigned_number = value.convert<Poco::UInt64>();
    if (unsigned_number > static_cast<Poco::UInt64>(std::numeric_limits<std::int64_t>::max())) {
      return Status::InvalidArgument("\"" + name + "\" is out of range" + range);
    }
    number = static_cast<std::int64_t>(unsigned_number);
  }
  if (number < min || number > max) {
    return Status::InvalidArgument("\"" + name + "\" is out of range" + range + ": " +
                                   std::to_string(number));
  }
  return number;
}

Result<std::string> StringField(const Poco::JSON::Object& object, const std::string& key,
                                const std::string& fallback, const std::string& name) {
  if (!object.has(key) || object.isNull(key)) return fallback;
  const Poco::Dynamic::Var value = object.get(key);
  if (!value.isString()) return Status::InvalidArgument("\"" + name + "\" must be a string");
  return value.convert<std::string>();
}

}  // namespace pbem::daemon
