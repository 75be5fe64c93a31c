// §5.4 step 7: building the front line base by base (WME-R49..R52, R55; GAP-23, GAP-40;
// W-R2, W-R4). The first base stands in its slot (step 6); every other base of the charger
// takes a place on the lattice of that slot: same heading, centre at
//   first + i * W * l + j * D * f     (l: left, f: forward of the first base, W x D its size)
// which holds the digest's candidates (beside: i = +-1; behind: j = -1; *en escalier*: i = +-1,
// j = +-1) of every base already placed, and the BEHIND column (0, -k) and LINE row (+-k, 0).
//
//            j=+1   . [T][T][T] .        enemy line, front edge on the line y = 0
//            j= 0  [1][F][2][3]          F first base; 1 corner, 2 and 3 frontal contacts
//            j=-1      [r]               a base out of contact in reserve (BEHIND)
//            j=-2      [r]
//
// Readings chosen where the digest is open:
// - A contact place is a lattice place that overlaps nothing (another unit's base, terrain the
//   charger may not enter, beyond the table: GAP-29) and touches an enemy base (edge or corner,
//   WME-R50). The bases in contact form, with the first base, a set connected by edge or corner
//   contact (a base placed off contact only to bridge to a farther contact is not searched).
// - Every such connected set of at most (bases - 1) places is a candidate; its worth is W-R4's
//   (a) bases touching the charged unit, (b) touching any enemy unit, (c) in frontal contact with
//   an enemy base (W-R2), compared in that order. The best worth that some placement reaches
//   wins.
// - The other bases go to the order's `reserve` (else `reserve_default`, GAP-40): BEHIND, the
//   nearest free places of the column (0, -1), (0, -2), ...; LINE, the nearest free places of the
//   row (+-1, 0), (+-2, 0), ... (the left one first at equal distance). A reserve place touches no
//   enemy. If the chosen reserve gives no placement at any worth, the other one is tried
//   (WME-R55: "behind or beside the first base").
// - A placement is reachable when every base reaches its place by W-R7's AUTO path within the
//   allowance (+ eps) and that path's sweep overlaps no base of another unit and no forbidden
//   terrain (as step 6; the charger's own bases are no obstacle: they all move in this charge),
//   and the whole unit is in formation at the end (WME-P05).
// - Among reachable placements of the best worth: the least total travel (each base's travel
//   rounded up to a table unit); then the lower base (state order) takes the place nearer the
//   first base (squared centre distance, then the left one, then the rear one); then the
//   candidate set found first. The nearer place moves first.
// - Search bounds: a charger of more than kMaxFrontLineBases bases is refused
//   CHARGE_NOT_SUPPORTED (the search tries every assignment of bases to places).
// - No reachable placement at all: ILLEGAL FRONT_LINE_IMPOSSIBLE (the unit does not move).
#include <algorithm>
#include <map>
#include <numeric>

#include "engine/table/contact.h"
#include "engine/table/formation.h"
#include "engine/wme/charge.h"
#include "engine/wme/validate.h"

