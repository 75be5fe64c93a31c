// §5.4 step 9, the *charge de soutien* (WME-R53, R63; WME-P16, GAP-22): a friendly infantry unit
// behind the charger follows it into the charge, its bases placed in line behind it.
//
//            [T][T][T]          the charged unit
//            [1][F][2]          the charger's front line (steps 6-8), F its first base
//            [s][s][s]          the supporter, one line, front edges on the charger's rear edges
//
// Readings chosen where the digest is open:
// - Eligibility, in this order (the warning's `detail` names the first that fails): the
//   supporter is not the charger ("charger"), belongs to the ordering player ("not_own"), is
//   infantry (WME-R53, P16: "not_infantry"), is neither confused ("confused") nor engaged
//   ("engaged", WME-P16), has not moved this turn ("moved": [WME-CMD], a unit moves once a
//   turn, by initiative or by order), and stands behind the charger at the start of the charge:
//   at least one of its bases has the heading of a charger base (within epsilon_deg) and its
//   front edge in edge contact (WME-P04) with that base's rear edge ("not_behind": WME-P16,
//   `support_geometry: rear_edge_contact`). The digest asks nothing of the charger's type
//   (WME-R63 describes an infantry charger, WME-R53 and P16 do not restrict it), nor that the
//   supporter see the target (WME-P16 lists no sight; the charger saw it, step 2).
// - Placement ("behind, in line, same rules, no envelopment"): one row of places in the frame of
//   the first base's slot, same heading, centres first + i * W * l + k * f, W the supporter's
//   base width and k such that the row's front edge lies on the rearmost point of the charger's
//   placed bases (WME-R63: the supporter stays in line, never fills gaps in the front unit's
//   line). Candidates are the windows of as many adjacent places as the supporter has bases; a
//   window counts when every place overlaps nothing (another unit's base, the charger in its new
//   places, terrain infantry may not enter, beyond the table: GAP-29), touches no enemy base
//   (the supporter is not in contact, WME-R63), and at least one place is behind a charger base
//   as WME-P16 says. Bases keep their side-to-side order (the rightmost base to the rightmost
//   place; ties: state order) and go by W-R7's AUTO path within the supporter's own allowance
//   (step 3 for the supporter: C-1, W-R13), the sweep free of other units' bases (the charger
//   already in its places) and forbidden terrain, as step 7. Best: the most places behind a
//   charger base (step 7's maximum contact, against the charger's rear), then the least total
//   travel, then the window nearest the first base, then the rightmost. The nearest place moves
//   first.
// - No window reachable: the warning with detail "no_place"; the charge goes on without it.
// - The supporter is always placed AUTO, also under an EXPLICIT charge (the order's legs are
//   the charger's), and moves by the sub-phase of the charge; it counts as engaged afterwards
//   (it is in the charge: WME-R53 "accompagner celle-ci dans sa charge").
#include <algorithm>
#include <cstdlib>

#include "engine/table/contact.h"
#include "engine/table/facing.h"
#include "engine/wme/charge.h"

