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

// A game at its start.
struct Game {
  gs::Setup setup;
  gs::State start;
};
Game Started(const gs::GameSystem& system, const gs::Result<gs::Setup>& setup) {
  REQUIRE(setup.ok());
  const gs::Result<gs::State> start = system.InitialState(*setup, "g1");
  REQUIRE(start.ok());
  return Game{*setup, *start};
}

// On the pumping station, blue's Advance of b_sq1 moving b_sq1_1 from where it stands, (6", 5"),
// straight up the table to (6", `to_y` thousandths).
gs::Orders Sq1AdvanceTo(std::int64_t to_y) {
  m42::Orders orders;
  orders.player = "blue";
  m42::UnitOrder action;
  action.unit = "b_sq1";
  action.models.push_back(m42::ModelOrder{"b_sq1_1", {{6000, 5000, {}}, {6000, to_y, {}}}, {}});
  orders.actions.push_back(action);
  return gs::M42OrdersOf(orders);
}

TEST_CASE("an M42 verdict of CheckOrders on the pumping station, worded") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& m42 = **registry.Find("m42");
  const Game game = Started(m42, m42.LoadBundled(m42::kPumpingStationName));
  // b_sq1_1 stands at (6", 5"); an Advance of 11.5" is more than its 5".
  const auto verdicts = m42.CheckOrders(game.setup, game.start, Sq1AdvanceTo(16500), 0);
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
  const Game game = Started(wme, wme.Load(gs::test::BundledData("wme", "wme/palissade.textproto")));
  // Base b_inf1.1 stands at (56 cm, 20 cm): 50 cm straight ahead is beyond an infantry move.
  wme::MoveOrder move;
  move.unit = "b_inf1";
  wme::LegOrder leg;
  leg.x = 56000;
  leg.y = 70000;
  move.bases.push_back(wme::BaseOrder{"b_inf1.1", {leg}});
  const wme::TurnOrders orders{"blue", {}, {move}};
  const auto verdicts = wme.CheckOrders(game.setup, game.start, gs::WmeOrdersOf(orders), 7);
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

// Load with the English `file` (under systems/) missing the line of `key`.
Status LoadWithout(const gs::GameSystem& system, const std::string& file, const std::string& key,
                   SystemWords* words) {
  const std::string table = Slurp(kMailDir / "en" / "systems" / file);
  const std::string missing =
      std::regex_replace(table, std::regex("\n" + key + ":[^\n]*"), std::string());
  REQUIRE(missing != table);
  return SystemWords::Load(TablesWith(file, missing), "en", system, words);
}

TEST_CASE("a table that misses or adds a code does not load, naming it") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const gs::GameSystem& m42 = **registry.Find("m42");
  const std::string table = Slurp(kMailDir / "en" / "systems" / "m42" / "reasons.table");
  SystemWords words;

  Status s = LoadWithout(m42, "m42/reasons.table", "COHERENCY", &words);
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

// ---- Events (Event::unit and Event::args, systems/<system>/events.table) ----

