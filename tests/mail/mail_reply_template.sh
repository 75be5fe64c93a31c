#!/bin/bash
# Playing by replying (issue 14), through real mail servers: Postfix + Dovecot on loopback
# (mailrig.sh), pbemd reading the game mailbox over IMAP and mailing over SMTP.
#   1. game demo is created over HTTP: alice (blue, English) and bob (orange, French) each get
#      a welcome mail; alice's starts with "Your move, due by", quotes and attaches her orders
#      template; bob's (French) has none, as orange does not move first.
#   2. alice replies to her welcome mail: the quoted template ("> ") with one move changed
#      (b-hc1 to 2307), her own words above it and her signature -> a receipt, 1 order of 1
#      taken; blue's player-turn resolves; bob's results mail starts with "À vous de jouer" and
#      carries orange's template (with the turn's reply key, not bob's token).
#   3. bob replies to that results mail the same way (o-lc1 to 1013) -> a receipt, 1 of 1;
#      orange's player-turn resolves: the game has 2 turns committed, b-hc1 stands in 2307 and
#      o-lc1 in 1013.
# With FORMAT "html" (ctest mail_reply_template_html) each reply is what a webmail sending only
# text/html writes: no text/plain part, the HTML part of our mail quoted in a Gmail-style
# <blockquote>, the move edited in its <pre> (the intake reads the text that HTML shows:
# daemon/mail/html_text.h); the same receipts and moves are expected.
# Every wait polls a mailbox or the HTTP API with a deadline; servers are stopped by PID.
# Usage: mail_reply_template.sh PBEMD SEED_TOOL [text|html]   (ctest passes both tools; the
# seed tool is unused but keeps the arguments of the other mail tests)
set -euo pipefail
PBEMD=${1:?usage: mail_reply_template.sh PBEMD SEED_TOOL [text|html]}
FORMAT=${3:-text}
NBSP=$'\xc2\xa0'  # U+00A0: French puts a no-break space before : ; ! ? (templates/README.md)
[[ $FORMAT == text || $FORMAT == html ]] || { echo "FORMAT is text or html" >&2; exit 2; }
SEED=/bin/true  # the game is created over HTTP, with its welcome mails
HERE=$(cd "$(dirname "$0")" && pwd)

WORK_PREFIX=pbem-mail-reply
. "$HERE/e2e_common.sh"
ADMIN=reply-admin-token

