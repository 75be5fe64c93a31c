// The French game's ruleset (wme_codec.h); its scenario is wme_scenario_codec.cc. Shaped as
// m42_codec.cc: conversion collects problems as (field path, message) and locates them at the
// end (internal::Locator); every list is walked with a loop over a count bounded before the
// walk; nothing recurses on input.
#include "proto/codec/wme_codec.h"

#include <algorithm>
#include <string>
#include <utility>

#include "proto/codec/data_checker.h"
#include "proto/codec/text_locations.h"
#include "proto/codec/wme_codec_tables.h"

namespace pbem::codec {
namespace {

namespace v1 = pbem::v1;
namespace pb = google::protobuf;
using internal::Checker;
using internal::EnumPair;
using internal::Indexed;
using internal::kWmeMaxLengthCm;
using internal::kWmeTroopTypes;
using internal::Located;
using internal::Problem;
using internal::ToProtoEnum;

constexpr int kMaxFateBands = 16;
constexpr int kMaxFateBand = 100;

constexpr EnumPair<v1::WmeMoveKind, wme::MoveKind> kMoveKinds[] = {
    {v1::WME_MOVE_KIND_ADVANCE, wme::MoveKind::kAdvance},
    {v1::WME_MOVE_KIND_EVADE, wme::MoveKind::kEvade},
    {v1::WME_MOVE_KIND_CHARGE, wme::MoveKind::kCharge}};
constexpr EnumPair<v1::WmeFate, wme::Fate> kFates[] = {
    {v1::WME_FATE_LOST, wme::Fate::kLost},
    {v1::WME_FATE_RETURN_NEXT_TURN, wme::Fate::kReturnNextTurn},
    {v1::WME_FATE_RETURN_NOW, wme::Fate::kReturnNow}};
constexpr EnumPair<v1::WmeCommanderShape, wme::CommanderShape> kCommanderShapes[] = {
    {v1::WME_COMMANDER_SHAPE_DISC, wme::CommanderShape::kDisc}};
constexpr EnumPair<v1::WmeHalfSpeedRounding, wme::HalfSpeedRounding> kHalfSpeedRoundings[] = {
    {v1::WME_HALF_SPEED_ROUNDING_NONE, wme::HalfSpeedRounding::kNone}};
constexpr EnumPair<v1::WmeSpeedFormation, wme::SpeedFormation> kSpeedFormations[] = {
    {v1::WME_SPEED_FORMATION_START, wme::SpeedFormation::kStart}};
constexpr EnumPair<v1::WmeIrregularChargeSpeed, wme::IrregularChargeSpeed> kIrregularSpeeds[] = {
    {v1::WME_IRREGULAR_CHARGE_SPEED_HALF, wme::IrregularChargeSpeed::kHalf},
    {v1::WME_IRREGULAR_CHARGE_SPEED_FULL, wme::IrregularChargeSpeed::kFull}};
constexpr EnumPair<v1::WmeEvadeSpeed, wme::EvadeSpeed> kEvadeSpeeds[] = {
    {v1::WME_EVADE_SPEED_FULL, wme::EvadeSpeed::kFull}};
constexpr EnumPair<v1::WmeSqueezeModel, wme::SqueezeModel> kSqueezeModels[] = {
    {v1::WME_SQUEEZE_MODEL_NECK, wme::SqueezeModel::kNeck},
    {v1::WME_SQUEEZE_MODEL_CENTRE_CORRIDOR, wme::SqueezeModel::kCentreCorridor},
    {v1::WME_SQUEEZE_MODEL_STRICT, wme::SqueezeModel::kStrict}};
constexpr EnumPair<v1::WmeOwnPassThrough, wme::OwnPassThrough> kOwnPassThroughs[] = {
    {v1::WME_OWN_PASS_THROUGH_CROSSED_BASE_STATIC, wme::OwnPassThrough::kCrossedBaseStatic},
    {v1::WME_OWN_PASS_THROUGH_ALWAYS, wme::OwnPassThrough::kAlways}};
constexpr EnumPair<v1::WmeRegularOffsets, wme::RegularOffsets> kRegularOffsets[] = {
    {v1::WME_REGULAR_OFFSETS_ALIGNED_OR_CORNER, wme::RegularOffsets::kAlignedOrCorner},
    {v1::WME_REGULAR_OFFSETS_ANY_TOUCHING, wme::RegularOffsets::kAnyTouching}};
constexpr EnumPair<v1::WmeEvadeDirection, wme::EvadeDirectionRule> kEvadeDirections[] = {
    {v1::WME_EVADE_DIRECTION_MIDPOINTS, wme::EvadeDirectionRule::kMidpoints}};
constexpr EnumPair<v1::WmeVisionArc, wme::VisionArcRule> kVisionArcs[] = {
    {v1::WME_VISION_ARC_WEDGE_90, wme::VisionArcRule::kWedge90},
    {v1::WME_VISION_ARC_HALF_PLANE, wme::VisionArcRule::kHalfPlane}};
constexpr EnumPair<v1::WmeZoneModel, wme::ZoneModel> kZoneModels[] = {
    {v1::WME_ZONE_MODEL_CORNER_QUADRANTS, wme::ZoneModel::kCornerQuadrants},
    {v1::WME_ZONE_MODEL_EDGE_LINES, wme::ZoneModel::kEdgeLines}};
constexpr EnumPair<v1::WmeZoneTieDie, wme::ZoneTieDie> kZoneTieDice[] = {
    {v1::WME_ZONE_TIE_DIE_D6_SPLIT, wme::ZoneTieDie::kD6Split}};
constexpr EnumPair<v1::WmeContactProbe, wme::ContactProbe> kContactProbes[] = {
    {v1::WME_CONTACT_PROBE_CHARGER_BASE, wme::ContactProbe::kChargerBase}};
constexpr EnumPair<v1::WmeCentring, wme::Centring> kCentrings[] = {
    {v1::WME_CENTRING_MIDPOINT_DISTANCE, wme::Centring::kMidpointDistance}};
constexpr EnumPair<v1::WmeFirstBase, wme::FirstBaseRule> kFirstBases[] = {
    {v1::WME_FIRST_BASE_LEAST_TRAVEL, wme::FirstBaseRule::kLeastTravel}};
constexpr EnumPair<v1::WmeAutoPath, wme::AutoPath> kAutoPaths[] = {
    {v1::WME_AUTO_PATH_ROTATE_TRANSLATE_ROTATE, wme::AutoPath::kRotateTranslateRotate}};
constexpr EnumPair<v1::WmeCounterChargeTiming, wme::CounterChargeTiming> kCounterCharges[] = {
    {v1::WME_COUNTER_CHARGE_TIMING_AFTER_PLACEMENT, wme::CounterChargeTiming::kAfterPlacement}};
constexpr EnumPair<v1::WmePursuitMatrix, wme::PursuitMatrix> kPursuitMatrices[] = {
    {v1::WME_PURSUIT_MATRIX_WMR, wme::PursuitMatrix::kWmr}};
constexpr EnumPair<v1::WmeSupportGeometry, wme::SupportGeometry> kSupportGeometries[] = {
    {v1::WME_SUPPORT_GEOMETRY_REAR_EDGE_CONTACT, wme::SupportGeometry::kRearEdgeContact}};
constexpr EnumPair<v1::WmeReserve, wme::Reserve> kReserves[] = {
    {v1::WME_RESERVE_BEHIND, wme::Reserve::kBehind}, {v1::WME_RESERVE_LINE, wme::Reserve::kLine}};
constexpr EnumPair<v1::WmeHighFortNeeds, wme::HighFortNeeds> kHighFortNeeds[] = {
    {v1::WME_HIGH_FORT_NEEDS_LADDERS, wme::HighFortNeeds::kLadders}};
constexpr EnumPair<v1::WmeVoluntaryExit, wme::VoluntaryExit> kVoluntaryExits[] = {
    {v1::WME_VOLUNTARY_EXIT_FORBIDDEN, wme::VoluntaryExit::kForbidden}};
constexpr EnumPair<v1::WmeOnIllegalMove, wme::OnIllegalMove> kOnIllegalMoves[] = {
    {v1::WME_ON_ILLEGAL_MOVE_HOLD, wme::OnIllegalMove::kHold}};
constexpr EnumPair<v1::WmeTerrainModel, wme::TerrainModel> kTerrainModels[] = {
    {v1::WME_TERRAIN_MODEL_WMR_CATEGORIES, wme::TerrainModel::kWmrCategories}};

// The fields of `speed_cm` and of `passable_by`, in the engine's order.
struct SpeedField {
  const char* name;
  wme::TroopType type;
  bool (v1::WmeSpeeds::*has)() const;
  std::int64_t (v1::WmeSpeeds::*get)() const;
  void (v1::WmeSpeeds::*set)(std::int64_t);
};
constexpr SpeedField kSpeeds[] = {
    {"infantry", wme::TroopType::kInfantry, &v1::WmeSpeeds::has_infantry, &v1::WmeSpeeds::infantry,
     &v1::WmeSpeeds::set_infantry},
    {"monster", wme::TroopType::kMonster, &v1::WmeSpeeds::has_monster, &v1::WmeSpeeds::monster,
     &v1::WmeSpeeds::set_monster},
    {"cavalry", wme::TroopType::kCavalry, &v1::WmeSpeeds::has_cavalry, &v1::WmeSpeeds::cavalry,
     &v1::WmeSpeeds::set_cavalry},
    {"chariot", wme::TroopType::kChariot, &v1::WmeSpeeds::has_chariot, &v1::WmeSpeeds::chariot,
     &v1::WmeSpeeds::set_chariot},
    {"flyer", wme::TroopType::kFlyer, &v1::WmeSpeeds::has_flyer, &v1::WmeSpeeds::flyer,
     &v1::WmeSpeeds::set_flyer},
    {"artillery", wme::TroopType::kArtillery, &v1::WmeSpeeds::has_artillery,
     &v1::WmeSpeeds::artillery, &v1::WmeSpeeds::set_artillery},
    {"character", wme::TroopType::kCharacter, &v1::WmeSpeeds::has_character,
     &v1::WmeSpeeds::character, &v1::WmeSpeeds::set_character},
    {"character_on_flyer", wme::TroopType::kCharacterOnFlyer,
     &v1::WmeSpeeds::has_character_on_flyer, &v1::WmeSpeeds::character_on_flyer,
     &v1::WmeSpeeds::set_character_on_flyer},
};

struct CategoryField {
  const char* name;
  wme::TerrainCategory category;
  bool (v1::WmePassableBy::*has)() const;
  const v1::WmeTroopTypes& (v1::WmePassableBy::*get)() const;
  v1::WmeTroopTypes* (v1::WmePassableBy::*mutable_get)();
};
constexpr CategoryField kCategories[] = {
    {"passable", wme::TerrainCategory::kPassable, &v1::WmePassableBy::has_passable,
     &v1::WmePassableBy::passable, &v1::WmePassableBy::mutable_passable},
    {"rough", wme::TerrainCategory::kRough, &v1::WmePassableBy::has_rough,
     &v1::WmePassableBy::rough, &v1::WmePassableBy::mutable_rough},
    {"difficult", wme::TerrainCategory::kDifficult, &v1::WmePassableBy::has_difficult,
     &v1::WmePassableBy::difficult, &v1::WmePassableBy::mutable_difficult},
    {"impassable", wme::TerrainCategory::kImpassable, &v1::WmePassableBy::has_impassable,
     &v1::WmePassableBy::impassable, &v1::WmePassableBy::mutable_impassable},
};

template <typename E>
std::size_t At(E value) {
  return static_cast<std::size_t>(value);
}

class RulesetConverter : public Checker {
 public:
  explicit RulesetConverter(const v1::WmeRuleset& proto) : p_(proto) {}

