// The French game's orders (wme_codec.h; the schema and its number rule: wme_orders.proto).
// Shaped as m42_orders_codec.cc: problems collected as (field path, message) and located at
// the end; every list bounded before it is walked; nothing recurses on input.
#include <string>
#include <utility>

#include "proto/codec/data_checker.h"
#include "proto/codec/text_locations.h"
#include "proto/codec/wme_codec.h"
#include "proto/codec/wme_codec_tables.h"

namespace pbem::codec {
namespace {

namespace v1 = pbem::v1;
using internal::Checker;
using internal::EnumPair;
using internal::FromThousandths;
using internal::Indexed;
using internal::kWmeMoveKinds;
using internal::Located;
using internal::ToProtoEnum;

constexpr int kMaxEntries = 1000;
constexpr int kMaxBaseOrders = 1000;
constexpr int kMaxLegs = 1000;
constexpr int kMaxPassThrough = 100;
constexpr double kMaxCoordCm = 1000;
constexpr double kMaxDeg = 360;

constexpr EnumPair<v1::WmeRotate::Pivot, wme::Pivot> kPivots[] = {
    {v1::WmeRotate::CENTRE, wme::Pivot::kCentre},
    {v1::WmeRotate::FL, wme::Pivot::kFL},
    {v1::WmeRotate::FR, wme::Pivot::kFR},
    {v1::WmeRotate::RL, wme::Pivot::kRL},
    {v1::WmeRotate::RR, wme::Pivot::kRR}};
constexpr EnumPair<v1::WmeCharge::Placement, wme::Placement> kPlacements[] = {
    {v1::WmeCharge::AUTO, wme::Placement::kAuto},
    {v1::WmeCharge::EXPLICIT, wme::Placement::kExplicit}};
constexpr EnumPair<v1::WmeCharge::Reserve, wme::Reserve> kReserves[] = {
    {v1::WmeCharge::BEHIND, wme::Reserve::kBehind}, {v1::WmeCharge::LINE, wme::Reserve::kLine}};

class OrdersConverter : public Checker {
 public:
  explicit OrdersConverter(const v1::WmeOrders& proto) : p_(proto) {}

  wme::TurnOrders Run(std::string player) {
    wme::TurnOrders out;
    out.player = std::move(player);
    Entries("initiative", p_.initiative(), out.initiative);
    Entries("orders", p_.orders(), out.orders);
    return out;
  }

 private:
  void Entries(const std::string& path,
               const google::protobuf::RepeatedPtrField<v1::WmeEntry>& list,
               std::vector<wme::Entry>& out) {
    if (!Count(path, list.size(), 0, kMaxEntries)) return;
    for (int i = 0; i < list.size(); ++i) {
      const std::string at = Indexed(path, i);
      const v1::WmeEntry& e = list[i];
      switch (e.entry_case()) {
        case v1::WmeEntry::kMove:
          out.emplace_back(Move(at + ".move", e.move(), wme::MoveKindOrder::kAdvance));
          break;
        case v1::WmeEntry::kEvade:
          out.emplace_back(Move(at + ".evade", e.evade(), wme::MoveKindOrder::kEvade));
          break;
        case v1::WmeEntry::kCharge:
          out.emplace_back(Charge(at + ".charge", e.charge()));
          break;
        case v1::WmeEntry::ENTRY_NOT_SET:
          Add(at, "empty (one of move, evade or charge)");
          break;
      }
    }
  }

  wme::MoveOrder Move(const std::string& path, const v1::WmeMove& m,
                      wme::MoveKindOrder unset_kind) {
    wme::MoveOrder out;
    if (Id(path + ".unit", m.unit())) out.unit = m.unit();
    out.kind = unset_kind;
    if (m.kind() != v1::WmeMove::KIND_UNSPECIFIED) {
      Enum(path + ".kind", true, m.kind(), kWmeMoveKinds, out.kind);
      if (unset_kind == wme::MoveKindOrder::kEvade && out.kind != unset_kind) {
        Add(path + ".kind", "an evade is an EVADE (write a move for an ADVANCE)");
      }
    }
    if (m.has_from() && Id(path + ".from", m.from())) out.from = m.from();
    if (Count(path + ".allow_pass_through", m.allow_pass_through_size(), 0, kMaxPassThrough)) {
      for (int i = 0; i < m.allow_pass_through_size(); ++i) {
        if (Id(Indexed(path + ".allow_pass_through", i), m.allow_pass_through(i))) {
          out.allow_pass_through.push_back(m.allow_pass_through(i));
        }
      }
    }
    Bases(path + ".base", m.base(), out.bases);
    return out;
  }

