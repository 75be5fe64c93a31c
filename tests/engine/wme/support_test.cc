// §5.4 step 9, the *charge de soutien* (WME-R53, R63; WME-P16, GAP-22), hand-worked: the digest
// has no worked case for it (§7 stops at T25), so these are the engine's own.
//
// Setup (SupportGame): red infantry line R facing south, x 18-30, y 44-46 (front edge y = 44);
// blue infantry line E facing north, x 18-30, y 29-31; blue infantry line G right behind E,
// x 18-30, y 27-29, its front edge on E's rear edge y = 29 (WME-P16).
//
//     y 44-46   [R.1][R.2][R.3]
//     y 42-44   [E.1][E.2][E.3]    after the charge: E 13 cm north, front edges on y = 44
//     y 40-42   [G.1][G.2][G.3]    G follows, 13 cm north, front edges on E's rear y = 42
//     ...
//     y 29-31   [E.1][E.2][E.3]    before
//     y 27-29   [G.1][G.2][G.3]
//
// E's charge (steps 6-7): every base of E is 13 cm from the slot centred on the R base in front
// of it; the first base is E.1 (least travel, ties: state order) at (20,43), E.2 and E.3 beside
// it at (24,43), (28,43). G's row (charge_support.cc): front edge on the charger's rearmost
// point, y = 42, centres on y = 41 at x = 20 - 4i; the window i = 0, -1, -2 puts all three G
// bases behind an E base (3 contacts, the most), G.1 -> (20,41), G.2 -> (24,41), G.3 -> (28,41),
// each 13 cm straight on, within G's allowance of 20 (infantry in LINE, C-1).
#include "engine/wme/charge.h"
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
constexpr TroopType kInf = TroopType::kInfantry;

Game SupportGame(Milli g_y = Cm(28), std::int64_t g_heading = 90000) {
  Game g;
  g.Unit("R", "red", kInf,
         {{Cm(20), Cm(45), 270000}, {Cm(24), Cm(45), 270000}, {Cm(28), Cm(45), 270000}});
  g.Unit("E", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}, {Cm(28), Cm(30)}});
  g.Unit("G", "blue", kInf,
         {{Cm(20), g_y, g_heading}, {Cm(24), g_y, g_heading}, {Cm(28), g_y, g_heading}});
  return g;
}

ChargeOrder Supported(const std::string& supporter) {
  ChargeOrder c = ChargeAt("E", "R");
  c.support = supporter;
  return c;
}

Verdict NotEligible(const std::string& supporter, const std::string& condition) {
  Verdict v = Ok("E");
  v.reason = Reason::kSupportNotEligible;
  v.other = supporter;
  v.detail = condition;
  return v;
}

// The main charge played as without support: E's three bases against R, y = 43.
void CheckMainChargePlayed(const PlayerTurnResult& r) {
  for (const char* id : {"E.1", "E.2", "E.3"}) {
    CHECK_EQ_MINI(FindBase(r.next, id)->centre.y(), ToUnits(Cm(43)));
  }
  CHECK_MINI(FindUnit(r.next, "E")->engaged && FindUnit(r.next, "R")->engaged);
}

PlayerTurnResult Play(const Game& g, std::vector<Entry> orders) {
  ScriptedDice dice({});
  return ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), {"blue", {}, std::move(orders)}, dice);
}

