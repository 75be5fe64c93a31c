#!/bin/bash
# Acknowledged means played, on the real pbemd over HTTP (issue 13, finding 4). Two races
# forced with pbemd's fault points (PBEM_FAULT=<point>:pause:<dir>, daemon/fault_point.h), no timing luck:
#   1. the turn loop stopped between reading blue's orders (revision A) and committing; blue
#      sends revision B meanwhile and is told "accepted": the turn must play B.
#   2. the order desk stopped between judging blue's orders and storing them; the turn is
#      resolved as missed at its deadline meanwhile: the orders must be refused as stale
#      (409 stale_turn naming the turn the game is at), and the turn played without them.
# Checked in the SQLite store: the orders each turn played are the validated orders of blue's
# latest accepted submission (or none).
# Usage: acknowledged_race.sh PBEMD
set -euo pipefail
PBEMD=${1:?usage: acknowledged_race.sh PBEMD}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
source "$SRC/tests/support/ports.sh"  # listening_port
WORK=$(mktemp -d /tmp/pbem-ackrace-XXXXXX)
pid=""
cleanup() {
  [[ -n $pid ]] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
  echo "acknowledged_race: $*" >&2
  [[ -f $WORK/pbemd.log ]] && tail -20 "$WORK/pbemd.log" >&2
  exit 1
}
ADMIN=race-admin-token

start() {  # start POINT: pbemd on a fresh store, stopping once at POINT
  [[ -n $pid ]] && { kill -TERM "$pid"; wait "$pid" || true; }
  rm -rf "$WORK/data" "$WORK/outbox" "$WORK/fault"
  mkdir -p "$WORK/fault"
  # Port 0: pbemd binds a port the system picks and logs it (no pick-then-bind race).
  PBEM_FAULT="$1:pause:$WORK/fault" "$PBEMD" -Dpbemd.data_dir="$WORK/data" \
    -Dpbemd.outbox_dir="$WORK/outbox" -Dpbemd.http.port=0 \
    -Dpbemd.http.admin_token="$ADMIN" -Dpbemd.mail.from=referee@pbem.example \
    -Dpbemd.turns.poll_ms=50 -Dpbemd.turns.grace_seconds=0 >"$WORK/pbemd.log" 2>&1 </dev/null &
  pid=$!
  PORT=$(listening_port "$WORK/pbemd.log" "$pid") || fail "pbemd did not listen"
  API=http://127.0.0.1:$PORT
  for _ in $(seq 1 1200); do  # up to 60 s: a loaded machine starts slowly
    curl -sf "$API/healthz" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || fail "pbemd exited"
    sleep 0.05
  done
  printf '{"id": "race", "scenario": "bois-de-la-morne", "turnTimeoutSeconds": %s,
    "players": [{"side": "blue", "address": "blue@players.example", "token": "blue-secret-1"},
                {"side": "orange", "address": "orange@players.example", "token": "orange-secret-1"}]}' \
    "$2" >"$WORK/game.json"
  [[ $(post /v1/games "$ADMIN" application/json "$WORK/game.json") == 2* ]] ||
    fail "creating the game: $(cat "$WORK/reply")"
}
post() {  # post PATH TOKEN TYPE FILE: prints the status; the body goes to $WORK/reply
  curl -sS --max-time 30 -X POST -H "Authorization: Bearer $2" -H "Content-Type: $3" \
    --data-binary "@$4" -o "$WORK/reply" -w '%{http_code}' "$API$1"
}
wait_file() {  # wait_file PATH: up to 120 s
  for _ in $(seq 1 2400); do
    [[ -e $1 ]] && return 0
    sleep 0.05
  done
  fail "$1 never appeared"
}
turns() { sqlite3 "$WORK/data/pbem.sqlite" "SELECT count(*) FROM turns WHERE game_id = 'race'"; }
# The orders of the first turn, and the validated orders of blue's latest accepted submission.
played() { sqlite3 "$WORK/data/pbem.sqlite" "SELECT hex(orders) FROM turns WHERE sequence = 1"; }
latest() {
  sqlite3 "$WORK/data/pbem.sqlite" "SELECT COALESCE(hex(orders), '') FROM submissions \
    WHERE game_id = 'race' AND side = 'blue' AND accepted = 1 AND turn = 0 ORDER BY id DESC LIMIT 1"
}
orders() {  # orders FILE MOVES: blue's bundled orders for game race keeping MOVES moves
  awk -v keep="$2" '/^moves \{/ { n++ } { if (n > keep && /^moves \{/) skip = 1 }
    skip && /^\}/ { skip = 0; next } !skip' \
    "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto" |
    sed 's/game_id: "demo"/game_id: "race"/' >"$1"
}
orders "$WORK/a.textproto" 2
orders "$WORK/b.textproto" 4
cmp -s "$WORK/a.textproto" "$WORK/b.textproto" && fail "revisions A and B are the same"

echo "1. the turn loop stopped before its commit; revision B accepted meanwhile"
start turn_loop.before_commit 0
[[ $(post /v1/games/race/orders blue-secret-1 text/plain "$WORK/a.textproto") == 200 ]] ||
  fail "revision A: $(cat "$WORK/reply")"
wait_file "$WORK/fault/turn_loop.before_commit.reached"
[[ $(post /v1/games/race/orders blue-secret-1 text/plain "$WORK/b.textproto") == 200 ]] ||
  fail "revision B: $(cat "$WORK/reply")"
grep -q '"accepted" *: *true' "$WORK/reply" || fail "revision B not accepted: $(cat "$WORK/reply")"
touch "$WORK/fault/turn_loop.before_commit.go"
for _ in $(seq 1 2400); do [[ $(turns) -ge 1 ]] && break; sleep 0.05; done
[[ $(turns) -ge 1 ]] || fail "the turn was never committed"
[[ -n $(latest) && $(played) == "$(latest)" ]] || fail "the turn did not play revision B"
echo "   revision B, accepted while the turn was being committed, was played"

echo "2. the order desk stopped before storing; the turn resolved as missed meanwhile"
start order_desk.before_store 1
post /v1/games/race/orders blue-secret-1 text/plain "$WORK/b.textproto" >"$WORK/status" &
poster=$!
wait_file "$WORK/fault/order_desk.before_store.reached"
for _ in $(seq 1 2400); do [[ $(turns) -ge 1 ]] && break; sleep 0.05; done
[[ $(turns) -ge 1 ]] || fail "the missed turn was never committed"
touch "$WORK/fault/order_desk.before_store.go"
wait "$poster" || true
[[ $(cat "$WORK/status") == 409 ]] || fail "expected 409 stale_turn, got $(cat "$WORK/status"): \
$(cat "$WORK/reply")"
grep -q stale_turn "$WORK/reply" || fail "not stale_turn: $(cat "$WORK/reply")"
grep -q 'side orange to move' "$WORK/reply" || fail "the refusal names no new turn: \
$(cat "$WORK/reply")"
[[ -z $(latest) ]] || fail "the refused orders were stored as accepted"
echo "   refused as stale: $(cat "$WORK/reply")"
echo "acknowledged_race: OK"
