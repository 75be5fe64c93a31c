#include "daemon/reply_key.h"

#include <array>

#include "daemon/turn/dice.h"

namespace pbem::daemon {
namespace {

constexpr std::string_view kPrefix = "reply-";
constexpr std::size_t kKeyBytes = 16;

// HMAC-SHA256 (RFC 2104) over daemon/turn's SHA-256; Poco's HMACEngine needs an engine with
// BLOCK_SIZE, which Poco 1.11's SHA2Engine lacks.
std::string HmacSha256(std::string_view key, std::string_view message) {
  constexpr std::size_t kBlock = 64;
  std::string block(key.size() > kBlock ? Sha256(key) : std::string(key));
  block.resize(kBlock, '\0');
  std::string inner(kBlock, '\0'), outer(kBlock, '\0');
  for (std::size_t i = 0; i < kBlock; ++i) {
    inner[i] = static_cast<char>(block[i] ^ 0x36);
    outer[i] = static_cast<char>(block[i] ^ 0x5c);
  }
  return Sha256(outer + Sha256(inner + std::string(message)));
}

bool SameBytes(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;  // no early exit: the time says nothing of where they differ
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  }
  return diff == 0;
}

}  // namespace

std::string ReplyKey(std::string_view dice_seed, std::string_view game_id, std::int64_t turn,
                     std::string_view side) {
  const std::string message = "pbem reply key v1\n" + std::string(game_id) + "\n" +
                              std::to_string(turn) + "\n" + std::string(side);
  return std::string(kPrefix) + std::to_string(turn) + "-" +
         Hex(HmacSha256(dice_seed, message).substr(0, kKeyBytes));
}

std::optional<std::int64_t> ReplyKeyTurn(std::string_view token) {
  if (token.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  token.remove_prefix(kPrefix.size());
  const std::size_t dash = token.find('-');
  if (dash == 0 || dash == std::string_view::npos || dash > 9) return std::nullopt;
  std::int64_t turn = 0;
  for (const char c : token.substr(0, dash)) {
    if (c < '0' || c > '9') return std::nullopt;
    turn = turn * 10 + (c - '0');
  }
  if (token.size() - dash - 1 != 2 * kKeyBytes) return std::nullopt;
  return turn;
}

Result<bool> ReplyKeyMatches(storage::GameRepository& repository, const storage::Game& game,
                             const std::string& side, std::string_view token) {
  const std::optional<std::int64_t> turn = ReplyKeyTurn(token);
  if (!turn) return false;
  Result<storage::OpenTurn> open = repository.GetOpenTurn(game.id, *turn, side);
  if (!open.ok()) {
    if (open.status().code() == StatusCode::kNotFound) return false;
    return open.status();
  }
  // Only the turn open now: an older turn's seed is public once it is played.
  if (open->based_on != game.turns_committed) return false;
  return SameBytes(token, ReplyKey(open->dice_seed, game.id, *turn, side));
}

}  // namespace pbem::daemon
