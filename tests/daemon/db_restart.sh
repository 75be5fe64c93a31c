#!/bin/bash
# pbemd through a PostgreSQL restart (issue 13, finding 5), run under with_postgres.sh
# (PBEM_TEST_PG names the throwaway server, PBEM_TEST_PG_CTL stops and starts it):
#   tests/storage/with_postgres.sh tests/daemon/db_restart.sh build/bin/pbemd [OUTAGE_SECONDS]
#
# pbemd runs on the server with GAMES games. A submission loop sends, over HTTP, the side to
# move's (empty) orders of each game, the next submission of a game only once the player-turn
# its last accepted one was for is committed. While it runs, PostgreSQL is stopped for
# OUTAGE_SECONDS (default 10) and started again. Checked:
#   - during the outage /healthz answers 503 with a body naming the database, and every
#     refused submission is a 503 with Retry-After (nothing else: no 500, no hang);
#   - /metrics: pbemd_database_up 0 during the outage, 1 after; reconnects counted;
#   - service resumes by itself: /healthz 200 and submissions accepted again (bounded polls
#     with generous limits: what is checked is that it comes back, not how fast);
#   - nothing acknowledged is lost: every submission answered 200 accepted is in the store
#     afterwards and its player-turn is committed (played);
#   - no log flood: a handful of warning/error lines for the whole outage, not one per pass.
# Exit 77 (skip) without PostgreSQL binaries (with_postgres.sh decides).
set -euo pipefail
PBEMD=${1:?usage: db_restart.sh PBEMD [OUTAGE_SECONDS]}
OUTAGE=${2:-10}
GAMES=8
[[ -n ${PBEM_TEST_PG:-} && -n ${PBEM_TEST_PG_CTL:-} ]] ||
  { echo "db_restart: run me under tests/storage/with_postgres.sh" >&2; exit 2; }
# shellcheck source=../support/pg_client.sh
source "$(dirname "${BASH_SOURCE[0]}")/../support/pg_client.sh"  # sql, wait_for