// The eligible supporter follows in line behind the charger (the placement in the header).
TEST_CASE_MINI(EligibleSupporterFollowsInLine) {
  const Game g = SupportGame();
  const ChargeCheck c = TryCharge(g, Supported("G"));
  CHECK_EQ_MINI(c.verdict, Ok("E"));
  REQUIRE_MINI(c.support.has_value() && c.support->bases.size() == 3);
  CHECK_EQ_MINI(c.support->touching_charger, 3);
  const PlayerTurnResult r = Play(g, {Supported("G")});
  CHECK_EQ_MINI(r.verdicts[0], Ok("E"));
  const std::vector<Event> want{
      Moved{"E.1", Cm(20), Cm(30), 90000, Cm(20), Cm(43), 90000, Cm(13)},
      Moved{"E.2", Cm(24), Cm(30), 90000, Cm(24), Cm(43), 90000, Cm(13)},
      Moved{"E.3", Cm(28), Cm(30), 90000, Cm(28), Cm(43), 90000, Cm(13)},
      FormationNow{"E", table::Formation::kLine},
      // G's nearest place to E's first base (20,43) first: (20,41), then (24,41), (28,41).
      Moved{"G.1", Cm(20), Cm(28), 90000, Cm(20), Cm(41), 90000, Cm(13)},
      Moved{"G.2", Cm(24), Cm(28), 90000, Cm(24), Cm(41), 90000, Cm(13)},
      Moved{"G.3", Cm(28), Cm(28), 90000, Cm(28), Cm(41), 90000, Cm(13)},
      FormationNow{"G", table::Formation::kLine}, SupportingCharge{"G", "E"},
      ChargeContact{"E", "R", table::Zone::kFront, "E.1", "R.1"}, PhaseEnded{"blue", 1}};
  CHECK_MINI(r.events == want);
  CheckMainChargePlayed(r);
  CHECK_MINI(FindUnit(r.next, "G")->engaged);  // in the charge (moved flags end with the turn)
  ScriptedDice again({});
  CHECK_MINI(CheckOrders(g.ruleset, g.scenario, g.Start(), {"blue", {}, {Supported("G")}}, again) ==
             r.verdicts);
}

// A supporter out of reach: G 8 cm behind E (y 19-21) is not behind it (no rear-edge contact);
// G 1 cm lower (y 26-28) neither (a gap of 1 cm is no contact, WME-P16).
TEST_CASE_MINI(SupporterNotBehind) {
  for (Milli y : {Cm(20), Cm(27)}) {
    const Game g = SupportGame(y);
    const PlayerTurnResult r = Play(g, {Supported("G")});
    CHECK_EQ_MINI(r.verdicts[0], NotEligible("G", "not_behind"));
    CheckMainChargePlayed(r);
    CHECK_EQ_MINI(FindBase(r.next, "G.2")->centre.y(), ToUnits(y));  // G stays
    CHECK_MINI(!FindUnit(r.next, "G")->engaged);
  }
}

// WME-P16 "headings equal": G facing south, its rear edge on E's rear edge, is not behind.
TEST_CASE_MINI(SupporterFacingAwayIsNotBehind) {
  const Game g = SupportGame(Cm(28), 270000);
  const PlayerTurnResult r = Play(g, {Supported("G")});
  CHECK_EQ_MINI(r.verdicts[0], NotEligible("G", "not_behind"));
  CheckMainChargePlayed(r);
}

