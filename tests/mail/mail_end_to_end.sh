#!/bin/bash
# End to end through real mail servers: Postfix + Dovecot on loopback (mailrig.sh), pbemd
# reading the game mailbox over IMAP and answering over SMTP.
#   1. alice (blue) mails valid text orders with her token       -> a receipt with verdicts;
#      blue's player-turn resolves and both players get its results mail
#   2. bob (orange) mails something that is not orders           -> an error reply: malformed
#   3. mallory (no player) mails alice's orders                  -> dropped, no reply
#   4. with Postfix down, alice's second orders (put into the mailbox over IMAP APPEND; blue
#      has played, so they are refused) are answered once Postfix is back: the reply waits in
#      the outbox, retried with backoff
# Then checks over IMAP: alice has the receipt, bob the error, the game mailbox is empty; and
# /metrics counts what happened. Bounded: every wait has a deadline; servers stopped by PID.
# Usage: mail_end_to_end.sh PBEMD SEED_TOOL   (ctest passes both)
set -euo pipefail
PBEMD=${1:?usage: mail_end_to_end.sh PBEMD SEED_TOOL}
SEED=${2:?usage: mail_end_to_end.sh PBEMD SEED_TOOL}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

WORK_PREFIX=pbem-mail-e2e
. "$HERE/e2e_common.sh"

{ printf 'From: Alice <alice@test.local>\nTo: game@test.local\nSubject: [pbem demo] blue orders\n'
  printf 'Message-ID: <alice-1@test.local>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n'
  cat "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto"
  printf '\ntoken: "tok-blue"\n'; } | crlf > "$work/alice.eml"
{ printf 'From: bob@test.local\nTo: game@test.local\nSubject: [pbem demo] orange orders\n'
  printf 'Message-ID: <bob-1@test.local>\n\nI attack everything at dawn!\n'; } | crlf > "$work/bob.eml"
{ printf 'From: mallory@test.local\nTo: game@test.local\nSubject: [pbem demo] orders\n'
  printf 'Message-ID: <mallory-1@test.local>\n\n'
  cat "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto"
  printf '\ntoken: "tok-blue"\n'; } | crlf > "$work/mallory.eml"

echo "step: three mails to the game mailbox over SMTP"
send alice@test.local "$work/alice.eml"
send bob@test.local "$work/bob.eml"
send mallory@test.local "$work/mallory.eml"

for _ in $(seq 1 100); do [[ $(count game) -ge 3 ]] && break; sleep 0.1; done
[[ $(count game) -eq 3 ]] || fail "the game mailbox holds $(count game) mails, expected 3"

echo "step: pbemd reads the mailbox over IMAP and answers over SMTP"
"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 \
  -Dpbemd.mail.from=game@test.local \
  -Dpbemd.mail.in.url="$IMAP/INBOX" -Dpbemd.mail.in.user=game -Dpbemd.mail.in.password=gamepw \
  -Dpbemd.mail.in.poll_seconds=1 \
  -Dpbemd.mail.out.transport=smtp -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" \
  -Dpbemd.mail.out.poll_ms=200 -Dpbemd.mail.out.retry_base_seconds=1 \
  -Dpbemd.mail.out.retry_max_seconds=2 >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid") || fail "pbemd did not listen"

deadline=$((SECONDS + 120))
until [[ $(count alice) -ge 2 && $(count bob) -ge 2 && $(count game) -eq 0 ]]; do
  kill -0 $pbemd_pid 2>/dev/null || fail "pbemd exited"
  ((SECONDS < deadline)) || fail "no replies within 120 s (alice $(count alice), bob $(count bob), game $(count game))"
  sleep 0.3
done
wait_settled 1  # anything else (e.g. a reply to mallory) would have arrived by now

[[ $(count alice) -eq 2 && $(count bob) -eq 2 ]] ||
  fail "alice holds $(count alice) mails and bob $(count bob), expected 2 each"
