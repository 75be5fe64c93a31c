#include "daemon/api/game_reads.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Parser.h>

#include <charconv>
#include <memory>
#include <vector>

#include "daemon/game_catalog.h"
#include "daemon/mail/replies.h"
#include "daemon/mail/scan.h"
#include "daemon/read_cache.h"
#include "engine/morne_plaine/game_state.h"
#include "proto/codec/codec.h"
#include "templates/map_renderer.h"

namespace pbem::daemon::api {
namespace {

// The public reads of what a committed turn made (a game's state, a turn's map): the same for
// every client (they need no token and show nothing a side may not see: the game is one of
// full information, dice seeds appear only once revealed), and a client or cache keeps them
// but asks again each time, a cheap 304 while nothing changed.
constexpr const char* kReadCacheControl = "no-cache";

// `value`, length-prefixed: keys built of such fields are unambiguous whatever the bytes.
void AddKeyField(std::string& key, std::string_view value) {
  key += std::to_string(value.size());
  key += ':';
  key += value;
}

// What a game's reads depend on, as the database says now: its id, creation, turns committed
// and end (every field of it: an organiser's corrected result is another key).
std::string GameKey(std::string_view what, const std::string& id,
                    const storage::GameVersion& version) {
  std::string key;
  AddKeyField(key, what);
  AddKeyField(key, id);
  AddKeyField(key, std::to_string(version.created_at.time_since_epoch().count()));
  AddKeyField(key, std::to_string(version.turns_committed));
  if (const auto& e = version.ending) {
    AddKeyField(key, storage::GameEndKindName(e->kind));
    AddKeyField(key, e->winner);
    AddKeyField(key, e->level);
    AddKeyField(key, e->by_organiser ? "organiser" : "");
    AddKeyField(key, std::to_string(e->turn));
    AddKeyField(key, e->text);
  }
  return key;
}

// The validators and caching rules of a cached read (kReadCacheControl).
std::vector<std::pair<std::string, std::string>> ReadHeaders(const std::string& etag,
                                                             bool vary_accept) {
  std::vector<std::pair<std::string, std::string>> headers{{"ETag", etag},
                                                           {"Cache-Control", kReadCacheControl}};
  if (vary_accept) headers.emplace_back("Vary", "Accept");
  return headers;
}

// Player-turn number `text` (1 = the first committed) of a game that has `committed`;
// nullopt and `error` set when it is not a number or not committed yet.
std::optional<std::int64_t> Sequence(const std::string& id, const std::string& text,
                                     std::int64_t committed, Answer& error) {
  std::int64_t sequence = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), sequence);
  if (ec != std::errc() || end != text.data() + text.size() || sequence < 1) {
    error = Error(HTTPResponse::HTTP_BAD_REQUEST, "invalid_argument",
                  "turn \"" + text + "\" is not a player-turn number (1, 2, ...)");
    return std::nullopt;
  }
  if (sequence > committed) {
    error = Error(HTTPResponse::HTTP_NOT_FOUND, "not_found",
                  "game \"" + id + "\" has " + std::to_string(committed) +
                      " player-turns committed, not " + text);
    return std::nullopt;
  }
  return sequence;
}

}  // namespace

Answer GameReads::List(storage::GameRepository& repository) {
  Result<std::vector<std::string>> ids = repository.ListGames();
  if (!ids.ok()) return StoreError(ids.status(), "games");
  Poco::JSON::Array games;
  for (const std::string& id : *ids) {
    Result<storage::Game> game = repository.GetGame(id);
    if (!game.ok()) continue;  // deleted meanwhile
    Poco::JSON::Object g;
    g.set("id", id);
    g.set("scenario", game->scenario);
    g.set("turnsCommitted", game->turns_committed);
    g.set("paused", game->paused_at.has_value());
    g.set("result", game->result);
    games.add(g);
  }
  Poco::JSON::Object reply;
  reply.set("games", games);
  return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(reply)};
}

// A read whose answer is kept under `key` (its entity-tag `etag`): 304 when the request's
// If-None-Match names it, else the kept answer; nullopt when it is not kept (then the caller
// encodes it and passes it to Keep).
std::optional<Answer> GameReads::FromCache(const std::optional<std::string>& if_none_match,
                                           const std::string& key, const std::string& etag,
                                           bool vary_accept) {
  if (if_none_match && IfNoneMatchHits(*if_none_match, etag)) {
    return Answer{HTTPResponse::HTTP_NOT_MODIFIED, "", "", ReadHeaders(etag, vary_accept)};
  }
  std::optional<ReadCache::Entry> kept = cache_.Get(key);
  if (!kept) return std::nullopt;
  return Answer{HTTPResponse::HTTP_OK, kept->content_type, *kept->body,
                ReadHeaders(kept->etag, vary_accept)};
}

