// M42 orders in any format (proto/codec/m42_codec.h ParseM42Orders, the format guessed as for a
// mail part), then checked by the rules against the bundled scenario's first player-turn: the
// codec's numbers and the engine's validation pipeline both meet hostile orders. A loaded
// message round-trips, what M42OrdersToProto writes back loads to the same orders, and the
// rules give one verdict per action.
#include "engine/m42/resolve.h"
#include "engine/m42/ruleset.h"
#include "engine/m42/scenarios.h"
#include "engine/m42/state.h"
#include "proto/codec/m42_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace m42 = pbem::m42;
  static const m42::Ruleset ruleset = m42::DefaultRuleset();
  static const m42::Scenario scenario = m42::PumpingStation();
  static const m42::State state = *m42::InitialState(ruleset, scenario).state;
  const std::string_view bytes = pbem::fuzz::AsText(data, size);
  const auto loaded =
      pbem::codec::ParseM42Orders(bytes, pbem::codec::DetectFormat(bytes), "fuzz", "blue");
  if (!loaded.ok()) {
    if (loaded.errors().empty()) pbem::fuzz::Fail("orders refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(loaded.value().proto);
  const pbem::v1::M42Orders written = pbem::codec::M42OrdersToProto(loaded.value().orders);
  const auto again = pbem::codec::M42OrdersFromProto(written, "blue", "fuzz proto");
  if (!again.ok()) pbem::fuzz::Fail("loaded orders written back do not load: " + again.ErrorText());
  if (pbem::codec::SerializeMessage(pbem::codec::M42OrdersToProto(again.value()),
                                    pbem::codec::Format::kBinary) !=
      pbem::codec::SerializeMessage(written, pbem::codec::Format::kBinary)) {
    pbem::fuzz::Fail("loaded orders written back load to other orders");
  }
  const std::vector<m42::Verdict> verdicts =
      m42::CheckOrders(ruleset, scenario, state, loaded.value().orders);
  if (verdicts.size() != loaded.value().orders.actions.size()) {
    pbem::fuzz::Fail("not one verdict per action");
  }
  return 0;
}