namespace {

std::string EventWorded(const SystemWords& words, const gs::Event& e) {
  std::string out;
  const Status s = words.EventSentence(e, &out);
  INFO(e.kind << ": " << s.message);
  REQUIRE(s.ok);
  return out;
}

gs::Event EventOf(std::string kind, std::string unit, std::vector<gs::Arg> args) {
  gs::Event e;
  e.kind = std::move(kind);
  e.unit = std::move(unit);
  e.args = std::move(args);
  return e;
}

const gs::Event* FindEvent(const std::vector<gs::Event>& events, const std::string& kind) {
  const auto it = std::find_if(events.begin(), events.end(),
                               [&kind](const gs::Event& e) { return e.kind == kind; });
  return it == events.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("the event kinds come from the engines, in their order") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const std::vector<std::string> m42 = (*registry.Find("m42"))->EventKinds();
  CHECK(m42 == std::vector<std::string>{"unit_acted", "unit_held", "model_moved", "model_turned",
                                        "slow_going", "difficult_going", "closest_enemy",
                                        "close_combat_joined", "action_phase_ended"});
  const std::vector<std::string> wme = (*registry.Find("wme"))->EventKinds();
  CHECK(wme.size() == 11);
  CHECK(wme.front() == "unit_moved");
  CHECK(wme.back() == "supporting_charge");
  const std::vector<std::string> mp = (*registry.Find("morne-plaine"))->EventKinds();
  CHECK(mp.size() == 23);
  CHECK(mp.front() == "command_check");
  CHECK(std::find(mp.begin(), mp.end(), "move_step") != mp.end());
}

TEST_CASE("every event kind of m42 and wme has a sentence in each language") {
  const gs::Registry registry = codec::SystemRegistry();
  const std::string inch(gs::kThousandthsOfAnInch);
  const std::string cm(gs::kThousandthsOfACm);
  const std::string deg(gs::kThousandthsOfADegree);
  for (const std::string_view name : {"m42", "wme"}) {
    const gs::GameSystem& system = **registry.Find(name);
    const std::string length = name == "m42" ? inch : cm;
    for (const char* language : kLanguages) {
      INFO(std::string(name) + " " + language);
      const SystemWords words = LoadWords(system, language);
      for (const std::string& kind : system.EventKinds()) {
        // Every argument either system's events carry, so that no field is left empty.
        const gs::Event e = EventOf(kind, "b_inf1",
                                    {{"model", "b_sq1_1"},
                                     {"enemy", "r_sq1_1"},
                                     {"enemy_unit", "r_sq1"},
                                     {"feature", "wall1"},
                                     {"player", "blue"},
                                     {"turn", "2"},
                                     {"length", "3500", length},
                                     {"distance", "1000", length},
                                     {"allowance", "2000", length},
                                     {"from_x", "6000", length},
                                     {"from_y", "5000", length},
                                     {"to_x", "6000", length},
                                     {"to_y", "8500", length},
                                     {"from_floor", "0"},
                                     {"to_floor", "1"},
                                     {"facing", "90000", deg},
                                     {"action", "advance"},
                                     {"fire", "none"},
                                     {"reason", "OFF_TABLE"},
                                     {"base", "b_inf1.1"},
                                     {"target_base", "r_cav.1"},
                                     {"evader", "b_inf1"},
                                     {"crossed", "b_inf2"},
                                     {"charger", "b_cav"},
                                     {"target", "r_cav"},
                                     {"supporter", "b_inf2"},
                                     {"roll", "4"},
                                     {"travelled", "5000", length},
                                     {"from_heading", "90000", deg},
                                     {"to_heading", "0", deg},
                                     {"kind", "advance"},
                                     {"by_initiative", "false"},
                                     {"formation", "line"},
                                     {"confused", "false"},
                                     {"side", "front"}});
        const std::string sentence = EventWorded(words, e);
        CheckPlayerText(sentence, kind);
        // A reason code is never shown (unit_held: the verdicts say why).
        CHECK(sentence.find("OFF_TABLE") == std::string::npos);
      }
    }
  }
}

TEST_CASE("each word an event arg can carry is worded, differently") {
  const gs::Registry registry = gs::BuiltinRegistry();
  struct Words {
    std::string_view system;
    std::string kind;
    std::string arg;
    std::vector<std::string> values;
  };
  const Words all[] = {
      {"m42", "unit_acted", "action", {"advance", "at_the_double", "open_fire", "get_down"}},
      {"m42", "unit_acted", "fire", {"none", "before_move", "after_move"}},
      {"wme", "unit_moved", "kind", {"advance", "evade"}},
      {"wme", "unit_moved", "by_initiative", {"true", "false"}},
      {"wme", "formation_now", "formation", {"line", "column", "irregular", "none"}},
      {"wme", "confusion_test", "confused", {"true", "false"}},
      {"wme", "charge_contact", "side", {"front", "left_flank", "right_flank", "rear"}},
  };
  for (const char* language : kLanguages) {
    for (const Words& w : all) {
      const SystemWords words = LoadWords(**registry.Find(w.system), language);
      std::vector<std::string> seen;
      for (const std::string& value : w.values) {
        INFO(language << " " << w.kind << " " << w.arg << " " << value);
        std::vector<gs::Arg> args{{w.arg, value}};
        // The other word args of the kind at a value, so only `arg` changes.
        if (w.arg == "fire") args.push_back({"action", "advance"});
        if (w.arg == "action") args.push_back({"fire", "none"});
        if (w.arg == "by_initiative") args.push_back({"kind", "advance"});
        if (w.arg == "kind") args.push_back({"by_initiative", "false"});
        const std::string s = EventWorded(words, EventOf(w.kind, "u1", args));
        CheckPlayerText(s, w.kind);
        // Without the arg the clause is gone: the word is what the sentence says (but fire
        // "none": an action without fire says nothing of it).
        args.erase(args.begin());
        if (w.arg != "fire" || value != "none") {
          CHECK(EventWorded(words, EventOf(w.kind, "u1", args)) != s);
        }
        CHECK(std::find(seen.begin(), seen.end(), s) == seen.end());
        seen.push_back(s);
      }
    }
  }
}

TEST_CASE("an events table that misses or adds a kind does not load, naming file and kind") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const gs::GameSystem& wme = **registry.Find("wme");
  const std::string table = Slurp(kMailDir / "en" / "systems" / "wme" / "events.table");
  SystemWords words;
  Status s = LoadWithout(wme, "wme/events.table", "supporting_charge", &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("wme/events.table") != std::string::npos);
  CHECK(s.message.find("no sentence for 'supporting_charge'") != std::string::npos);

