#!/bin/bash
# Two pbemd on one PostgreSQL database (issue 7, "More than one machine"), run under
# tests/storage/with_postgres.sh (PBEM_TEST_PG names the throwaway server):
#   tests/storage/with_postgres.sh tests/daemon/two_instances.sh build/bin/pbemd [GAMES]
#
# pbemd-a and pbemd-b run on their own loopback ports, each with its own file outbox, both
# on the same database. GAMES games (default 100) of the bundled scenario are created over
# HTTP (half on each instance); blue's orders for every game are submitted (half to each),
# then orange's. While the instances resolve orange's turns, pbemd-a is frozen (SIGSTOP) at
# a moment it holds a game's lock, what it holds is noted from the database, and it is
# killed (SIGKILL). pbemd-b must finish everything. Checked from the database and both
# outbox directories:
#   - every game has exactly its two turns (turn 1 blue, turn 1 orange), with the orders sent;
#   - each results mail (game, turn, side, player) is queued exactly once and sent, and each
#     outbox mail is delivered once across both outboxes; the only exception allowed is a mail
#     pbemd-a had written to its outbox but not yet marked sent when it was frozen (the
#     at-least-once window of any mail transport): it appears twice, with the same Message-ID;
#   - pbemd-b took over: it resolved the game pbemd-a was working on, sent every mail pbemd-a
#     had claimed and not sent, skipped games while pbemd-a held them (pbemd_games_busy_total),
#     and took the mail intake lock that pbemd-a held (pbemd_mail_intake_leader);
#   - no turn was counted twice: resolved by a (before the freeze) + by b <= all turns.
# Waits are bounded polls, never guessed sleeps. Exit 77 (skip) without PostgreSQL binaries.
set -euo pipefail
PBEMD=${1:?usage: two_instances.sh PBEMD [GAMES]}
GAMES=${2:-100}
[[ -n ${PBEM_TEST_PG:-} ]] || { echo "two_instances: run me under with_postgres.sh" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
PGBIN=${PGBIN:-$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -n 1)}
PSQL=("$PGBIN/psql" -X -q -A -t -v ON_ERROR_STOP=1 -d "$PBEM_TEST_PG")
sql() { "${PSQL[@]}" -c "$1"; }

