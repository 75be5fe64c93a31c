#include "templates/text_batch.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace pbem::templates {

FontSet::FontSet()
    : regular_(cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                                          CAIRO_FONT_WEIGHT_NORMAL)),
      bold_(cairo_toy_font_face_create("DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
                                       CAIRO_FONT_WEIGHT_BOLD)),
      options_(cairo_font_options_create()) {
  cairo_font_options_set_antialias(options_, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_subpixel_order(options_, CAIRO_SUBPIXEL_ORDER_DEFAULT);
  cairo_font_options_set_hint_style(options_, CAIRO_HINT_STYLE_SLIGHT);
  cairo_font_options_set_hint_metrics(options_, CAIRO_HINT_METRICS_ON);
  // cairo resolves a toy face through fontconfig once, at the size of the first scaled font
  // made from it, and keeps that resolution for every later size; fontconfig's rules depend
  // on the size, so whatever text a process drew first would decide how all later text
  // looks (measured: the 60x40 map drawn first in a process differed in 164k pixels from
  // the same map drawn after another one). Resolving both faces at fixed sizes first (the
  // title's) makes every image the same whatever was drawn before it.
  cairo_scaled_font_destroy(Create(true, 19));
  cairo_scaled_font_destroy(Create(false, 14));
}

FontSet::~FontSet() {
  cairo_font_options_destroy(options_);
  cairo_font_face_destroy(bold_);
  cairo_font_face_destroy(regular_);
}

cairo_scaled_font_t* FontSet::Create(bool bold, double size) const {
  cairo_matrix_t font_matrix;
  cairo_matrix_init_scale(&font_matrix, size, size);
  cairo_matrix_t ctm;
  cairo_matrix_init_identity(&ctm);
  return cairo_scaled_font_create(bold ? bold_ : regular_, &font_matrix, &ctm, options_);
}

namespace {

// Flush's grid cell, in font sizes: about two lines of text high (rows of hex labels fall in
// separate cells), and wide enough that a cell holds many labels (one cairo call per cell).
constexpr double kCellWidthEms = 96;
constexpr double kCellHeightEms = 4;

}  // namespace

TextBatch::TextBatch(const FontSet& fonts, bool bold, double size)
    : font_(fonts.Create(bold, size)),
      digit_middle_(0),
      cell_w_(std::max(64.0, size * kCellWidthEms)),
      cell_h_(std::max(8.0, size * kCellHeightEms)) {
  cairo_text_extents_t ext;
  cairo_scaled_font_text_extents(font_, "0", &ext);
  digit_middle_ = -ext.y_bearing - ext.height / 2;
  cairo_glyph_t* glyphs = nullptr;
  int count = 0;
  if (cairo_scaled_font_text_to_glyphs(font_, 0, 0, "0123456789", 10, &glyphs, &count, nullptr,
                                       nullptr, nullptr) == CAIRO_STATUS_SUCCESS &&
      count == 10) {
    for (int d = 0; d < 10; ++d) {
      digit_index_[d] = glyphs[d].index;
      cairo_scaled_font_glyph_extents(font_, &glyphs[d], 1, &ext);
      digit_advance_[d] = ext.x_advance;
    }
    digits_ok_ = true;
  }
  cairo_glyph_free(glyphs);
}

TextBatch::~TextBatch() { cairo_scaled_font_destroy(font_); }

double TextBatch::Shape(std::string_view utf8, double x, double y,
                        std::vector<cairo_glyph_t>* out) const {
  const bool digits = digits_ok_ && std::all_of(utf8.begin(), utf8.end(),
                                                [](char c) { return c >= '0' && c <= '9'; });
  if (digits) {
    double pen = x;
    for (char c : utf8) {
      const int d = c - '0';
      out->push_back(cairo_glyph_t{digit_index_[d], pen, y});
      pen += digit_advance_[d];
    }
    return pen - x;
  }
  cairo_glyph_t* glyphs = nullptr;
  int count = 0;
  const cairo_status_t st =
      cairo_scaled_font_text_to_glyphs(font_, x, y, utf8.data(), static_cast<int>(utf8.size()),
                                       &glyphs, &count, nullptr, nullptr, nullptr);
  if (st != CAIRO_STATUS_SUCCESS) return 0;  // malformed UTF-8: nothing to draw
  cairo_text_extents_t ext;
  cairo_scaled_font_glyph_extents(font_, glyphs, count, &ext);
  out->insert(out->end(), glyphs, glyphs + count);
  cairo_glyph_free(glyphs);
  return ext.x_advance;
}

void TextBatch::Add(std::string_view utf8, Point anchor, Align align) {
  if (utf8.empty()) return;
  const std::size_t first = glyphs_.size();
  const double width = Shape(utf8, anchor.x, anchor.y, &glyphs_);
  if (glyphs_.size() == first) return;
  labels_.push_back({first, static_cast<long long>(std::floor(anchor.y / cell_h_)),
                     static_cast<long long>(std::floor(anchor.x / cell_w_))});
  if (align == Align::kLeft) return;
  const double dx = align == Align::kCentre ? -width / 2 : -width;
  for (std::size_t i = first; i < glyphs_.size(); ++i) glyphs_[i].x += dx;
}

void TextBatch::AddMiddle(std::string_view utf8, Point anchor, Align align) {
  Add(utf8, Point{anchor.x, anchor.y + digit_middle_}, align);
}

double TextBatch::Width(std::string_view utf8) const {
  std::vector<cairo_glyph_t> scratch;
  return Shape(utf8, 0, 0, &scratch);
}

void TextBatch::Flush(cairo_t* cr, Rgb colour, double alpha) {
  if (glyphs_.empty()) return;
  cairo_set_scaled_font(cr, font_);
  cairo_set_source_rgba(cr, colour.r / 255.0, colour.g / 255.0, colour.b / 255.0, alpha);
  // Labels grouped by cell, in the order they were added within a cell.
  std::vector<std::size_t> order(labels_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Label& la = labels_[a];
    const Label& lb = labels_[b];
    return la.cell_y != lb.cell_y ? la.cell_y < lb.cell_y : la.cell_x < lb.cell_x;
  });
  std::vector<cairo_glyph_t> run;
  run.reserve(glyphs_.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::size_t k = order[i];
    const std::size_t end = k + 1 < labels_.size() ? labels_[k + 1].first : glyphs_.size();
    run.insert(run.end(), glyphs_.begin() + static_cast<std::ptrdiff_t>(labels_[k].first),
               glyphs_.begin() + static_cast<std::ptrdiff_t>(end));
    const bool last_of_cell = i + 1 == order.size() ||
                              labels_[order[i + 1]].cell_y != labels_[k].cell_y ||
                              labels_[order[i + 1]].cell_x != labels_[k].cell_x;
    if (last_of_cell) {
      cairo_show_glyphs(cr, run.data(), static_cast<int>(run.size()));
      run.clear();
    }
  }
  glyphs_.clear();
  labels_.clear();
}

std::string FitText(const TextBatch& batch, std::string_view utf8, double max_width) {
  if (batch.Width(utf8) <= max_width) return std::string(utf8);
  static constexpr std::string_view kEllipsis = "\xe2\x80\xa6";
  std::string_view prefix = utf8;
  while (!prefix.empty()) {
    // Drop one code point: continuation bytes look like 10xxxxxx.
    std::size_t cut = prefix.size() - 1;
    while (cut > 0 && (static_cast<unsigned char>(prefix[cut]) & 0xC0) == 0x80) --cut;
    prefix = prefix.substr(0, cut);
    std::string candidate(prefix);
    while (!candidate.empty() && candidate.back() == ' ') candidate.pop_back();
    candidate += kEllipsis;
    if (batch.Width(candidate) <= max_width) return candidate;
  }
  return std::string(kEllipsis);
}

}  // namespace pbem::templates
