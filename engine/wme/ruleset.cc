#include "engine/wme/ruleset.h"

#include <algorithm>

namespace pbem::wme {

std::string_view TroopTypeName(TroopType type) {
  switch (type) {
    case TroopType::kInfantry:
      return "INFANTRY";
    case TroopType::kMonster:
      return "MONSTER";
    case TroopType::kCavalry:
      return "CAVALRY";
    case TroopType::kChariot:
      return "CHARIOT";
    case TroopType::kFlyer:
      return "FLYER";
    case TroopType::kArtillery:
      return "ARTILLERY";
    case TroopType::kMachine:
      return "MACHINE";
    case TroopType::kCharacter:
      return "CHARACTER";
    case TroopType::kCharacterOnFlyer:
      return "CHARACTER_ON_FLYER";
  }
  return "";
}

Ruleset DefaultRuleset() {
  using T = TroopType;
  Ruleset r;
  r.ruleset = "wme_movement_draft_p22_31";
  r.epsilon_cm = 10;
  r.epsilon_deg = 500;
  r.epsilon_area_cm2 = 10;
  r.base_size_cm[static_cast<std::size_t>(Mount::kNonChoc)] = BaseSize{4000, 2000};
  r.base_size_cm[static_cast<std::size_t>(Mount::kChoc)] = BaseSize{2000, 4000};
  r.choc_types = {T::kCavalry, T::kChariot, T::kMonster, T::kArtillery, T::kMachine, T::kFlyer};
  r.commander_shape = CommanderShape::kDisc;
  r.commander_diameter_cm = 2500;
  auto speed = [&r](T type, std::optional<Milli> cm) {
    r.speed_cm[static_cast<std::size_t>(type)] = cm;
  };
  speed(T::kInfantry, 20000);  // 003:L6-15
  speed(T::kMonster, 20000);
  speed(T::kCavalry, 30000);
  speed(T::kChariot, 30000);
  speed(T::kFlyer, 60000);
  speed(T::kArtillery, 10000);
  speed(T::kMachine, std::nullopt);  // "profile": UnitSpec::speed_cm
  speed(T::kCharacter, 60000);
  speed(T::kCharacterOnFlyer, 100000);
  r.half_speed_exempt = {T::kFlyer};
  r.half_speed_rounding = HalfSpeedRounding::kNone;
  r.speed_formation = SpeedFormation::kStart;
  r.irregular_charge_speed = IrregularChargeSpeed::kHalf;
  r.fortified_half_for = {MoveKind::kAdvance};
  r.evade_speed = EvadeSpeed::kFull;
  r.evade_combat_clearance_cm = 1000;
  r.min_gap_cm = 2000;
  r.squeeze_model = SqueezeModel::kNeck;
  r.min_enemy_gap_cm = 0;
  r.own_pass_through = OwnPassThrough::kCrossedBaseStatic;
  r.regular_offsets = RegularOffsets::kAlignedOrCorner;
  r.initiative_range_cm = 20000;
  r.evade_first_leg_tol_deg = 5000;
  r.evade_direction = EvadeDirectionRule::kMidpoints;
  r.flyers_may_evade = true;
  r.flyers_pass_over = true;
  r.vision_arc = VisionArcRule::kWedge90;
  r.zone_model = ZoneModel::kCornerQuadrants;
  r.zone_tie_die = ZoneTieDie::kD6Split;
  r.min_contact_cm = 1000;
  r.contact_probe = ContactProbe::kChargerBase;
  r.centring = Centring::kMidpointDistance;
  r.first_base = FirstBaseRule::kLeastTravel;
  r.auto_path = AutoPath::kRotateTranslateRotate;
  r.counter_charge_timing = CounterChargeTiming::kAfterPlacement;
  r.pursuit_matrix = PursuitMatrix::kWmr;
  r.support_geometry = SupportGeometry::kRearEdgeContact;
  r.fortification_reach_cm = 1000;
  r.fortification_blocks_los = false;
  r.reserve_default = Reserve::kBehind;
  r.high_fort_needs = HighFortNeeds::kLadders;
  r.auto_fanatic_charge = true;
  r.confusion_die = 6;
  r.confusion_confused_if_le = 3;
  r.voluntary_exit = VoluntaryExit::kForbidden;
  r.off_table_fate = {{2, Fate::kLost}, {4, Fate::kReturnNextTurn}, {99, Fate::kReturnNow}};
  r.off_table_modifier_per_lost_base = -1;
  r.reentry_enemy_gap_cm = 1000;
  r.reentry_step_cm = 500;
  r.on_illegal_move = OnIllegalMove::kHold;
  r.terrain_model = TerrainModel::kWmrCategories;
  auto passable = [&r](TerrainCategory c, std::vector<T> types) {
    r.passable_by[static_cast<std::size_t>(c)] = std::move(types);
  };
  // §2 [WMR-XTER]: passable = all, rough = infantry, monsters, cavalry, difficult = infantry,
  // impassable = none. Characters follow the commanders' chapter (GAP-38): all but impassable.
  passable(TerrainCategory::kPassable,
           {T::kInfantry, T::kMonster, T::kCavalry, T::kChariot, T::kFlyer, T::kArtillery,
            T::kMachine, T::kCharacter, T::kCharacterOnFlyer});
  passable(TerrainCategory::kRough, {T::kInfantry, T::kMonster, T::kCavalry});
  passable(TerrainCategory::kDifficult, {T::kInfantry});
  passable(TerrainCategory::kImpassable, {});
  r.max_legs_per_base = 16;
  return r;
}

bool Contains(const std::vector<TroopType>& types, TroopType type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

bool Contains(const std::vector<MoveKind>& kinds, MoveKind kind) {
  return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

std::vector<RulesetProblem> CheckRuleset(const Ruleset& r) {
  std::vector<RulesetProblem> problems;
  auto bad = [&problems](const char* key, const char* code) {
    problems.push_back(RulesetProblem{key, code});
  };
  auto range = [&bad](const char* key, std::int64_t v, std::int64_t lo, std::int64_t hi) {
    if (v < lo || v > hi) bad(key, "out_of_range");
  };
  constexpr Milli kTenMetres = 1000 * kMilliPerCm;
  range("epsilon_cm", r.epsilon_cm, 0, kMilliPerCm);
  range("epsilon_deg", r.epsilon_deg, 0, 5000);
  range("epsilon_area_cm2", r.epsilon_area_cm2, 0, 1000);
  for (const BaseSize& size : r.base_size_cm) {
    range("base_size_cm", size.w, 1, kTenMetres);
    range("base_size_cm", size.d, 1, kTenMetres);
  }
  range("commander_base", r.commander_diameter_cm, 1, kTenMetres);
  for (std::size_t t = 0; t < kTroopTypeCount; ++t) {
    if (t == static_cast<std::size_t>(TroopType::kMachine)) continue;
    if (!r.speed_cm[t]) {
      bad("speed_cm", "missing");
    } else {
      range("speed_cm", *r.speed_cm[t], 0, kTenMetres);
    }
  }
  range("evade_combat_clearance_cm", r.evade_combat_clearance_cm, 0, kTenMetres);
  range("min_gap_cm", r.min_gap_cm, 0, kTenMetres);
  range("min_enemy_gap_cm", r.min_enemy_gap_cm, 0, kTenMetres);
  range("initiative_range_cm", r.initiative_range_cm, 0, kTenMetres);
  range("evade_first_leg_tol_deg", r.evade_first_leg_tol_deg, 0, 90000);
  range("min_contact_cm", r.min_contact_cm, 0, kTenMetres);
  range("fortification_reach_cm", r.fortification_reach_cm, 0, kTenMetres);
  range("confusion_test", r.confusion_die, 2, 100);
  range("confusion_test", r.confusion_confused_if_le, 0, r.confusion_die);
  range("reentry_enemy_gap_cm", r.reentry_enemy_gap_cm, 0, kTenMetres);
  range("reentry_step_cm", r.reentry_step_cm, 1, kTenMetres);
  range("off_table_modifier_per_lost_base", r.off_table_modifier_per_lost_base, -6, 0);
  range("max_legs_per_base", static_cast<std::int64_t>(r.max_legs_per_base), 1, 1000);
  if (r.off_table_fate.empty()) bad("off_table_fate", "missing");
  for (std::size_t i = 1; i < r.off_table_fate.size(); ++i) {
    if (r.off_table_fate[i].max <= r.off_table_fate[i - 1].max) {
      bad("off_table_fate", "bands_not_increasing");
    }
  }
  // Alternatives §9 names that this engine does not implement (yet): refused, never ignored.
  if (r.squeeze_model != SqueezeModel::kNeck) bad("squeeze_model", "not_implemented");
  if (r.regular_offsets != RegularOffsets::kAlignedOrCorner) {
    bad("regular_offsets", "not_implemented");
  }
  if (r.zone_model != ZoneModel::kCornerQuadrants) bad("zone_model", "not_implemented");
  if (!r.flyers_may_evade) bad("flyers_may_evade", "not_implemented");
  return problems;
}

}  // namespace pbem::wme
