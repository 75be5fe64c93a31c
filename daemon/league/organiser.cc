#include "daemon/league/organiser.h"

#include <fstream>
#include <kainjow/mustache.hpp>
#include <sstream>

#include "daemon/game_catalog.h"
#include "daemon/league/league_flow.h"
#include "daemon/league/league_template.h"
#include "daemon/league/seats.h"
#include "daemon/turn/turn_job.h"
#include "templates/mail_render.h"

namespace pbem::league {
namespace mst = kainjow::mustache;

namespace {

Result<GameStatus> StatusOf(storage::GameRepository& games, const PositionReader& read_position,
                            const storage::LeagueGameRecord& record) {
  GameStatus out;
  out.record = record;
  Result<storage::Game> game = games.GetGame(record.game_id);
  if (!game.ok()) return game.status();
  Result<GamePosition> position = read_position(*game);
  if (!position.ok()) return position.status();
  out.turn = position->turn.turn;
  out.result = game->result;
  out.over = !game->result.empty() || position->finished || record.result != "pending";
  out.paused = game->paused_at.has_value();
  Result<std::vector<storage::Player>> players = games.ListPlayers(record.game_id);
  if (!players.ok()) return players.status();
  for (const storage::Player& p : *players) {
    (p.side == "blue" ? out.missed_blue : out.missed_orange) = p.missed_turns;
  }
  Result<std::vector<storage::Submission>> submissions = games.ListSubmissions(record.game_id);
  if (!submissions.ok()) return submissions.status();
  for (auto it = submissions->rbegin(); it != submissions->rend(); ++it) {
    if (!it->accepted) continue;
    out.last_orders_at = it->received_at;
    out.last_orders_side = it->side;
    break;
  }
  const std::optional<Seat> seat = ParseSeat(position->turn.side);
  if (out.over || !seat) return out;
  out.side_to_move = position->turn.side;
  out.player_to_move = *seat == Seat::kBlue ? record.blue : record.orange;
  Result<storage::OpenTurn> open =
      games.GetOpenTurn(record.game_id, position->turn.turn, out.side_to_move);
  if (open.ok()) {
    out.deadline = daemon::TurnDeadline(*game, *open);
  } else if (open.status().code() != StatusCode::kNotFound) {
    return open.status();  // NOT_FOUND: the turn opens at the scheduler's next pass
  }
  return out;
}

}  // namespace

PositionReader CatalogPositions(daemon::GameCatalog& catalog, bool pinned) {
  return [&catalog, pinned](const storage::Game& game) -> Result<GamePosition> {
    Result<daemon::GameContext> loaded = pinned ? catalog.LoadPinned(game) : catalog.Load(game);
    if (!loaded.ok()) return loaded.status();
    return GamePosition{loaded->turn, loaded->finished};
  };
}

Result<std::vector<GameStatus>> LeagueStatus(storage::LeagueRepository& leagues,
                                             storage::GameRepository& games,
                                             const std::string& league_id,
                                             const PositionReader& position) {
  Result<storage::League> league = leagues.GetLeague(league_id);
  if (!league.ok()) return league.status();
  Result<std::vector<storage::LeagueGameRecord>> records = leagues.ListLeagueGames(league_id);
  if (!records.ok()) return records.status();
  std::vector<GameStatus> out;
  for (const storage::LeagueGameRecord& record : *records) {
    Result<GameStatus> status = StatusOf(games, position, record);
    if (!status.ok()) return status.status();
    out.push_back(std::move(*status));
  }
  return out;
}

Result<std::string> DurationWords(const std::filesystem::path& template_dir,
                                  std::chrono::seconds duration, const std::string& language) {
  std::int64_t left = duration.count();
  const std::int64_t days = left / 86400;
  left %= 86400;
  const std::int64_t hours = left / 3600;
  left %= 3600;
  const std::int64_t minutes = left / 60;
  // One part per unit that is not zero: its number, its unit, plural when above one.
  mst::data parts{mst::data::type::list};
  for (const auto& [n, unit] :
       {std::pair{days, "day"}, std::pair{hours, "hour"}, std::pair{minutes, "minute"}}) {
    if (n == 0) continue;
    mst::data part;
    part.set("first", parts.is_empty_list());
    part.set("n", std::to_string(n));
    part.set("plural", n > 1);
    for (const char* u : {"day", "hour", "minute"}) part.set(u, std::string_view(u) == unit);
    parts.push_back(part);
  }
  mst::data data;
  data.set("parts", parts);
  Result<std::string> words =
      RenderTemplate(template_dir / (language == "fr" ? "fr" : "en") / "duration.txt", data, false);
  if (!words.ok()) return words.status();
  std::string out = std::move(*words);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

Result<Extension> ExtendDeadline(storage::LeagueRepository& leagues, storage::GameRepository& games,
                                 const PositionReader& position, const std::string& league_id,
                                 const std::string& game_id, std::chrono::seconds by,
                                 const templates::MailTemplates& mail,
                                 const std::filesystem::path& template_dir, storage::Timestamp now,
                                 OrganiserRefusal* refusal) {
  auto refuse = [&](OrganiserRefusal why, Status status) -> Result<Extension> {
    if (refusal != nullptr) *refusal = why;
    return status;
  };
  Result<storage::League> league = leagues.GetLeague(league_id);
  if (!league.ok()) return league.status();
  Result<storage::LeagueGameRecord> record = leagues.GetLeagueGame(game_id);
  if (!record.ok() && record.status().code() != StatusCode::kNotFound) return record.status();
  if (!record.ok() || record->league_id != league_id) {
    return refuse(
        OrganiserRefusal::kNotInLeague,
        Status::NotFound("game \"" + game_id + "\" is no game of league \"" + league_id + "\""));
  }
  Result<GameStatus> status = StatusOf(games, position, *record);
  if (!status.ok()) return status.status();
  if (status->over) {
    return refuse(OrganiserRefusal::kGameOver,
                  Status::FailedPrecondition("game \"" + game_id +
                                             "\" is over: there is no deadline to extend"));
  }
  Result<storage::Game> game = games.GetGame(game_id);
  if (!game.ok()) return game.status();
  if (!status->deadline) {
    return refuse(
        OrganiserRefusal::kNoDeadline,
        Status::FailedPrecondition(game->deadlines.turn_timeout.count() <= 0
                                       ? "game \"" + game_id +
                                             "\" has no turn timeout: there is no deadline "
                                             "to extend"
                                       : "the turn of game \"" + game_id +
                                             "\" is not open yet: try again in a moment"));
  }
  Extension out;
  out.game_id = game_id;
  out.turn = status->turn;
  out.side = status->side_to_move;
  out.new_deadline = *status->deadline + std::chrono::duration_cast<std::chrono::milliseconds>(by);
  Result<std::vector<storage::Player>> players = games.ListPlayers(game_id);
  if (!players.ok()) return players.status();
  std::vector<storage::NewMail> mails;
  for (const storage::Player& p : *players) {
    const std::string language = p.language == "fr" ? "fr" : "en";
    const templates::Language words =
        language == "fr" ? templates::Language::kFrench : templates::Language::kEnglish;
    mst::data data;
    data.set("league", league->name);
    data.set("game", game_id);
    data.set("turn", std::to_string(out.turn));
    data.set("side", mail.Word(words, "side", out.side));
    data.set("player", status->player_to_move);
    Result<std::string> duration = DurationWords(template_dir, by, language);
    if (!duration.ok()) return duration.status();
    data.set("duration", *duration);
    data.set("deadline",
             mail.FormatDate(words, std::chrono::floor<std::chrono::seconds>(out.new_deadline)));
    data.set("paused", status->paused);
    Result<storage::NewMail> m =
        RenderLeagueNewMail(template_dir, language, "extension", data, p.mail_address, now);
    if (!m.ok()) return m.status();
    while (!m->body.empty() && (m->body.back() == '\n' || m->body.back() == '\r')) {
      m->body.pop_back();
    }
    m->body += '\n';  // one line end, whatever the template's last tag renders
    mails.push_back(std::move(m).value());
  }
  Result<bool> extended =
      games.ExtendDeadline(game_id, game->turns_committed,
                           std::chrono::duration_cast<std::chrono::milliseconds>(by), mails);
  if (!extended.ok()) return extended.status();
  if (!*extended) {
    return refuse(OrganiserRefusal::kTurnMoved,
                  Status::FailedPrecondition("the turn of game \"" + game_id +
                                             "\" was played meanwhile: look at the status again"));
  }
  out.mails_enqueued = static_cast<int>(mails.size());
  return out;
}

Status SetRegistration(storage::LeagueRepository& leagues, const std::string& league_id,
                       bool open) {
  Result<StoredLeague> stored = LoadStoredLeague(leagues, league_id, false);
  if (!stored.ok()) return stored.status();
  stored->settings.registration_open = open;
  return leagues.SetLeagueSettings(league_id, EncodeSettings(stored->settings));
}

}  // namespace pbem::league