  s = SystemWords::Load(TablesWith("wme/events.table", table + "model_moved: it moves.\n"), "en",
                        wme, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("wme/events.table") != std::string::npos);
  CHECK(s.message.find("'model_moved' is not an event kind of wme") != std::string::npos);

  // No events table at all.
  const std::filesystem::path dir = TablesWith("wme/events.table", table);
  std::filesystem::remove(dir / "en" / "systems" / "wme" / "events.table");
  s = SystemWords::Load(dir, "en", wme, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("events.table") != std::string::npos);

  // A French table with an ordinary space before ':' breaks the typography rule.
  const std::string fr = Slurp(kMailDir / "fr" / "systems" / "wme" / "events.table");
  const std::filesystem::path fr_dir = std::filesystem::temp_directory_path() / "pbem_sw_fr";
  std::filesystem::remove_all(fr_dir);
  std::filesystem::create_directories(fr_dir / "fr");
  std::filesystem::copy(kMailDir / "fr" / "systems", fr_dir / "fr" / "systems",
                        std::filesystem::copy_options::recursive);
  const std::string spaced = std::regex_replace(fr, std::regex("reste sur place\u00a0:"),
                                                std::string("reste sur place :"));
  REQUIRE(spaced != fr);
  std::ofstream(fr_dir / "fr" / "systems" / "wme" / "events.table", std::ios::trunc) << spaced;
  std::filesystem::remove_all(std::filesystem::temp_directory_path() / "pbem_system_words_test");
  s = SystemWords::Load(fr_dir, "fr", wme, &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("wme/events.table") != std::string::npos);
  CHECK(SystemWords::Load(kMailDir, "fr", wme, &words).ok);
  std::filesystem::remove_all(fr_dir);

  // Morne Plaine's words are its own templates (MailTemplates): no tables here.
  s = SystemWords::Load(kMailDir, "en", **registry.Find("morne-plaine"), &words);
  CHECK_FALSE(s.ok);
  CHECK(s.message.find("morne-plaine/reasons.table") != std::string::npos);
}