// Each of the unit's own conditions, in the order charge_support.cc checks them.
TEST_CASE_MINI(SupporterStateConditions) {
  {  // the charger itself
    const PlayerTurnResult r = Play(SupportGame(), {Supported("E")});
    CHECK_EQ_MINI(r.verdicts[0], NotEligible("E", "charger"));
    CheckMainChargePlayed(r);
  }
  {  // an enemy unit
    Game g = SupportGame();
    g.Unit("Z", "red", kInf, {{Cm(60), Cm(28)}});
    const PlayerTurnResult r = Play(g, {Supported("Z")});
    CHECK_EQ_MINI(r.verdicts[0], NotEligible("Z", "not_own"));
    CheckMainChargePlayed(r);
  }
  {  // cavalry behind E (WME-R53: only infantry supports)
    Game g;
    g.Unit("R", "red", kInf,
           {{Cm(20), Cm(45), 270000}, {Cm(24), Cm(45), 270000}, {Cm(28), Cm(45), 270000}});
    g.Unit("E", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}, {Cm(28), Cm(30)}});
    g.Unit("G", "blue", TroopType::kCavalry, {{Cm(23), Cm(27)}, {Cm(25), Cm(27)}});
    const PlayerTurnResult r = Play(g, {Supported("G")});
    CHECK_EQ_MINI(r.verdicts[0], NotEligible("G", "not_infantry"));
    CheckMainChargePlayed(r);
  }
  for (auto [flag, condition] :
       {std::pair{&UnitSpec::confused, "confused"}, std::pair{&UnitSpec::engaged, "engaged"}}) {
    Game g = SupportGame();
    g.scenario.units.back().*flag = true;
    const PlayerTurnResult r = Play(g, {Supported("G")});
    CHECK_EQ_MINI(r.verdicts[0], NotEligible("G", condition));
    CheckMainChargePlayed(r);
  }
  {  // moved by order earlier this turn ([WME-CMD]): G stepped 1 cm back first
    const Game g = SupportGame();
    const MoveOrder back = Advance("G", {{"G.1", {Translate(Cm(20), Cm(27))}},
                                         {"G.2", {Translate(Cm(24), Cm(27))}},
                                         {"G.3", {Translate(Cm(28), Cm(27))}}});
    const PlayerTurnResult r = Play(g, {back, Supported("G")});
    CHECK_EQ_MINI(r.verdicts[0], Ok("G"));
    CHECK_EQ_MINI(r.verdicts[1], NotEligible("G", "moved"));
    CheckMainChargePlayed(r);
  }
}

// Eligible but unable to follow: G irregular at the start (G.3 half a base back, x 26-30,
// y 26-28, edge contact with G.2 along x = 26 over 1 cm) charges at half speed (C-1), 10 cm,
// and every row place is 13 cm or more away: SUPPORT_NOT_ELIGIBLE "no_place", E charges alone.
TEST_CASE_MINI(SupporterOutOfReach) {
  Game g;
  g.Unit("R", "red", kInf,
         {{Cm(20), Cm(45), 270000}, {Cm(24), Cm(45), 270000}, {Cm(28), Cm(45), 270000}});
  g.Unit("E", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}, {Cm(28), Cm(30)}});
  g.Unit("G", "blue", kInf, {{Cm(20), Cm(28)}, {Cm(24), Cm(28)}, {Cm(28), Cm(27)}});
  const PlayerTurnResult r = Play(g, {Supported("G")});
  CHECK_EQ_MINI(r.verdicts[0], NotEligible("G", "no_place"));
  CheckMainChargePlayed(r);
  CHECK_EQ_MINI(FindBase(r.next, "G.1")->centre.y(), ToUnits(Cm(28)));
  // With full speed for irregular chargers (C-1's alternative) G follows: 13 cm each.
  g.ruleset.irregular_charge_speed = IrregularChargeSpeed::kFull;
  const PlayerTurnResult full = Play(g, {Supported("G")});
  CHECK_EQ_MINI(full.verdicts[0], Ok("E"));
  CHECK_EQ_MINI(FindBase(full.next, "G.1")->centre.y(), ToUnits(Cm(41)));
  CHECK_EQ_MINI(FindBase(full.next, "G.3")->centre.y(), ToUnits(Cm(41)));
}

