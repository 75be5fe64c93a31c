#include "daemon/api/game_archive.h"

#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/mail/replies.h"
#include "daemon/mail/scan.h"
#include "daemon/turn/archive.h"
#include "engine/morne_plaine/game_state.h"
#include "proto/codec/codec.h"
#include "templates/archive.h"

namespace pbem::daemon::api {

// The archive page of a game: written once per number of committed turns, then served.
Answer GameArchive::Page(storage::GameRepository& repository, const std::string& id,
                         const std::string& file) {
  if (mail_templates_ == nullptr || cache_dir_.empty()) {
    return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "this server serves no archive");
  }
  if (file.empty() || file.find('/') != std::string::npos || file.find("..") != std::string::npos ||
      file[0] == '.') {
    return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no archive file \"" + file + "\"");
  }
  Result<storage::Game> game = repository.GetGame(id);
  if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
  const std::filesystem::path dir = cache_dir_ / (id + "-" + std::to_string(game->turns_committed) +
                                                  (game->ending ? "-over" : ""));
  std::error_code ec;
  if (!std::filesystem::exists(dir / "index.html", ec)) {
    if (std::optional<Answer> failed = WriteArchiveDir(repository, *game, dir)) return *failed;
  }
  std::ifstream in(dir / file, std::ios::binary);
  if (!in) {
    return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no archive file \"" + file + "\"");
  }
  std::string body((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto ends = [&](const char* suffix) {
    const std::string_view f(file), x(suffix);
    return f.size() >= x.size() && f.substr(f.size() - x.size()) == x;
  };
  const std::string type = ends(".html")  ? "text/html; charset=utf-8"
                           : ends(".png") ? "image/png"
                           : ends(".css") ? "text/css; charset=utf-8"
                                          : "application/octet-stream";
  return Answer{HTTPResponse::HTTP_OK, type, std::move(body)};
}

// The game's verifiable archive file (pbem.v1.Archive, binary: what `pbem export` writes and
// `pbem verify` checks), public like the archive page: committed turns only, whose seeds are
// revealed already.
Answer GameArchive::Export(storage::GameRepository& repository, const std::string& id) {
  Result<pbem::v1::Archive> archive = ExportArchive(repository, id);
  if (!archive.ok()) {
    if (archive.status().code() == StatusCode::kFailedPrecondition) {
      return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found",
                   "game \"" + id +
                       "\" has no verifiable archive: it was created without "
                       "its ruleset and scenario");
    }
    return StoreError(archive.status(), "game \"" + id + "\"");
  }
  return Answer{HTTPResponse::HTTP_OK, "application/octet-stream",
                codec::SerializeMessage(*archive, codec::Format::kBinary)};
}

// Builds the archive input from the store and writes it into `dir` (through a temporary
// directory renamed into place, so a concurrent request never serves half of it).
std::optional<Answer> GameArchive::WriteArchiveDir(storage::GameRepository& repository,
                                                   const storage::Game& game,
                                                   const std::filesystem::path& dir) {
  Result<std::shared_ptr<const ScenarioData>> data = catalog_.ScenarioOf(game);
  if (!data.ok()) {
    return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, mail::kGameUnavailable,
                 data.status().message());
  }
  Result<std::vector<storage::Turn>> turns = repository.ListTurns(game.id);
  if (!turns.ok()) return StoreError(turns.status(), "turns");
  templates::ArchiveInput input;
  input.ruleset = &(*data)->ruleset;
  input.scenario = &(*data)->scenario;
  input.game_id = game.id;
  input.initial_state = engine::InitialState((*data)->scenario, game.id);
  if (const std::optional<storage::GameEnding>& e = game.ending) {
    input.ending = templates::ArchiveEnding{std::string(storage::GameEndKindName(e->kind)),
                                            e->winner, e->level, e->by_organiser};
  }
  for (const storage::Turn& t : *turns) {
    pbem::v1::TurnResult proto;
    proto.ParseFromString(t.result);
    auto result = codec::TurnResultFromProto(proto, (*data)->scenario, "turn");
    if (!result.ok()) {
      return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                   "player-turn " + std::to_string(t.sequence) + ": " + result.ErrorText());
    }
    templates::ArchiveTurn turn;
    turn.turn = static_cast<int>(t.turn);
    turn.side = engine::ParseSide(t.side).value_or(engine::Side::kBlue);
    turn.result = std::move(result).value();
    turn.revealed_seed = proto.dice().revealed_seed();
    turn.commitment = proto.dice().commitment();
    input.turns.push_back(std::move(turn));
  }
  const std::filesystem::path temp =
      dir.string() + ".tmp-" +
      std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id()));
  std::error_code ec;
  std::filesystem::remove_all(temp, ec);
  if (templates::Status written = templates::WriteArchive(
          *mail_templates_, templates::Language::kEnglish, template_dir_, input, temp);
      !written.ok) {
    return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal", written.message);
  }
  std::filesystem::rename(temp, dir, ec);
  if (ec) std::filesystem::remove_all(temp, ec);  // another request put it there first
  return std::nullopt;
}

}  // namespace pbem::daemon::api
