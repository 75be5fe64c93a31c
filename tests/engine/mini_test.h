// A tiny self-registering test harness for the engine tests, so that the
// engine builds and tests with the C++ standard library alone.
//
//   TEST_CASE_MINI(HexDistanceIsSymmetric) { CHECK_EQ_MINI(Distance(a, b), 3);
//   }
//
// TEST_CASE_MINI(name) defines a test case; `name` must be an identifier
// unique within its file. CHECK_MINI / CHECK_EQ_MINI record a failure and
// continue; REQUIRE_MINI records a failure and returns from the enclosing
// function, so use it only directly in a test case body (or in a helper
// returning void). CHECK_EQ_MINI prints both values when they can be written
// to a std::ostream (std::optional prints its value or "nullopt"). As with
// any macro, wrap an argument holding a top-level comma in parentheses:
// CHECK_EQ_MINI(h, (Hex{1, 2})).
// main.cc runs the cases and prints the summary.

#ifndef PBEM_TESTS_ENGINE_MINI_TEST_H_
#define PBEM_TESTS_ENGINE_MINI_TEST_H_

#include <concepts>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace pbem::engine::mini_test {

struct TestCase {
  const char* name;
  void (*function)();
};

// All registered cases, in registration order (per file, definition order).
inline std::vector<TestCase>& Registry() {
  static std::vector<TestCase> cases;
  return cases;
}

// Set by a failing check, reset by the runner before each case.
inline bool& CurrentCaseFailed() {
  static bool failed = false;
  return failed;
}

struct Registrar {
  Registrar(const char* name, void (*function)()) {
    Registry().push_back(TestCase{name, function});
  }
};

inline void ReportFailure(const char* file, int line, const std::string& what) {
  CurrentCaseFailed() = true;
  std::cout << file << ":" << line << ": FAILED " << what << "\n";
}

template <typename T>
concept Streamable = requires(std::ostream& os, const T& value) {
  os << value;
};

template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <typename T>
std::string Describe(const T& value) {
  std::ostringstream out;
  if constexpr (std::is_same_v<T, bool>) {
    out << (value ? "true" : "false");
  } else if constexpr (std::is_same_v<T, char>) {
    out << "'" << value << "'";
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    // Widened so that std::int8_t prints as a number, not a character.
    out << static_cast<long long>(value);
  } else if constexpr (std::is_integral_v<T>) {
    out << static_cast<unsigned long long>(value);
  } else if constexpr (std::is_enum_v<T> && !Streamable<T>) {
    out << "enum " << static_cast<long long>(value);
  } else if constexpr (IsOptional<T>::value) {
    if (value.has_value()) {
      out << Describe(*value);
    } else {
      out << "nullopt";
    }
  } else if constexpr (Streamable<T>) {
    out << value;
  } else {
    out << "<unprintable>";
  }
  return out.str();
}

// Integers of different types compare by value (std::cmp_equal) so that a
// check such as CHECK_EQ_MINI(vec.size(), 3) neither warns nor lies.
template <typename T>
concept CmpInteger =
    std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char> &&
    !std::is_same_v<T, wchar_t> && !std::is_same_v<T, char8_t> && !std::is_same_v<T, char16_t> &&
    !std::is_same_v<T, char32_t>;

template <typename A, typename B>
bool Equal(const A& a, const B& b) {
  if constexpr (CmpInteger<A> && CmpInteger<B>) {
    return std::cmp_equal(a, b);
  } else {
    return a == b;
  }
}

template <typename A, typename B>
bool CheckEqual(const A& a, const B& b, const char* file, int line, const char* a_text,
                const char* b_text) {
  if (Equal(a, b)) return true;
  ReportFailure(file, line,
                std::string("CHECK_EQ_MINI(") + a_text + ", " + b_text +
                    ")\n    left:  " + Describe(a) + "\n    right: " + Describe(b));
  return false;
}

}  // namespace pbem::engine::mini_test

#define TEST_CASE_MINI(name)                                                                       \
  static void name();                                                                              \
  [[maybe_unused]] static const ::pbem::engine::mini_test::Registrar name##_mini_registrar(#name,  \
                                                                                           &name); \
  static void name()

#define CHECK_MINI(cond)                                                                     \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      ::pbem::engine::mini_test::ReportFailure(__FILE__, __LINE__, "CHECK_MINI(" #cond ")"); \
    }                                                                                        \
  } while (false)

#define CHECK_EQ_MINI(a, b)                                                      \
  do {                                                                           \
    ::pbem::engine::mini_test::CheckEqual((a), (b), __FILE__, __LINE__, #a, #b); \
  } while (false)

#define REQUIRE_MINI(cond)                                                                     \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      ::pbem::engine::mini_test::ReportFailure(__FILE__, __LINE__, "REQUIRE_MINI(" #cond ")"); \
      return;                                                                                  \
    }                                                                                          \
  } while (false)

#endif  // PBEM_TESTS_ENGINE_MINI_TEST_H_
