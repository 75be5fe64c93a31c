#!/bin/bash
# The mail benchmarks of issue 7 (benchmarks, not timed tests), as root:
#   [IDLE=false] tests/mail/bench_mail.sh PBEMD SEED_TOOL [RUNS] [MAILS]   (10 runs, 500 mails)
#   make bench   (runs it with the defaults)
# On the loopback mail rig (mailrig.sh: Postfix -> LMTP -> Dovecot), with pbemd reading the
# game mailbox over IMAP (IMAP IDLE on unless IDLE=false, and a poll every second, the
# shortest interval pbemd accepts) and sending over SMTP
# (outbox pass every 100 ms, scheduler every 200 ms), bench_mail.py measures:
#   1. latency, RUNS times on fresh games: bob's order mail (the last of the turn) -> his
#      receipt, and -> both players' results mails readable over IMAP (median, p90);
#   2. throughput: MAILS order mails (MAILS/2 games, both sides) -> every receipt and every
#      results mail readable over IMAP.
# Then checks pbemd's counters: every order mail accepted, every player-turn resolved.
# With RUNS=1 MAILS=4 it is the smoke run ctest does (bench_mail_smoke), so it cannot rot.
# Needs: deploy/install-deps.sh mail bench (run here when postfix, dovecot or python3 is missing).
set -euo pipefail
PBEMD=${1:?usage: bench_mail.sh PBEMD SEED_TOOL [RUNS] [MAILS]}
SEED=${2:?usage: bench_mail.sh PBEMD SEED_TOOL [RUNS] [MAILS]}
RUNS=${3:-10}
MAILS=${4:-500}
IDLE=${IDLE:-true}  # pbemd.mail.in.idle; IDLE=false bench_mail.sh ... measures polling alone
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
((RUNS >= 1 && MAILS >= 2 && MAILS % 2 == 0)) || { echo "RUNS >= 1, MAILS even and >= 2" >&2; exit 2; }
if ! command -v postfix >/dev/null || ! command -v dovecot >/dev/null || [[ ! -x /usr/bin/python3 ]]; then
  "$SRC/deploy/install-deps.sh" mail bench
fi

WORK_PREFIX=pbem-bench-mail
. "$HERE/e2e_common.sh"  # the rig started, game "demo" seeded, cleanup on exit, fail, HTTP_PORT

GAMES=$((MAILS / 2))
t=$(date +%s.%N)
for i in $(seq 1 "$RUNS"); do
  "$SEED" "$work/data" "lat-$i" blue:alice@test.local:tok-blue orange:bob@test.local:tok-orange ||
    fail "seeding lat-$i"
done
for g in $(seq 1 "$GAMES"); do
  "$SEED" "$work/data" "bulk-$g" blue:alice@test.local:tok-blue orange:bob@test.local:tok-orange ||
    fail "seeding bulk-$g"
done
printf 'bench_mail: IMAP IDLE %s; %d games seeded in %.1f s; %s cores; load average before: %s\n' \
  "$IDLE" \
  $((RUNS + GAMES + 1)) "$(echo "$(date +%s.%N) - $t" | bc -l)" "$(nproc)" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"

"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 \
  -Dpbemd.mail.from=game@test.local \
  -Dpbemd.mail.in.url="$IMAP/INBOX" -Dpbemd.mail.in.user=game -Dpbemd.mail.in.password=gamepw \
  -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.mail.in.idle="$IDLE" -Dpbemd.turns.poll_ms=200 \
  -Dpbemd.mail.out.transport=smtp -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" \
  -Dpbemd.mail.out.poll_ms=100 >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid") || fail "pbemd did not listen"
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$HTTP_PORT/healthz" >/dev/null && break
  if ! kill -0 "$pbemd_pid" 2>/dev/null; then
    rc=0
    wait "$pbemd_pid" || rc=$?
    pbemd_pid=""
    fail "pbemd exited with status $rc"
  fi
  sleep 0.1
done

/usr/bin/python3 "$HERE/bench_mail.py" "$SMTP_PORT" "$IMAP_PORT" "$SRC/engine/scenarios" \
  "$RUNS" "$MAILS" || fail "bench_mail.py"

metric() {  # metric NAME: the sum of a counter over its labels
  curl -sf "http://127.0.0.1:$HTTP_PORT/metrics" | awk -v n="$1" '$1 == n || index($1, n "{") == 1 { s += $2 } END { print s + 0 }'
}
accepted=$(metric pbemd_submissions_accepted_total)
rejected=$(metric pbemd_submissions_rejected_total)
resolved=$(metric pbemd_turns_resolved_total)
failed=$(metric pbemd_mails_failed_total)
echo "pbemd counters: $accepted submissions accepted, $rejected rejected, $resolved player-turns" \
  "resolved, $failed failed send attempts"
expected=$((2 * (RUNS + GAMES)))
[[ $accepted -eq $expected && $rejected -eq 0 && $resolved -eq $expected ]] ||
  fail "expected $expected accepted and resolved, none rejected"
echo "bench_mail: load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
kill -TERM "$pbemd_pid"
wait "$pbemd_pid" || fail "pbemd did not stop cleanly on SIGTERM"
pbemd_pid=""