// Behind a column: cavalry X (one CHOC base facing south, x 23-25, y 43-47) is narrower than an
// E base, so E.2 (least travel, 12) takes the slot (24,42) and E.1, E.3 find no contact and go
// to the reserve BEHIND (24,40), (24,38). The charger's rearmost point is y = 37: G's row has
// centres on y = 36 at x = 24 - 4i, and only the place i = 0 (x 22-26) is behind a charger
// base (E's base at (24,38)); of the three windows holding it, i = -1..1 keeps G where it is
// across: G.3 -> (28,36), G.2 -> (24,36), G.1 -> (20,36), 8 cm each (24 in all; the window
// i = -2..0 costs 3 x sqrt(4^2 + 8^2) = 26.833, i = 0..2 as much).
TEST_CASE_MINI(SupporterBehindAColumn) {
  Game g;
  g.Unit("X", "red", TroopType::kCavalry, {{Cm(24), Cm(45), 270000}});
  g.Unit("E", "blue", kInf, {{Cm(20), Cm(30)}, {Cm(24), Cm(30)}, {Cm(28), Cm(30)}});
  g.Unit("G", "blue", kInf, {{Cm(20), Cm(28)}, {Cm(24), Cm(28)}, {Cm(28), Cm(28)}});
  ChargeOrder c = ChargeAt("E", "X");
  c.support = "G";
  const ChargeCheck check = TryCharge(g, c);
  CHECK_EQ_MINI(check.verdict, Ok("E"));
  REQUIRE_MINI(check.support.has_value());
  CHECK_EQ_MINI(check.support->touching_charger, 1);
  const PlayerTurnResult r = Play(g, {c});
  CHECK_MINI(FindBase(r.next, "E.2")->centre == Pt(Cm(24), Cm(42)));
  CHECK_MINI(FindBase(r.next, "G.1")->centre == Pt(Cm(20), Cm(36)));
  CHECK_MINI(FindBase(r.next, "G.2")->centre == Pt(Cm(24), Cm(36)));
  CHECK_MINI(FindBase(r.next, "G.3")->centre == Pt(Cm(28), Cm(36)));
  CHECK_MINI(std::find(r.events.begin(), r.events.end(),
                       Event{Moved{"G.3", Cm(28), Cm(28), 90000, Cm(28), Cm(36), 90000, Cm(8)}}) !=
             r.events.end());
}

// The row touches no enemy: red Z (x 30-34, y 39-41) touches G's place (28,41) along x = 30, so
// the window x = 20, 24, 28 is out; x = 16, 20, 24 puts two G bases behind E (E.1, E.2), the
// most left: G.3 -> (24,41), G.2 -> (20,41), G.1 -> (16,41), each sqrt(4^2 + 13^2) = 13.601.
// Z touches neither E's paths (only along x = 30) nor E's places (1 cm below E.3).
TEST_CASE_MINI(SupporterTouchesNoEnemy) {
  Game g = SupportGame();
  g.Unit("Z", "red", kInf, {{Cm(32), Cm(40)}});
  const PlayerTurnResult r = Play(g, {Supported("G")});
  CHECK_EQ_MINI(r.verdicts[0], Ok("E"));
  CheckMainChargePlayed(r);
  CHECK_MINI(FindBase(r.next, "G.1")->centre == Pt(Cm(16), Cm(41)));
  CHECK_MINI(FindBase(r.next, "G.2")->centre == Pt(Cm(20), Cm(41)));
  CHECK_MINI(FindBase(r.next, "G.3")->centre == Pt(Cm(24), Cm(41)));
  CHECK_MINI(std::find(r.events.begin(), r.events.end(),
                       Event{Moved{"G.1", Cm(20), Cm(28), 90000, Cm(16), Cm(41), 90000,
                                   Cm(13, 601)}}) != r.events.end());
  CHECK_MINI(!FindUnit(r.next, "Z")->engaged);
}

// Under an EXPLICIT charge the player places E (the same places as AUTO) and G follows AUTO.
TEST_CASE_MINI(SupporterFollowsAnExplicitCharge) {
  ChargeOrder c = Supported("G");
  c.placement = Placement::kExplicit;
  c.bases = {{"E.1", {Translate(Cm(20), Cm(43))}},
             {"E.2", {Translate(Cm(24), Cm(43))}},
             {"E.3", {Translate(Cm(28), Cm(43))}}};
  const PlayerTurnResult r = Play(SupportGame(), {c});
  CHECK_EQ_MINI(r.verdicts[0], Ok("E"));
  CheckMainChargePlayed(r);
  for (const char* id : {"G.1", "G.2", "G.3"}) {
    CHECK_EQ_MINI(FindBase(r.next, id)->centre.y(), ToUnits(Cm(41)));
  }
}

