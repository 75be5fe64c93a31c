// The operational result of a game-system call (house style, errors 2): ok, or a code and a
// message naming what failed. Game outcomes (verdicts, events) are values, never a Status.
// The engine's own type because the engine links the standard library only; the daemon maps
// it onto its Status at its edge.
#ifndef PBEM_ENGINE_SYSTEM_STATUS_H_
#define PBEM_ENGINE_SYSTEM_STATUS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "engine/core/check.h"

namespace pbem::game_system {

enum class StatusCode : std::uint8_t {
  kOk,
  kUnknownSystem,    // no system registered under that name
  kNotFound,         // no such bundled scenario
  kInvalidArgument,  // bad data or bytes, or a handle of another system or kind
  kNotSupported,     // the system's engine lacks what the call needs (the message names it)
};
std::string_view StatusCodeName(StatusCode code);  // "ok", "unknown_system", ...

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status Ok() { return {}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// A value or the Status saying why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose
  Result(Status status) : v_(std::move(status)) { PBEM_CHECK(!std::get<Status>(v_).ok()); }

  bool ok() const { return std::holds_alternative<T>(v_); }
  const T& value() const& {
    PBEM_CHECK(ok());
    return std::get<T>(v_);
  }
  T&& value() && {
    PBEM_CHECK(ok());
    return std::get<T>(std::move(v_));
  }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  // The failure; Status::Ok() when there is a value.
  Status status() const { return ok() ? Status::Ok() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace pbem::game_system

#endif  // PBEM_ENGINE_SYSTEM_STATUS_H_
