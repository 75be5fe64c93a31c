// Strong id types and the small enums shared by every engine type.
#ifndef PBEM_ENGINE_MORNE_PLAINE_IDS_H_
#define PBEM_ENGINE_MORNE_PLAINE_IDS_H_

#include <compare>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace pbem::engine {

// An index into one of the ruleset's or scenario's tables, typed by what it
// indexes so a terrain id can never be passed where a unit id is expected.
template <typename Tag>
struct Id {
  std::int32_t value = -1;

  constexpr bool valid() const { return value >= 0; }
  constexpr std::size_t index() const { return static_cast<std::size_t>(value); }
  friend constexpr auto operator<=>(Id, Id) = default;
};

struct TerrainTag {};
struct MovementClassTag {};
struct UnitTypeTag {};
struct UnitTag {};

using TerrainId = Id<TerrainTag>;
using MovementClassId = Id<MovementClassTag>;
using UnitTypeId = Id<UnitTypeTag>;
// A unit of a scenario: the index of its UnitSpec, also the index of its
// UnitState in a GameState.
using UnitId = Id<UnitTag>;

enum class Side : std::uint8_t { kBlue, kOrange };
constexpr Side Opponent(Side s) { return s == Side::kBlue ? Side::kOrange : Side::kBlue; }
std::string_view SideName(Side side);  // "blue", "orange"
std::optional<Side> ParseSide(std::string_view name);

enum class Arm : std::uint8_t { kInfantry, kCavalry, kArtillery, kLeader };
std::string_view ArmName(Arm arm);  // "infantry", ...

enum class Water : std::uint8_t { kNone, kStream, kRiver, kMajorRiver };
enum class Crossing : std::uint8_t { kNone, kBridge, kFord };

enum class Phase : std::uint8_t {
  kSetup,
  kBombardment,
  kMovement,
  kCombat,
  kRally,
  kEndOfTurn,
};
std::string_view PhaseName(Phase phase);

}  // namespace pbem::engine

template <typename Tag>
struct std::hash<pbem::engine::Id<Tag>> {
  std::size_t operator()(pbem::engine::Id<Tag> id) const noexcept {
    return std::hash<std::int32_t>{}(id.value);
  }
};

#endif  // PBEM_ENGINE_MORNE_PLAINE_IDS_H_
