#!/bin/bash
# The mail commands status, archive and help (daemon/mail/commands.h) through real Postfix +
# Dovecot on loopback (mailrig.sh), game "demo" seeded with alice (blue) and bob (orange):
#   alice: "status demo"         -> the game's state for her, with the links to its history
#   carol: "status demo"         -> help only (carol plays no game), never demo's state
#   bob:   "archive" (game from the subject) -> the archive file attached; `pbem verify` checks
#          it, and the file behind the mail's link is the same archive
#   carol: "aide"                -> the help in French
# Usage: mail_commands.sh PBEMD SEED_TOOL PBEM   (ctest passes all three)
set -euo pipefail
PBEMD=${1:?usage: mail_commands.sh PBEMD SEED_TOOL PBEM}
SEED=${2:?usage: mail_commands.sh PBEMD SEED_TOOL PBEM}
PBEM=${3:?usage: mail_commands.sh PBEMD SEED_TOOL PBEM}
NBSP=$'\xc2\xa0'  # U+00A0: French puts a no-break space before : ; ! ? (templates/README.md)
HERE=$(cd "$(dirname "$0")" && pwd)

WORK_PREFIX=pbem-mail-commands
. "$HERE/e2e_common.sh"

mail_with() {  # mail_with FROM ID SUBJECT BODY > file
  printf 'From: %s\nTo: game@test.local\nSubject: %s\nMessage-ID: <%s@test.local>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n%s\n' \
    "$1" "$3" "$2" "$4" | crlf
}
mail_with 'Alice <alice@test.local>' s1 'where are we?' $'Hello,\n\nstatus demo\n\n-- \nAlice' >"$work/alice.eml"
mail_with 'carol@test.local' s2 'curious' 'status demo' >"$work/carol-status.eml"
mail_with 'bob@test.local' a1 'Re: [pbem demo] results' '  ARCHIVE' >"$work/bob.eml"
mail_with 'carol@test.local' h1 'comment jouer ?' 'aide' >"$work/carol-aide.eml"

"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 \
  -Dpbemd.mail.from=game@test.local \
  -Dpbemd.mail.in.url="$IMAP/INBOX" -Dpbemd.mail.in.user=game -Dpbemd.mail.in.password=gamepw \
  -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.mail.out.transport=smtp \
  -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" -Dpbemd.mail.out.poll_ms=200 \
  >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid") || fail "pbemd did not listen"

echo "step: four command mails over SMTP"
send alice@test.local "$work/alice.eml"
send carol@test.local "$work/carol-status.eml"
send bob@test.local "$work/bob.eml"
send carol@test.local "$work/carol-aide.eml"

deadline=$((SECONDS + 40))
until [[ $(count alice) -ge 1 && $(count bob) -ge 1 && $(count carol) -ge 2 ]]; do
  kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
  ((SECONDS < deadline)) || fail "no replies within 40 s (alice $(count alice), bob $(count bob), carol $(count carol))"
  sleep 0.5
done

LINK=http://127.0.0.1:$HTTP_PORT/v1/games/demo
expect_reply alice "Re: where are we?" "the state of demo" \
  "Game demo (bois-de-la-morne), turn 1. You play blue." "It is your move." \
  "Your orders for this turn have not arrived yet." "History of the game: $LINK/archive/" \
  "Archive file: $LINK/export" "#--- pbem orders: begin ---" "game_id: \"demo\""
expect_reply carol "Re: curious" "the help, not the state" \
  'You play no game "demo".' "pbem by mail: how to play" "write to game@test.local"
body carol "Re: curious" | grep -q "turn 1" && fail "carol, who plays no game, was told demo's turn"
expect_reply carol "Re: comment jouer ?" "the help in French" \
  "pbem par courriel${NBSP}: comment jouer" "écrivez à game@test.local"
expect_reply bob "Re: [pbem demo] results" "the archive" \
  "Attached: the archive of game demo (0 player-turns" "pbem verify demo.pbem"

echo "check: bob's attachment is the game's archive, which verifies, as the linked file does"
/usr/bin/python3 - "$work" "$work"/bob-*.eml <<'PY' || fail "no demo.pbem attached to bob's reply"
import email, sys
from email import policy
for path in sys.argv[2:]:
    m = email.message_from_binary_file(open(path, 'rb'), policy=policy.default)
    for part in m.iter_attachments():
        if part.get_filename() == "demo.pbem":
            open(sys.argv[1] + "/demo.pbem", "wb").write(part.get_content())
            sys.exit(0)
sys.exit(1)
PY
out=$("$PBEM" verify "$work/demo.pbem") || fail "pbem verify of the mailed archive: $out"
grep -q "ok, game demo, 0 player-turns verified" <<<"$out" || fail "unexpected verify output: $out"
curl -sS --max-time 10 -o "$work/linked.pbem" "$LINK/export" || fail "GET $LINK/export"
cmp -s "$work/demo.pbem" "$work/linked.pbem" || fail "the linked archive differs from the mailed one"
[[ $(count game) -eq 0 ]] || fail "command mails left in the game mailbox: $(count game)"

kill -TERM "$pbemd_pid"
rc=0
wait "$pbemd_pid" || rc=$?
pbemd_pid=""
[[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM"
echo "ok"