  wme::ChargeOrder Charge(const std::string& path, const v1::WmeCharge& c) {
    wme::ChargeOrder out;
    if (Id(path + ".unit", c.unit())) out.unit = c.unit();
    if (Id(path + ".target", c.target())) out.target = c.target();
    out.envelop = c.envelop();
    if (c.has_support() && Id(path + ".support", c.support())) out.support = c.support();
    Enum(path + ".placement", true, c.placement(), kPlacements, out.placement);
    if (c.has_first_base() && Id(path + ".first_base", c.first_base())) {
      out.first_base = c.first_base();
    }
    if (c.has_target_base() && Id(path + ".target_base", c.target_base())) {
      out.target_base = c.target_base();
    }
    if (c.reserve() != v1::WmeCharge::RESERVE_UNSPECIFIED) {
      wme::Reserve reserve = wme::Reserve::kBehind;
      Enum(path + ".reserve", true, c.reserve(), kReserves, reserve);
      out.reserve = reserve;
    }
    Bases(path + ".base", c.base(), out.bases);
    return out;
  }

  void Bases(const std::string& path,
             const google::protobuf::RepeatedPtrField<v1::WmeBaseOrder>& list,
             std::vector<wme::BaseOrder>& out) {
    if (!Count(path, list.size(), 0, kMaxBaseOrders)) return;
    for (int i = 0; i < list.size(); ++i) {
      const std::string at = Indexed(path, i);
      const v1::WmeBaseOrder& b = list[i];
      wme::BaseOrder base;
      if (Id(at + ".id", b.id())) base.id = b.id();
      if (Count(at + ".leg", b.leg_size(), 0, kMaxLegs)) {
        for (int k = 0; k < b.leg_size(); ++k)
          base.legs.push_back(Leg(Indexed(at + ".leg", k), b.leg(k)));
      }
      out.push_back(std::move(base));
    }
  }

  wme::LegOrder Leg(const std::string& path, const v1::WmeLeg& l) {
    wme::LegOrder out;
    switch (l.leg_case()) {
      case v1::WmeLeg::kTranslate:
        out.kind = wme::LegOrder::Kind::kTranslate;
        Point(path + ".translate", l.translate(), out);
        break;
      case v1::WmeLeg::kRotate: {
        const v1::WmeRotate& r = l.rotate();
        out.kind = wme::LegOrder::Kind::kRotate;
        Decimal3(path + ".rotate.deg", r.deg(), kMaxDeg, "degrees", "a degree", out.deg_mdeg);
        if (r.has_pivot_point()) {
          if (r.pivot() != v1::WmeRotate::CENTRE) {
            Add(path + ".rotate.pivot", "give a pivot or a pivot_point, not both");
          }
          out.pivot = wme::Pivot::kPoint;
          Point(path + ".rotate.pivot_point", r.pivot_point(), out);
        } else {
          Enum(path + ".rotate.pivot", true, r.pivot(), kPivots, out.pivot);
        }
        break;
      }
      case v1::WmeLeg::LEG_NOT_SET:
        Add(path, "empty (a translate or a rotate)");
        break;
    }
    return out;
  }

  void Point(const std::string& path, const v1::WmeOrderPoint& p, wme::LegOrder& out) {
    Decimal3(path + ".x", p.x(), kMaxCoordCm, "cm", "a centimetre", out.x);
    Decimal3(path + ".y", p.y(), kMaxCoordCm, "cm", "a centimetre", out.y);
  }

