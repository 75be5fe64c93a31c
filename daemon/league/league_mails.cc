#include "daemon/league/league_mails.h"

#include <fstream>
#include <kainjow/mustache.hpp>
#include <sstream>

#include "daemon/league/league_template.h"
#include "daemon/validate.h"
#include "templates/mail_render.h"

namespace pbem::league {
namespace mst = kainjow::mustache;

Result<std::string> ReadLeagueTemplate(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("league template " + path.string() + " is missing");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

namespace {

bool KnownLanguage(const std::string& language) { return language == "en" || language == "fr"; }

}  // namespace

Result<std::string> RenderTemplate(const std::filesystem::path& path, const mst::data& data,
                                   bool html) {
  Result<std::string> text = ReadLeagueTemplate(path);
  if (!text.ok()) return text.status();
  mst::mustache tmpl(*text);
  if (!tmpl.is_valid()) {
    return Status::InvalidArgument("league template " + path.string() + ": " +
                                   tmpl.error_message());
  }
  if (!html) tmpl.set_custom_escape([](const std::string& s) { return s; });
  return tmpl.render(data);
}

Result<LeagueMail> RenderLeagueMail(const std::filesystem::path& template_dir,
                                    const std::string& language, const std::string& name,
                                    const mst::data& data) {
  if (!KnownLanguage(language)) {
    return Status::InvalidArgument("no league templates for language '" + language + "'");
  }
  LeagueMail out;
  Result<std::string> subject =
      RenderTemplate(template_dir / language / (name + ".subject"), data, false);
  if (!subject.ok()) return subject.status();
  Result<std::string> body = RenderTemplate(template_dir / language / (name + ".txt"), data, false);
  if (!body.ok()) return body.status();
  out.subject = *subject;
  for (char& c : out.subject) {
    if (c == '\r' || c == '\n') c = ' ';
  }
  while (!out.subject.empty() && out.subject.back() == ' ') out.subject.pop_back();
  out.body = AlignColumns(*body);
  return out;
}

Result<storage::NewMail> RenderLeagueNewMail(const std::filesystem::path& template_dir,
                                             const std::string& language, const std::string& name,
                                             const mst::data& data, const std::string& recipient,
                                             storage::Timestamp now) {
  Result<LeagueMail> rendered = RenderLeagueMail(template_dir, language, name, data);
  if (!rendered.ok()) return rendered.status();
  return ToNewMail(std::move(rendered).value(), recipient, now);
}

storage::NewMail ToNewMail(LeagueMail mail, const std::string& recipient, storage::Timestamp now) {
  storage::NewMail out;
  out.recipient = recipient;
  out.subject = std::move(mail.subject);
  out.body = std::move(mail.body);
  out.next_try = now;
  return out;
}

namespace {

// The places: the game address and links (has_address, address, has_url, standings_link).
void SetPlaces(mst::data& d, const MailPlaces& places, const std::string& league_id,
               const std::string& language) {
  d.set("has_address", !places.game_address.empty());
  d.set("address", places.game_address);
  d.set("has_url", !places.public_url.empty());
  d.set("standings_link",
        places.public_url + "/v1/leagues/" + league_id + "/standings.html?lang=" + language);
  d.set("url", places.public_url);
}

// A duration as a number and a unit flag (turn_days, turn_hours, turn_minutes,
// turn_seconds), turn_one when the number is 1: the templates word it.
void SetDuration(mst::data& d, std::chrono::seconds duration) {
  std::int64_t n = duration.count();
  const char* unit = "turn_seconds";
  if (n % 86400 == 0) {
    n /= 86400, unit = "turn_days";
  } else if (n % 3600 == 0) {
    n /= 3600, unit = "turn_hours";
  } else if (n % 60 == 0) {
    n /= 60, unit = "turn_minutes";
  }
  d.set("turn_n", std::to_string(n));
  d.set(unit, true);
  d.set("turn_one", n == 1);
}

}  // namespace

Result<std::string> FormatDate(const std::filesystem::path& template_dir,
                               const std::string& language, std::chrono::sys_seconds moment) {
  std::optional<templates::Language> lang = templates::ParseLanguage(language);
  if (!lang || !KnownLanguage(language)) {
    return Status::InvalidArgument("no league templates for language '" + language + "'");
  }
  templates::MailTemplates words;
  if (templates::Status loaded =
          templates::MailTemplates::Load(template_dir.parent_path() / "mail", &words);
      !loaded.ok) {
    return Status::FailedPrecondition(loaded.message);
  }
  return words.FormatDate(*lang, moment);
}

Result<LeagueMail> RenderGamesMail(const std::filesystem::path& template_dir,
                                   const std::string& language, const GamesMailInput& in) {
  mst::data d;
  d.set("league", in.league_name);
  d.set("league_id", in.league_id);
  d.set("season", std::to_string(in.season));
  d.set("round", std::to_string(in.round));
  d.set("has_round", in.round > 0);
  d.set("player", in.player);
  d.set("replaces", in.replaces);
  SetPlaces(d, in.places, in.league_id, language);
  d.set("has_deadline", in.turn_timeout.count() > 0);
  if (in.turn_timeout.count() > 0) SetDuration(d, in.turn_timeout);
  std::string deadline;
  if (in.first_deadline) {
    Result<std::string> date = FormatDate(template_dir, language, *in.first_deadline);
    if (!date.ok()) return date.status();
    deadline = *date;
  }
  d.set("has_first_deadline", in.first_deadline.has_value());
  d.set("deadline", deadline);
  mst::list games;
  for (const MailedGame& g : in.games) {
    mst::data item;
    item.set("game", g.game_id);
    item.set("side", g.side);
    item.set("blue", g.side == "blue");  // the templates name the sides in their language
    item.set("opponent", g.opponent);
    item.set("token", g.token);
    item.set("has_url", !in.places.public_url.empty());
    item.set("game_link", in.places.public_url + "/v1/games/" + g.game_id + "/archive/");
    games.push_back(item);
  }
  d.set("games", games);
  d.set("one_game", in.games.size() == 1);
  return RenderLeagueMail(template_dir, language, in.replaces.empty() ? "games" : "welcome", d);
}

Result<LeagueMail> RenderJoinedMail(const std::filesystem::path& template_dir,
                                    const std::string& language, const std::string& league_id,
                                    const std::string& player, const std::string& token,
                                    const MailPlaces& places) {
  mst::data d;
  d.set("league_id", league_id);
  d.set("player", player);
  d.set("token", token);
  SetPlaces(d, places, league_id, language);
  return RenderLeagueMail(template_dir, language, "joined", d);
}

Result<LeagueMail> RenderResignedMail(const std::filesystem::path& template_dir,
                                      const std::string& language, const ResignedMailInput& in) {
  mst::data d;
  d.set("game", in.game_id);
  d.set("league", in.league_name);
  d.set("in_league", !in.league_name.empty());
  const bool named = !in.blue_player.empty() && !in.orange_player.empty();
  d.set("named", named);
  d.set("blue_player", in.blue_player);
  d.set("orange_player", in.orange_player);
  const bool blue_resigned = in.resigning == Seat::kBlue;
  d.set("blue_resigned", blue_resigned);
  d.set("loser", blue_resigned ? in.blue_player : in.orange_player);
  d.set("winner", blue_resigned ? in.orange_player : in.blue_player);
  d.set("you_resigned", in.recipient == in.resigning);
  SetPlaces(d, in.places, in.league_id, language);
  d.set("has_url", !in.places.public_url.empty());
  d.set("game_link", in.places.public_url + "/v1/games/" + in.game_id + "/archive/");
  d.set("has_standings", !in.places.public_url.empty() && !in.league_id.empty());
  d.set("acknowledged", in.acknowledged);
  return RenderLeagueMail(template_dir, language, "resigned", d);
}

namespace {

// The refusal's reason as the one true section of the template.
void SetRefusal(mst::data& d, const MailRefusal& refusal,
                std::initializer_list<std::string_view> reasons) {
  bool known = false;
  for (std::string_view reason : reasons) {
    d.set(std::string(reason), refusal.reason == reason);
    known = known || refusal.reason == reason;
  }
  d.set("other", !known);
  d.set("detail", refusal.detail);
}

}  // namespace

Result<LeagueMail> RenderResignRefusedMail(const std::filesystem::path& template_dir,
                                           const std::string& language, const std::string& game_id,
                                           const MailRefusal& refusal) {
  mst::data d;
  d.set("game", game_id);
  SetRefusal(d, refusal, {"not_a_player", "game_over", "stale_turn"});
  return RenderLeagueMail(template_dir, language, "resign_refused", d);
}

Result<LeagueMail> RenderJoinRefusedMail(const std::filesystem::path& template_dir,
                                         const std::string& language, const std::string& league_id,
                                         const std::string& player, const std::string& address,
                                         const MailRefusal& refusal) {
  mst::data d;
  d.set("league_id", league_id);
  d.set("player", player);
  d.set("address", address);
  d.set("max_name", std::to_string(daemon::kMaxNameChars));
  SetRefusal(d, refusal,
             {"unknown_league", "registration_closed", "name_taken", "address_taken",
              "bad_language", "bad_name"});
  return RenderLeagueMail(template_dir, language, "join_refused", d);
}

namespace {

// Decodes one code point at `i` (advanced past it); a byte that does not start a valid
// sequence counts as one character.
std::uint32_t NextChar(std::string_view s, std::size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t n = b0 < 0x80 ? 1 : (b0 & 0xE0) == 0xC0 ? 2 : (b0 & 0xF0) == 0xE0 ? 3 : 4;
  if (b0 >= 0x80 && (b0 & 0xC0) == 0x80) n = 1;
  if (i + n > s.size()) n = 1;
  std::uint32_t cp = n == 1 ? b0 : n == 2 ? (b0 & 0x1F) : n == 3 ? (b0 & 0x0F) : (b0 & 0x07);
  for (std::size_t k = 1; k < n; ++k) {
    cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  }
  i += n;
  return cp;
}

bool IsZeroWidth(std::uint32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
         (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
         (cp >= 0xFE20 && cp <= 0xFE2F);
}

bool IsWide(std::uint32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1FAFF) ||
         (cp >= 0x20000 && cp <= 0x3FFFD);
}

}  // namespace

std::size_t DisplayWidth(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::uint32_t cp = NextChar(text, i);
    width += IsZeroWidth(cp) ? 0 : IsWide(cp) ? 2 : 1;
  }
  return width;
}

std::string PadRight(std::string_view cell, std::size_t width) {
  std::string out(cell);
  for (std::size_t w = DisplayWidth(cell); w < width; ++w) out += ' ';
  return out;
}

std::string AlignColumns(std::string_view text) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::string out;
  for (std::size_t i = 0; i < lines.size();) {
    if (lines[i].find('\t') == std::string_view::npos) {
      out += lines[i];
      if (++i < lines.size()) out += '\n';
      continue;
    }
    std::size_t end = i;
    std::vector<std::vector<std::string_view>> rows;
    std::vector<std::size_t> widths;
    for (; end < lines.size() && lines[end].find('\t') != std::string_view::npos; ++end) {
      std::vector<std::string_view> cells;
      for (std::size_t at = 0; at <= lines[end].size();) {
        std::size_t tab = lines[end].find('\t', at);
        if (tab == std::string_view::npos) tab = lines[end].size();
        cells.push_back(lines[end].substr(at, tab - at));
        at = tab + 1;
      }
      for (std::size_t c = 0; c < cells.size(); ++c) {
        if (widths.size() <= c) widths.push_back(0);
        widths[c] = std::max(widths[c], DisplayWidth(cells[c]));
      }
      rows.push_back(std::move(cells));
    }
    for (const auto& cells : rows) {
      std::string line;
      for (std::size_t c = 0; c < cells.size(); ++c) {
        line += c + 1 < cells.size() ? PadRight(cells[c], widths[c] + 2) : std::string(cells[c]);
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line;
      out += '\n';
    }
    i = end;
    if (i >= lines.size()) out.pop_back();  // the text did not end with a line break
  }
  return out;
}

}  // namespace pbem::league
