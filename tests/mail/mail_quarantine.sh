#!/bin/bash
# A mail that takes pbemd down goes to quarantine instead of crash-looping it (issue 13,
# finding 1), and mails players really send are answered (finding 9), through real Postfix +
# Dovecot on loopback (mailrig.sh). The game mailbox holds, in this order:
#   1. alice's blue orders in iso-8859-1, with accents in a comment   -> a receipt
#   2. alice's "poison" mail: the test-only fault point PBEM_FAULT=intake.before_handle:abort:poison
#      makes pbemd abort() while processing it
#   3. bob's mail whose body is `game_id` and 30,000 blanks (it crashed pbemd through std::regex)
#                                                                      -> an error reply
#   4. bob's orders under 300 header fields                            -> an error reply naming it
# pbemd is started three times with the fault point set: the first run answers mail 1 and dies
# in mail 2, the second dies in mail 2 again, the third moves mail 2 to the Quarantine folder
# without processing it, tells alice, and answers mails 3 and 4. Checked over IMAP and /metrics.
# Usage: mail_quarantine.sh PBEMD SEED_TOOL   (ctest passes both)
set -euo pipefail
PBEMD=${1:?usage: mail_quarantine.sh PBEMD SEED_TOOL}
SEED=${2:?usage: mail_quarantine.sh PBEMD SEED_TOOL}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
ulimit -c 0  # the aborts are expected: no core files

WORK_PREFIX=pbem-mail-quarantine
. "$HERE/e2e_common.sh"

headers() {  # headers FROM ID SUBJECT
  printf 'From: %s\nTo: game@test.local\nSubject: %s\nMessage-ID: <%s@test.local>\nMIME-Version: 1.0\n' \
    "$1" "$3" "$2"
}
{ headers 'Alice <alice@test.local>' latin1 '[pbem demo] blue orders'
  printf 'Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: 8bit\n\n'
  printf '# Ordres pour l\xe0 \xe9t\xe9, \xe0 l'"'"'aube\n'
  cat "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto"
  printf '\ntoken: "tok-blue"\n'; } | crlf > "$work/1-latin1.eml"
{ headers 'alice@test.local' poison '[pbem demo] poison pill'
  printf 'Content-Type: text/plain\n\nThis mail makes pbemd abort (test-only fault point).\n'; } |
  crlf > "$work/2-poison.eml"
{ headers 'bob@test.local' blanks '[pbem demo] orange orders'
  printf 'Content-Type: text/plain\n\ngame_id'; printf '%30000s' ''; printf '\n'; } |
  crlf > "$work/3-blanks.eml"
{ headers 'bob@test.local' flood '[pbem demo] forwarded orders'
  for i in $(seq 1 300); do printf 'X-Hop-%d: relay\n' "$i"; done
  printf 'Content-Type: text/plain\n\n'
  cat "$SRC/engine/scenarios/bois-de-la-morne.orders-orange.textproto"
  printf '\ntoken: "tok-orange"\n'; } | crlf > "$work/4-flood.eml"

echo "step: four mails into the game mailbox, in order (IMAP APPEND)"
for f in 1-latin1 2-poison 3-blanks 4-flood; do
  curl -sS --max-time 10 "$IMAP/INBOX" -u game:gamepw -T "$work/$f.eml" || fail "IMAP APPEND $f"
done
[[ $(count game) -eq 4 ]] || fail "the game mailbox holds $(count game) mails, expected 4"

# claim_seconds=2: a reply a dead run claimed from the outbox is sent by the next run soon after.
run_pbemd() {  # run_pbemd: starts pbemd with the fault point, in the background
  local seen
  seen=$(grep -c "event=listening" "$work/pbemd.log" 2>/dev/null) || seen=0
  PBEM_FAULT=intake.before_handle:abort:poison "$PBEMD" -Dpbemd.data_dir="$work/data" \
    -Dpbemd.http.port=0 -Dpbemd.mail.from=game@test.local \
    -Dpbemd.mail.in.url="$IMAP/INBOX" -Dpbemd.mail.in.user=game -Dpbemd.mail.in.password=gamepw \
    -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.mail.in.quarantine_folder=Quarantine \
    -Dpbemd.mail.out.transport=smtp -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" \
    -Dpbemd.mail.out.poll_ms=200 -Dpbemd.mail.out.claim_seconds=2 >>"$work/pbemd.log" 2>&1 </dev/null &
  pbemd_pid=$!
  HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid" "$seen") || fail "pbemd did not listen"
}
for run in 1 2; do
  echo "step: pbemd run $run dies in the poison mail"
  run_pbemd
  rc=0
  timeout 60 tail --pid=$pbemd_pid -f /dev/null || fail "pbemd run $run did not die within 60 s"
  wait $pbemd_pid || rc=$?
  pbemd_pid=""
  [[ $rc -eq 134 ]] || fail "pbemd run $run exited with $rc, expected 134 (abort)"
  [[ $(grep -c 'event=fault_point name=intake.before_handle ' "$work/pbemd.log") -eq $run ]] ||
    fail "run $run did not stop at the fault point"
