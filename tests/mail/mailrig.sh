#!/bin/bash
# mailrig.sh start|stop|smtp-stop|smtp-start|imap-stop|imap-start|queue-empty  -- a throw-away mail system on loopback for the mail tests, as root,
# without systemd: Postfix (SMTP 127.0.0.1:$SMTP_PORT) -> LMTP -> Dovecot (IMAP
# 127.0.0.1:$IMAP_PORT), following ../shared/notes/toolchain.md section 2 (verified recipe).
# Domain test.local; users game, alice, bob, carol (password: <user>pw). Anything else is
# refused at RCPT for good (550 5.1.1, user unknown); busy@test.local is answered 450 at RCPT
# every time (try later; for the outbox's bounded retries); nothing is relayed off the machine.
# Ports: the caller picks them (tests/support/ports.sh) and another process may take one
# before the servers bind it. `start` then stops what it started and exits 75 (EX_TEMPFAIL):
# the caller picks other ports and starts again (e2e_common.sh does). A port counts as the
# rig's only when the server's own master process holds the listening socket (ss -ltnp), so a
# stranger listening there is never mistaken for it.
# Environment: MAILRIG_ROOT (required: a scratch directory whose parents are all o+x),
# SMTP_PORT (2525), IMAP_PORT (1143), LMTP_PORT (2424), SUBMISSION_PORT (2587), SMTPS_PORT
# (2465), AUTH_PORT (2426), IMAPS_PORT (1993).
# TLS and SMTP AUTH, for the mailer's TLS tests: `start` makes a throw-away CA and a server
# certificate for 127.0.0.1 / localhost (EC P-256, $MAILRIG_ROOT/tls/ca.pem is the CA file a
# client verifies with). Postfix offers STARTTLS on SMTP_PORT (optional there), requires it on
# SUBMISSION_PORT (submission, like port 587) and speaks TLS from the first byte on SMTPS_PORT
# (like port 465); both of those require SMTP AUTH (PLAIN/LOGIN, checked by Dovecot's SASL
# service on 127.0.0.1:AUTH_PORT, same users and passwords as IMAP) before they take mail.
# Postfix writes "with ESMTPSA" into the Received header of mail taken over TLS with AUTH.
# Dovecot serves IMAP over TLS from the first byte (imaps) on IMAPS_PORT (1993) with the same
# certificate; plain IMAP on IMAP_PORT stays as it was.
# imap-stop / imap-start do the same for Dovecot alone (IMAP and delivery), e.g. to drop
# pbemd's IMAP connections.
# queue-empty succeeds when Postfix's queue holds no mail (all it took was delivered): the
# positive signal a test waits for before it checks that nothing more arrived.
# smtp-stop / smtp-start stop and start Postfix alone (Dovecot keeps running), to test what
# happens while the outgoing mail server is down.
# Needs: deploy/install-deps.sh mail (postfix dovecot-imapd dovecot-lmtpd).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/../support/wait.sh"  # wait_port, wait_pidfile (up to 60 s)
R=${MAILRIG_ROOT:?set MAILRIG_ROOT to a scratch directory}
SMTP_PORT=${SMTP_PORT:-2525}; IMAP_PORT=${IMAP_PORT:-1143}; LMTP_PORT=${LMTP_PORT:-2424}
SUBMISSION_PORT=${SUBMISSION_PORT:-2587}; SMTPS_PORT=${SMTPS_PORT:-2465}; AUTH_PORT=${AUTH_PORT:-2426}
IMAPS_PORT=${IMAPS_PORT:-1993}
USERS=(game alice bob carol)
# owned PORT PID: process PID holds the socket listening on 127.0.0.1:PORT.
owned() { ss -Hltnp "sport = :$1" 2>/dev/null | grep -q "pid=$2,"; }
# A server could not start: exit 75 when it found a port taken (the caller picks others),
# else 1. Either way, stop what did start.
start_failed() {
  if grep -qs 'ddress already in use' $R/start.log $R/dovecot/dovecot.log $R/postfix.log; then
    echo "mailrig: a port was taken by another process before the rig bound it" >&2
    "$0" stop || true; exit 75
  fi
  echo "mailrig: $1 did not start (see $R/start.log)" >&2
  "$0" stop || true; exit 1
}
check_owned() {  # check_owned PIDFILE PORT...: exit 75 unless the master in PIDFILE holds each
  # Dovecot listens before it writes its pid file (it forks first): wait for the file.
  local pid p; pid=$(wait_pidfile "$1") || { "$0" stop || true; exit 1; }
  for p in "${@:2}"; do
    owned "$p" "$pid" || { echo "mailrig: 127.0.0.1:$p is another process's" >&2; "$0" stop || true; exit 75; }
  done
}
case "${1:-}" in
start)
  for tool in postfix dovecot openssl; do
    command -v $tool >/dev/null || { echo "mailrig: $tool is not installed (deploy/install-deps.sh mail)" >&2; exit 1; }
  done
  mkdir -p $R/postfix $R/pf-spool $R/pf-data $R/dovecot $R/vmail
  rm -f $R/start.log $R/dovecot/dovecot.log $R/postfix.log  # this start's logs only (start_failed reads them)
  chown postfix $R/pf-data; chown mail:mail $R/vmail
  chmod 755 $R   # postfix/dovecot/mail uids must traverse it (mktemp -d gives 0700!)
  if [ ! -f $R/tls/server.pem ]; then   # a CA, and a server certificate it signs
    mkdir -p $R/tls
    ( cd $R/tls
      openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
        -subj "/CN=pbem mail rig test CA" -keyout ca.key -out ca.pem
      openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
        -subj "/CN=localhost" -keyout server.key -out server.csr
      printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
      openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
        -extfile server.ext -out server.pem
      chmod 644 ca.pem server.pem; chmod 640 server.key ) >>$R/start.log 2>&1 ||
      { echo "mailrig: could not make the test certificates (see $R/start.log)" >&2; exit 1; }
  fi
  cat > $R/postfix/main.cf <<EOF
