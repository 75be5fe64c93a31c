#include "engine/system/game_system.h"

#include "engine/system/adapter.h"

namespace pbem::game_system {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kUnknownSystem:
      return "unknown_system";
    case StatusCode::kNotFound:
      return "not_found";
    case StatusCode::kInvalidArgument:
      return "invalid_argument";
    case StatusCode::kNotSupported:
      return "not_supported";
  }
  return "?";
}

bool AllAcceptable(const std::vector<Verdict>& verdicts) {
  for (const Verdict& v : verdicts) {
    if (!engine::IsAcceptable(v.kind)) return false;
  }
  return true;
}

namespace adapter {

Status NotSupported(std::string_view system, std::string_view missing) {
  return Status(StatusCode::kNotSupported, std::string(system) + ": " + std::string(missing));
}

Status NoTurnResultCodec(std::string_view system, std::string_view make) {
  return NotSupported(system,
                      "turn results are protobuf (pbem.v1.TurnResult), written and read by "
                      "proto/codec, which the engine cannot link; register " +
                          std::string(make) + " with the codec's turn-result codec");
}

Status NoBundledScenario(std::string_view system, std::string_view name,
                         const std::vector<std::string>& bundled) {
  std::string list;
  for (const std::string& b : bundled) list += (list.empty() ? "" : ", ") + b;
  return Status(StatusCode::kNotFound, std::string(system) + ": no bundled scenario '" +
                                           std::string(name) +
                                           "' (bundled: " + (list.empty() ? "none" : list) + ")");
}

std::string LowerWord(std::string_view code) {
  std::string out(code);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace adapter
}  // namespace pbem::game_system
