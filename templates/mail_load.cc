// The mail templates loaded and checked (templates/mail_render.h, MailTemplates::Load): the
// languages and mail kinds, the files every language must have, the sentence tables.
#include <cctype>
#include <utility>

#include "engine/system/registry.h"
#include "templates/french_typography.h"
#include "templates/mail_render.h"
#include "templates/mail_view.h"
#include "templates/sentence_table.h"

namespace pbem::templates {

namespace mst = kainjow::mustache;

using detail::kPartialFiles;

namespace {

// Every mail kind has KIND.subject, KIND.txt and KIND.html.
std::vector<std::string> MailKinds() {
  std::vector<std::string> kinds{"results", "system_results", "receipt", "reminder", "welcome"};
  for (const ErrorKind k : kAllErrorKinds)
    kinds.push_back("error_" + std::string(ErrorKindName(k)));
  return kinds;
}

// The mails with a text body only (KIND.subject, KIND.txt): the mail commands' replies, the
// notice of a turn the referee could not resolve (turn_stuck), and the paragraph of one game
// in a status reply (command_game.txt).
constexpr std::array<std::string_view, 5> kTextMailKinds{
    "command_status", "command_games", "command_archive", "command_help", "turn_stuck"};

// The event sentences the report uses; Load refuses a table without one of them.
constexpr std::array<std::string_view, 31> kEventKeys{"place",
                                                      "out_of_command",
                                                      "bombard",
                                                      "move",
                                                      "move_stopped",
                                                      "stuck",
                                                      "charge",
                                                      "morale_test",
                                                      "retreat",
                                                      "reaction_fire",
                                                      "support",
                                                      "combat",
                                                      "loss",
                                                      "eliminated",
                                                      "advance",
                                                      "morale_gained",
                                                      "rally",
                                                      "objective_taken",
                                                      "fort_taken",
                                                      "victory_points",
                                                      "strength_points",
                                                      "game_end",
                                                      "objective_held",
                                                      "verdict",
                                                      "headline_losses",
                                                      "headline_side_loss",
                                                      "headline_eliminated",
                                                      "headline_objective",
                                                      "headline_quiet",
                                                      "date",
                                                      "system_verdict"};

// Words every language must define (others fall back to the code itself).
constexpr std::array<std::string_view, 20> kRequiredWords{
    "side.blue",       "side.orange",     "side.red",          "side.none",
    "level.draw",      "level.minor",     "level.tactical",    "level.major",
    "level.total",     "verdict.ok",      "verdict.invalid",   "verdict.illegal",
    "verdict.partial", "order.placement", "order.bombardment", "order.move",
    "order.attack",    "order.header",    "phase.bombardment", "phase.movement"};

// The system whose words are MailTemplates' own (reasons.table, events.table): no SystemWords.
constexpr std::string_view kMornePlaine = "morne-plaine";

}  // namespace

std::string_view LanguageCode(Language language) {
  return language == Language::kFrench ? "fr" : "en";
}

std::optional<Language> ParseLanguage(std::string_view text) {
  std::string lower;
  for (const char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "en" || lower == "english") return Language::kEnglish;
  if (lower == "fr" || lower == "french" || lower == "francais" ||
      lower ==
          "fran\xc3\xa7"
          "ais") {
    return Language::kFrench;
  }
  return std::nullopt;
}

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kMalformed:
      return "malformed";
    case ErrorKind::kIllegal:
      return "illegal";
    case ErrorKind::kUnauthenticated:
      return "unauthenticated";
    case ErrorKind::kWrongGame:
      return "wrong_game";
    case ErrorKind::kStaleTurn:
      return "stale_turn";
    case ErrorKind::kOversized:
      return "oversized";
    case ErrorKind::kDuplicate:
      return "duplicate";
    case ErrorKind::kUnavailable:
      return "unavailable";
  }
  return "?";
}

std::filesystem::path DefaultMailTemplateDir(const std::filesystem::path& data_dir) {
  return data_dir / "templates" / "mail";
}

