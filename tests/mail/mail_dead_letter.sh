#!/bin/bash
# The outbox's bounded retries, through the real Postfix (mailrig.sh), which refuses
# nobody@test.local for good at RCPT (550 5.1.1, user unknown) and answers busy@test.local 450
# (try later) every time:
#   game lost: carol (blue) and nobody@test.local (orange); game slow: bob (blue) and
#   busy@test.local (orange). carol and bob mail blue's orders: each gets a receipt, and each
#   turn's results mail goes to both players of its game.
# Then: carol's and bob's mails arrive; nobody's results mail is dead-lettered at its first
# attempt and never tried again (Postfix saw its RCPT once); busy's is tried max_attempts (3)
# times with backoff, then dead-lettered; nothing else is left unsent; the log and /metrics say
# so; `pbem outbox dead` lists both; `pbem outbox requeue` puts nobody's back, pbemd tries it
# once more and dead-letters it again; requeueing a mail that is no dead letter fails.
# Bounded: every wait has a deadline; servers stopped by PID.
# Usage: mail_dead_letter.sh PBEMD SEED_TOOL PBEM   (ctest passes all three)
set -euo pipefail
PBEMD=${1:?usage: mail_dead_letter.sh PBEMD SEED_TOOL PBEM}
SEED=${2:?usage: mail_dead_letter.sh PBEMD SEED_TOOL PBEM}
PBEM=${3:?usage: mail_dead_letter.sh PBEMD SEED_TOOL PBEM}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

WORK_PREFIX=pbem-mail-dead
. "$HERE/e2e_common.sh"

"$SEED" "$work/data" lost blue:carol@test.local:tok-carol orange:nobody@test.local:tok-n ||
  fail "could not create game lost"
"$SEED" "$work/data" slow blue:bob@test.local:tok-bob orange:busy@test.local:tok-busy ||
  fail "could not create game slow"
orders_mail() {  # orders_mail FROM GAME TOKEN > FILE: blue's bundled orders for GAME
  printf 'From: %s\nTo: game@test.local\nSubject: [pbem %s] blue orders\n' "$1" "$2"
  printf 'Message-ID: <%s-blue@test.local>\nMIME-Version: 1.0\n' "$2"
  printf 'Content-Type: text/plain; charset=utf-8\n\n'
  sed "s/game_id: \"demo\"/game_id: \"$2\"/" "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto"
  printf '\ntoken: "%s"\n' "$3"
}
orders_mail carol@test.local lost tok-carol | crlf >"$work/carol.eml"
orders_mail bob@test.local slow tok-bob | crlf >"$work/bob.eml"
send carol@test.local "$work/carol.eml"
send bob@test.local "$work/bob.eml"

db() { sqlite3 "$work/data/pbem.sqlite" "$1"; }
# RCPT refusals Postfix logged for ADDRESS.
refusals() { grep -c "reject: RCPT from .* to=<$1>" "$MAILRIG_ROOT/postfix.log" || true; }
metric() {
  curl -sS --max-time 5 "http://127.0.0.1:$HTTP_PORT/metrics" | awk -v n="$1" '$1 == n { print $2 }'
}

echo "step: pbemd answers over SMTP; at most 3 attempts a mail, 1 s then 2 s apart"
"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 \
  -Dpbemd.mail.from=game@test.local \
  -Dpbemd.mail.in.url="$IMAP/INBOX" -Dpbemd.mail.in.user=game -Dpbemd.mail.in.password=gamepw \
  -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.turns.poll_ms=200 \
  -Dpbemd.mail.out.transport=smtp -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" \
  -Dpbemd.mail.out.poll_ms=200 -Dpbemd.mail.out.retry_base_seconds=1 \
  -Dpbemd.mail.out.retry_max_seconds=2 -Dpbemd.mail.out.max_attempts=3 \
  >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid") || fail "pbemd did not listen"

# Done: both dead letters recorded, carol and bob hold their two mails each, nothing else is
# waiting in the outbox, and Postfix delivered all it took.
done_sending() {
  [[ $(db "SELECT count(*) FROM outbox WHERE failed_at_ms IS NOT NULL") -eq 2 ]] &&
    [[ $(db "SELECT count(*) FROM outbox WHERE sent_at_ms IS NULL AND failed_at_ms IS NULL") -eq 0 ]] &&
    [[ $(count carol) -ge 2 && $(count bob) -ge 2 ]] && "$HERE/mailrig.sh" queue-empty
}
deadline=$((SECONDS + 120))
until done_sending 2>/dev/null; do
  kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
  ((SECONDS < deadline)) || fail "not done within 120 s: dead letters $(db "SELECT count(*) \
FROM outbox WHERE failed_at_ms IS NOT NULL" 2>&1), unsent $(db "SELECT count(*) FROM outbox \
WHERE sent_at_ms IS NULL" 2>&1), carol $(count carol), bob $(count bob)"
  sleep 0.3
done

