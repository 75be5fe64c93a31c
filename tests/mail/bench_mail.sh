#!/bin/bash
# Not a test (not in ctest): the mail benchmarks of issue 7, run by hand as root.
#   tests/mail/bench_mail.sh build/bin/pbemd build/bin/pbemd_seed_game [N]
# On the loopback rig (mailrig.sh: Postfix + Dovecot), with pbemd polling IMAP every second
# and sending over SMTP:
#   1. latency: one order mail sent with curl -> its receipt delivered to the player's
#      Maildir (5 runs, each after the previous receipt);
#   2. throughput: N order mails (default 500, distinct content) sent over one SMTP
#      connection (Python smtplib), time until all N receipts are delivered.
# Servers and pbemd are stopped by PID at the end.
set -euo pipefail
PBEMD=${1:?usage}; SEED=${2:?usage}; N=${3:-500}
HERE=$(cd "$(dirname "$0")" && pwd); SRC=$(cd "$HERE/../.." && pwd)
work=$(mktemp -d /tmp/pbem-mail-bench-XXXXXX); chmod 755 "$work"
export MAILRIG_ROOT=$work/rig
port() { echo $((20000 + RANDOM % 40000)); }
export SMTP_PORT=$(port) IMAP_PORT=$(port) LMTP_PORT=$(port)
pbemd_pid=""
cleanup() {
  [[ -n $pbemd_pid ]] && kill -TERM "$pbemd_pid" 2>/dev/null && wait "$pbemd_pid" || true
  "$HERE/mailrig.sh" stop || true
  [[ -n ${KEEP_WORK:-} ]] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT
"$HERE/mailrig.sh" start >/dev/null
"$SEED" "$work/data" demo blue:alice@test.local:tok-blue orange:bob@test.local:tok-orange
"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=$(port) -Dpbemd.mail.from=game@test.local \
  -Dpbemd.mail.in.url="imap://127.0.0.1:$IMAP_PORT/INBOX" -Dpbemd.mail.in.user=game \
  -Dpbemd.mail.in.password=gamepw -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.mail.out.transport=smtp \
  -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" -Dpbemd.mail.out.poll_ms=100 \
  >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
MAILDIR=$MAILRIG_ROOT/vmail/alice/Maildir
delivered() { ls "$MAILDIR/new" "$MAILDIR/cur" 2>/dev/null | grep -c '^[0-9]' || true; }
mail() {  # mail I: an order mail with distinct content
  printf 'From: alice@test.local\r\nTo: game@test.local\r\nSubject: [pbem demo] orders %s\r\nMessage-ID: <bench-%s@test.local>\r\n\r\n' "$1" "$1"
  sed 's/$/\r/' "$SRC/engine/scenarios/bois-de-la-morne.orders-blue.textproto"
  printf '# run %s\r\ntoken: "tok-blue"\r\n' "$1"
}
echo "latency: order mail -> receipt in the player's Maildir (poll interval 1 s)"
for i in 1 2 3 4 5; do
  before=$(delivered); mail "lat-$i" > "$work/m.eml"
  t0=$(date +%s.%N)
  curl -sS "smtp://127.0.0.1:$SMTP_PORT/client.test" --mail-from alice@test.local \
    --mail-rcpt game@test.local --upload-file "$work/m.eml"
  while [[ $(delivered) -le $before ]]; do sleep 0.01; done
  printf '  run %d: %.2f s\n' $i "$(echo "$(date +%s.%N) - $t0" | bc -l)"
done
echo "throughput: $N order mails over one SMTP connection"
for i in $(seq 1 "$N"); do mail "tp-$i" > "$work/tp-$i.eml"; done
before=$(delivered)
t0=$(date +%s.%N)
/usr/bin/python3 - "$SMTP_PORT" "$work" "$N" <<'PY'
import smtplib, sys
port, work, n = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
with smtplib.SMTP("127.0.0.1", port, local_hostname="client.test") as s:
    for i in range(1, n + 1):
        s.sendmail("alice@test.local", ["game@test.local"], open(f"{work}/tp-{i}.eml", "rb").read())
PY
t1=$(date +%s.%N)
deadline=$((SECONDS + 600))
while [[ $(( $(delivered) - before )) -lt $N ]]; do
  ((SECONDS < deadline)) || { echo "timeout: $(( $(delivered) - before )) of $N receipts" >&2; exit 1; }
  sleep 0.1
done
t2=$(date +%s.%N)
printf '  sent in %.1f s; all %d receipts delivered after %.1f s: %.1f order mails/s end to end\n' \
  "$(echo "$t1 - $t0" | bc -l)" "$N" "$(echo "$t2 - $t0" | bc -l)" "$(echo "$N / ($t2 - $t0)" | bc -l)"
grep -c 'event=mail_submission.*accepted=true' "$work/pbemd.log" | sed 's/^/  accepted submissions in the log: /'
