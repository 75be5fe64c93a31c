#include <algorithm>
#include <set>

#include "daemon/cli/scenario_parts.h"
#include "engine/hex/hex.h"
#include "engine/hex/line.h"

namespace pbem::cli::scenario {
namespace {

// Expectations a kind of case cannot check are mistakes, not silently
// ignored statements: a case must be able to fail on everything it states.
std::vector<std::string> InapplicableExpectations(const v1::ScenarioCase& sc) {
  std::set<std::string> allowed;
  std::string kind;
  switch (sc.kind_case()) {
    case v1::ScenarioCase::kHex:
      allowed = {"result"};
      kind = "hex";
      break;
    case v1::ScenarioCase::kRulesetLoad:
      allowed = {"ok", "errors"};
      kind = "ruleset_load";
      break;
    case v1::ScenarioCase::kTurn:
      allowed = {"verdicts", "events", "units", "verdict_count"};
      kind = "turn";
      break;
    case v1::ScenarioCase::KIND_NOT_SET:
      return {};
  }
  std::vector<std::string> out;
  for (const gpb::FieldDescriptor* f : SetFields(sc.expect(), allowed)) {
    out.push_back("expect." + f->name() + ": not checked by " + kind + " cases");
  }
  if (!sc.ruleset().empty() && sc.kind_case() != v1::ScenarioCase::kTurn) {
    out.push_back("ruleset: only turn cases use it (ruleset_load names its own dir or files)");
  }
  if (sc.has_parameters() && sc.kind_case() != v1::ScenarioCase::kTurn) {
    out.push_back("parameters: only turn cases use it");
  }
  if (sc.kind_case() == v1::ScenarioCase::kTurn && sc.turn().mode() == v1::TURN_MODE_CHECK &&
      sc.turn().dice_size() > 0) {
    out.push_back("turn.dice: checking orders rolls no dice (TURN_MODE_RESOLVE uses them)");
  }
  return out;
}

// ---- Hex cases ----------------------------------------------------------------

class HexRunner {
 public:
  explicit HexRunner(const v1::HexCase& hc) : hc_(hc) {}