  wme::Ruleset Run() {
    wme::Ruleset r = wme::DefaultRuleset();
    FormatVersion(p_.format_version());
    if (p_.has_ruleset() && Id("ruleset", p_.ruleset())) r.ruleset = p_.ruleset();
    Scalar("epsilon_cm", p_.has_epsilon_cm(), p_.epsilon_cm(), 0, 1000, r.epsilon_cm);
    Scalar("epsilon_deg", p_.has_epsilon_deg(), p_.epsilon_deg(), 0, 5000, r.epsilon_deg);
    Scalar("epsilon_area_cm2", p_.has_epsilon_area_cm2(), p_.epsilon_area_cm2(), 0, 1000,
           r.epsilon_area_cm2);
    const v1::WmeBaseSizes& sizes = p_.base_size_cm();
    Base("base_size_cm.non_choc", sizes.non_choc(), r.base_size_cm[At(wme::Mount::kNonChoc)]);
    Base("base_size_cm.choc", sizes.choc(), r.base_size_cm[At(wme::Mount::kChoc)]);
    TroopTypes("choc_types", p_.has_choc_types(), p_.choc_types(), r.choc_types);
    const v1::WmeCommanderBase& commander = p_.commander_base();
    Enum("commander_base.shape", commander.has_shape(), commander.shape(), kCommanderShapes,
         r.commander_shape);
    Length("commander_base.diameter_cm", commander.has_diameter_cm(), commander.diameter_cm(), 1,
           r.commander_diameter_cm);
    for (const SpeedField& f : kSpeeds) {
      if ((p_.speed_cm().*f.has)()) {
        wme::Milli speed = 0;
        if (InRange("speed_cm." + std::string(f.name), (p_.speed_cm().*f.get)(), 0, kWmeMaxLengthCm,
                    speed)) {
          r.speed_cm[At(f.type)] = speed;
        }
      }
    }
    TroopTypes("half_speed_exempt", p_.has_half_speed_exempt(), p_.half_speed_exempt(),
               r.half_speed_exempt);
    Enum("half_speed_rounding", p_.has_half_speed_rounding(), p_.half_speed_rounding(),
         kHalfSpeedRoundings, r.half_speed_rounding);
    Enum("speed_formation", p_.has_speed_formation(), p_.speed_formation(), kSpeedFormations,
         r.speed_formation);
    Enum("irregular_charge_speed", p_.has_irregular_charge_speed(), p_.irregular_charge_speed(),
         kIrregularSpeeds, r.irregular_charge_speed);
    MoveKinds(r.fortified_half_for);
    Enum("evade_speed", p_.has_evade_speed(), p_.evade_speed(), kEvadeSpeeds, r.evade_speed);
    Length("evade_combat_clearance_cm", p_.has_evade_combat_clearance_cm(),
           p_.evade_combat_clearance_cm(), 0, r.evade_combat_clearance_cm);
    Length("min_gap_cm", p_.has_min_gap_cm(), p_.min_gap_cm(), 0, r.min_gap_cm);
    Enum("squeeze_model", p_.has_squeeze_model(), p_.squeeze_model(), kSqueezeModels,
         r.squeeze_model);
    Length("min_enemy_gap_cm", p_.has_min_enemy_gap_cm(), p_.min_enemy_gap_cm(), 0,
           r.min_enemy_gap_cm);
    Enum("own_pass_through", p_.has_own_pass_through(), p_.own_pass_through(), kOwnPassThroughs,
         r.own_pass_through);
    Enum("regular_offsets", p_.has_regular_offsets(), p_.regular_offsets(), kRegularOffsets,
         r.regular_offsets);
    Length("initiative_range_cm", p_.has_initiative_range_cm(), p_.initiative_range_cm(), 0,
           r.initiative_range_cm);
    Scalar("evade_first_leg_tol_deg", p_.has_evade_first_leg_tol_deg(),
           p_.evade_first_leg_tol_deg(), 0, 90000, r.evade_first_leg_tol_deg);
    Enum("evade_direction", p_.has_evade_direction(), p_.evade_direction(), kEvadeDirections,
         r.evade_direction);
    if (p_.has_flyers_may_evade()) r.flyers_may_evade = p_.flyers_may_evade();
    if (p_.has_flyers_pass_over()) r.flyers_pass_over = p_.flyers_pass_over();
    Enum("vision_arc", p_.has_vision_arc(), p_.vision_arc(), kVisionArcs, r.vision_arc);
    Enum("zone_model", p_.has_zone_model(), p_.zone_model(), kZoneModels, r.zone_model);
    Enum("zone_tie_die", p_.has_zone_tie_die(), p_.zone_tie_die(), kZoneTieDice, r.zone_tie_die);
    Length("min_contact_cm", p_.has_min_contact_cm(), p_.min_contact_cm(), 0, r.min_contact_cm);
    Enum("contact_probe", p_.has_contact_probe(), p_.contact_probe(), kContactProbes,
         r.contact_probe);
    Enum("centring", p_.has_centring(), p_.centring(), kCentrings, r.centring);
    Enum("first_base", p_.has_first_base(), p_.first_base(), kFirstBases, r.first_base);
    Enum("auto_path", p_.has_auto_path(), p_.auto_path(), kAutoPaths, r.auto_path);
    Enum("counter_charge_timing", p_.has_counter_charge_timing(), p_.counter_charge_timing(),
         kCounterCharges, r.counter_charge_timing);
    Enum("pursuit_matrix", p_.has_pursuit_matrix(), p_.pursuit_matrix(), kPursuitMatrices,
         r.pursuit_matrix);
    Enum("support_geometry", p_.has_support_geometry(), p_.support_geometry(), kSupportGeometries,
         r.support_geometry);
    Length("fortification_reach_cm", p_.has_fortification_reach_cm(), p_.fortification_reach_cm(),
           0, r.fortification_reach_cm);
    if (p_.has_fortification_blocks_los()) {
      r.fortification_blocks_los = p_.fortification_blocks_los();
    }
    Enum("reserve_default", p_.has_reserve_default(), p_.reserve_default(), kReserves,
         r.reserve_default);
    Enum("high_fort_needs", p_.has_high_fort_needs(), p_.high_fort_needs(), kHighFortNeeds,
         r.high_fort_needs);
    if (p_.has_auto_fanatic_charge()) r.auto_fanatic_charge = p_.auto_fanatic_charge();
    const v1::WmeConfusionTest& confusion = p_.confusion_test();
    Scalar("confusion_test.die", confusion.has_die(), confusion.die(), 2, 100, r.confusion_die);
    Scalar("confusion_test.confused_if_le", confusion.has_confused_if_le(),
           confusion.confused_if_le(), 0, r.confusion_die, r.confusion_confused_if_le);
    Enum("voluntary_exit", p_.has_voluntary_exit(), p_.voluntary_exit(), kVoluntaryExits,
         r.voluntary_exit);
    FateBands(r.off_table_fate);
    Scalar("off_table_modifier_per_lost_base", p_.has_off_table_modifier_per_lost_base(),
           p_.off_table_modifier_per_lost_base(), -6, 0, r.off_table_modifier_per_lost_base);
    Length("reentry_enemy_gap_cm", p_.has_reentry_enemy_gap_cm(), p_.reentry_enemy_gap_cm(), 0,
           r.reentry_enemy_gap_cm);
    Length("reentry_step_cm", p_.has_reentry_step_cm(), p_.reentry_step_cm(), 1, r.reentry_step_cm);
    Enum("on_illegal_move", p_.has_on_illegal_move(), p_.on_illegal_move(), kOnIllegalMoves,
         r.on_illegal_move);
    Enum("terrain_model", p_.has_terrain_model(), p_.terrain_model(), kTerrainModels,
         r.terrain_model);
    for (const CategoryField& f : kCategories) {
      TroopTypes("passable_by." + std::string(f.name), (p_.passable_by().*f.has)(),
                 (p_.passable_by().*f.get)(), r.passable_by[At(f.category)]);
    }
    Scalar("max_legs_per_base", p_.has_max_legs_per_base(), p_.max_legs_per_base(), 1, 1000,
           r.max_legs_per_base);
    return r;
  }

