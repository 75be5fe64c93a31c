// The orders template of a side (issue 14): what every mail asking a player to move carries,
// attached and quoted in its body, so that replying with it edited is all a player has to do.
// It is text-format pbem.v1.Orders (what the mail intake and `pbem orders check` read):
//
//   #--- pbem orders: begin ---          (mail/quoted_orders.h finds it in a quoted reply)
//   # Orders for game demo, turn 2, side orange.   (how to use it, in the player's language)
//   # Your units: id, name, hex, CS MV MA, command, MP this turn.
//   format_version: 1
//   game_id: "demo"
//   turn: 2
//   side: SIDE_ORANGE
//   token: "..."                          (the player's token, or the turn's reply key)
//   # o-i1 Brigade Durutte: 1610, CS 4 MV 3 MA 3, in command, 3 MP this turn
//   # moves { unit: "o-i1" from: "1610" destination: "" }
//   # bombardments { unit: "o-fa1" target: "" }              (batteries)
//   # placements { unit: "o-i9" hex: "" }                     (units still off the map)
//   # attacks { attacker: "" defender: "" }
//   #--- pbem orders: end ---
//
// As sent it parses to orders with no order at all (every order line is a comment); removing
// the "#" before a line and filling in its hex gives that order. Every line stays short
// enough for a mail client not to wrap it. The words come from words.table (template.*).
#ifndef PBEM_DAEMON_ORDERS_TEMPLATE_H_
#define PBEM_DAEMON_ORDERS_TEMPLATE_H_

#include <chrono>
#include <optional>
#include <string>

#include "engine/morne_plaine/game_state.h"
#include "engine/morne_plaine/ruleset.h"
#include "engine/morne_plaine/scenario.h"
#include "storage/game_repository.h"
#include "templates/mail_render.h"

namespace pbem::daemon {

struct OrdersTemplateInput {
  const engine::Ruleset* ruleset = nullptr;    // REQUIRES: not null
  const engine::Scenario* scenario = nullptr;  // REQUIRES: not null
  const engine::GameState* state = nullptr;    // REQUIRES: not null; its side to move's template
  std::string game_id;
  std::string token;  // the player's token, or the open turn's reply key (reply_key.h)
};

// The template for state->side_to_move at state->turn, worded in `language`.
std::string OrdersTemplate(const templates::MailTemplates& templates, templates::Language language,
                           const OrdersTemplateInput& input);

// The attachment's name: "orders-<game>-turn<turn>-<side>.textproto".
std::string OrdersTemplateFileName(const std::string& game_id, int turn, engine::Side side);

// Makes `mail` (text body, and its HTML alternative when it has one) a mail asking its
// recipient to move: "your move, due by ..." first, the quoted template with how to use it
// before the signature (or at the end), and the template attached as a .textproto file.
Status AddMoveRequest(const templates::MailTemplates& templates, templates::Language language,
                      const std::optional<std::chrono::sys_seconds>& deadline,
                      const std::string& orders_template, const std::string& orders_file,
                      storage::NewMail* mail);

// The results mail `mail` of a player of `next.side`, the side to move in `state` (the
// player-turn `next` just opened): AddMoveRequest with that side's template, whose token is
// the open turn's reply key (reply_key.h: pbemd keeps no token in clear to put there).
Status AskToMoveNext(const templates::MailTemplates& templates, templates::Language language,
                     const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                     const engine::GameState& state, const storage::OpenTurn& next,
                     const std::optional<std::chrono::sys_seconds>& deadline,
                     storage::NewMail* mail);

}  // namespace pbem::daemon

#endif  // PBEM_DAEMON_ORDERS_TEMPLATE_H_
