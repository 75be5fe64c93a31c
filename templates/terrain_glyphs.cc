#include "templates/terrain_glyphs.h"

#include <array>
#include <string>

namespace pbem::templates {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Six points around the centre at 60 degree steps, starting east (unit radius).
constexpr std::array<Point, 6> kRing6{{
    {1.0, 0.0},
    {0.5, kSqrt3 / 2},
    {-0.5, kSqrt3 / 2},
    {-1.0, 0.0},
    {-0.5, -kSqrt3 / 2},
    {0.5, -kSqrt3 / 2},
}};

// A pentagram, outer points from the top clockwise, and the inner points between them.
constexpr std::array<Point, 5> kStarOuter{{
    {0.0, -1.0},
    {0.9510565163, -0.3090169944},
    {0.5877852523, 0.8090169944},
    {-0.5877852523, 0.8090169944},
    {-0.9510565163, -0.3090169944},
}};
constexpr std::array<Point, 5> kStarInner{{
    {0.5877852523, -0.8090169944},
    {0.9510565163, 0.3090169944},
    {0.0, 1.0},
    {-0.9510565163, 0.3090169944},
    {-0.5877852523, -0.8090169944},
}};

// Palm fronds: five directions fanning out and drooping from the top of the trunk.
constexpr std::array<Point, 5> kFronds{{
    {-1.0, 0.35},
    {-0.6, -0.55},
    {0.0, -1.0},
    {0.6, -0.55},
    {1.0, 0.35},
}};

// A jitter value in [-1, 1] from the seed and an index (integer mixing only).
double Jitter(std::uint32_t seed, std::uint32_t k) {
  std::uint32_t h = seed * 0x9E3779B1u + (k + 1) * 0x85EBCA6Bu;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return static_cast<double>(h & 1023u) / 511.5 - 1.0;
}

void SetRgb(cairo_t* cr, Rgb c, double alpha = 1.0) {
  cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, alpha);
}

void Circle(cairo_t* cr, double x, double y, double radius) {
  cairo_new_sub_path(cr);
  cairo_arc(cr, x, y, radius, 0, 2 * kPi);
  cairo_close_path(cr);
}

void Rect(cairo_t* cr, Point c, double s, double x, double y, double w, double h) {
  cairo_rectangle(cr, c.x + x * s, c.y + y * s, w * s, h * s);
}

void AddTrees(cairo_t* cr, Point c, double s, std::uint32_t seed) {
  const double j = 0.05 * s;
  Circle(cr, c.x + j * Jitter(seed, 0), c.y + j * Jitter(seed, 1), 0.17 * s);
  for (std::uint32_t i = 0; i < 6; ++i) {
    const Point u = kRing6[i];
    const double radius = s * (0.14 + 0.025 * Jitter(seed, 20 + i));
    Circle(cr, c.x + 0.52 * s * u.x + j * Jitter(seed, 2 * i + 2),
           c.y + 0.52 * s * u.y + j * Jitter(seed, 2 * i + 3), radius);
  }
}

void AddBushes(cairo_t* cr, Point c, double s, std::uint32_t seed) {
  const double j = 0.07 * s;
  for (std::uint32_t i = 0; i < 6; ++i) {
    const Point u = kRing6[i];
    Circle(cr, c.x + 0.45 * s * u.x + j * Jitter(seed, 2 * i),
           c.y + 0.45 * s * u.y + j * Jitter(seed, 2 * i + 1), 0.09 * s);
  }
  Circle(cr, c.x + j * Jitter(seed, 30), c.y + j * Jitter(seed, 31), 0.1 * s);
}

void AddOrchard(cairo_t* cr, Point c, double s) {
  // Trees in rows: 3, 4, 3.
  static constexpr std::array<Point, 10> kAt{{{-0.3, -0.36},
                                              {0.0, -0.36},
                                              {0.3, -0.36},
                                              {-0.45, 0.0},
                                              {-0.15, 0.0},
                                              {0.15, 0.0},
                                              {0.45, 0.0},
                                              {-0.3, 0.36},
                                              {0.0, 0.36},
                                              {0.3, 0.36}}};
  for (const Point& p : kAt) Circle(cr, c.x + p.x * s, c.y + p.y * s, 0.075 * s);
}

