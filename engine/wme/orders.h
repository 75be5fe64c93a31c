// The orders of one player for one turn (french-fantasy.md §5.1): an `initiative` block
// (sub-phase 1: *évitement* or charge only) and an `orders` block (sub-phase 2), each processed
// in the order written. Coordinates are thousandths of a centimetre and angles millidegrees as
// the order gives them (3 decimals, §0.3), untrusted: validate.h converts and bounds-checks.
#ifndef PBEM_ENGINE_WME_ORDERS_H_
#define PBEM_ENGINE_WME_ORDERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/wme/ruleset.h"

namespace pbem::wme {

// WME-P03 legs. `rotate { deg pivot: CENTRE | FL | FR | RL | RR | (x, y) }`; the named pivots
// are the base's corners (§1.1) at the start of that leg.
enum class Pivot : std::uint8_t { kCentre, kFL, kFR, kRL, kRR, kPoint };
struct LegOrder {
  enum class Kind : std::uint8_t { kTranslate, kRotate };
  Kind kind = Kind::kTranslate;
  Milli x = 0;  // translate: the new centre; rotate with kPoint: the pivot
  Milli y = 0;
  std::int64_t deg_mdeg = 0;  // rotate: anticlockwise positive
  Pivot pivot = Pivot::kCentre;
};

// `base { id leg ... }`: bases are listed in movement order (WME-R16); a base not listed does
// not move.
struct BaseOrder {
  std::string id;
  std::vector<LegOrder> legs;
};

// `move { unit kind: ADVANCE ... }` in `orders`, `evade { unit from allow_pass_through ... }`
// in `initiative` (kind EVADE). An EVADE in `orders` is understood and refused
// (EVADE_NOT_BY_INITIATIVE, WME-R29); an ADVANCE in `initiative` is WRONG_SUBPHASE.
enum class MoveKindOrder : std::uint8_t { kAdvance, kEvade };
struct MoveOrder {
  std::string unit;
  MoveKindOrder kind = MoveKindOrder::kAdvance;
  std::optional<std::string> from;  // evade: the enemy unit evaded (omitted: the nearest)
  std::vector<std::string> allow_pass_through;  // *traversée de rangs* (WME-R35)
  std::vector<BaseOrder> bases;
};

// `charge { unit target envelop support placement first_base target_base reserve base ... }`
// (§5.1, §5.4): `support` names the unit of a *charge de soutien* (step 9, charge_support.cc),
// always placed AUTO; resolved by charge.h and resolve.h.
enum class Placement : std::uint8_t { kAuto, kExplicit };
struct ChargeOrder {
  std::string unit;
  std::string target;
  bool envelop = false;
  std::optional<std::string> support;
  Placement placement = Placement::kAuto;
  std::optional<std::string> first_base;
  std::optional<std::string> target_base;
  std::optional<Reserve> reserve;
  std::vector<BaseOrder> bases;
};

using Entry = std::variant<MoveOrder, ChargeOrder>;

struct TurnOrders {
  std::string player;
  std::vector<Entry> initiative;  // sub-phase 1 (*initiative*)
  std::vector<Entry> orders;      // sub-phase 2 (*ordres*)
};

enum class Subphase : std::uint8_t { kInitiative, kOrders };

}  // namespace pbem::wme

#endif  // PBEM_ENGINE_WME_ORDERS_H_
