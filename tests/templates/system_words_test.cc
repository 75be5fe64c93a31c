// A game system's verdicts worded from its sentence tables (templates/system_words.h,
// templates/mail/<lang>/systems/): every reason code of every registered system has a sentence
// in each language, real verdicts of CheckOrders on the bundled scenarios become sentences with
// their arguments (lengths in each language's words), and a table that misses or adds a code
// does not load.
#include "templates/system_words.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "engine/m42/orders.h"
#include "engine/m42/scenarios.h"
#include "engine/system/m42.h"
#include "engine/system/registry.h"
#include "engine/system/wme.h"
#include "engine/wme/orders.h"
#include "proto/codec/systems.h"
#include "templates/mail_render.h"
#include "tests/engine/system/data_files.h"

namespace pbem::templates {
namespace {

namespace gs = game_system;

const std::filesystem::path kMailDir = DefaultMailTemplateDir(PBEM_SOURCE_DIR);
constexpr const char* kLanguages[] = {"en", "fr"};

SystemWords LoadWords(const gs::GameSystem& system, const char* language) {
  SystemWords words;
  const Status s = SystemWords::Load(kMailDir, language, system, &words);
  INFO(s.message);
  REQUIRE(s.ok);
  return words;
}

std::string Worded(const SystemWords& words, const gs::Verdict& v) {
  std::string out;
  const Status s = words.Sentence(v, &out);
  INFO(s.message);
  REQUIRE(s.ok);
  return out;
}

// What a player must never read: a reason code, a field left over, an empty sentence.
void CheckPlayerText(const std::string& sentence, const std::string& code) {
  INFO(sentence);
  CHECK_FALSE(sentence.empty());
  CHECK(sentence.find(code) == std::string::npos);
  CHECK(sentence.find("{{") == std::string::npos);
  CHECK_FALSE(std::regex_search(sentence, std::regex("[A-Z]+_[A-Z_]+")));
}

gs::Verdict VerdictOf(std::string reason, std::vector<gs::Arg> args) {
  gs::Verdict v;
  v.order = "move";
  v.unit = "b_inf1";
  v.kind = gs::VerdictKind::kIllegal;
  v.reason = std::move(reason);
  v.args = std::move(args);
  return v;
}

TEST_CASE("every reason code of every system has a sentence in each language") {
  const gs::Registry registry = codec::SystemRegistry();
  for (const std::string_view name : {"m42", "wme"}) {
    const gs::GameSystem& system = **registry.Find(name);
    REQUIRE_FALSE(system.ReasonCodes().empty());
    for (const char* language : kLanguages) {
      INFO(std::string(name) + " " + language);
      const SystemWords words = LoadWords(system, language);
      for (const std::string& code : system.ReasonCodes()) {
        INFO(code);
        CHECK_FALSE(code.empty());
        // Every argument a code of these systems can carry, so that no field is left empty.
        const gs::Verdict v =
            VerdictOf(code, {{"model", "a1"},
                             {"base", "b_inf1.1"},
                             {"other", "x1"},
                             {"value", "2500", std::string(gs::kThousandthsOfACm)},
                             {"limit", "2000", std::string(gs::kThousandthsOfACm)},
                             {"detail", "engaged"}});
        CheckPlayerText(Worded(words, v), code);
      }
    }
  }
}

TEST_CASE("the codes come from the engines") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const std::vector<std::string> m42 = (*registry.Find("m42"))->ReasonCodes();
  CHECK(m42.front() == "UNKNOWN_UNIT");
  CHECK(m42.back() == "COHERENCY");
  const std::vector<std::string> wme = (*registry.Find("wme"))->ReasonCodes();
  CHECK(std::find(wme.begin(), wme.end(), "SUPPORT_NOT_ELIGIBLE") != wme.end());
  CHECK(wme.back() == "TARGET_NOT_ENEMY");
  const std::vector<std::string> mp = (*registry.Find("morne-plaine"))->ReasonCodes();
  CHECK(std::find(mp.begin(), mp.end(), "hex_off_map") != mp.end());
}

TEST_CASE("lengths and numbers in each language") {
  CHECK(ThousandthsText(2500, ".") == "2.5");
  CHECK(ThousandthsText(12000, ",") == "12");
  CHECK(ThousandthsText(1, ",") == "0,001");
  CHECK(ThousandthsText(-1250, ".") == "-1.25");
  CHECK(ThousandthsText(2030, ",") == "2,03");
  const gs::Registry registry = gs::BuiltinRegistry();
  const gs::GameSystem& m42 = **registry.Find("m42");
  const std::string inch(gs::kThousandthsOfAnInch);
  const std::string cm(gs::kThousandthsOfACm);
  const SystemWords en = LoadWords(m42, "en");
  const SystemWords fr = LoadWords(m42, "fr");
  CHECK(en.ArgText({"value", "2500", inch}) == "2.5\"");
  CHECK(en.ArgText({"value", "2500", cm}) == "2.5 cm");
  CHECK(fr.ArgText({"value", "2500", inch}) == "2,5\u00a0pouces");
  CHECK(fr.ArgText({"value", "1500", inch}) == "1,5\u00a0pouce");
  CHECK(fr.ArgText({"value", "1000", inch}) == "1\u00a0pouce");
  CHECK(fr.ArgText({"value", "2000", inch}) == "2\u00a0pouces");
  CHECK(fr.ArgText({"value", "12345", cm}) == "12,345\u00a0cm");
  // Not a length: as given.
  CHECK(fr.ArgText({"value", "3", ""}) == "3");
}

TEST_CASE("an M42 verdict of CheckOrders on the pumping station, worded") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& m42 = **registry.Find("m42");
  const gs::Result<gs::Setup> setup = m42.LoadBundled(m42::kPumpingStationName);
  REQUIRE(setup.ok());
  const gs::Result<gs::State> start = m42.InitialState(*setup, "g1");
  REQUIRE(start.ok());
  // b_sq1_1 stands at (6", 5"); an Advance of 11.5" is more than its 5".
  m42::Orders orders;
  orders.player = "blue";
  m42::UnitOrder action;
  action.unit = "b_sq1";
  action.models.push_back(m42::ModelOrder{"b_sq1_1", {{6000, 5000, {}}, {6000, 16500, {}}}, {}});
  orders.actions.push_back(action);
  const auto verdicts = m42.CheckOrders(*setup, *start, gs::M42OrdersOf(orders), 0);
  REQUIRE(verdicts.ok());
  REQUIRE(verdicts->size() == 1);
  const gs::Verdict& v = verdicts->front();
  REQUIRE(v.reason == "EXCEEDS_ALLOWANCE");
  const std::string en = Worded(LoadWords(m42, "en"), v);
  CheckPlayerText(en, v.reason);
  CHECK(en == "model b_sq1_1 would move 11.5\", more than its allowance of 5\".");
  const std::string fr = Worded(LoadWords(m42, "fr"), v);
  CheckPlayerText(fr, v.reason);
  CHECK(fr ==
        "la figurine b_sq1_1 parcourrait 11,5\u00a0pouces, plus que son mouvement autorisé de "
        "5\u00a0pouces.");
}

