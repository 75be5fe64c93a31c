// The mails players receive, rendered from the real template files (templates/mail/<lang>/)
// with engine types built by hand, so that every word the test expects is known.
#include "templates/mail_render.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/map.h"
#include "tests/templates/positional_event.h"

namespace pbem::templates {
namespace {

using engine::Arg;
using engine::Event;
using engine::EventKind;
using engine::Hex;
using engine::Phase;
using engine::UnitId;

const MailTemplates& Templates() {
  static const MailTemplates templates = [] {
    MailTemplates t;
    const Status s = MailTemplates::Load(DefaultMailTemplateDir(PBEM_SOURCE_DIR), &t);
    INFO(s.message);
    REQUIRE(s.ok);
    return t;
  }();
  return templates;
}

Hex H(const char* label) { return *engine::ParseLabel(label); }

engine::UnitSpec Unit(const char* id, const char* name, engine::Side side) {
  engine::UnitSpec u;
  u.id = id;
  u.name = name;
  u.side = side;
  return u;
}

// Three units on a small map: a blue battery, a blue line infantry, an orange unit whose
// name tries to inject a script.
engine::Scenario SmallScenario() {
  engine::Scenario s;
  s.name = "test";
  s.map = engine::Map(12, 12, engine::TerrainId{0});
  s.units.push_back(Unit("b-a1", "Batterie Lefort", engine::Side::kBlue));
  s.units.push_back(Unit("b-i1", "1er de Ligne", engine::Side::kBlue));
  s.units.push_back(Unit("o-i1", "<script>alert(1)</script>", engine::Side::kOrange));
  engine::Objective o;
  o.name = "Moulin";
  o.hexes = {H("0506")};
  o.vp_blue = 3;
  o.vp_orange = 2;
  s.objectives.push_back(o);
  return s;
}

Event Ev(Phase phase, EventKind kind, int unit, std::vector<Hex> hexes, std::vector<Arg> args) {
  Event e;
  e.phase = phase;
  if (unit >= 0) e.unit = UnitId{unit};
  e.hexes = std::move(hexes);
  e.body = pbem::testing::PositionalBody(kind, args);
  return e;
}

// A turn with a bombardment, a two-step move, a charge, a combat at 3-1, a retreat, a loss,
// a rally and a refused order.
engine::TurnResult SampleTurn(const engine::Scenario& scenario) {
  using I = std::int64_t;
  using S = std::string;
  engine::TurnResult r;
  r.events.push_back(Ev(Phase::kBombardment, EventKind::kBombard, 0, {H("0303"), H("0506")},
                        {S("o-i1"), I{5}, I{0}, I{-1}, I{4}, I{3}, S("hit")}));
  r.events.push_back(
      Ev(Phase::kBombardment, EventKind::kLoss, 2, {H("0506")}, {I{1}, I{0}, S("bombardment")}));
  r.events.push_back(
      Ev(Phase::kMovement, EventKind::kMoveStep, 1, {H("0404"), H("0405")}, {I{1}, I{3}, S("")}));
  r.events.push_back(
      Ev(Phase::kMovement, EventKind::kMoveStep, 1, {H("0405"), H("0505")}, {I{1}, I{2}, S("")}));
  r.events.push_back(
      Ev(Phase::kMovement, EventKind::kMoveEnd, 1, {H("0505")}, {I{2}, S("entered_enemy_zoc")}));
  // A support logged before its combat; the attacker (CS 5) charged and attacks by a bridge
  // (5 -> 7 -> 3); the defender (CS 1) stands in woods (1 -> 2); the die: 4, +1 for the
  // higher ground, -1 for morale, +1 for the marsh = 5.
  r.events.push_back(Ev(Phase::kCombat, EventKind::kSupport, 0, {H("0406")},
                        {S("offensive"), I{3}, I{3}, I{3}, I{3}, I{3}, S(""), S("")}));
  r.events.push_back(
      Ev(Phase::kCombat, EventKind::kCombat, 1, {H("0505"), H("0506")},
         {S("o-i1"), I{3},  I{2}, I{6},      I{2},       S("3-1"), I{4},        I{5},
          S("0/2*"), I{5},  I{7}, I{7},      I{3},       S(""),    S("bridge"),  // attacker
          I{1},      I{1},  I{2}, I{2},      S("woods"), S(""),                  // defender
          I{1},      I{-1}, I{1}, S("marsh")}));
  r.events.push_back(Ev(Phase::kCombat, EventKind::kMoraleTest, 2, {H("0506")},
                        {I{7}, I{7}, I{3}, S("failed"), S("combat")}));
  r.events.push_back(
      Ev(Phase::kCombat, EventKind::kRetreat, 2, {H("0506"), H("0607")}, {S("combat")}));
  r.events.push_back(
      Ev(Phase::kRally, EventKind::kRally, 1, {H("0506")}, {I{1}, I{4}, S("command")}));
  engine::OrderVerdict refused;
  refused.order_kind = engine::OrderKind::kMove;
  refused.index = 1;
  refused.unit = "b-a1";
  refused.verdict = engine::VerdictKind::kIllegal;
  refused.reason = engine::Reason::kBombardedCannotMove;
  refused.args = {H("0303")};
  r.verdicts.push_back(refused);
  r.next_state = engine::InitialState(scenario, "g1");
  r.next_state.units[1].hex = H("0506");
  r.next_state.objective_owners[H("0506")] = engine::Side::kBlue;
  r.next_state.turn = 3;
  r.next_state.side_to_move = engine::Side::kOrange;
  return r;
}

ResultsInput Input(const engine::Scenario& scenario, const engine::TurnResult& result) {
  ResultsInput in;
  in.scenario = &scenario;
  in.result = &result;
  in.game_id = "g1";
  in.turn = 2;
  in.side = "blue";
  in.player = "blue@example.org";
  in.revealed_seed = "00aa11bb22cc33dd";
  in.next_commitment = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  in.next_deadline =
      std::chrono::sys_days{std::chrono::year{2026} / 11 / 23} + std::chrono::hours{18};
  return in;
}

bool Has(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST_CASE("results mail tells every event with odds, roll and result (English)") {
  const engine::Scenario scenario = SmallScenario();
  const engine::TurnResult result = SampleTurn(scenario);
  Mail mail;
  const Status s = Templates().RenderResults(Language::kEnglish, Input(scenario, result), &mail);
  INFO(s.message);
  REQUIRE(s.ok);
  INFO(mail.text);
  CHECK(mail.subject == "Game g1, turn 2 (blue): results");
  // Bombardment: who, where, the roll, modified roll, BV and the result.
  CHECK(Has(mail.text, "Batterie Lefort (b-a1) in 0303 bombarded"));
  CHECK(Has(mail.text, "roll 5, modified to 4, against a bombardment value of 3: hit."));
  CHECK(Has(mail.text, "lost 1 MV (bombardment)"));
  // The two steps make one move line, and why it stopped.
  CHECK(Has(mail.text, "1er de Ligne (b-i1) moved from 0404 to 0505 (path 0405 0505), 2 MP left."));
  CHECK(Has(mail.text, "stopped in 0505: the move stopped on entering an enemy zone of control"));
  // Combat: odds, the roll, the modified die and the result in words.
  CHECK(Has(mail.text,
            "1er de Ligne (b-i1) in 0505 attacked <script>alert(1)</script> (o-i1) in 0506. "
            "Attack: 1er de Ligne (b-i1) 5 \u2192 7 (charge) \u2192 3 (attacking by a bridge, "
            "halved) + Batterie Lefort (b-a1) 3 = 6; defence: <script>alert(1)</script> (o-i1) 1 "
            "\u2192 2 (woods); 6 against 2, odds 3-1. Die 4 +1 (attacker on higher ground) "
            "\u22121 (morale difference) +1 (marsh) = 5. Result 0/2*:"));
  // The support is told within its combat, not after the result.
  CHECK_FALSE(Has(mail.text, "supported the attack"));
  CHECK(Has(mail.text, "the defender loses 2 CS and tests its morale"));
  CHECK(Has(mail.text, "roll 7, against 3: failed."));
  CHECK(Has(mail.text, "fell back from 0506 to 0607 (combat)"));
  CHECK(Has(mail.text, "rallied: +1 MV, now 4 (in command)"));
  // Victory points, refusals, the next turn and deadline, the dice.
  CHECK(Has(mail.text, "Moulin (0506): held by blue; worth 3 VP to blue, 2 VP to orange."));
  CHECK(Has(mail.text, "move 2 (Batterie Lefort (b-a1)): refused: artillery that bombarded"));
  CHECK(
      Has(mail.text,
          "Next: turn 3, orange to move. Orders are due by Monday 23 November 2026 at 18:00 UTC."));
  CHECK(Has(mail.text, "seed, now revealed: 00aa11bb22cc33dd"));
  CHECK(Has(mail.text,
            "(SHA-256): 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"));
  // The text body is not HTML-escaped.
  CHECK(Has(mail.text, "<script>alert(1)</script> (o-i1)"));
  CHECK(Has(mail.html, "6 against 2, odds 3-1. Die 4 +1"));
  CHECK(Has(mail.html, "<h2>Combat</h2>"));
  // Text bodies: never two blank lines in a row; the signature separator keeps its space.
  CHECK_FALSE(Has(mail.text, "\n\n\n"));
  CHECK(Has(mail.text, "\n-- \n"));
}

// The last player-turn of a game: a charge that routs, reaction fire, a marsh, an elimination
// with an advance, an objective taken, the final scoring.
engine::TurnResult FinalTurn(const engine::Scenario& scenario) {
  using I = std::int64_t;
  using S = std::string;
  engine::TurnResult r;
  r.events.push_back(Ev(Phase::kMovement, EventKind::kReactionFire, 0, {H("0303"), H("0404")},
                        {S("o-i1"), I{2}, I{2}, I{3}, S("hit")}));
  r.events.push_back(Ev(Phase::kMovement, EventKind::kStuck, 2, {H("0405")}, {I{1}, I{2}}));
  r.events.push_back(
      Ev(Phase::kMovement, EventKind::kCharge, 1, {H("0505"), H("0506")}, {S("o-i1")}));
  r.events.push_back(Ev(Phase::kMovement, EventKind::kMoraleTest, 2, {H("0506")},
                        {I{6}, I{8}, I{4}, S("failed"), S("charge")}));
  r.events.push_back(Ev(Phase::kCombat, EventKind::kEliminated, 2, {H("0506")}, {S("no_retreat")}));
  r.events.push_back(
      Ev(Phase::kCombat, EventKind::kMoraleGained, 1, {H("0505")}, {I{1}, S("elimination")}));
  r.events.push_back(Ev(Phase::kCombat, EventKind::kAdvance, 1, {H("0505"), H("0506")}, {}));
  r.events.push_back(
      Ev(Phase::kCombat, EventKind::kObjectiveTaken, 1, {H("0506")}, {S("Moulin"), S("blue")}));
  r.events.push_back(Ev(Phase::kEndOfTurn, EventKind::kVictoryPoints, -1, {H("0506")},
                        {S("Moulin"), S("blue"), I{3}}));
  r.events.push_back(
      Ev(Phase::kEndOfTurn, EventKind::kGameEnd, -1, {}, {S("blue"), S("major"), I{3}, I{0}}));
  r.next_state = engine::InitialState(scenario, "g1");
  r.next_state.finished = true;
  r.next_state.outcome.winner = engine::Side::kBlue;
  r.next_state.outcome.level = engine::VictoryLevel::kMajor;
  r.next_state.outcome.vp_blue = 3;
  return r;
}

TEST_CASE("results mail of the last turn: charge, reaction fire, elimination, final result") {
  const engine::Scenario scenario = SmallScenario();
  const engine::TurnResult result = FinalTurn(scenario);
  ResultsInput in = Input(scenario, result);
  in.next_commitment.clear();
  in.next_deadline.reset();
  Mail en;
  REQUIRE(Templates().RenderResults(Language::kEnglish, in, &en).ok);
  INFO(en.text);
  CHECK(Has(en.text,
            "Batterie Lefort (b-a1) in 0303 fired in reaction on <script>alert(1)</script> (o-i1) "
            "in 0404: roll 2, against a bombardment value of 3: hit."));
  CHECK(Has(en.text, "got stuck in the marsh in 0405 (roll 1, stuck on 2 or less)"));
  CHECK(Has(en.text,
            "1er de Ligne (b-i1) charged <script>alert(1)</script> (o-i1) in 0506 from 0505."));
  CHECK(Has(en.text, "tested its morale (charge): roll 6, modified to 8, against 4: failed."));
  CHECK(Has(en.text, "was eliminated in 0506 (no way to retreat)"));
  CHECK(Has(en.text, "regained 1 MV"));
  CHECK(Has(en.text, "advanced from 0505 to 0506"));
  CHECK(Has(en.text, "took Moulin in 0506 for blue"));
  CHECK(Has(en.text, "Moulin: held by blue, 3 VP."));
  CHECK(Has(en.text, "End of the game: blue wins a major victory, 3 VP to 0."));
  CHECK(
      Has(en.text, "The game is over: blue wins a major victory, 3 VP for blue, 0 VP for orange."));
  CHECK_FALSE(Has(en.text, "Next: turn"));
  CHECK_FALSE(Has(en.text, "commitment"));
  Mail fr;
  REQUIRE(Templates().RenderResults(Language::kFrench, in, &fr).ok);
  CHECK(Has(fr.text, "charge <script>alert(1)</script> (o-i1) en 0506 depuis 0505."));
  CHECK(Has(fr.text, "victoire majeure du camp bleu"));
  CHECK(Has(fr.text,
            "Élimination de <script>alert(1)</script> (o-i1) en 0506 (aucune retraite "
            "possible)."));
  CHECK(Has(fr.text, "1er de Ligne (b-i1) prend Moulin en 0506 pour le camp bleu."));
}

TEST_CASE("results mail in French uses the French words") {
  const engine::Scenario scenario = SmallScenario();
  const engine::TurnResult result = SampleTurn(scenario);
  Mail mail;
  REQUIRE(Templates().RenderResults(Language::kFrench, Input(scenario, result), &mail).ok);
  INFO(mail.text);
  CHECK(mail.subject == "Partie g1, tour 2 (bleu)\u00a0: résultats");
  CHECK(Has(mail.text,
            "6 contre 2, rapport 3-1. Dé 4 +1 (attaquant plus haut) \u22121 (écart de "
            "moral) +1 (marais) = 5. Résultat 0/2*\u00a0: perte de l'attaquant 0 VC\u00a0; "
            "perte du défenseur 2 VC, avec test de moral."));
  CHECK(Has(mail.text, "3 (attaque par un pont, divisée par deux) + Batterie Lefort (b-a1) 3 = 6"));
  CHECK(Has(mail.text,
            "1er de Ligne (b-i1) se déplace de 0404 à 0505 (chemin 0405 0505)\u00a0; "
            "2 PM restants."));
  CHECK(Has(mail.text, "<script>alert(1)</script> (o-i1) recule de 0506 à 0607 (combat)."));
  CHECK(Has(mail.text, "Les ordres sont attendus avant le lundi 23 novembre 2026 à 18 h 00 UTC."));
  CHECK(
      Has(mail.text, "jet 5, modifié à 4, contre une valeur de bombardement de 3\u00a0: touché."));
  CHECK(Has(mail.text, "Ensuite\u00a0: tour 3, au camp orange de jouer."));
  CHECK(Has(mail.text, "Moulin (0506)\u00a0: au camp bleu\u00a0; vaut 3 PV pour le camp bleu"));
  CHECK_FALSE(Has(mail.text, " PC"));
  CHECK_FALSE(Has(mail.text, "retraité"));
  CHECK_FALSE(Has(mail.text, "odds"));
}

TEST_CASE("the results mail greets the player by name, never by address") {
  const engine::Scenario scenario = SmallScenario();
  const engine::TurnResult result = SampleTurn(scenario);
  ResultsInput in = Input(scenario, result);
  in.player_name = "H\u00e9l\u00e8ne";
  Mail en;
  Mail fr;
  REQUIRE(Templates().RenderResults(Language::kEnglish, in, &en).ok);
  REQUIRE(Templates().RenderResults(Language::kFrench, in, &fr).ok);
  CHECK_THAT(en.text, Catch::StartsWith("Hello H\u00e9l\u00e8ne,\n"));
  CHECK_THAT(fr.text, Catch::StartsWith("Bonjour H\u00e9l\u00e8ne,\n"));
  CHECK(Has(en.html, "<p>Hello H\u00e9l\u00e8ne,</p>"));
  CHECK(Has(fr.html, "<p>Bonjour H\u00e9l\u00e8ne,</p>"));
  // No name known: nobody named, and not the address either.
  in.player_name.clear();
  REQUIRE(Templates().RenderResults(Language::kEnglish, in, &en).ok);
  REQUIRE(Templates().RenderResults(Language::kFrench, in, &fr).ok);
  CHECK_THAT(en.text, Catch::StartsWith("Hello,\n"));
  CHECK_THAT(fr.text, Catch::StartsWith("Bonjour,\n"));
  CHECK(Has(fr.html, "<p>Bonjour,</p>"));
  CHECK_FALSE(Has(en.text, "blue@example.org"));
  CHECK_FALSE(Has(en.html, "blue@example.org"));
}

TEST_CASE("HTML bodies escape unit names and player addresses") {
  const engine::Scenario scenario = SmallScenario();
  const engine::TurnResult result = SampleTurn(scenario);
  ResultsInput in = Input(scenario, result);
  in.player = "\"><script>steal()</script>@evil.example";
  in.player_name = in.player;  // a name is a stranger's text too
  for (const Language language : kAllLanguages) {
    Mail mail;
    REQUIRE(Templates().RenderResults(language, in, &mail).ok);
    CHECK_FALSE(Has(mail.html, "<script>"));
    CHECK(Has(mail.html, "&lt;script&gt;alert(1)&lt;/script&gt; (o-i1)"));
    CHECK(Has(mail.html, "&quot;&gt;&lt;script&gt;steal()"));
  }
  ReceiptInput receipt;
  receipt.scenario = &scenario;
  receipt.player = "<script>x</script>";
  receipt.player_name = receipt.player;  // the greeting shows the name, a stranger's text
  receipt.verdicts = result.verdicts;
  receipt.verdicts[0].unit = "o-i1";
  Mail mail;
  REQUIRE(Templates().RenderReceipt(Language::kEnglish, receipt, &mail).ok);
  CHECK_FALSE(Has(mail.html, "<script>"));
  CHECK(Has(mail.text, "<script>x</script>"));
}

TEST_CASE("every reason code has an English and a French sentence") {
  int codes = 0;
  for (std::uint16_t r = 0;; ++r) {
    const auto reason = static_cast<engine::Reason>(r);
    const std::string_view code = engine::ReasonCode(reason);
    if (code == "unknown_reason") break;
    ++codes;
    for (const Language language : kAllLanguages) {
      INFO(code << " in " << LanguageCode(language));
      CHECK(Templates().HasReasonSentence(language, code));
      const std::string sentence =
          Templates().ReasonSentence(language, reason, {Hex{1, 2}, std::int64_t{3}});
      CHECK(sentence.size() > 5);
      CHECK_FALSE(Has(sentence, "{{"));
    }
    // The two languages say different things (a missing translation copied from English
    // would show up here), except for sentences made only of arguments.
    CHECK(Templates().ReasonSentence(Language::kEnglish, reason, {}) !=
          Templates().ReasonSentence(Language::kFrench, reason, {}));
  }
  CHECK(codes == 57);
  CHECK(Templates().ReasonSentence(Language::kEnglish, engine::Reason::kWrongTurn,
                                   {std::int64_t{4}, std::int64_t{5}}) ==
        "these orders are for turn 4, but the game is at turn 5.");
  CHECK(Templates().ReasonSentence(Language::kFrench, engine::Reason::kHexOffMap, {H("2201")}) ==
        "l'hexagone 2201 n'est pas sur la carte.");
}

TEST_CASE("order receipt lists each order with its verdict") {
  const engine::Scenario scenario = SmallScenario();
  ReceiptInput in;
  in.scenario = &scenario;
  in.game_id = "g1";
  in.turn = 2;
  in.player = "blue@example.org";
  engine::OrderVerdict ok;
  ok.order_kind = engine::OrderKind::kMove;
  ok.index = 0;
  ok.unit = "b-i1";
  engine::OrderVerdict bad;
  bad.order_kind = engine::OrderKind::kAttack;
  bad.index = 0;
  bad.unit = "b-i1";
  bad.verdict = engine::VerdictKind::kIllegal;
  bad.reason = engine::Reason::kNotInContact;
  bad.args = {H("0709")};
  in.verdicts = {ok, bad};
  Mail en;
  REQUIRE(Templates().RenderReceipt(Language::kEnglish, in, &en).ok);
  INFO(en.text);
  CHECK(en.subject == "Game g1, turn 2 (blue): orders received, 1 of 2 accepted");
  CHECK(Has(en.text, "move 1 (1er de Ligne (b-i1)): accepted"));
  CHECK(
      Has(en.text, "attack 1 (1er de Ligne (b-i1)): refused: the unit in 0709 is not in contact"));
  Mail fr;
  REQUIRE(Templates().RenderReceipt(Language::kFrench, in, &fr).ok);
  CHECK(Has(fr.text, "attaque 1 (1er de Ligne (b-i1))\u00a0: refusé\u00a0: l'unité en 0709"));
  CHECK(Has(fr.text, "l'unité en 0709 n'est pas au contact"));
}

TEST_CASE("each error kind has its own reply in both languages") {
  const engine::Scenario scenario = SmallScenario();
  for (const ErrorKind kind : kAllErrorKinds) {
    ErrorReplyInput in;
    in.kind = kind;
    in.player = "p@example.org";
    in.player_name = "Paul";
    in.game_id = "g1";
    in.original_subject = "orders turn 3";
    in.problems = {"orders.txt:3:7: unknown field \"foo\""};
    engine::OrderVerdict v;
    v.order_kind = engine::OrderKind::kMove;
    v.unit = "b-i1";
    v.verdict = engine::VerdictKind::kInvalid;
    v.reason = engine::Reason::kHexOffMap;
    v.args = {H("9999")};
    in.verdicts = {v};
    in.scenario = &scenario;
    in.current_turn = 4;
    in.received_turn = 3;
    in.size_bytes = 5 * 1024 * 1024;
    in.limit_bytes = 4 * 1024 * 1024;
    in.original_message_id = "<abc@example.org>";
    for (const Language language : kAllLanguages) {
      Mail mail;
      const Status s = Templates().RenderErrorReply(language, in, &mail);
      INFO(ErrorKindName(kind) << " " << LanguageCode(language) << ": " << s.message);
      REQUIRE(s.ok);
      INFO(mail.text);
      CHECK(Has(mail.subject, "orders turn 3"));
      CHECK(Has(mail.text, language == Language::kFrench ? "Bonjour Paul,\n" : "Hello Paul,\n"));
      CHECK_FALSE(Has(mail.text, "p@example.org"));  // greeted by name, never by address
      CHECK(Has(mail.html, "<html"));
      switch (kind) {
        case ErrorKind::kMalformed:
          CHECK(Has(mail.text, "orders.txt:3:7: unknown field \"foo\""));
          CHECK(Has(mail.html, "unknown field &quot;foo&quot;"));
          break;
        case ErrorKind::kIllegal:
          CHECK(Has(mail.text, "9999"));
          CHECK(Has(mail.text, language == Language::kEnglish ? "is not on the map"
                                                              : "n'est pas sur la carte"));
          break;
        case ErrorKind::kUnauthenticated:
          CHECK(Has(mail.text, language == Language::kEnglish ? "token" : "jeton"));
          break;
        case ErrorKind::kWrongGame:
          CHECK(Has(mail.text, "g1"));
          break;
        case ErrorKind::kStaleTurn:
          CHECK(Has(mail.subject, language == Language::kEnglish ? "turn 3, the game is at turn 4"
                                                                 : "au tour 4"));
          break;
        case ErrorKind::kOversized:
          CHECK(Has(mail.text, "5120"));
          CHECK(Has(mail.text, "4096"));
          break;
        case ErrorKind::kDuplicate:
          CHECK(Has(mail.text, "<abc@example.org>"));
          CHECK(Has(mail.html, "&lt;abc@example.org&gt;"));
          break;
        case ErrorKind::kUnavailable:
          CHECK(Has(mail.text, language == Language::kEnglish ? "cannot take orders"
                                                              : "ne peut pas prendre d'ordres"));
          break;
      }
      // No code given: no code line.
      CHECK_FALSE(Has(mail.text, "Error: "));
      CHECK_FALSE(Has(mail.text, "Code d'erreur"));
    }
  }
}

TEST_CASE("a refusal shows the stable error code and the detail sentence in both languages") {
  for (const ErrorKind kind : kAllErrorKinds) {
    if (kind == ErrorKind::kDuplicate) continue;  // not a refusal: no code
    ErrorReplyInput in;
    in.kind = kind;
    in.player = "p@example.org";
    in.game_id = "g1";
    in.original_subject = "orders";
    in.code = "some_code";
    in.detail = "the token in the orders is not the token of side <blue>";
    in.limit_bytes = 1 << 20;
    for (const Language language : kAllLanguages) {
      Mail mail;
      REQUIRE(Templates().RenderErrorReply(language, in, &mail).ok);
      INFO(ErrorKindName(kind) << " " << LanguageCode(language) << ": " << mail.text);
      const bool en = language == Language::kEnglish;
      CHECK(Has(mail.text, en ? "\nError: some_code\nDetail: the token in the orders is not the "
                                "token of side <blue>\n"
                              : "\nCode d'erreur\u00a0: some_code\nDétail (en anglais, tel que "
                                "l'arbitre l'enregistre)\u00a0: the token in the orders is not the "
                                "token of side <blue>\n"));
      CHECK(Has(mail.html, "<code>some_code</code>"));
      CHECK(Has(mail.html, "side &lt;blue&gt;"));
    }
  }
  // The size of an oversized mail is shown only when known.
  ErrorReplyInput in;
  in.kind = ErrorKind::kOversized;
  in.player = "p@example.org";
  in.limit_bytes = 1 << 20;
  Mail mail;
  REQUIRE(Templates().RenderErrorReply(Language::kEnglish, in, &mail).ok);
  CHECK(Has(mail.text, "Your mail is more than the 1024 KiB this referee accepts"));
  in.size_bytes = 3 << 20;
  REQUIRE(Templates().RenderErrorReply(Language::kEnglish, in, &mail).ok);
  CHECK(Has(mail.text, "Your mail is 3072 KiB, more than the 1024 KiB"));
}

TEST_CASE("reminder names the deadline and the time left") {
  ReminderInput in;
  in.game_id = "g1";
  in.turn = 5;
  in.side = "orange";
  in.player = "orange@example.org";
  in.deadline = std::chrono::sys_days{std::chrono::year{2026} / 1 / 2} + std::chrono::hours{7} +
                std::chrono::minutes{5};
  in.time_left = std::chrono::minutes{150};
  Mail en;
  REQUIRE(Templates().RenderReminder(Language::kEnglish, in, &en).ok);
  CHECK(en.subject ==
        "Game g1, turn 5 (orange): your orders are due by Friday 2 January 2026 at 07:05 UTC");
  CHECK(Has(en.text, "2 h 30 min are left"));
  Mail fr;
  REQUIRE(Templates().RenderReminder(Language::kFrench, in, &fr).ok);
  CHECK(Has(fr.text, "il reste 2 h 30 min"));
  // The deadline is the "your move, due by ..." line the turn loop puts first (AddMoveRequest):
  // the body does not say it a second time.
  for (const Mail* mail : {&en, &fr}) {
    CHECK_FALSE(Has(mail->text, "2026"));
    CHECK_FALSE(Has(mail->html, "2026"));
  }
}

TEST_CASE("every mail a player reads greets them by name, else nobody, never the address") {
  const engine::Scenario scenario = SmallScenario();
  const engine::TurnResult result = SampleTurn(scenario);
  const std::string address = "bruno@example.org";
  ReceiptInput receipt;
  receipt.scenario = &scenario;
  receipt.verdicts = result.verdicts;
  receipt.player = address;
  ReminderInput reminder;
  reminder.player = address;
  WelcomeInput welcome;
  welcome.player = address;
  std::vector<ErrorReplyInput> errors;
  for (const ErrorKind kind : kAllErrorKinds) {
    ErrorReplyInput error;
    error.kind = kind;
    error.player = address;
    error.verdicts = result.verdicts;
    errors.push_back(error);
  }
  for (const std::string name : {"Bruno", ""}) {
    receipt.player_name = reminder.player_name = welcome.player_name = name;
    for (ErrorReplyInput& error : errors) error.player_name = name;
    for (const Language language : kAllLanguages) {
      const std::string hello = language == Language::kFrench ? "Bonjour" : "Hello";
      const std::string greeting = hello + (name.empty() ? "" : " " + name) + ",";
      std::vector<Mail> mails(3 + errors.size());
      REQUIRE(Templates().RenderReceipt(language, receipt, &mails[0]).ok);
      REQUIRE(Templates().RenderReminder(language, reminder, &mails[1]).ok);
      REQUIRE(Templates().RenderWelcome(language, welcome, &mails[2]).ok);
      for (std::size_t i = 0; i < errors.size(); ++i) {
        REQUIRE(Templates().RenderErrorReply(language, errors[i], &mails[3 + i]).ok);
      }
      for (const Mail& mail : mails) {
        INFO(mail.text);
        const bool greets =
            Has(mail.text, "\n" + greeting + "\n") || mail.text.rfind(greeting + "\n", 0) == 0;
        CHECK(greets);
        CHECK(Has(mail.html, "<p>" + greeting + "</p>"));
        CHECK_FALSE(Has(mail.text, hello + " " + address));
        CHECK_FALSE(Has(mail.html, hello + " " + address));
      }
    }
  }
}

TEST_CASE("loading refuses a template set with a missing file") {
  MailTemplates t;
  const Status s = MailTemplates::Load("/nonexistent/mail", &t);
  CHECK_FALSE(s.ok);
  CHECK(Has(s.message, "/nonexistent/mail/en/results.subject"));
}

TEST_CASE("languages parse from codes and names") {
  CHECK(ParseLanguage("fr") == Language::kFrench);
  CHECK(ParseLanguage("FR") == Language::kFrench);
  CHECK(ParseLanguage("english") == Language::kEnglish);
  CHECK_FALSE(ParseLanguage("de").has_value());
  CHECK(LanguageCode(Language::kFrench) == "fr");
}

}  // namespace
}  // namespace pbem::templates

namespace pbem::templates {
namespace {

// Arguments of the shape the engine gives each reason code (engine/morne_plaine/*.cc); a code
// missing here fails the walk below, so a new code comes with its sample and its sentences.
std::vector<Arg> SampleArgs(engine::Reason r) {
  using R = engine::Reason;
  using I = std::int64_t;
  using S = std::string;
  switch (r) {
    case R::kNone:
    case R::kEmptyPath:
    case R::kPathAndDestination:
    case R::kSetupNotAllowed:
    case R::kDependsOnDice:
      return {};
    case R::kWillCharge:  // from, charged hex, charged unit (engine/morne_plaine/check_dry_run.cc)
      return {H("0405"), H("0406"), S("o-i1")};
    case R::kViaPath:  // the hexes of the route
      return {H("0405"), H("0406"), H("0507")};
    case R::kBadHexLabel:
      return {S("12x4")};
    case R::kUnknownUnit:
      return {S("o-zz9")};
    case R::kMissingField:
      return {S("turn")};
    case R::kWrongGame:
      return {S("g7"), S("g1")};
    case R::kWrongTurn:
      return {I{4}, I{5}};
    case R::kWrongSide:
      return {S("blue"), S("orange")};
    case R::kGameFinished:
      return {S("g1")};
    case R::kWrongSystem:
      return {S("m42")};
    case R::kNotYourUnit:
    case R::kUnitEliminated:
    case R::kUnitNotOnMap:
    case R::kDuplicateOrder:
    case R::kNotArtillery:
    case R::kAttackSelf:
    case R::kUnitAlreadyPlaced:
    case R::kUnitFixed:
    case R::kAlreadyFired:
    case R::kAlreadyAttacked:
    case R::kAlreadyDefended:
      return {S("b-i1")};
    case R::kFromMismatch:
    case R::kZocLeaveIntoZoc:
    case R::kZocLeaveIntoMountedZoc:
      return {H("0405"), H("0304")};
    case R::kPathNotAdjacent:
      return {H("0405"), H("0607"), I{1}};
    case R::kHexOffMap:
    case R::kTargetIsOwnUnit:
    case R::kNoUnitAtTarget:
    case R::kAttackOwnUnit:
    case R::kPlacementOutsideZone:
    case R::kPlacementOccupied:
    case R::kDemoralisedIntoZoc:
    case R::kEnteredEnemyZoc:
    case R::kStuckInMarsh:
    case R::kMoveEndedInZoc:
    case R::kBombardedCannotMove:
    case R::kEliminatedDuringMove:
    case R::kNoTarget:
    case R::kBombardInEnemyZoc:
    case R::kNotInContact:
    case R::kDemoralisedCannotAttack:
      return {H("0405")};
    case R::kHexOccupied:
      return {H("0405"), S("o-i1")};
    case R::kHexsideImpassable:
      return {H("0405"), H("0304"), S("river")};
    case R::kTerrainImpassable:
      return {H("0405"), S("marsh")};
    case R::kNotEnoughMovementPoints:
      return {H("0405"), I{3}, I{2}};
    case R::kDestinationUnreachable:
      return {H("1107"), I{2}};
    case R::kSetupOnlyTurn:
      return {I{1}};
    case R::kNotImplemented:
      return {S("combat")};
    case R::kOutOfRange:
      return {H("0909"), I{7}, I{2}, I{5}};
    case R::kNoLineOfSight:
      return {H("0909"), H("0707")};
    case R::kCannotFireFromTerrain:
      return {H("0303"), S("woods")};
    case R::kMayNotAttack:
      return {S("leader")};
  }
  FAIL("no sample arguments for " << engine::ReasonCode(r));
  return {};
}

TEST_CASE("every reason code reads as a sentence in both languages, its arguments in place") {
  const engine::Scenario scenario = SmallScenario();
  int codes = 0;
  for (std::uint16_t n = 1;; ++n) {
    const auto reason = static_cast<engine::Reason>(n);
    const std::string code(engine::ReasonCode(reason));
    if (code == "unknown_reason") break;
    ++codes;
    engine::OrderVerdict v;
    v.order_kind = engine::OrderKind::kMove;
    v.index = 1;
    v.unit = "b-i1";
    v.verdict = engine::VerdictKind::kIllegal;
    v.reason = reason;
    v.args = SampleArgs(reason);
    for (const Language language : kAllLanguages) {
      const std::string line = Templates().VerdictSentence(language, v, &scenario);
      INFO(code << " in " << LanguageCode(language) << ": " << line);
      CHECK_FALSE(Has(line, "{{"));
      CHECK_FALSE(Has(line, code));
      CHECK_FALSE(Has(line, "_"));  // no code of any kind (arguments included)
      CHECK(Has(line, language == Language::kEnglish ? "move 2 (1er de Ligne (b-i1)): refused: "
                                                     : "mouvement 2 (1er de Ligne (b-i1))\u00a0: "
                                                       "refusé\u00a0: "));
      // Hexes and numbers appear as given (the step index of a path is not told).
      for (std::size_t i = 0; i < v.args.size(); ++i) {
        if (const auto* h = std::get_if<Hex>(&v.args[i]))
          CHECK(Has(line, engine::FormatLabel(*h, 2)));
        const bool step = reason == engine::Reason::kPathNotAdjacent && i == 2;
        if (const auto* k = std::get_if<std::int64_t>(&v.args[i]); k && !step) {
          CHECK(Has(line, std::to_string(*k)));
        }
      }
    }
  }
  CHECK(codes == 56);
}

TEST_CASE("verdict sentences: the one wording, with unit names and words for codes") {
  const engine::Scenario scenario = SmallScenario();
  engine::OrderVerdict v;
  v.order_kind = engine::OrderKind::kAttack;
  v.index = 0;
  v.unit = "b-i1";
  v.verdict = engine::VerdictKind::kIllegal;
  v.reason = engine::Reason::kNotInContact;
  v.args = {H("1811")};
  CHECK(Templates().VerdictSentence(Language::kEnglish, v, &scenario) ==
        "attack 1 (1er de Ligne (b-i1)): refused: the unit in 1811 is not in contact (not "
        "adjacent, or across a river or a steep slope).");
  CHECK(Templates().VerdictSentence(Language::kFrench, v, nullptr) ==
        "attaque 1 (b-i1)\u00a0: refusé\u00a0: l'unité en 1811 n'est pas au contact (pas "
        "adjacente, ou au-delà d'une rivière ou d'une pente raide).");
  v.order_kind = engine::OrderKind::kMove;
  v.verdict = engine::VerdictKind::kInvalid;
  v.reason = engine::Reason::kPathNotAdjacent;
  v.args = {H("1816"), H("1715"), std::int64_t{1}};
  CHECK(Templates().VerdictSentence(Language::kEnglish, v, nullptr, 2) ==
        "move 1 (b-i1): not understood: 1816 and 1715 on the path are not next to each other "
        "(step 2).");
  v.order_kind = engine::OrderKind::kHeader;
  v.unit.clear();
  v.verdict = engine::VerdictKind::kIllegal;
  v.reason = engine::Reason::kWrongSide;
  v.args = {std::string("blue"), std::string("orange")};
  CHECK(
      Templates().VerdictSentence(Language::kFrench, v, nullptr) ==
      "en-tête des ordres\u00a0: refusé\u00a0: ces ordres sont pour le camp bleu, or c'est le camp "
      "orange qui doit jouer.");
  v.order_kind = engine::OrderKind::kMove;
  v.unit = "b-i1";
  v.verdict = engine::VerdictKind::kIllegal;
  v.reason = engine::Reason::kHexsideImpassable;
  v.args = {H("0405"), H("0304"), std::string("major_river")};
  CHECK(Templates().VerdictSentence(Language::kFrench, v, &scenario) ==
        "mouvement 1 (1er de Ligne (b-i1))\u00a0: refusé\u00a0: le côté d'hexagone entre 0304 et "
        "0405 (un fleuve) est infranchissable.");
}

TEST_CASE("verdict sentences show what the player wrote cut, never a huge or multi-line value") {
  const engine::Scenario scenario = SmallScenario();
  engine::OrderVerdict v;
  v.order_kind = engine::OrderKind::kMove;
  v.index = 0;
  v.unit = std::string(5000, 'x');
  v.verdict = engine::VerdictKind::kInvalid;
  v.reason = engine::Reason::kUnknownUnit;
  v.args = {std::string(5000, 'x')};
  const std::string shown = std::string(64, 'x') + "...";
  CHECK(Templates().VerdictSentence(Language::kEnglish, v, &scenario) ==
        "move 1 (" + shown + "): not understood: there is no unit \"" + shown + "\" in this game.");
  v.unit = "b-i9\nBcc: x";
  v.args = {std::string("b-i9\nBcc: x")};
  CHECK(Templates().VerdictSentence(Language::kEnglish, v, &scenario) ==
        "move 1 (b-i9?Bcc: x): not understood: there is no unit \"b-i9?Bcc: x\" in this game.");
}

TEST_CASE("dates in the player's language: French months, 1er, no leading zero") {
  using namespace std::chrono;
  const sys_seconds t1 = sys_days{year{2026} / 11 / 25} + hours{19} + minutes{41};
  const sys_seconds t2 = sys_days{year{2027} / 3 / 1} + hours{9} + minutes{5};
  CHECK(Templates().FormatDate(Language::kFrench, t1) ==
        "le mercredi 25 novembre 2026 à 19 h 41 UTC");
  CHECK(Templates().FormatDate(Language::kFrench, t2) == "le lundi 1er mars 2027 à 9 h 05 UTC");
  CHECK(Templates().FormatDate(Language::kEnglish, t1) ==
        "Wednesday 25 November 2026 at 19:41 UTC");
  CHECK(Templates().FormatDate(Language::kEnglish, t2) == "Monday 1 March 2027 at 09:05 UTC");
}

TEST_CASE("French report lines need neither the unit's gender nor its number") {
  using I = std::int64_t;
  using S = std::string;
  engine::Scenario scenario = SmallScenario();
  scenario.units.push_back(Unit("o-l1", "Général Vautrin", engine::Side::kOrange));
  scenario.units.push_back(Unit("o-c1", "Dragons de la Garde", engine::Side::kOrange));
  engine::TurnResult r;
  r.events.push_back(
      Ev(Phase::kMovement, EventKind::kMoveStep, 3, {H("1811"), H("1715")}, {I{1}, I{1}, S("")}));
  r.events.push_back(
      Ev(Phase::kMovement, EventKind::kMoveStep, 4, {H("1812"), H("1813")}, {I{1}, I{0}, S("")}));
  r.events.push_back(Ev(Phase::kCombat, EventKind::kEliminated, 4, {H("1813")}, {S("no_retreat")}));
  r.events.push_back(
      Ev(Phase::kCombat, EventKind::kRetreat, 3, {H("1715"), H("1716")}, {S("combat")}));
  r.next_state = engine::InitialState(scenario, "g1");
  ResultsInput in = Input(scenario, r);
  in.side = "orange";
  Mail fr;
  REQUIRE(Templates().RenderResults(Language::kFrench, in, &fr).ok);
  INFO(fr.text);
  CHECK(Has(fr.text,
            "  - Général Vautrin (o-l1) se déplace de 1811 à 1715 (chemin 1715)\u00a0; "
            "1 PM restant.\n"));
  CHECK(Has(fr.text,
            "  - Dragons de la Garde (o-c1) se déplace de 1812 à 1813 (chemin 1813)\u00a0; "
            "plus aucun PM.\n"));
  CHECK(Has(fr.text,
            "  - Élimination de Dragons de la Garde (o-c1) en 1813 (aucune retraite "
            "possible).\n"));
  CHECK(Has(fr.text, "  - Général Vautrin (o-l1) recule de 1715 à 1716 (combat).\n"));
  CHECK(Has(fr.text, "  - Unité éliminée\u00a0: Dragons de la Garde (o-c1).\n"));
  CHECK_FALSE(Has(fr.text, "éliminée en"));
  CHECK_FALSE(Has(fr.text, "s'est déplacée"));
}

TEST_CASE("results mail: headline first, phases in order, refusals before the dice") {
  const engine::Scenario scenario = SmallScenario();
  engine::TurnResult result = SampleTurn(scenario);
  // The command check is logged first (bombardment phase) but belongs with movement.
  result.events.insert(result.events.begin(),
                       Ev(Phase::kBombardment, EventKind::kCommandCheck, 1, {H("0404")},
                          {std::string("out_of_command"), std::string("none"), std::int64_t{9}}));
  Mail en;
  REQUIRE(Templates().RenderResults(Language::kEnglish, Input(scenario, result), &en).ok);
  INFO(en.text);
  const auto at = [&](const std::string& s) { return en.text.find(s); };
  REQUIRE(at("In short\n  - Losses: blue none; orange 1 MV.") != std::string::npos);
  REQUIRE(at("\nBombardment\n") != std::string::npos);
  REQUIRE(at("\nMovement\n  - 1er de Ligne (b-i1) in 0404 is out of command") != std::string::npos);
  CHECK(at("In short") < at("\nBombardment\n"));
  CHECK(at("\nBombardment\n") < at("\nMovement\n"));
  CHECK(at("Orders not carried out in full:") < at("Dice: this turn's seed"));
  CHECK(at("Orders not carried out in full:") != std::string::npos);
  Mail fr;
  REQUIRE(Templates().RenderResults(Language::kFrench, Input(scenario, result), &fr).ok);
  CHECK(Has(fr.text, "En bref\n  - Pertes\u00a0: camp bleu aucune\u00a0; camp orange 1 VM."));
}

TEST_CASE("a missed turn says that no orders arrived by the deadline") {
  const engine::Scenario scenario = SmallScenario();
  engine::TurnResult result;
  result.next_state = engine::InitialState(scenario, "g1");
  ResultsInput in = Input(scenario, result);
  in.orders_missed = true;
  Mail en;
  REQUIRE(Templates().RenderResults(Language::kEnglish, in, &en).ok);
  CHECK(Has(en.text, "No orders arrived by the deadline: the blue side played no orders"));
  CHECK_FALSE(Has(en.text, "Nothing happened"));
  Mail fr;
  REQUIRE(Templates().RenderResults(Language::kFrench, in, &fr).ok);
  CHECK(
      Has(fr.text, "Aucun ordre n'est arrivé avant l'échéance\u00a0: le camp bleu n'a joué aucun"));
  CHECK(Has(fr.text, "Aucune perte\u00a0; aucun objectif n'a changé de mains."));
}

}  // namespace
}  // namespace pbem::templates
