// Rulesets: a directory of text-format files merged in file-name order,
// converted to engine::Ruleset (names resolved to ids) and validated. Every
// problem, found here or by engine::ValidateRuleset, is reported at the file
// and line that defined the offending element.
#include <google/protobuf/descriptor.h>

#include <algorithm>
#include <map>
#include <set>
#include <system_error>

#include "proto/codec/codec.h"
#include "proto/codec/shown.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec {

namespace {

namespace v1 = pbem::v1;

std::string Indexed(std::string_view list, int i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

// A problem with the merged message's path; located at the end.
struct Problem {
  std::string path;
  std::string message;
};

std::string KnownNames(const std::vector<std::string>& names) {
  if (names.empty()) return "none are defined";
  std::string out = "known: ";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ", ";
    out += names[i];
  }
  return out;
}

template <typename T>
std::vector<std::string> NamesOf(const std::vector<T>& items) {
  std::vector<std::string> out;
  for (const T& item : items) out.push_back(item.name);
  return out;
}

std::optional<engine::Arm> ArmFromProto(v1::Arm arm) {
  switch (arm) {
    case v1::ARM_INFANTRY:
      return engine::Arm::kInfantry;
    case v1::ARM_CAVALRY:
      return engine::Arm::kCavalry;
    case v1::ARM_ARTILLERY:
      return engine::Arm::kArtillery;
    case v1::ARM_LEADER:
      return engine::Arm::kLeader;
    default:
      return std::nullopt;
  }
}

engine::UnitValues ValuesFromProto(const v1::UnitValues& p) {
  engine::UnitValues v;
  if (p.has_cs()) v.cs = p.cs();
  if (p.has_mv()) v.mv = p.mv();
  if (p.has_ma()) v.ma = p.ma();
  if (p.has_bv()) v.bv = p.bv();
  if (p.has_range()) v.range = p.range();
  if (p.has_command_radius()) v.command_radius = p.command_radius();
  return v;
}

class Converter {
 public:
  explicit Converter(const v1::Ruleset& proto) : p_(proto) {}

  engine::Ruleset Run() {
    if (p_.format_version() > 1) {
      Add("format_version", "format version " + std::to_string(p_.format_version()) +
                                " is not supported (this build reads version 1)");
    }
    rs_.name = p_.name();
    rs_.version = p_.version();
    rs_.description = p_.description();
    for (const auto& mc : p_.movement_classes()) {
      rs_.movement_classes.push_back(engine::MovementClass{mc.name(), mc.description()});
    }
    Terrain();
    UnitTypes();
    Hexsides();
    Routes();
    Crt();
    TerrainCombat();
    Params();
    return std::move(rs_);
  }

  std::vector<Problem>& problems() { return problems_; }
  // Engine row index -> index of the row in the merged proto.
  const std::vector<int>& crt_row_source() const { return crt_row_source_; }

 private:
  void Add(std::string path, std::string message) {
    problems_.push_back(Problem{std::move(path), std::move(message)});
  }

  std::optional<engine::MovementClassId> Class(const std::string& name, const std::string& path) {
    if (const auto id = rs_.FindMovementClass(name)) return id;
    if (name.empty()) {
      Add(path, "no movement class given");
    } else {
      Add(path, "unknown movement class '" + name + "' (" +
                    KnownNames(NamesOf(rs_.movement_classes)) + ")");
    }
    return std::nullopt;
  }

