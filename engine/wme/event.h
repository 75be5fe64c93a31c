// The events of a player-turn of the French mass-battle game (french-fantasy.md §5.3 step 6):
// one struct per kind with named, typed fields, held in a std::variant. Positions and lengths
// are Milli (to the nearest thousandth of a cm, halves up), headings millidegrees.
//
// kind                 fields
// unit_moved           unit, kind (ADVANCE | EVADE), by_initiative      (a move carried out)
// unit_held            unit, reason                 (an illegal move: the unit holds, GAP-20)
// moved                base, from x/y/heading, to x/y/heading, travelled   (§5.3 `Moved`)
// formation_now        unit, formation (LINE | COLUMN | IRREGULAR)         (§5.3 `FormationNow`)
// ranks_passed_through evader, crossed                  (*traversée de rangs*, WME-R35)
// confusion_test       unit, roll, confused             (*test de confusion*, WME-R36, GAP-07)
// phase_ended          player, turn                     (the next player is active)
// zone_tie_roll        charger, target, roll            (WME-R44, GAP-34: the D6 of a zone tie)
// charge_contact       charger, target, side, base, target_base   (§5.4 step 11)
// additional_charged_unit  unit                         (WME-R52)
// supporting_charge    supporter, charger               (§5.4 step 9, WME-R53: after its moved)
#ifndef PBEM_ENGINE_WME_EVENT_H_
#define PBEM_ENGINE_WME_EVENT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "engine/table/formation.h"
#include "engine/table/zones.h"
#include "engine/wme/orders.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/verdict.h"

namespace pbem::wme {

struct UnitMoved {
  std::string unit;
  MoveKindOrder kind = MoveKindOrder::kAdvance;
  bool by_initiative = false;
  friend bool operator==(const UnitMoved&, const UnitMoved&) = default;
};
struct UnitHeld {
  std::string unit;
  Reason reason = Reason::kNone;
  friend bool operator==(const UnitHeld&, const UnitHeld&) = default;
};
struct Moved {
  std::string base;
  Milli from_x = 0, from_y = 0;
  std::int64_t from_heading_mdeg = 0;
  Milli to_x = 0, to_y = 0;
  std::int64_t to_heading_mdeg = 0;
  Milli travelled = 0;
  friend bool operator==(const Moved&, const Moved&) = default;
};
struct FormationNow {
  std::string unit;
  table::Formation formation = table::Formation::kLine;
  friend bool operator==(const FormationNow&, const FormationNow&) = default;
};
struct RanksPassedThrough {
  std::string evader;
  std::string crossed;
  friend bool operator==(const RanksPassedThrough&, const RanksPassedThrough&) = default;
};
struct ConfusionTest {
  std::string unit;
  int roll = 0;
  bool confused = false;
  friend bool operator==(const ConfusionTest&, const ConfusionTest&) = default;
};
struct PhaseEnded {
  std::string player;
  int turn = 0;
  friend bool operator==(const PhaseEnded&, const PhaseEnded&) = default;
};

struct ZoneTieRoll {
  std::string charger;
  std::string target;
  int roll = 0;
  friend bool operator==(const ZoneTieRoll&, const ZoneTieRoll&) = default;
};

struct ChargeContact {
  std::string charger;
  std::string target;
  table::Zone side = table::Zone::kFront;
  std::string base;
  std::string target_base;
  friend bool operator==(const ChargeContact&, const ChargeContact&) = default;
};
struct AdditionalChargedUnit {
  std::string unit;
  friend bool operator==(const AdditionalChargedUnit&, const AdditionalChargedUnit&) = default;
};

struct SupportingCharge {
  std::string supporter;
  std::string charger;
  friend bool operator==(const SupportingCharge&, const SupportingCharge&) = default;
};

using Event =
    std::variant<UnitMoved, UnitHeld, Moved, FormationNow, RanksPassedThrough, ConfusionTest,
                 PhaseEnded, ZoneTieRoll, ChargeContact, AdditionalChargedUnit, SupportingCharge>;

std::string_view EventKindName(const Event& event);          // "unit_moved", ...
std::string_view FormationName(table::Formation formation);  // "LINE", ...

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_EVENT_H_
