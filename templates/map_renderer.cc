// The entry points of templates/map_renderer.h: the layout, RenderMap (the image, its bands
// and threads, the static layer copied from or into the cache) and the PNG. The drawing
// itself is the Painter's, in templates/map/ (painter.h tells which file holds what).
#include "templates/map_renderer.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "templates/map/caches.h"
#include "templates/map/painter.h"
#include "templates/turn_events.h"

namespace pbem::templates {

using map_detail::BuildLegend;
using map_detail::CopyLayerRows;
using map_detail::CorpsIndex;
using map_detail::IndexCorps;
using map_detail::kMaxImageSide;
using map_detail::LayerCache;
using map_detail::LegendEntry;
using map_detail::MakeLayoutParams;
using map_detail::Painter;
using map_detail::Stamps;
using map_detail::StaticLayer;
using map_detail::StaticLayerKey;

void ClearStaticLayerCache() {
  LayerCache().Clear();
  Stamps().Clear();
}

namespace {

// How many bands (threads) draw an image: options.threads when given (at most one band per
// 64 rows), else two for an image of a million pixels or more on a machine with two cores or
// more, one otherwise. The bands give the same pixels whatever their number.
int BandCount(const RenderOptions& options, int width, int height) {
  int n = options.threads;
  if (n <= 0) {
    const bool large = static_cast<long long>(width) * height >= 1'000'000;
    n = large && std::thread::hardware_concurrency() >= 2 ? 2 : 1;
  }
  return std::clamp(n, 1, std::max(1, height / 64));
}

// Pixel memory for the image. A map image is several megabytes that are all written at
// once; asking for transparent huge pages turns thousands of page faults into a few (on
// Linux; elsewhere, or if the hint is refused, this is a plain aligned allocation).
std::unique_ptr<unsigned char, void (*)(void*)> AllocatePixels(std::size_t bytes) {
  constexpr std::size_t kHugePage = std::size_t{2} << 20;
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  void* p = std::aligned_alloc(kHugePage, rounded);
#ifdef MADV_HUGEPAGE
  if (p != nullptr) madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return {static_cast<unsigned char*>(p), &std::free};
}

}  // namespace

Rgb MapImage::PixelAt(int x, int y) const {
  cairo_surface_flush(surface_.get());
  const unsigned char* data = cairo_image_surface_get_data(surface_.get());
  const int stride = cairo_image_surface_get_stride(surface_.get());
  std::uint32_t v;
  std::memcpy(&v, data + static_cast<std::ptrdiff_t>(y) * stride + 4 * x, sizeof v);
  return Rgb{static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 8),
             static_cast<std::uint8_t>(v)};
}

MapLayout ComputeMapLayout(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const std::vector<engine::Event>* turn_events,
                           const RenderOptions& options) {
  const TurnDrawing turn =
      options.draw_events ? CollectTurnDrawing(turn_events, scenario) : TurnDrawing{};
  const CorpsIndex corps = IndexCorps(scenario);
  const std::vector<LegendEntry> legend =
      BuildLegend(ruleset, scenario, corps, turn, options.words);
  return MapLayout(scenario.map.width(), scenario.map.height(),
                   MakeLayoutParams(scenario, options, legend.size()));
}

