# Sourced by the mail end-to-end tests: a work directory, free loopback ports, the mail rig
# (Postfix + Dovecot, mailrig.sh) started, game "demo" seeded with alice (blue) and bob
# (orange), and helpers (send, count, body, expect_reply, wait_settled). Cleans up on exit (pbemd killed by its PID, the rig stopped).
# Expects HERE (tests/mail), SEED (pbemd_seed_game) and WORK_PREFIX set by the caller.
[[ $(id -u) -eq 0 ]] || { echo "SKIP-FAIL: needs root (postfix/dovecot rig)" >&2; exit 1; }

work=$(mktemp -d "/tmp/$WORK_PREFIX-XXXXXX")
chmod 755 "$work"
export MAILRIG_ROOT=$work/rig
. "$HERE/../support/ports.sh"  # port_open, free_ports, listening_port
# pbemd binds port 0 (the system picks a free port) and says which in its log: start it with
# -Dpbemd.http.port=0, then HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid").
HTTP_PORT=""
pbemd_pid=""
cleanup() {
  if [[ -n $pbemd_pid ]] && kill -0 "$pbemd_pid" 2>/dev/null; then kill -KILL "$pbemd_pid"; fi
  "$HERE/mailrig.sh" stop || true
  [[ -n ${KEEP_WORK:-} ]] || rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  for f in "$work/pbemd.log" "$MAILRIG_ROOT/start.log" "$MAILRIG_ROOT/postfix.log" "$MAILRIG_ROOT/dovecot/dovecot.log"; do
    [[ -f $f ]] && { echo "--- $f" >&2; tail -40 "$f" >&2; }
  done
  exit 1
}

# Postfix and Dovecot cannot bind port 0: the rig's ports are picked, then bound. When another
# process takes one in between, mailrig.sh exits 75 and the rig starts again on other ports.
for rig_try in 1 2 3 4 5; do
  read -r SMTP_PORT IMAP_PORT LMTP_PORT SUBMISSION_PORT SMTPS_PORT AUTH_PORT IMAPS_PORT \
    <<<"$(free_ports 7)"
  export SMTP_PORT IMAP_PORT LMTP_PORT SUBMISSION_PORT SMTPS_PORT AUTH_PORT IMAPS_PORT
  rig_rc=0
  "$HERE/mailrig.sh" start || rig_rc=$?
  [[ $rig_rc -eq 75 ]] || break
  echo "the mail rig lost a port to another process (try $rig_try); starting it on other ports"
done
[[ $rig_rc -eq 0 ]] || fail "the mail rig did not start"
IMAP=imap://127.0.0.1:$IMAP_PORT
SMTP=smtp://127.0.0.1:$SMTP_PORT/client.test

"$SEED" "$work/data" demo blue:alice@test.local:tok-blue orange:bob@test.local:tok-orange ||
  fail "could not create the game"

send() {  # send FROM FILE
  curl -sS --max-time 20 "$SMTP" --mail-from "$1" --mail-rcpt game@test.local --upload-file "$2" ||
    fail "SMTP send from $1"
}
crlf() { sed 's/$/\r/'; }
count() {  # count USER: messages in USER's INBOX
  curl -sS --max-time 10 "$IMAP/INBOX" -u "$1:$1pw" -X 'UID SEARCH ALL' | tr -d '\r' |
    awk '/^\* SEARCH/ { print NF - 2; found = 1 } END { if (!found) print 0 }'
}
body() {  # body USER SUBJECT: the decoded text of USER's message with that exact subject
  local uid
  for uid in $(curl -sS --max-time 10 "$IMAP/INBOX" -u "$1:$1pw" -X 'UID SEARCH ALL' | tr -d '\r' |
    awk '/^\* SEARCH/ { for (i = 3; i <= NF; i++) print $i }'); do
    curl -sS --max-time 10 "$IMAP/INBOX/;UID=$uid" -u "$1:$1pw" -o "$work/$1-$uid.eml"
  done
  /usr/bin/python3 - "$2" "$work/$1"-*.eml <<'PY'
import email, sys
from email import policy
for path in sys.argv[2:]:
    m = email.message_from_binary_file(open(path, 'rb'), policy=policy.default)
    if str(m["Subject"]) != sys.argv[1]:
        continue
    print("Subject:", m["Subject"]); print("From:", m["From"])
    print(m.get_body(preferencelist=("plain",)).get_content())
PY
}
expect_reply() {  # expect_reply USER SUBJECT WHAT TEXT...: USER's mail SUBJECT holds each TEXT
  local user=$1 subject=$2 what=$3 reply text
  shift 3
  echo "check: $user got $what"
  reply=$(body "$user" "$subject")
  [[ -n $reply ]] || fail "$user has no mail with subject: $subject"
  sed 's/^/  | /' <<<"$reply"
  for text in "$@"; do grep -qF -- "$text" <<<"$reply" || fail "$user's mail lacks: $text"; done
}
# settled TURNS: nothing more is on its way. The game mailbox is empty (pbemd deletes a mail
# only after storing it and queueing its reply), the store holds TURNS turns and no unsent
# outbox mail (a turn and its results mails commit in one transaction; a mail is marked sent
# once Postfix took it), and Postfix's queue is empty (it delivered all it took). Checked in
# that order, so whatever a check sees done cannot make more mail after the later checks.
settled() {
  [[ $(count game) -eq 0 ]] || return 1
  [[ $(sqlite3 "$work/data/pbem.sqlite" "SELECT (SELECT count(*) FROM turns) || ' ' ||
       (SELECT count(*) FROM outbox WHERE sent_at_ms IS NULL)" 2>/dev/null) == "$1 0" ]] ||
    return 1
  "$HERE/mailrig.sh" queue-empty
}
wait_settled() {  # wait_settled TURNS: up to 120 s (a loaded machine), else fail
  local deadline=$((SECONDS + 120))
  until settled "$1"; do
    [[ -z $pbemd_pid ]] || kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
    ((SECONDS < deadline)) || fail "not settled within 120 s (turns $(sqlite3 \
      "$work/data/pbem.sqlite" "SELECT count(*) FROM turns" 2>&1), unsent $(sqlite3 \
      "$work/data/pbem.sqlite" "SELECT count(*) FROM outbox WHERE sent_at_ms IS NULL" 2>&1))"
    sleep 0.2
  done
}
