#include "templates/archive.h"

#include <cstdio>
#include <fstream>
#include <kainjow/mustache.hpp>
#include <sstream>
#include <system_error>

#include "engine/morne_plaine/victory.h"
#include "templates/map_renderer.h"
#include "templates/png_writer.h"

namespace pbem::templates {

namespace mst = kainjow::mustache;

namespace {

std::string Numbered(const char* prefix, int sequence, const char* suffix) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%03d%s", prefix, sequence, suffix);
  return buf;
}

Status ReadTemplate(const std::filesystem::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path.string() + ": cannot be read (missing?)");
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  mst::mustache check(*out);
  if (!check.is_valid()) return Status::Error(path.string() + ": " + check.error_message());
  return Status::Ok();
}

Status RenderPage(const std::string& tmpl_text, const mst::data& data, const std::string& what,
                  std::string* out) {
  mst::mustache tmpl(tmpl_text);
  *out = tmpl.render(data);
  if (!tmpl.is_valid()) return Status::Error(what + ": " + tmpl.error_message());
  return Status::Ok();
}

Status WriteText(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status::Error(path.string() + ": cannot be written");
  return Status::Ok();
}

// Draws one map and writes it; returns its size for the <img> attributes.
Status WriteMap(const ArchiveInput& in, const engine::GameState& state,
                const std::vector<engine::Event>* events, const std::string& title,
                const std::filesystem::path& path, int* width, int* height) {
  RenderOptions options;
  options.title_text = title;
  MapImage image;
  if (Status s = RenderMap(*in.ruleset, *in.scenario, state, events, options, &image); !s.ok) {
    return Status::Error(path.string() + ": " + s.message);
  }
  std::vector<std::uint8_t> png;
  if (Status s = EncodePng(image.surface(), PngOptions{}, &png); !s.ok) {
    return Status::Error(path.string() + ": " + s.message);
  }
  *width = image.width();
  *height = image.height();
  return WriteFile(path, png);
}

}  // namespace

std::string ArchiveTurnPage(int sequence) { return Numbered("turn-", sequence, ".html"); }
std::string ArchiveMapFile(int sequence) { return Numbered("map-", sequence, ".png"); }

std::filesystem::path DefaultArchiveTemplateDir(const std::filesystem::path& data_dir) {
  return data_dir / "templates" / "archive";
}