work=$(mktemp -d /tmp/pbem-dbrestart-XXXXXX)
pid="" looper="" pg_stopped=""
cleanup() {
  local status=$?
  touch "$work/stop"
  [[ -z $looper ]] || { kill "$looper" 2>/dev/null || true; wait "$looper" 2>/dev/null || true; }
  # Started again if stopped here; the EXIT trap of with_postgres.sh stops it.
  [[ -z $pg_stopped ]] || "$PBEM_TEST_PG_CTL" start >/dev/null 2>&1 || true
  if [[ -n $pid ]]; then
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  fi
  if [[ $status -ne 0 ]]; then
    echo "--- pbemd log (last 40 lines)" >&2
    tail -n 40 "$work/pbemd.log" >&2 2>/dev/null || true
    echo "--- submission events (last 20)" >&2
    tail -n 20 "$work/events" >&2 2>/dev/null || true
  fi
  [[ -n ${KEEP_WORK:-} ]] && echo "kept $work" || rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
fail() { echo "db_restart: FAIL: $*" >&2; exit 1; }

# shellcheck source=../support/ports.sh
source "$(dirname "${BASH_SOURCE[0]}")/../support/ports.sh"
ADMIN=db-restart-admin-token
# Port 0: pbemd binds a port the system picks and logs it (no pick-then-bind race).
"$PBEMD" -Dpbemd.db.backend=postgresql -Dpbemd.db.postgresql="$PBEM_TEST_PG" \
  -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 -Dpbemd.http.admin_token="$ADMIN" \
  -Dpbemd.turns.poll_ms=200 -Dpbemd.mail.out.poll_ms=200 >"$work/pbemd.log" 2>&1 </dev/null &
pid=$!
PORT=$(listening_port "$work/pbemd.log" "$pid") || fail "pbemd did not listen"
BASE="http://127.0.0.1:$PORT"
healthz() { curl -sS --max-time 5 -o "$work/healthz" -w '%{http_code}' "$BASE/healthz" 2>/dev/null || true; }
healthy() { [[ $(healthz) == 200 ]]; }
unhealthy() { [[ $(healthz) == 503 ]]; }
metric() { curl -sS --max-time 5 "$BASE/metrics" 2>/dev/null | awk -v n="$1" '$1 == n { print $2 }'; }
wait_for 30 "pbemd answers /healthz" healthy
up_at_start=$(metric pbemd_database_up)

games=()
for i in $(seq 1 "$GAMES"); do
  g=$(printf 'r%02d' "$i")
  games+=("$g")
  cat >"$work/game.json" <<JSON
{"id": "$g", "scenario": "bois-de-la-morne",
 "players": [{"side": "blue", "address": "blue-$g@players.test", "token": "blue-$g-secret"},
             {"side": "orange", "address": "orange-$g@players.test", "token": "orange-$g-secret"}]}
JSON
  status=$(curl -sS --max-time 20 -o "$work/reply" -w '%{http_code}' -X POST \
    -H "Authorization: Bearer $ADMIN" -H "Content-Type: application/json" \
    --data-binary "@$work/game.json" "$BASE/v1/games")
  [[ $status == 201 ]] || fail "creating $g: HTTP $status: $(cat "$work/reply")"
done

# The submission loop. One line per answer in $work/events:
#   accepted GAME TURN SIDE SUBMISSION_ID | unavailable RETRY_AFTER | stale GAME TURN SIDE
#   | other CODE BODY
submission_loop() {
  declare -A awaits  # game -> the turns_committed its last accepted submission waits for
  declare -A next    # game -> "TURN SIDE COMMITTED" to submit, while nothing accepted awaits
  declare -A refused # game -> set after a 503 for it, until a submission is accepted
  local g state committed turn side base code retry
  while [[ ! -e $work/stop ]]; do
    for g in "${games[@]}"; do
      [[ ! -e $work/stop ]] || break
      state=$(curl -sS --max-time 10 "$BASE/v1/games/$g" 2>/dev/null) || state=""
      committed=$(jq -r '.turnsCommitted // empty' <<<"$state" 2>/dev/null) || committed=""
      if [[ -n $committed ]]; then
        ((committed >= ${awaits[$g]:-0})) || continue  # the last accepted one is not played yet
        next[$g]="$(jq -r '.turn' <<<"$state") $(jq -r '.sideToMove' <<<"$state") $committed"
      fi
      # The game cannot be read (the database is down): send what it waits for all the same
      # (known: nobody else moves it), for the refusal to be seen.
      [[ -n ${next[$g]:-} ]] || { sleep 0.1; continue; }
      read -r turn side base <<<"${next[$g]}"
      printf 'format_version: 1\ngame_id: "%s"\nturn: %s\nside: SIDE_%s\n' \
        "$g" "$turn" "${side^^}" >"$work/orders.txt"
      code=$(curl -sS --max-time 30 -o "$work/post.reply" -D "$work/post.headers" \
        -w '%{http_code}' -X POST -H "Authorization: Bearer $side-$g-secret" \
        -H "Content-Type: text/plain" --data-binary "@$work/orders.txt" \
        "$BASE/v1/games/$g/orders" 2>/dev/null) || code=000
      if [[ $code == 200 ]] && jq -e '.accepted == true' "$work/post.reply" >/dev/null; then
        echo "accepted $g $turn $side $(jq -r '.submissionId' "$work/post.reply")" >>"$work/events"
        awaits[$g]=$((base + 1))
        unset "next[$g]" "refused[$g]"
      elif [[ $code == 409 && -n ${refused[$g]:-} ]] &&
        jq -e '.error.code == "stale_turn"' "$work/post.reply" >/dev/null; then
        # A submission answered 503 was stored after all (its commit went through as the
        # connection broke) and played: what this loop remembered of the game is old.
        echo "stale $g $turn $side" >>"$work/events"
        unset "next[$g]"
      elif [[ $code == 503 ]]; then
        refused[$g]=1
        retry=$(tr -d '\r' <"$work/post.headers" | awk 'tolower($1) == "retry-after:" { print $2 }')
        echo "unavailable ${retry:-none}" >>"$work/events"
        sleep 0.2
      else
        echo "other $code $(tr '\n' ' ' <"$work/post.reply" 2>/dev/null | head -c 300)" >>"$work/events"
      fi
      sleep 0.1  # pace: GAMES x 24 player-turns must outlast the run
    done
  done
}
touch "$work/events"
submission_loop &
looper=$!
accepted() { grep -c '^accepted ' "$work/events" || true; }
# Every game read at least once (the loop knows what each waits for, and sends it even
# while the game cannot be read), and a few more.
some_accepted() { (($(accepted) >= GAMES + 2)); }
wait_for 120 "$((GAMES + 2)) submissions accepted before the outage" some_accepted
reconnects_before=$(metric pbemd_database_reconnects_total)

# The outage.
log_before=$(wc -l <"$work/pbemd.log")
events_before=$(wc -l <"$work/events")
pg_stopped=1
"$PBEM_TEST_PG_CTL" stop >/dev/null
echo "PostgreSQL stopped ($(accepted) submissions accepted so far)"
# What pbemd says during the outage, checked once service is back (so that a pbemd that
# never recovers fails on that first).
deadline=$((SECONDS + 30))
until unhealthy || ((SECONDS >= deadline)); do sleep 0.1; done
healthz_down=$(healthz):$(tr '\n' ' ' <"$work/healthz")
up_during=$(metric pbemd_database_up)
# One submission sent now for sure (the loop sends only for games whose last accepted
# submission is played, and all may be waiting): refused with 503 and Retry-After.
printf 'format_version: 1\ngame_id: "r01"\nturn: 1\nside: SIDE_BLUE\n' >"$work/probe.txt"
probe=$(curl -sS --max-time 30 -o "$work/probe.reply" -D "$work/probe.headers" \
  -w '%{http_code}' -X POST -H "Authorization: Bearer blue-r01-secret" \
  -H "Content-Type: text/plain" --data-binary "@$work/probe.txt" "$BASE/v1/games/r01/orders" \
  2>/dev/null) || probe=000
probe="$probe:$(tr -d '\r' <"$work/probe.headers" | awk 'tolower($1) == "retry-after:" { print $2 }')"
sleep "$OUTAGE"  # the length of the outage, not a wait for an outcome
log_outage=$(($(wc -l <"$work/pbemd.log") - log_before))
"$PBEM_TEST_PG_CTL" start >/dev/null
pg_stopped=""
echo "PostgreSQL started again after $OUTAGE s"
accepted_at_start=$(accepted)

# Recovery, by itself.
resumed() { (($(accepted) >= accepted_at_start + 3)); }
wait_for 60 "submissions accepted again after PostgreSQL is back" resumed
wait_for 60 "/healthz answers 200 after PostgreSQL is back" healthy
touch "$work/stop"
wait "$looper" || true
looper=""

# What pbemd said while the database was down, and after.
[[ $healthz_down == 503:* ]] || fail "/healthz during the outage: $healthz_down"
[[ $healthz_down == *database* ]] || fail "/healthz 503 does not name the database: $healthz_down"
[[ $probe == 503:?* ]] ||
  fail "a submission during the outage: HTTP ${probe%%:*}, Retry-After \"${probe#*:}\" (want 503 and one)"
[[ $up_at_start == 1 && $up_during == 0 && $(metric pbemd_database_up) == 1 ]] ||
  fail "pbemd_database_up: $up_at_start before, $up_during during, $(metric pbemd_database_up) after"
reconnects=$(metric pbemd_database_reconnects_total)
[[ -n $reconnects && -n $reconnects_before ]] && ((reconnects > reconnects_before)) ||
  fail "no reconnection counted in pbemd_database_reconnects_total ($reconnects_before, $reconnects)"

# Every refusal was a 503 with Retry-After, and nothing else went wrong.
others=$(grep -v -e '^accepted ' -e '^unavailable ' -e '^stale ' "$work/events" || true)
[[ -z $others ]] || fail "answers other than 200 accepted or 503: $others"
! grep -q '^unavailable none' "$work/events" || fail "a 503 without Retry-After"

# Nothing acknowledged is lost: each accepted submission is stored, and played.
played() {  # played GAME TURN SIDE
  [[ $(sql "SELECT count(*) FROM turns WHERE game_id = '$1' AND turn = $2 AND side = '$3'") == 1 ]]
}
while read -r _ g turn side id; do
  [[ $(sql "SELECT count(*) FROM submissions WHERE id = $id AND game_id = '$g'
            AND accepted <> 0") == 1 ]] || fail "accepted submission $id ($g turn $turn $side) is not in the store"
  wait_for 60 "accepted submission $id ($g turn $turn $side) played" played "$g" "$turn" "$side"
done < <(grep '^accepted ' "$work/events")

# No flood: the loss and the return are logged, not every failed pass or request.
warnings=$(tail -n +"$((log_before + 1))" "$work/pbemd.log" | head -n "$log_outage" |
  grep -c -e 'level=warning' -e 'level=error' || true)
((warnings <= 20)) || fail "$warnings warning/error lines logged during the $OUTAGE s outage"
grep -q 'event=database_down' "$work/pbemd.log" || fail "the loss of the database is not logged"
grep -q 'event=database_up' "$work/pbemd.log" || fail "the reconnection is not logged"

echo "OK: $(accepted) submissions accepted and played," \
     "$(grep -c '^unavailable ' "$work/events") refused with 503 + Retry-After during the outage;" \
     "$warnings warning/error lines during it; reconnects $reconnects"
