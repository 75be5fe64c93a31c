// Reading untrusted JSON bodies (game creation, leagues): the nesting is bounded before Poco's
// recursive parser runs (codec::JsonDepthProblem), and each field is read with its type and
// range checked, every error naming the field. Errors are INVALID_ARGUMENT Status values
// whose message is the sentence for the client.
#ifndef PBEM_DAEMON_JSON_INPUT_H_
#define PBEM_DAEMON_JSON_INPUT_H_

#include <Poco/JSON/Object.h>

#include <cstdint>
#include <string>

#include "storage/status.h"

namespace pbem::daemon {

// The JSON object `body` holds; INVALID_ARGUMENT when it is nested too deep, is not JSON or is
// not an object.
Result<Poco::JSON::Object::Ptr> ParseJsonObject(const std::string& body);

// The integer `key` of `object`, `fallback` when it is absent; INVALID_ARGUMENT naming `name`
// (the field's path, e.g. "points.draw") when it is not an integer (a string, a fraction, a
// number beyond 64 bits) or lies outside [min, max].
Result<std::int64_t> IntegerField(const Poco::JSON::Object& object, const std::string& key,
                                  std::int64_t fallback, std::int64_t min, std::int64_t max,
                                  const std::string& name);
inline Result<std::int64_t> IntegerField(const Poco::JSON::Object& object, const std::string& key,
                                         std::int64_t fallback, std::int64_t min,
                                         std::int64_t max) {
  return IntegerField(object, key, fallback, min, max, key);
}

// The string `key` of `object`, `fallback` when it is absent or null; INVALID_ARGUMENT naming
// `name` when it is another type.
Result<std::string> StringField(const Poco::JSON::Object& object, const std::string& key,
                                const std::string& fallback, const std::string& name);
inline Result<std::string> StringField(const Poco::JSON::Object& object, const std::string& key,
                                       const std::string& fallback = "") {
  return StringField(object, key, fallback, key);
}

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_JSON_INPUT_H_
