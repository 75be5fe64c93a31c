// §5.1, §5.4 step 7: `placement: EXPLICIT`, the player's legs for every base, checked against
// the same rules as AUTO, including maximum contact (W-R4).
//
// Readings chosen where the digest is open:
// - The first base is `first_base` if given, else the first base listed; bases move in the
//   order listed; a base not listed does not move (as in a move, §5.1).
// - Per base, in listed order: EXCEEDS_ALLOWANCE{base, travelled, allowance} (WME-R19, the
//   charge allowance of step 3); PATH_BLOCKED{base} when its sweep overlaps, beyond epsilon, a
//   base of another unit or terrain the charger may not enter or the outside of the table (the
//   charger's own bases are no obstacle, as on the AUTO path). Then the end state:
//   BASE_OVERLAP{a, b} between two of its bases, FORMATION_BROKEN (WME-P05).
// - Maximum contact (W-R4): the placement's counts (a) bases touching the charged unit, (b)
//   touching any enemy, (c) in frontal contact are compared, in that order, with those of the
//   AUTO placement from the same first base (steps 6-8, envelopment if asked for); the first
//   count it falls short on is CONTACT_NOT_MAXIMISED with value = got, limit = expected (counts,
//   not lengths). A placement touching the charged unit with no base at all falls short on (a)
//   even when AUTO finds nothing (expected at least 1).
#include <algorithm>

#include "engine/table/formation.h"
#include "engine/table/rect.h"
#include "engine/wme/charge.h"
#include "engine/wme/validate.h"

namespace pbem::wme {

std::optional<Verdict> CheckExplicit(const Ruleset& ruleset, const Scenario& scenario,
                                     const State& state, const ChargeOrder& order,
                                     const std::vector<PlannedBase>& planned,
                                     const std::vector<table::Polygon>& terrain,
                                     ChargeCheck& check) {
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  Verdict v = Refusal(order.unit, Reason::kNone);
  v.other = order.target;
  const std::string first_id =
      order.first_base ? *order.first_base : (planned.empty() ? "" : order.bases.front().id);
  // The expected counts: AUTO from the same first base.
  ChargeOrder automatic = order;
  automatic.placement = Placement::kAuto;
  if (!first_id.empty()) automatic.first_base = first_id;
  ChargeCheck best = check;
  int expected[3] = {1, 0, 0};
  if (!PlaceFirstBase(ruleset, scenario, state, automatic, terrain, best) &&
      !BuildFrontLine(ruleset, state, automatic, terrain, best)) {
    Envelop(ruleset, state, automatic, terrain, best);
    expected[0] = std::max(1, best.line->touching_target);
    expected[1] = best.line->touching_enemy;
    expected[2] = best.line->frontal;
  }
  // The player's placement, base by base.
  FrontLine line;
  std::vector<table::Rect> ends;
  std::vector<std::size_t> indices = BasesOf(state, order.unit);
  for (std::size_t i : indices) ends.push_back(Footprint(state.bases[i]));
  for (const PlannedBase& p : planned) {
    const BaseState& base = state.bases[p.index];
    v.base = base.id;
    const table::Rect start = Footprint(base);
    const std::optional<table::Motion> motion = table::Move(start, p.legs.legs);
    const table::Coord travel = motion ? table::TravelCeilUnits(*motion) : table::kMaxLength;
    if (!motion || !table::TravelWithin(*motion, check.allowance + eps).within) {
      v.reason = Reason::kExceedsAllowance;
      v.value = NearestMilli(travel);
      v.limit = NearestMilli(check.allowance);
      v.other.clear();
      return v;
    }
    if (SweepBlocked(ruleset, state, order.unit, start, p.legs.legs, terrain)) {
      v.reason = Reason::kPathBlocked;
      return v;
    }
    PlacedBase placed{p.index, p.legs.legs, p.legs.end(), travel};
    if (base.id == first_id) {
      line.bases.insert(line.bases.begin(), std::move(placed));
    } else {
      line.bases.push_back(std::move(placed));
    }
    const std::size_t k = static_cast<std::size_t>(
        std::find(indices.begin(), indices.end(), p.index) - indices.begin());
    ends[k] = p.legs.end();
  }
  v.other = order.target;
  for (std::size_t a = 0; a < ends.size(); ++a) {
    for (std::size_t b = a + 1; b < ends.size(); ++b) {
      if (table::Overlap(ends[a], ends[b], eps)) {
        v.reason = Reason::kBaseOverlap;
        v.base = state.bases[indices[a]].id;
        v.other = state.bases[indices[b]].id;
        return v;
      }
    }
  }
  v.base.clear();
  if (table::Classify(ends, eps, ruleset.epsilon_deg) == table::Formation::kNone) {
    v.reason = Reason::kFormationBroken;
    v.other.clear();
    return v;
  }
  // Unlisted bases stand where they are: they count for contact as well.
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const bool listed = std::any_of(planned.begin(), planned.end(),
                                    [&](const PlannedBase& p) { return p.index == indices[k]; });
    if (!listed) line.bases.push_back(PlacedBase{indices[k], {}, ends[k], 0});
  }
  CountContacts(ruleset, state, order, line);
  const int got[3] = {line.touching_target, line.touching_enemy, line.frontal};
  for (int c = 0; c < 3; ++c) {
    if (got[c] < expected[c]) {
      v.reason = Reason::kContactNotMaximised;
      v.value = got[c];
      v.limit = expected[c];
      return v;
    }
  }
  // The first base and the target base it touches, for step 11's ChargeContact.
  const PlacedBase& first = line.bases.front();
  FirstBase fb{first.base, BasesOf(state, order.target).front(), first.legs, first.slot,
               first.travel};
  for (std::size_t t : BasesOf(state, order.target)) {
    if (table::Touch(first.slot, Footprint(state.bases[t]), eps)) {
      fb.target_base = t;
      break;
    }
  }
  check.first = fb;
  check.line = std::move(line);
  return std::nullopt;
}

}  // namespace pbem::wme
