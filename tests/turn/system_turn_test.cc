// The system-neutral turn core (daemon/turn/system_turn.h) on a real SQLite store: Morne
// Plaine's bytes are those of its own turn job (turn_job.h) to the byte, and M42 and wme games
// are created, opened, played, replayed and refused through the game-system interface alone.
#include "daemon/turn/system_turn.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "daemon/turn/dice.h"
#include "daemon/turn/turn_job.h"
#include "engine/m42/orders.h"
#include "engine/morne_plaine/bot.h"
#include "pbem/v1/orders.pb.h"
#include "pbem/v1/turn_result.pb.h"
#include "proto/codec/codec.h"
#include "proto/codec/m42_codec.h"
#include "proto/codec/systems.h"
#include "storage/sqlite_repository.h"
#include "tests/engine/system/data_files.h"
#include "tests/support/temp_dir.h"
#include "tests/turn/turn_test_util.h"

namespace pbem::daemon {
namespace {

namespace gs = game_system;
using storage::Timestamp;

Timestamp At(std::int64_t ms) { return Timestamp(std::chrono::milliseconds(ms)); }

const gs::GameSystem& System(const gs::Registry& registry, std::string_view name) {
  const gs::Result<const gs::GameSystem*> system = registry.Find(name);
  REQUIRE(system.ok());
  return **system;
}

gs::Setup MornePlaineSetup() {
  const testing::BundledGame& b = testing::Bois();
  return codec::MornePlaineSetup(b.ruleset, b.scenario);
}

// An open SQLite store in a fresh directory.
struct Store {
  pbem::testing::TempDir dir{"pbem-systurn"};
  storage::SqliteRepository repository{dir.path()};
  Store() { REQUIRE(repository.OpenOrMigrate().ok()); }
};

std::string Binary(const pbem::v1::Orders& orders) {
  return codec::SerializeMessage(orders, codec::Format::kBinary);
}

// Orders written in text (the test's own), as their binary envelope.
std::string EnvelopeFromText(const std::string& text) {
  auto orders = codec::ParseOrders(text, codec::Format::kText, "test");
  INFO(orders.ErrorText());
  REQUIRE(orders.ok());
  return Binary(orders.value());
}

// The Morne Plaine bot's orders for `state` as an envelope.
pbem::v1::Orders MornePlaineBot(const engine::GameState& state, int seed) {
  const testing::BundledGame& b = testing::Bois();
  pbem::v1::Orders orders = codec::OrdersToProto(
      engine::BotOrders(b.ruleset.ruleset, b.scenario.scenario, state, seed), b.scenario.scenario);
  orders.set_game_id("demo");
  orders.set_turn(state.turn);
  orders.set_side(codec::SideToProto(state.side_to_move));
  return orders;
}

const engine::GameState& MornePlaineState(const gs::State& state) {
  const engine::GameState* s = state.handle.As<engine::GameState>("morne-plaine");
  REQUIRE(s != nullptr);
  return *s;
}

TEST_CASE("system turn: Morne Plaine resolves to the turn job's bytes", "[turn][system]") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& mp = System(registry, "morne-plaine");
  const gs::Setup setup = MornePlaineSetup();
  const testing::BundledGame& b = testing::Bois();

  // The initial state is the one MakeNewGame stores.
  const storage::NewGame legacy =
      MakeNewGame(b.ruleset.proto, b.scenario.proto, b.scenario.scenario, "demo", At(1000));
  const Result<storage::NewGame> made =
      MakeSystemGame(mp, setup, "demo", At(1000),
                     {b.scenario.proto.name(), b.ruleset.proto.name(), b.ruleset.proto.version(),
                      legacy.ruleset_proto, legacy.scenario_proto});
  REQUIRE(made.ok());
  CHECK(made->initial_state == legacy.initial_state);
  CHECK(made->engine_version == legacy.engine_version);
  CHECK(made->ruleset_name == legacy.ruleset_name);

