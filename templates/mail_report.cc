// The turn report of the results mail and the archive page (templates/mail_view.h): one line
// per event worth telling, by phase, combats with every step of their strengths and die, and
// the headline the mail opens with.
#include <map>

#include "templates/mail_view.h"

namespace pbem::templates::detail {

// The fields of a shot (bombardment or reaction fire).
void MailRenderer::ShotFields(const std::string& target, std::int64_t roll, std::int64_t modified,
                              std::int64_t bv, const std::string& shot, mst::data& f) const {
  f.set("target", words_.UnitById(target));
  f.set("roll", Num(roll));
  f.set("modified", Num(modified));
  f.set("is_modified", roll != modified);
  f.set("bv", Num(bv));
  f.set("result", words_.Word("shot", shot));
  f.set("hit", shot != "miss");
}

// One unit's strength in a combat, every step named: "Dragons (b-c1) 5 -> 7 (charge) -> 3
// (across a stream)".
std::string MailRenderer::StrengthText(const std::string& unit, const engine::payload::Strength& s,
                                       std::int64_t value) const {
  std::string out = unit + " " + Num(s.cs);
  std::int64_t prev = s.cs;
  const auto step = [&](std::int64_t v, const std::string& why) {
    if (v == prev) return;
    out += " \xe2\x86\x92 " + Num(v) + " (" + why + ")";
    prev = v;
  };
  step(s.after_charge, words_.Word("mod", "charge"));
  step(s.after_terrain, words_.Word("terrain", s.terrain));
  step(s.after_water, words_.Word("mod", "water_" + s.water));
  step(value, words_.Word("mod", "minimum"));
  return out;
}

// The die's modifiers by name: " +1 (higher ground) -1 (morale)".
std::string MailRenderer::DieText(const engine::payload::CombatSteps& c) const {
  std::string out;
  const auto mod = [&](std::int64_t v, const std::string& why) {
    if (v == 0) return;
    out += (v > 0 ? " +" : " \xe2\x88\x92") + Num(v > 0 ? v : -v) + " (" + why + ")";
  };
  mod(c.elevation, words_.Word("mod", c.elevation > 0 ? "higher" : "lower"));
  mod(c.morale, words_.Word("mod", "morale"));
  mod(c.terrain, words_.Word("terrain", c.terrain_name));
  return out;
}

// The combat line's fields: each side's strength with its supports first, then odds, die
// and its modifiers by name, result. `supports` are the kSupport events logged before it.
void MailRenderer::CombatFields(const engine::Event& e,
                                const std::vector<const engine::Event*>& supports,
                                mst::data& f) const {
  const engine::payload::Combat& c = *e.get<engine::payload::Combat>();
  f.set("target", words_.UnitById(c.defender));
  f.set("attack", Num(c.attack));
  f.set("defence", Num(c.defence));
  f.set("odds", c.odds);
  f.set("roll", Num(c.roll));
  f.set("die", Num(c.die));
  // Logs from before the steps were recorded (pbem-engine 1) show the totals alone.
  const bool detailed = c.steps.has_value();
  std::string attack =
      detailed ? StrengthText(e.unit ? words_.Unit(*e.unit) : "?", c.steps->attacker, c.attacker_cs)
               : Num(c.attack);
  std::string defence =
      detailed ? StrengthText(words_.UnitById(c.defender), c.steps->defender, c.defender_cs)
               : Num(c.defence);
  bool attack_sum = false;
  bool defence_sum = false;
  for (const engine::Event* s : supports) {
    const engine::payload::Support& support = *s->get<engine::payload::Support>();
    const bool offensive = support.role == "offensive";
    const std::string unit = s->unit ? words_.Unit(*s->unit) : "?";
    const std::string text = support.strength ? StrengthText(unit, *support.strength, support.cs)
                                              : unit + " " + Num(support.cs);
    (offensive ? attack : defence) += " + " + text;
    (offensive ? attack_sum : defence_sum) = true;
  }
  f.set("attack_detail", attack);
  f.set("defence_detail", defence);
  f.set("attack_sum", detailed && attack_sum);
  f.set("defence_sum", detailed && defence_sum);
  f.set("die_detail", detailed ? DieText(*c.steps) : std::string());
  const std::int64_t unclamped =
      detailed ? c.roll + c.steps->elevation + c.steps->morale + c.steps->terrain : c.die;
  f.set("is_modified", c.roll != c.die || unclamped != c.die);
  f.set("unclamped", Num(unclamped));
  f.set("clamped", unclamped != c.die);
  const std::string& cell = c.cell;  // "A/D", '*' = morale test
  f.set("result", cell);
  const auto slash = cell.find('/');
  std::string att = cell.substr(0, slash);
  std::string def = slash == std::string::npos ? std::string() : cell.substr(slash + 1);
  const bool att_test = !att.empty() && att.back() == '*';
  const bool def_test = !def.empty() && def.back() == '*';
  if (att_test) att.pop_back();
  if (def_test) def.pop_back();
  f.set("att_loss", att);
  f.set("def_loss", def);
  f.set("att_test", att_test);
  f.set("def_test", def_test);
}

void MailRenderer::CountHeadline(const engine::Event& e, Headline& h) const {
  if (!e.unit || scenario_ == nullptr || !e.unit->valid() ||
      e.unit->index() >= scenario_->units.size()) {
    return;
  }
  const std::size_t side = scenario_->unit(*e.unit).side == engine::Side::kBlue ? 0 : 1;
  if (const auto* loss = e.get<engine::payload::Loss>()) {
    h.mv_lost[side] += loss->mv_lost;
    h.cs_lost[side] += loss->cs_lost;
  } else if (e.kind() == engine::EventKind::kEliminated) {
    h.eliminated.push_back(words_.Unit(*e.unit));
  }
}

std::vector<mst::data> MailRenderer::HeadlineLines(const Headline& h) const {
  std::vector<std::string> texts;
  const bool losses = h.cs_lost[0] + h.cs_lost[1] + h.mv_lost[0] + h.mv_lost[1] > 0;
  if (losses) {
    mst::data f;
    const char* sides[] = {"blue", "orange"};
    for (std::size_t i = 0; i < 2; ++i) {
      mst::data l;
      l.set("cs", Num(h.cs_lost[i]));
      l.set("mv", Num(h.mv_lost[i]));
      l.set("has_cs", h.cs_lost[i] > 0);
      l.set("has_mv", h.mv_lost[i] > 0);
      l.set("both", h.cs_lost[i] > 0 && h.mv_lost[i] > 0);
      l.set("none", h.cs_lost[i] + h.mv_lost[i] == 0);
      MailRenderer plain(set_, scenario_, false, label_width_);
      f.set(sides[i], plain.Sentence(set_.events, "headline_side_loss", l));
    }
    texts.push_back(Sentence(set_.events, "headline_losses", f));
  }
  if (!h.eliminated.empty()) {
    std::string units;
    for (const std::string& u : h.eliminated) units += (units.empty() ? "" : ", ") + u;
    mst::data f;
    f.set("units", units);
    f.set("count", Num(static_cast<std::int64_t>(h.eliminated.size())));
    f.set("one", h.eliminated.size() == 1);
    texts.push_back(Sentence(set_.events, "headline_eliminated", f));
  }
  for (const std::string& o : h.objectives) texts.push_back(o);
  if (texts.empty()) texts.push_back(Sentence(set_.events, "headline_quiet", mst::data{}));
  std::vector<mst::data> lines;
  for (const std::string& t : texts) {
    mst::data line;
    line.set("text", t);
    lines.push_back(line);
  }
  return lines;
}

// One report line per event worth telling; moves are gathered into one line per unit.
mst::data MailRenderer::Report(const engine::TurnResult& result) const {
  // Lines by phase, told in the phases' order whatever the log's order: the command check
  // is logged first but halves movement, so its lines open the movement phase.
  std::map<engine::Phase, std::vector<mst::data>> by_phase;
  std::vector<mst::data> rally;
  std::vector<const engine::Event*> pending_supports;  // waiting for their combat
  Headline headline;
  const std::vector<engine::Event>& ev = result.events;
  for (std::size_t i = 0; i < ev.size(); ++i) {
    const engine::Event& e = ev[i];
    std::string key;
    mst::data f;
    if (e.unit) f.set("unit", words_.Unit(*e.unit));
    const auto hex = [&](std::size_t k) {
      return k < e.hexes.size() ? words_.Hex(e.hexes[k]) : std::string();
    };
    f.set("hex", hex(0));
    f.set("has_hex", !e.hexes.empty());
    f.set("from", hex(0));
    f.set("to", hex(1));
    using K = engine::EventKind;
    namespace payload = engine::payload;
    switch (e.kind()) {
      case K::kPlace:
        key = "place";
        break;
      case K::kCommandCheck:
        if (e.get<payload::CommandCheck>()->status == "out_of_command") key = "out_of_command";
        break;
      case K::kBombard: {
        const payload::Bombard& b = *e.get<payload::Bombard>();
        key = "bombard";
        ShotFields(b.target, b.roll, b.modified, b.bv, b.result, f);
        break;
      }
      case K::kMoveStep: {
        // Gather this unit's consecutive steps into one line.
        if (e.hexes.empty()) break;
        key = "move";
        std::vector<std::string> path;
        const engine::Hex start = e.hexes.size() >= 2 ? e.hexes[0] : e.hexes.front();
        std::size_t j = i;
        std::int64_t left = 0;
        while (j < ev.size() && ev[j].kind() == K::kMoveStep && ev[j].unit == e.unit) {
          path.push_back(words_.Hex(ev[j].hexes.back()));
          left = ev[j].get<payload::MoveStep>()->points_left;
          ++j;
        }
        i = j - 1;
        std::string joined;
        for (const std::string& p : path) joined += (joined.empty() ? "" : " ") + p;
        f.set("from", words_.Hex(start));
        f.set("to", path.back());
        f.set("path", joined);
        f.set("steps", Num(static_cast<std::int64_t>(path.size())));
        f.set("points_left", Num(left));
        f.set("one_left", left == 1);
        f.set("none_left", left == 0);
        f.set("many_left", left > 1);
        break;
      }
      case K::kMoveEnd: {
        const std::string& code = e.get<payload::MoveEnd>()->reason;
        const auto reason = engine::ParseReasonCode(code);
        if (reason && *reason != engine::Reason::kNone) {
          key = "move_stopped";
          std::vector<engine::Arg> args;
          for (const engine::Hex h : e.hexes) args.emplace_back(h);
          // The sentence goes into another sentence: render it plain, the outer one escapes.
          MailRenderer plain(set_, scenario_, false);
          f.set("reason", plain.Reason(*reason, args));
        }
        break;
      }
      case K::kStuck:
        key = "stuck";
        f.set("roll", Num(e.get<payload::Stuck>()->roll));
        f.set("chance", Num(e.get<payload::Stuck>()->chance));
        break;
      case K::kCharge:
        key = "charge";
        f.set("target", words_.UnitById(e.get<payload::Charge>()->target));
        break;
      case K::kMoraleTest: {
        const payload::MoraleTest& t = *e.get<payload::MoraleTest>();
        key = "morale_test";
        f.set("roll", Num(t.roll));
        f.set("modified", Num(t.modified));
        f.set("is_modified", t.roll != t.modified);
        f.set("needed", Num(t.needed));
        f.set("passed", t.result == "passed");
        f.set("cause", words_.Word("cause", t.cause));
        break;
      }
      case K::kRetreat:
        key = "retreat";
        f.set("cause", words_.Word("cause", e.get<payload::Retreat>()->cause));
        break;
      case K::kReactionFire: {
        const payload::ReactionFire& r = *e.get<payload::ReactionFire>();
        key = "reaction_fire";
        ShotFields(r.target, r.roll, r.modified, r.bv, r.result, f);
        break;
      }
      case K::kSupport:
        // Told within the combat it belongs to (CombatFields); alone only when no combat
        // follows (a log cut short).
        pending_supports.push_back(&e);
        continue;
      case K::kCombat:
        key = "combat";
        CombatFields(e, pending_supports, f);
        pending_supports.clear();
        break;
      case K::kLoss: {
        key = "loss";
        const payload::Loss& loss = *e.get<payload::Loss>();
        const std::int64_t mv = loss.mv_lost;
        const std::int64_t cs = loss.cs_lost;
        f.set("mv_lost", Num(mv));
        f.set("cs_lost", Num(cs));
        f.set("has_mv", mv > 0);
        f.set("has_cs", cs > 0);
        f.set("both", mv > 0 && cs > 0);
        f.set("cause", words_.Word("cause", loss.cause));
        break;
      }
      case K::kEliminated:
        key = "eliminated";
        f.set("cause", words_.Word("cause", e.get<payload::Eliminated>()->cause));
        break;
      case K::kAdvance:
        key = "advance";
        break;
      case K::kMoraleGained:
        key = "morale_gained";
        f.set("points", Num(e.get<payload::MoraleGained>()->points));
        break;
      case K::kRally:
        if (const payload::Rally& rallied = *e.get<payload::Rally>(); rallied.gain > 0) {
          mst::data r = f;
          r.set("gain", Num(rallied.gain));
          r.set("mv", Num(rallied.mv));
          r.set("conditions", words_.Word("rally", rallied.conditions));
          mst::data line;
          line.set("text", Sentence(set_.events, "rally", r));
          rally.push_back(line);
        }
        break;
      case K::kObjectiveTaken:
        key = "objective_taken";
        f.set("objective", e.get<payload::ObjectiveTaken>()->objective);
        f.set("side", words_.Word("side", e.get<payload::ObjectiveTaken>()->side));
        break;
      case K::kFortTaken:
        key = "fort_taken";
        f.set("side", words_.Word("side", e.get<payload::FortTaken>()->side));
        break;
      case K::kVictoryPoints: {
        const payload::VictoryPoints& vp = *e.get<payload::VictoryPoints>();
        key = vp.source == "strength" && e.hexes.empty() ? "strength_points" : "victory_points";
        f.set("objective", vp.source);
        f.set("holder", words_.Word("side", vp.holder));
        f.set("held", vp.holder != "none" && !vp.holder.empty());
        f.set("points", Num(vp.points));
        f.set("lost_blue", vp.lost ? vp.lost->blue : std::string());
        f.set("lost_orange", vp.lost ? vp.lost->orange : std::string());
        break;
      }
      case K::kGameEnd: {
        key = "game_end";
        const payload::GameEnd& end = *e.get<payload::GameEnd>();
        f.set("draw", end.winner == "draw");
        f.set("winner", words_.Word("side", end.winner));
        f.set("level", words_.Word("level", end.level));
        f.set("vp_blue", Num(end.vp_blue));
        f.set("vp_orange", Num(end.vp_orange));
        break;
      }
      case K::kDie:      // every roll is told with what it decided
      case K::kTurnEnd:  // in the mail's header
        break;
    }
    CountHeadline(e, headline);
    if (key.empty()) continue;
    if (key == "objective_taken" || key == "fort_taken") {
      f.set("held", true);
      headline.objectives.push_back(Sentence(set_.events, "headline_objective", f));
    }
    mst::data line;
    line.set("text", Sentence(set_.events, key, f));
    const engine::Phase phase =
        e.kind() == engine::EventKind::kCommandCheck ? engine::Phase::kMovement : e.phase;
    by_phase[phase].push_back(line);
  }
  for (const engine::Event* s : pending_supports) {
    mst::data f;
    f.set("unit", s->unit ? words_.Unit(*s->unit) : std::string("?"));
    f.set("hex", s->hexes.empty() ? std::string() : words_.Hex(s->hexes.front()));
    f.set("offensive", s->get<engine::payload::Support>()->role == "offensive");
    f.set("value", Num(s->get<engine::payload::Support>()->cs));
    mst::data line;
    line.set("text", Sentence(set_.events, "support", f));
    by_phase[engine::Phase::kCombat].push_back(line);
  }
  std::vector<mst::data> phases;
  for (const auto& [phase, lines] : by_phase) {
    mst::data p;
    p.set("phase", words_.Word("phase", engine::PhaseName(phase)));
    p.set("lines", ListOf(lines));
    phases.push_back(p);
  }
  mst::data report;
  report.set("phases", ListOf(phases));
  report.set("has_events", !phases.empty());
  report.set("headline", ListOf(HeadlineLines(headline)));
  report.set("rally", ListOf(rally));
  report.set("has_rally", !rally.empty());
  return report;
}

}  // namespace pbem::templates::detail