  void Terrain() {
    const std::size_t classes = rs_.movement_classes.size();
    for (int t = 0; t < p_.terrain_size(); ++t) {
      const v1::TerrainType& pt = p_.terrain(t);
      const std::string tp = Indexed("terrain", t);
      engine::TerrainType et;
      et.name = pt.name();
      et.name_fr = pt.name_fr();
      et.move_costs.assign(classes, std::nullopt);
      et.stuck_chance_in_4.assign(classes, 0);
      for (int j = 0; j < pt.move_costs_size(); ++j) {
        const v1::MoveCost& mc = pt.move_costs(j);
        const std::string mp = tp + Indexed(".move_costs", j);
        const auto id = Class(mc.movement_class(), mp + ".movement_class");
        if (mc.impassable() && mc.has_cost()) {
          Add(mp, "terrain '" + Shown(pt.name()) + "': a cost and impassable are both given for '" +
                      Shown(mc.movement_class()) + "' (give one of them)");
        } else if (!mc.impassable() && !mc.has_cost()) {
          Add(mp, "terrain '" + Shown(pt.name()) + "': no cost for '" + Shown(mc.movement_class()) +
                      "' (give cost, or impassable: true)");
        }
        if (!id) continue;
        if (et.move_costs[id->index()]) {
          Add(mp + ".movement_class", "terrain '" + Shown(pt.name()) + "' gives movement class '" +
                                          Shown(mc.movement_class()) + "' a second cost");
          continue;
        }
        engine::MoveCost cost;
        cost.impassable = mc.impassable();
        cost.cost = mc.cost();
        if (mc.has_cost_from_same_terrain()) {
          cost.cost_from_same_terrain = mc.cost_from_same_terrain();
        }
        et.move_costs[id->index()] = cost;
      }
      for (int j = 0; j < pt.stuck_chances_size(); ++j) {
        const v1::StuckChance& sc = pt.stuck_chances(j);
        const auto id =
            Class(sc.movement_class(), tp + Indexed(".stuck_chances", j) + ".movement_class");
        if (id) et.stuck_chance_in_4[id->index()] = sc.chance_in_4();
      }
      et.blocks_los = pt.blocks_los();
      et.charge_proof = pt.charge_proof();
      et.charge_path = pt.charge_path();
      et.uncontrollable = pt.uncontrollable();
      et.fort = pt.fort();
      et.no_artillery_fire = pt.no_artillery_fire();
      et.bombard_target_modifier = pt.bombard_target_modifier();
      et.retreat_preference = pt.retreat_preference();
      et.advance_rank_foot = pt.advance_rank_foot();
      et.advance_rank_mounted = pt.advance_rank_mounted();
      et.colour = pt.colour();
      rs_.terrain.push_back(std::move(et));
    }
  }

  void UnitTypes() {
    for (int u = 0; u < p_.unit_types_size(); ++u) {
      const v1::UnitType& pu = p_.unit_types(u);
      const std::string up = Indexed("unit_types", u);
      engine::UnitType eu;
      eu.name = pu.name();
      if (const auto arm = ArmFromProto(pu.arm())) {
        eu.arm = *arm;
      } else {
        Add(up + ".arm", "unit type '" + pu.name() +
                             "' has no arm (ARM_INFANTRY, ARM_CAVALRY, ARM_ARTILLERY or "
                             "ARM_LEADER)");
      }
      if (const auto id = Class(pu.movement_class(), up + ".movement_class")) {
        eu.movement_class = *id;
      }
      eu.dromedary = pu.dromedary();
      eu.horse_artillery = pu.horse_artillery();
      eu.guard = pu.guard();
      eu.defaults = ValuesFromProto(pu.defaults());
      rs_.unit_types.push_back(std::move(eu));
    }
  }

  void Hexsides() {
    if (!p_.has_hexsides()) return;
    const v1::HexsideRules& h = p_.hexsides();
    if (h.has_stream_cost()) rs_.hexsides.stream_cost = h.stream_cost();
    if (h.has_ford_cost()) rs_.hexsides.ford_cost = h.ford_cost();
    if (h.has_bridge_cost()) rs_.hexsides.bridge_cost = h.bridge_cost();
    if (h.has_single_slope_cost()) rs_.hexsides.single_slope_cost = h.single_slope_cost();
  }

  void Routes() {
    if (!p_.has_routes()) return;
    const v1::RouteRules& r = p_.routes();
    if (r.road_alternating_costs_size() > 0) {
      rs_.routes.road_alternating_costs.assign(r.road_alternating_costs().begin(),
                                               r.road_alternating_costs().end());
    }
    if (r.has_track_cost()) rs_.routes.track_cost = r.track_cost();
    if (r.track_slope_costs_size() > 0) {
      rs_.routes.track_slope_costs.assign(r.track_slope_costs().begin(),
                                          r.track_slope_costs().end());
    }
  }