Status RenderMap(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                 const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                 const RenderOptions& options, MapImage* out) {
  *out = MapImage{};
  if (scenario.map.width() < 1 || scenario.map.height() < 1) {
    return Status::Error("render: the scenario has no map");
  }
  if (state.units.size() != scenario.units.size()) {
    return Status::Error("render: the state has " + std::to_string(state.units.size()) +
                         " units, the scenario " + std::to_string(scenario.units.size()));
  }
  const TurnDrawing turn =
      options.draw_events ? CollectTurnDrawing(turn_events, scenario) : TurnDrawing{};
  const CorpsIndex corps = IndexCorps(scenario);
  const std::vector<LegendEntry> legend =
      BuildLegend(ruleset, scenario, corps, turn, options.words);
  auto layout =
      std::make_shared<const MapLayout>(scenario.map.width(), scenario.map.height(),
                                        MakeLayoutParams(scenario, options, legend.size()));
  if (layout->image_width() > kMaxImageSide || layout->image_height() > kMaxImageSide) {
    return Status::Error("render: a " + std::to_string(layout->image_width()) + "x" +
                         std::to_string(layout->image_height()) +
                         " image is too large; use a smaller hex size");
  }

  const int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, layout->image_width());
  out->pixels_ = AllocatePixels(static_cast<std::size_t>(stride) * layout->image_height());
  cairo_surface_t* surface =
      out->pixels_ ? cairo_image_surface_create_for_data(out->pixels_.get(), CAIRO_FORMAT_RGB24,
                                                         layout->image_width(),
                                                         layout->image_height(), stride)
                   : cairo_image_surface_create(CAIRO_FORMAT_RGB24, layout->image_width(),
                                                layout->image_height());
  out->surface_.reset(surface);
  if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
    const std::string why = cairo_status_to_string(cairo_surface_status(surface));
    *out = MapImage{};
    return Status::Error("render: cannot create a " + std::to_string(layout->image_width()) + "x" +
                         std::to_string(layout->image_height()) + " image: " + why);
  }
  // Large images are drawn in horizontal bands, one thread each: every band draws the whole
  // map into its own cairo surface over its rows of the same pixels, translated by a whole
  // number of rows, which rasterises exactly as one pass would (tests compare the two).
  const int bands = BandCount(options, layout->image_width(), layout->image_height());
  unsigned char* pixels = cairo_image_surface_get_data(surface);
  const int stride_used = cairo_image_surface_get_stride(surface);
  std::vector<cairo_status_t> results(static_cast<std::size_t>(bands), CAIRO_STATUS_SUCCESS);
  // The static layer of the map band: copied from the cache, or drawn and (when reuse is
  // on) kept. Drawn in place or copied in, the band holds the same pixels.
  std::string layer_key;
  std::shared_ptr<const StaticLayer> cached_layer;
  std::shared_ptr<StaticLayer> new_layer;
  if (options.reuse_static_layer) {
    layer_key = StaticLayerKey(ruleset, scenario, state, *layout, options);
    cached_layer = LayerCache().Find(layer_key);
    if (!cached_layer) {
      new_layer = std::make_shared<StaticLayer>();
      new_layer->top = layout->map_band_top();
      new_layer->bottom = layout->map_band_bottom();
      new_layer->stride = stride_used;
      new_layer->pixels.reset(
          new unsigned char[static_cast<std::size_t>(new_layer->bottom - new_layer->top) *
                            static_cast<std::size_t>(stride_used)]);
    }
  }
  const auto draw_band = [&](int band) {
    const int y0 = layout->image_height() * band / bands;
    const int y1 = layout->image_height() * (band + 1) / bands;
    cairo_surface_t* target =
        bands == 1 ? cairo_surface_reference(surface)
                   : cairo_image_surface_create_for_data(
                         pixels + static_cast<std::ptrdiff_t>(y0) * stride_used, CAIRO_FORMAT_RGB24,
                         layout->image_width(), y1 - y0, stride_used);
    cairo_t* cr = cairo_create(target);
    cairo_translate(cr, 0, -y0);
    {
      Painter painter(cr, *layout, ruleset, scenario, state, options, corps, turn);
      if (band == 0) painter.TellLabelBoxes(&out->event_label_boxes_);
      if (cached_layer) {
        cairo_surface_flush(target);
        CopyLayerRows(*cached_layer, y0, y1, false, pixels);
        cairo_surface_mark_dirty(target);
        painter.BackgroundOutsideMapBand();
      } else {
        // The static steps leave no drawing state (line caps, joins) to the later ones, which
        // start from cairo's defaults whether the layer was drawn or copied.
        cairo_save(cr);
        painter.Background();
        painter.Terrain();
        painter.Hexsides();
        painter.Routes();
        painter.HexLabels(false);
        painter.EdgeLabels();
        cairo_restore(cr);
        if (new_layer) {
          cairo_surface_flush(target);
          CopyLayerRows(*new_layer, y0, y1, true, pixels);
        }
      }
      painter.Title();
      painter.Objectives();
      painter.HexLabels(true);
      painter.Ghosts();
      painter.MoveArrows(turn.moves);
      painter.ForcedMoves();
      painter.Counters();
      painter.CoveredMoveStarts(turn.moves);
      painter.EventMarks();
      painter.Legend(legend);
    }
    results[static_cast<std::size_t>(band)] = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(target);
    cairo_surface_destroy(target);
  };
  if (bands == 1) {
    draw_band(0);
  } else {
    std::vector<std::thread> threads;
    for (int band = 1; band < bands; ++band) threads.emplace_back(draw_band, band);
    draw_band(0);
    for (std::thread& t : threads) t.join();
  }
  cairo_surface_mark_dirty(surface);
  for (const cairo_status_t st : results) {
    if (st != CAIRO_STATUS_SUCCESS) {
      *out = MapImage{};
      return Status::Error(std::string("render: cairo: ") + cairo_status_to_string(st));
    }
  }
  if (new_layer) LayerCache().Insert(std::move(layer_key), std::move(new_layer));
  out->static_layer_reused_ = cached_layer != nullptr;
  out->layout_ = std::move(layout);
  out->events_drawn_ = turn.drawn;
  out->events_not_drawn_ = turn.not_drawn;
  if (options.legend) {
    for (const LegendEntry& e : legend) out->legend_labels_.push_back(e.label);
  }
  return Status::Ok();
}

Status RenderMapPng(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                    const engine::GameState& state, const std::vector<engine::Event>* turn_events,
                    const RenderOptions& options, const PngOptions& png_options,
                    std::vector<std::uint8_t>* png) {
  MapImage image;
  Status st = RenderMap(ruleset, scenario, state, turn_events, options, &image);
  if (!st.ok) return st;
  return EncodePng(image.surface(), png_options, png);
}

}  // namespace pbem::templates