compatibility_level = 3.6
myhostname = mail.test.local
mydomain = test.local
myorigin = \$myhostname
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = reject_unauth_destination
virtual_mailbox_domains = test.local
virtual_mailbox_maps = texthash:$R/postfix/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:$LMTP_PORT
default_transport = error:outbound mail disabled in test rig
queue_directory = $R/pf-spool
data_directory = $R/pf-data
maillog_file_prefixes = /tmp
maillog_file = $R/postfix.log
alias_maps =
alias_database =
smtpd_peername_lookup = no
smtp_dns_support_level = disabled
biff = no
smtpd_tls_cert_file = $R/tls/server.pem
smtpd_tls_key_file = $R/tls/server.key
smtpd_tls_security_level = may
smtpd_tls_auth_only = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$AUTH_PORT
smtpd_sasl_auth_enable = no
smtpd_recipient_restrictions = check_recipient_access texthash:$R/postfix/recipient_access
EOF
  printf 'busy@test.local 450 4.2.1 <busy@test.local>: mailbox busy, try later (test rig)\n' \
    > $R/postfix/recipient_access
  cat > $R/postfix/master.cf <<EOF
# service      type  private unpriv chroot wakeup maxproc command
127.0.0.1:$SMTP_PORT inet n  -      n      -      -       smtpd
127.0.0.1:$SUBMISSION_PORT inet n - n    -      -       smtpd
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
127.0.0.1:$SMTPS_PORT inet n -  n      -      -       smtpd
  -o smtpd_tls_wrappermode=yes
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
tlsmgr         unix  -       -      n      1000?  1       tlsmgr
pickup         unix  n       -      n      60     1       pickup
cleanup        unix  n       -      n      -      0       cleanup
qmgr           unix  n       -      n      300    1       qmgr
rewrite        unix  -       -      n      -      -       trivial-rewrite
bounce         unix  -       -      n      -      0       bounce
defer          unix  -       -      n      -      0       bounce
trace          unix  -       -      n      -      0       bounce
verify         unix  -       -      n      -      1       verify
flush          unix  n       -      n      1000?  0       flush
proxymap       unix  -       -      n      -      -       proxymap
showq          unix  n       -      n      -      -       showq
error          unix  -       -      n      -      -       error
retry          unix  -       -      n      -      -       error
discard        unix  -       -      n      -      -       discard
lmtp           unix  -       -      n      -      -       lmtp
smtp           unix  -       -      n      -      -       smtp
anvil          unix  -       -      n      -      1       anvil
scache         unix  -       -      n      -      1       scache
postlog        unix-dgram n  -      n      -      1       postlogd
EOF
  : > $R/postfix/vmailbox; : > $R/dovecot/users
  for u in "${USERS[@]}"; do
    printf '%s@test.local OK\n' $u >> $R/postfix/vmailbox
    printf '%s:{PLAIN}%spw\n' $u $u >> $R/dovecot/users
  done
  cat > $R/dovecot/dovecot.conf <<EOF
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $R/dovecot/run
state_dir = $R/dovecot/state
log_path = $R/dovecot/dovecot.log
ssl = yes
ssl_cert = <$R/tls/server.pem
ssl_key = <$R/tls/server.key
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Ln
first_valid_uid = 8
mail_location = maildir:$R/vmail/%n/Maildir
passdb {
  driver = passwd-file
  args = scheme=PLAIN $R/dovecot/users
}
userdb {
  driver = static
  args = uid=mail gid=mail home=$R/vmail/%n
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $IMAPS_PORT
  }
}
service auth {
  inet_listener {
    address = 127.0.0.1
    port = $AUTH_PORT
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LMTP_PORT
  }
}
namespace inbox {
  inbox = yes
}
EOF
  # never let daemons inherit a caller's stdout pipe
  dovecot -c $R/dovecot/dovecot.conf </dev/null >>$R/start.log 2>&1 || start_failed dovecot
  wait_port $IMAP_PORT; wait_port $IMAPS_PORT; wait_port $LMTP_PORT; wait_port $AUTH_PORT
  check_owned $R/dovecot/run/master.pid $IMAP_PORT $IMAPS_PORT $LMTP_PORT $AUTH_PORT
  [ -d $R/pf-spool/public ] || postfix -c $R/postfix check </dev/null >>$R/start.log 2>&1  # 1st run: creates queue subdirs
  postfix -c $R/postfix start </dev/null >>$R/start.log 2>&1 || start_failed postfix
  wait_port $SMTP_PORT; wait_port $SUBMISSION_PORT; wait_port $SMTPS_PORT
  check_owned $R/pf-spool/pid/master.pid $SMTP_PORT $SUBMISSION_PORT $SMTPS_PORT
  echo "mailrig: dovecot pid $(cat $R/dovecot/run/master.pid), postfix master pid $(tr -d ' ' < $R/pf-spool/pid/master.pid)"
  ;;
