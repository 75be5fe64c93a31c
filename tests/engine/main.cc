// Runs the engine test cases: all of them, or with an argument only those
// whose name contains it. Failures are printed as they happen; the last line
// is always "N passed, M failed" (counting test cases). The exit code is 0
// only if M == 0 and N > 0, so a filter that matches nothing fails.

#include <iostream>
#include <string_view>

#include "tests/engine/mini_test.h"

int main(int argc, char** argv) {
  namespace mt = ::pbem::engine::mini_test;
  const std::string_view filter = argc > 1 ? std::string_view(argv[1]) : "";
  int passed = 0;
  int failed = 0;
  for (const mt::TestCase& test : mt::Registry()) {
    if (std::string_view(test.name).find(filter) == std::string_view::npos) {
      continue;
    }
    mt::CurrentCaseFailed() = false;
    test.function();
    if (mt::CurrentCaseFailed()) {
      ++failed;
      std::cout << "[FAILED] " << test.name << "\n";
    } else {
      ++passed;
    }
  }
  std::cout << passed << " passed, " << failed << " failed" << std::endl;
  return (failed == 0 && passed > 0) ? 0 : 1;
}