// Keeps a 200 `answer` under `key`; any other answer is passed on as it is.
Answer GameReads::Keep(const std::string& key, const std::string& etag, bool vary_accept,
                       Answer answer) {
  if (answer.status != HTTPResponse::HTTP_OK) return answer;
  cache_.Put(key, ReadCache::Entry{etag, answer.content_type,
                                   std::make_shared<const std::string>(answer.body)});
  answer.headers = ReadHeaders(etag, vary_accept);
  return answer;
}

// GET /v1/games/{id}: the game's state after its last committed turn, JSON or protobuf. One small
// row read per request (the game's version: storage::GameVersion); the encoded state comes from the
// cache while that version is unchanged, and If-None-Match naming it gets 304.
Answer GameReads::State(storage::GameRepository& repository, const std::string& id, bool protobuf,
                        const std::optional<std::string>& if_none_match) {
  const std::string encoding = protobuf ? "pb" : "json";
  Result<storage::GameVersion> version = repository.GetGameVersion(id);
  if (!version.ok()) return StoreError(version.status(), "game \"" + id + "\"");
  const auto etag_of = [&](const storage::GameVersion& v) {
    return StrongEtag("state-" + encoding + "-" + std::to_string(v.turns_committed),
                      GameKey("state/" + encoding, id, v));
  };
  if (std::optional<Answer> kept = FromCache(
          if_none_match, GameKey("state/" + encoding, id, *version), etag_of(*version), true)) {
    return *kept;
  }
  Result<storage::Game> game = repository.GetGame(id);
  if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
  // Keyed on the game as read with its state: a turn committed since the version read is
  // the next key, never this one.
  const storage::GameVersion read = storage::VersionOf(*game);
  return Keep(GameKey("state/" + encoding, id, read), etag_of(read), true,
              EncodeState(repository, *game, protobuf));
}

Answer GameReads::EncodeState(storage::GameRepository& repository, const storage::Game& game,
                              bool protobuf) {
  const std::string& id = game.id;
  if (protobuf) return Answer{HTTPResponse::HTTP_OK, "application/x-protobuf", game.state};
  Result<GameContext> context = catalog_.Load(game);
  if (!context.ok()) {
    return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, mail::kGameUnavailable,
                 context.status().message());
  }
  pbem::v1::GameState proto;
  proto.ParseFromString(game.state);
  Poco::JSON::Object body;
  body.set("id", game.id);
  body.set("scenario", game.scenario);
  body.set("ruleset", game.ruleset_name);
  body.set("rulesetVersion", game.ruleset_version);
  body.set("turnsCommitted", game.turns_committed);
  body.set("turn", context->state.turn);
  body.set("sideToMove", context->turn.side);
  Result<std::vector<storage::Player>> players = repository.ListPlayers(id);
  if (!players.ok()) return StoreError(players.status(), "players");
  Poco::JSON::Array::Ptr sides = new Poco::JSON::Array;
  for (const storage::Player& p : *players) sides->add(p.side);
  body.set("sides", sides);
  body.set("state",
           Poco::JSON::Parser().parse(codec::SerializeMessage(proto, codec::Format::kJson)));
  return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(body)};
}

// Every committed player-turn of a game, in order: what `pbem history` shows.
Answer GameReads::History(storage::GameRepository& repository, const std::string& id) {
  Result<storage::Game> game = repository.GetGame(id);
  if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
  Result<std::vector<storage::Turn>> turns = repository.ListTurns(id);
  if (!turns.ok()) return StoreError(turns.status(), "turns");
  Poco::JSON::Array list;
  for (const storage::Turn& t : *turns) {
    pbem::v1::TurnResult result;
    result.ParseFromString(t.result);
    Poco::JSON::Object turn;
    turn.set("sequence", t.sequence);
    turn.set("turn", t.turn);
    turn.set("side", t.side);
    turn.set("committedAtMs", static_cast<std::int64_t>(t.committed_at.time_since_epoch().count()));
    turn.set("events", result.events_size());
    turn.set("commitment", result.dice().commitment());
    turn.set("revealedSeed", result.dice().revealed_seed());
    list.add(turn);
  }
  Poco::JSON::Object body;
  body.set("id", id);
  body.set("result", game->result);
  body.set("turns", list);
  return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(body)};
}

