#include "daemon/welcome_mail.h"

#include <fstream>
#include <sstream>

#include "daemon/orders_template.h"
#include "daemon/player_mail.h"
#include "engine/morne_plaine/ids.h"

namespace pbem::daemon {
namespace {

// The rules file of `language`, in the ruleset's directory; empty when it cannot be read.
std::string ReadRules(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string();
  std::ostringstream text;
  text << in.rdbuf();
  return in.bad() ? std::string() : text.str();
}

}  // namespace

Result<std::vector<storage::NewMail>> WelcomeMails(const templates::MailTemplates& templates,
                                                   const WelcomeContext& context,
                                                   const std::vector<storage::NewPlayer>& players,
                                                   storage::Timestamp now) {
  const engine::Scenario& scenario = context.data->scenario;
  const engine::GameState initial = engine::InitialState(scenario, context.game_id);
  std::vector<storage::NewMail> mails;
  for (const storage::NewPlayer& player : players) {
    const templates::Language language =
        templates::ParseLanguage(player.language).value_or(templates::Language::kEnglish);
    const std::optional<engine::Side> side = engine::ParseSide(player.side);
    if (!side) return Status::InvalidArgument("welcome mail: no side " + player.side);
    templates::WelcomeInput input;
    input.game_id = context.game_id;
    input.scenario_title = scenario.title.empty() ? scenario.name : scenario.title;
    input.turns = scenario.turns;
    input.player = player.mail_address;
    input.player_name = player.name;
    input.side = player.side;
    for (const storage::NewPlayer& other : players) {
      if (&other == &player) continue;
      if (const std::optional<engine::Side> other_side = engine::ParseSide(other.side)) {
        input.others.push_back(
            {std::string(engine::SideName(*other_side)), other.mail_address, other.name});
      }
    }
    input.first_side = std::string(engine::SideName(initial.side_to_move));
    input.deadline = context.deadline;
    input.token = player.token;
    input.reply_to = context.reply_to;
    const std::string rules_name =
        language == templates::Language::kFrench ? "REGLES.md" : "RULES.md";
    input.rules_path = "engine/rulesets/" + scenario.ruleset + "/" + rules_name;
    const std::string rules = ReadRules(context.rulesets_dir / scenario.ruleset / rules_name);
    if (!rules.empty()) input.rules_file = rules_name;
    if (*side == initial.side_to_move) {
      OrdersTemplateInput orders;
      orders.ruleset = &context.data->ruleset;
      orders.scenario = &scenario;
      orders.state = &initial;
      orders.game_id = context.game_id;
      orders.token = player.token;
      input.orders_template = OrdersTemplate(templates, language, orders);
      input.orders_file = OrdersTemplateFileName(context.game_id, initial.turn, *side);
    }
    templates::Mail rendered;
    if (templates::Status made = templates.RenderWelcome(language, input, &rendered); !made.ok) {
      return Status::Internal("the welcome mail of side " + player.side + " of game " +
                              context.game_id + ": " + made.message);
    }
    storage::NewMail mail = NewMailOf(player.mail_address, rendered, now);
    if (!input.orders_template.empty()) {
      mail.attachments.push_back(storage::Attachment{input.orders_file, "text/plain; charset=UTF-8",
                                                     input.orders_template});
    }
    if (!rules.empty()) {
      mail.attachments.push_back(
          storage::Attachment{rules_name, "text/markdown; charset=UTF-8", rules});
    }
    mails.push_back(std::move(mail));
  }
  return mails;
}

}  // namespace pbem::daemon