TEST_CASE("the player who ended a phase is worded as a side, in each language") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const struct {
    std::string_view system;
    std::string kind;
  } phases[] = {{"m42", "action_phase_ended"}, {"wme", "phase_ended"}};
  for (const auto& p : phases) {
    const gs::GameSystem& system = **registry.Find(p.system);
    const SystemWords en = LoadWords(system, "en");
    const SystemWords fr = LoadWords(system, "fr");
    const auto ended = [&p](const char* player) {
      return EventOf(p.kind, "", {{"player", player}, {"turn", "3"}});
    };
    INFO(p.kind);
    CHECK(EventWorded(en, ended("red")).rfind("the red side has finished ", 0) == 0);
    CHECK(EventWorded(en, ended("blue")).rfind("the blue side has finished ", 0) == 0);
    CHECK(EventWorded(fr, ended("red")).rfind("le camp rouge a terminé ", 0) == 0);
    CHECK(EventWorded(fr, ended("blue")).rfind("le camp bleu a terminé ", 0) == 0);
    // Another id (a scenario's own player names) as it is, never an empty subject.
    CHECK(EventWorded(en, ended("green")).rfind("green has finished ", 0) == 0);
    CHECK(EventWorded(fr, ended("green")).rfind("green a terminé ", 0) == 0);
  }
}

TEST_CASE("an event of another system has no sentence") {
  const gs::Registry registry = gs::BuiltinRegistry();
  const SystemWords words = LoadWords(**registry.Find("m42"), "en");
  std::string out = "x";
  CHECK_FALSE(words.EventSentence(EventOf("move_step", "", {}), &out).ok);
  CHECK(out.empty());
}

TEST_CASE("every event of M42 bot turns on the pumping station is worded, in both languages") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& m42 = **registry.Find("m42");
  const SystemWords en = LoadWords(m42, "en");
  const SystemWords fr = LoadWords(m42, "fr");
  const gs::Result<gs::Setup> setup = m42.LoadBundled(m42::kPumpingStationName);
  REQUIRE(setup.ok());
  std::vector<std::string> kinds_seen;
  std::size_t events = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    gs::Result<gs::State> state = m42.InitialState(*setup, "g1");
    REQUIRE(state.ok());
    for (int turn = 0; turn < 6; ++turn) {
      const gs::Result<gs::Orders> orders = m42.BotOrders(*setup, *state, seed * 100 + turn);
      REQUIRE(orders.ok());
      gs::Result<gs::TurnResolution> r = m42.ResolvePlayerTurn(*setup, *state, *orders, 0);
      REQUIRE(r.ok());
      for (const gs::Event& e : r->events) {
        ++events;
        if (std::find(kinds_seen.begin(), kinds_seen.end(), e.kind) == kinds_seen.end()) {
          kinds_seen.push_back(e.kind);
        }
        for (const SystemWords* words : {&en, &fr}) CheckPlayerText(EventWorded(*words, e), e.kind);
      }
      state = std::move(r->next);
    }
  }
  CHECK(events > 20);
  INFO(kinds_seen.size());
  CHECK(std::find(kinds_seen.begin(), kinds_seen.end(), "model_moved") != kinds_seen.end());
  CHECK(std::find(kinds_seen.begin(), kinds_seen.end(), "action_phase_ended") != kinds_seen.end());
}

