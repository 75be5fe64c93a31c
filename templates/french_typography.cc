#include "templates/french_typography.h"

namespace pbem::templates {

namespace {

constexpr std::string_view kNarrowNoBreakSpace = "\xe2\x80\xaf";  // U+202F
constexpr std::string_view kOpenQuote = "\xc2\xab";               // «
constexpr std::string_view kCloseQuote = "\xc2\xbb";              // »

// `text` with every mustache tag's bytes replaced by '\x01' (newlines kept, so that line numbers
// hold): a tag is not text, but it is something, so «{{x}} still lacks its space.
std::string WithoutTags(std::string_view text) {
  std::string out(text);
  std::size_t at = 0;
  while ((at = out.find("{{", at)) != std::string::npos) {
    const std::size_t end = out.find("}}", at + 2);
    const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
    for (std::size_t i = at; i < stop; ++i) {
      if (out[i] != '\n') out[i] = '\x01';
    }
    at = stop;
  }
  return out;
}

bool EndsWith(std::string_view text, std::size_t end, std::string_view suffix) {
  return end >= suffix.size() && text.substr(end - suffix.size(), suffix.size()) == suffix;
}

// What stands before position `at` when it is a space of the wrong kind, else "".
std::string_view WrongSpaceBefore(std::string_view text, std::size_t at) {
  if (at > 0 && text[at - 1] == ' ') return "an ordinary space";
  if (at > 0 && text[at - 1] == '\t') return "a tab";
  if (EndsWith(text, at, kNarrowNoBreakSpace)) return "U+202F";
  return {};
}

}  // namespace

std::vector<std::string> FrenchSpacingProblems(const std::filesystem::path& path,
                                               std::string_view text) {
  const std::string masked = WithoutTags(text);
  const std::string_view t = masked;
  std::vector<std::string> problems;
  int line = 1;
  const auto add = [&](const std::string& what) {
    problems.push_back(path.string() + ":" + std::to_string(line) + ": " + what +
                       " (French puts U+00A0 NO-BREAK SPACE there: templates/README.md)");
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '\n') {
      ++line;
    } else if (c == ':' || c == ';' || c == '!' || c == '?') {
      if (const std::string_view wrong = WrongSpaceBefore(t, i); !wrong.empty()) {
        add(std::string(wrong) + " before '" + std::string(1, c) + "'");
      }
    } else if (t.substr(i, kCloseQuote.size()) == kCloseQuote) {
      if (const std::string_view wrong = WrongSpaceBefore(t, i); !wrong.empty()) {
        add(std::string(wrong) + " before '\xc2\xbb'");
      } else if (!EndsWith(t, i, kNoBreakSpace)) {
        add("no space before '\xc2\xbb'");
      }
      ++i;
    } else if (t.substr(i, kOpenQuote.size()) == kOpenQuote) {
      const std::string_view after = t.substr(i + kOpenQuote.size());
      if (after.substr(0, kNoBreakSpace.size()) != kNoBreakSpace) {
        add(after.empty() || after[0] == '\n' ? "no space after '\xc2\xab'"
            : after[0] == ' '                 ? "an ordinary space after '\xc2\xab'"
            : after[0] == '\t'                ? "a tab after '\xc2\xab'"
            : after.substr(0, kNarrowNoBreakSpace.size()) == kNarrowNoBreakSpace
                ? "U+202F after '\xc2\xab'"
                : "no space after '\xc2\xab'");
      }
      ++i;
    }
  }
  return problems;
}

Status CheckFrenchSpacing(const std::filesystem::path& path, std::string_view text) {
  const std::vector<std::string> problems = FrenchSpacingProblems(path, text);
  if (problems.empty()) return Status::Ok();
  std::string message = problems.front();
  if (problems.size() > 1) message += " (and " + std::to_string(problems.size() - 1) + " more)";
  return Status::Error(message);
}

}  // namespace pbem::templates