echo "check: the other players' mails went out, exactly once"
[[ $(count carol) -eq 2 && $(count bob) -eq 2 ]] ||
  fail "carol holds $(count carol) mails and bob $(count bob), expected 2 each"
expect_reply carol "Game lost, turn 1 (blue): results" "lost's results" "Hello,"
expect_reply bob "Game slow, turn 1 (blue): results" "slow's results" "Hello,"

echo "check: nobody's mail was dead-lettered at its first attempt, busy's after 3"
row() { db "SELECT attempts || ' ' || (failed_at_ms IS NOT NULL) || ' ' || last_error FROM outbox WHERE recipient = '$1'"; }
echo "  nobody: $(row nobody@test.local)"
echo "  busy:   $(row busy@test.local)"
[[ $(row nobody@test.local) == "1 1 "*"refused for good"*"550"* ]] ||
  fail "nobody's mail: $(row nobody@test.local)"
[[ $(row busy@test.local) == "3 1 "*"450"* ]] || fail "busy's mail: $(row busy@test.local)"
# Tried exactly that often: busy's three attempts took over 3 s, in which a retried refusal of
# nobody's mail would have been tried again.
[[ $(refusals nobody@test.local) -eq 1 ]] ||
  fail "Postfix refused nobody@test.local $(refusals nobody@test.local) times, expected 1"
[[ $(refusals busy@test.local) -eq 3 ]] ||
  fail "Postfix refused busy@test.local $(refusals busy@test.local) times, expected 3"
grep -q 'event=mail_dead_letter .*to=nobody@test.local attempts=1 reason=refused ' "$work/pbemd.log" ||
  fail "no event=mail_dead_letter reason=refused for nobody@test.local in the log"
grep -q 'event=mail_dead_letter .*to=busy@test.local attempts=3 reason=too_many_attempts ' \
  "$work/pbemd.log" || fail "no event=mail_dead_letter reason=too_many_attempts for busy@test.local"
[[ $(metric pbemd_mails_dead_lettered_total) == 2 ]] ||
  fail "pbemd_mails_dead_lettered_total is $(metric pbemd_mails_dead_lettered_total), expected 2"
[[ $(metric pbemd_mails_sent_total) == 4 ]] ||
  fail "pbemd_mails_sent_total is $(metric pbemd_mails_sent_total), expected 4"
[[ $(metric pbemd_mails_failed_total) == 4 ]] ||
  fail "pbemd_mails_failed_total is $(metric pbemd_mails_failed_total), expected 4"

echo "check: pbem outbox dead lists both, pbemd running"
listing=$("$PBEM" outbox dead --db "sqlite:$work/data") || fail "pbem outbox dead failed"
sed 's/^/  | /' <<<"$listing"
grep -q '^2 dead letters$' <<<"$listing" || fail "the listing does not count 2 dead letters"
grep -qE '  attempts 1  to nobody@test\.local  subject "Game lost, turn 1 \(blue\): results"' \
  <<<"$listing" || fail "the listing lacks nobody's mail"
grep -q '  attempts 3  to busy@test.local  ' <<<"$listing" || fail "the listing lacks busy's mail"

echo "step: pbem outbox requeue puts nobody's mail back; pbemd tries it once more"
id=$(db "SELECT id FROM outbox WHERE recipient = 'nobody@test.local'")
"$PBEM" outbox requeue "$id" --db "sqlite:$work/data" | grep -qx "requeued mail $id" ||
  fail "pbem outbox requeue $id did not say it requeued the mail"
deadline=$((SECONDS + 60))
until [[ $(refusals nobody@test.local) -ge 2 ]] &&
  [[ $(db "SELECT failed_at_ms IS NOT NULL FROM outbox WHERE id = $id") == 1 ]]; do
  ((SECONDS < deadline)) || fail "the requeued mail was not tried again within 60 s: $(row nobody@test.local)"
  sleep 0.3
done
[[ $(row nobody@test.local) == "1 1 "* ]] || fail "requeued, then: $(row nobody@test.local)"
[[ $(metric pbemd_mails_dead_lettered_total) == 3 ]] || fail "the second refusal was not counted"

echo "check: only a dead letter can be requeued"
sent=$(db "SELECT id FROM outbox WHERE recipient = 'carol@test.local' LIMIT 1")
rc=0
"$PBEM" outbox requeue "$sent" --db "sqlite:$work/data" 2>"$work/requeue.err" || rc=$?
[[ $rc -eq 1 ]] || fail "requeueing sent mail $sent exited with $rc, expected 1"
grep -q "not a dead letter" "$work/requeue.err" || fail "the refusal does not say why"
[[ $(db "SELECT sent_at_ms IS NOT NULL FROM outbox WHERE id = $sent") == 1 ]] ||
  fail "the sent mail changed"

echo "step: SIGTERM stops pbemd cleanly"
kill -TERM "$pbemd_pid"
rc=0
wait "$pbemd_pid" || rc=$?
pbemd_pid=""
[[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM"
echo "PASS: mail dead letters"
