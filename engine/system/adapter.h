// What the adapters (morne_plaine.cc, m42.cc, wme.cc) share: reading their own handles back
// and the statuses they answer with. Not for code outside engine/system, except the codec's
// types the systems' Make functions take (TurnResultCodec).
#ifndef PBEM_ENGINE_SYSTEM_ADAPTER_H_
#define PBEM_ENGINE_SYSTEM_ADAPTER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/system/game_system.h"

namespace pbem::game_system::adapter {

// The value of `handle` when `system` made it with type T; else kInvalidArgument naming
// `what` ("state") and who made it.
template <typename T>
Result<const T*> Read(std::string_view system, const Handle& handle, std::string_view what) {
  if (const T* value = handle.As<T>(system)) return value;
  std::string why;
  if (handle.empty()) {
    why = "is empty";
  } else if (handle.system() != system) {
    why = "was made by '" + handle.system() + "'";
  } else {
    why = "holds another kind of value";
  }
  return Status(StatusCode::kInvalidArgument,
                std::string(system) + ": the " + std::string(what) + " handle " + why);
}

// A call's inputs read back at once: the setup, the state and (for order calls) the orders,
// each checked as Read does. `orders` stays null for calls without orders.
template <typename SetupT, typename StateT, typename OrdersT = void>
struct Inputs {
  const SetupT* setup = nullptr;
  const StateT* state = nullptr;
  const OrdersT* orders = nullptr;
};

template <typename SetupT, typename StateT>
Result<Inputs<SetupT, StateT>> ReadInputs(std::string_view system, const Setup& setup,
                                          const State& state) {
  const Result<const SetupT*> s = Read<SetupT>(system, setup.handle, "setup");
  if (!s.ok()) return s.status();
  const Result<const StateT*> st = Read<StateT>(system, state.handle, "state");
  if (!st.ok()) return st.status();
  return Inputs<SetupT, StateT>{*s, *st};
}

template <typename SetupT, typename StateT, typename OrdersT>
Result<Inputs<SetupT, StateT, OrdersT>> ReadInputs(std::string_view system, const Setup& setup,
                                                   const State& state, const Orders& orders) {
  const Result<Inputs<SetupT, StateT>> in = ReadInputs<SetupT, StateT>(system, setup, state);
  if (!in.ok()) return in.status();
  const Result<const OrdersT*> o = Read<OrdersT>(system, orders.handle, "orders");
  if (!o.ok()) return o.status();
  return Inputs<SetupT, StateT, OrdersT>{in->setup, in->state, *o};
}

// kNotSupported: "<system>: <what is missing>".
Status NotSupported(std::string_view system, std::string_view missing);

// The codec side's reader of a system's orders (DecodeOrders): the envelope's bytes to the
// system's orders.
template <typename OrdersT>
using OrdersDecoder = std::function<Result<OrdersT>(std::string_view envelope)>;

// DecodeOrders through `decoder`, wrapped by `wrap`; without one, kNotSupported naming `make`.
template <typename OrdersT>
Result<Orders> DecodeThrough(std::string_view system, const OrdersDecoder<OrdersT>& decoder,
                             std::string_view envelope, std::string_view make,
                             Orders (*wrap)(OrdersT)) {
  if (!decoder) {
    return NotSupported(system,
                        "orders are protobuf (pbem.v1.Orders), read by proto/codec, "
                        "which the engine cannot link; register " +
                            std::string(make) + " with the codec's orders decoder");
  }
  Result<OrdersT> orders = decoder(envelope);
  if (!orders.ok()) return orders.status();
  return wrap(std::move(orders).value());
}

// The codec side's writer and reader of a system's turn results (EncodeTurnResult,
// DecodeTurnResult) on the system's own values: ResultT is its resolver's result (verdicts,
// events, next state); `encode` is given the state the turn was played from.
template <typename SetupT, typename StateT, typename ResultT>
struct TurnResultCodec {
  std::function<Result<std::string>(const SetupT&, const StateT& before, const ResultT&)> encode;
  std::function<Result<ResultT>(const SetupT&, std::string_view bytes)> decode;
};

// kNotSupported for a turn-result call without the codec, naming `make`.
Status NoTurnResultCodec(std::string_view system, std::string_view make);

// EncodeTurnResult through `codec`: the resolution's verdict and event details and next state
// read back as the system's VerdictT, EventT and StateT (each checked as Read does), made into
// its ResultT by `build(verdicts, events, next)`, then encoded with the setup and `before`.
template <typename SetupT, typename StateT, typename VerdictT, typename EventT, typename ResultT,
          typename Build>
Result<std::string> EncodeTurnResultThrough(std::string_view system,
                                            const TurnResultCodec<SetupT, StateT, ResultT>& codec,
                                            const Setup& setup, const State& before,
                                            const TurnResolution& resolution, std::string_view make,
                                            Build build) {
  if (!codec.encode) return NoTurnResultCodec(system, make);
  const auto in = ReadInputs<SetupT, StateT>(system, setup, before);
  if (!in.ok()) return in.status();
  std::vector<VerdictT> verdicts;
  verdicts.reserve(resolution.verdicts.size());
  for (const Verdict& v : resolution.verdicts) {
    const Result<const VerdictT*> d = Read<VerdictT>(system, v.detail, "verdict");
    if (!d.ok()) return d.status();
    verdicts.push_back(**d);
  }
  std::vector<EventT> events;
  events.reserve(resolution.events.size());
  for (const Event& e : resolution.events) {
    const Result<const EventT*> d = Read<EventT>(system, e.detail, "event");
    if (!d.ok()) return d.status();
    events.push_back(**d);
  }
  const Result<const StateT*> next = Read<StateT>(system, resolution.next.handle, "next state");
  if (!next.ok()) return next.status();
  return codec.encode(*in->setup, *in->state,
                      build(std::move(verdicts), std::move(events), **next));
}

// DecodeTurnResult through `codec`: the system's ResultT read from `bytes` against the setup,
// then made a TurnResolution by `resolution_of`.
template <typename SetupT, typename StateT, typename ResultT>
Result<TurnResolution> DecodeTurnResultThrough(
    std::string_view system, const TurnResultCodec<SetupT, StateT, ResultT>& codec,
    const Setup& setup, std::string_view bytes, std::string_view make,
    TurnResolution (*resolution_of)(ResultT)) {
  if (!codec.decode) return NoTurnResultCodec(system, make);
  const Result<const SetupT*> s = Read<SetupT>(system, setup.handle, "setup");
  if (!s.ok()) return s.status();
  Result<ResultT> result = codec.decode(**s, bytes);
  if (!result.ok()) return result.status();
  return resolution_of(std::move(result).value());
}

// Load for a system whose data the codec side parses (Morne Plaine, M42: text-format protobuf,
// which the engine cannot link): the setup `parser` gives, wrapped by `wrap`; without a parser,
// kNotSupported naming the codec's `loaders` and the Make function that takes the parser.
template <typename SetupT>
Result<Setup> LoadThrough(std::string_view system,
                          const std::function<Result<SetupT>(const GameData&)>& parser,
                          const GameData& data, std::string_view loaders, std::string_view make,
                          Setup (*wrap)(SetupT)) {
  if (!parser) {
    return NotSupported(system, "its data is text-format protobuf, parsed by proto/codec (" +
                                    std::string(loaders) +
                                    "), which the engine cannot link; register " +
                                    std::string(make) + "(parser) with the codec's parser");
  }
  Result<SetupT> parsed = parser(data);
  if (!parsed.ok()) return parsed.status();
  return wrap(std::move(parsed).value());
}

// An engine's code as the word an Arg carries: "AT_THE_DOUBLE" -> "at_the_double".
std::string LowerWord(std::string_view code);

// The kind names of every alternative of the engine's event variant EventT, in its order, each
// given by `kind_name(EventT)` (the engine's EventKindName): GameSystem::EventKinds.
template <typename EventT, typename KindName>
std::vector<std::string> VariantKindNames(KindName kind_name) {
  std::vector<std::string> kinds;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (kinds.emplace_back(kind_name(EventT(std::in_place_index<I>))), ...);
  }
  (std::make_index_sequence<std::variant_size_v<EventT>>());
  return kinds;
}

