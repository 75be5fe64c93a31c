// The check's dry run (validate_orders.h): the resolver's own phases run on
// a copy of the state with the same orders, so that what the check answers
// at once is what the resolution will do, where no die intervenes. Dice are
// drawn from a fixed source; every unit a die could have touched, and the
// hexes it could stand in since, are marked uncertain, and an order whose
// outcome reads anything uncertain is answered "depends on dice" instead of
// "ok".
#ifndef PBEM_ENGINE_MORNE_PLAINE_CHECK_DRY_RUN_H_
#define PBEM_ENGINE_MORNE_PLAINE_CHECK_DRY_RUN_H_

#include <map>
#include <set>
#include <vector>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/movement_phase.h"
#include "engine/morne_plaine/orders.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "engine/morne_plaine/turn_result.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

// What dice may have changed so far in the dry run: units whose state
// (hex, MV, CS, being on the map) may differ from the dry run's, and hexes
// where a unit may stand, or stop standing, in some other draw of the dice.
class Uncertainty {
 public:
  // True when `unit` is uncertain, or stands (in `state`) on an uncertain hex.
  bool Unit(const GameState& state, UnitId unit) const;
  // True when some uncertain hex lies within `radius` of one of `hexes`.
  bool Near(const std::vector<Hex>& hexes, int radius) const;
  bool Everything() const { return everything_; }

  void AddUnit(UnitId unit) { units_.insert(unit.value); }
  // Every hex within `radius` of `hexes` becomes uncertain, and every unit
  // standing there in `state`.
  void AddArea(const Scenario& scenario, const GameState& state, const std::vector<Hex>& hexes,
               int radius);
  // From now on, everything is (a destination order of an uncertain unit may
  // take any route).
  void AddEverything() { everything_ = true; }

 private:
  bool everything_ = false;
  std::set<std::int32_t> units_;
  std::set<Hex> hexes_;
};

class CheckDryRun {
 public:
  // The state as the turn of `side` starts: the per-turn resets, the
  // accepted placements (`verdicts` of kind kPlacement) and the command
  // check, as ResolvePlayerTurn does them.
  CheckDryRun(const Ruleset& ruleset, const Scenario& scenario, const GameState& state,
              const Orders& orders, Side side, const std::vector<OrderVerdict>& placements);

  // The bombardment phase, one order at a time. `verdict` holds the static
  // check's verdict and is replaced by the resolver's, or by
  // depends_on_dice when an earlier shot may have changed its target.
  void Bombard(OrderVerdict& verdict);

  // The movement phase: one verdict per entry of orders.moves, the
  // resolver's own unless dice intervene (depends_on_dice), with a
  // will_charge note when the move charges and a via_path note giving a
  // destination order's route.
  std::vector<OrderVerdict> Move();

  // The board at combat (after the dry run's movement phase).
  const GameState& state() const { return state_; }
  Uncertainty& uncertainty() { return uncertain_; }

 private:
  OrderVerdict JudgeMove(const MoveOrderTrace& trace);

  const Ruleset& ruleset_;
  const Scenario& scenario_;
  const Orders& orders_;
  Side side_;
  GameState state_;
  std::vector<Event> events_;
  Uncertainty uncertain_;
  std::map<std::int32_t, int> worst_mv_;  // a bombarded unit's lowest possible MV
  std::set<std::int32_t> open_firers_;    // batteries whose firing depends on dice
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_CHECK_DRY_RUN_H_