  engine::GameState engine_state = engine::InitialState(b.scenario.scenario, "demo");
  gs::Result<gs::State> decoded = mp.DecodeState(setup, made->initial_state);
  REQUIRE(decoded.ok());
  gs::State state = *decoded;
  std::size_t verdicts = 0;
  for (int i = 0; i < 6; ++i) {
    const Bytes seed = Sha256("system-turn " + std::to_string(i));
    pbem::v1::Orders orders = MornePlaineBot(engine_state, 5 + i);
    orders.set_token("secret");  // never in the canonical bytes, on either path
    const Resolution want =
        ResolveWithSeed(b.ruleset.ruleset, b.scenario.scenario, engine_state, orders, seed);
    const Result<SystemResolution> got = ResolveSystemTurn(mp, setup, state, Binary(orders), seed);
    INFO("player-turn " << i << ": " << got.status().ToString());
    REQUIRE(got.ok());
    CHECK(got->canonical_orders == want.canonical_orders);
    CHECK(got->result == want.result);
    CHECK(got->next_state == want.next_state);
    CHECK(got->dice_key == DiceKey(seed, want.canonical_orders));
    CHECK(got->played.turn == engine_state.turn);
    CHECK(got->played.side == std::string(engine::SideName(engine_state.side_to_move)));
    CHECK(got->resolution.verdicts.size() ==
          static_cast<std::size_t>(want.result_proto.verdicts_size()));
    CHECK(got->finished == want.next.finished);
    REQUIRE(got->next_turn.has_value());
    CHECK(got->next_turn->turn == want.next.turn);
    CHECK(got->next_turn->side == std::string(engine::SideName(want.next.side_to_move)));
    verdicts += got->resolution.verdicts.size();
    engine_state = want.next;
    state = got->resolution.next;
    CHECK(MornePlaineState(state).turn == engine_state.turn);
  }
  CHECK(verdicts > 0);  // the bot gave orders, not only empty turns
}

TEST_CASE("system turn: Morne Plaine commits what the turn job commits", "[turn][system]") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& mp = System(registry, "morne-plaine");
  const gs::Setup setup = MornePlaineSetup();
  const testing::BundledGame& b = testing::Bois();
  Store job, core;
  const storage::NewGame game =
      MakeNewGame(b.ruleset.proto, b.scenario.proto, b.scenario.scenario, "demo", At(1000));
  REQUIRE(job.repository.CreateGame(game).ok());
  REQUIRE(core.repository.CreateGame(game).ok());
  FixedEntropy job_entropy("same"), core_entropy("same");
  REQUIRE(OpenTurn(job.repository, b.scenario.scenario, "demo", job_entropy, At(2000)).ok());
  const Result<OpenedTurn> opened =
      OpenSystemTurn(core.repository, mp, setup, "demo", core_entropy, At(2000));
  REQUIRE(opened.ok());
  CHECK(opened->recorded);
  CHECK(opened->stored.side == "blue");
  CHECK(opened->commitment.commitment() == Hex(Sha256(opened->stored.dice_seed)));