namespace pbem::wme {
namespace {

using table::Int128;

constexpr std::size_t kMaxFrontLineBases = 7;

struct Place {
  int i = 0;
  int j = 0;
  std::optional<table::Rect> rect;
  bool free = false;
  bool target = false;   // touches a base of the charged unit
  bool enemy = false;    // touches a base of any enemy unit
  bool frontal = false;  // its front edge in contact with an enemy base's edge (W-R2)
  Int128 distance2 = 0;  // squared distance of its centre from the first base's
};

struct Worth {
  int target = 0;
  int enemy = 0;
  int frontal = 0;
  auto operator<=>(const Worth&) const = default;
};

// W-R4 (a), (b), (c) for one base at `rect`.
Worth ContactWorth(const Ruleset& ruleset, const table::Rect& rect,
                   const std::vector<table::Rect>& enemies, const std::vector<bool>& of_target) {
  const table::Coord eps = ToUnits(ruleset.epsilon_cm);
  Worth w;
  for (std::size_t e = 0; e < enemies.size(); ++e) {
    if (!table::Touch(rect, enemies[e], eps)) continue;
    w.enemy = 1;
    if (of_target[e]) w.target = 1;
    if (table::FrontalContactEdge(rect, enemies[e], eps, ruleset.epsilon_deg)) w.frontal = 1;
  }
  return w;
}

// The enemy bases of `order`'s charger, and which of them are the target's.
void EnemiesOf(const State& state, const ChargeOrder& order, std::vector<table::Rect>& enemies,
               std::vector<bool>& of_target) {
  const std::string& owner = FindUnit(state, order.unit)->owner;
  for (const BaseState& b : state.bases) {
    if (!b.alive || b.unit == order.unit || FindUnit(state, b.unit)->owner == owner) continue;
    enemies.push_back(Footprint(b));
    of_target.push_back(b.unit == order.target);
  }
}

struct Reach {
  bool ok = false;
  std::vector<table::Leg> legs;
  table::Coord travel = 0;
};

struct Placement {
  std::vector<std::size_t> places;  // per other base (state order): index into the lattice
  table::Coord travel = 0;
  std::vector<std::size_t> ranks;  // per other base: its place's rank by nearness
};

class FrontLineSearch {
 public:
  FrontLineSearch(const Ruleset& ruleset, const State& state, const ChargeOrder& order,
                  const std::vector<table::Polygon>& terrain, const ChargeCheck& check)
      : ruleset_(ruleset), state_(state), order_(order), terrain_(terrain), check_(check) {
    eps_ = ToUnits(ruleset.epsilon_cm);
    for (std::size_t b : BasesOf(state, order.unit)) {
      if (b != check.first->base) others_.push_back(b);
    }
    radius_ = static_cast<int>(others_.size()) + 1;
    for (const BaseState& b : state.bases) {
      if (b.alive && b.unit != order.unit) obstacles_.push_back(Footprint(b).footprint());
    }
    EnemiesOf(state, order, enemies_, enemy_of_target_);
    obstacles_.insert(obstacles_.end(), terrain.begin(), terrain.end());
    BuildLattice();
  }

  // The best placement as a FrontLine, or nullopt when none is reachable.
  std::optional<FrontLine> Best(Reserve reserve) {
    std::vector<std::vector<std::size_t>> sets;
    std::vector<std::size_t> contacts;
    for (std::size_t p = 0; p < places_.size(); ++p) {
      if (places_[p].free && places_[p].enemy) contacts.push_back(p);
    }
    std::vector<std::size_t> chosen;
    std::vector<std::size_t> ext;
    for (std::size_t p : contacts) {
      if (Adjacent(places_[p], 0, 0)) ext.push_back(p);
    }
    std::vector<bool> banned(places_.size(), false);
    Enumerate(chosen, ext, banned, contacts, sets);
    std::stable_sort(sets.begin(), sets.end(),
                     [&](const auto& a, const auto& b) { return WorthOf(a) > WorthOf(b); });
    const Reserve other = reserve == Reserve::kBehind ? Reserve::kLine : Reserve::kBehind;
    for (std::size_t k = 0; k < sets.size();) {
      std::size_t end = k;
      while (end < sets.size() && WorthOf(sets[end]) == WorthOf(sets[k])) ++end;
      for (Reserve mode : {reserve, other}) {
        std::optional<Placement> best;
        for (std::size_t s = k; s < end; ++s) {
          std::optional<Placement> p = Assign(sets[s], mode);
          if (p && (!best || std::tie(p->travel, p->ranks) < std::tie(best->travel, best->ranks))) {
            best = std::move(p);
          }
        }
        if (best) return Build(*best, mode);
      }
      k = end;
    }
    return std::nullopt;
  }

 private:
  static bool Adjacent(const Place& p, int i, int j) {
    return std::abs(p.i - i) <= 1 && std::abs(p.j - j) <= 1 && (p.i != i || p.j != j);
  }

