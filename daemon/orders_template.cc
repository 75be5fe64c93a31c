#include "daemon/orders_template.h"

#include "daemon/mail/quoted_orders.h"
#include "daemon/reply_key.h"
#include "engine/hex/hex.h"
#include "engine/morne_plaine/ids.h"
#include "engine/morne_plaine/movement.h"
#include "proto/codec/codec.h"

namespace pbem::daemon {
namespace {

// A words.table sentence with {name} fields filled in.
class TemplateWords {
 public:
  TemplateWords(const templates::MailTemplates& templates, templates::Language language)
      : templates_(templates), language_(language) {}

  std::string operator()(std::string_view key) const {
    return templates_.Word(language_, "template", key);
  }
  std::string Filled(std::string_view key,
                     std::initializer_list<std::pair<std::string_view, std::string>> fields) const {
    std::string text = (*this)(key);
    for (const auto& [name, value] : fields) {
      const std::string field = "{" + std::string(name) + "}";
      if (const std::size_t at = text.find(field); at != std::string::npos) {
        text.replace(at, field.size(), value);
      }
    }
    return text;
  }

 private:
  const templates::MailTemplates& templates_;
  templates::Language language_;
};

// A comment of several lines, none longer than 74 characters, split between words.
void AddComment(std::string_view text, std::string& out) {
  constexpr std::size_t kWidth = 74;
  std::string line = "#";
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find(' ', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    if (line.size() > 1 && line.size() + 1 + word.size() > kWidth) {
      out += line + "\n";
      line = "#";
    }
    line += " ";
    line += word;
  }
  out += line + "\n";
}

std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string OrdersTemplate(const templates::MailTemplates& templates, templates::Language language,
                           const OrdersTemplateInput& input) {
  const engine::Scenario& scenario = *input.scenario;
  const engine::GameState& state = *input.state;
  const engine::Side side = state.side_to_move;
  const int width = codec::LabelWidth(scenario);
  const TemplateWords words(templates, language);
  std::string out;
  out += std::string(mail::kTemplateBegin) + "\n";
  AddComment(
      words.Filled("title", {{"game", input.game_id},
                             {"turn", std::to_string(state.turn)},
                             {"side", templates.Word(language, "side", engine::SideName(side))}}),
      out);
  AddComment(words("how"), out);
  AddComment(words("keep"), out);
  out += "format_version: 1\n";
  out += "game_id: " + Quoted(input.game_id) + "\n";
  out += "turn: " + std::to_string(state.turn) + "\n";
  out += "side: " + pbem::v1::Side_Name(codec::SideToProto(side)) + "\n";
  out += "token: " + Quoted(input.token) + "\n";
  out += "\n";
  AddComment(words("units"), out);
  // The command check the engine makes when the turn starts (digest 1.6), from the position
  // now: the MP shown are the MP the unit will have.
  engine::GameState checked = state;
  for (std::size_t i = 0; i < scenario.units.size() && i < state.units.size(); ++i) {
    const engine::UnitId id{static_cast<std::int32_t>(i)};
    if (scenario.units[i].side == side && state.units[i].on_map()) {
      checked.units[i].in_command =
          engine::CheckCommand(*input.ruleset, scenario, state, id).in_command;
    }
  }
  for (std::size_t i = 0; i < scenario.units.size() && i < state.units.size(); ++i) {
    const engine::UnitSpec& spec = scenario.units[i];
    const engine::UnitState& unit = checked.units[i];
    if (spec.side != side || unit.eliminated) continue;
    const engine::UnitId id{static_cast<std::int32_t>(i)};
    std::string about = spec.id + " " + spec.name + ", ";
    if (!unit.hex) {
      if (!scenario.setup_only_first_turn || state.turn != 1) continue;  // cannot be placed
      AddComment(about + words("off_map"), out);
      out += "# placements { unit: " + Quoted(spec.id) + " hex: \"\" }\n";
      continue;
    }
    const std::string hex = engine::FormatLabel(*unit.hex, width);
    const engine::Allowance allowance =
        engine::MovementAllowance(*input.ruleset, scenario, checked, id);
    about += hex + ", " + words("cs") + " " + std::to_string(unit.cs) + " " + words("mv") + " " +
             std::to_string(unit.mv) + " " + words("ma") + " " + std::to_string(spec.ma) + ", " +
             (unit.in_command ? std::string() : words("out_of_command") + ", ") +
             std::to_string(allowance.points) + " " + words("mp");
    AddComment(about, out);
    out +=
        "# moves { unit: " + Quoted(spec.id) + " from: " + Quoted(hex) + " destination: \"\" }\n";
    if (spec.range > 0) {
      out += "# bombardments { unit: " + Quoted(spec.id) + " target: \"\" }\n";
    }
  }
  out += "\n";
  AddComment(words("attack"), out);
  out += "# attacks { attacker: \"\" defender: \"\" }\n";
  out += std::string(mail::kTemplateEnd) + "\n";
  return out;
}

std::string OrdersTemplateFileName(const std::string& game_id, int turn, engine::Side side) {
  return "orders-" + game_id + "-turn" + std::to_string(turn) + "-" +
         std::string(engine::SideName(side)) + ".textproto";
}

Status AddMoveRequest(const templates::MailTemplates& templates, templates::Language language,
                      const std::optional<std::chrono::sys_seconds>& deadline,
                      const std::string& orders_template, const std::string& orders_file,
                      storage::NewMail* mail) {
  templates::MoveRequest request;
  if (templates::Status rendered = templates.RenderMoveRequest(
          language, templates::MoveRequestInput{deadline, orders_template, orders_file}, &request);
      !rendered.ok) {
    return Status::Internal("the orders template of " + orders_file + ": " + rendered.message);
  }
  // Text: the headline first, the block before the signature ("-- " line).
  std::string& body = mail->body;
  const std::size_t signature = body.rfind("\n-- \n");
  const std::size_t block_at = signature == std::string::npos ? body.size() : signature + 1;
  body.insert(block_at, "\n" + request.block_text + "\n");
  body.insert(0, request.headline_text + "\n");
  for (storage::Attachment& attachment : mail->attachments) {
    if (!attachment.filename.empty() || attachment.content_type.rfind("text/html", 0) != 0) {
      continue;
    }
    std::string& html = attachment.data;
    if (const std::size_t body_tag = html.find("<body"); body_tag != std::string::npos) {
      if (const std::size_t open_end = html.find('>', body_tag); open_end != std::string::npos) {
        html.insert(open_end + 1, "\n" + request.headline_html);
      }
    }
    const std::size_t body_end = html.rfind("</body>");
    html.insert(body_end == std::string::npos ? html.size() : body_end, request.block_html);
  }
  mail->attachments.push_back(
      storage::Attachment{orders_file, "text/plain; charset=UTF-8", orders_template});
  return Status::Ok();
}

Status AskToMoveNext(const templates::MailTemplates& templates, templates::Language language,
                     const engine::Ruleset& ruleset, const engine::Scenario& scenario,
                     const engine::GameState& state, const storage::OpenTurn& next,
                     const std::optional<std::chrono::sys_seconds>& deadline,
                     storage::NewMail* mail) {
  OrdersTemplateInput input;
  input.ruleset = &ruleset;
  input.scenario = &scenario;
  input.state = &state;
  input.game_id = next.game_id;
  input.token = ReplyKey(next.dice_seed, next.game_id, next.turn, next.side);
  return AddMoveRequest(templates, language, deadline, OrdersTemplate(templates, language, input),
                        OrdersTemplateFileName(next.game_id, state.turn, state.side_to_move), mail);
}

}  // namespace pbem::daemon
