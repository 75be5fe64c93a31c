// The registry (engine/system/registry.h): the systems it knows and a clear error for others.
#include "engine/system/registry.h"

#include <string>
#include <vector>

#include "engine/system/m42.h"
#include "engine/system/morne_plaine.h"
#include "tests/engine/mini_test.h"

namespace pbem::game_system {
namespace {

TEST_CASE_MINI(BuiltinRegistryHasTheThreeSystems) {
  const Registry registry = BuiltinRegistry();
  CHECK_MINI((registry.Names() == std::vector<std::string>{"m42", "morne-plaine", "wme"}));
  for (const std::string& name : registry.Names()) {
    const Result<const GameSystem*> system = registry.Find(name);
    REQUIRE_MINI(system.ok());
    CHECK_EQ_MINI(std::string((*system)->name()), name);
  }
}

TEST_CASE_MINI(UnknownSystemIsAClearError) {
  const Registry registry = BuiltinRegistry();
  const Result<const GameSystem*> system = registry.Find("chess");
  REQUIRE_MINI(!system.ok());
  CHECK_MINI(system.status().code() == StatusCode::kUnknownSystem);
  CHECK_EQ_MINI(system.status().message(),
                std::string("unknown game system 'chess' (known: m42, morne-plaine, wme)"));
}

// A handle made by one system is refused by another, naming both.
TEST_CASE_MINI(AHandleOfAnotherSystemIsRefused) {
  const Registry registry = BuiltinRegistry();
  const GameSystem& m42 = **registry.Find("m42");
  const Result<Setup> setup = m42.LoadBundled("pumping_station");
  REQUIRE_MINI(setup.ok());
  const State foreign = MornePlaineStateOf(engine::GameState{});
  const Result<TurnInfo> turn = m42.WhoseTurn(*setup, foreign);
  REQUIRE_MINI(!turn.ok());
  CHECK_MINI(turn.status().code() == StatusCode::kInvalidArgument);
  CHECK_EQ_MINI(turn.status().message(),
                std::string("m42: the state handle was made by 'morne-plaine'"));
}

// Orders are protobuf, which the engine cannot read: without the codec's decoder every system
// says where the reader is (proto/codec/systems.h registers it).
TEST_CASE_MINI(DecodeOrdersNeedsTheCodec) {
  const Registry registry = BuiltinRegistry();
  for (const std::string& name : registry.Names()) {
    const Result<Orders> orders = (*registry.Find(name))->DecodeOrders(Setup{}, "");
    REQUIRE_MINI(!orders.ok());
    CHECK_MINI(orders.status().code() == StatusCode::kNotSupported);
    CHECK_MINI(orders.status().message().find("with the codec's orders decoder") !=
               std::string::npos);
  }
}

}  // namespace
}  // namespace pbem::game_system
