// The reply key of an open player-turn (issue 14): what a results mail puts in the orders
// template's `token` field, so that a player who replies with the template edited is
// authenticated without pasting their token (pbemd stores tokens only hashed, so it cannot
// write the token itself into a mail after the welcome mail).
//
//   key = "reply-" + decimal turn + "-" + lower-case hex of the first 16 bytes of
//         HMAC-SHA256(the open turn's secret dice seed, "pbem reply key v1\n" game "\n" turn
//         "\n" side)
//
// The seed is secret until its turn is committed, so nobody but pbemd can make a key for the
// open turn; once the turn is played the seed is revealed (results mails, archives) and the
// key is worth nothing: ReplyKeyMatches accepts a key only for the turn open now.
#ifndef PBEM_DAEMON_REPLY_KEY_H_
#define PBEM_DAEMON_REPLY_KEY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "storage/game_repository.h"

namespace pbem::daemon {

std::string ReplyKey(std::string_view dice_seed, std::string_view game_id, std::int64_t turn,
                     std::string_view side);

// The turn a token names when it has the form of a reply key; nullopt otherwise.
std::optional<std::int64_t> ReplyKeyTurn(std::string_view token);

// True when `token` is the reply key of the player-turn of `side` open now in `game` (opened
// from the game's current turns_committed); false for any other token, a key of a turn already
// played, or a turn never opened. Fails only when the store fails.
Result<bool> ReplyKeyMatches(storage::GameRepository& repository, const storage::Game& game,
                             const std::string& side, std::string_view token);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_REPLY_KEY_H_
