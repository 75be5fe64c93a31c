// The fault points' one syntax (daemon/fault_point.h): PBEM_FAULT=<point>:<action>[:<argument>].
#include "daemon/fault_point.h"

#include <catch2/catch.hpp>

namespace pbem::daemon {
namespace {

TEST_CASE("PBEM_FAULT: every action, several entries, blanks around them", "[daemon][fault]") {
  Result<std::vector<FaultEntry>> parsed = ParseFaultSpec(
      "order_desk.before_store:pause:/tmp/a:b, outbox.after_send:stop ,"
      "intake.before_handle:abort:poison pill,scheduler.after_game_lock:stop:game=g007");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 4);
  CHECK((*parsed)[0].point == "order_desk.before_store");
  CHECK((*parsed)[0].action == FaultAction::kPause);
  CHECK((*parsed)[0].argument == "/tmp/a:b");  // the rest of the entry, colons and all
  CHECK((*parsed)[1].point == "outbox.after_send");
  CHECK((*parsed)[1].action == FaultAction::kStop);
  CHECK((*parsed)[1].argument.empty());
  CHECK((*parsed)[2].action == FaultAction::kAbort);
  CHECK((*parsed)[2].argument == "poison pill");
  CHECK((*parsed)[3].argument == "game=g007");
}

TEST_CASE("PBEM_FAULT: fail makes the work at a failing point fail, for a matching context",
          "[daemon][fault]") {
  Result<std::vector<FaultEntry>> parsed = ParseFaultSpec("turn_loop.resolve:fail:game=g2");
  REQUIRE(parsed.ok());
  REQUIRE(parsed->size() == 1);
  CHECK((*parsed)[0].action == FaultAction::kFail);
  CHECK(FaultFailure(kFaultTurnLoopResolve, "game=g2").ok());  // not armed yet
  SetArmedFaultPointsForTest(*parsed);
  const Status failed = FaultFailure(kFaultTurnLoopResolve, "game=g2");
  CHECK(failed.code() == StatusCode::kInternal);
  CHECK(failed.message().find("turn_loop.resolve") != std::string::npos);
  CHECK(FaultFailure(kFaultTurnLoopResolve, "game=g3").ok());
  CHECK(FaultFailure(kFaultOutboxAfterSend, "game=g2").ok());
  FaultPoint(kFaultTurnLoopResolve, "game=g2");  // a plain point ignores fail entries
  SetArmedFaultPointsForTest({});
  CHECK(FaultFailure(kFaultTurnLoopResolve, "game=g2").ok());
}

TEST_CASE("PBEM_FAULT: empty arms nothing", "[daemon][fault]") {
  Result<std::vector<FaultEntry>> parsed = ParseFaultSpec("");
  REQUIRE(parsed.ok());
  CHECK(parsed->empty());
  parsed = ParseFaultSpec(" , ");
  REQUIRE(parsed.ok());
  CHECK(parsed->empty());
}

TEST_CASE("PBEM_FAULT: a malformed entry is refused, named", "[daemon][fault]") {
  for (const char* bad :
       {"outbox.after_send", "outbox.after_send:hold", ":stop", "turn_loop.before_commit:pause",
        "turn_loop.before_commit:pause:", "outbox.after_send:stop,intake_abort_on_subject:poison",
        "turn_loop.resolve:fails", "hold_outbox_after_send:stop"}) {
    INFO(bad);
    Result<std::vector<FaultEntry>> parsed = ParseFaultSpec(bad);
    REQUIRE_FALSE(parsed.ok());
    CHECK(parsed.status().code() == StatusCode::kInvalidArgument);
    CHECK(parsed.status().message().find("PBEM_FAULT") != std::string::npos);
  }
}

TEST_CASE("unarmed points do nothing; the in-process hook sees every point", "[daemon][fault]") {
  CHECK_FALSE(FaultArmed(kFaultOutboxAfterSend));  // the test runs without PBEM_FAULT
  std::vector<std::string> seen;
  SetFaultHook([&seen](std::string_view name) { seen.emplace_back(name); });
  FaultPoint(kFaultOutboxAfterSend, "mail=outbox-1");
  FaultPoint(kFaultIntakeBeforeHandle);
  SetFaultHook({});
  FaultPoint(kFaultOutboxAfterSend);
  CHECK(seen == std::vector<std::string>{"outbox.after_send", "intake.before_handle"});
  WaitForFaultPoint(kFaultOutboxAfterSend);  // not armed: returns at once
}

}  // namespace
}  // namespace pbem::daemon