wait_for() {  # wait_for USER N WHAT: until USER holds at least N mails (30 s)
  local deadline=$((SECONDS + 30))
  until [[ $(count "$1") -ge $2 ]]; do
    kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
    ((SECONDS < deadline)) || fail "$1 holds $(count "$1") mails after 30 s, expected $2 ($3)"
    sleep 0.2
  done
}
game_json() { curl -sS --max-time 5 "$API/v1/games/demo"; }
wait_turns() {  # wait_turns N: until game demo has N turns committed (30 s)
  local deadline=$((SECONDS + 30))
  until game_json | grep -q "\"turnsCommitted\" *: *$1\b"; do
    kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
    ((SECONDS < deadline)) || fail "game demo has not $1 turns committed after 30 s"
    sleep 0.2
  done
}
fetch() {  # fetch USER SUBJECT_START > FILE: the first message whose subject starts so (or fail)
  /usr/bin/python3 - "$IMAP" "$1" "$2" <<'PY'
import email, subprocess, sys
from email import policy
imap, user, start = sys.argv[1:]
auth = f"{user}:{user}pw"
search = subprocess.run(["curl", "-sS", "--max-time", "10", f"{imap}/INBOX", "-u", auth, "-X",
                         "UID SEARCH ALL"], capture_output=True, check=True).stdout.decode()
uids = [w for line in search.splitlines() if line.startswith("* SEARCH") for w in line.split()[2:]]
for uid in uids:
    raw = subprocess.run(["curl", "-sS", "--max-time", "10", f"{imap}/INBOX/;UID={uid}", "-u", auth],
                         capture_output=True, check=True).stdout
    m = email.message_from_bytes(raw, policy=policy.default)
    if str(m["Subject"]).startswith(start):
        sys.stdout.buffer.write(raw)
        sys.exit(0)
sys.exit(f"{user} has no mail whose subject starts with {start!r}")
PY
}
# reply FROM IN.eml UNIT DEST WORDS > OUT.eml: the reply a mail client makes to IN.eml: the
# player's words, then "... wrote:" and the whole text quoted with "> ", in which the player
# took the "#" off UNIT's move line and filled in its destination; then a signature (CRLF
# lines, quoted-printable as Python's email package chooses). With FORMAT html, the reply is
# HTML only: the player's words, then the original's HTML part in a Gmail blockquote, the
# same line edited there.
reply() {
  /usr/bin/python3 - "$FORMAT" "$@" <<'PY'
import email, html, sys
from email import policy
from email.message import EmailMessage
form, sender, path, unit, dest, words = sys.argv[1:]
original = email.message_from_binary_file(open(path, "rb"), policy=policy.default)
needle = f'# moves {{ unit: "{unit}" '
def edited(lines, read, write):  # `lines` with UNIT's move line (as `read` shows it) filled in
    out, count = [], 0
    for line in lines:
        text = read(line)
        if text.startswith(needle) and 'destination: ""' in text:
            line = write(text[2:].replace('destination: ""', f'destination: "{dest}"'))
            count += 1
        out.append(line)
    if count != 1:
        sys.exit(f"no move line of {unit} in the quoted mail:\n" + "\n".join(lines))
    return out
r = EmailMessage()
r["From"] = sender
r["To"] = str(original["From"])
r["Subject"] = "Re: " + str(original["Subject"])
r["Message-ID"] = f"<reply-{form}-{unit}@test.local>"
r["In-Reply-To"] = str(original["Message-ID"])
if form == "html":
    page = original.get_body(preferencelist=("html",)).get_content()
    body = page[page.index(">", page.index("<body")) + 1:page.index("</body>")]
    quoted = "\n".join(edited(body.split("\n"), html.unescape, html.escape))
    r.set_content(f'<div dir="ltr">{html.escape(words)}<br></div><br><div class="gmail_quote">'
                  f'<div dir="ltr" class="gmail_attr">{html.escape(str(original["Date"]))}, '
                  f'&lt;{html.escape(str(original["From"]))}&gt; wrote:<br></div>'
                  '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex;'
                  f'border-left:1px solid rgb(204,204,204);padding-left:1ex">{quoted}'
                  '</blockquote></div>\n', subtype="html")
    if any(p.get_content_type() == "text/plain" for p in r.walk()):
        sys.exit("the HTML reply has a text/plain part")
else:
    text = original.get_body(preferencelist=("plain",)).get_content()
    lines = edited(text.splitlines(), lambda l: l, lambda l: l)
    quoted = "\n".join(">" if not l else "> " + l for l in lines)
    r.set_content(f"{words}\n\nLe {original['Date']}, {original['From']} a écrit :\n{quoted}\n\n-- \n{sender}\n")
sys.stdout.buffer.write(r.as_bytes(policy=policy.SMTP))
PY
}
text_of() {  # text_of FILE: the decoded text/plain part
  /usr/bin/python3 -c '
import email, sys
from email import policy
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=policy.default)
print("Subject:", m["Subject"]); print(m.get_body(preferencelist=("plain",)).get_content())
names = [p.get_filename() for p in m.iter_attachments() if p.get_filename()]
print("Attachments:", " ".join(names))' "$1"
}
expect() {  # expect FILE WHAT TEXT...: FILE's text (kept in FILE.txt) holds each TEXT
  local file=$1 what=$2 text
  shift 2
  echo "check: $what"
  text_of "$file" >"$file.txt"
  for text in "$@"; do
    grep -qF -- "$text" "$file.txt" || { sed 's/^/  | /' "$file.txt" >&2; fail "$what lacks: $text"; }
  done
}

echo "step: pbemd reading imap://, sending over SMTP; game demo created over HTTP"
"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 \
  -Dpbemd.http.admin_token="$ADMIN" -Dpbemd.mail.from=game@test.local \
  -Dpbemd.mail.in.url="$IMAP/INBOX" -Dpbemd.mail.in.user=game -Dpbemd.mail.in.password=gamepw \
  -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.turns.poll_ms=200 \
  -Dpbemd.mail.out.transport=smtp -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SMTP_PORT/pbemd.test" \
  -Dpbemd.mail.out.poll_ms=200 >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid") || fail "pbemd did not listen"
API=http://127.0.0.1:$HTTP_PORT
deadline=$((SECONDS + 20))
until curl -sf "$API/healthz" >/dev/null 2>&1; do
  kill -0 "$pbemd_pid" 2>/dev/null || fail "pbemd exited"
  ((SECONDS < deadline)) || fail "pbemd does not answer on $API"
  sleep 0.1