  for (int i = 0; i < 4; ++i) {
    Result<engine::GameState> state = CurrentState(job.repository, b.scenario.scenario, "demo");
    REQUIRE(state.ok());
    pbem::v1::Orders orders = MornePlaineBot(*state, 11 + i);
    if (i == 2) {  // a missed turn: the header alone, as pbemd's turn loop resolves it
      REQUIRE(orders.ParseFromString(
          *codec::EmptyOrdersEnvelope("morne-plaine", "demo", state->turn,
                                      std::string(engine::SideName(state->side_to_move)))));
    }
    CommitPlan plan;
    plan.based_on = i;
    plan.entropy = &job_entropy;
    const Result<ResolvedTurn> job_turn = ResolveAndCommit(
        job.repository, b.ruleset.ruleset, b.scenario.scenario, "demo", orders, At(3000 + i), plan);
    REQUIRE(job_turn.ok());
    CHECK_FALSE(job_turn->committed.replayed);
    SystemCommitPlan system_plan;
    system_plan.based_on = i;
    system_plan.entropy = &core_entropy;
    const Result<SystemCommittedTurn> committed = ResolveAndCommitSystemTurn(
        core.repository, mp, setup, "demo", Binary(orders), At(3000 + i), system_plan);
    INFO(committed.status().ToString());
    REQUIRE(committed.ok());
    CHECK_FALSE(committed->committed.replayed);
    CHECK(committed->resolution.has_value());
  }
  const Result<std::vector<storage::Turn>> want = job.repository.ListTurns("demo");
  const Result<std::vector<storage::Turn>> got = core.repository.ListTurns("demo");
  REQUIRE(want.ok());
  REQUIRE(got.ok());
  REQUIRE(got->size() == 4);
  REQUIRE(want->size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("turn " << i);
    CHECK((*got)[i].turn == (*want)[i].turn);
    CHECK((*got)[i].side == (*want)[i].side);
    CHECK((*got)[i].orders == (*want)[i].orders);
    CHECK((*got)[i].dice_seed == (*want)[i].dice_seed);
    CHECK((*got)[i].dice_commitment == (*want)[i].dice_commitment);
    CHECK((*got)[i].result == (*want)[i].result);
    CHECK((*got)[i].next_state == (*want)[i].next_state);
  }
  // The next turn is open in both stores with the same seed.
  const Result<storage::Game> game_now = core.repository.GetGame("demo");
  REQUIRE(game_now.ok());
  CHECK(game_now->state == job.repository.GetGame("demo")->state);
  const Result<OpenedTurn> next =
      OpenSystemTurn(core.repository, mp, setup, "demo", core_entropy, At(9000));
  REQUIRE(next.ok());
  CHECK_FALSE(next->recorded);  // opened in the last commit
  const Result<OpenedTurn> job_next =
      OpenTurn(job.repository, b.scenario.scenario, "demo", job_entropy, At(9000));
  REQUIRE(job_next.ok());
  CHECK(next->stored.dice_seed == job_next->stored.dice_seed);
}

// A game of `system` created with MakeSystemGame in `store` (id "g"), its first turn opened.
void CreateAndOpen(Store& store, const gs::GameSystem& system, const gs::Setup& setup,
                   EntropySource& entropy) {
  const Result<storage::NewGame> game = MakeSystemGame(
      system, setup, "g", At(1000), {"scenario", std::string(system.name()), "1", "", ""});
  REQUIRE(game.ok());
  CHECK(game->engine_version == std::string(kEngineVersion));
  CHECK(game->system == system.name());
  REQUIRE(store.repository.CreateGame(*game).ok());
  CHECK(store.repository.GetGame("g")->system == system.name());
  const Result<OpenedTurn> opened =
      OpenSystemTurn(store.repository, system, setup, "g", entropy, At(2000));
  INFO(opened.status().ToString());
  REQUIRE(opened.ok());
  CHECK(opened->recorded);
  FixedEntropy other("other");
  const Result<OpenedTurn> again =
      OpenSystemTurn(store.repository, system, setup, "g", other, At(2500));
  REQUIRE(again.ok());
  CHECK_FALSE(again->recorded);
  CHECK(again->stored.dice_seed == opened->stored.dice_seed);
}

