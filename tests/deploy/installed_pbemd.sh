#!/bin/bash
# The inside of install_test.sh, run from a copy under $TMP in the mount namespace where the
# source and build trees are hidden. Arguments: the unit's environment (NAME=VALUE ...), "--",
# then the unit's ExecStart (the installed pbemd and its --config). Reads SRC, BUILD, TMP,
# PREFIX, WORKDIR and PORT from the environment.
set -euo pipefail
fail() {
  echo "install_test: $*" >&2
  [[ -f $TMP/pbemd.log ]] && tail -20 "$TMP/pbemd.log" >&2
  exit 1
}
UNIT_ENV=()
while [[ $1 != -- ]]; do UNIT_ENV+=("$1"); shift; done
shift
[[ ! -e $SRC/CMakeLists.txt && ! -e $BUILD/CMakeCache.txt ]] || fail "the trees are not hidden"

API=http://127.0.0.1:$PORT
ADMIN=install-admin-token
DATA=$PREFIX/share/pbem
# Only the unit's environment (and a PATH): nothing of the caller's leaks in.
cd "$WORKDIR"
env -i PATH=/usr/bin:/bin "${UNIT_ENV[@]}" "$@" -Dpbemd.http.port="$PORT" \
  -Dpbemd.http.admin_token="$ADMIN" -Dpbemd.turns.poll_ms=100 -Dpbemd.mail.out.poll_ms=100 \
  >"$TMP/pbemd.log" 2>&1 </dev/null &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do  # up to 60 s: a loaded machine starts slowly
  curl -sf "$API/healthz" >/dev/null 2>&1 && break
  kill -0 $pid 2>/dev/null || fail "the installed pbemd exited at start"
  sleep 0.1
done
curl -sf "$API/healthz" >/dev/null || fail "pbemd does not answer on $API"

# What it read, from its config log line: the prefix's data, nothing of the trees.
config=$(grep -m1 'event=config' "$TMP/pbemd.log") || fail "no event=config log line"
for key in scenarios_dir=$DATA/engine/scenarios rulesets_dir=$DATA/engine/rulesets \
  mail_templates_dir=$DATA/templates/mail; do
  [[ " $config " == *" pbemd.$key "* ]] || fail "pbemd.$key expected in: $config"
done

# shellcheck source=deploy/game_calls.sh
source "$TMP/game_calls.sh"
expect() {  # expect WHAT STATUS_PATTERN REPLY
  # shellcheck disable=SC2053  # the status is a glob pattern (2??)
  [[ ${3##*$'\n'} == $2 ]] || fail "$1: expected HTTP $2, got ${3##*$'\n'}: ${3%$'\n'*}"
}
write_demo_game "$TMP/game.json"
expect "creating the game" 201 "$(call POST /v1/games "$ADMIN" application/json "$TMP/game.json")"
turns=0
for side in blue orange; do
  orders=$DATA/engine/scenarios/bois-de-la-morne.orders-$side.textproto
  expect "$side's orders" "2??" "$(call POST /v1/games/demo/orders "$side-secret-1" text/plain "$orders")"
  turns=$((turns + 1))
  wait_turns $turns
done
# Two players: two welcome mails; two player-turns: four results mails, in the outbox the
# sample configures.
OUTBOX=$WORKDIR/pbem-data/outbox
for _ in $(seq 1 1200); do
  [[ $(find "$OUTBOX" -name '*.eml' 2>/dev/null | wc -l) -ge 6 ]] && break
  sleep 0.1
done
mails=$(find "$OUTBOX" -name '*.eml' 2>/dev/null | wc -l)
[[ $mails -ge 6 ]] || fail "expected 2 welcome and 4 results mails in $OUTBOX, found $mails"
grep -lq '^To: .*orange@players.example' "$OUTBOX"/*.eml || fail "no mail to orange"

# The archive page (templates/archive) and a league's standings (templates/league).
expect "the archive page" 200 "$(call GET /v1/games/demo/archive/index.html "")"
cat >"$TMP/league.json" <<'JSON'
{"id": "club", "name": "Club", "organiserToken": "organiser-1",
 "scenarios": ["bois-de-la-morne"], "language": "fr"}
JSON
expect "creating the league" 201 "$(call POST /v1/leagues "$ADMIN" application/json "$TMP/league.json")"
for p in p1 p2; do
  printf '{"name":"%s","email":"%s@players.example"}' "$p" "$p" >"$TMP/$p.json"
  expect "$p joining" 201 "$(call POST /v1/leagues/club/players "" application/json "$TMP/$p.json")"
done
printf '{"season":1}' >"$TMP/start.json"
expect "starting the season" 201 \
  "$(call POST /v1/leagues/club/start organiser-1 application/json "$TMP/start.json")"
standings=$(call GET /v1/leagues/club/standings.html "")
expect "the standings page" 200 "$standings"
[[ $standings == *Club* ]] || fail "the standings page does not name the league"

kill -TERM $pid
wait $pid || fail "pbemd did not stop cleanly"
trap - EXIT
