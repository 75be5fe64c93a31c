// An event's payload to and from its positional text form (the `args` of pbem.v1.Event):
// the fields in the order their Fields() visits them (engine/morne_plaine/event.h has the table).
#include <charconv>
#include <type_traits>
#include <utility>

#include "engine/morne_plaine/turn_result.h"

namespace pbem::engine {

namespace {

struct ArgWriter {
  std::vector<std::string>& out;

  void operator()(const char*, std::int64_t n) { out.push_back(std::to_string(n)); }
  void operator()(const char*, const std::string& s) { out.push_back(s); }
  template <typename T>
  void operator()(const char* name, const std::optional<T>& value) {
    if (value) (*this)(name, *value);
  }
  template <typename T>
  void operator()(const char*, const T& nested) {
    T::Fields(nested, *this);
  }
};

// Reads the args in order into the fields; the first problem names the field.
struct ArgReader {
  const std::vector<std::string>& args;
  std::string prefix;  // "combat." then nested names
  std::size_t next = 0;
  std::string problem;

  bool Take(const char* name, const std::string*& arg) {
    if (!problem.empty()) return false;
    if (next >= args.size()) {
      problem = prefix + name + ": missing (" + std::to_string(args.size()) + " arguments)";
      return false;
    }
    arg = &args[next++];
    return true;
  }
  void operator()(const char* name, std::int64_t& n) {
    const std::string* arg = nullptr;
    if (!Take(name, arg)) return;
    const char* end = arg->data() + arg->size();
    const auto [ptr, ec] = std::from_chars(arg->data(), end, n);
    if (arg->empty() || ec != std::errc() || ptr != end) {
      problem = prefix + name + ": '" + *arg + "' is not a whole number";
    }
  }
  void operator()(const char* name, std::string& s) {
    const std::string* arg = nullptr;
    if (Take(name, arg)) s = *arg;
  }
  // Optional fields come last: present when arguments remain.
  template <typename T>
  void operator()(const char* name, std::optional<T>& value) {
    if (!problem.empty() || next >= args.size()) return;
    (*this)(name, value.emplace());
  }
  template <typename T>
  void operator()(const char* name, T& nested) {
    const std::string outer = prefix;
    prefix += std::string(name) + ".";
    T::Fields(nested, *this);
    prefix = outer;
  }
};

template <std::size_t I = 0>
std::optional<EventBody> EmptyBody(EventKind kind) {
  if constexpr (I < std::variant_size_v<EventBody>) {
    if (static_cast<std::size_t>(kind) == I) {
      return EventBody(std::in_place_index<I>);
    }
    return EmptyBody<I + 1>(kind);
  } else {
    return std::nullopt;
  }
}

}  // namespace

std::optional<EventBody> EmptyEventBody(EventKind kind) { return EmptyBody(kind); }

std::vector<std::string> EventArgs(const EventBody& body) {
  std::vector<std::string> out;
  std::visit(
      [&out](const auto& fields) {
        std::decay_t<decltype(fields)>::Fields(fields, ArgWriter{out});
      },
      body);
  return out;
}

std::variant<EventBody, std::string> EventBodyFromArgs(EventKind kind,
                                                       const std::vector<std::string>& args) {
  std::optional<EventBody> body = EmptyEventBody(kind);
  if (!body) return std::string("kind: no payload for this kind");
  const std::string name(EventKindName(kind));
  ArgReader reader{args, "args: " + name + ".", 0, {}};
  std::visit([&reader](auto& fields) { std::decay_t<decltype(fields)>::Fields(fields, reader); },
             *body);
  if (reader.problem.empty() && reader.next < args.size()) {
    reader.problem = "args: " + name + " takes at most " + std::to_string(reader.next) +
                     " arguments, not " + std::to_string(args.size());
  }
  if (!reader.problem.empty()) return reader.problem;
  return std::move(*body);
}

}  // namespace pbem::engine
