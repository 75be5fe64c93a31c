// The results mail of an M42 or wme player-turn (MailTemplates::RenderSystemResults), rendered
// from the real template files and the verdicts and events of the engines themselves (through
// the codec's registry of systems): every event and refusal worded by the system's SystemWords,
// in English and French, the greeting, the next turn or the end, the missed orders, the French
// spacing rule, HTML escaping; a code the words do not know is an error, never shown.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/m42/orders.h"
#include "engine/m42/scenarios.h"
#include "engine/system/m42.h"
#include "engine/system/registry.h"
#include "engine/system/wme.h"
#include "engine/wme/orders.h"
#include "proto/codec/systems.h"
#include "templates/french_typography.h"
#include "templates/mail_render.h"
#include "tests/engine/system/data_files.h"

namespace pbem::templates {
namespace {

namespace gs = game_system;
using std::chrono::sys_days;

const std::filesystem::path kMailDir = DefaultMailTemplateDir(PBEM_SOURCE_DIR);

const MailTemplates& Templates() {
  static const MailTemplates templates = [] {
    MailTemplates t;
    const Status s = MailTemplates::Load(kMailDir, &t);
    INFO(s.message);
    REQUIRE(s.ok);
    return t;
  }();
  return templates;
}

const gs::Registry& Systems() {
  static const gs::Registry registry = codec::SystemRegistry();
  return registry;
}

const gs::GameSystem& System(std::string_view name) {
  const gs::Result<const gs::GameSystem*> system = Systems().Find(name);
  REQUIRE(system.ok());
  return **system;
}

// What kainjow's HTML escaping makes of a plain sentence.
std::string Html(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// An event's line as the mail gives it: the sentence, its first letter a capital.
std::string Line(std::string sentence) {
  if (!sentence.empty() && sentence[0] >= 'a' && sentence[0] <= 'z') {
    sentence[0] = static_cast<char>(sentence[0] - 'a' + 'A');
  }
  return sentence;
}

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// One resolved player-turn of a system, as the daemon would have it.
struct PlayedTurn {
  std::string system;
  gs::TurnInfo before;
  gs::TurnInfo next;
  gs::TurnResolution resolution;
};

PlayedTurn Play(const gs::GameSystem& system, const gs::Setup& setup, const gs::State& state,
                const gs::Orders& orders, std::uint64_t seed) {
  PlayedTurn t;
  t.system = std::string(system.name());
  const gs::Result<gs::TurnInfo> before = system.WhoseTurn(setup, state);
  REQUIRE(before.ok());
  t.before = *before;
  gs::Result<gs::TurnResolution> r = system.ResolvePlayerTurn(setup, state, orders, seed);
  REQUIRE(r.ok());
  t.resolution = std::move(*r);
  const gs::Result<gs::TurnInfo> next = system.WhoseTurn(setup, t.resolution.next);
  REQUIRE(next.ok());
  t.next = *next;
  return t;
}

// 1 December 2026, 18:00 UTC: a Tuesday.
const std::chrono::sys_seconds kDeadline =
    sys_days{std::chrono::year{2026} / 12 / 1} + std::chrono::hours{18};

SystemResultsInput InputOf(const PlayedTurn& t) {
  SystemResultsInput in;
  in.system = t.system;
  in.game_id = "g7";
  in.turn = t.before.turn;
  in.side = t.before.side;
  in.player = "helene@example.org";
  in.player_name = "Hélène";
  in.verdicts = t.resolution.verdicts;
  in.events = t.resolution.events;
  in.revealed_seed = "00c0ffee00c0ffee";
  in.next_commitment = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  in.next_turn = t.next.turn;
  in.next_side = t.next.side;
  in.next_deadline = kDeadline;
  return in;
}

Mail Render(Language language, const SystemResultsInput& in) {
  Mail mail;
  const Status s = Templates().RenderSystemResults(language, in, &mail);
  INFO(s.message);
  REQUIRE(s.ok);
  return mail;
}

const SystemWords& WordsOf(Language language, std::string_view system) {
  const SystemWords* words = Templates().SystemWordsOf(language, system);
  REQUIRE(words != nullptr);
  return *words;
}

// Every event and every verdict of `in` is in the mail as the system's words give it (the
// HTML escaped), each order on its own line with its number and verdict; no code anywhere.
void CheckWorded(Language language, const SystemResultsInput& in, const Mail& mail) {
  const SystemWords& words = WordsOf(language, in.system);
  const bool french = language == Language::kFrench;
  REQUIRE_FALSE(in.events.empty());
  for (const gs::Event& e : in.events) {
    std::string sentence;
    REQUIRE(words.EventSentence(e, &sentence).ok);
    INFO(e.kind << ": " << sentence);
    CHECK(Has(mail.text, "\n  - " + Line(sentence) + "\n"));
    CHECK(Has(mail.html, "<li>" + Html(Line(sentence)) + "</li>"));
    // An event kind with '_' cannot be a word of a sentence ("moved" could be).
    if (e.kind.find('_') != std::string::npos) {
      CHECK_FALSE(Has(mail.text, e.kind));
      CHECK_FALSE(Has(mail.html, e.kind));
    }
  }
  for (std::size_t i = 0; i < in.verdicts.size(); ++i) {
    const gs::Verdict& v = in.verdicts[i];
    std::string sentence;
    REQUIRE(words.Sentence(v, &sentence).ok);
    const std::string kind = v.kind == gs::VerdictKind::kOk ? (french ? "exécuté" : "carried out")
                             : v.kind == gs::VerdictKind::kIllegal
                                 ? (french ? "refusé" : "refused")
                                 : (french ? "incompris" : "not understood");
    const std::string colon = french ? "\u00a0: " : ": ";
    const std::string line = (french ? "Ordre " : "Order ") + std::to_string(i + 1) + " (" +
                             v.unit + ")" + colon + kind +
                             (sentence.empty() ? "." : colon + sentence);
    INFO(line);
    CHECK(Has(mail.text, "\n  - " + line + "\n"));
    CHECK(Has(mail.html, "<li>" + Html(line) + "</li>"));
    if (!v.reason.empty()) {
      CHECK_FALSE(Has(mail.text, v.reason));
      CHECK_FALSE(Has(mail.html, v.reason));
    }
  }
  for (const std::string* body : {&mail.subject, &mail.text, &mail.html}) {
    CHECK_FALSE(Has(*body, "{{"));
  }
}

std::int64_t OkCount(const std::vector<gs::Verdict>& verdicts) {
  return std::count_if(verdicts.begin(), verdicts.end(),
                       [](const gs::Verdict& v) { return v.kind == gs::VerdictKind::kOk; });
}

// On the pumping station, blue's Advance of b_sq1 moving b_sq1_1 from where it stands, (6", 5"),
// to (6", `to_y` thousandths); and an action of b_sq2 naming a model of b_sq1.
m42::UnitOrder Sq1AdvanceTo(std::int64_t to_y) {
  m42::UnitOrder action;
  action.unit = "b_sq1";
  action.models.push_back(m42::ModelOrder{"b_sq1_1", {{6000, 5000, {}}, {6000, to_y, {}}}, {}});
  return action;
}

struct M42Game {
  gs::Setup setup;
  gs::State start;
};
M42Game PumpingStation() {
  const gs::GameSystem& m42 = System("m42");
  const gs::Result<gs::Setup> setup = m42.LoadBundled(m42::kPumpingStationName);
  REQUIRE(setup.ok());
  const gs::Result<gs::State> start = m42.InitialState(*setup, "g7");
  REQUIRE(start.ok());
  return {*setup, *start};
}

// Blue's first player-turn: b_sq1 advances 2.5", b_sq2 names a model that is not its own.
PlayedTurn M42BlueTurn(const M42Game& game = PumpingStation()) {
  m42::Orders orders;
  orders.player = "blue";
  orders.actions.push_back(Sq1AdvanceTo(7500));
  m42::UnitOrder wrong = Sq1AdvanceTo(7500);
  wrong.unit = "b_sq2";
  orders.actions.push_back(wrong);
  PlayedTurn t = Play(System("m42"), game.setup, game.start, gs::M42OrdersOf(orders), 0);
  REQUIRE(t.resolution.verdicts.size() == 2);
  REQUIRE(t.resolution.verdicts[0].kind == gs::VerdictKind::kOk);
  REQUIRE(t.resolution.verdicts[1].kind != gs::VerdictKind::kOk);
  REQUIRE_FALSE(t.resolution.verdicts[1].reason.empty());
  return t;
}

TEST_CASE("an M42 results mail in English: orders as judged, events, dice, next turn") {
  const PlayedTurn t = M42BlueTurn();
  const SystemResultsInput in = InputOf(t);
  REQUIRE(in.side == "blue");
  REQUIRE(in.next_side == "red");
  const Mail mail = Render(Language::kEnglish, in);
  INFO(mail.text);
  CHECK(mail.subject == "Game g7, turn " + std::to_string(in.turn) + " (blue): results");
  CHECK(mail.text.rfind("Hello Hélène,\n", 0) == 0);
  CHECK(Has(mail.text, "Game g7, turn " + std::to_string(in.turn) +
                           ": the blue player-turn has been resolved."));
  CHECK(Has(mail.text, "Orders of the blue side: 1 of 2 carried out.\n"));
  CHECK(Has(mail.text, "\n  - Order 1 (b_sq1): carried out.\n"));
  CHECK(Has(mail.text, "\n  - Order 2 (b_sq2): not understood: "));
  CHECK(Has(mail.text, "\nWhat happened\n"));
  // A known answer for one event, besides every event as the words give it (CheckWorded).
  CHECK(Has(mail.text, "\n  - Model b_sq1_1 moves 2.5\", from (6\", 5\") to (6\", 7.5\").\n"));
  CheckWorded(Language::kEnglish, in, mail);
  CHECK(Has(mail.text, "Dice: this turn's seed, now revealed: 00c0ffee00c0ffee\n"));
  CHECK(Has(mail.text,
            "Dice: commitment to the next turn's seed (SHA-256): " + in.next_commitment + "\n"));
  CHECK(Has(mail.text, "\nNext: turn " + std::to_string(in.next_turn) +
                           ", red to move. Orders are due by Tuesday 1 December 2026 at "
                           "18:00 UTC.\n"));
  CHECK(Has(mail.text, "\n-- \npbem, the play-by-email referee\n"));
  CHECK_FALSE(Has(mail.text, "attached"));
  CHECK_FALSE(Has(mail.text, "No orders arrived"));
  CHECK_FALSE(Has(mail.text, "game is over"));
  CHECK_FALSE(Has(mail.text, "\n\n\n"));
  CHECK(Has(mail.html, "<p>Hello Hélène,</p>"));
  CHECK(Has(mail.html, "<h2>Orders of the blue side: 1 of 2 carried out</h2>"));
  CHECK(Has(mail.html, "<code>00c0ffee00c0ffee</code>"));
  CHECK(Has(mail.html, "<strong>Next: turn " + std::to_string(in.next_turn) +
                           ", red to move.</strong> Orders are due by Tuesday 1 December 2026 "
                           "at 18:00 UTC."));
  CHECK_FALSE(Has(mail.html, "attached"));
}

TEST_CASE("an M42 results mail in French: French words, dates and spacing") {
  const PlayedTurn t = M42BlueTurn();
  SystemResultsInput in = InputOf(t);
  const Mail mail = Render(Language::kFrench, in);
  INFO(mail.text);
  const std::string nb = "\u00a0";
  CHECK(mail.subject ==
        "Partie g7, tour " + std::to_string(in.turn) + " (bleu)" + nb + ": résultats");
  CHECK(mail.text.rfind("Bonjour Hélène,\n", 0) == 0);
  CHECK(Has(mail.text, "Partie g7, tour " + std::to_string(in.turn) + nb +
                           ": le tour du camp bleu est joué."));
  CHECK(Has(mail.text, "Ordres du camp bleu exécutés" + nb + ": 1 sur 2.\n"));
  CHECK(Has(mail.text, "\n  - Ordre 1 (b_sq1)" + nb + ": exécuté.\n"));
  CHECK(Has(mail.text, "\n  - Ordre 2 (b_sq2)" + nb + ": incompris" + nb + ": "));
  CHECK(Has(mail.text, "\nCe qui s'est passé\n"));
  CHECK(Has(mail.text, "\n  - La figurine b_sq1_1 se déplace de 2,5" + nb + "pouces"));
  CheckWorded(Language::kFrench, in, mail);
  CHECK(Has(mail.text, "Dés" + nb + ": la graine de ce tour, maintenant révélée" + nb +
                           ": 00c0ffee00c0ffee\n"));
  CHECK(Has(mail.text, "\nEnsuite" + nb + ": tour " + std::to_string(in.next_turn) +
                           ", au camp rouge de jouer. Les ordres sont attendus avant le mardi "
                           "1er décembre 2026 à 18 h 00 UTC.\n"));
  CHECK(Has(mail.text, "\n-- \npbem, l'arbitre de jeu par courriel\n"));
  CHECK_FALSE(Has(mail.text, "jointe"));
  // The sides are French words, in the events too; no side id is left.
  CHECK(Has(mail.text, "\n  - Le camp bleu a terminé sa phase d'action" + nb + "; "));
  CHECK_FALSE(Has(mail.text, "blue"));
  CHECK_FALSE(Has(mail.text, "red"));
  CHECK_FALSE(Has(mail.text, "Blue"));
  CHECK(Has(mail.html, "<p>Bonjour Hélène,</p>"));
  CHECK(Has(mail.html, "<html lang=\"fr\">"));
  // The spacing rule holds in what the player reads, data and sentences included.
  in.message = "Attention : on arrive !";
  const Mail with_message = Render(Language::kFrench, in);
  CHECK(FrenchSpacingProblems("rendered subject", mail.subject).empty());
  CHECK(FrenchSpacingProblems("rendered text", mail.text).empty());
  CHECK(FrenchSpacingProblems("rendered html", mail.html).empty());
  // ... which can fail: the player's own message is theirs and keeps its spaces.
  CHECK_FALSE(FrenchSpacingProblems("rendered text", with_message.text).empty());
  CHECK(Has(with_message.text, "\nMessage du camp bleu" + nb + ":\nAttention : on arrive !\n"));
}

TEST_CASE("the greeting names the player when there is a name, else nobody; never the address") {
  SystemResultsInput in = InputOf(M42BlueTurn());
  in.player_name.clear();
  const Mail en = Render(Language::kEnglish, in);
  CHECK(en.text.rfind("Hello,\n", 0) == 0);
  CHECK(Has(en.html, "<p>Hello,</p>"));
  const Mail fr = Render(Language::kFrench, in);
  CHECK(fr.text.rfind("Bonjour,\n", 0) == 0);
  CHECK(Has(fr.html, "<p>Bonjour,</p>"));
  for (const Mail* m : {&en, &fr}) {
    CHECK_FALSE(Has(m->text, in.player));
    CHECK_FALSE(Has(m->html, in.player));
  }
}

TEST_CASE("strings from data are escaped in the HTML body, as they are in the text") {
  SystemResultsInput in = InputOf(M42BlueTurn());
  in.player_name = "<b>&";
  in.message = "<script>alert('x')</script>";
  in.game_id = "g<1>";
  in.verdicts[1].unit = "<i>b_sq2";
  for (const Language language : {Language::kEnglish, Language::kFrench}) {
    const Mail mail = Render(language, in);
    CHECK(Has(mail.text, " <b>&,\n"));
    CHECK(Has(mail.html, " &lt;b&gt;&amp;,</p>"));
    CHECK(Has(mail.text, "<script>alert('x')</script>"));
    CHECK(Has(mail.html, "<blockquote>&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;"));
    CHECK(Has(mail.html, "g&lt;1&gt;"));
    CHECK(Has(mail.html, "(&lt;i&gt;b_sq2)"));
    CHECK_FALSE(Has(mail.html, "<b>"));
    CHECK_FALSE(Has(mail.html, "<script>"));
    CHECK_FALSE(Has(mail.html, "<i>"));
    CHECK_FALSE(Has(mail.html, "g<1>"));
  }
}

TEST_CASE("the last turn: the end of the game, no next turn") {
  SystemResultsInput in = InputOf(M42BlueTurn());
  in.finished = true;
  in.next_commitment.clear();
  in.next_deadline.reset();
  in.winner = "red";
  Mail en = Render(Language::kEnglish, in);
  CHECK(Has(en.text, "\nThe game is over: the red side wins.\n"));
  CHECK(Has(en.html, "The game is over: the red side wins."));
  CHECK_FALSE(Has(en.text, "Next:"));
  CHECK_FALSE(Has(en.html, "Next:"));
  CHECK_FALSE(Has(en.text, "commitment"));
  CHECK(Has(en.text, "seed, now revealed: 00c0ffee00c0ffee"));
  const Mail fr = Render(Language::kFrench, in);
  CHECK(Has(fr.text, "\nLa partie est terminée\u00a0: victoire du camp rouge.\n"));
  CHECK_FALSE(Has(fr.text, "Ensuite"));
  CHECK_FALSE(Has(fr.html, "Ensuite"));
  in.winner.clear();
  in.draw = true;
  en = Render(Language::kEnglish, in);
  CHECK(Has(en.text, "\nThe game is over: a draw.\n"));
  in.draw = false;
  en = Render(Language::kEnglish, in);
  CHECK(Has(en.text, "\nThe game is over.\n"));
  // Not finished: no end, whatever `winner` says.
  in.finished = false;
  in.winner = "red";
  en = Render(Language::kEnglish, in);
  CHECK_FALSE(Has(en.text, "game is over"));
  CHECK(Has(en.text, "\nNext: turn "));
  // No deadline: the next turn without one.
  CHECK(Has(en.text, "red to move.\n"));
  CHECK_FALSE(Has(en.text, "Orders are due"));
}

TEST_CASE("missed orders: the mover played none, said so; the bot's red turn is worded") {
  const M42Game game = PumpingStation();
  const gs::GameSystem& m42 = System("m42");
  // Blue's turn, then red's: the red player sent nothing, the turn is played without orders.
  const PlayedTurn blue = M42BlueTurn(game);
  m42::Orders empty;
  empty.player = "red";
  const PlayedTurn red = Play(m42, game.setup, blue.resolution.next, gs::M42OrdersOf(empty), 0);
  SystemResultsInput in = InputOf(red);
  REQUIRE(in.side == "red");
  REQUIRE(in.verdicts.empty());
  in.orders_missed = true;
  const Mail en = Render(Language::kEnglish, in);
  INFO(en.text);
  CHECK(Has(en.text,
            "\nNo orders arrived by the deadline: the red side played no orders this turn.\n"));
  CHECK(Has(en.html, "No orders arrived by the deadline: the red side played no orders"));
  CHECK_FALSE(Has(en.text, "Orders of the"));
  CHECK_FALSE(Has(en.text, "gave no orders"));
  CheckWorded(Language::kEnglish, in, en);
  CHECK(Has(en.text, ", blue to move."));
  const Mail fr = Render(Language::kFrench, in);
  CHECK(Has(fr.text,
            "\nAucun ordre n'est arrivé avant l'échéance\u00a0: le camp rouge n'a joué aucun "
            "ordre ce tour.\n"));
  CheckWorded(Language::kFrench, in, fr);
  // The same empty orders sent on time: no orders given, not "missed".
  in.orders_missed = false;
  const Mail sent = Render(Language::kEnglish, in);
  CHECK(Has(sent.text, "\nThe red side gave no orders this turn.\n"));
  CHECK_FALSE(Has(sent.text, "No orders arrived"));
  CHECK(
      Has(Render(Language::kFrench, in).text, "\nLe camp rouge n'a donné aucun ordre ce tour.\n"));
  // The bot's orders for red, every event worded in both languages.
  const gs::Result<gs::Orders> bot = m42.BotOrders(game.setup, blue.resolution.next, 42);
  REQUIRE(bot.ok());
  const SystemResultsInput botted = InputOf(Play(m42, game.setup, blue.resolution.next, *bot, 0));
  REQUIRE_FALSE(botted.verdicts.empty());
  for (const Language language : {Language::kEnglish, Language::kFrench}) {
    CheckWorded(language, botted, Render(language, botted));
  }
  CHECK(Has(Render(Language::kEnglish, botted).text,
            "Orders of the red side: " + std::to_string(OkCount(botted.verdicts)) + " of " +
                std::to_string(botted.verdicts.size()) + " carried out.\n"));
  // No events at all: said in words.
  in.events.clear();
  INFO(Render(Language::kEnglish, in).text);
  CHECK(Has(Render(Language::kEnglish, in).text, "\nWhat happened\nNothing happened this turn.\n"));
  CHECK(Has(Render(Language::kFrench, in).text,
            "\nCe qui s'est passé\nIl ne s'est rien passé ce tour.\n"));
}

// Blue's first movement phase on la palissade: b_inf1's three bases 5 cm ahead, b_cav charges
// r_cav (out of reach): held.
PlayedTurn WmeBlueTurn() {
  const gs::GameSystem& wme = System("wme");
  const gs::Result<gs::Setup> setup =
      wme.Load(gs::test::BundledData("wme", "wme/palissade.textproto"));
  REQUIRE(setup.ok());
  const gs::Result<gs::State> start = wme.InitialState(*setup, "g7");
  REQUIRE(start.ok());
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
  PlayedTurn t = Play(wme, *setup, *start, gs::WmeOrdersOf(orders), 11);
  REQUIRE(t.resolution.verdicts.size() == 2);
  REQUIRE(t.resolution.verdicts[0].kind == gs::VerdictKind::kOk);
  REQUIRE(t.resolution.verdicts[1].kind == gs::VerdictKind::kIllegal);
  REQUIRE_FALSE(t.resolution.verdicts[1].reason.empty());
  return t;
}

TEST_CASE("a wme results mail in both languages: the refusal says why") {
  const PlayedTurn t = WmeBlueTurn();
  const SystemResultsInput in = InputOf(t);
  REQUIRE(in.side == "blue");
  std::string refusal_en;
  std::string refusal_fr;
  REQUIRE(WordsOf(Language::kEnglish, "wme").Sentence(in.verdicts[1], &refusal_en).ok);
  REQUIRE(WordsOf(Language::kFrench, "wme").Sentence(in.verdicts[1], &refusal_fr).ok);
  REQUIRE_FALSE(refusal_en.empty());

  const Mail en = Render(Language::kEnglish, in);
  INFO(en.text);
  CHECK(en.subject == "Game g7, turn " + std::to_string(in.turn) + " (blue): results");
  CHECK(Has(en.text, "Orders of the blue side: 1 of 2 carried out.\n"));
  CHECK(Has(en.text, "\n  - Order 2 (b_cav): refused: " + refusal_en + "\n"));
  CHECK(Has(en.text, "\n  - Unit b_inf1 advances by order.\n"));
  CHECK(Has(en.text, "\n  - Unit b_cav stays where it is: its order is illegal.\n"));
  CheckWorded(Language::kEnglish, in, en);
  CHECK(Has(en.text, "\nNext: turn " + std::to_string(in.next_turn) + ", " +
                         Templates().Word(Language::kEnglish, "side", in.next_side) +
                         " to move. Orders are due by Tuesday 1 December 2026 at 18:00 UTC.\n"));

  const Mail fr = Render(Language::kFrench, in);
  INFO(fr.text);
  const std::string nb = "\u00a0";
  CHECK(Has(fr.text, "\n  - Ordre 2 (b_cav)" + nb + ": refusé" + nb + ": " + refusal_fr + "\n"));
  CHECK(Has(fr.text, "\n  - L'unité b_inf1 avance par ordre.\n"));
  CHECK(Has(fr.html,
            "<li>L&apos;unité b_cav reste sur place" + nb + ": son ordre est illégal.</li>"));
  CheckWorded(Language::kFrench, in, fr);
  CHECK(FrenchSpacingProblems("rendered text", fr.text).empty());
  CHECK(FrenchSpacingProblems("rendered html", fr.html).empty());
}

TEST_CASE("a code the words do not know is an error, not a code in the mail") {
  const SystemResultsInput good = InputOf(WmeBlueTurn());
  Mail mail;
  mail.subject = "untouched";

  SystemResultsInput in = good;
  in.verdicts[1].reason = "NOT_A_CODE";
  Status s = Templates().RenderSystemResults(Language::kEnglish, in, &mail);
  CHECK_FALSE(s.ok);
  CHECK(Has(s.message, "NOT_A_CODE"));
  CHECK(mail.subject == "untouched");

  in = good;
  in.events.back().kind = "not_an_event";
  s = Templates().RenderSystemResults(Language::kFrench, in, &mail);
  CHECK_FALSE(s.ok);
  CHECK(Has(s.message, "not_an_event"));
  CHECK(mail.subject == "untouched");

  // Another system's verdict: M42's words do not word wme's codes.
  in = good;
  in.system = "m42";
  CHECK_FALSE(Templates().RenderSystemResults(Language::kEnglish, in, &mail).ok);

  // Morne Plaine and unknown systems have no SystemWords here.
  for (const char* system : {"morne-plaine", "chess", ""}) {
    in = good;
    in.system = system;
    s = Templates().RenderSystemResults(Language::kEnglish, in, &mail);
    CHECK_FALSE(s.ok);
    CHECK(Has(s.message, "game system '" + std::string(system) + "'"));
  }
  CHECK(mail.subject == "untouched");
  CHECK(Templates().RenderSystemResults(Language::kEnglish, good, &mail).ok);
  CHECK(mail.subject != "untouched");
}

TEST_CASE("Load loads the words of every built-in system but Morne Plaine, in every language") {
  const gs::Registry builtin = gs::BuiltinRegistry();
  for (const Language language : kAllLanguages) {
    for (const std::string& name : builtin.Names()) {
      INFO(name);
      CHECK((Templates().SystemWordsOf(language, name) != nullptr) == (name != "morne-plaine"));
    }
    CHECK(Templates().SystemWordsOf(language, "m42") != nullptr);
    CHECK(Templates().SystemWordsOf(language, "wme") != nullptr);
    CHECK(Templates().SystemWordsOf(language, "chess") == nullptr);
  }
  CHECK(Templates().Word(Language::kEnglish, "side", "red") == "red");
  CHECK(Templates().Word(Language::kFrench, "side", "red") == "rouge");
}

TEST_CASE("Load fails naming the system's table that is missing or wrong") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "pbem_system_results_mail_test";
  fs::remove_all(dir);
  fs::copy(kMailDir, dir, fs::copy_options::recursive);
  MailTemplates t;
  REQUIRE(MailTemplates::Load(dir, &t).ok);
  fs::remove(dir / "fr" / "systems" / "wme" / "events.table");
  Status s = MailTemplates::Load(dir, &t);
  CHECK_FALSE(s.ok);
  CHECK(Has(s.message, "fr/systems/wme/events.table"));
  fs::copy(kMailDir / "fr" / "systems" / "wme" / "events.table",
           dir / "fr" / "systems" / "wme" / "events.table");
  // A code missing from a table.
  std::ofstream(dir / "en" / "systems" / "m42" / "reasons.table", std::ios::trunc)
      << "UNKNOWN_UNIT: there is no unit {{unit}}.\n";
  s = MailTemplates::Load(dir, &t);
  CHECK_FALSE(s.ok);
  CHECK(Has(s.message, "en/systems/m42/reasons.table"));
  // The results mail's own files and the order line are checked like every other.
  fs::copy(kMailDir / "en" / "systems" / "m42" / "reasons.table",
           dir / "en" / "systems" / "m42" / "reasons.table", fs::copy_options::overwrite_existing);
  REQUIRE(MailTemplates::Load(dir, &t).ok);
  fs::remove(dir / "fr" / "system_results.html");
  s = MailTemplates::Load(dir, &t);
  CHECK_FALSE(s.ok);
  CHECK(Has(s.message, "system_results.html"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pbem::templates
