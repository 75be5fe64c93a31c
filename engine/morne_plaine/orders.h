// One player-turn of orders as the engine reads them. Units are named by
// their scenario id (an unknown id is a verdict, not a crash); hexes are
// already converted from labels by the codec, which attaches a DecodeProblem
// to any order it could not fully read.
#ifndef PBEM_ENGINE_MORNE_PLAINE_ORDERS_H_
#define PBEM_ENGINE_MORNE_PLAINE_ORDERS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/hex/hex.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/verdict.h"

namespace pbem::engine {

struct PlacementOrder {
  std::string unit;
  Hex hex;
  std::optional<DecodeProblem> problem;
};

struct BombardmentOrder {
  std::string unit;
  Hex target;
  std::optional<DecodeProblem> problem;
};

struct MoveOrder {
  std::string unit;
  // Hexes entered in order, start hex excluded. Empty when `destination`.
  std::vector<Hex> path;
  std::optional<Hex> destination;
  std::optional<Hex> from;
  bool no_charge = false;
  std::vector<Hex> no_charge_at;
  std::optional<DecodeProblem> problem;
};

struct AttackOrder {
  std::string attacker;
  std::string defender;
  std::optional<DecodeProblem> problem;
};

struct Orders {
  std::string game_id;
  int turn = 0;
  std::optional<Side> side;
  std::vector<PlacementOrder> placements;
  std::vector<BombardmentOrder> bombardments;
  std::vector<MoveOrder> moves;
  std::vector<AttackOrder> attacks;
  std::string message;
  // The game system whose body the orders carried instead, when not Morne Plaine's (the
  // envelope pbem.v1.Orders holds every system's body, proto/pbem/v1/orders.proto): the orders
  // are then refused as a whole (wrong_system). Empty for Morne Plaine's own orders.
  std::string other_system;
};

}  // namespace pbem::engine

#endif  // PBEM_ENGINE_MORNE_PLAINE_ORDERS_H_