TEST_CASE("a wme verdict of CheckOrders on la palissade, worded") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& wme = **registry.Find("wme");
  const gs::Result<gs::Setup> setup =
      wme.Load(gs::test::BundledData("wme", "wme/palissade.textproto"));
  REQUIRE(setup.ok());
  const gs::Result<gs::State> start = wme.InitialState(*setup, "g1");
  REQUIRE(start.ok());
  // Base b_inf1.1 stands at (56 cm, 20 cm): 50 cm straight ahead is beyond an infantry move.
  wme::MoveOrder move;
  move.unit = "b_inf1";
  wme::LegOrder leg;
  leg.x = 56000;
  leg.y = 70000;
  move.bases.push_back(wme::BaseOrder{"b_inf1.1", {leg}});
  const wme::TurnOrders orders{"blue", {}, {move}};
  const auto verdicts = wme.CheckOrders(*setup, *start, gs::WmeOrdersOf(orders), 7);
  REQUIRE(verdicts.ok());
  REQUIRE(verdicts->size() == 1);
  const gs::Verdict& v = verdicts->front();
  REQUIRE(v.reason == "EXCEEDS_ALLOWANCE");
  const std::string en = Worded(LoadWords(wme, "en"), v);
  CheckPlayerText(en, v.reason);
  CHECK(en.find("base b_inf1.1 would travel 50 cm") == 0);
  const std::string fr = Worded(LoadWords(wme, "fr"), v);
  CheckPlayerText(fr, v.reason);
  CHECK(fr.find("le socle b_inf1.1 parcourrait 50\u00a0cm, plus que sa distance autorisée de ") ==
        0);
}

