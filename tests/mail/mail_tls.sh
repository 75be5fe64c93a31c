#!/bin/bash
# pbemd's mailer (daemon/mail/mailer.cc, libcurl) over TLS through the real Postfix of the test
# rig (mailrig.sh: a throw-away CA, STARTTLS required on the submission port, TLS from the
# first byte on the smtps port, SMTP AUTH checked by Dovecot's SASL service), as root:
#   1. STARTTLS + AUTH, verified against the rig's CA (pbemd.mail.ca_file)  -> delivered
#   2. SMTPS + AUTH, verified against the rig's CA                           -> delivered
# and each one is then read back over IMAP: the Received header Postfix wrote says ESMTPSA
# (TLS and AUTH both used). What must fail does:
#   3. STARTTLS without the rig's CA (the system bundle does not trust it)  -> refused, names
#      the certificate problem, nothing delivered
#   4. SMTPS with a wrong password                                          -> refused (535)
#   5. plain SMTP (no STARTTLS) to the submission port                      -> refused
# Usage: mail_tls.sh SEND_TOOL SEED_TOOL   (ctest passes pbemd_send_mail and pbemd_seed_game)
set -euo pipefail
SEND=${1:?usage: mail_tls.sh SEND_TOOL SEED_TOOL}
SEED=${2:?usage: mail_tls.sh SEND_TOOL SEED_TOOL}
HERE=$(cd "$(dirname "$0")" && pwd)

WORK_PREFIX=pbem-mail-tls
. "$HERE/e2e_common.sh"
CA=$MAILRIG_ROOT/tls/ca.pem
SUBMISSION=smtp://127.0.0.1:$SUBMISSION_PORT/pbemd.test
SMTPS=smtps://127.0.0.1:$SMTPS_PORT/pbemd.test

must_send() {  # must_send WHAT ARGS...: the tool succeeds
  local what=$1
  shift
  "$SEND" "$@" 2>"$work/send.err" || fail "$what: $(cat "$work/send.err")"
  echo "  sent: $what"
}
must_fail() {  # must_fail WHAT EXPECTED_TEXT ARGS...: the tool fails, naming EXPECTED_TEXT
  local what=$1 expected=$2
  shift 2
  if "$SEND" "$@" 2>"$work/send.err"; then fail "$what: the mail was taken"; fi
  grep -qiE -- "$expected" "$work/send.err" ||
    fail "$what: the error does not say /$expected/: $(cat "$work/send.err")"
  echo "  refused as expected: $what: $(head -c 200 "$work/send.err")"
}
wait_mails() {  # wait_mails USER N
  local deadline=$((SECONDS + 120))
  until [[ $(count "$1") -ge $2 ]]; do
    ((SECONDS < deadline)) || fail "$1 holds $(count "$1") mails after 120 s, expected $2"
    sleep 0.2
  done
}
received_by() {  # received_by USER SUBJECT: the Received header Postfix added to that mail
  local uid
  uid=$(curl -sS --max-time 10 "$IMAP/INBOX" -u "$1:$1pw" -X "UID SEARCH SUBJECT \"$2\"" |
    tr -d '\r' | awk '/^\* SEARCH/ { print $3 }')
  [[ -n $uid ]] || fail "$1 has no mail with subject $2"
  curl -sS --max-time 10 "$IMAP/INBOX/;UID=$uid;SECTION=HEADER" -u "$1:$1pw" | tr -d '\r' |
    awk '/^Received:/ { on = 1 } on && /^[^ \t]/ && !/^Received:/ { on = 0 } on' |
    grep -m1 -A2 "mail.test.local (Postfix)" | tr '\n' ' '
}

echo "step: STARTTLS with AUTH on the submission port, the rig's CA"
must_send "starttls" "$SUBMISSION" starttls game gamepw "$CA" game@test.local alice@test.local \
  "tls test starttls"
echo "step: SMTPS with AUTH, the rig's CA"
must_send "smtps" "$SMTPS" smtps game gamepw "$CA" game@test.local alice@test.local \
  "tls test smtps"
wait_mails alice 2
for mode in starttls smtps; do
  header=$(received_by alice "tls test $mode")
  echo "  $mode: Received: $header"
  grep -q "with ESMTPSA" <<<"$header" || fail "the $mode mail was not taken over TLS with AUTH"
done

echo "step: what must be refused"
must_fail "STARTTLS, certificate not verified against the system bundle" \
  "certificate|issuer" "$SUBMISSION" starttls game gamepw "" game@test.local bob@test.local "no"
must_fail "SMTPS, wrong password" "535|login denied|authentication" \
  "$SMTPS" smtps game wrongpw "$CA" game@test.local bob@test.local "no"
must_fail "plain SMTP to the submission port" "530" \
  "$SUBMISSION" none game gamepw "$CA" game@test.local bob@test.local "no"
# Postfix refused those in the SMTP dialog; whatever it took anyway is delivered once its queue
# is empty.
deadline=$((SECONDS + 120))
until "$HERE/mailrig.sh" queue-empty; do
  ((SECONDS < deadline)) || fail "Postfix's queue did not empty within 120 s"
  sleep 0.2
done
[[ $(count bob) -eq 0 ]] || fail "bob received $(count bob) mails that should have been refused"
echo "PASS: mail over STARTTLS and SMTPS"
