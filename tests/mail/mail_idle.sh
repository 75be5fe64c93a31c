#!/bin/bash
# Prompt pick-up with IMAP IDLE, through the real Dovecot of the test rig (mailrig.sh), as root.
# pbemd reads the game mailbox over imaps (verified with the rig's CA) and polls only once an
# hour (pbemd.mail.in.poll_seconds=3600), so only IDLE can make it see a new mail soon:
#   1. pbemd starts, polls once and logs event=imap_idle_ready;
#   2. alice mails her orders; her receipt must arrive within 120 s (not in an hour), and the
#      mailbox poll count must have gone up;
#   3. Dovecot is stopped and started again: pbemd logs event=imap_idle_failed, reconnects
#      (after 5 s) and idles again; a second mail is then answered at once too;
#   4. with pbemd.mail.in.idle=false, once a third mail is in the mailbox pbemd has polled
#      once, not handled it and started no IDLE: nothing but the hourly poll can pick it up
#      (so the prompt answers were IDLE's doing, not some other poll);
#   5. SIGTERM stops pbemd promptly (the IDLE connection ends with DONE).
# Usage: mail_idle.sh PBEMD SEED_TOOL
set -euo pipefail
PBEMD=${1:?usage: mail_idle.sh PBEMD SEED_TOOL}
SEED=${2:?usage: mail_idle.sh PBEMD SEED_TOOL}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

WORK_PREFIX=pbem-mail-idle
. "$HERE/e2e_common.sh"