TEST_CASE("SUPPORT_NOT_ELIGIBLE names why, in both languages") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const gs::GameSystem& wme = **registry.Find("wme");
  const SystemWords en = LoadWords(wme, "en");
  const SystemWords fr = LoadWords(wme, "fr");
  const auto support = [](const char* detail) {
    gs::Verdict v = VerdictOf("SUPPORT_NOT_ELIGIBLE", {{"other", "b_inf2"}, {"detail", detail}});
    v.kind = gs::VerdictKind::kOk;  // a warning: the charge goes on without the supporter
    return v;
  };
  CHECK(Worded(en, support("not_behind")) ==
        "unit b_inf1 charges without the support of b_inf2: b_inf2 is not right behind it (a base "
        "touching the rear edge of a charging base, facing the same way).");
  CHECK(Worded(fr, support("not_infantry")) ==
        "l'unité b_inf1 charge sans le soutien de b_inf2\u00a0: seule l'infanterie peut faire une "
        "charge de soutien.");
  for (const char* detail : {"charger", "not_own", "not_infantry", "confused", "engaged", "moved",
                             "not_behind", "no_place"}) {
    for (const SystemWords* words : {&en, &fr}) {
      const std::string s = Worded(*words, support(detail));
      CheckPlayerText(s, "SUPPORT_NOT_ELIGIBLE");
      // The condition is worded: the sentence goes on after the colon.
      INFO(detail << ": " << s);
      CHECK(s.size() > s.find(':') + 4);
    }
  }
}

// A copy of the tables with one file changed, in a temporary directory.
std::filesystem::path TablesWith(const std::string& file, const std::string& text) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "pbem_system_words_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "en");
  std::filesystem::copy(kMailDir / "en" / "systems", dir / "en" / "systems",
                        std::filesystem::copy_options::recursive);
  std::ofstream(dir / "en" / "systems" / file, std::ios::trunc) << text;
  return dir;
}

std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_CASE("a table that misses or adds a code does not load, naming it") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const gs::GameSystem& m42 = **registry.Find("m42");
  const std::string table = Slurp(kMailDir / "en" / "systems" / "m42" / "reasons.table");
  SystemWords words;

  const std::string missing =
      std::regex_replace(table, std::regex("\nCOHERENCY:[^\n]*"), std::string());
  REQUIRE(missing != table);
  Status s = SystemWords::Load(TablesWith("m42/reasons.table", missing), "en", m42, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("m42/reasons.table") != std::string::npos);
  CHECK(s.message.find("no sentence for 'COHERENCY'") != std::string::npos);

  s = SystemWords::Load(TablesWith("m42/reasons.table", table + "NOT_A_CODE: hello.\n"), "en", m42,
                        &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("'NOT_A_CODE' is not a reason code of m42") != std::string::npos);

  s = SystemWords::Load(TablesWith("units.table", "decimal_mark: .\nin/1000: {{number}}\"\n"), "en",
                        m42, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("no sentence for 'cm/1000'") != std::string::npos);

  const std::string broken = std::regex_replace(table, std::regex("\nCOHERENCY:[^\n]*"),
                                                std::string("\nCOHERENCY: {{#model}} open"));
  s = SystemWords::Load(TablesWith("m42/reasons.table", broken), "en", m42, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("m42/reasons.table:") != std::string::npos);  // file:line, the parser's
  CHECK(s.message.find("model") != std::string::npos);               // the unclosed section

  s = SystemWords::Load(kMailDir, "xx", m42, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("cannot be read") != std::string::npos);
  std::filesystem::remove_all(std::filesystem::temp_directory_path() / "pbem_system_words_test");
}