done
cat >"$work/game.json" <<'JSON'
{"id": "demo", "scenario": "bois-de-la-morne", "turnTimeoutSeconds": 86400,
 "players": [
   {"side": "blue", "address": "alice@test.local", "token": "alice-secret-1"},
   {"side": "orange", "address": "bob@test.local", "token": "bob-secret-1", "language": "fr"}]}
JSON
status=$(curl -sS --max-time 10 -o "$work/created.json" -w '%{http_code}' -X POST \
  -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
  --data-binary "@$work/game.json" "$API/v1/games")
[[ $status == 201 ]] || fail "creating the game: HTTP $status: $(cat "$work/created.json")"

wait_for alice 1 "her welcome mail"
wait_for bob 1 "son message de bienvenue"
fetch alice "Game demo: you play blue" >"$work/welcome-alice.eml"
fetch bob "Partie demo${NBSP}: vous jouez le camp orange" >"$work/welcome-bob.eml"
expect "$work/welcome-alice.eml" "alice's welcome mail" "Your move, due by " \
  "Your token is: alice-secret-1" "The orange side is played by bob@test.local" \
  '#--- pbem orders: begin ---' 'token: "alice-secret-1"' \
  '# moves { unit: "b-hc1" from: "2303" destination: "" }' \
  "orders-demo-turn1-blue.textproto" "RULES.md"
[[ $(sed -n 2p "$work/welcome-alice.eml.txt") == "Your move, due by "* ]] ||
  fail "alice's welcome mail does not start with \"Your move, due by\""
expect "$work/welcome-bob.eml" "bob's welcome mail (French)" "Votre jeton${NBSP}: bob-secret-1" \
  "Le camp bleu joue le premier" "REGLES.md"
! grep -qF 'pbem orders: begin' "$work/welcome-bob.eml.txt" ||
  fail "bob's welcome mail carries a template though orange does not move first"

echo "step: alice replies to her welcome mail, b-hc1 to 2307, quoted ('> ' or HTML: $FORMAT)"
reply alice@test.local "$work/welcome-alice.eml" b-hc1 2307 "My first move." >"$work/reply-alice.eml"
send alice@test.local "$work/reply-alice.eml"
wait_turns 1
wait_for alice 3 "welcome, receipt, blue's results"
wait_for bob 2 "bienvenue, résultats du tour bleu"
fetch alice "Re: Game demo" >"$work/receipt-alice.eml"
expect "$work/receipt-alice.eml" "alice's receipt" "1 of 1"
fetch bob "Partie demo, tour 1" >"$work/results-bob.eml"
expect "$work/results-bob.eml" "bob's results mail (French)" "À vous de jouer, avant le " \
  '#--- pbem orders: begin ---' 'side: SIDE_ORANGE' 'token: "reply-1-' \
  '# moves { unit: "o-lc1" from: "0817" destination: "" }' "orders-demo-turn1-orange.textproto"
[[ $(sed -n 2p "$work/results-bob.eml.txt") == "À vous de jouer, avant le "* ]] ||
  fail "bob's results mail does not start with « À vous de jouer »"

echo "step: bob replies to the results mail, o-lc1 to 1013, quoted ('> ' or HTML: $FORMAT)"
reply bob@test.local "$work/results-bob.eml" o-lc1 1013 "Voici mon tour." >"$work/reply-bob.eml"
send bob@test.local "$work/reply-bob.eml"
wait_turns 2
wait_for bob 4 "bienvenue, résultats, accusé de réception, résultats du tour orange"
fetch bob "Re: Partie demo" >"$work/receipt-bob.eml"
expect "$work/receipt-bob.eml" "bob's receipt (French)" "1 sur 1"

echo "check: the moves replied are the moves played"
game_json | /usr/bin/python3 -c '
import json, sys
units = {u["id"]: u.get("hex", "") for u in json.load(sys.stdin)["state"]["units"]}
want = {"b-hc1": "2307", "o-lc1": "1013"}
got = {k: units.get(k) for k in want}
print("  units:", got)
sys.exit(0 if got == want else 1)' || fail "the replied moves were not played"

echo "step: SIGTERM stops pbemd"
kill -TERM "$pbemd_pid"
rc=0
wait "$pbemd_pid" || rc=$?
pbemd_pid=""
[[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM"
echo "PASS: playing by replying ($FORMAT) to the welcome and results mails"