// The report of player-turn number `sequence_text` (1 = the first committed) as JSON (the
// stored pbem.v1.TurnResult).
Answer GameReads::TurnReport(storage::GameRepository& repository, const std::string& id,
                             const std::string& sequence_text) {
  Result<storage::Game> game = repository.GetGame(id);
  if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
  Result<std::vector<storage::Turn>> turns = repository.ListTurns(id);
  if (!turns.ok()) return StoreError(turns.status(), "turns");
  Answer error;
  const std::optional<std::int64_t> sequence =
      Sequence(id, sequence_text, static_cast<std::int64_t>(turns->size()), error);
  if (!sequence) return error;
  const storage::Turn& turn = (*turns)[static_cast<std::size_t>(*sequence - 1)];
  pbem::v1::TurnResult stored;
  if (!stored.ParseFromString(turn.result)) {
    return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                 "the stored result does not parse");
  }
  // One shape for every turn: results stored in format 1 (args) are answered in format 2.
  codec::Result<pbem::v1::TurnResult> result =
      codec::TurnResultInCurrentFormat(stored, "the stored result");
  if (!result.ok()) {
    return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal", result.ErrorText());
  }
  Poco::JSON::Object body;
  body.set("sequence", turn.sequence);
  body.set("turn", turn.turn);
  body.set("side", turn.side);
  body.set("result", Poco::JSON::Parser().parse(
                         codec::SerializeMessage(result.value(), codec::Format::kJson)));
  return Answer{HTTPResponse::HTTP_OK, "application/json", Stringify(body)};
}

// The map after player-turn `sequence_text`, its events drawn, as PNG: drawn once per game
// and player-turn, then served from the cache (a committed turn never changes; the key
// holds the game's creation too), with an ETag.
Answer GameReads::TurnMap(storage::GameRepository& repository, const std::string& id,
                          const std::string& sequence_text,
                          const std::optional<std::string>& if_none_match) {
  Result<storage::GameVersion> version = repository.GetGameVersion(id);
  if (!version.ok()) return StoreError(version.status(), "game \"" + id + "\"");
  Answer error;
  const std::optional<std::int64_t> sequence =
      Sequence(id, sequence_text, version->turns_committed, error);
  if (!sequence) return error;
  // Only what the map depends on: not the later turns, nor the game's end.
  storage::GameVersion made = *version;
  made.turns_committed = *sequence;
  made.ending.reset();
  const std::string key = GameKey("map", id, made);
  const std::string etag = StrongEtag("map-" + std::to_string(*sequence), key);
  if (std::optional<Answer> kept = FromCache(if_none_match, key, etag, false)) return *kept;
  return Keep(key, etag, false, DrawMap(repository, id, *sequence));
}

Answer GameReads::DrawMap(storage::GameRepository& repository, const std::string& id,
                          std::int64_t sequence) {
  Result<storage::Game> game = repository.GetGame(id);
  if (!game.ok()) return StoreError(game.status(), "game \"" + id + "\"");
  Result<std::vector<storage::Turn>> turns = repository.ListTurns(id);
  if (!turns.ok()) return StoreError(turns.status(), "turns");
  if (sequence > static_cast<std::int64_t>(turns->size())) {
    return Error(HTTPResponse::HTTP_NOT_FOUND, "not_found", "no such player-turn");
  }
  const storage::Turn& turn = (*turns)[static_cast<std::size_t>(sequence - 1)];
  pbem::v1::TurnResult result;
  if (!result.ParseFromString(turn.result)) {
    return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                 "the stored result does not parse");
  }
  Result<std::shared_ptr<const ScenarioData>> data = catalog_.ScenarioOf(*game);
  if (!data.ok()) {
    return Error(HTTPResponse::HTTP_SERVICE_UNAVAILABLE, mail::kGameUnavailable,
                 data.status().message());
  }
  auto engine_result = codec::TurnResultFromProto(result, (*data)->scenario, "turn");
  pbem::v1::GameState state_proto;
  state_proto.ParseFromString(turn.next_state);
  auto state = codec::StateFromProto(state_proto, (*data)->scenario);
  if (!engine_result.ok() || !state.ok()) {
    return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal",
                 "the stored turn does not fit scenario " + game->scenario);
  }
  templates::RenderOptions options;
  options.game_id = id;
  options.turn_played = static_cast<int>(turn.turn);
  options.side_played = turn.side == "blue" ? engine::Side::kBlue : engine::Side::kOrange;
  templates::MapImage image;
  std::vector<std::uint8_t> png;
  templates::Status drawn = templates::RenderMap((*data)->ruleset, (*data)->scenario, state.value(),
                                                 &engine_result.value().events, options, &image);
  if (drawn.ok) drawn = templates::EncodePng(image.surface(), {}, &png);
  if (!drawn.ok) {
    return Error(HTTPResponse::HTTP_INTERNAL_SERVER_ERROR, "internal", drawn.message);
  }
  return Answer{HTTPResponse::HTTP_OK, "image/png", std::string(png.begin(), png.end())};
}

}  // namespace pbem::daemon::api