// Commits `envelope` for the turn game "g" waits for and checks what is stored: the result
// reads back with the verdicts and events resolved and the open turn's dice revealed, the state
// round-trips, the next turn is open. Returns the committed turn.
storage::Turn CommitAndCheck(Store& store, const gs::GameSystem& system, const gs::Setup& setup,
                             const std::string& envelope, EntropySource& entropy, bool missed) {
  const Result<storage::Game> before = store.repository.GetGame("g");
  REQUIRE(before.ok());
  const Result<gs::State> state = CurrentSystemState(store.repository, system, setup, "g");
  REQUIRE(state.ok());
  const gs::TurnInfo turn = *system.WhoseTurn(setup, *state);
  const Result<storage::OpenTurn> open = store.repository.GetOpenTurn("g", turn.turn, turn.side);
  REQUIRE(open.ok());

  SystemCommitPlan plan;
  plan.based_on = before->turns_committed;
  plan.entropy = &entropy;
  plan.missed = missed;
  int aftermath_calls = 0;
  plan.aftermath = [&](const gs::State& resolved, const SystemResolution& resolution,
                       const storage::OpenTurn& was_open,
                       const std::optional<storage::OpenTurn>& next) -> Result<TurnAftermath> {
    ++aftermath_calls;
    CHECK(*system.EncodeState(setup, resolved) == before->state);
    CHECK(was_open.dice_seed == open->dice_seed);
    CHECK(resolution.played == turn);
    REQUIRE(next.has_value());
    REQUIRE(resolution.next_turn.has_value());
    CHECK(next->turn == resolution.next_turn->turn);
    CHECK(next->side == resolution.next_turn->side);
    return TurnAftermath{};
  };
  const Result<SystemCommittedTurn> committed = ResolveAndCommitSystemTurn(
      store.repository, system, setup, "g", envelope, At(3000 + before->turns_committed), plan);
  INFO(committed.status().ToString());
  REQUIRE(committed.ok());
  CHECK(aftermath_calls == 1);
  CHECK_FALSE(committed->committed.replayed);
  REQUIRE(committed->resolution.has_value());
  const SystemResolution& resolution = *committed->resolution;
  const storage::Turn& stored = committed->committed.turn;
  CHECK(stored.turn == turn.turn);
  CHECK(stored.side == turn.side);
  CHECK(stored.orders == *codec::CanonicalOrdersEnvelope(envelope));

  // The stored result reads back through the system: the verdicts and events resolved.
  const gs::Result<gs::TurnResolution> read = system.DecodeTurnResult(setup, stored.result);
  INFO(read.status().message());
  REQUIRE(read.ok());
  CHECK(read->verdicts.size() == resolution.resolution.verdicts.size());
  CHECK(read->events.size() == resolution.resolution.events.size());
  CHECK(*system.EncodeState(setup, read->next) == stored.next_state);
  // ... and reveals the dice committed to when the turn opened.
  pbem::v1::TurnResult envelope_read;
  REQUIRE(envelope_read.ParseFromString(stored.result));
  pbem::v1::DiceCommitment published;
  REQUIRE(published.ParseFromString(open->dice_commitment));
  CHECK(envelope_read.dice().commitment() == published.commitment());
  CHECK(envelope_read.dice().revealed_seed() == Hex(open->dice_seed));
  CHECK(envelope_read.turn() == turn.turn);
  CHECK(envelope_read.player() == turn.side);

  // The stored state round-trips and is the game's state now; the next turn is open.
  const Result<storage::Game> after = store.repository.GetGame("g");
  REQUIRE(after.ok());
  CHECK(after->turns_committed == before->turns_committed + 1);
  CHECK(after->state == stored.next_state);
  const gs::Result<gs::State> next = system.DecodeState(setup, stored.next_state);
  REQUIRE(next.ok());
  CHECK(*system.EncodeState(setup, *next) == stored.next_state);
  const gs::TurnInfo next_turn = *system.WhoseTurn(setup, *next);
  CHECK(next_turn != turn);
  CHECK(store.repository.GetOpenTurn("g", next_turn.turn, next_turn.side).ok());
  return stored;
}

std::string M42Envelope(const gs::GameSystem& m42, const gs::Setup& setup, const gs::State& state,
                        std::uint64_t seed) {
  const gs::Result<gs::Orders> bot = m42.BotOrders(setup, state, seed);
  REQUIRE(bot.ok());
  const m42::Orders* orders = bot->handle.As<m42::Orders>("m42");
  REQUIRE(orders != nullptr);
  pbem::v1::Orders envelope;
  envelope.set_game_id("g");
  envelope.set_turn(m42.WhoseTurn(setup, state)->turn);
  envelope.set_player(orders->player);
  *envelope.mutable_m42() = codec::M42OrdersToProto(*orders);
  return Binary(envelope);
}