stop)   # SIGTERM both masters by PID (pid files), then wait for them to exit (~3 s)
  pids=""
  for f in $R/pf-spool/pid/master.pid $R/dovecot/run/master.pid; do
    [ -f $f ] || continue; p=$(tr -d ' \n' < $f)
    case "$(cat /proc/$p/comm 2>/dev/null)" in master|dovecot) kill -TERM $p; pids="$pids $p";; esac
  done
  for p in $pids; do for i in $(seq 1 100); do kill -0 $p 2>/dev/null || break; sleep 0.1; done; done ;;
smtp-stop)
  f=$R/pf-spool/pid/master.pid; p=$(tr -d ' \n' < $f)
  [ "$(cat /proc/$p/comm 2>/dev/null)" = master ] && kill -TERM $p
  for i in $(seq 1 100); do kill -0 $p 2>/dev/null || break; sleep 0.1; done ;;
smtp-start)
  postfix -c $R/postfix start </dev/null >>$R/start.log 2>&1
  wait_port $SMTP_PORT; wait_port $SUBMISSION_PORT; wait_port $SMTPS_PORT
  wait_pidfile $R/pf-spool/pid/master.pid >/dev/null ;;
imap-stop)
  f=$R/dovecot/run/master.pid; p=$(tr -d ' \n' < $f)
  [ "$(cat /proc/$p/comm 2>/dev/null)" = dovecot ] && kill -TERM $p
  for i in $(seq 1 100); do kill -0 $p 2>/dev/null || break; sleep 0.1; done ;;
imap-start)
  dovecot -c $R/dovecot/dovecot.conf </dev/null >>$R/start.log 2>&1
  wait_port $IMAP_PORT; wait_port $IMAPS_PORT; wait_port $LMTP_PORT; wait_port $AUTH_PORT
  wait_pidfile $R/dovecot/run/master.pid >/dev/null ;;
queue-empty)  # exit 0 when Postfix holds no mail: everything it took was delivered (or bounced)
  [ -z "$(find $R/pf-spool/maildrop $R/pf-spool/incoming $R/pf-spool/active \
      $R/pf-spool/deferred $R/pf-spool/hold -type f 2>/dev/null | head -n 1)" ] ;;
*) echo "usage: $0 start|stop|smtp-stop|smtp-start|imap-stop|imap-start|queue-empty" >&2; exit 2 ;;
esac