TEST_CASE("an M42 move of the pumping station, worded") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& m42 = **registry.Find("m42");
  const Game game = Started(m42, m42.LoadBundled(m42::kPumpingStationName));
  // b_sq1_1 stands at (6", 5"): an Advance of 2.5" straight up the table.
  const auto r = m42.ResolvePlayerTurn(game.setup, game.start, Sq1AdvanceTo(7500), 0);
  REQUIRE(r.ok());
  const SystemWords en = LoadWords(m42, "en");
  const SystemWords fr = LoadWords(m42, "fr");
  const gs::Event* acted = FindEvent(r->events, "unit_acted");
  REQUIRE(acted != nullptr);
  CHECK(acted->unit == "b_sq1");
  CHECK(EventWorded(en, *acted) == "unit b_sq1 carries out its action: Advance.");
  CHECK(EventWorded(fr, *acted) == "l'unité b_sq1 exécute son action\u00a0: Advance.");
  const gs::Event* moved = FindEvent(r->events, "model_moved");
  REQUIRE(moved != nullptr);
  CHECK(EventWorded(en, *moved) == "model b_sq1_1 moves 2.5\", from (6\", 5\") to (6\", 7.5\").");
  CHECK(EventWorded(fr, *moved) ==
        "la figurine b_sq1_1 se déplace de 2,5\u00a0pouces, de (6\u00a0pouces\u00a0; "
        "5\u00a0pouces) à (6\u00a0pouces\u00a0; 7,5\u00a0pouces).");
  const gs::Event* ended = FindEvent(r->events, "action_phase_ended");
  REQUIRE(ended != nullptr);
  CHECK(EventWorded(en, *ended) ==
        "the blue side has finished the Action Phase; play goes on in turn 1.");
  CHECK(EventWorded(fr, *ended) ==
        "le camp bleu a terminé sa phase d'action\u00a0; la partie continue au tour 1.");
}

TEST_CASE("the events of a wme turn on la palissade, worded") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& wme = **registry.Find("wme");
  const Game game = Started(wme, wme.Load(gs::test::BundledData("wme", "wme/palissade.textproto")));
  // b_inf1's three bases 5 cm ahead (they stand at y 20 cm), b_cav charges r_cav (out of reach).
  const auto base = [](const char* id, std::int64_t x, std::int64_t y) {
    wme::LegOrder leg;
    leg.x = x;
    leg.y = y;
    return wme::BaseOrder{id, {leg}};
  };
  wme::MoveOrder move;
  move.unit = "b_inf1";
  move.bases = {base("b_inf1.1", 56000, 25000), base("b_inf1.2", 60000, 25000),
                base("b_inf1.3", 64000, 25000)};
  wme::ChargeOrder charge;
  charge.unit = "b_cav";
  charge.target = "r_cav";
  const wme::TurnOrders orders{"blue", {}, {move, charge}};
  const auto r = wme.ResolvePlayerTurn(game.setup, game.start, gs::WmeOrdersOf(orders), 11);
  REQUIRE(r.ok());
  const SystemWords en = LoadWords(wme, "en");
  const SystemWords fr = LoadWords(wme, "fr");
  REQUIRE_FALSE(r->events.empty());
  for (const gs::Event& e : r->events) {
    for (const SystemWords* words : {&en, &fr}) CheckPlayerText(EventWorded(*words, e), e.kind);
  }
  const gs::Event* moved = FindEvent(r->events, "unit_moved");
  REQUIRE(moved != nullptr);
  CHECK(moved->unit == "b_inf1");
  CHECK(EventWorded(en, *moved) == "unit b_inf1 advances by order.");
  CHECK(EventWorded(fr, *moved) == "l'unité b_inf1 avance par ordre.");
  const gs::Event* base_moved = FindEvent(r->events, "moved");
  REQUIRE(base_moved != nullptr);
  CHECK(EventWorded(en, *base_moved) ==
        "base b_inf1.1 travels 5 cm, from (56 cm, 20 cm) facing 90° to (56 cm, 25 cm) facing 90°.");
  CHECK(EventWorded(fr, *base_moved) ==
        "le socle b_inf1.1 parcourt 5\u00a0cm, de (56\u00a0cm\u00a0; 20\u00a0cm) orienté à 90° "
        "jusqu'à (56\u00a0cm\u00a0; 25\u00a0cm) orienté à 90°.");
  const gs::Event* held = FindEvent(r->events, "unit_held");
  REQUIRE(held != nullptr);
  CHECK(held->unit == "b_cav");
  CHECK(EventWorded(en, *held) == "unit b_cav stays where it is: its order is illegal.");
  CHECK(EventWorded(fr, *held) == "l'unité b_cav reste sur place\u00a0: son ordre est illégal.");
}

}  // namespace
}  // namespace pbem::templates
