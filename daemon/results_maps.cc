#include "daemon/results_maps.h"

#include <kainjow/mustache.hpp>
#include <utility>

#include "templates/map_renderer.h"

namespace pbem::daemon {

namespace {

storage::Bytes AsBytes(const std::vector<std::uint8_t>& png) {
  return storage::Bytes(png.begin(), png.end());
}

}  // namespace

std::string MapFileName(std::string_view game_id, int turn, engine::Side side) {
  return std::string(game_id) + "-turn-" + std::to_string(turn) + "-" +
         std::string(engine::SideName(side)) + ".png";
}

ResultsMaps::ResultsMaps(const ScenarioData& data, const engine::GameState& next,
                         const std::vector<engine::Event>& events, std::string game_id, int turn,
                         engine::Side side, const templates::MailTemplates& templates)
    : data_(data),
      next_(next),
      events_(events),
      game_id_(std::move(game_id)),
      turn_(turn),
      side_(side),
      templates_(templates) {}

Result<const ResultsMapFiles*> ResultsMaps::For(templates::Language language) {
  if (const auto it = drawn_.find(language); it != drawn_.end()) return &it->second;
  const std::string what = "the map of turn " + std::to_string(turn_) + " " +
                           std::string(engine::SideName(side_)) + " of game " + game_id_ + " (" +
                           std::string(templates::LanguageCode(language)) + ")";
  templates::RenderOptions render;
  render.game_id = game_id_;
  render.turn_played = turn_;
  render.side_played = side_;
  render.words = &templates_.WordTable(language);
  templates::MapImage image;
  if (templates::Status drawn =
          templates::RenderMap(data_.ruleset, data_.scenario, next_, &events_, render, &image);
      !drawn.ok) {
    return Status::Internal(what + ": drawing: " + drawn.message);
  }
  ++renders_;
  std::vector<std::uint8_t> whole;
  if (templates::Status encoded = templates::EncodePng(image.surface(), {}, &whole); !encoded.ok) {
    return Status::Internal(what + ": encoding: " + encoded.message);
  }
  const templates::PixelBox box = templates::ActionBox(image, data_.scenario, next_, &events_);
  std::vector<std::uint8_t> action;
  if (templates::Status cropped = templates::CropPng(image, box, {}, &action); !cropped.ok) {
    return Status::Internal(what + ": cropping: " + cropped.message);
  }
  const std::string name = MapFileName(game_id_, turn_, side_);
  ResultsMapFiles files;
  files.whole = storage::Attachment{name, "image/png", AsBytes(whole)};
  files.action = storage::Attachment{name.substr(0, name.size() - 4) + "-action.png", "image/png",
                                     AsBytes(action)};
  files.action_box = box;
  return &drawn_.emplace(language, std::move(files)).first->second;
}

std::string WithActionMap(std::string html, const ResultsMapFiles& maps, std::string_view alt) {
  const std::string w = std::to_string(maps.action_box.w);
  const std::string h = std::to_string(maps.action_box.h);
  const std::string img =
      "\n<p style=\"margin: 0 0 1em 0\"><img src=\"cid:" + maps.action.filename + "\" width=\"" +
      w + "\" height=\"" + h + "\" alt=\"" + kainjow::mustache::html_escape(std::string(alt)) +
      "\" style=\"display: block; width: " + w + "px; height: " + h + "px; max-width: none\"></p>";
  const std::size_t body = html.find("<body");
  const std::size_t open_end = body == std::string::npos ? body : html.find('>', body);
  if (open_end == std::string::npos) return img + "\n" + html;
  html.insert(open_end + 1, img);
  return html;
}

}  // namespace pbem::daemon