done
[[ $(count game) -eq 3 ]] || fail "after two runs the mailbox holds $(count game) mails, expected 3"
ls "$work/data/mail-attempts" >/dev/null || fail "no attempt was recorded on disk"

echo "step: pbemd run 3 quarantines the poison mail and answers the others"
run_pbemd
has() { [[ -n $(body "$1" "$2") ]]; }
deadline=$((SECONDS + 120))
until [[ $(count game) -eq 0 ]] && has alice "Re: [pbem demo] poison pill: your orders could not be read" &&
  has alice "Re: [pbem demo] blue orders" &&
  has bob "Re: [pbem demo] orange orders: your orders could not be read" &&
  has bob "Re: [pbem demo] forwarded orders: your orders could not be read"; do
  kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd run 3 exited"
  ((SECONDS < deadline)) || fail "no quarantine and replies within 120 s (game mailbox: $(count game))"
  sleep 0.5
done

echo "check: the poison mail is in the Quarantine folder, unprocessed"
quarantined=$(curl -sS --max-time 10 "$IMAP/Quarantine" -u game:gamepw -X 'UID SEARCH ALL' | tr -d '\r' |
  awk '/^\* SEARCH/ { print NF - 2; found = 1 } END { if (!found) print 0 }')
[[ $quarantined -eq 1 ]] || fail "the Quarantine folder holds $quarantined mails, expected 1"
uid=$(curl -sS --max-time 10 "$IMAP/Quarantine" -u game:gamepw -X 'UID SEARCH ALL' | tr -d '\r' |
  awk '/^\* SEARCH/ { print $3 }')
curl -sS --max-time 10 "$IMAP/Quarantine/;UID=$uid" -u game:gamepw | grep -q 'Message-ID: <poison@test.local>' ||
  fail "the quarantined mail is not the poison mail"
[[ $(grep -c 'event=fault_point name=' "$work/pbemd.log") -eq 2 ]] || fail "run 3 processed the poison mail"
grep -q 'event=mail_quarantined .*message_id="<poison@test.local>"' "$work/pbemd.log" ||
  grep -q 'event=mail_quarantined .*message_id=<poison@test.local>' "$work/pbemd.log" ||
  fail "the quarantine was not logged"

expect_reply alice "Re: [pbem demo] poison pill: your orders could not be read" \
  "the quarantine reply" "failed twice while reading this mail" "Error: quarantined"
expect_reply alice "Re: [pbem demo] blue orders" "a receipt for the iso-8859-1 orders" \
  "Your orders for game demo, turn 1 (blue) have been received: 5 of 5 accepted."
expect_reply bob "Re: [pbem demo] orange orders: your orders could not be read" \
  "an error reply to the 30,000 blanks" "Error: malformed"
expect_reply bob "Re: [pbem demo] forwarded orders: your orders could not be read" \
  "an error reply to 300 header fields" "header fields, more than the 200 pbemd reads"

echo "check: /metrics counts the quarantine"
metrics=$(curl -sS --max-time 5 "http://127.0.0.1:$HTTP_PORT/metrics")
grep -qF 'pbemd_mail_quarantined_total 1' <<<"$metrics" || fail "metrics lack the quarantine count"
grep -qF 'pbemd_submissions_rejected_total{channel="mail",reason="malformed"} 2' <<<"$metrics" ||
  fail "metrics lack the two malformed refusals"
ls -A "$work/data/mail-attempts" | grep -q . && fail "attempt records left: $(ls "$work/data/mail-attempts")"

kill -TERM "$pbemd_pid"
rc=0
wait "$pbemd_pid" || rc=$?
pbemd_pid=""
[[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM"
echo "PASS: mail quarantine"