orders_mail() {  # orders_mail ID: alice's blue orders with Message-ID <ID@test.local>
  printf 'From: alice@test.local\nTo: game@test.local\nSubject: [pbem demo] blue orders %s\n' "$1"
  printf 'Message-ID: <%s@test.local>\nContent-Type: text/plain; charset=utf-8\n\n' "$1"
  cat "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto"
  printf '\ntoken: "tok-blue"\n'
}
polls() {
  curl -sS --max-time 5 "http://127.0.0.1:$HTTP_PORT/metrics" |
    awk '/^pbemd_mailbox_polls_total\{outcome="ok"\}/ { print $2 }'
}
start_pbemd() {  # start_pbemd IDLE
  local seen
  seen=$(grep -c "event=listening" "$work/pbemd.log" 2>/dev/null) || seen=0
  "$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 \
    -Dpbemd.mail.from=game@test.local \
    -Dpbemd.mail.in.url="imaps://127.0.0.1:$IMAPS_PORT/INBOX" -Dpbemd.mail.in.user=game \
    -Dpbemd.mail.in.password=gamepw -Dpbemd.mail.in.poll_seconds=3600 -Dpbemd.mail.in.idle="$1" \
    -Dpbemd.mail.ca_file="$MAILRIG_ROOT/tls/ca.pem" \
    -Dpbemd.mail.out.transport=smtp -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" \
    -Dpbemd.mail.out.poll_ms=200 >>"$work/pbemd.log" 2>&1 </dev/null &
  pbemd_pid=$!
  HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid" "$seen") || fail "pbemd did not listen"
  local deadline=$((SECONDS + 120))
  until [[ $(polls 2>/dev/null) -ge 1 ]]; do
    kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
    ((SECONDS < deadline)) || fail "pbemd made no first poll within 120 s"
    sleep 0.2
  done
}
stop_pbemd() {
  local t0=$SECONDS rc=0
  kill -TERM "$pbemd_pid"
  wait "$pbemd_pid" || rc=$?
  pbemd_pid=""
  [[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM"
  # Bounded well below the IDLE renewal (25 min) that a stop not ending IDLE would wait for.
  ((SECONDS - t0 <= 60)) || fail "pbemd took $((SECONDS - t0)) s to stop"
}

echo "step: pbemd with IDLE over imaps, polling once an hour"
start_pbemd true
deadline=$((SECONDS + 120))
until grep -q "event=imap_idle_ready" "$work/pbemd.log"; do
  ((SECONDS < deadline)) || fail "no event=imap_idle_ready within 120 s"
  sleep 0.2
done
# (The wake-up that starting IDLE causes may poll before or after this count: the receipt
# needs a poll either way, so the count must go up; and with polls once an hour, only IDLE,
# its wake-up or its announcement, can answer within the bound.)
before=$(polls)
echo "step: alice mails her orders; the receipt must come at once"
orders_mail idle-1 | crlf >"$work/m1.eml"
t0=$(date +%s.%N)
send alice@test.local "$work/m1.eml"
deadline=$((SECONDS + 120))
until [[ $(count alice) -ge 1 ]]; do
  ((SECONDS < deadline)) || fail "no receipt within 120 s although IDLE is on"
  sleep 0.1
done
printf '  receipt readable %.2f s after sending\n' "$(echo "$(date +%s.%N) - $t0" | bc -l)"
after=$(polls)
((after > before)) || fail "the mailbox poll count did not go up ($before -> $after)"
grep -q "event=imap_idle_failed" "$work/pbemd.log" && fail "IDLE failed at some point"

# Blue's results delivered too before Dovecot stops (else Postfix defers them for minutes).
wait_settled 1
echo "step: Dovecot restarts; IDLE reconnects"
"$HERE/mailrig.sh" imap-stop
deadline=$((SECONDS + 120))
until grep -q "event=imap_idle_failed" "$work/pbemd.log"; do
  ((SECONDS < deadline)) || fail "no event=imap_idle_failed within 120 s of stopping Dovecot"
  sleep 0.2
done
"$HERE/mailrig.sh" imap-start
deadline=$((SECONDS + 120))
until [[ $(grep -c "event=imap_idle_ready" "$work/pbemd.log") -ge 2 ]]; do
  ((SECONDS < deadline)) || fail "IDLE did not come back within 120 s of Dovecot's restart"
  sleep 0.2
done
received=$(count alice)  # nothing was on its way to her (settled before Dovecot stopped)
orders_mail idle-3 | crlf >"$work/m3.eml"
t0=$(date +%s.%N)
send alice@test.local "$work/m3.eml"
deadline=$((SECONDS + 120))
until [[ $(count alice) -gt $received ]]; do
  ((SECONDS < deadline)) || fail "no answer within 120 s after IDLE reconnected"
  sleep 0.1
done
printf '  answer readable %.2f s after sending\n' "$(echo "$(date +%s.%N) - $t0" | bc -l)"
stop_pbemd

echo "step: the same with IDLE off: a new mail waits for the hourly poll"
idle_ready_before=$(grep -c "event=imap_idle_ready" "$work/pbemd.log")
start_pbemd false
orders_mail idle-2 | crlf >"$work/m2.eml"
send alice@test.local "$work/m2.eml"
# No waiting to see that nothing happens: once the mail is in the game mailbox, pbemd has
# polled once and started no IMAP IDLE (no event=imap_idle_ready since it started), so
# nothing can tell it of the new mail before its next poll, in an hour.
deadline=$((SECONDS + 120))
until [[ $(count game) -eq 1 ]]; do
  ((SECONDS < deadline)) || fail "the second mail did not reach the game mailbox within 120 s"
  sleep 0.2
done
[[ $(grep -c "event=imap_idle_ready" "$work/pbemd.log") -eq $idle_ready_before ]] ||
  fail "with IDLE off pbemd started IMAP IDLE"
[[ $(polls) -eq 1 ]] || fail "with IDLE off pbemd polled $(polls) times, expected its first poll only"
grep -q "message_id=<idle-2@test.local>" "$work/pbemd.log" &&
  fail "with IDLE off the second mail was handled"
[[ $(count game) -eq 1 ]] || fail "the second mail is not waiting in the game mailbox"
stop_pbemd
echo "PASS: IMAP IDLE picks up order mail at once"
