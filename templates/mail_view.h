// Internal to pbem_mail: the view models of the mails (templates/mail_render.h), shared by the
// files of the renderer:
//   mail_render.cc  the MailTemplates::Render* entry points and the partials
//   mail_load.cc    the template files and tables loaded and checked, languages and kinds
//   mail_view.cc    rendering and tidying, Words, the verdicts, dates, objectives and the
//                   results mail's fields
//   mail_report.cc  the turn report: one line per event, combats in detail, the headline
// Not for users of mail_render.h.
#ifndef PBEM_TEMPLATES_MAIL_VIEW_H_
#define PBEM_TEMPLATES_MAIL_VIEW_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <kainjow/mustache.hpp>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "templates/mail_render.h"
#include "templates/mail_text.h"

namespace pbem::templates::detail {

namespace mst = kainjow::mustache;

// Partials shared by the mails, and the tables.
inline constexpr std::array<std::string_view, 8> kPartialFiles{
    "report.txt",    "report.html",    "verdicts.txt",     "verdicts.html",
    "your_move.txt", "your_move.html", "orders_block.txt", "orders_block.html"};

// mail_view.cc
Status Render(const std::string& text, const mst::data& data, bool html, std::string* out,
              std::string_view what);
inline std::string Num(std::int64_t n) { return std::to_string(n); }
// A game system's verdicts as the verdicts partial lists them ({{{text}}}): one line each by
// events.table "system_verdict" ("Order 2 (b_sq1): refused: <the reason in words>"), the reason
// worded by `words`, escaped for HTML when `html`; only those not ok when `only_problems`
// (numbered by their place in the orders all the same). An error names the order whose reason
// has no sentence (templates/mail_system_results.cc).
Status SystemVerdictList(const MailTemplates::LanguageSet& set, const SystemWords& words,
                         const std::vector<game_system::Verdict>& verdicts, bool html,
                         bool only_problems, mst::data* out);
std::string TidyText(const std::string& text);
int LabelWidthOf(const engine::Scenario* scenario);
std::string FormatArgText(const engine::Arg& arg, int width);
mst::data ListOf(const std::vector<mst::data>& items);

// How the rendering of one mail sees the world: language tables, label width, unit names.
// Defined in mail_view.cc.
class Words {
 public:
  // `label_width` 0: the scenario's own (LabelWidthOf).
  Words(const std::map<std::string, std::string, std::less<>>& words,
        const engine::Scenario* scenario, int label_width = 0)
      : words_(words),
        scenario_(scenario),
        width_(label_width > 0 ? label_width : LabelWidthOf(scenario)) {}

  bool HasWord(std::string_view group, std::string_view code) const;
  std::string ReasonArg(const engine::Arg& arg) const;
  std::string Word(std::string_view group, std::string_view code) const;
  std::string Side(std::string_view side) const;  // the word of a side id ("blue")
  std::string Hex(engine::Hex hex) const;
  std::string Arg(const engine::Arg& arg) const;
  std::string UnitById(const std::string& id) const;
  std::string Unit(engine::UnitId id) const;
  int width() const { return width_; }

 private:
  const std::map<std::string, std::string, std::less<>>& words_;
  const engine::Scenario* scenario_;
  int width_;
};

// Builds the mustache view models of the mails. One instance renders one mail in one format.
class MailRenderer {
 public:
  MailRenderer(const MailTemplates::LanguageSet& set, const engine::Scenario* scenario, bool html,
               int label_width = 0)
      : set_(set),
        words_(set.words, scenario, label_width),
        scenario_(scenario),
        html_(html),
        label_width_(label_width) {}

  // mail_view.cc
  std::string Sentence(const std::map<std::string, std::string, std::less<>>& table,
                       std::string_view key, const mst::data& fields) const;
  std::string Reason(engine::Reason reason, const std::vector<engine::Arg>& args) const;
  std::string VerdictLine(const engine::OrderVerdict& v) const;
  mst::data Verdict(const engine::OrderVerdict& v) const;
  mst::data Verdicts(const std::vector<engine::OrderVerdict>& verdicts, bool only_problems) const;
  std::string Date(std::chrono::sys_seconds t) const;
  mst::data Objectives(const engine::GameState& state) const;
  mst::data ResultsData(const ResultsInput& in) const;

  // mail_report.cc
  void ShotFields(const std::string& target, std::int64_t roll, std::int64_t modified,
                  std::int64_t bv, const std::string& shot, mst::data& f) const;
  std::string StrengthText(const std::string& unit, const engine::payload::Strength& s,
                           std::int64_t value) const;
  std::string DieText(const engine::payload::CombatSteps& c) const;
  void CombatFields(const engine::Event& e, const std::vector<const engine::Event*>& supports,
                    mst::data& f) const;

  // What the results mail opens with: losses per side, units eliminated, objectives taken.
  struct Headline {
    std::array<std::int64_t, 2> cs_lost{0, 0};  // blue, orange
    std::array<std::int64_t, 2> mv_lost{0, 0};
    std::vector<std::string> eliminated;
    std::vector<std::string> objectives;  // rendered headline_objective sentences
  };

  void CountHeadline(const engine::Event& e, Headline& h) const;
  std::vector<mst::data> HeadlineLines(const Headline& h) const;
  mst::data Report(const engine::TurnResult& result) const;

  const MailTemplates::LanguageSet& set_;
  Words words_;
  const engine::Scenario* scenario_;
  bool html_;
  int label_width_;
};

}  // namespace pbem::templates::detail

#endif  // PBEM_TEMPLATES_MAIL_VIEW_H_
