// Colours and line weights of the map image. Terrain colours come from the ruleset (a
// renderer hint there); everything else a player sees on the map is chosen here, in one
// place, so the legend, the renderer and the tests agree.
#ifndef PBEM_TEMPLATES_MAP_STYLE_H_
#define PBEM_TEMPLATES_MAP_STYLE_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/morne_plaine/ids.h"

namespace pbem::templates {

struct Rgb {
  std::uint8_t r = 0;
  std::uint8_t g = 0;
  std::uint8_t b = 0;

  friend bool operator==(const Rgb&, const Rgb&) = default;
};

// Parses "#rrggbb" (hex digits in either case). Anything else yields nullopt.
std::optional<Rgb> ParseHexColour(std::string_view text);

// Drawn for a terrain whose colour is missing or malformed.
inline constexpr Rgb kUnknownTerrainColour{0xdd, 0xdd, 0xdd};

// The counter colour of each side (digest 1.2: the blue and the orange player).
inline constexpr Rgb kBlueSideColour{0x2f, 0x5f, 0xb3};
inline constexpr Rgb kOrangeSideColour{0xe0, 0x7b, 0x24};
Rgb SideColour(engine::Side side);
// Text and symbols printed on a counter of that side (white on blue, near-black on orange).
Rgb CounterInkColour(engine::Side side);

// The corps strip along the top of a counter (digest 1.2: blue to indigo for the blue
// player, yellow to red for the orange player). `corps_index` is the corps' rank among its
// side's corps in scenario order; the palette repeats after its last colour.
Rgb CorpsStripColour(engine::Side side, int corps_index);

// An objective nobody holds yet.
inline constexpr Rgb kNeutralObjectiveColour{0xd4, 0xa0, 0x17};

// Hexside water and routes.
inline constexpr Rgb kStreamColour{0x4a, 0x95, 0xe0};
inline constexpr Rgb kRiverColour{0x2f, 0x74, 0xcc};
inline constexpr Rgb kMajorRiverColour{0x1f, 0x55, 0xa8};
inline constexpr Rgb kRoadCasingColour{0x5a, 0x3b, 0x1e};
inline constexpr Rgb kRoadFillColour{0xf2, 0xd9, 0xa0};
inline constexpr Rgb kTrackColour{0x6e, 0x4a, 0x28};
inline constexpr Rgb kSlopeColour{0x7a, 0x4e, 0x22};
inline constexpr Rgb kPaperColour{0xf7, 0xf3, 0xe8};
// The hex grid lines, and the outline of the map.
inline constexpr Rgb kGridColour{0x9c, 0xa0, 0x88};
inline constexpr Rgb kMapBorderColour{0x55, 0x58, 0x48};
inline constexpr Rgb kInkColour{0x22, 0x22, 0x22};

// The turn's events: combats (arrow, odds and result), bombardments and reaction fire
// (line and burst), eliminations (the cross over a ghost counter), a move stopped short,
// losses.
inline constexpr Rgb kCombatColour{0xc8, 0x1a, 0x1a};
inline constexpr Rgb kFireColour{0x7b, 0x2a, 0xa8};
inline constexpr Rgb kEliminatedColour{0xd0, 0x10, 0x10};
inline constexpr Rgb kStopColour{0xd0, 0x10, 0x10};
inline constexpr Rgb kLossColour{0xb0, 0x00, 0x20};

// Perceived brightness 0..255 (Rec. 601 weights, integer arithmetic).
int Luma(Rgb colour);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_MAP_STYLE_H_