expect_reply alice "Re: [pbem demo] blue orders" "a receipt with the verdicts" \
  "From: game@test.local" \
  "Your orders for game demo, turn 1 (blue) have been received: 5 of 5 accepted." \
  "move 1 (Brigade Lambert (b-i2)): accepted"
expect_reply bob "Re: [pbem demo] orange orders: your orders could not be read" \
  "an error reply naming the problem (the mail templates' words)" \
  "Hello," "could not be read as orders" "Error: malformed" "body:1:"
for user in alice bob; do
  expect_reply $user "Game demo, turn 1 (blue): results" "blue's results" "Hello,"
done

echo "check: the game mailbox is empty and mallory got nothing"
[[ $(count game) -eq 0 ]] || fail "the game mailbox still holds $(count game) mails"
grep -q 'event=mail_dropped reason=unknown_sender from=mallory@test.local' "$work/pbemd.log" ||
  fail "mallory's mail was not logged as dropped"

echo "check: /metrics counts it"
metrics=$(curl -sS --max-time 5 "http://127.0.0.1:$HTTP_PORT/metrics")
for line in 'pbemd_submissions_accepted_total{channel="mail"} 1' \
            'pbemd_submissions_rejected_total{channel="mail",reason="malformed"} 1' \
            'pbemd_mails_dropped_total 1' 'pbemd_mails_sent_total 4' 'pbemd_mails_queued_total 4' \
            'pbemd_turns_resolved_total 1'; do
  grep -qF "$line" <<<"$metrics" || fail "metrics lack: $line"
done
grep -qE '^pbemd_mailbox_polls_total\{outcome="ok"\} [1-9]' <<<"$metrics" || fail "no mailbox poll counted"

echo "step: Postfix down; alice's second orders arrive in the mailbox over IMAP APPEND"
"$HERE/mailrig.sh" smtp-stop
! port_open "$SMTP_PORT" || fail "postfix still listens"
{ printf 'From: Alice <alice@test.local>\nTo: game@test.local\nSubject: [pbem demo] blue orders, second try\n'
  printf 'Message-ID: <alice-2@test.local>\nContent-Type: text/plain; charset=utf-8\n\n'
  cat "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto"
  printf '\n# second try\ntoken: "tok-blue"\n'; } | crlf > "$work/alice2.eml"
curl -sS --max-time 10 "$IMAP/INBOX" -u game:gamepw -T "$work/alice2.eml" || fail "IMAP APPEND"
deadline=$((SECONDS + 120))
# The receipt is queued before the mail is deleted from the mailbox: wait for both.
until grep -qE '^pbemd_mails_failed_total [1-9]' <<<"$(curl -sS --max-time 5 "http://127.0.0.1:$HTTP_PORT/metrics")" &&
  [[ $(count game) -eq 0 ]]; do
  ((SECONDS < deadline)) || fail "pbemd never failed to send while postfix was down, or the" \
    "second mail was not taken from the mailbox ($(count game) left)"
  sleep 0.3
done
[[ $(count alice) -eq 2 ]] || fail "alice got mail while postfix was down?"
"$HERE/mailrig.sh" smtp-start
deadline=$((SECONDS + 120))
until [[ $(count alice) -ge 3 ]]; do
  ((SECONDS < deadline)) || fail "the queued receipt never arrived after postfix came back"
  sleep 0.3
done
second=$(body alice "Re: [pbem demo] blue orders, second try: it is not your side's move")
[[ -n $second ]] || fail "alice's second reply is not there"
grep -qF "Error: stale_turn" <<<"$second" ||
  fail "the second reply does not say why the orders were refused: $second"
echo "  the reply queued while postfix was down arrived after it came back"

echo "step: SIGTERM stops pbemd cleanly"
kill -TERM $pbemd_pid
rc=0
for _ in $(seq 1 100); do kill -0 $pbemd_pid 2>/dev/null || break; sleep 0.1; done
wait $pbemd_pid || rc=$?
pbemd_pid=""
[[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM"
echo "PASS: mail end to end"