TEST_CASE("wme declares the condition words its engine gives, and each table words them all") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const std::vector<gs::ConditionArg> conditions = (*registry.Find("wme"))->ConditionArgs();
  REQUIRE(conditions.size() == 2);
  CHECK(conditions[0] == gs::ConditionArg{"UNIT_CANNOT_MOVE", "detail", {"confused", "engaged"}});
  CHECK(conditions[1] == gs::ConditionArg{"SUPPORT_NOT_ELIGIBLE",
                                          "detail",
                                          {"charger", "not_own", "not_infantry", "confused",
                                           "engaged", "moved", "not_behind", "no_place"}});
  CHECK((*registry.Find("m42"))->ConditionArgs().empty());
  CHECK((*registry.Find("morne-plaine"))->ConditionArgs().empty());
}

TEST_CASE("a table that does not word a condition word does not load, naming file and code") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const gs::GameSystem& wme = **registry.Find("wme");
  const std::string table = Slurp(kMailDir / "en" / "systems" / "wme" / "reasons.table");
  SystemWords words;
  // SUPPORT_NOT_ELIGIBLE without its not_behind section: the player would read "...: ."
  const std::string section =
      "{{#detail_not_behind}}{{other}} is not right behind it (a base touching the rear edge of a "
      "charging base, facing the same way){{/detail_not_behind}}";
  const std::size_t at = table.find(section);
  REQUIRE(at != std::string::npos);
  std::string missing = table;
  missing.erase(at, section.size());
  Status s = SystemWords::Load(TablesWith("wme/reasons.table", missing), "en", wme, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("wme/reasons.table") != std::string::npos);
  CHECK(s.message.find("SUPPORT_NOT_ELIGIBLE") != std::string::npos);
  CHECK(s.message.find("'not_behind'") != std::string::npos);
  CHECK(s.message.find("{{#detail_not_behind}}") != std::string::npos);
  // A section that is there but says nothing is the same empty clause.
  std::string empty = table;
  empty.replace(at, section.size(), "{{#detail_not_behind}}{{/detail_not_behind}}");
  s = SystemWords::Load(TablesWith("wme/reasons.table", empty), "en", wme, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("'not_behind'") != std::string::npos);
  // The code shown as it is ({{detail}}) is not a wording either.
  std::string raw = table;
  raw.replace(at, section.size(), "{{detail}}");
  s = SystemWords::Load(TablesWith("wme/reasons.table", raw), "en", wme, &words);
  CHECK_FALSE(s.ok);
  // The table as it is loads.
  CHECK(SystemWords::Load(TablesWith("wme/reasons.table", table), "en", wme, &words).ok);
  std::filesystem::remove_all(std::filesystem::temp_directory_path() / "pbem_system_words_test");
}

TEST_CASE("a verdict without a reason has no sentence; another system's code is an error") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const SystemWords words = LoadWords(**registry.Find("m42"), "en");
  std::string out = "x";
  CHECK(words.Sentence(VerdictOf("", {}), &out).ok);
  CHECK(out.empty());
  CHECK_FALSE(words.Sentence(VerdictOf("hex_off_map", {}), &out).ok);
}

TEST_CASE("what a player wrote comes back cut, without control characters") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const SystemWords words = LoadWords(**registry.Find("m42"), "en");
  gs::Verdict v = VerdictOf("UNKNOWN_MODEL", {gs::Arg{"model", std::string(5000, 'm')}});
  v.unit = "b_sq1\nBcc: x";
  std::string out;
  REQUIRE(words.Sentence(v, &out).ok);
  CHECK(out.find(std::string(64, 'm') + "...") != std::string::npos);
  CHECK(out.find(std::string(65, 'm')) == std::string::npos);
  CHECK(out.find('\n') == std::string::npos);
}

}  // namespace
}  // namespace pbem::templates
