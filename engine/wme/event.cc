#include "engine/wme/event.h"

namespace pbem::wme {
namespace {

struct KindName {
  std::string_view operator()(const UnitMoved&) const { return "unit_moved"; }
  std::string_view operator()(const UnitHeld&) const { return "unit_held"; }
  std::string_view operator()(const Moved&) const { return "moved"; }
  std::string_view operator()(const FormationNow&) const { return "formation_now"; }
  std::string_view operator()(const RanksPassedThrough&) const { return "ranks_passed_through"; }
  std::string_view operator()(const ConfusionTest&) const { return "confusion_test"; }
  std::string_view operator()(const PhaseEnded&) const { return "phase_ended"; }
  std::string_view operator()(const ZoneTieRoll&) const { return "zone_tie_roll"; }
  std::string_view operator()(const ChargeContact&) const { return "charge_contact"; }
  std::string_view operator()(const AdditionalChargedUnit&) const {
    return "additional_charged_unit";
  }
  std::string_view operator()(const SupportingCharge&) const { return "supporting_charge"; }
};

}  // namespace

std::string_view EventKindName(const Event& event) { return std::visit(KindName{}, event); }

std::string_view FormationName(table::Formation formation) {
  switch (formation) {
    case table::Formation::kLine:
      return "LINE";
    case table::Formation::kColumn:
      return "COLUMN";
    case table::Formation::kIrregular:
      return "IRREGULAR";
    case table::Formation::kNone:
      return "NONE";
  }
  return "";
}

}  // namespace pbem::wme