void AddMarsh(cairo_t* cr, Point c, double s, std::uint32_t seed) {
  static constexpr std::array<Point, 4> kTufts{
      {{-0.32, -0.3}, {0.3, -0.22}, {-0.05, 0.1}, {0.28, 0.45}}};
  const double j = 0.04 * s;
  for (std::uint32_t i = 0; i < kTufts.size(); ++i) {
    const double x = c.x + kTufts[i].x * s + j * Jitter(seed, i);
    const double y = c.y + kTufts[i].y * s + j * Jitter(seed, i + 10);
    cairo_move_to(cr, x - 0.16 * s, y);
    cairo_line_to(cr, x + 0.16 * s, y);
    cairo_move_to(cr, x - 0.08 * s, y);
    cairo_line_to(cr, x - 0.11 * s, y - 0.11 * s);
    cairo_move_to(cr, x, y);
    cairo_line_to(cr, x, y - 0.14 * s);
    cairo_move_to(cr, x + 0.08 * s, y);
    cairo_line_to(cr, x + 0.11 * s, y - 0.11 * s);
  }
  // Open water between the tufts.
  cairo_move_to(cr, c.x - 0.5 * s, c.y + 0.32 * s);
  cairo_line_to(cr, c.x - 0.2 * s, c.y + 0.32 * s);
  cairo_move_to(cr, c.x + 0.2 * s, c.y - 0.5 * s);
  cairo_line_to(cr, c.x + 0.45 * s, c.y - 0.5 * s);
}

void AddRocks(cairo_t* cr, Point c, double s, std::uint32_t seed) {
  static constexpr std::array<Point, 5> kAt{
      {{-0.4, -0.2}, {0.05, -0.45}, {0.42, -0.05}, {-0.15, 0.35}, {0.3, 0.42}}};
  const double j = 0.05 * s;
  for (std::uint32_t i = 0; i < kAt.size(); ++i) {
    const double x = c.x + kAt[i].x * s + j * Jitter(seed, i);
    const double y = c.y + kAt[i].y * s + j * Jitter(seed, i + 7);
    const double r = s * (0.11 + 0.02 * Jitter(seed, i + 14));
    cairo_move_to(cr, x - r, y + r * 0.6);
    cairo_line_to(cr, x - r * 0.2, y - r * 0.8);
    cairo_line_to(cr, x + r * 0.5, y - r * 0.3);
    cairo_line_to(cr, x + r, y + r * 0.6);
    cairo_close_path(cr);
  }
}

void AddTown(cairo_t* cr, Point c, double s) {
  Rect(cr, c, s, -0.52, -0.38, 0.3, 0.22);
  Rect(cr, c, s, -0.12, -0.5, 0.26, 0.3);
  Rect(cr, c, s, 0.24, -0.34, 0.28, 0.24);
  Rect(cr, c, s, -0.55, 0.0, 0.24, 0.3);
  Rect(cr, c, s, -0.2, -0.08, 0.22, 0.22);
  Rect(cr, c, s, 0.12, 0.02, 0.3, 0.2);
  Rect(cr, c, s, -0.15, 0.28, 0.34, 0.22);
  Rect(cr, c, s, 0.3, 0.32, 0.2, 0.2);
}

void AddHamlet(cairo_t* cr, Point c, double s) {
  Rect(cr, c, s, -0.38, -0.3, 0.3, 0.22);
  Rect(cr, c, s, 0.1, -0.12, 0.26, 0.26);
  Rect(cr, c, s, -0.25, 0.22, 0.24, 0.2);
}

void AddDunes(cairo_t* cr, Point c, double s) {
  static constexpr std::array<Point, 4> kAt{{{-0.3, -0.2}, {0.25, -0.3}, {-0.1, 0.25}, {0.4, 0.3}}};
  for (const Point& p : kAt) {
    cairo_new_sub_path(cr);
    cairo_arc(cr, c.x + p.x * s, c.y + p.y * s + 0.12 * s, 0.2 * s, 1.15 * kPi, 1.85 * kPi);
  }
}

void AddPalms(cairo_t* cr, Point c, double s, std::uint32_t seed) {
  static constexpr std::array<Point, 4> kAt{
      {{-0.35, -0.25}, {0.3, -0.35}, {-0.2, 0.35}, {0.38, 0.25}}};
  const double j = 0.04 * s;
  for (std::uint32_t i = 0; i < kAt.size(); ++i) {
    const double x = c.x + kAt[i].x * s + j * Jitter(seed, i);
    const double y = c.y + kAt[i].y * s + j * Jitter(seed, i + 5);
    cairo_move_to(cr, x, y + 0.2 * s);  // trunk
    cairo_line_to(cr, x, y - 0.05 * s);
    for (const Point& f : kFronds) {
      cairo_move_to(cr, x, y - 0.05 * s);
      cairo_line_to(cr, x + f.x * 0.15 * s, y - 0.05 * s + f.y * 0.15 * s);
    }
  }
}

void AddFort(cairo_t* cr, Point c, double s) {
  const double outer = 0.7 * s;
  const double inner = 0.45 * s;
  cairo_move_to(cr, c.x + kStarOuter[0].x * outer, c.y + kStarOuter[0].y * outer);
  for (std::size_t i = 0; i < 5; ++i) {
    if (i > 0) cairo_line_to(cr, c.x + kStarOuter[i].x * outer, c.y + kStarOuter[i].y * outer);
    cairo_line_to(cr, c.x + kStarInner[i].x * inner, c.y + kStarInner[i].y * inner);
  }
  cairo_close_path(cr);
}

}  // namespace