  // The result line, or nullopt with errors().
  std::optional<std::string> Run() {
    if ((hc_.width() > 0) != (hc_.height() > 0) || hc_.width() < 0 || hc_.height() < 0) {
      return Error("hex.width and hex.height are both positive or both 0");
    }
    for (const std::string& label : hc_.hexes()) {
      width_ = std::max<int>(width_, static_cast<int>(label.size() / 2));
    }
    for (const std::string& side : hc_.sides()) {
      if (const std::size_t colon = side.find(':'); colon != std::string::npos) {
        width_ = std::max<int>(width_, static_cast<int>(colon / 2));
      }
    }
    if (hc_.width() > 0) {
      width_ = std::max<int>(
          width_, static_cast<int>(std::to_string(std::max(hc_.width(), hc_.height())).size()));
    }
    switch (hc_.op()) {
      case v1::HEX_OP_DISTANCE: {
        const auto a = HexArg(0), b = HexArg(1);
        if (!a || !b) return std::nullopt;
        return std::to_string(engine::Distance(*a, *b));
      }
      case v1::HEX_OP_NEIGHBORS: {
        const auto a = HexArg(0);
        if (!a) return std::nullopt;
        std::string out;
        for (const engine::Hex& n : engine::Neighbors(*a)) {
          if (!out.empty()) out += ' ';
          out += OnMap(n) ? Label(n) : "-";
        }
        return out;
      }
      case v1::HEX_OP_LINE: {
        const auto a = HexArg(0), b = HexArg(1);
        if (!a || !b) return std::nullopt;
        std::string out;
        for (const engine::LineItem& item : engine::TraceLine(*a, *b).items) {
          if (!out.empty()) out += ' ';
          if (item.kind == engine::LineItem::Kind::kHex) {
            out += Label(item.hex);
          } else {
            const auto [x, y] = engine::Sides(item.side);
            out += Label(x) + "|" + Label(y);
          }
        }
        return out;
      }
      case v1::HEX_OP_DIRECTION: {
        const auto a = HexArg(0), b = HexArg(1);
        if (!a || !b) return std::nullopt;
        const auto dir = engine::DirectionTo(*a, *b);
        return dir ? std::string(engine::DirectionName(*dir)) : std::string("none");
      }
      case v1::HEX_OP_AXIAL: {
        const auto a = HexArg(0);
        if (!a) return std::nullopt;
        return std::to_string(a->q) + "," + std::to_string(a->r) + " " + Label(*a);
      }
      case v1::HEX_OP_SIDE: {
        if (hc_.sides_size() < 1) return Error("hex.sides[0] is missing");
        const std::string& text = hc_.sides(0);
        const std::size_t colon = text.find(':');
        const auto hex = colon == std::string::npos
                             ? std::nullopt
                             : engine::ParseLabel(std::string_view(text).substr(0, colon));
        const auto dir = colon == std::string::npos
                             ? std::nullopt
                             : engine::ParseDirection(std::string_view(text).substr(colon + 1));
        if (!hex || !dir) return Error("hex.sides[0]: not a side \"CCRR:DIR\": " + Quote(text));
        const engine::Hexside side = engine::SideOf(*hex, *dir);
        const auto [x, y] = engine::Sides(side);
        return Label(side.hex) + ":" + std::string(engine::DirectionName(side.dir)) + " " +
               Label(x) + " " + Label(y);
      }
      default:
        return Error("hex.op is not set");
    }
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::optional<std::string> Error(std::string message) {
    errors_.push_back(std::move(message));
    return std::nullopt;
  }

  std::optional<engine::Hex> HexArg(int i) {
    if (hc_.hexes_size() <= i) {
      Error("hex.hexes[" + std::to_string(i) + "] is missing");
      return std::nullopt;
    }
    const auto hex = engine::ParseLabel(hc_.hexes(i));
    if (!hex) Error("hex.hexes[" + std::to_string(i) + "]: bad label " + Quote(hc_.hexes(i)));
    return hex;
  }

  bool OnMap(engine::Hex hex) const {
    const engine::Offset o = engine::ToOffset(hex);
    if (o.col < 0 || o.row < 0) return false;  // such a hex has no label
    if (hc_.width() == 0) return true;
    return o.col < hc_.width() && o.row < hc_.height();
  }

  std::string Label(engine::Hex hex) const { return engine::FormatLabel(hex, width_); }

  const v1::HexCase& hc_;
  int width_ = 2;
  std::vector<std::string> errors_;
};

CaseOutcome RunHexCase(const v1::ScenarioCase& sc) {
  CaseOutcome outcome;
  HexRunner runner(sc.hex());
  const std::optional<std::string> result = runner.Run();
  if (!result) {
    outcome.errors = runner.errors();
    return outcome;
  }
  v1::Expect actual;
  actual.set_result(*result);
  const v1::Expect& expect = sc.expect();
  if (expect.has_result() && expect.result() != *result) {
    outcome.mismatches.push_back(Mismatch("expect.result", Quote(expect.result()), Quote(*result)));
  }
  if (!expect.has_result()) outcome.mismatches.push_back("expect.result: not set");
  outcome.actual = std::move(actual);
  return outcome;
}

// ---- Ruleset loading cases --------------------------------------------------

// Compares expect.ok and expect.errors (substrings, in order) with `actual`.
void CompareLoad(const v1::Expect& expect, const v1::Expect& actual, CaseOutcome& outcome) {
  bool show_errors = false;
  if (expect.has_ok() && expect.ok() != actual.ok()) {
    outcome.mismatches.push_back(Mismatch("expect.ok", Quote(expect.ok() ? "true" : "false"),
                                          Quote(actual.ok() ? "true" : "false")));
    show_errors = !actual.ok();
  }
  int next = 0;  // an error may hold several expected substrings
  for (int i = 0; i < expect.errors_size(); ++i) {
    int found = -1;
    for (int j = next; j < actual.errors_size(); ++j) {
      if (actual.errors(j).find(expect.errors(i)) != std::string::npos) {
        found = j;
        break;
      }
    }
    if (found < 0) {
      outcome.mismatches.push_back(
          Mismatch("expect.errors[" + std::to_string(i) + "]",
                   "an error containing " + Quote(expect.errors(i)) +
                       (i > 0 ? " (at or after the previous one)" : ""),
                   actual.errors_size() == 0 ? "no error" : "none of the errors below"));
      show_errors = true;
    } else {
      next = found;
    }
  }
  if (show_errors) {
    for (const std::string& e : actual.errors()) outcome.mismatches.push_back("  | " + e);
  }
}

CaseOutcome RunRulesetLoadCase(const v1::ScenarioCase& sc, const fs::path& root) {
  CaseOutcome outcome;
  const v1::RulesetLoadCase& rc = sc.ruleset_load();
  if (rc.dir().empty() == (rc.files_size() == 0)) {
    outcome.errors.push_back("ruleset_load: give either dir or files");
    return outcome;
  }
  std::optional<codec::Result<codec::LoadedRuleset>> ruleset;
  if (!rc.dir().empty()) {
    ruleset.emplace(codec::LoadRulesetDir(root / rc.dir()));
  } else {
    std::vector<codec::NamedText> files;
    for (const v1::InlineFile& f : rc.files()) files.push_back({f.name(), f.content()});
    ruleset.emplace(codec::LoadRulesetFiles(files));
  }
  v1::Expect actual;
  if (!ruleset->ok()) {
    actual.set_ok(false);
    for (std::string& e : ErrorStrings(ruleset->errors())) actual.add_errors(std::move(e));
  } else if (!rc.scenario_text().empty()) {
    const auto scenario =
        codec::LoadScenarioText(rc.scenario_text(), "scenario_text", ruleset->value().ruleset);
    actual.set_ok(scenario.ok());
    if (!scenario.ok()) {
      for (std::string& e : ErrorStrings(scenario.errors())) actual.add_errors(std::move(e));
    }
  } else {
    actual.set_ok(true);
  }
  const v1::Expect& expect = sc.expect();
  if (!expect.has_ok() && expect.errors_size() == 0) {
    outcome.mismatches.push_back("expect.ok: not set");
  }
  CompareLoad(expect, actual, outcome);
  outcome.actual = std::move(actual);
  return outcome;
}

}  // namespace

CaseOutcome RunCase(const fs::path& file, const std::string& shown, const fs::path& root,
                    RulesetCache& rulesets) {
  CaseOutcome outcome;
  const codec::Result<std::string> bytes = codec::ReadFile(file);
  if (!bytes.ok()) {
    outcome.errors = ErrorStrings(bytes.errors());
    return outcome;
  }
  v1::ScenarioCase sc;
  const auto parsed = codec::ParseMessage(bytes.value(), codec::Format::kText, shown, sc);
  if (!parsed.ok()) {
    outcome.errors = ErrorStrings(parsed.errors());
    return outcome;
  }
  if (sc.title().empty()) outcome.errors.push_back("title: not set");
  if (sc.rule().empty()) outcome.errors.push_back("rule: not set (digest section and tag)");
  for (std::string& e : InapplicableExpectations(sc)) outcome.errors.push_back(std::move(e));
  if (!outcome.errors.empty()) return outcome;
  switch (sc.kind_case()) {
    case v1::ScenarioCase::kHex:
      return RunHexCase(sc);
    case v1::ScenarioCase::kRulesetLoad:
      return RunRulesetLoadCase(sc, root);
    case v1::ScenarioCase::kTurn:
      return RunTurnCase(sc, root, shown, rulesets);
    case v1::ScenarioCase::KIND_NOT_SET:
      break;
  }
  outcome.errors.push_back("the case has no kind: hex, ruleset_load or turn");
  return outcome;
}

}  // namespace pbem::cli::scenario