  void Crt() {
    if (!p_.has_crt()) return;
    const v1::CombatResultsTable& c = p_.crt();
    engine::CombatResultsTable& crt = rs_.crt;
    for (int i = 0; i < c.columns_size(); ++i) {
      if (const auto col = engine::ParseOddsColumn(c.columns(i))) {
        crt.columns.push_back(*col);
      } else {
        Add(Indexed("crt.columns", i), "bad CRT odds column '" + c.columns(i) +
                                           "' (expected attacker-defender odds like \"1-2\", "
                                           "\"1.5-1\", \"3-1\")");
        // Keep the column count right so that row lengths are still checked.
        crt.columns.push_back(
            engine::OddsColumn{c.columns(i), engine::Rational(0), engine::Rational(1)});
      }
    }
    crt.min_result = c.min_result();
    crt.max_result = c.max_result();
    // Rows are stored by result; the data may list them in any order.
    std::map<int, int> by_result;  // result -> merged row index
    for (int i = 0; i < c.rows_size(); ++i) {
      const v1::CrtRow& row = c.rows(i);
      const std::string rp = Indexed("crt.rows", i);
      if (row.result() < c.min_result() || row.result() > c.max_result()) {
        Add(rp + ".result", "CRT row result " + std::to_string(row.result()) +
                                " is outside min_result..max_result (" +
                                std::to_string(c.min_result()) + ".." +
                                std::to_string(c.max_result()) + ")");
        continue;
      }
      if (const auto [it, fresh] = by_result.emplace(row.result(), i); !fresh) {
        Add(rp + ".result", "a second CRT row for result " + std::to_string(row.result()) +
                                " (the first is crt.rows[" + std::to_string(it->second) + "])");
      }
    }
    for (const auto& [result, index] : by_result) {
      const v1::CrtRow& row = c.rows(index);
      std::vector<engine::CrtCell> cells;
      for (int j = 0; j < row.cells_size(); ++j) {
        if (const auto cell = engine::ParseCrtCell(row.cells(j))) {
          cells.push_back(*cell);
        } else {
          Add(Indexed("crt.rows", index) + Indexed(".cells", j),
              "bad CRT cell '" + row.cells(j) +
                  "' (expected \"A/D\" losses, '*' for a morale test, like \"1*/0\" or \"0/2*\")");
          cells.push_back(engine::CrtCell{});  // keeps the row length checkable
        }
      }
      crt.rows.push_back(std::move(cells));
      crt_row_source_.push_back(index);
    }
  }

  void TerrainCombat() {
    for (int i = 0; i < p_.terrain_combat_size(); ++i) {
      const v1::TerrainCombatEffect& pe = p_.terrain_combat(i);
      const std::string ep = Indexed("terrain_combat", i);
      engine::TerrainCombatEffect e;
      if (const auto id = rs_.FindTerrain(pe.terrain())) {
        e.terrain = *id;
      } else {
        Add(ep + ".terrain", pe.terrain().empty()
                                 ? std::string("no terrain given")
                                 : "unknown terrain '" + Shown(pe.terrain()) + "' (" +
                                       KnownNames(NamesOf(rs_.terrain)) + ")");
      }
      for (int a = 0; a < pe.arms_size(); ++a) {
        if (const auto arm = ArmFromProto(pe.arms(a))) {
          e.arms.push_back(*arm);
        } else {
          Add(ep + Indexed(".arms", a), "ARM_UNSPECIFIED is not an arm");
        }
      }
      if (!pe.cs_multiplier().empty()) {
        if (const auto m = engine::ParseRational(pe.cs_multiplier())) {
          e.cs_multiplier = *m;
        } else {
          Add(ep + ".cs_multiplier", "bad rational '" + Shown(pe.cs_multiplier()) +
                                         "' (expected \"2\", \"3/2\" or \"1.5\")");
        }
      }
      e.attacker_die_modifier = pe.attacker_die_modifier();
      rs_.terrain_combat.push_back(e);
    }
  }

  void Rational(const std::string& text, const std::string& path, engine::Rational& out) {
    if (const auto r = engine::ParseRational(text)) {
      out = *r;
    } else {
      Add(path, "bad rational '" + text + "' (expected \"3/2\", \"1/2\" or \"1.5\")");
    }
  }