 private:
  template <typename T>
  void Scalar(const std::string& path, bool has, std::int64_t value, std::int64_t low,
              std::int64_t high, T& out) {
    if (has) InRange(path, value, low, high, out);
  }
  void Length(const std::string& path, bool has, std::int64_t value, std::int64_t low,
              wme::Milli& out) {
    Scalar(path, has, value, low, kWmeMaxLengthCm, out);
  }
  void Base(const std::string& path, const v1::WmeBaseSize& size, wme::BaseSize& out) {
    Length(path + ".w_cm", size.has_w_cm(), size.w_cm(), 1, out.w);
    Length(path + ".d_cm", size.has_d_cm(), size.d_cm(), 1, out.d);
  }
  // A set of enum values: given (the message present), it replaces the default whole.
  template <typename P, typename E, std::size_t N>
  void Set(const std::string& path, const pb::RepeatedField<int>& values,
           const EnumPair<P, E> (&table)[N], std::vector<E>& out) {
    if (!Count(path, values.size(), 0, static_cast<int>(N))) return;
    std::vector<E> read;
    for (int i = 0; i < values.size(); ++i) {
      E value{};
      const std::size_t before = problems().size();
      Enum(Indexed(path, i), true, static_cast<P>(values[i]), table, value);
      if (problems().size() != before) continue;
      if (std::find(read.begin(), read.end(), value) != read.end()) {
        Add(Indexed(path, i), "duplicate " + internal::EnumName(static_cast<P>(values[i])));
        continue;
      }
      read.push_back(value);
    }
    out = std::move(read);
  }
  void TroopTypes(const std::string& path, bool has, const v1::WmeTroopTypes& types,
                  std::vector<wme::TroopType>& out) {
    if (has) Set(path + ".types", types.types(), kWmeTroopTypes, out);
  }
  void MoveKinds(std::vector<wme::MoveKind>& out) {
    if (p_.has_fortified_half_for()) {
      Set("fortified_half_for.kinds", p_.fortified_half_for().kinds(), kMoveKinds, out);
    }
  }
  void FateBands(std::vector<wme::FateBand>& out) {
    const auto& bands = p_.off_table_fate();
    if (bands.empty()) return;  // the default bands
    if (!Count("off_table_fate", bands.size(), 1, kMaxFateBands)) return;
    std::vector<wme::FateBand> read;
    for (int i = 0; i < bands.size(); ++i) {
      const std::string path = Indexed("off_table_fate", i);
      wme::FateBand band;
      const std::int64_t low = read.empty() ? -kMaxFateBand : read.back().max + 1;
      InRange(path + ".max", bands[i].max(), low, kMaxFateBand, band.max);
      Enum(path + ".fate", true, bands[i].fate(), kFates, band.fate);
      read.push_back(band);
    }
    out = std::move(read);
  }

