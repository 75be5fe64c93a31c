// The small drawings that tell terrain apart besides its colour: trees for woods, dots in
// rows for orchards, tufts for marsh, rocks for rough ground, blocks for towns and hamlets,
// crescents for dunes, palms, and the bastioned outline of a fort. Shapes are laid out in
// units of the hex size around the hex centre, with a little jitter from a per-hex seed so
// that neighbouring hexes do not look stamped; the seed comes from the hex coordinates, so
// the drawing stays deterministic.
#ifndef PBEM_TEMPLATES_TERRAIN_GLYPHS_H_
#define PBEM_TEMPLATES_TERRAIN_GLYPHS_H_

#include <cairo.h>

#include <cstdint>
#include <string_view>

#include "engine/hex/hex.h"
#include "templates/map_layout.h"
#include "templates/map_style.h"

namespace pbem::templates {

enum class TerrainGlyph : std::uint8_t {
  kNone,
  kTrees,
  kBushes,
  kOrchard,
  kMarsh,
  kRocks,
  kTown,
  kHamlet,
  kDunes,
  kPalms,
  kFort,
};

// The glyph for a ruleset terrain name ("woods", "coppice", "orchard", "marsh", "rough",
// "town", "hamlet", "dune", "palm_grove", "fort" and a few synonyms); kNone otherwise.
TerrainGlyph GlyphForTerrain(std::string_view terrain_name);

// A per-hex seed for the jitter.
std::uint32_t GlyphSeed(engine::Hex hex);

// Appends the glyph of one hex (centre `c`, hex size `s`) to the current path.
void AddGlyphPath(cairo_t* cr, TerrainGlyph glyph, Point c, double s, std::uint32_t seed);

// Fills and/or strokes the current path the way `glyph` is painted, then clears it.
// `fill` replaces the glyph's own fill colour when not null (a fort in its owner's colour).
void PaintGlyphPath(cairo_t* cr, TerrainGlyph glyph, double s, const Rgb* fill = nullptr);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_TERRAIN_GLYPHS_H_
