// Supported charges on random layouts (§5.4 step 9; layouts.h, fixed seed): a target line T
// facing a charger C 8-20 cm away in a random direction, C facing T (so that no charger base
// turns about its centre, which the supporter right behind would block: README), and an
// infantry supporter S of 1-4 bases right behind C (same heading, its front edge on C's rear
// edge line, shifted sideways by a whole number of cm, so that it is sometimes behind C and
// sometimes not). Whenever the charge is carried out:
// - with the supporter (event supporting_charge): no two bases overlap (WME-P02), S is on the
//   table, in one regular formation (WME-R63: in line), touches no enemy, has a base whose
//   front edge touches a charger base's rear edge at the same heading (WME-P16), and no S base
//   travelled more than the full speed (+ eps);
// - without it (SUPPORT_NOT_ELIGIBLE): no S base moved.
// A fingerprint of every verdict and placement is printed ("wme support fingerprint: ...").
#include <cstdio>

#include "engine/table/contact.h"
#include "engine/table/formation.h"
#include "engine/wme/charge.h"
#include "tests/engine/wme/fixtures.h"
#include "tests/engine/wme/layouts.h"

namespace pbem::wme {
namespace {

using namespace testing;

// A random layout of T, C and S; false when it overlaps or touches (other than S with C).
bool SupportLayout(Layouts& rng, Game& g) {
  const Milli tx = Cm(90) + rng.Between(-5000, 5000);
  const Milli ty = Cm(60) + rng.Between(-5000, 5000);
  const std::int64_t bearing = rng.Between(0, 359999);
  const int t_size = static_cast<int>(rng.Between(1, 3));
  g.Unit("T", "red", TroopType::kInfantry, rng.Line(t_size, tx, ty, bearing));
  const Milli dist = rng.Between(8000, 20000);
  const table::UnitVector b = table::HeadingVector(bearing);
  const table::Int128 one{table::kUnitOne};
  const Milli cx = tx + static_cast<Milli>(table::RoundDiv(table::Int128{dist} * b.x, one));
  const Milli cy = ty + static_cast<Milli>(table::RoundDiv(table::Int128{dist} * b.y, one));
  const std::int64_t ch = NormaliseHeading(bearing + 180000);
  const int c_size = static_cast<int>(rng.Between(1, 4));
  g.Unit("C", "blue", TroopType::kInfantry, rng.Line(c_size, cx, cy, ch));
  // S: 2 cm behind C's centre line, shifted sideways by -6..6 cm.
  const table::UnitVector f = table::HeadingVector(ch);
  const table::UnitVector l = table::LeftOf(f);
  const std::int64_t side = rng.Between(-6, 6) * 1000;
  const Milli sx = cx + static_cast<Milli>(table::RoundDiv(
                            table::Int128{side} * l.x - table::Int128{2000} * f.x, one));
  const Milli sy = cy + static_cast<Milli>(table::RoundDiv(
                            table::Int128{side} * l.y - table::Int128{2000} * f.y, one));
  const int s_size = static_cast<int>(rng.Between(1, 4));
  g.Unit("S", "blue", TroopType::kInfantry, rng.Line(s_size, sx, sy, ch));
  const InitialStateResult start = InitialState(g.ruleset, g.scenario);
  if (!start.state) return false;
  const State& s = *start.state;
  const table::Coord eps = ToUnits(g.ruleset.epsilon_cm);
  for (std::size_t i = 0; i < s.bases.size(); ++i) {
    for (std::size_t j = i + 1; j < s.bases.size(); ++j) {
      const table::Rect a = Footprint(s.bases[i]);
      const table::Rect c = Footprint(s.bases[j]);
      const bool pair = (s.bases[i].unit == "C" && s.bases[j].unit == "S");
      if (table::Overlap(a, c, eps) ||
          (s.bases[i].unit != s.bases[j].unit && !pair && table::Touch(a, c, eps))) {
        return false;
      }
    }
  }
  return true;
}

// The invariants of a charge carried out with its supporter (the header).
bool SupportHolds(const Game& g, const State& e, const std::vector<Event>& events) {
  const table::Coord eps = ToUnits(g.ruleset.epsilon_cm);
  bool ok = true;
  std::vector<table::Rect> supporter;
  std::vector<table::Rect> charger;
  std::vector<table::Rect> enemies;
  for (std::size_t i = 0; i < e.bases.size(); ++i) {
    const table::Rect r = Footprint(e.bases[i]);
    for (std::size_t j = i + 1; j < e.bases.size(); ++j) {
      if (table::Overlap(r, Footprint(e.bases[j]), eps)) ok = false;
    }
    if (e.bases[i].unit == "S") supporter.push_back(r);
    if (e.bases[i].unit == "C") charger.push_back(r);
    if (e.bases[i].unit == "T") enemies.push_back(r);
  }
  const table::Formation formation = table::Classify(supporter, eps, g.ruleset.epsilon_deg);
  if (formation != table::Formation::kLine && formation != table::Formation::kColumn) ok = false;
  bool behind = false;
  for (const table::Rect& s : supporter) {
    if (!table::OnTable(s, ToUnits(g.scenario.table_width_cm), ToUnits(g.scenario.table_height_cm),
                        eps)) {
      ok = false;
    }
    for (const table::Rect& t : enemies) {
      if (table::Touch(s, t, eps)) ok = false;
    }
    for (const table::Rect& c : charger) {
      if (s.heading() == c.heading() &&
          table::EdgesInContact(s.Edge(0), c.Edge(2), eps, g.ruleset.epsilon_deg)) {
        behind = true;
      }
    }
  }
  const Milli full = *g.ruleset.speed_cm[static_cast<std::size_t>(TroopType::kInfantry)];
  for (const Event& ev : events) {
    const Moved* m = std::get_if<Moved>(&ev);
    if (m && m->base[0] == 'S' && m->travelled > full + g.ruleset.epsilon_cm) ok = false;
  }
  return ok && behind;
}

TEST_CASE_MINI(SupportInvariantsOnRandomLayouts) {
  Layouts rng(20261127);
  Fnv fingerprint;
  int supported = 0, refused = 0, failures = 0;  // with, without the supporter; broken
  for (int round = 0; round < 1500 && failures < 5; ++round) {
    Game g;
    if (!SupportLayout(rng, g)) continue;
    const State s = g.Start();
    ChargeOrder order = ChargeAt("C", "T");
    order.support = "S";
    order.reserve = rng.Between(0, 1) == 0 ? Reserve::kBehind : Reserve::kLine;
    ScriptedDice dice({3, 3, 3, 3});
    const PlayerTurnResult r =
        ResolvePlayerTurn(g.ruleset, g.scenario, s, {"blue", {}, {order}}, dice);
    fingerprint.Add(static_cast<int>(r.verdicts[0].reason));
    if (r.verdicts[0].kind != VerdictKind::kOk) continue;
    for (const BaseState& b : r.next.bases) {
      fingerprint.Add(b.centre.x());
      fingerprint.Add(b.centre.y());
      fingerprint.Add(b.heading_mdeg);
    }
    bool ok = true;
    if (std::find(r.events.begin(), r.events.end(), Event{SupportingCharge{"S", "C"}}) !=
        r.events.end()) {
      ++supported;
      ok = SupportHolds(g, r.next, r.events);
    } else {
      ++refused;
      ok = r.verdicts[0].reason == Reason::kSupportNotEligible;
      for (std::size_t i : BasesOf(s, "S")) {
        if (!(r.next.bases[i].centre == s.bases[i].centre)) ok = false;
      }
    }
    if (!ok) {
      ++failures;
      std::printf("support invariant broken in round %d\n", round);
    }
  }
  std::printf("wme support fingerprint: %016llx (%d supported, %d without the supporter)\n",
              static_cast<unsigned long long>(fingerprint.h), supported, refused);
  CHECK_EQ_MINI(failures, 0);
  CHECK_MINI(supported > 50 && refused > 50);  // both outcomes exercised
}

}  // namespace
}  // namespace pbem::wme
