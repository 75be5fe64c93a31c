// Test events written as their wire form, positionally (engine/morne_plaine/event.h has the table),
// for the report and map tests whose fixtures read best that way: the payload is decoded by the
// engine's own reader (EventBodyFromArgs), so a fixture that does not fit its kind's fields
// fails loudly, naming the field.
#ifndef PBEM_TESTS_TEMPLATES_POSITIONAL_EVENT_H_
#define PBEM_TESTS_TEMPLATES_POSITIONAL_EVENT_H_

#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::testing {

inline engine::EventBody PositionalBody(engine::EventKind kind,
                                        const std::vector<engine::Arg>& args) {
  std::vector<std::string> text;
  for (const engine::Arg& a : args) {
    if (const auto* n = std::get_if<std::int64_t>(&a)) {
      text.push_back(std::to_string(*n));
    } else if (const auto* h = std::get_if<engine::Hex>(&a)) {
      text.push_back(engine::FormatLabel(*h));
    } else {
      text.push_back(std::get<std::string>(a));
    }
  }
  auto body = engine::EventBodyFromArgs(kind, text);
  if (const auto* problem = std::get_if<std::string>(&body)) throw std::runtime_error(*problem);
  return std::get<engine::EventBody>(std::move(body));
}

}  // namespace pbem::testing

#endif  // PBEM_TESTS_TEMPLATES_POSITIONAL_EVENT_H_
