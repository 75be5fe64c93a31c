// Text for the map renderer. Hundreds of short labels (CCRR, counter values) are drawn per
// map; one cairo_show_text call each would dominate the drawing time. A TextBatch turns
// each label into positioned glyphs once and draws the labels of one font and colour with
// one cairo_show_glyphs call per cell of a coarse grid: cairo composites a glyph run through
// a mask as large as the run's bounding box, so a single run for labels spread over the
// whole map would clear and composite a map-sized mask (measured: most of the text cost).
#ifndef PBEM_TEMPLATES_TEXT_BATCH_H_
#define PBEM_TEMPLATES_TEXT_BATCH_H_

#include <cairo.h>

#include <string>
#include <string_view>
#include <vector>

#include "templates/map_layout.h"
#include "templates/map_style.h"

namespace pbem::templates {

// "DejaVu Sans" through cairo's toy API, grey-scale antialiasing and hinting fixed so the
// result does not depend on a fontconfig setting of the machine.
class FontSet {
 public:
  FontSet();
  ~FontSet();
  FontSet(const FontSet&) = delete;
  FontSet& operator=(const FontSet&) = delete;

  // A scaled font of `size` pixels. The caller owns the reference (cairo_scaled_font_destroy).
  cairo_scaled_font_t* Create(bool bold, double size) const;

 private:
  cairo_font_face_t* regular_;
  cairo_font_face_t* bold_;
  cairo_font_options_t* options_;
};

enum class Align { kLeft, kCentre, kRight };

class TextBatch {
 public:
  TextBatch(const FontSet& fonts, bool bold, double size);
  ~TextBatch();
  TextBatch(const TextBatch&) = delete;
  TextBatch& operator=(const TextBatch&) = delete;

  // Queues `utf8` with its baseline at anchor.y, aligned on anchor.x.
  void Add(std::string_view utf8, Point anchor, Align align);
  // Same, but anchor.y is the vertical middle of a digit (for numbers centred on a point).
  void AddMiddle(std::string_view utf8, Point anchor, Align align);
  // The advance width of `utf8`.
  double Width(std::string_view utf8) const;
  // Draws everything queued in one colour and forgets it: one glyph run per grid cell
  // (labels go to the cell of their anchor, in the order they were added).
  void Flush(cairo_t* cr, Rgb colour, double alpha = 1.0);
  bool empty() const { return glyphs_.empty(); }

 private:
  // Appends the glyphs of `utf8` starting at (x, y); returns the advance width.
  double Shape(std::string_view utf8, double x, double y, std::vector<cairo_glyph_t>* out) const;

  cairo_scaled_font_t* font_;
  double digit_middle_;  // baseline-to-middle distance of a digit
  // Glyph index and advance of '0'..'9': labels and values are digits, shaped without
  // going through cairo's UTF-8 conversion.
  unsigned long digit_index_[10] = {};
  double digit_advance_[10] = {};
  bool digits_ok_ = false;
  // Size of a grid cell for Flush, from the font size.
  double cell_w_;
  double cell_h_;
  std::vector<cairo_glyph_t> glyphs_;
  // The labels queued: their first glyph and the grid cell of their anchor.
  struct Label {
    std::size_t first;
    long long cell_y;
    long long cell_x;
  };
  std::vector<Label> labels_;
};

// `utf8` shortened at a code point boundary, with "…", so that it is at most `max_width` wide.
std::string FitText(const TextBatch& batch, std::string_view utf8, double max_width);

}  // namespace pbem::templates

#endif  // PBEM_TEMPLATES_TEXT_BATCH_H_