  const v1::WmeRuleset& p_;
};

std::string EngineMessage(std::string_view code) {
  if (code == "not_implemented") return "this value is not implemented by the engine";
  return "refused by the engine (" + std::string(code) + ")";
}

Result<LoadedWmeRuleset> ConvertRuleset(const v1::WmeRuleset& merged,
                                        const internal::Locator& locator) {
  RulesetConverter converter(merged);
  wme::Ruleset ruleset = converter.Run();
  std::vector<Problem> problems = std::move(converter.problems());
  // The engine's own check, on a ruleset every range of which is already checked: what is left
  // is what the engine cannot honour. Its keys are the message's field paths.
  if (problems.empty()) {
    for (const wme::RulesetProblem& p : wme::CheckRuleset(ruleset)) {
      problems.push_back(Problem{p.key, EngineMessage(p.code)});
    }
  }
  if (!problems.empty()) return Located(problems, locator);
  return LoadedWmeRuleset{std::move(ruleset), merged};
}

template <typename P, typename E, std::size_t N>
void SetToProto(const std::vector<E>& values, const EnumPair<P, E> (&table)[N],
                pb::RepeatedField<int>& out) {
  out.Clear();
  for (const E value : values) out.Add(ToProtoEnum(table, value));
}

}  // namespace

Result<LoadedWmeRuleset> WmeRulesetFromProto(const pbem::v1::WmeRuleset& proto,
                                             std::string_view source) {
  return ConvertRuleset(proto, internal::Locator({}, std::string(source)));
}

Result<LoadedWmeRuleset> LoadWmeRulesetFiles(const std::vector<NamedText>& files) {
  return internal::LoadFiles<v1::WmeRuleset>(files, ConvertRuleset);
}

pbem::v1::WmeRuleset WmeRulesetToProto(const wme::Ruleset& r) {
  v1::WmeRuleset p;
  p.set_ruleset(r.ruleset);
  p.set_epsilon_cm(r.epsilon_cm);
  p.set_epsilon_deg(r.epsilon_deg);
  p.set_epsilon_area_cm2(r.epsilon_area_cm2);
  const auto size = [&r](wme::Mount mount, v1::WmeBaseSize& out) {
    out.set_w_cm(r.base_size_cm[At(mount)].w);
    out.set_d_cm(r.base_size_cm[At(mount)].d);
  };
  size(wme::Mount::kNonChoc, *p.mutable_base_size_cm()->mutable_non_choc());
  size(wme::Mount::kChoc, *p.mutable_base_size_cm()->mutable_choc());
  SetToProto(r.choc_types, kWmeTroopTypes, *p.mutable_choc_types()->mutable_types());
  p.mutable_commander_base()->set_shape(ToProtoEnum(kCommanderShapes, r.commander_shape));
  p.mutable_commander_base()->set_diameter_cm(r.commander_diameter_cm);
  for (const SpeedField& f : kSpeeds) {
    if (r.speed_cm[At(f.type)]) (p.mutable_speed_cm()->*f.set)(*r.speed_cm[At(f.type)]);
  }
  SetToProto(r.half_speed_exempt, kWmeTroopTypes, *p.mutable_half_speed_exempt()->mutable_types());
  p.set_half_speed_rounding(ToProtoEnum(kHalfSpeedRoundings, r.half_speed_rounding));
  p.set_speed_formation(ToProtoEnum(kSpeedFormations, r.speed_formation));
  p.set_irregular_charge_speed(ToProtoEnum(kIrregularSpeeds, r.irregular_charge_speed));
  SetToProto(r.fortified_half_for, kMoveKinds, *p.mutable_fortified_half_for()->mutable_kinds());
  p.set_evade_speed(ToProtoEnum(kEvadeSpeeds, r.evade_speed));
  p.set_evade_combat_clearance_cm(r.evade_combat_clearance_cm);
  p.set_min_gap_cm(r.min_gap_cm);
  p.set_squeeze_model(ToProtoEnum(kSqueezeModels, r.squeeze_model));
  p.set_min_enemy_gap_cm(r.min_enemy_gap_cm);
  p.set_own_pass_through(ToProtoEnum(kOwnPassThroughs, r.own_pass_through));
  p.set_regular_offsets(ToProtoEnum(kRegularOffsets, r.regular_offsets));
  p.set_initiative_range_cm(r.initiative_range_cm);
  p.set_evade_first_leg_tol_deg(r.evade_first_leg_tol_deg);
  p.set_evade_direction(ToProtoEnum(kEvadeDirections, r.evade_direction));
  p.set_flyers_may_evade(r.flyers_may_evade);
  p.set_flyers_pass_over(r.flyers_pass_over);
  p.set_vision_arc(ToProtoEnum(kVisionArcs, r.vision_arc));
  p.set_zone_model(ToProtoEnum(kZoneModels, r.zone_model));
  p.set_zone_tie_die(ToProtoEnum(kZoneTieDice, r.zone_tie_die));
  p.set_min_contact_cm(r.min_contact_cm);
  p.set_contact_probe(ToProtoEnum(kContactProbes, r.contact_probe));
  p.set_centring(ToProtoEnum(kCentrings, r.centring));
  p.set_first_base(ToProtoEnum(kFirstBases, r.first_base));
  p.set_auto_path(ToProtoEnum(kAutoPaths, r.auto_path));
  p.set_counter_charge_timing(ToProtoEnum(kCounterCharges, r.counter_charge_timing));
  p.set_pursuit_matrix(ToProtoEnum(kPursuitMatrices, r.pursuit_matrix));
  p.set_support_geometry(ToProtoEnum(kSupportGeometries, r.support_geometry));
  p.set_fortification_reach_cm(r.fortification_reach_cm);
  p.set_fortification_blocks_los(r.fortification_blocks_los);
  p.set_reserve_default(ToProtoEnum(kReserves, r.reserve_default));
  p.set_high_fort_needs(ToProtoEnum(kHighFortNeeds, r.high_fort_needs));
  p.set_auto_fanatic_charge(r.auto_fanatic_charge);
  p.mutable_confusion_test()->set_die(r.confusion_die);
  p.mutable_confusion_test()->set_confused_if_le(r.confusion_confused_if_le);
  p.set_voluntary_exit(ToProtoEnum(kVoluntaryExits, r.voluntary_exit));
  for (const wme::FateBand& b : r.off_table_fate) {
    v1::WmeFateBand& band = *p.add_off_table_fate();
    band.set_max(b.max);
    band.set_fate(ToProtoEnum(kFates, b.fate));
  }
  p.set_off_table_modifier_per_lost_base(r.off_table_modifier_per_lost_base);
  p.set_reentry_enemy_gap_cm(r.reentry_enemy_gap_cm);
  p.set_reentry_step_cm(r.reentry_step_cm);
  p.set_on_illegal_move(ToProtoEnum(kOnIllegalMoves, r.on_illegal_move));
  p.set_terrain_model(ToProtoEnum(kTerrainModels, r.terrain_model));
  for (const CategoryField& f : kCategories) {
    SetToProto(r.passable_by[At(f.category)], kWmeTroopTypes,
               *(p.mutable_passable_by()->*f.mutable_get)()->mutable_types());
  }
  p.set_max_legs_per_base(static_cast<std::uint32_t>(r.max_legs_per_base));
  return p;
}

}  // namespace pbem::codec