namespace pbem::wme {
namespace {

using table::Int128;

Verdict NotEligible(const ChargeOrder& order, std::string_view why) {
  Verdict v;
  v.unit = order.unit;
  v.reason = Reason::kSupportNotEligible;
  v.other = *order.support;
  v.detail = std::string(why);
  return v;
}

// WME-P16's contact: `s` faces as `c` (within epsilon_deg) and its front edge touches c's rear
// edge along a segment (WME-P04).
bool Behind(const Ruleset& ruleset, const table::Rect& s, const table::Rect& c) {
  const std::int64_t turn = NormaliseHeading(s.heading() - c.heading());
  return std::min<std::int64_t>(turn, 360000 - turn) <= ruleset.epsilon_deg &&
         table::EdgesInContact(s.Edge(0), c.Edge(2), ToUnits(ruleset.epsilon_cm),
                               ruleset.epsilon_deg);
}

// The first WME-P16 condition the supporter fails (the reading above), "" if none.
std::string_view Ineligible(const Ruleset& ruleset, const State& state, const std::string& player,
                            const ChargeOrder& order) {
  const UnitState& s = *FindUnit(state, *order.support);  // named: step 1 checked it exists
  if (s.id == order.unit) return condition::kCharger;
  if (s.owner != player) return condition::kNotOwn;
  if (s.troop_type != TroopType::kInfantry) return condition::kNotInfantry;
  if (s.confused) return condition::kConfused;
  if (s.engaged) return condition::kEngaged;
  if (s.moved_by_initiative || s.moved_by_order) return condition::kMoved;
  for (std::size_t i : BasesOf(state, s.id)) {
    for (std::size_t j : BasesOf(state, order.unit)) {
      if (Behind(ruleset, Footprint(state.bases[i]), Footprint(state.bases[j]))) return {};
    }
  }
  return condition::kNotBehind;
}

// Projection of `p - o` on the unit vector `v`, in table units.
Int128 Along(table::Point p, table::Point o, table::UnitVector v) {
  const table::Vector d = p - o;
  return table::RoundDiv(Int128{d.x} * v.x + Int128{d.y} * v.y, Int128{table::kUnitOne});
}

struct Window {
  SupportPlacement placement;
  table::Coord travel = 0;
  int a = 0;
  int n = 0;
  // Best first: most places behind the charger, least travel, nearest, rightmost.
  bool Before(const Window& o) const {
    if (placement.touching_charger != o.placement.touching_charger) {
      return placement.touching_charger > o.placement.touching_charger;
    }
    if (travel != o.travel) return travel < o.travel;
    if (std::abs(2 * a + n - 1) != std::abs(2 * o.a + n - 1)) {
      return std::abs(2 * a + n - 1) < std::abs(2 * o.a + n - 1);
    }
    return a < o.a;
  }
};

class SupportSearch {
 public:
  SupportSearch(const Ruleset& ruleset, const Scenario& scenario, const State& state,
                const ChargeOrder& order, const ChargeCheck& check)
      : ruleset_(ruleset), after_(state), unit_(*order.support) {
    for (const PlacedBase& p : check.line->bases) {  // the charger in its places
      after_.bases[p.base].centre = p.slot.centre();
      after_.bases[p.base].heading_mdeg = NormaliseHeading(p.slot.heading());
      charger_.push_back(p.slot);
    }
    const UnitState& supporter = *FindUnit(state, unit_);
    allowance_ = ChargeAllowance(ruleset, scenario, state, unit_);
    terrain_ = ForbiddenTo(ruleset, scenario, supporter.troop_type);
    obstacles_ = terrain_;
    for (const BaseState& b : after_.bases) {
      if (!b.alive || b.unit == unit_) continue;
      obstacles_.push_back(Footprint(b).footprint());
      if (FindUnit(after_, b.unit)->owner != supporter.owner) enemies_.push_back(Footprint(b));
    }
    bases_ = BasesOf(state, unit_);
    const table::Rect& first = check.line->bases.front().slot;
    origin_ = first.centre();
    heading_ = first.heading();
    f_ = table::HeadingVector(heading_);
    l_ = table::LeftOf(f_);
    Int128 rear = 0;  // the rearmost point of the charger, along f
    for (const table::Rect& r : charger_) {
      for (const table::Point& p : r.corners()) rear = std::min(rear, Along(p, origin_, f_));
    }
    twice_depth_ = 2 * rear - state.bases[bases_.front()].depth;
    std::stable_sort(bases_.begin(), bases_.end(), [&](std::size_t x, std::size_t y) {
      return Along(state.bases[x].centre, origin_, l_) < Along(state.bases[y].centre, origin_, l_);
    });
  }