// What an event's fields visitor (one operator() per alternative) fills: Event::unit and args,
// lengths in the system's `length_unit`.
struct EventFields {
  Event* out;
  std::string_view length_unit;
  void Add(std::string name, std::string value, std::string_view unit = {}) const {
    out->args.push_back(Arg{std::move(name), std::move(value), std::string(unit)});
  }
  void Length(std::string name, std::int64_t thousandths) const {
    Add(std::move(name), std::to_string(thousandths), length_unit);
  }
  void Angle(std::string name, std::int64_t mdeg) const {
    Add(std::move(name), std::to_string(mdeg), kThousandthsOfADegree);
  }
};

// The game_system::Event of the engine's event `e` of kind `kind`: unit and args by
// `Fields{{&event, length_unit}}` visiting it, `detail` the event itself. One function for
// ResolvePlayerTurn and DecodeTurnResult alike, so that both give the same args.
template <typename Fields, typename EventT>
Event EventOf(std::string_view system, std::string_view kind, std::string_view length_unit,
              EventT e) {
  Event out;
  out.kind = std::string(kind);
  std::visit(Fields{{&out, length_unit}}, e);
  out.detail = Handle::Of(system, std::move(e));
  return out;
}

// kNotFound for a bundled scenario, listing the bundled ones.
Status NoBundledScenario(std::string_view system, std::string_view name,
                         const std::vector<std::string>& bundled);

}  // namespace pbem::game_system::adapter

#endif  // PBEM_ENGINE_SYSTEM_ADAPTER_H_
