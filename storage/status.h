// Status and Result<T>: how operational failures (I/O, database, configuration) travel.
//
// A Status is either OK or a code plus a human-readable message that carries its own context
// ("opening /data/pbem.sqlite: disk I/O error"). Result<T> holds either a T or a non-OK Status.
// Both are [[nodiscard]]: ignoring one is a compile error under -Werror.
//
// Game outcomes (invalid or illegal orders) are NOT Statuses; they are engine values.
// Programming errors (reading the value of a failed Result) abort with file and line.
#ifndef PBEM_STORAGE_STATUS_H_
#define PBEM_STORAGE_STATUS_H_

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace pbem {

enum class StatusCode {
  kOk,
  kInvalidArgument,     // the caller gave a bad value (e.g. a configuration key)
  kNotFound,            // the thing asked for does not exist
  kAlreadyExists,       // the thing to create exists already (e.g. a game id)
  kFailedPrecondition,  // the system is not in a state to do it (e.g. database too new)
  kIoError,             // a file, socket or database operation failed
  kUnavailable,         // the store cannot be reached now (connection lost); retry later
  kInternal,            // an unexpected failure in a library we call
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  // An OK status.
  Status() = default;

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status NotFound(std::string message) {
    return Status(StatusCode::kNotFound, std::move(message));
  }
  static Status AlreadyExists(std::string message) {
    return Status(StatusCode::kAlreadyExists, std::move(message));
  }
  static Status FailedPrecondition(std::string message) {
    return Status(StatusCode::kFailedPrecondition, std::move(message));
  }
  static Status IoError(std::string message) {
    return Status(StatusCode::kIoError, std::move(message));
  }
  static Status Unavailable(std::string message) {
    return Status(StatusCode::kUnavailable, std::move(message));
  }
  static Status Internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "OK", or "<code name>: <message>".
  std::string ToString() const {
    if (ok()) return "OK";
    return std::string(StatusCodeName(code_)) + ": " + message_;
  }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "OK";
    case StatusCode::kInvalidArgument:
      return "INVALID_ARGUMENT";
    case StatusCode::kNotFound:
      return "NOT_FOUND";
    case StatusCode::kAlreadyExists:
      return "ALREADY_EXISTS";
    case StatusCode::kFailedPrecondition:
      return "FAILED_PRECONDITION";
    case StatusCode::kIoError:
      return "IO_ERROR";
    case StatusCode::kUnavailable:
      return "UNAVAILABLE";
    case StatusCode::kInternal:
      return "INTERNAL";
  }
  return "UNKNOWN";
}

namespace status_internal {
// The caller's file and line, taken through default arguments. Not std::source_location:
// clang 14 with libstdc++ 12 has no usable one.
struct CallSite {
  static constexpr CallSite Here(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    return CallSite{file, line};
  }
  const char* file;
  int line;
};

[[noreturn]] inline void DieBadAccess(const char* what, const Status& status, CallSite where) {
  std::fprintf(stderr, "%s:%d: CHECK failed: %s: %s\n", where.file, where.line, what,
               status.ToString().c_str());
  std::abort();
}
}  // namespace status_internal

// Either a T or a non-OK Status.
// REQUIRES: a Result is never built from an OK Status (that aborts).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status,                          // NOLINT: implicit by design
         status_internal::CallSite where = status_internal::CallSite::Here())
      : state_(std::move(status)) {
    if (std::get<Status>(state_).ok()) {
      status_internal::DieBadAccess("Result built from an OK Status", Status::Ok(), where);
    }
  }

  bool ok() const { return std::holds_alternative<T>(state_); }

  // OK when the Result holds a value.
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(state_);
  }

  // REQUIRES: ok(). Otherwise aborts, naming the caller's file and line.
  const T& value(status_internal::CallSite where = status_internal::CallSite::Here()) const& {
    if (!ok()) status_internal::DieBadAccess("value() of a failed Result", status(), where);
    return std::get<T>(state_);
  }
  T& value(status_internal::CallSite where = status_internal::CallSite::Here()) & {
    if (!ok()) status_internal::DieBadAccess("value() of a failed Result", status(), where);
    return std::get<T>(state_);
  }
  T&& value(status_internal::CallSite where = status_internal::CallSite::Here()) && {
    if (!ok()) status_internal::DieBadAccess("value() of a failed Result", status(), where);
    return std::get<T>(std::move(state_));
  }
  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace pbem

#endif  // PBEM_STORAGE_STATUS_H_