  void Params() {
    if (!p_.has_parameters()) return;
    const v1::Parameters& p = p_.parameters();
    engine::Parameters& e = rs_.params;
    if (p.has_rules_version()) {
      if (p.rules_version() == v1::RULES_V2006) e.rules_version = engine::RulesVersion::kV2006;
      if (p.rules_version() == v1::RULES_V2008_PREFERRED) {
        e.rules_version = engine::RulesVersion::kV2008Preferred;
      }
    }
    if (p.has_leaders_move_as()) e.leaders_move_as = p.leaders_move_as();
    if (p.has_marsh_test_on_road()) e.marsh_test_on_road = p.marsh_test_on_road();
    // river_model, reaction_fire_model, charge_trigger, retreat_final_tiebreak
    // and fort_control_model have a single model so far: nothing to choose.
    if (p.has_min_bombard_distance()) e.min_bombard_distance = p.min_bombard_distance();
    if (p.has_bombard_allowed_in_enemy_zoc()) {
      e.bombard_allowed_in_enemy_zoc = p.bombard_allowed_in_enemy_zoc();
    }
    if (p.has_los_model()) {
      if (p.los_model() == v1::LOS_LEVELS_V1) e.los_model = engine::LosModel::kLevelsV1;
      if (p.los_model() == v1::LOS_NONE) e.los_model = engine::LosModel::kNone;
    }
    if (p.has_bombard_model()) {
      const v1::BombardModel& b = p.bombard_model();
      if (b.has_die()) {
        switch (b.die()) {
          case pbem::v1::DIE_D4:
            e.bombard.die_faces = 4;
            break;
          case pbem::v1::DIE_D6:
            e.bombard.die_faces = 6;
            break;
          case pbem::v1::DIE_D9:
            e.bombard.die_faces = 9;
            break;
          default:
            break;
        }
      }
      if (b.has_max_range_modifier()) e.bombard.max_range_modifier = b.max_range_modifier();
      if (b.has_loss_mv()) e.bombard.loss_mv = b.loss_mv();
      if (b.has_double_loss_margin()) e.bombard.double_loss_margin = b.double_loss_margin();
    }
    if (p.has_reaction_fire_per_enemy_turn()) {
      e.reaction_fire_per_enemy_turn = p.reaction_fire_per_enemy_turn();
    }
    if (p.has_horse_artillery_post_fire_move()) {
      if (p.horse_artillery_post_fire_move() == v1::HORSE_ARTILLERY_HALF_MA_IF_IN_COMMAND) {
        e.horse_artillery_post_fire_move = engine::HorseArtilleryMove::kHalfMaIfInCommand;
      }
      if (p.horse_artillery_post_fire_move() == v1::HORSE_ARTILLERY_NO_MOVE) {
        e.horse_artillery_post_fire_move = engine::HorseArtilleryMove::kNoMove;
      }
    }
    if (p.has_charge_advance_cost()) e.charge_advance_cost = p.charge_advance_cost();
    if (p.has_charge_cs_multiplier()) {
      Rational(p.charge_cs_multiplier(), "parameters.charge_cs_multiplier", e.charge_cs_multiplier);
    }
    if (p.has_morale_drm_model()) {
      if (p.morale_drm_model() == v1::MORALE_DRM_SIGNED_TRUNC_HALF) {
        e.morale_drm_model = engine::MoraleDrmModel::kSignedTruncHalf;
      }
      if (p.morale_drm_model() == v1::MORALE_DRM_ATTACKER_ONLY) {
        e.morale_drm_model = engine::MoraleDrmModel::kAttackerOnly;
      }
    }
    if (p.has_leaders_may_attack()) e.leaders_may_attack = p.leaders_may_attack();
    if (p.has_artillery_may_attack()) e.artillery_may_attack = p.artillery_may_attack();
    if (p.has_support_reuse()) {
      if (p.support_reuse() == v1::SUPPORT_REUSE_UNLIMITED) {
        e.support_reuse = engine::SupportReuse::kUnlimited;
      }
      if (p.support_reuse() == v1::SUPPORT_REUSE_ONCE)
        e.support_reuse = engine::SupportReuse::kOnce;
    }
    if (p.has_artillery_retreats_after_combat()) {
      e.artillery_retreats_after_combat = p.artillery_retreats_after_combat();
    }
    if (p.has_advance_after_elimination()) {
      e.advance_after_elimination = p.advance_after_elimination();
    }
    if (p.has_elimination_bonus_scope()) {
      if (p.elimination_bonus_scope() == v1::ELIMINATION_BONUS_COMBAT_PHASE) {
        e.elimination_bonus_scope = engine::EliminationBonusScope::kCombatPhase;
      }
      if (p.elimination_bonus_scope() == v1::ELIMINATION_BONUS_ALL) {
        e.elimination_bonus_scope = engine::EliminationBonusScope::kAll;
      }
    }
    if (p.has_strength_vp_model()) {
      if (p.strength_vp_model() == v1::STRENGTH_VP_LOSS_RATIO) {
        e.strength_vp_model = engine::StrengthVpModel::kLossRatio;
      }
      if (p.strength_vp_model() == v1::STRENGTH_VP_NONE) {
        e.strength_vp_model = engine::StrengthVpModel::kNone;
      }
    }
    if (p.has_strength_vp_gap_percent()) e.strength_vp_gap_percent = p.strength_vp_gap_percent();
    if (p.has_passing_includes_forced_moves()) {
      e.passing_includes_forced_moves = p.passing_includes_forced_moves();
    }
    if (p.has_allow_min_move()) e.allow_min_move = p.allow_min_move();
    if (p.has_command_blocked_by_terrain()) {
      e.command_blocked_by_terrain = p.command_blocked_by_terrain();
    }
    if (p.has_leaderless_out_of_command()) {
      e.leaderless_out_of_command = p.leaderless_out_of_command();
    }
    if (p.has_rally_model()) {
      if (p.rally_model() == v1::RALLY_V2008) e.rally_model = engine::RallyModel::kV2008;
      if (p.rally_model() == v1::RALLY_V2006) e.rally_model = engine::RallyModel::kV2006;
    }
    if (p.has_water_attack_multiplier()) {
      Rational(p.water_attack_multiplier(), "parameters.water_attack_multiplier",
               e.water_attack_multiplier);
    }
    if (p.has_combat_across_river_crossings()) {
      e.combat_across_river_crossings = p.combat_across_river_crossings();
    }
    if (p.has_mounted_leave_any_control()) {
      e.mounted_leave_any_control = p.mounted_leave_any_control();
    }
    if (p.has_mounted_never_leave_fort()) {
      e.mounted_never_leave_fort = p.mounted_never_leave_fort();
    }
    if (p.has_leader_strength_points()) e.leader_strength_points = p.leader_strength_points();
    if (p.has_hill_rank()) e.hill_rank = p.hill_rank();
    if (p.has_zoc_leave_cost()) e.zoc_leave_cost = p.zoc_leave_cost();
    if (p.has_service()) {
      const v1::ServiceDefaults& s = p.service();
      engine::ServiceDefaults& es = e.service;
      if (s.has_turn_reminder_days()) es.turn_reminder_days = s.turn_reminder_days();
      if (s.has_turn_timeout_days()) es.turn_timeout_days = s.turn_timeout_days();
      if (s.has_dead_games_ranked()) es.dead_games_ranked = s.dead_games_ranked();
      if (s.has_max_games_new()) es.max_games_new = s.max_games_new();
      if (s.has_max_games_after_first()) es.max_games_after_first = s.max_games_after_first();
      if (s.has_max_games_subscriber()) es.max_games_subscriber = s.max_games_subscriber();
      if (s.has_ranked_after_games()) es.ranked_after_games = s.ranked_after_games();
    }
  }

