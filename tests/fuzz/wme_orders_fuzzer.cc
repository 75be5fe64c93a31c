// The French game's orders in any format (proto/codec/wme_codec.h ParseWmeOrders, the format
// guessed as for a mail part), then checked by the rules against the bundled scenario's first
// player-turn with seeded dice: the codec's numbers and the engine's validation and charge
// placement both meet hostile orders. A loaded message round-trips, what WmeOrdersToProto
// writes back loads to the same orders, and the rules give one verdict per entry.
#include "engine/wme/dice.h"
#include "engine/wme/resolve.h"
#include "engine/wme/ruleset.h"
#include "engine/wme/state.h"
#include "proto/codec/wme_codec.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace wme = pbem::wme;
  static const wme::Ruleset ruleset = wme::DefaultRuleset();
  static const wme::Scenario& scenario = pbem::fuzz::BundledWmeScenario();
  static const wme::State state = *wme::InitialState(ruleset, scenario).state;
  const std::string_view bytes = pbem::fuzz::AsText(data, size);
  const auto loaded = pbem::codec::ParseWmeOrders(bytes, pbem::codec::DetectFormat(bytes), "fuzz",
                                                  scenario.players[state.active_player]);
  if (!loaded.ok()) {
    if (loaded.errors().empty()) pbem::fuzz::Fail("orders refused without an error");
    return 0;
  }
  pbem::fuzz::CheckRoundTrip(loaded.value().proto);
  const pbem::v1::WmeOrders written = pbem::codec::WmeOrdersToProto(loaded.value().orders);
  const auto again =
      pbem::codec::WmeOrdersFromProto(written, scenario.players[state.active_player], "fuzz proto");
  if (!again.ok()) pbem::fuzz::Fail("loaded orders written back do not load: " + again.ErrorText());
  if (pbem::codec::SerializeMessage(pbem::codec::WmeOrdersToProto(again.value()),
                                    pbem::codec::Format::kBinary) !=
      pbem::codec::SerializeMessage(written, pbem::codec::Format::kBinary)) {
    pbem::fuzz::Fail("loaded orders written back load to other orders");
  }
  wme::SeededDice dice(1);
  const std::vector<wme::Verdict> verdicts =
      wme::CheckOrders(ruleset, scenario, state, loaded.value().orders, dice);
  if (verdicts.size() !=
      loaded.value().orders.initiative.size() + loaded.value().orders.orders.size()) {
    pbem::fuzz::Fail("not one verdict per entry");
  }
  return 0;
}