TEST_CASE("system turn: an M42 game is created, played, replayed and missed", "[turn][system]") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& m42 = System(registry, "m42");
  REQUIRE_FALSE(m42.BundledScenarios().empty());
  const gs::Result<gs::Setup> setup = m42.LoadBundled(m42.BundledScenarios().front());
  REQUIRE(setup.ok());
  Store store;
  FixedEntropy entropy("m42");
  CreateAndOpen(store, m42, *setup, entropy);

  std::vector<std::string> envelopes;
  std::size_t verdicts = 0;
  for (int i = 0; i < 3; ++i) {
    const Result<gs::State> state = CurrentSystemState(store.repository, m42, *setup, "g");
    REQUIRE(state.ok());
    envelopes.push_back(M42Envelope(m42, *setup, *state, 7 + i));
    const storage::Turn stored =
        CommitAndCheck(store, m42, *setup, envelopes.back(), entropy, false);
    const gs::Result<gs::TurnResolution> read = m42.DecodeTurnResult(*setup, stored.result);
    REQUIRE(read.ok());
    verdicts += read->verdicts.size();
  }
  CHECK(verdicts > 0);  // the bot's actions were played, not dropped

  // A retry of the first turn (its header names it) is a replay: nothing stored.
  const Result<std::vector<storage::Turn>> turns = store.repository.ListTurns("g");
  REQUIRE(turns.ok());
  REQUIRE(turns->size() == 3);
  const Result<SystemCommittedTurn> retry =
      ResolveAndCommitSystemTurn(store.repository, m42, *setup, "g", envelopes[0], At(9000));
  INFO(retry.status().ToString());
  REQUIRE(retry.ok());
  CHECK(retry->committed.replayed);
  CHECK_FALSE(retry->resolution.has_value());
  CHECK(retry->committed.turn.result == turns->front().result);
  CHECK(retry->committed.turn.committed_at == turns->front().committed_at);
  CHECK(store.repository.GetGame("g")->turns_committed == 3);

  // A missed turn: the empty envelope of the player to move commits, with no verdicts.
  const gs::TurnInfo turn =
      *m42.WhoseTurn(*setup, *CurrentSystemState(store.repository, m42, *setup, "g"));
  const std::optional<std::string> empty =
      codec::EmptyOrdersEnvelope("m42", "g", turn.turn, turn.side);
  REQUIRE(empty.has_value());
  const storage::Turn missed = CommitAndCheck(store, m42, *setup, *empty, entropy, true);
  CHECK(m42.DecodeTurnResult(*setup, missed.result)->verdicts.empty());
  const std::optional<gs::TurnInfo> header = codec::OrdersHeader(missed.orders);
  REQUIRE(header.has_value());
  CHECK(*header == turn);
}

TEST_CASE("system turn: a wme game is created, played and missed", "[turn][system]") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& wme = System(registry, "wme");
  const gs::Result<gs::Setup> setup =
      wme.Load(gs::test::BundledData("wme", "wme/palissade.textproto"));
  INFO(setup.status().message());
  REQUIRE(setup.ok());
  Store store;
  FixedEntropy entropy("wme");
  CreateAndOpen(store, wme, *setup, entropy);

  // Blue moves and charges (a verdict for each), then red and blue miss their turns.
  const std::string blue = EnvelopeFromText(R"(game_id: "g" turn: 1 player: "blue"
      wme { orders { move { unit: "b_inf2" base { id: "b_inf2.1" leg { translate { x: 80 y: 90 } } } } }
            orders { charge { unit: "b_cav" target: "r_cav" } } })");
  const storage::Turn first = CommitAndCheck(store, wme, *setup, blue, entropy, false);
  CHECK(wme.DecodeTurnResult(*setup, first.result)->verdicts.size() == 2);
  CHECK(first.side == "blue");

  for (int i = 0; i < 2; ++i) {
    const gs::TurnInfo turn =
        *wme.WhoseTurn(*setup, *CurrentSystemState(store.repository, wme, *setup, "g"));
    const std::optional<std::string> empty =
        codec::EmptyOrdersEnvelope("wme", "g", turn.turn, turn.side);
    REQUIRE(empty.has_value());
    const storage::Turn stored = CommitAndCheck(store, wme, *setup, *empty, entropy, true);
    CHECK(wme.DecodeTurnResult(*setup, stored.result)->verdicts.empty());
  }
  CHECK(store.repository.GetGame("g")->turns_committed == 3);

  // A retry of blue's first turn (its header names it) is a replay: nothing stored.
  const Result<SystemCommittedTurn> retry =
      ResolveAndCommitSystemTurn(store.repository, wme, *setup, "g", blue, At(9000));
  REQUIRE(retry.ok());
  CHECK(retry->committed.replayed);
  CHECK(retry->committed.turn.result == first.result);
  CHECK(store.repository.GetGame("g")->turns_committed == 3);
}