work=$(mktemp -d /tmp/pbem-two-XXXXXX)
pid_a="" pid_b="" submitter=""
cleanup() {
  local status=$?
  [[ -z $submitter ]] || kill "$submitter" 2>/dev/null || true
  for p in $pid_a $pid_b; do
    kill -CONT "$p" 2>/dev/null || true
    kill -TERM "$p" 2>/dev/null || true
  done
  for p in $pid_a $pid_b; do wait "$p" 2>/dev/null || true; done
  if [[ $status -ne 0 ]]; then
    for i in a b; do
      echo "--- pbemd-$i log (last 25 lines)" >&2
      tail -n 25 "$work/$i.log" >&2 2>/dev/null || true
    done
  fi
  [[ -n ${KEEP_WORK:-} ]] && echo "kept $work" || rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
fail() { echo "two_instances: FAIL: $*" >&2; exit 1; }
t0=$SECONDS

# shellcheck source=../support/ports.sh
source "$(dirname "${BASH_SOURCE[0]}")/../support/ports.sh"
read -r PORT_A PORT_B IMAP_PORT < <(free_ports 3) || fail "no free ports"
# IMAP_PORT: nobody listens; intake fails its polls, but takes its lock first
ADMIN=two-instances-admin-token

start() {  # start NAME PORT OUTBOX_POLL_MS
  "$PBEMD" -Dpbemd.instance.name="pbemd-$1" -Dpbemd.db.backend=postgresql \
    -Dpbemd.db.postgresql="$PBEM_TEST_PG application_name=pbemd-$1" \
    -Dpbemd.data_dir="$work/$1" -Dpbemd.outbox_dir="$work/$1/outbox" \
    -Dpbemd.http.port="$2" -Dpbemd.http.admin_token="$ADMIN" \
    -Dpbemd.mail.from=referee@pbem.test -Dpbemd.turns.poll_ms=200 \
    -Dpbemd.mail.out.poll_ms="$3" -Dpbemd.mail.out.claim_seconds=5 \
    -Dpbemd.mail.in.url="imap://127.0.0.1:$IMAP_PORT/INBOX" -Dpbemd.mail.in.user=game \
    -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.mail.in.idle=false >"$work/$1.log" 2>&1 </dev/null &
  echo $!
}
metric() {  # metric PORT NAME: the value of an unlabelled series (empty when unreachable)
  curl -sS --max-time 5 "http://127.0.0.1:$1/metrics" 2>/dev/null |
    awk -v n="$2" '$1 == n { print $2 }'
}
wait_for() {  # wait_for SECONDS WHAT COMMAND...: poll COMMAND every 0.1 s until it succeeds
  local limit=$1 what=$2
  shift 2
  local deadline=$((SECONDS + limit))
  until "$@"; do
    ((SECONDS < deadline)) || fail "$what: not within $limit s"
    sleep 0.1
  done
}
leader_is() { [[ $(metric "$1" pbemd_mail_intake_leader) == "$2" ]]; }
healthy() { curl -sf --max-time 2 "http://127.0.0.1:$1/healthz" >/dev/null 2>&1; }

# a polls its outbox often, b seldom (b still sends after each of its turn passes): a has
# mails claimed most of the time, for the freeze below to catch.
pid_a=$(start a "$PORT_A" 100)
wait_for 30 "pbemd-a answers /healthz" healthy "$PORT_A"
wait_for 10 "pbemd-a takes the mail intake lock" leader_is "$PORT_A" 1
pid_b=$(start b "$PORT_B" 1000)
wait_for 30 "pbemd-b answers /healthz" healthy "$PORT_B"
sleep_until_polled() { grep -q 'event=mail_intake_follower' "$work/b.log"; }
wait_for 10 "pbemd-b sees the intake taken" sleep_until_polled
leader_is "$PORT_B" 0 || fail "pbemd-b reads the mailbox while pbemd-a does"
echo "pbemd-a on :$PORT_A (mail intake leader), pbemd-b on :$PORT_B, one database"

game_id() { printf 'g%03d' "$1"; }
port_of() { (($1 % 2 == 0)) && echo "$PORT_A" || echo "$PORT_B"; }
post() {  # post PORT PATH TOKEN CONTENT_TYPE FILE: prints the HTTP status
  curl -sS --max-time 20 -o "$work/reply" -w '%{http_code}' -X POST \
    -H "Authorization: Bearer $3" -H "Content-Type: $4" --data-binary "@$5" \
    "http://127.0.0.1:$1$2"
}

# 1. The games, created half on each instance.
for i in $(seq 1 "$GAMES"); do
  g=$(game_id "$i")
  cat >"$work/game.json" <<JSON
{"id": "$g", "scenario": "bois-de-la-morne",
 "players": [{"side": "blue", "address": "blue-$g@players.test", "token": "blue-$g-secret"},
             {"side": "orange", "address": "orange-$g@players.test", "token": "orange-$g-secret"}]}
JSON
  status=$(post "$(port_of "$i")" /v1/games "$ADMIN" application/json "$work/game.json")
  [[ $status == 201 || $status == 200 ]] || fail "creating $g: HTTP $status: $(cat "$work/reply")"
done
echo "$GAMES games created ($((SECONDS - t0)) s)"

submit() {  # submit SIDE I PORT: SIDE's bundled orders for game I; prints the HTTP status
  local g
  g=$(game_id "$2")
  sed "s/game_id: \"demo\"/game_id: \"$g\"/" \
    "$SRC/engine/scenarios/bois-de-la-morne.orders-$1.textproto" >"$work/orders.txt"
  post "$3" "/v1/games/$g/orders" "$1-$g-secret" text/plain "$work/orders.txt"
}
games_with() { sql "SELECT count(*) FROM games WHERE turns_committed >= $1"; }
all_have() { [[ $(games_with "$1") -eq $GAMES ]]; }

# 2. Blue's orders, half to each instance; both resolve.
for i in $(seq 1 "$GAMES"); do
  status=$(submit blue "$i" "$(port_of "$i")")
  [[ $status == 2* ]] || fail "blue's orders for $(game_id "$i"): HTTP $status: $(cat "$work/reply")"
done
wait_for 180 "blue's turn resolved in every game" all_have 1
echo "blue's turns resolved ($((SECONDS - t0)) s)"

# 3. Orange's orders, half to each instance, from a background submitter; the instances
# resolve each game's turn as its orders come in. An order meant for pbemd-a that it cannot
# answer (frozen, then killed) goes to pbemd-b instead (a copy pbemd-a had stored already is
# recognised as a duplicate and accepted once).
submit_oranges() {
  local i g status target
  for i in $(seq 1 "$GAMES"); do
    g=$(game_id "$i")
    sed "s/game_id: \"demo\"/game_id: \"$g\"/" \
      "$SRC/engine/scenarios/bois-de-la-morne.orders-orange.textproto" >"$work/orange.txt"
    target=$(port_of "$i")
    [[ -e $work/a-dead ]] && target=$PORT_B
    status=$(curl -sS --max-time 60 -o "$work/orange.reply" -w '%{http_code}' -X POST \
      -H "Authorization: Bearer orange-$g-secret" -H "Content-Type: text/plain" \
      --data-binary "@$work/orange.txt" "http://127.0.0.1:$target/v1/games/$g/orders" \
      2>/dev/null) || true
    if [[ $status != 2* && $target == "$PORT_A" ]]; then
      status=$(curl -sS --max-time 60 -o "$work/orange.reply" -w '%{http_code}' -X POST \
        -H "Authorization: Bearer orange-$g-secret" -H "Content-Type: text/plain" \
        --data-binary "@$work/orange.txt" "http://127.0.0.1:$PORT_B/v1/games/$g/orders") || true
    fi
    [[ $status == 2* ]] || { echo "orange's orders for $g: HTTP $status" >"$work/orange.failed"; return 1; }
  done
}
submit_oranges &
submitter=$!
resolved_by_a=""
quarter() { (($(games_with 2) >= GAMES / 4)); }
wait_for 180 "a quarter of orange's turns resolved" quarter
resolved_by_a=$(metric "$PORT_A" pbemd_turns_resolved_total)
[[ -n $resolved_by_a ]] || fail "no metrics from pbemd-a"

# 4. Freeze pbemd-a while it holds the lock of a game whose turn is due (orange's orders in,
# the turn not committed): its scheduler works on one game at a time. Note what it holds,
# check that pbemd-b keeps off it, then kill pbemd-a.
held_by_a() {  # the advisory locks held by pbemd-a's connections
  sql "SELECT l.objid::bigint | (l.classid::bigint << 32) FROM pg_locks l
       JOIN pg_stat_activity s ON s.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND s.application_name = 'pbemd-a'"
}
game_key() {  # the lock key of game:ID as storage computes it (SHA-256, 63 bits)
  local hex
  hex=$(printf '%s' "game:$1" | sha256sum | cut -c1-16)
  echo $(((16#$hex >> 1) & 0x7fffffffffffffff))
}
declare -A game_of_key
for i in $(seq 1 "$GAMES"); do game_of_key[$(game_key "$(game_id "$i")")]=$(game_id "$i"); done
due() {  # due GAME: orange's orders accepted, its turn not committed
  [[ $(sql "SELECT count(*) FROM games g WHERE g.id = '$1' AND g.turns_committed = 1
            AND EXISTS (SELECT 1 FROM submissions s WHERE s.game_id = g.id AND s.turn = 1
                        AND s.accepted <> 0)") -eq 1 ]]
}
settled_a() {  # nothing pbemd-a sent is still being processed (a lock wait cannot commit)
  [[ $(sql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pbemd-a'
            AND state = 'active' AND wait_event_type IS DISTINCT FROM 'Lock'") -eq 0 ]]
}
quiet_a() {  # no connection of pbemd-a is inside a transaction (holding row locks b may need)
  [[ $(sql "SELECT count(*) FROM pg_stat_activity
            WHERE application_name = 'pbemd-a' AND state <> 'idle'") -eq 0 ]]
}
live_claims_of_a() {
  sql "SELECT count(*) FROM outbox WHERE claimed_by = 'pbemd-a' AND sent_at_ms IS NULL
       AND claimed_until_ms IS NOT NULL"
}
# Until 3/4 of the games are done, wait for a moment pbemd-a also has outbox mails claimed;
# after that, a due game is enough (the mail takeover is then shown when there is one).
frozen_game=""
for attempt in $(seq 1 1000); do
  all_have 2 && fail "every game finished before pbemd-a was caught holding a due one"
  want_mail=$(($(games_with 2) < GAMES * 3 / 4))
  kill -STOP "$pid_a"
  wait_for 10 "pbemd-a's last statements done" settled_a
  if ! quiet_a; then  # frozen inside a transaction: its row locks would hold b up
    kill -CONT "$pid_a"
    continue
  fi
  for key in $(held_by_a); do
    g=${game_of_key[$key]:-}
    if [[ -n $g ]] && due "$g"; then frozen_game=$g; fi
  done
  if [[ -n $frozen_game ]] && ((want_mail == 0 || $(live_claims_of_a) > 0)); then break; fi
  frozen_game=""
  kill -CONT "$pid_a"
  sleep 0.02
done
[[ -n $frozen_game ]] || fail "pbemd-a never held a due game in 1000 tries"
# What pbemd-a had claimed in the outbox and not sent (id:claimed_until), and which of those
# it had already written to its outbox directory (sent, not yet marked: the window).
claims_of_a=$(sql "SELECT id || ':' || claimed_until_ms FROM outbox
                   WHERE claimed_by = 'pbemd-a' AND sent_at_ms IS NULL
                   AND claimed_until_ms IS NOT NULL ORDER BY id" | tr '\n' ' ')
claimed_by_a="" window=""
for claim in $claims_of_a; do
  id=${claim%%:*}
  claimed_by_a="$claimed_by_a $id"
  [[ -f $work/a/outbox/outbox-$id.eml ]] && window="$window $id"
done
# While pbemd-a holds the game, pbemd-b skips it (and does not resolve it).
busy_before=$(metric "$PORT_B" pbemd_games_busy_total)
b_skipped() { (($(metric "$PORT_B" pbemd_games_busy_total) > busy_before)); }
wait_for 10 "pbemd-b skips the games pbemd-a holds" b_skipped
[[ $(sql "SELECT turns_committed FROM games WHERE id = '$frozen_game'") -lt 2 ]] ||
  fail "pbemd-b resolved $frozen_game while pbemd-a held it"
kill -KILL "$pid_a"
wait "$pid_a" 2>/dev/null || true
pid_a=""
touch "$work/a-dead"
echo "pbemd-a killed holding game $frozen_game (attempt $attempt); mails it had claimed:" \
     "[${claimed_by_a# }], of which written but not marked sent: [${window# }]" \
     "($((SECONDS - t0)) s)"

# 5. pbemd-b finishes everything and takes over the mail intake.
wait "$submitter" || fail "$(cat "$work/orange.failed" 2>/dev/null)"
wait_for 180 "every game's two turns resolved by pbemd-b" all_have 2
all_sent() { [[ $(sql "SELECT count(*) FROM outbox WHERE sent_at_ms IS NULL") -eq 0 ]]; }
wait_for 60 "every mail sent" all_sent
wait_for 15 "pbemd-b takes the mail intake lock" leader_is "$PORT_B" 1
echo "all turns resolved and mails sent ($((SECONDS - t0)) s)"

# 6. Checks.
[[ -z $(held_by_a) ]] || fail "pbemd-a's locks outlived it"
bad=$(sql "SELECT id FROM games WHERE turns_committed <> 2")
[[ -z $bad ]] || fail "games without exactly 2 turns: $bad"
sequence=$(sql "SELECT DISTINCT string_agg(turn || side, ',' ORDER BY sequence) FROM turns
                GROUP BY game_id")
[[ $sequence == "1blue,1orange" ]] || fail "turn sequences: $sequence"
[[ $(sql "SELECT count(*) FROM turns") -eq $((2 * GAMES)) ]] || fail "not $((2 * GAMES)) turns"
# The orders played are the ones sent: the same canonical orders in every game, up to the id.
sizes=$(sql "SELECT count(DISTINCT octet_length(orders)) || ':' || min(octet_length(orders))
             FROM turns GROUP BY side ORDER BY side" | tr '\n' ' ')
for s in $sizes; do
  [[ ${s%%:*} -eq 1 && ${s#*:} -gt 20 ]] || fail "orders played differ from those sent: $sizes"
done

# Each results mail once: 2 turns x 2 players per game, by recipient and subject.
[[ $(sql "SELECT count(*) FROM outbox") -eq $((4 * GAMES)) ]] ||
  fail "$(sql "SELECT count(*) FROM outbox") mails queued, expected $((4 * GAMES))"
dup=$(sql "SELECT recipient || ' ' || subject FROM outbox GROUP BY recipient, subject
           HAVING count(*) > 1")
[[ -z $dup ]] || fail "results mails queued twice: $dup"
for i in $(seq 1 "$GAMES"); do
  g=$(game_id "$i")
  n=$(sql "SELECT count(*) FROM outbox WHERE subject LIKE 'Game $g, turn 1 (%): results'")
  [[ $n -eq 4 ]] || fail "game $g: $n results mails, expected 4"
done

# Each mail delivered once across both outboxes (twice only inside the window), by the
# instance its row names.
declare -A copies
for f in "$work"/a/outbox/outbox-*.eml "$work"/b/outbox/outbox-*.eml; do
  [[ -e $f ]] || continue
  id=${f##*/outbox-}
  id=${id%.eml}
  copies[$id]=$((${copies[$id]:-0} + 1))
done
in_window() { [[ " $window " == *" $1 "* ]]; }
twice=0
while IFS='|' read -r id by; do
  n=${copies[$id]:-0}
  if in_window "$id"; then
    [[ $n -eq 2 && $by == pbemd-b ]] || fail "mail $id (in the window): $n copies, sent by $by"
    twice=$((twice + 1))
    continue
  fi
  [[ $n -eq 1 ]] || fail "mail $id delivered $n times"
  [[ -f $work/${by#pbemd-}/outbox/outbox-$id.eml ]] || fail "mail $id: not in $by's outbox"
done < <(sql "SELECT id, claimed_by FROM outbox ORDER BY id")
for claim in $claims_of_a; do  # sent by b, and not before a's claim ran out
  id=${claim%%:*}
  [[ $(sql "SELECT claimed_by || ':' || (sent_at_ms >= ${claim#*:}) FROM outbox
            WHERE id = $id") == pbemd-b:true ]] ||
    fail "mail $id, claimed by pbemd-a until ${claim#*:} when it died, was not sent by" \
         "pbemd-b after that: $(sql "SELECT claimed_by, sent_at_ms FROM outbox WHERE id = $id")"
done
sent_a=$(ls "$work/a/outbox" | grep -c '\.eml$' || true)
sent_b=$(ls "$work/b/outbox" | grep -c '\.eml$' || true)

# Turns: nobody counted twice; b skipped games a held; both did work.
resolved_by_b=$(metric "$PORT_B" pbemd_turns_resolved_total)
busy_b=$(metric "$PORT_B" pbemd_games_busy_total)
((resolved_by_a > 0 && resolved_by_b > 0)) || fail "turns resolved: a $resolved_by_a, b $resolved_by_b"
((resolved_by_a + resolved_by_b <= 2 * GAMES)) ||
  fail "turns counted twice: a $resolved_by_a (before the freeze) + b $resolved_by_b > $((2 * GAMES))"
grep -q "event=turn_resolved game=$frozen_game" "$work/b.log" ||
  fail "pbemd-b did not resolve $frozen_game, the game pbemd-a held when it died"

echo "OK in $((SECONDS - t0)) s: $GAMES games, $((2 * GAMES)) turns each committed once;" \
     "turns resolved by a >= $resolved_by_a (before the freeze), by b $resolved_by_b;" \
     "b skipped $busy_b busy games; $((4 * GAMES)) results mails, delivered by a $sent_a," \
     "by b $sent_b (twice: $twice, the window); b took over $frozen_game, the mails" \
     "[${claimed_by_a# }] and the mail intake"
