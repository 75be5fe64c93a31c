#!/bin/bash
# Two pbemd on one PostgreSQL database (issue 7, "More than one machine"), run under
# tests/storage/with_postgres.sh (PBEM_TEST_PG names the throwaway server):
#   tests/storage/with_postgres.sh tests/daemon/two_instances.sh build/bin/pbemd [GAMES]
#
# pbemd-a and pbemd-b run on their own loopback ports, each with its own file outbox, both
# on the same database. The takeover happens by construction, not by luck (issue 13, finding
# 11): pbemd-a runs with test-only fault points (daemon/fault_point.h,
# PBEM_FAULT=outbox.after_send:stop,scheduler.after_game_lock:stop). It starts alone and takes
# the mail intake lock; GAMES games (default 100) are created on it and blue's orders for every
# game sent to it. It resolves one turn; its outbox sends the first results mail and stops
# before marking it sent (the rest of its batch stays claimed); its scheduler then takes the
# lock of the next due game and stops there. Both are logged (event=fault_point); what
# pbemd-a holds is noted from the database. Then pbemd-b starts and must do everything else:
# the other blue turns (skipping the game pbemd-a holds), orange's orders sent half to each
# instance; pbemd-a is killed (SIGKILL) and pbemd-b finishes. Checked from the database and
# both outbox directories:
#   - every game has exactly its two turns (turn 1 blue, turn 1 orange), with the orders sent;
#   - each results mail (game, turn, side, player) is queued exactly once and sent, and each
#     outbox mail is delivered once across both outboxes; the only exception is the mail
#     pbemd-a had written to its outbox but not marked sent when it stopped (the
#     at-least-once window of any mail transport): it appears twice, with the same Message-ID;
#   - pbemd-b took over: it skipped the game while pbemd-a held it (pbemd_games_busy_total)
#     and resolved it after pbemd-a died, sent every mail pbemd-a had claimed and not sent
#     (after its claim ran out), and took the mail intake lock (pbemd_mail_intake_leader);
#   - no turn was counted twice: resolved by a + by b <= all turns.
# Waits are bounded polls, never guessed sleeps; what happens does not depend on timing.
# Exit 77 (skip) without PostgreSQL binaries.
set -euo pipefail
PBEMD=${1:?usage: two_instances.sh PBEMD [GAMES]}
GAMES=${2:-100}
[[ -n ${PBEM_TEST_PG:-} ]] || { echo "two_instances: run me under with_postgres.sh" >&2; exit 2; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../support/pg_client.sh
source "$(dirname "${BASH_SOURCE[0]}")/../support/pg_client.sh"  # sql, wait_for

work=$(mktemp -d /tmp/pbem-two-XXXXXX)
pid_a="" pid_b=""
cleanup() {
  local status=$?
  # pbemd-a has threads stopped at its fault points for good: SIGTERM would wait for them.
  [[ -z $pid_a ]] || kill -KILL "$pid_a" 2>/dev/null || true
  [[ -z $pid_b ]] || kill -TERM "$pid_b" 2>/dev/null || true
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
read -r IMAP_PORT < <(free_ports 1) || fail "no free port"
# IMAP_PORT: nobody listens; intake fails its polls, but takes its lock first. pbemd-a and -b
# bind port 0 (the system picks a port; no pick-then-bind race) and log it (listening_port).
ADMIN=two-instances-admin-token

start() {  # start NAME OUTBOX_POLL_MS: prints the pid
  "$PBEMD" -Dpbemd.instance.name="pbemd-$1" -Dpbemd.db.backend=postgresql \
    -Dpbemd.db.postgresql="$PBEM_TEST_PG application_name=pbemd-$1" \
    -Dpbemd.data_dir="$work/$1" -Dpbemd.outbox_dir="$work/$1/outbox" \
    -Dpbemd.http.port=0 -Dpbemd.http.admin_token="$ADMIN" \
    -Dpbemd.mail.from=referee@pbem.test -Dpbemd.turns.poll_ms=200 \
    -Dpbemd.mail.out.poll_ms="$2" -Dpbemd.mail.out.claim_seconds=5 \
    -Dpbemd.mail.in.url="imap://127.0.0.1:$IMAP_PORT/INBOX" -Dpbemd.mail.in.user=game \
    -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.mail.in.idle=false >"$work/$1.log" 2>&1 </dev/null &
  echo $!
}
metric() {  # metric PORT NAME: the value of an unlabelled series (empty when unreachable)
  curl -sS --max-time 5 "http://127.0.0.1:$1/metrics" 2>/dev/null |
    awk -v n="$2" '$1 == n { print $2 }'
}
leader_is() { [[ $(metric "$1" pbemd_mail_intake_leader) == "$2" ]]; }
healthy() { curl -sf --max-time 2 "http://127.0.0.1:$1/healthz" >/dev/null 2>&1; }

pid_a=$(PBEM_FAULT=outbox.after_send:stop,scheduler.after_game_lock:stop start a 100)
PORT_A=$(listening_port "$work/a.log" "$pid_a") || fail "pbemd-a did not listen"
wait_for 30 "pbemd-a answers /healthz" healthy "$PORT_A"
wait_for 10 "pbemd-a takes the mail intake lock" leader_is "$PORT_A" 1
echo "pbemd-a on :$PORT_A (mail intake leader, fault points armed), one database"

game_id() { printf 'g%03d' "$1"; }
port_of() { (($1 % 2 == 0)) && echo "$PORT_A" || echo "$PORT_B"; }
post() {  # post PORT PATH TOKEN CONTENT_TYPE FILE: prints the HTTP status
  curl -sS --max-time 20 -o "$work/reply" -w '%{http_code}' -X POST \
    -H "Authorization: Bearer $3" -H "Content-Type: $4" --data-binary "@$5" \
    "http://127.0.0.1:$1$2"
}
submit() {  # submit SIDE I PORT: SIDE's bundled orders for game I; prints the HTTP status
  local g
  g=$(game_id "$2")
  sed "s/game_id: \"demo\"/game_id: \"$g\"/" \
    "$SRC/engine/scenarios/bois-de-la-morne.orders-$1.textproto" >"$work/orders.txt"
  post "$3" "/v1/games/$g/orders" "$1-$g-secret" text/plain "$work/orders.txt"
}
games_with() { sql "SELECT count(*) FROM games WHERE turns_committed >= $1"; }
all_have() { [[ $(games_with "$1") -eq $GAMES ]]; }
fault_line() { grep -m1 -F "event=fault_point name=$1 " "$work/a.log"; }
fault_reached() { fault_line "$1" >/dev/null; }

# 1. The games, and blue's orders for each, all on pbemd-a.
for i in $(seq 1 "$GAMES"); do
  g=$(game_id "$i")
  cat >"$work/game.json" <<JSON
{"id": "$g", "scenario": "bois-de-la-morne",
 "players": [{"side": "blue", "address": "blue-$g@players.test", "token": "blue-$g-secret"},
             {"side": "orange", "address": "orange-$g@players.test", "token": "orange-$g-secret"}]}
JSON
  status=$(post "$PORT_A" /v1/games "$ADMIN" application/json "$work/game.json")
  [[ $status == 201 || $status == 200 ]] || fail "creating $g: HTTP $status: $(cat "$work/reply")"
done
for i in $(seq 1 "$GAMES"); do
  status=$(submit blue "$i" "$PORT_A")
  [[ $status == 2* ]] || fail "blue's orders for $(game_id "$i"): HTTP $status: $(cat "$work/reply")"
done
echo "$GAMES games created and blue's orders sent to pbemd-a ($((SECONDS - t0)) s)"

# 2. pbemd-a stops at its fault points: its outbox after sending one mail, its scheduler
# holding the lock of a due game.
wait_for 60 "pbemd-a's outbox stops after a mail" fault_reached outbox.after_send
wait_for 60 "pbemd-a's scheduler stops holding a game" fault_reached scheduler.after_game_lock
frozen_game=$(fault_line scheduler.after_game_lock | sed -n 's/.* game=\([^ ]*\).*/\1/p')
window_mail=$(fault_line outbox.after_send | sed -n 's/.* mail=outbox-\([0-9]*\).*/\1/p')
[[ -n $frozen_game && -n $window_mail ]] || fail "fault lines without game or mail"
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
[[ " $(held_by_a | tr '\n' ' ') " == *" $(game_key "$frozen_game") "* ]] ||
  fail "pbemd-a says it holds $frozen_game, the database does not show its lock"
[[ $(sql "SELECT count(*) FROM games g WHERE g.id = '$frozen_game' AND g.turns_committed = 0
          AND EXISTS (SELECT 1 FROM submissions s WHERE s.game_id = g.id AND s.accepted <> 0)") \
   -eq 1 ]] || fail "$frozen_game, held by pbemd-a, has no due turn"
resolved_by_a=$(metric "$PORT_A" pbemd_turns_resolved_total)
# What pbemd-a had claimed in the outbox and not sent (id:claimed_until), and which of those
# it had already written to its outbox directory (sent, not yet marked: the window). Nobody
# else runs yet: the claims are still pbemd-a's, whatever the time.
claims_of_a=$(sql "SELECT id || ':' || claimed_until_ms FROM outbox
                   WHERE claimed_by = 'pbemd-a' AND sent_at_ms IS NULL
                   AND claimed_until_ms IS NOT NULL ORDER BY id" | tr '\n' ' ')
claimed_by_a="" window=""
for claim in $claims_of_a; do
  id=${claim%%:*}
  claimed_by_a="$claimed_by_a $id"
  [[ -f $work/a/outbox/outbox-$id.eml ]] && window="$window $id"
done
[[ $window == " $window_mail" ]] || fail "written but not marked sent: [$window], expected $window_mail"
[[ $claimed_by_a != "$window" ]] || fail "pbemd-a claimed no mail besides the one it wrote"
echo "pbemd-a stopped holding $frozen_game after resolving $resolved_by_a turn(s); mails" \
     "claimed: [${claimed_by_a# }], written but not marked sent: [${window# }]" \
     "($((SECONDS - t0)) s)"

# 3. pbemd-b starts; it resolves every other blue turn and skips the game pbemd-a holds.
# a polls its outbox often, b seldom (b still sends after each of its turn passes).
pid_b=$(start b 1000)
PORT_B=$(listening_port "$work/b.log" "$pid_b") || fail "pbemd-b did not listen"
wait_for 30 "pbemd-b answers /healthz" healthy "$PORT_B"
sleep_until_polled() { grep -q 'event=mail_intake_follower' "$work/b.log"; }
wait_for 10 "pbemd-b sees the intake taken" sleep_until_polled
leader_is "$PORT_B" 0 || fail "pbemd-b reads the mailbox while pbemd-a does"
all_but_one() { [[ $(games_with 1) -eq $((GAMES - 1)) ]]; }
wait_for 180 "blue's turn resolved in every game but $frozen_game" all_but_one
# (counted when a pass ends, and the first pass of pbemd-b resolves all the other games)
b_skipped() { (($(metric "$PORT_B" pbemd_games_busy_total) > 0)); }
wait_for 60 "pbemd-b skips the game pbemd-a holds" b_skipped
[[ $(sql "SELECT turns_committed FROM games WHERE id = '$frozen_game'") -eq 0 ]] ||
  fail "pbemd-b resolved $frozen_game while pbemd-a held it"
echo "pbemd-b resolved the other blue turns ($((SECONDS - t0)) s)"

# 4. Orange's orders for the other games, half to each instance (pbemd-a still answers
# HTTP); pbemd-b resolves them.
for i in $(seq 1 "$GAMES"); do
  [[ $(game_id "$i") != "$frozen_game" ]] || continue
  status=$(submit orange "$i" "$(port_of "$i")")
  [[ $status == 2* ]] || fail "orange's orders for $(game_id "$i"): HTTP $status: $(cat "$work/reply")"
done
all_but_one_done() { [[ $(games_with 2) -eq $((GAMES - 1)) ]]; }
wait_for 180 "orange's turn resolved in every game but $frozen_game" all_but_one_done

# 5. pbemd-a dies; pbemd-b takes its game, its claimed mails and the mail intake.
kill -KILL "$pid_a"
wait "$pid_a" 2>/dev/null || true
pid_a=""
echo "pbemd-a killed holding $frozen_game ($((SECONDS - t0)) s)"
frozen_blue() { [[ $(sql "SELECT turns_committed FROM games WHERE id = '$frozen_game'") -ge 1 ]]; }
wait_for 60 "pbemd-b resolves $frozen_game's blue turn" frozen_blue
i=$((10#${frozen_game#g}))
status=$(submit orange "$i" "$PORT_B")
[[ $status == 2* ]] || fail "orange's orders for $frozen_game: HTTP $status: $(cat "$work/reply")"
wait_for 180 "every game's two turns resolved" all_have 2
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

# Each results mail once: 2 turns x 2 players per game, by recipient and subject; and one
# welcome mail per player, queued with the game (issue 14).
[[ $(sql "SELECT count(*) FROM outbox") -eq $((6 * GAMES)) ]] ||
  fail "$(sql "SELECT count(*) FROM outbox") mails queued, expected $((6 * GAMES))"
[[ $(sql "SELECT count(*) FROM outbox WHERE subject LIKE 'Game %: you play %'") -eq $((2 * GAMES)) ]] ||
  fail "not one welcome mail per player"
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
# pbemd-a resolved nothing after it stopped: together they resolved each turn exactly once.
((resolved_by_a + resolved_by_b == 2 * GAMES)) ||
  fail "turns resolved: a $resolved_by_a + b $resolved_by_b, expected $((2 * GAMES))"
grep -q "event=turn_resolved game=$frozen_game" "$work/b.log" ||
  fail "pbemd-b did not resolve $frozen_game, the game pbemd-a held when it died"

echo "OK in $((SECONDS - t0)) s: $GAMES games, $((2 * GAMES)) turns each committed once;" \
     "turns resolved by a $resolved_by_a (before its fault point), by b $resolved_by_b;" \
     "b skipped $busy_b busy games; $((4 * GAMES)) results mails, delivered by a $sent_a," \
     "by b $sent_b (twice: $twice, the window); b took over $frozen_game, the mails" \
     "[${claimed_by_a# }] and the mail intake"