TEST_CASE("system turn: another system's orders, an unopened or finished game are refused",
          "[turn][system]") {
  const gs::Registry registry = codec::SystemRegistry();
  const gs::GameSystem& m42 = System(registry, "m42");
  const gs::Result<gs::Setup> setup = m42.LoadBundled(m42.BundledScenarios().front());
  REQUIRE(setup.ok());
  Store store;
  const Result<storage::NewGame> game =
      MakeSystemGame(m42, *setup, "g", At(1000), {"scenario", "m42", "1", "", ""});
  REQUIRE(game.ok());
  REQUIRE(store.repository.CreateGame(*game).ok());

  // Not opened: no dice were committed to.
  const std::optional<std::string> empty = codec::EmptyOrdersEnvelope("m42", "g", 1, "blue");
  REQUIRE(empty.has_value());
  const Result<SystemCommittedTurn> early =
      ResolveAndCommitSystemTurn(store.repository, m42, *setup, "g", *empty, At(1500));
  REQUIRE_FALSE(early.ok());
  CHECK(early.status().code() == StatusCode::kFailedPrecondition);
  CHECK_THAT(early.status().message(), Catch::Contains("never opened"));

  FixedEntropy entropy("refusals");
  REQUIRE(OpenSystemTurn(store.repository, m42, *setup, "g", entropy, At(2000)).ok());
  // Morne Plaine's orders, wme's body, bytes that are no envelope: refused naming what is
  // wrong, nothing stored.
  const struct {
    std::string envelope;
    const char* says;
  } refused[] = {
      {*codec::EmptyOrdersEnvelope("morne-plaine", "g", 1, "blue"), "field m42: missing"},
      {*codec::EmptyOrdersEnvelope("wme", "g", 1, "blue"),
       "field wme: the orders are written for wme; this game plays m42"},
      {std::string("\xff\xff\xff", 3), "not an orders envelope"},
  };
  for (const auto& r : refused) {
    const Result<SystemCommittedTurn> got =
        ResolveAndCommitSystemTurn(store.repository, m42, *setup, "g", r.envelope, At(3000));
    REQUIRE_FALSE(got.ok());
    CHECK(got.status().code() == StatusCode::kInvalidArgument);
    CHECK_THAT(got.status().message(), Catch::Contains(r.says));
    CHECK(store.repository.GetGame("g")->turns_committed == 0);
    CHECK(store.repository.ListTurns("g")->empty());
  }
  // Orders chosen for another position.
  SystemCommitPlan stale;
  stale.based_on = 4;
  const Result<SystemCommittedTurn> moved =
      ResolveAndCommitSystemTurn(store.repository, m42, *setup, "g", *empty, At(3000), stale);
  CHECK(moved.status().code() == StatusCode::kFailedPrecondition);

  // A finished Morne Plaine game: no turn opens, none is committed.
  const gs::GameSystem& mp = System(registry, "morne-plaine");
  const gs::Setup mp_setup = MornePlaineSetup();
  const testing::BundledGame& b = testing::Bois();
  engine::GameState over = engine::InitialState(b.scenario.scenario, "over");
  over.finished = true;
  Result<storage::NewGame> finished =
      MakeSystemGame(mp, mp_setup, "over", At(1000), {"bois", "morne-plaine", "1", "", ""});
  REQUIRE(finished.ok());
  finished->initial_state = codec::SerializeMessage(codec::StateToProto(over, b.scenario.scenario),
                                                    codec::Format::kBinary);
  REQUIRE(store.repository.CreateGame(*finished).ok());
  const Result<OpenedTurn> open_over =
      OpenSystemTurn(store.repository, mp, mp_setup, "over", entropy, At(2000));
  REQUIRE_FALSE(open_over.ok());
  CHECK(open_over.status().code() == StatusCode::kFailedPrecondition);
  CHECK_THAT(open_over.status().message(), Catch::Contains("finished"));
  const Result<SystemCommittedTurn> commit_over = ResolveAndCommitSystemTurn(
      store.repository, mp, mp_setup, "over",
      *codec::EmptyOrdersEnvelope("morne-plaine", "over", 0, "blue"), At(3000));
  REQUIRE_FALSE(commit_over.ok());
  CHECK(commit_over.status().code() == StatusCode::kFailedPrecondition);
  CHECK_THAT(commit_over.status().message(), Catch::Contains("finished"));
  CHECK(store.repository.GetGame("over")->turns_committed == 0);
}