Status MailTemplates::Load(const std::filesystem::path& dir, MailTemplates* out) {
  MailTemplates loaded;
  const game_system::Registry registry = game_system::BuiltinRegistry();
  for (const Language language : kAllLanguages) {
    LanguageSet& set = loaded.sets_[static_cast<std::size_t>(language)];
    const std::filesystem::path lang_dir = dir / LanguageCode(language);
    std::vector<std::string> names;
    for (const std::string& kind : MailKinds()) {
      for (const char* ext : {".subject", ".txt", ".html"}) names.push_back(kind + ext);
    }
    for (const std::string_view p : kPartialFiles) names.emplace_back(p);
    for (const std::string_view kind : kTextMailKinds) {
      names.push_back(std::string(kind) + ".subject");
      names.push_back(std::string(kind) + ".txt");
    }
    names.emplace_back("command_game.txt");
    for (const std::string& name : names) {
      std::string text;
      if (Status s = ReadTemplateFile(lang_dir / name, &text); !s.ok) return s;
      mst::mustache check(text);
      if (!check.is_valid()) {
        return Status::Error((lang_dir / name).string() + ": " + check.error_message());
      }
      if (language == Language::kFrench) {
        if (Status s = CheckFrenchSpacing(lang_dir / name, text); !s.ok) return s;
      }
      set.files.emplace(name, std::move(text));
    }
    const std::pair<const char*, SentenceTable*> tables[] = {{"reasons.table", &set.reasons},
                                                             {"events.table", &set.events},
                                                             {"words.table", &set.words}};
    for (const auto& [name, table] : tables) {
      std::string text;
      if (Status s = ReadTemplateFile(lang_dir / name, &text); !s.ok) return s;
      if (language == Language::kFrench) {
        if (Status s = CheckFrenchSpacing(lang_dir / name, text); !s.ok) return s;
      }
      if (Status s = ParseSentenceTable(lang_dir / name, text, table); !s.ok) return s;
    }
    // Every reason code of the engine must be worded (the names table is the wire format).
    for (std::uint16_t r = 0;; ++r) {
      const std::string_view code = engine::ReasonCode(static_cast<engine::Reason>(r));
      if (code == "unknown_reason") break;
      if (set.reasons.find(code) == set.reasons.end()) {
        return Status::Error((lang_dir / "reasons.table").string() + ": no sentence for '" +
                             std::string(code) + "'");
      }
    }
    for (const std::string_view key : kEventKeys) {
      if (set.events.find(key) == set.events.end()) {
        return Status::Error((lang_dir / "events.table").string() + ": no sentence for '" +
                             std::string(key) + "'");
      }
    }
    for (const std::string_view key : kRequiredWords) {
      if (set.words.find(key) == set.words.end()) {
        return Status::Error((lang_dir / "words.table").string() + ": no word for '" +
                             std::string(key) + "'");
      }
    }
    // Every other system's words (systems/<system>/, units.table): SystemWords::Load names the
    // file that is missing or wrong.
    for (const std::string& name : registry.Names()) {
      if (name == kMornePlaine) continue;
      const game_system::Result<const game_system::GameSystem*> system = registry.Find(name);
      if (!system.ok()) return Status::Error("game system '" + name + "' is not registered");
      SystemWords words;
      if (Status s = SystemWords::Load(dir, LanguageCode(language), **system, &words); !s.ok) {
        return s;
      }
      set.systems.emplace(name, std::move(words));
    }
  }
  *out = std::move(loaded);
  return Status::Ok();
}

const MailTemplates::LanguageSet& MailTemplates::Set(Language language) const {
  return sets_[static_cast<std::size_t>(language)];
}

bool MailTemplates::HasReasonSentence(Language language, std::string_view code) const {
  return Set(language).reasons.find(code) != Set(language).reasons.end();
}

const SystemWords* MailTemplates::SystemWordsOf(Language language, std::string_view system) const {
  const auto it = Set(language).systems.find(system);
  return it == Set(language).systems.end() ? nullptr : &it->second;
}

}  // namespace pbem::templates
