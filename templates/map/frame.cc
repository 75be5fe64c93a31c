// The map's frame (templates/map/painter.h): its words and sizes, the paper, the title band
// and the column and row numbers around the grid.
#include <algorithm>

#include "engine/morne_plaine/victory.h"
#include "templates/map/painter.h"

namespace pbem::templates::map_detail {

std::string Capitalised(std::string_view text) {
  std::string out(text);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 32);
  return out;
}

std::string Humanised(std::string_view name) {
  std::string out(name);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

// A word of the map in the player's language: `words` (RenderOptions::words) at `key`, else
// the English given; "{name}" in it is replaced by the values given.
std::string MapWord(const MapWords* words, std::string_view key, std::string english,
                    std::initializer_list<std::pair<std::string_view, std::string>> values) {
  std::string text = std::move(english);
  if (words != nullptr) {
    if (const auto it = words->find(key); it != words->end()) text = it->second;
  }
  for (const auto& [name, value] : values) {
    const std::string tag = "{" + std::string(name) + "}";
    for (std::size_t at = text.find(tag); at != std::string::npos;
         at = text.find(tag, at + value.size())) {
      text.replace(at, tag.size(), value);
    }
  }
  return text;
}

std::string TwoDigits(int n) {
  std::string s = std::to_string(n);
  if (s.size() < 2) s.insert(0, 2 - s.size(), '0');
  return s;
}

std::string_view VictoryLevelWords(engine::VictoryLevel level) {
  switch (level) {
    case engine::VictoryLevel::kDraw:
      return "draw";
    case engine::VictoryLevel::kMinor:
      return "minor victory";
    case engine::VictoryLevel::kTactical:
      return "tactical victory";
    case engine::VictoryLevel::kMajor:
      return "major victory";
    case engine::VictoryLevel::kTotal:
      return "total victory";
  }
  return "";
}

double AutoHexSize(const engine::Scenario& scenario, const RenderOptions& options) {
  if (options.hex_size > 0) return std::clamp(options.hex_size, 4.0, kMaxHexSize);
  const double columns = scenario.map.width() + (scenario.map.height() > 1 ? 0.5 : 0.0);
  // About 60 pixels go to the margins and padding; keep the result on a half-pixel step.
  const double fit = (options.max_image_width - 60) / (kSqrt3 * columns);
  const double size = std::floor(std::min(kDefaultHexSize, fit) * 2) / 2;
  return std::max(kMinHexSize, size);
}

LayoutParams MakeLayoutParams(const engine::Scenario& scenario, const RenderOptions& options,
                              std::size_t legend_items) {
  LayoutParams params;
  params.hex_size = AutoHexSize(scenario, options);
  params.title_height = options.title ? kTitleHeight : 0;
  params.legend_items = options.legend ? static_cast<int>(legend_items) : 0;
  params.legend_item_width = kLegendItemWidth;
  params.legend_row_height = kLegendRowHeight;
  return params;
}

Painter::Painter(cairo_t* cr, const MapLayout& layout, const engine::Ruleset& ruleset,
                 const engine::Scenario& scenario, const engine::GameState& state,
                 const RenderOptions& options, const CorpsIndex& corps, const TurnDrawing& turn)
    : cr_(cr),
      layout_(layout),
      ruleset_(ruleset),
      scenario_(scenario),
      map_(scenario.map),
      state_(state),
      options_(options),
      corps_(corps),
      turn_(turn),
      s_(layout.hex_size()) {
  hexes_ = map_.AllHexes();
}

void Painter::Background() {
  SetRgb(cr_, kPaperColour);
  cairo_paint(cr_);
}

// The paper above and below the map band (the band itself comes from a cached layer).
void Painter::BackgroundOutsideMapBand() {
  const int top = layout_.map_band_top();
  const int bottom = layout_.map_band_bottom();
  cairo_rectangle(cr_, 0, 0, layout_.image_width(), top);
  cairo_rectangle(cr_, 0, bottom, layout_.image_width(), layout_.image_height() - bottom);
  SetRgb(cr_, kPaperColour);
  cairo_fill(cr_);
}

void Painter::Title() {
  const Box& box = layout_.title_box();
  if (box.h <= 0) return;
  std::string left = options_.title_text;
  if (left.empty()) left = !scenario_.title.empty() ? scenario_.title : scenario_.name;
  if (!options_.game_id.empty()) left = options_.game_id + " \xc2\xb7 " + left;
  std::string right;
  // The player-turn the events show: given, or read from the log's end-of-turn event.
  const std::optional<int> played_turn =
      options_.turn_played ? options_.turn_played : turn_.turn_played;
  const std::optional<Side> played_side =
      options_.side_played ? options_.side_played : turn_.side_played;
  const MapWords* w = options_.words;
  const auto side_word = [&](Side side) {
    return Capitalised(MapWord(w, "side." + std::string(engine::SideName(side)),
                               std::string(engine::SideName(side))));
  };
  const auto turn_of = [&](int turn) {
    return MapWord(w, "map.turn", "Turn {turn} of {turns}",
                   {{"turn", std::to_string(turn)}, {"turns", std::to_string(scenario_.turns)}});
  };
  if (played_turn && played_side) {
    right = turn_of(*played_turn) + " \xc2\xb7 " +
            MapWord(w, "map.played", "{side} played", {{"side", side_word(*played_side)}}) +
            " \xc2\xb7 ";
  }
  if (state_.finished) {
    const engine::GameOutcome& o = state_.outcome;
    right += MapWord(w, "map.game_over", "Game over") + " \xc2\xb7 ";
    right +=
        o.winner
            ? MapWord(
                  w, "map.wins", "{side} wins, {level}",
                  {{"side", side_word(*o.winner)},
                   {"level", MapWord(w, "level." + std::string(engine::VictoryLevelName(o.level)),
                                     std::string(VictoryLevelWords(o.level)))}})
            : MapWord(w, "level.draw", "draw");
    right += " \xc2\xb7 " + MapWord(w, "map.vp", "VP") + " " + std::to_string(o.vp_blue) +
             "\xe2\x80\x93" + std::to_string(o.vp_orange);
  } else if (played_turn && played_side) {
    right +=
        MapWord(w, "map.to_move", "{side} to move", {{"side", side_word(state_.side_to_move)}});
  } else {
    right = turn_of(state_.turn) + " \xc2\xb7 " +
            MapWord(w, "map.to_move", "{side} to move", {{"side", side_word(state_.side_to_move)}});
  }
  TextBatch big(fonts_, true, 19);
  TextBatch small(fonts_, false, 14);
  const double base = box.y + box.h * 0.5 + 6;
  const double right_w = small.Width(right);
  big.Add(FitText(big, left, box.w - right_w - 24), {box.x + 4, base}, Align::kLeft);
  small.Add(right, {box.right() - 4, base}, Align::kRight);
  big.Flush(cr_, kInkColour);
  small.Flush(cr_, kInkColour);
  // The side to move gets its colour as a bar under the title.
  const Rgb bar = state_.finished ? Rgb{0x88, 0x88, 0x88} : SideColour(state_.side_to_move);
  SetRgb(cr_, bar);
  cairo_rectangle(cr_, box.x, box.bottom() - 4, box.w, 3);
  cairo_fill(cr_);
}

// Column and row numbers around the map.
void Painter::EdgeLabels() {
  TextBatch edge(fonts_, false, layout_.edge_label_size());
  for (int col = 0; col < map_.width(); ++col) {
    for (bool top : {true, false}) {
      edge.AddMiddle(TwoDigits(col + 1), layout_.ColumnLabelAnchor(col, top), Align::kCentre);
    }
  }
  for (int row = 0; row < map_.height(); ++row) {
    for (bool left : {true, false}) {
      edge.AddMiddle(TwoDigits(row + 1), layout_.RowLabelAnchor(row, left), Align::kCentre);
    }
  }
  edge.Flush(cr_, {0x55, 0x55, 0x55});
}

}  // namespace pbem::templates::map_detail