Status WriteArchive(const MailTemplates& mail, Language language,
                    const std::filesystem::path& template_dir, const ArchiveInput& in,
                    const std::filesystem::path& out_dir) {
  if (in.ruleset == nullptr || in.scenario == nullptr) {
    return Status::Error("archive: ruleset and scenario are required");
  }
  const std::filesystem::path lang_dir = template_dir / LanguageCode(language);
  std::string index_tmpl;
  std::string turn_tmpl;
  if (Status s = ReadTemplate(lang_dir / "index.html", &index_tmpl); !s.ok) return s;
  if (Status s = ReadTemplate(lang_dir / "turn.html", &turn_tmpl); !s.ok) return s;
  std::string style;
  if (Status s = ReadTemplate(template_dir / "style.css", &style); !s.ok) return s;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return Status::Error(out_dir.string() + ": cannot be created: " + ec.message());
  if (Status s = WriteText(out_dir / "style.css", style); !s.ok) return s;

  const auto side = [&](engine::Side s) {
    return mail.Word(language, "side", engine::SideName(s));
  };
  const int count = static_cast<int>(in.turns.size());
  const std::string title = in.scenario->title.empty() ? in.scenario->name : in.scenario->title;

  mst::data turn_list{mst::data::type::list};
  for (int k = 1; k <= count; ++k) {
    const ArchiveTurn& t = in.turns[static_cast<std::size_t>(k - 1)];
    const std::string caption = title + " - " + std::to_string(t.turn) + " " + side(t.side);
    int width = 0;
    int height = 0;
    if (Status s = WriteMap(in, t.result.next_state, &t.result.events, caption,
                            out_dir / ArchiveMapFile(k), &width, &height);
        !s.ok) {
      return s;
    }
    ResultsInput report_in;
    report_in.scenario = in.scenario;
    report_in.result = &t.result;
    report_in.game_id = in.game_id;
    report_in.turn = t.turn;
    report_in.side = std::string(engine::SideName(t.side));
    report_in.revealed_seed = t.revealed_seed;
    if (k < count) report_in.next_commitment = in.turns[static_cast<std::size_t>(k)].commitment;
    std::string report;
    if (Status s = mail.RenderReportFragment(language, report_in, &report); !s.ok) return s;

    mst::data d;
    d.set("game", in.game_id);
    d.set("title", title);
    d.set("sequence", std::to_string(k));
    d.set("count", std::to_string(count));
    d.set("turn", std::to_string(t.turn));
    d.set("side", side(t.side));
    d.set("map", ArchiveMapFile(k));
    d.set("map_width", std::to_string(width));
    d.set("map_height", std::to_string(height));
    d.set("report", report);
    d.set("has_previous", k > 1);
    d.set("previous", k > 1 ? ArchiveTurnPage(k - 1) : std::string("index.html"));
    d.set("has_next", k < count);
    d.set("next", k < count ? ArchiveTurnPage(k + 1) : std::string());
    d.set("commitment", t.commitment);
    d.set("has_commitment", !t.commitment.empty());
    std::string page;
    if (Status s = RenderPage(turn_tmpl, d, "turn.html", &page); !s.ok) return s;
    if (Status s = WriteText(out_dir / ArchiveTurnPage(k), page); !s.ok) return s;

    mst::data item;
    item.set("sequence", std::to_string(k));
    item.set("turn", std::to_string(t.turn));
    item.set("side", side(t.side));
    item.set("page", ArchiveTurnPage(k));
    turn_list.push_back(item);
  }

  int width = 0;
  int height = 0;
  if (Status s = WriteMap(in, in.initial_state, nullptr, title, out_dir / ArchiveMapFile(0), &width,
                          &height);
      !s.ok) {
    return s;
  }
  const engine::GameState& last = count > 0 ? in.turns.back().result.next_state : in.initial_state;
  mst::data d;
  d.set("game", in.game_id);
  d.set("title", title);
  d.set("count", std::to_string(count));
  d.set("turns", turn_list);
  d.set("has_turns", count > 0);
  d.set("first", ArchiveTurnPage(1));
  d.set("map", ArchiveMapFile(0));
  d.set("map_width", std::to_string(width));
  d.set("map_height", std::to_string(height));
  d.set("finished", last.finished);
  // Ended by the service (the engine did not finish it): how, as values worded by the template.
  const bool ended = in.ending.has_value() && !last.finished;
  d.set("ended", ended);
  if (ended) {
    const ArchiveEnding& e = *in.ending;
    const std::optional<engine::Side> winner = engine::ParseSide(e.winner);
    engine::VictoryLevel level = engine::VictoryLevel::kTotal;
    for (auto l : {engine::VictoryLevel::kMinor, engine::VictoryLevel::kTactical,
                   engine::VictoryLevel::kMajor}) {
      if (engine::VictoryLevelName(l) == e.level) level = l;
    }
    d.set("end_has_winner", winner.has_value());
    d.set("end_winner", winner ? side(*winner) : std::string());
    d.set("end_loser", winner ? side(engine::Opponent(*winner)) : std::string());
    d.set("end_victory", e.kind == "victory" && winner.has_value());
    d.set("end_resigned", e.kind == "resigned");
    d.set("end_forfeit", e.kind == "forfeit");
    d.set("end_level", mail.Word(language, "level", engine::VictoryLevelName(level)));
    d.set("end_by_organiser", e.by_organiser);
  }
  d.set("draw", !last.outcome.winner.has_value());
  d.set("winner", last.outcome.winner ? side(*last.outcome.winner) : std::string());
  d.set("level", mail.Word(language, "level", engine::VictoryLevelName(last.outcome.level)));
  d.set("vp_blue", std::to_string(last.outcome.vp_blue));
  d.set("vp_orange", std::to_string(last.outcome.vp_orange));
  d.set("next_turn", std::to_string(last.turn));
  d.set("next_side", side(last.side_to_move));
  std::string page;
  if (Status s = RenderPage(index_tmpl, d, "index.html", &page); !s.ok) return s;
  return WriteText(out_dir / "index.html", page);
}

}  // namespace pbem::templates
