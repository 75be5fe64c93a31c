// M42's orders (m42_codec.h; the schema and its number rule: m42_orders.proto). Conversion
// collects problems as (field path, message) and locates them at the end, as the data files'
// converters do; every list is bounded before it is walked, nothing recurses on input.
#include <string>
#include <utility>

#include "proto/codec/data_checker.h"
#include "proto/codec/m42_action_checker.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/text_locations.h"

namespace pbem::codec {
namespace {

namespace v1 = pbem::v1;
using internal::FromThousandths;
using internal::Indexed;
using internal::Located;
using internal::ToProtoEnum;

constexpr int kMaxActions = 1000;
constexpr int kMaxModelOrders = 10000;
constexpr int kMaxVertices = 10000;
constexpr double kMaxCoordIn = 1000;
constexpr double kMaxFaceDeg = 360;
constexpr int kMaxFloor = 1000;

class OrdersConverter : public internal::M42Checker {
 public:
  explicit OrdersConverter(const v1::M42Orders& proto) : p_(proto) {}

  m42::Orders Run(std::string player) {
    m42::Orders out;
    out.player = std::move(player);
    if (!Count("action", p_.action_size(), 0, kMaxActions)) return out;
    for (int i = 0; i < p_.action_size(); ++i) {
      out.actions.push_back(Action(Indexed("action", i), p_.action(i)));
    }
    return out;
  }

 private:
  m42::UnitOrder Action(const std::string& path, const v1::M42Action& a) {
    m42::UnitOrder out;
    if (Id(path + ".unit", a.unit())) out.unit = a.unit();
    ActionAndFire(path + ".kind", a.kind(), path + ".fire", a.fire(), out.kind, out.fire);
    if (!Count(path + ".model", a.model_size(), 0, kMaxModelOrders)) return out;
    for (int i = 0; i < a.model_size(); ++i) {
      out.models.push_back(Model(Indexed(path + ".model", i), a.model(i)));
    }
    return out;
  }

  m42::ModelOrder Model(const std::string& path, const v1::M42ModelOrder& m) {
    m42::ModelOrder out;
    if (Id(path + ".id", m.id())) out.id = m.id();
    if (m.has_face_deg()) {
      std::int64_t mdeg = 0;
      if (Decimal3(path + ".face_deg", m.face_deg(), kMaxFaceDeg, "degrees", "a degree", mdeg)) {
        out.face_mdeg = mdeg;
      }
    }
    if (!Count(path + ".path", m.path_size(), 0, kMaxVertices)) return out;
    for (int i = 0; i < m.path_size(); ++i) {
      const std::string at = Indexed(path + ".path", i);
      const v1::M42PathVertex& v = m.path(i);
      m42::PathVertex vertex;
      Decimal3(at + ".x", v.x(), kMaxCoordIn, "inches", "an inch", vertex.x_thou);
      Decimal3(at + ".y", v.y(), kMaxCoordIn, "inches", "an inch", vertex.y_thou);
      if (v.has_floor()) {
        int floor = 0;
        if (InRange(at + ".floor", v.floor(), 0, kMaxFloor, floor)) vertex.floor = floor;
      }
      out.path.push_back(vertex);
    }
    return out;
  }

  const v1::M42Orders& p_;
};

Result<LoadedM42Orders> Convert(const v1::M42Orders& proto, std::string_view player,
                                const internal::Locator& locator) {
  OrdersConverter converter(proto);
  m42::Orders orders = converter.Run(std::string(player));
  if (!converter.problems().empty()) return Located(converter.problems(), locator);
  return LoadedM42Orders{std::move(orders), proto};
}

}  // namespace

Result<m42::Orders> M42OrdersFromProto(const v1::M42Orders& proto, std::string_view player,
                                       std::string_view source) {
  auto loaded = Convert(proto, player, internal::Locator({}, std::string(source)));
  if (!loaded.ok()) return loaded.errors();
  return std::move(loaded).value().orders;
}

Result<LoadedM42Orders> ParseM42Orders(std::string_view bytes, Format format,
                                       std::string_view source, std::string_view player) {
  auto convert = [&player](const v1::M42Orders& proto, const internal::Locator& locator) {
    return Convert(proto, player, locator);
  };
  return internal::LoadAnyFormat<v1::M42Orders>(bytes, format, source, convert);
}

v1::M42Orders M42OrdersToProto(const m42::Orders& orders) {
  v1::M42Orders p;
  for (const m42::UnitOrder& a : orders.actions) {
    v1::M42Action& action = *p.add_action();
    action.set_unit(a.unit);
    action.set_kind(ToProtoEnum(internal::kM42Actions, a.kind));
    action.set_fire(ToProtoEnum(internal::kM42Fires, a.fire));
    for (const m42::ModelOrder& m : a.models) {
      v1::M42ModelOrder& model = *action.add_model();
      model.set_id(m.id);
      for (const m42::PathVertex& v : m.path) {
        v1::M42PathVertex& vertex = *model.add_path();
        vertex.set_x(FromThousandths(v.x_thou));
        vertex.set_y(FromThousandths(v.y_thou));
        if (v.floor) vertex.set_floor(*v.floor);
      }
      if (m.face_mdeg) model.set_face_deg(FromThousandths(*m.face_mdeg));
    }
  }
  return p;
}

}  // namespace pbem::codec