  const v1::Ruleset& p_;
  engine::Ruleset rs_;
  std::vector<Problem> problems_;
  std::vector<int> crt_row_source_;
};

// "crt.rows[r]..." of the engine (rows by result) -> the merged proto's row.
std::string ProtoPath(const std::string& engine_path, const std::vector<int>& crt_row_source) {
  static constexpr std::string_view kPrefix = "crt.rows[";
  if (engine_path.rfind(kPrefix, 0) != 0) return engine_path;
  const auto close = engine_path.find(']', kPrefix.size());
  if (close == std::string::npos) return engine_path;
  const std::string digits = engine_path.substr(kPrefix.size(), close - kPrefix.size());
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
      digits.size() > 6) {
    return engine_path;
  }
  const auto r = static_cast<std::size_t>(std::stoi(digits));
  if (r >= crt_row_source.size()) return engine_path;
  return std::string(kPrefix) + std::to_string(crt_row_source[r]) + engine_path.substr(close);
}

// True when one path is the other or contains it ("a[1]" and "a[1].b").
bool Related(std::string_view a, std::string_view b) {
  const auto prefix = [](std::string_view whole, std::string_view part) {
    return whole.size() >= part.size() && whole.substr(0, part.size()) == part &&
           (whole.size() == part.size() || whole[part.size()] == '.' || whole[part.size()] == '[');
  };
  return prefix(a, b) || prefix(b, a);
}