TEST_CASE("system turn: the shared envelope functions", "[turn][system]") {
  // Morne Plaine's missed turn is the header pbemd's turn loop has always resolved.
  pbem::v1::Orders missed;
  missed.set_game_id("demo");
  missed.set_turn(3);
  missed.set_side(pbem::v1::SIDE_ORANGE);
  CHECK(codec::EmptyOrdersEnvelope("morne-plaine", "demo", 3, "orange") ==
        codec::CanonicalOrders(missed));
  CHECK_FALSE(codec::EmptyOrdersEnvelope("morne-plaine", "demo", 3, "purple").has_value());
  CHECK_FALSE(codec::EmptyOrdersEnvelope("chess", "demo", 3, "white").has_value());
  const std::optional<gs::TurnInfo> mp_header =
      codec::OrdersHeader(*codec::EmptyOrdersEnvelope("morne-plaine", "demo", 3, "orange"));
  REQUIRE(mp_header.has_value());
  CHECK(*mp_header == gs::TurnInfo{3, "orange"});
  const std::optional<gs::TurnInfo> wme_header =
      codec::OrdersHeader(*codec::EmptyOrdersEnvelope("wme", "g", 2, "red"));
  REQUIRE(wme_header.has_value());
  CHECK(*wme_header == gs::TurnInfo{2, "red"});
  CHECK_FALSE(codec::OrdersHeader(std::string("\xff\xff\xff", 3)).has_value());
  CHECK_FALSE(codec::CanonicalOrdersEnvelope(std::string("\xff\xff\xff", 3)).has_value());

  // The dice go into the result's envelope and nothing else changes.
  pbem::v1::TurnResult result;
  result.set_turn(2);
  result.set_player("red");
  const std::string bytes = codec::SerializeMessage(result, codec::Format::kBinary);
  const std::optional<std::string> with_dice =
      codec::TurnResultWithDice(bytes, RevealedCommitmentFor(Bytes(kSeedBytes, 's')));
  REQUIRE(with_dice.has_value());
  pbem::v1::TurnResult read;
  REQUIRE(read.ParseFromString(*with_dice));
  CHECK(read.dice().revealed_seed() == Hex(Bytes(kSeedBytes, 's')));
  read.clear_dice();
  CHECK(codec::SerializeMessage(read, codec::Format::kBinary) == bytes);
  CHECK_FALSE(codec::TurnResultWithDice(std::string("\xff\xff\xff", 3), {}).has_value());
}

}  // namespace
}  // namespace pbem::daemon