  void BuildLattice() {
    const table::Rect& first = *check_.first->slot;
    const BaseState& model = state_.bases[check_.first->base];
    const table::UnitVector f = table::HeadingVector(first.heading());
    const table::UnitVector l = table::LeftOf(f);
    const Int128 one{table::kUnitOne};
    for (int j = -radius_; j <= radius_; ++j) {
      for (int i = -radius_; i <= radius_; ++i) {
        if (i == 0 && j == 0) continue;
        Place p;
        p.i = i;
        p.j = j;
        const Int128 dx = (Int128{i} * model.width * l.x + Int128{j} * model.depth * f.x);
        const Int128 dy = (Int128{i} * model.width * l.y + Int128{j} * model.depth * f.y);
        const std::optional<table::Point> centre = table::Point::Make(
            first.centre().x() + static_cast<table::Coord>(table::RoundDiv(dx, one)),
            first.centre().y() + static_cast<table::Coord>(table::RoundDiv(dy, one)));
        if (centre) p.rect = FootprintAt(model, *centre, first.heading());
        if (p.rect) {
          const table::Vector d = p.rect->centre() - first.centre();
          p.distance2 = Int128{d.x} * d.x + Int128{d.y} * d.y;
          p.free = std::none_of(obstacles_.begin(), obstacles_.end(), [&](const auto& o) {
            return table::ConvexOverlap(p.rect->footprint(), o, 0);
          });
          const Worth w = WorthOfRect(*p.rect);
          p.target = w.target > 0;
          p.enemy = w.enemy > 0;
          p.frontal = w.frontal > 0;
        }
        places_.push_back(p);
      }
    }
  }

  Worth WorthOfRect(const table::Rect& rect) const {
    return ContactWorth(ruleset_, rect, enemies_, enemy_of_target_);
  }

  Worth WorthOf(const std::vector<std::size_t>& set) const {
    Worth w;
    for (std::size_t p : set) {
      w.target += places_[p].target;
      w.enemy += places_[p].enemy;
      w.frontal += places_[p].frontal;
    }
    return w;
  }

  // Every set of contact places connected to the first base (edge or corner on the lattice),
  // of at most others() places, each once: the include / exclude enumeration.
  void Enumerate(std::vector<std::size_t>& chosen, std::vector<std::size_t> ext,
                 std::vector<bool>& banned, const std::vector<std::size_t>& contacts,
                 std::vector<std::vector<std::size_t>>& sets) const {
    sets.push_back(chosen);
    if (chosen.size() == others_.size()) return;
    std::vector<std::size_t> undo;
    while (!ext.empty()) {
      const std::size_t w = ext.front();
      ext.erase(ext.begin());
      std::vector<std::size_t> next = ext;
      for (std::size_t u : contacts) {
        if (u == w || banned[u] || !Adjacent(places_[u], places_[w].i, places_[w].j)) continue;
        if (Adjacent(places_[u], 0, 0)) continue;  // already in ext or banned at the root
        if (std::find(chosen.begin(), chosen.end(), u) != chosen.end()) continue;
        if (std::find(next.begin(), next.end(), u) != next.end()) continue;
        next.push_back(u);
      }
      chosen.push_back(w);
      Enumerate(chosen, next, banned, contacts, sets);
      chosen.pop_back();
      banned[w] = true;
      undo.push_back(w);
    }
    for (std::size_t w : undo) banned[w] = false;
  }

  const Reach& ReachOf(std::size_t other, std::size_t place) {
    const auto key = std::pair{other, place};
    auto it = reach_.find(key);
    if (it != reach_.end()) return it->second;
    Reach r;
    if (std::optional<PlacedBase> p =
            ReachByAuto(ruleset_, state_, order_.unit, others_[other], *places_[place].rect,
                        check_.allowance, terrain_)) {
      r.ok = true;
      r.legs = std::move(p->legs);
      r.travel = p->travel;
    }
    return reach_.emplace(key, std::move(r)).first->second;
  }