TerrainGlyph GlyphForTerrain(std::string_view name) {
  if (name == "woods" || name == "forest") return TerrainGlyph::kTrees;
  if (name == "coppice") return TerrainGlyph::kBushes;
  if (name == "orchard" || name == "olive_grove") return TerrainGlyph::kOrchard;
  if (name == "marsh") return TerrainGlyph::kMarsh;
  if (name == "rough" || name == "scree") return TerrainGlyph::kRocks;
  if (name == "town" || name == "village") return TerrainGlyph::kTown;
  if (name == "hamlet") return TerrainGlyph::kHamlet;
  if (name == "dune") return TerrainGlyph::kDunes;
  if (name == "palm_grove") return TerrainGlyph::kPalms;
  if (name == "fort") return TerrainGlyph::kFort;
  return TerrainGlyph::kNone;
}

std::uint32_t GlyphSeed(engine::Hex hex) {
  return static_cast<std::uint32_t>(hex.q) * 73856093u ^
         static_cast<std::uint32_t>(hex.r) * 19349663u;
}

void AddGlyphPath(cairo_t* cr, TerrainGlyph glyph, Point c, double s, std::uint32_t seed) {
  switch (glyph) {
    case TerrainGlyph::kNone:
      return;
    case TerrainGlyph::kTrees:
      return AddTrees(cr, c, s, seed);
    case TerrainGlyph::kBushes:
      return AddBushes(cr, c, s, seed);
    case TerrainGlyph::kOrchard:
      return AddOrchard(cr, c, s);
    case TerrainGlyph::kMarsh:
      return AddMarsh(cr, c, s, seed);
    case TerrainGlyph::kRocks:
      return AddRocks(cr, c, s, seed);
    case TerrainGlyph::kTown:
      return AddTown(cr, c, s);
    case TerrainGlyph::kHamlet:
      return AddHamlet(cr, c, s);
    case TerrainGlyph::kDunes:
      return AddDunes(cr, c, s);
    case TerrainGlyph::kPalms:
      return AddPalms(cr, c, s, seed);
    case TerrainGlyph::kFort:
      return AddFort(cr, c, s);
  }
}

void PaintGlyphPath(cairo_t* cr, TerrainGlyph glyph, double s, const Rgb* fill) {
  struct Paint {
    bool fill;
    Rgb fill_colour;
    bool stroke;
    Rgb stroke_colour;
    double stroke_width;  // in hex sizes
  };
  Paint p{false, {}, false, {}, 0};
  switch (glyph) {
    case TerrainGlyph::kNone:
      cairo_new_path(cr);
      return;
    case TerrainGlyph::kTrees:
      p = {true, {0x2a, 0x5e, 0x2c}, true, {0x16, 0x3a, 0x18}, 0.035};
      break;
    case TerrainGlyph::kBushes:
      p = {true, {0x5b, 0x73, 0x2e}, false, {}, 0};
      break;
    case TerrainGlyph::kOrchard:
      p = {true, {0x4c, 0x7a, 0x1c}, false, {}, 0};
      break;
    case TerrainGlyph::kMarsh:
      p = {false, {}, true, {0x24, 0x5e, 0x78}, 0.045};
      break;
    case TerrainGlyph::kRocks:
      p = {true, {0x8a, 0x76, 0x52}, true, {0x55, 0x45, 0x2c}, 0.035};
      break;
    case TerrainGlyph::kTown:
      p = {true, {0x6a, 0x26, 0x1d}, true, {0x3a, 0x12, 0x0e}, 0.03};
      break;
    case TerrainGlyph::kHamlet:
      p = {true, {0x7a, 0x3b, 0x22}, true, {0x45, 0x1e, 0x10}, 0.03};
      break;
    case TerrainGlyph::kDunes:
      p = {false, {}, true, {0xa0, 0x7a, 0x26}, 0.06};
      break;
    case TerrainGlyph::kPalms:
      p = {false, {}, true, {0x1c, 0x55, 0x34}, 0.05};
      break;
    case TerrainGlyph::kFort:
      p = {true, {0x9a, 0x9a, 0xa8}, true, {0x24, 0x24, 0x2c}, 0.07};
      break;
  }
  if (fill != nullptr) p.fill_colour = *fill;
  if (p.fill) {
    SetRgb(cr, p.fill_colour);
    if (p.stroke) {
      cairo_fill_preserve(cr);
    } else {
      cairo_fill(cr);
    }
  }
  if (p.stroke) {
    SetRgb(cr, p.stroke_colour);
    cairo_set_line_width(cr, p.stroke_width * s);
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
}

}  // namespace pbem::templates
