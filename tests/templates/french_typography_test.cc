// The one spacing rule of the French words (templates/french_typography.h): U+00A0 before
// ':' ';' '!' '?' and inside « », in every French file under templates/, and a French table or
// template that breaks it does not load, naming the file and the line.
#include "templates/french_typography.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "engine/system/registry.h"
#include "templates/mail_render.h"
#include "templates/system_words.h"

namespace pbem::templates {
namespace {

namespace fs = std::filesystem;

const fs::path kTemplates = fs::path(PBEM_SOURCE_DIR) / "templates";

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// True when `path` lies in a directory named "fr".
bool IsFrench(const fs::path& path) {
  for (const fs::path& part : path.parent_path()) {
    if (part == "fr") return true;
  }
  return false;
}

TEST_CASE("every French file under templates/ follows the spacing rule") {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(kTemplates)) {
    if (entry.is_regular_file() && IsFrench(entry.path())) files.push_back(entry.path());
  }
  // The mail, league and archive words, the systems' tables: the walk found them.
  CHECK(files.size() > 80);
  CHECK(std::find(files.begin(), files.end(), kTemplates / "mail/fr/systems/units.table") !=
        files.end());
  CHECK(std::find(files.begin(), files.end(), kTemplates / "league/fr/welcome.txt") != files.end());
  for (const fs::path& file : files) {
    const std::vector<std::string> problems = FrenchSpacingProblems(file, Slurp(file));
    for (const std::string& problem : problems) INFO(problem);
    CHECK(problems.empty());
  }
}

TEST_CASE("the spacing check names the file and line of each breach") {
  const std::string nb(kNoBreakSpace);
  const auto problems = [](const std::string& text) {
    return FrenchSpacingProblems("f.txt", text);
  };
  // Right.
  CHECK(problems("Partie x" + nb + ": tour 2" + nb + "; bien" + nb + "! Vraiment" + nb + "?")
            .empty());
  CHECK(problems("la partie \xc2\xab" + nb + "{{game}}" + nb + "\xc2\xbb").empty());
  // Not punctuation: a colon glued to its word (syntax: keys, Re:, URLs, times), tags.
  CHECK(problems("Re: {{subject}}" + nb + ": http://x/?lang=fr 12:30 path: [\"1106\"]").empty());
  CHECK(problems("{{#a}}x{{/a}}{{! a : comment }}").empty());
  // Wrong, each named with its line.
  std::vector<std::string> found = problems("ok\nPartie x : tour\n");
  REQUIRE(found.size() == 1);
  CHECK(found[0].rfind("f.txt:2: an ordinary space before ':'", 0) == 0);
  for (const char* mark : {";", "!", "?"}) {
    found = problems(std::string("a ") + mark);
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "f.txt:1: an ordinary space before '" + std::string(mark) +
                          "' (French puts U+00A0 NO-BREAK SPACE there: templates/README.md)");
  }
  found = problems("a\xe2\x80\xaf; b\t: c{{#x}} :{{/x}}");  // U+202F, a tab, after a tag
  REQUIRE(found.size() == 3);
  CHECK(found[0].find("U+202F before ';'") != std::string::npos);
  CHECK(found[1].find("a tab before ':'") != std::string::npos);
  CHECK(found[2].find("an ordinary space before ':'") != std::string::npos);
  found = problems("\n\n\xc2\xab x \xc2\xbb \xc2\xab{{y}}\xc2\xbb");
  REQUIRE(found.size() == 4);
  CHECK(found[0].rfind("f.txt:3: an ordinary space after '\xc2\xab'", 0) == 0);
  CHECK(found[1].rfind("f.txt:3: an ordinary space before '\xc2\xbb'", 0) == 0);
  CHECK(found[2].rfind("f.txt:3: no space after '\xc2\xab'", 0) == 0);
  CHECK(found[3].rfind("f.txt:3: no space before '\xc2\xbb'", 0) == 0);
  const Status s = CheckFrenchSpacing("f.txt", "a : b ; c");
  CHECK_FALSE(s.ok);
  CHECK(s.message.rfind("f.txt:1: an ordinary space before ':'", 0) == 0);
  CHECK(s.message.find("(and 1 more)") != std::string::npos);
  CHECK(CheckFrenchSpacing("f.txt", "a" + nb + ": b").ok);
}

// A copy of templates/mail with `file` (under it) replaced by `text`, in a temporary directory.
fs::path MailDirWith(const std::string& file, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "pbem_french_typography_test";
  fs::remove_all(dir);
  fs::copy(kTemplates / "mail", dir, fs::copy_options::recursive);
  std::ofstream(dir / file, std::ios::trunc) << text;
  return dir;
}

std::string WithOrdinarySpaceAt(const std::string& text, const std::string& at) {
  std::string out = text;
  const std::size_t where = out.find(at);
  REQUIRE(where != std::string::npos);
  out.replace(where, at.size(), " :" + at.substr(kNoBreakSpace.size() + 1));
  return out;
}

TEST_CASE("French templates and tables with an ordinary space do not load, naming file and line") {
  const std::string nb(kNoBreakSpace);
  // Morne Plaine's words: events.table, the line of "move_stopped" (line 8).
  const std::string events = Slurp(kTemplates / "mail/fr/events.table");
  MailTemplates mail;
  Status s = MailTemplates::Load(
      MailDirWith("fr/events.table", WithOrdinarySpaceAt(events, nb + ": {{reason}}")), &mail);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("fr/events.table:8: an ordinary space before ':'") != std::string::npos);
  // A mail template.
  const std::string subject = Slurp(kTemplates / "mail/fr/results.subject");
  s = MailTemplates::Load(MailDirWith("fr/results.subject", WithOrdinarySpaceAt(subject, nb + ":")),
                          &mail);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("fr/results.subject:1: an ordinary space before ':'") != std::string::npos);
  // English is not French: the same space there loads.
  const std::string en_subject = Slurp(kTemplates / "mail/en/results.subject");
  CHECK(
      MailTemplates::Load(MailDirWith("en/results.subject", "Partie x : " + en_subject), &mail).ok);
  // A game system's table (SystemWords).
  const game_system::Registry registry = game_system::BuiltinRegistry();
  const game_system::GameSystem& wme = **registry.Find("wme");
  const std::string reasons = Slurp(kTemplates / "mail/fr/systems/wme/reasons.table");
  const fs::path dir =
      MailDirWith("fr/systems/wme/reasons.table", WithOrdinarySpaceAt(reasons, nb + ": elle est"));
  SystemWords words;
  s = SystemWords::Load(dir, "fr", wme, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("fr/systems/wme/reasons.table:16: an ordinary space before ':'") !=
        std::string::npos);
  // The untouched tables load.
  CHECK(SystemWords::Load(kTemplates / "mail", "fr", wme, &words).ok);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pbem::templates
