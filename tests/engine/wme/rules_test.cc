// The ruleset (§10 block and §9 defaults, key by key), CheckRuleset, InitialState, and the
// allowance rules of §1.4 (WME-R09..R14, GAP-11, GAP-33, W-R13), hand-worked.
#include "tests/engine/wme/fixtures.h"

namespace pbem::wme {
namespace {

using namespace testing;
using T = TroopType;

Milli SpeedOf(const Ruleset& r, T type) {
  return r.speed_cm[static_cast<std::size_t>(type)].value_or(-1);
}

TEST_CASE_MINI(DefaultsAreTheDigests) {
  const Ruleset r = DefaultRuleset();
  CHECK_EQ_MINI(r.ruleset, std::string("wme_movement_draft_p22_31"));
  CHECK_EQ_MINI(r.epsilon_cm, 10);
  CHECK_EQ_MINI(r.epsilon_deg, 500);
  CHECK_EQ_MINI(r.epsilon_area_cm2, 10);
  CHECK_MINI((r.base_size_cm[0] == BaseSize{4000, 2000}));
  CHECK_MINI((r.base_size_cm[1] == BaseSize{2000, 4000}));
  CHECK_MINI((r.choc_types == std::vector<T>{T::kCavalry, T::kChariot, T::kMonster, T::kArtillery,
                                             T::kMachine, T::kFlyer}));
  CHECK_MINI(r.commander_shape == CommanderShape::kDisc);
  CHECK_EQ_MINI(r.commander_diameter_cm, 2500);
  CHECK_EQ_MINI(SpeedOf(r, T::kInfantry), 20000);
  CHECK_EQ_MINI(SpeedOf(r, T::kMonster), 20000);
  CHECK_EQ_MINI(SpeedOf(r, T::kCavalry), 30000);
  CHECK_EQ_MINI(SpeedOf(r, T::kChariot), 30000);
  CHECK_EQ_MINI(SpeedOf(r, T::kFlyer), 60000);
  CHECK_EQ_MINI(SpeedOf(r, T::kArtillery), 10000);
  CHECK_EQ_MINI(SpeedOf(r, T::kMachine), -1);  // profile
  CHECK_EQ_MINI(SpeedOf(r, T::kCharacter), 60000);
  CHECK_EQ_MINI(SpeedOf(r, T::kCharacterOnFlyer), 100000);
  CHECK_MINI(r.half_speed_exempt == std::vector<T>{T::kFlyer});
  CHECK_MINI(r.half_speed_rounding == HalfSpeedRounding::kNone);
  CHECK_MINI(r.speed_formation == SpeedFormation::kStart);
  CHECK_MINI(r.irregular_charge_speed == IrregularChargeSpeed::kHalf);
  CHECK_MINI(r.fortified_half_for == std::vector<MoveKind>{MoveKind::kAdvance});
  CHECK_MINI(r.evade_speed == EvadeSpeed::kFull);
  CHECK_EQ_MINI(r.evade_combat_clearance_cm, 1000);
  CHECK_EQ_MINI(r.min_gap_cm, 2000);
  CHECK_MINI(r.squeeze_model == SqueezeModel::kNeck);
  CHECK_EQ_MINI(r.min_enemy_gap_cm, 0);
  CHECK_MINI(r.own_pass_through == OwnPassThrough::kCrossedBaseStatic);
  CHECK_MINI(r.regular_offsets == RegularOffsets::kAlignedOrCorner);
  CHECK_EQ_MINI(r.initiative_range_cm, 20000);
  CHECK_EQ_MINI(r.evade_first_leg_tol_deg, 5000);
  CHECK_MINI(r.evade_direction == EvadeDirectionRule::kMidpoints);
  CHECK_MINI(r.flyers_may_evade);
  CHECK_MINI(r.flyers_pass_over);
  CHECK_MINI(r.vision_arc == VisionArcRule::kWedge90);
  CHECK_MINI(r.zone_model == ZoneModel::kCornerQuadrants);
  CHECK_MINI(r.zone_tie_die == ZoneTieDie::kD6Split);
  CHECK_EQ_MINI(r.min_contact_cm, 1000);
  CHECK_MINI(r.contact_probe == ContactProbe::kChargerBase);
  CHECK_MINI(r.centring == Centring::kMidpointDistance);
  CHECK_MINI(r.first_base == FirstBaseRule::kLeastTravel);
  CHECK_MINI(r.auto_path == AutoPath::kRotateTranslateRotate);
  CHECK_MINI(r.counter_charge_timing == CounterChargeTiming::kAfterPlacement);
  CHECK_MINI(r.pursuit_matrix == PursuitMatrix::kWmr);
  CHECK_MINI(r.support_geometry == SupportGeometry::kRearEdgeContact);
  CHECK_EQ_MINI(r.fortification_reach_cm, 1000);
  CHECK_MINI(!r.fortification_blocks_los);
  CHECK_MINI(r.reserve_default == Reserve::kBehind);
  CHECK_MINI(r.high_fort_needs == HighFortNeeds::kLadders);
  CHECK_MINI(r.auto_fanatic_charge);
  CHECK_EQ_MINI(r.confusion_die, 6);
  CHECK_EQ_MINI(r.confusion_confused_if_le, 3);
  CHECK_MINI(r.voluntary_exit == VoluntaryExit::kForbidden);
  CHECK_MINI((r.off_table_fate == std::vector<FateBand>{{2, Fate::kLost},
                                                        {4, Fate::kReturnNextTurn},
                                                        {99, Fate::kReturnNow}}));
  CHECK_EQ_MINI(r.off_table_modifier_per_lost_base, -1);
  CHECK_EQ_MINI(r.reentry_enemy_gap_cm, 1000);
  CHECK_EQ_MINI(r.reentry_step_cm, 500);
  CHECK_MINI(r.on_illegal_move == OnIllegalMove::kHold);
  CHECK_MINI(r.terrain_model == TerrainModel::kWmrCategories);
  CHECK_EQ_MINI(r.passable_by[0].size(), kTroopTypeCount);
  CHECK_MINI((r.passable_by[1] == std::vector<T>{T::kInfantry, T::kMonster, T::kCavalry}));
  CHECK_MINI(r.passable_by[2] == std::vector<T>{T::kInfantry});
  CHECK_MINI(r.passable_by[3].empty());
  CHECK_MINI(CheckRuleset(r).empty());
}

TEST_CASE_MINI(CheckRulesetRefusesWhatItCannotHonour) {
  Ruleset r = DefaultRuleset();
  r.squeeze_model = SqueezeModel::kStrict;
  r.regular_offsets = RegularOffsets::kAnyTouching;
  r.zone_model = ZoneModel::kEdgeLines;
  r.flyers_may_evade = false;
  r.epsilon_cm = -1;
  r.speed_cm[0].reset();
  r.off_table_fate = {{4, Fate::kLost}, {2, Fate::kReturnNow}};
  const std::vector<RulesetProblem> p = CheckRuleset(r);
  auto has = [&p](const char* key, const char* code) {
    return std::find(p.begin(), p.end(), RulesetProblem{key, code}) != p.end();
  };
  CHECK_MINI(has("squeeze_model", "not_implemented"));
  CHECK_MINI(has("regular_offsets", "not_implemented"));
  CHECK_MINI(has("zone_model", "not_implemented"));
  CHECK_MINI(has("flyers_may_evade", "not_implemented"));
  CHECK_MINI(has("epsilon_cm", "out_of_range"));
  CHECK_MINI(has("speed_cm", "missing"));
  CHECK_MINI(has("off_table_fate", "bands_not_increasing"));
  CHECK_EQ_MINI(p.size(), 7);
}

TEST_CASE_MINI(InitialStateNamesBadScenarios) {
  Game g;
  g.Unit("A", "blue", T::kInfantry, {{Cm(10), Cm(10)}});
  g.Unit("A", "green", T::kMachine, {});
  g.scenario.bases.push_back(BaseSpec{"x", "nobody", Pt(Cm(1), Cm(1)), 0});
  const InitialStateResult r = InitialState(g.ruleset, g.scenario);
  CHECK_MINI(!r.state);
  const std::vector<ScenarioProblem> want{
      {"duplicate_id", "A"}, {"unknown_owner", "A"}, {"no_speed", "A"}, {"unknown_unit", "x"}};
  CHECK_MINI(r.problems == want);
}

TEST_CASE_MINI(InitialStateSizesBasesByMount) {
  Game g;
  g.Unit("I", "blue", T::kInfantry, {{Cm(10), Cm(10)}});
  g.Unit("K", "blue", T::kCavalry, {{Cm(20), Cm(10)}});
  g.Unit("P", "blue", T::kInfantry, {{Cm(30), Cm(10)}}).mount = Mount::kChoc;  // pikes
  const State s = g.Start();
  CHECK_EQ_MINI(s.bases[0].width, ToUnits(Cm(4)));
  CHECK_EQ_MINI(s.bases[1].width, ToUnits(Cm(2)));
  CHECK_EQ_MINI(s.bases[1].depth, ToUnits(Cm(4)));
  CHECK_EQ_MINI(s.bases[2].width, ToUnits(Cm(2)));
  CHECK_EQ_MINI(s.units[1].speed_cm, Cm(30));
}

TEST_CASE_MINI(AllowanceFollowsSectionOnePointFour) {
  Game g;
  g.Unit("F", "blue", T::kInfantry, {{Cm(10), Cm(10)}}).fortified = true;  // WME-R11
  g.Unit("W", "blue", T::kInfantry, {{Cm(50), Cm(10)}});  // on broken ground (W-R13)
  g.Unit("Y", "blue", T::kFlyer, {{Cm(90), Cm(10)}});     // flyers exempt (WME-R14)
  UnitSpec& m = g.Unit("M", "blue", T::kMachine, {{Cm(130), Cm(10)}, {Cm(132), Cm(11)}});
  m.speed_cm = Cm(15, 5);  // odd profile speed, halved exactly (GAP-33)
  TerrainFeature marsh;
  marsh.id = "marsh";
  marsh.broken = true;
  marsh.pieces = {Box(Cm(40), Cm(0), Cm(100), Cm(9, 11))};
  g.scenario.terrain.push_back(marsh);
  const State s = g.Start();
  auto allowance = [&](const char* unit, MoveKindOrder kind) {
    return Allowance(g.ruleset, g.scenario, s, *FindUnit(s, unit), kind);
  };
  CHECK_EQ_MINI(allowance("F", MoveKindOrder::kAdvance), ToUnits(Cm(10)));
  CHECK_EQ_MINI(allowance("F", MoveKindOrder::kEvade), ToUnits(Cm(20)));  // GAP-11
  CHECK_EQ_MINI(allowance("W", MoveKindOrder::kAdvance), ToUnits(Cm(10)));
  CHECK_EQ_MINI(allowance("W", MoveKindOrder::kEvade), ToUnits(Cm(20)));  // WME-R13
  CHECK_EQ_MINI(allowance("Y", MoveKindOrder::kAdvance), ToUnits(Cm(60)));
  CHECK_EQ_MINI(allowance("M", MoveKindOrder::kAdvance), ToUnits(Cm(15, 5)) / 2);
  // Boundary of W-R13: a base overlapping broken ground by ε is not on it.
  g.scenario.terrain[0].pieces = {Box(Cm(40), Cm(0), Cm(100), Cm(9, 10))};
  CHECK_EQ_MINI(allowance("W", MoveKindOrder::kAdvance), ToUnits(Cm(20)));
}

}  // namespace
}  // namespace pbem::wme