  const v1::WmeOrders& p_;
};

void BasesToProto(const std::vector<wme::BaseOrder>& bases,
                  google::protobuf::RepeatedPtrField<v1::WmeBaseOrder>& out) {
  for (const wme::BaseOrder& b : bases) {
    v1::WmeBaseOrder& base = *out.Add();
    base.set_id(b.id);
    for (const wme::LegOrder& l : b.legs) {
      v1::WmeLeg& leg = *base.add_leg();
      v1::WmeOrderPoint* point = nullptr;
      if (l.kind == wme::LegOrder::Kind::kTranslate) {
        point = leg.mutable_translate();
      } else {
        v1::WmeRotate& rotate = *leg.mutable_rotate();
        rotate.set_deg(FromThousandths(l.deg_mdeg));
        if (l.pivot == wme::Pivot::kPoint) {
          point = rotate.mutable_pivot_point();
        } else {
          rotate.set_pivot(ToProtoEnum(kPivots, l.pivot));
        }
      }
      if (point != nullptr) {
        point->set_x(FromThousandths(l.x));
        point->set_y(FromThousandths(l.y));
      }
    }
  }
}

void EntriesToProto(const std::vector<wme::Entry>& entries,
                    google::protobuf::RepeatedPtrField<v1::WmeEntry>& out) {
  for (const wme::Entry& entry : entries) {
    v1::WmeEntry& e = *out.Add();
    if (const auto* m = std::get_if<wme::MoveOrder>(&entry)) {
      const bool evade = m->kind == wme::MoveKindOrder::kEvade;
      v1::WmeMove& move = evade ? *e.mutable_evade() : *e.mutable_move();
      move.set_unit(m->unit);
      if (!evade) move.set_kind(v1::WmeMove::ADVANCE);
      if (m->from) move.set_from(*m->from);
      for (const std::string& id : m->allow_pass_through) move.add_allow_pass_through(id);
      BasesToProto(m->bases, *move.mutable_base());
    } else {
      const auto& c = std::get<wme::ChargeOrder>(entry);
      v1::WmeCharge& charge = *e.mutable_charge();
      charge.set_unit(c.unit);
      charge.set_target(c.target);
      charge.set_envelop(c.envelop);
      if (c.support) charge.set_support(*c.support);
      charge.set_placement(ToProtoEnum(kPlacements, c.placement));
      if (c.first_base) charge.set_first_base(*c.first_base);
      if (c.target_base) charge.set_target_base(*c.target_base);
      if (c.reserve) charge.set_reserve(ToProtoEnum(kReserves, *c.reserve));
      BasesToProto(c.bases, *charge.mutable_base());
    }
  }
}

Result<LoadedWmeOrders> Convert(const v1::WmeOrders& proto, std::string_view player,
                                const internal::Locator& locator) {
  OrdersConverter converter(proto);
  wme::TurnOrders orders = converter.Run(std::string(player));
  if (!converter.problems().empty()) return Located(converter.problems(), locator);
  return LoadedWmeOrders{std::move(orders), proto};
}

}  // namespace

Result<wme::TurnOrders> WmeOrdersFromProto(const v1::WmeOrders& proto, std::string_view player,
                                           std::string_view source) {
  auto loaded = Convert(proto, player, internal::Locator({}, std::string(source)));
  if (!loaded.ok()) return loaded.errors();
  return std::move(loaded).value().orders;
}

Result<LoadedWmeOrders> ParseWmeOrders(std::string_view bytes, Format format,
                                       std::string_view source, std::string_view player) {
  auto convert = [&player](const v1::WmeOrders& proto, const internal::Locator& locator) {
    return Convert(proto, player, locator);
  };
  return internal::LoadAnyFormat<v1::WmeOrders>(bytes, format, source, convert);
}

v1::WmeOrders WmeOrdersToProto(const wme::TurnOrders& orders) {
  v1::WmeOrders p;
  EntriesToProto(orders.initiative, *p.mutable_initiative());
  EntriesToProto(orders.orders, *p.mutable_orders());
  return p;
}

}  // namespace pbem::codec