Result<LoadedRuleset> Convert(const v1::Ruleset& merged, const internal::Locator& locator) {
  Converter converter(merged);
  engine::Ruleset ruleset = converter.Run();
  std::vector<Problem> problems = std::move(converter.problems());
  const std::size_t conversion_problems = problems.size();
  for (const engine::RulesetProblem& rp : engine::ValidateRuleset(ruleset)) {
    const std::string path = ProtoPath(rp.path, converter.crt_row_source());
    // A name that did not resolve already has its error; the engine's view
    // of the consequence (a hole in the movement chart) adds nothing.
    bool repeated = false;
    for (std::size_t i = 0; i < conversion_problems && !repeated; ++i) {
      repeated = Related(problems[i].path, path);
    }
    if (!repeated) problems.push_back(Problem{path, rp.message});
  }
  if (!problems.empty()) {
    std::vector<Error> errors;
    for (const Problem& p : problems) errors.push_back(locator.At(p.path, p.message));
    return errors;
  }
  return LoadedRuleset{std::move(ruleset), merged};
}

}  // namespace

Result<LoadedRuleset> RulesetFromProto(const pbem::v1::Ruleset& proto, std::string_view source) {
  return Convert(proto, internal::Locator({}, std::string(source)));
}

Result<LoadedRuleset> LoadRulesetFiles(const std::vector<NamedText>& files) {
  if (files.empty()) return Result<LoadedRuleset>::Fail("ruleset", "no ruleset files given");
  v1::Ruleset merged;
  auto parsed = internal::ParseAndMerge(files, merged);
  if (!parsed.ok()) return parsed.errors();
  return Convert(merged, internal::Locator(std::move(parsed.value().sources), files.front().name));
}

Result<std::vector<NamedText>> ReadRulesetFiles(const std::filesystem::path& dir) {
  const std::string name = dir.string();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return Result<std::vector<NamedText>>::Fail(name,
                                                "not a directory (a ruleset is a directory of "
                                                "*.textproto files)");
  }
  std::vector<std::filesystem::path> paths;
  // The error_code overloads throughout: a directory that vanishes or
  // cannot be read is an error value, never an exception.
  std::filesystem::directory_iterator it(dir, ec);
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::error_code file_ec;
    if (it->path().extension() == ".textproto" && it->is_regular_file(file_ec)) {
      paths.push_back(it->path());
    }
  }
  if (ec) {
    return Result<std::vector<NamedText>>::Fail(name, "cannot list the directory: " + ec.message());
  }
  if (paths.empty()) {
    return Result<std::vector<NamedText>>::Fail(name,
                                                "no *.textproto files in the ruleset directory");
  }
  std::sort(paths.begin(), paths.end(),
            [](const auto& a, const auto& b) { return a.filename() < b.filename(); });
  std::vector<NamedText> files;
  std::vector<Error> errors;
  for (const auto& path : paths) {
    auto text = ReadFile(path);
    if (!text.ok()) {
      errors.insert(errors.end(), text.errors().begin(), text.errors().end());
      continue;
    }
    files.push_back(NamedText{path.string(), std::move(text).value()});
  }
  if (!errors.empty()) return errors;
  return files;
}

Result<LoadedRuleset> LoadRulesetDir(const std::filesystem::path& dir) {
  Result<std::vector<NamedText>> files = ReadRulesetFiles(dir);
  if (!files.ok()) return files.errors();
  return LoadRulesetFiles(files.value());
}

}  // namespace pbem::codec
