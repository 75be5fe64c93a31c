// Internal to the map renderer (templates/map_renderer.h): what RenderMap keeps between
// renders, process-wide and shared by the band threads: the hex stamps (drawn by
// Painter::SharedStamp, templates/map/terrain.cc) and the static layers of the map band
// (RenderMap, templates/map_renderer.cc). ClearStaticLayerCache forgets both. Defined in
// templates/map/caches.cc.
#ifndef PBEM_TEMPLATES_MAP_CACHES_H_
#define PBEM_TEMPLATES_MAP_CACHES_H_

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "templates/map_renderer.h"

namespace pbem::templates::map_detail {

// ---- Cache keys and hex stamps shared between renders -----------------------------------

// Keys written out in full: everything a cached drawing depends on, as bytes.
void AppendBytes(std::string* key, const void* data, std::size_t n);
void AppendInt(std::string* key, long long v);
void AppendDouble(std::string* key, double v);
void AppendString(std::string* key, const std::string& v);

// A hex stamp's pixels (ARGB32), kept between renders and shared by the band threads: each
// painter wraps them in its own cairo surface (only read, never drawn into), so no cairo or
// pixman object crosses threads.
struct StampPixels {
  int width = 0;
  int height = 0;
  int stride = 0;
  std::vector<unsigned char> data;
};

// Stamps by key (hex geometry, colour, glyph and its variant, level, fort holder). A few
// dozen per map and hex size, about 8 KB each at the default size; cleared when it holds
// more than kMaxEntries.
class StampCache {
 public:
  static constexpr std::size_t kMaxEntries = 4096;

  std::shared_ptr<const StampPixels> Find(const std::string& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : it->second;
  }

  void Insert(const std::string& key, std::shared_ptr<const StampPixels> stamp) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() >= kMaxEntries) entries_.clear();
    entries_.emplace(key, std::move(stamp));
  }

  void Clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const StampPixels>> entries_;
};

StampCache& Stamps();

// ---- The static layer cache ---------------------------------------------------------------
//
// The map band of an image (layout.map_band_top() to map_band_bottom(): the grid and its
// edge labels) after the static steps of the drawing: paper, terrain (with the forts'
// holders), hexsides, roads and tracks, the CCRR labels outside objectives and the edge
// numbers. Every turn of a game draws the same layer, which costs most of the drawing, so
// RenderMap keeps the last few in memory and copies one in when everything it depends on is
// equal. The key is that everything, written out in full (not a hash: two different maps
// can never share a layer).

// A layer of the map band: RGB24 rows of the image's stride.
struct StaticLayer {
  int top = 0;
  int bottom = 0;
  int stride = 0;
  std::unique_ptr<unsigned char[]> pixels;
};

// Everything the static steps read: the layout of the band, the options they use, the
// terrain types (colour, glyph), the map (terrain, levels, hexsides, routes), the
// objectives' hexes (their labels are left out) and the forts' holders.
std::string StaticLayerKey(const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                           const engine::GameState& state, const MapLayout& layout,
                           const RenderOptions& options);

// The last kCapacity layers used, most recent first. A layer of the 60x40 benchmark map at
// the default size is about 13 MB.
class StaticLayerCache {
 public:
  static constexpr std::size_t kCapacity = 4;

  std::shared_ptr<const StaticLayer> Find(const std::string& key) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        std::rotate(entries_.begin(), it, it + 1);
        return entries_.front().second;
      }
    }
    return nullptr;
  }

  void Insert(std::string key, std::shared_ptr<const StaticLayer> layer) {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end(); ++it) {
      if (it->first == key) {
        entries_.erase(it);
        break;
      }
    }
    entries_.insert(entries_.begin(), {std::move(key), std::move(layer)});
    if (entries_.size() > kCapacity) entries_.resize(kCapacity);
  }

  void Clear() {
    const std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::string, std::shared_ptr<const StaticLayer>>> entries_;
};

StaticLayerCache& LayerCache();

// Copies rows [max(y0, top), min(y1, bottom)) between an image's pixels and a layer.
void CopyLayerRows(const StaticLayer& layer, int y0, int y1, bool to_layer,
                   unsigned char* image_pixels);

}  // namespace pbem::templates::map_detail

#endif  // PBEM_TEMPLATES_MAP_CACHES_H_