// By initiative (R, 13 cm away, is E's nearest visible enemy): G follows, and is engaged, so an
// order to G afterwards is refused UNIT_CANNOT_MOVE "engaged".
TEST_CASE_MINI(SupportByInitiative) {
  const Game g = SupportGame();
  const MoveOrder g_on = Advance("G", {{"G.1", {Translate(Cm(20), Cm(39))}}});
  ScriptedDice dice({});
  const TurnOrders orders{"blue", {Supported("G")}, {g_on}};
  const PlayerTurnResult r = ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), orders, dice);
  CHECK_EQ_MINI(r.verdicts[0], Ok("E"));
  Verdict engaged = Refused("G", Reason::kUnitCannotMove);
  engaged.detail = "engaged";
  CHECK_EQ_MINI(r.verdicts[1], engaged);
  CHECK_EQ_MINI(FindBase(r.next, "G.1")->centre.y(), ToUnits(Cm(41)));
  ScriptedDice again({});
  CHECK_MINI(CheckOrders(g.ruleset, g.scenario, g.Start(), orders, again) == r.verdicts);
}

// One verdict per entry: step 8's warning (E charges R in front, so WME-R60 fails) comes first
// and stays the verdict; an eligible G still follows, an ineligible one stays put.
TEST_CASE_MINI(EnvelopWarningComesFirst) {
  ChargeOrder c = Supported("G");
  c.envelop = true;
  Verdict warning = Ok("E");
  warning.reason = Reason::kEnvelopConditionsNotMet;
  warning.other = "R";
  for (Milli y : {Cm(28), Cm(20)}) {
    const PlayerTurnResult r = Play(SupportGame(y), {c});
    CHECK_EQ_MINI(r.verdicts[0], warning);
    CheckMainChargePlayed(r);
    CHECK_EQ_MINI(FindBase(r.next, "G.2")->centre.y(), ToUnits(y == Cm(28) ? Cm(41) : y));
  }
}

// A supported charge that is itself illegal moves nobody; an unknown supporter is INVALID
// UNKNOWN_UNIT (step 1); CheckOrders gives ResolvePlayerTurn's verdicts throughout.
TEST_CASE_MINI(SupportVerdictsMatchResolution) {
  Game g = SupportGame();
  ChargeOrder too_far = Supported("G");
  // R stays; E 12 cm farther south (y 17-19: 25 cm from its slots, out of range), G still
  // right behind it (y 15-17).
  for (std::size_t k = 3; k < 6; ++k) {
    g.scenario.bases[k].centre = Pt(Cm(20 + 4 * static_cast<Milli>(k - 3)), Cm(18));
  }
  for (std::size_t k = 6; k < 9; ++k) {
    g.scenario.bases[k].centre = Pt(Cm(20 + 4 * static_cast<Milli>(k - 6)), Cm(16));
  }
  const TurnOrders orders{"blue", {}, {too_far, Supported("nobody")}};
  ScriptedDice dice({});
  const PlayerTurnResult r = ResolvePlayerTurn(g.ruleset, g.scenario, g.Start(), orders, dice);
  CHECK_EQ_MINI(r.verdicts[0].reason, Reason::kChargeOutOfRange);
  CHECK_EQ_MINI(r.verdicts[1], Refused("E", Reason::kUnknownUnit, "", "nobody"));
  CHECK_EQ_MINI(FindBase(r.next, "G.1")->centre.y(), ToUnits(Cm(16)));
  ScriptedDice again({});
  CHECK_MINI(CheckOrders(g.ruleset, g.scenario, g.Start(), orders, again) == r.verdicts);
}

}  // namespace
}  // namespace pbem::wme
