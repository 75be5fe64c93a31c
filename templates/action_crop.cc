#include "templates/action_crop.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>

#include "templates/turn_events.h"

namespace pbem::templates {

namespace {

// A box of doubles that grows to hold what is added; empty until the first.
struct Bounds {
  std::optional<Box> box;
  void Add(const Box& b) {
    if (!box) {
      box = b;
      return;
    }
    const double x0 = std::min(box->x, b.x);
    const double y0 = std::min(box->y, b.y);
    const double x1 = std::max(box->right(), b.right());
    const double y1 = std::max(box->bottom(), b.bottom());
    box = Box{x0, y0, x1 - x0, y1 - y0};
  }
};

// A hex and what is drawn around it (its counter, the labels beside arrows), as a box.
Box HexBox(const MapLayout& layout, engine::Hex hex) {
  const Point c = layout.Centre(hex);
  const double half_w = layout.hex_width() / 2 + layout.hex_size() * 0.6;
  const double half_h = layout.hex_size() * 1.6;
  return Box{c.x - half_w, c.y - half_h, 2 * half_w, 2 * half_h};
}

// [start, start + length) of at most `max` and at least min(`min`, limit - lo), placed around
// `centre` and inside [lo, hi).
std::pair<int, int> Span(double start, double length, double centre, int min, int max, int lo,
                         int hi) {
  const int room = hi - lo;
  int size = static_cast<int>(std::lround(length));
  size = std::clamp(size, std::min(min, room), std::min(max, room));
  int from = length > size ? static_cast<int>(std::lround(centre - size / 2.0))
                           : static_cast<int>(std::lround(start + length / 2 - size / 2.0));
  from = std::clamp(from, lo, hi - size);
  return {from, size};
}

}  // namespace

PixelBox ActionBox(const MapImage& image, const engine::Scenario& scenario,
                   const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                   const CropOptions& options) {
  const MapLayout& layout = image.layout();
  const TurnDrawing turn = CollectTurnDrawing(turn_events, scenario);
  Bounds all;
  Bounds fighting;
  const auto add = [&](engine::Hex hex, bool fight) {
    if (!scenario.map.Contains(hex)) return;
    const Box b = HexBox(layout, hex);
    all.Add(b);
    if (fight) fighting.Add(b);
  };
  for (const MovePath& m : turn.moves) {
    for (engine::Hex h : m.hexes) add(h, false);
  }
  for (const StopMark& s : turn.stops) add(s.hex, false);
  for (const ChargeMark& c : turn.charges) {
    add(c.from, true);
    add(c.target, true);
  }
  for (const FireMark& f : turn.fire) {
    add(f.from, true);
    add(f.at, true);
  }
  for (const CombatMark& c : turn.combats) {
    add(c.from, true);
    add(c.at, true);
  }
  for (const ForcedMove& f : turn.forced) {
    add(f.from, true);
    add(f.to, true);
  }
  for (const Ghost& g : turn.ghosts) add(g.hex, true);
  for (const LossMark& l : turn.losses) {
    const engine::UnitState& u = state.unit(l.unit);
    if (u.on_map()) add(*u.hex, true);
  }
  // Nothing happened: where the side to move stands, centred on its middle unit (the
  // median of the counters' centres: on a counter, never in the gap between two wings).
  std::optional<Point> middle;
  if (!all.box) {
    std::vector<double> xs;
    std::vector<double> ys;
    for (std::size_t i = 0; i < state.units.size(); ++i) {
      const engine::UnitState& u = state.units[i];
      if (!u.on_map() || !scenario.map.Contains(*u.hex) ||
          scenario.units[i].side != state.side_to_move) {
        continue;
      }
      add(*u.hex, false);
      xs.push_back(layout.Centre(*u.hex).x);
      ys.push_back(layout.Centre(*u.hex).y);
    }
    if (!xs.empty()) {
      std::sort(xs.begin(), xs.end());
      std::sort(ys.begin(), ys.end());
      middle = Point{xs[xs.size() / 2], ys[ys.size() / 2]};
    }
  }
  const Box chosen = all.box ? *all.box : layout.grid_box();
  const Point focus = fighting.box ? fighting.box->centre() : middle ? *middle : chosen.centre();
  const auto [x, w] = Span(chosen.x, chosen.w, focus.x, options.min_width, options.max_width, 0,
                           layout.image_width());
  const auto [y, h] = Span(chosen.y, chosen.h, focus.y, options.min_height, options.max_height,
                           layout.map_band_top(), layout.map_band_bottom());
  return PixelBox{x, y, w, h};
}

Status CropPng(const MapImage& image, PixelBox box, const PngOptions& options,
               std::vector<std::uint8_t>* png) {
  const int x0 = std::clamp(box.x, 0, image.width());
  const int y0 = std::clamp(box.y, 0, image.height());
  const int x1 = std::clamp(box.x + box.w, x0, image.width());
  const int y1 = std::clamp(box.y + box.h, y0, image.height());
  if (x1 == x0 || y1 == y0) return Status::Error("crop: the box holds no pixel of the map");
  cairo_surface_t* source = image.surface();
  cairo_surface_flush(source);
  std::unique_ptr<cairo_surface_t, void (*)(cairo_surface_t*)> crop(
      cairo_image_surface_create(CAIRO_FORMAT_RGB24, x1 - x0, y1 - y0), cairo_surface_destroy);
  if (cairo_surface_status(crop.get()) != CAIRO_STATUS_SUCCESS) {
    return Status::Error(std::string("crop: ") +
                         cairo_status_to_string(cairo_surface_status(crop.get())));
  }
  // Whole rows copied as they are: the crop's pixels are the map's, byte for byte.
  const unsigned char* from = cairo_image_surface_get_data(source);
  const int from_stride = cairo_image_surface_get_stride(source);
  unsigned char* to = cairo_image_surface_get_data(crop.get());
  const int to_stride = cairo_image_surface_get_stride(crop.get());
  for (int y = y0; y < y1; ++y) {
    std::memcpy(to + static_cast<std::ptrdiff_t>(y - y0) * to_stride,
                from + static_cast<std::ptrdiff_t>(y) * from_stride + std::ptrdiff_t{x0} * 4,
                static_cast<std::size_t>(x1 - x0) * 4);
  }
  cairo_surface_mark_dirty(crop.get());
  return EncodePng(crop.get(), options, png);
}

}  // namespace pbem::templates