  std::optional<Placement> Assign(const std::vector<std::size_t>& set, Reserve mode) {
    std::vector<std::size_t> slots = set;
    const std::size_t need = others_.size() - set.size();
    std::vector<std::size_t> line;  // reserve candidates, nearest first
    for (std::size_t p = 0; p < places_.size(); ++p) {
      const Place& q = places_[p];
      const bool on = mode == Reserve::kBehind ? (q.i == 0 && q.j < 0) : (q.j == 0);
      if (!on || !q.free || q.enemy) continue;
      if (std::find(set.begin(), set.end(), p) != set.end()) continue;
      line.push_back(p);
    }
    std::stable_sort(line.begin(), line.end(), [&](std::size_t a, std::size_t b) {
      const int da = std::abs(places_[a].i) + std::abs(places_[a].j);
      const int db = std::abs(places_[b].i) + std::abs(places_[b].j);
      return da != db ? da < db : places_[a].i > places_[b].i;  // LINE: left (+i) first
    });
    if (line.size() < need) return std::nullopt;
    slots.insert(slots.end(), line.begin(), line.begin() + static_cast<std::ptrdiff_t>(need));
    std::vector<table::Rect> rects{*check_.first->slot};
    for (std::size_t p : slots) rects.push_back(*places_[p].rect);
    if (table::Classify(rects, eps_, ruleset_.epsilon_deg) == table::Formation::kNone) {
      return std::nullopt;  // WME-R49, R55: the unit stays in formation
    }
    std::vector<std::size_t> by_near = slots;
    std::sort(by_near.begin(), by_near.end(), [&](std::size_t a, std::size_t b) {
      const Place& pa = places_[a];
      const Place& pb = places_[b];
      return std::tuple(pa.distance2, -pa.i, pa.j) < std::tuple(pb.distance2, -pb.i, pb.j);
    });
    std::vector<std::size_t> perm(slots.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::optional<Placement> best;
    do {
      Placement p;
      bool ok = true;
      for (std::size_t k = 0; k < others_.size() && ok; ++k) {
        const std::size_t place = slots[perm[k]];
        const Reach& r = ReachOf(k, place);
        ok = r.ok;
        p.places.push_back(place);
        p.travel += r.travel;
        p.ranks.push_back(static_cast<std::size_t>(
            std::find(by_near.begin(), by_near.end(), place) - by_near.begin()));
      }
      if (ok && (!best || std::tie(p.travel, p.ranks) < std::tie(best->travel, best->ranks))) {
        best = std::move(p);
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
    return best;
  }

  FrontLine Build(const Placement& placement, Reserve mode) {
    FrontLine line;
    line.reserve = mode;
    const FirstBase& first = *check_.first;
    line.bases.push_back(PlacedBase{first.base, first.legs, *first.slot, first.travel});
    std::vector<std::size_t> order(others_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return placement.ranks[a] < placement.ranks[b];  // nearer the first base moves first
    });
    for (std::size_t k : order) {
      const Reach& r = ReachOf(k, placement.places[k]);
      line.bases.push_back(
          PlacedBase{others_[k], r.legs, *places_[placement.places[k]].rect, r.travel});
    }
    CountContacts(ruleset_, state_, order_, line);
    return line;
  }

  const Ruleset& ruleset_;
  const State& state_;
  const ChargeOrder& order_;
  const std::vector<table::Polygon>& terrain_;
  const ChargeCheck& check_;
  table::Coord eps_ = 0;
  int radius_ = 0;
  std::vector<std::size_t> others_;  // the charger's bases but the first, state order
  std::vector<table::Polygon> obstacles_;
  std::vector<table::Rect> enemies_;
  std::vector<bool> enemy_of_target_;
  std::vector<Place> places_;
  std::map<std::pair<std::size_t, std::size_t>, Reach> reach_;
};

}  // namespace

void CountContacts(const Ruleset& ruleset, const State& state, const ChargeOrder& order,
                   FrontLine& line) {
  std::vector<table::Rect> enemies;
  std::vector<bool> of_target;
  EnemiesOf(state, order, enemies, of_target);
  line.touching_target = line.touching_enemy = line.frontal = 0;
  for (const PlacedBase& b : line.bases) {
    const Worth w = ContactWorth(ruleset, b.slot, enemies, of_target);
    line.touching_target += w.target;
    line.touching_enemy += w.enemy;
    line.frontal += w.frontal;
  }
}

std::optional<Verdict> BuildFrontLine(const Ruleset& ruleset, const State& state,
                                      const ChargeOrder& order,
                                      const std::vector<table::Polygon>& terrain,
                                      ChargeCheck& check) {
  if (BasesOf(state, order.unit).size() > kMaxFrontLineBases) {
    Verdict v = Refusal(order.unit, Reason::kChargeNotSupported);
    v.other = order.target;
    return v;
  }
  FrontLineSearch search(ruleset, state, order, terrain, check);
  check.line = search.Best(order.reserve.value_or(ruleset.reserve_default));
  if (!check.line) {
    Verdict v = Refusal(order.unit, Reason::kFrontLineImpossible);
    v.other = order.target;
    return v;
  }
  return std::nullopt;
}

}  // namespace pbem::wme