  std::optional<SupportPlacement> Best() const {
    const int n = static_cast<int>(bases_.size());
    const int radius = n + static_cast<int>(charger_.size());
    std::optional<Window> best;
    for (int a = -radius; a + n - 1 <= radius; ++a) {
      std::optional<Window> w = Try(a, n);
      if (w && (!best || w->Before(*best))) best = std::move(w);
    }
    if (!best) return std::nullopt;
    std::vector<PlacedBase>& placed = best->placement.bases;
    std::stable_sort(placed.begin(), placed.end(), [&](const PlacedBase& x, const PlacedBase& y) {
      return Distance2(x.slot) < Distance2(y.slot);
    });
    return best->placement;
  }

 private:
  Int128 Distance2(const table::Rect& r) const {
    const table::Vector d = r.centre() - origin_;
    return Int128{d.x} * d.x + Int128{d.y} * d.y;
  }

  std::optional<table::Rect> PlaceAt(int i) const {
    const BaseState& model = after_.bases[bases_.front()];
    const Int128 two_one = Int128{table::kUnitOne} * 2;
    const Int128 w2 = Int128{2} * i * model.width;
    const std::optional<table::Point> centre = table::Point::Make(
        origin_.x() +
            static_cast<table::Coord>(table::RoundDiv(w2 * l_.x + twice_depth_ * f_.x, two_one)),
        origin_.y() +
            static_cast<table::Coord>(table::RoundDiv(w2 * l_.y + twice_depth_ * f_.y, two_one)));
    if (!centre) return std::nullopt;
    return FootprintAt(model, *centre, heading_);
  }

  std::optional<Window> Try(int a, int n) const {
    const table::Coord eps = ToUnits(ruleset_.epsilon_cm);
    Window w;
    w.a = a;
    w.n = n;
    w.placement.unit = unit_;
    for (int k = 0; k < n; ++k) {
      const std::optional<table::Rect> place = PlaceAt(a + k);
      if (!place) return std::nullopt;
      if (std::any_of(obstacles_.begin(), obstacles_.end(),
                      [&](const table::Polygon& o) {
                        return table::ConvexOverlap(place->footprint(), o, 0);
                      }) ||
          std::any_of(enemies_.begin(), enemies_.end(),
                      [&](const table::Rect& e) { return table::Touch(*place, e, eps); })) {
        return std::nullopt;
      }
      if (std::any_of(charger_.begin(), charger_.end(),
                      [&](const table::Rect& c) { return Behind(ruleset_, *place, c); })) {
        ++w.placement.touching_charger;
      }
      std::optional<PlacedBase> reach =
          ReachByAuto(ruleset_, after_, unit_, bases_[k], *place, allowance_, terrain_);
      if (!reach) return std::nullopt;
      w.travel += reach->travel;
      w.placement.bases.push_back(std::move(*reach));
    }
    if (w.placement.touching_charger == 0) return std::nullopt;
    return w;
  }

  const Ruleset& ruleset_;
  State after_;  // the state the supporter moves in: the charger in its places
  std::string unit_;
  std::vector<table::Rect> charger_;
  std::vector<std::size_t> bases_;  // the supporter's, rightmost first
  table::Coord allowance_ = 0;
  std::vector<table::Polygon> terrain_;
  std::vector<table::Polygon> obstacles_;
  std::vector<table::Rect> enemies_;
  table::Point origin_;
  std::int64_t heading_ = 0;
  table::UnitVector f_{};
  table::UnitVector l_{};
  Int128 twice_depth_ = 0;  // twice the row's offset along f from the first base's centre
};

}  // namespace

std::optional<Verdict> PlaceSupport(const Ruleset& ruleset, const Scenario& scenario,
                                    const State& state, const std::string& player,
                                    const ChargeOrder& order, ChargeCheck& check) {
  if (!order.support || !check.line) return std::nullopt;
  if (const std::string_view failed = Ineligible(ruleset, state, player, order); !failed.empty()) {
    return NotEligible(order, failed);
  }
  check.support = SupportSearch(ruleset, scenario, state, order, check).Best();
  if (!check.support) return NotEligible(order, condition::kNoPlace);
  return std::nullopt;
}

}  // namespace pbem::wme
