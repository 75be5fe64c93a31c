#!/bin/bash
# A whole turn through real mail servers: Postfix + Dovecot on loopback (mailrig.sh), pbemd
# reading the game mailbox over IMAP and mailing over SMTP (issue 7).
#   1. alice (blue) mails her orders      -> a receipt; blue's player-turn resolves at once
#   2. bob (orange) mails his orders      -> a receipt; orange's player-turn resolves
# Then, over IMAP, each player holds two results mails (one per player-turn) whose MIME has a
# text part, an HTML part showing <img src="cid:demo-turn-1-SIDE-action.png"> and an
# image/png part with that Content-ID holding a valid PNG (the action crop), and the whole map
# attached as demo-turn-1-SIDE.png; the text reveals the turn's seed and the
# commitment to the next one, and the seed revealed in orange's results hashes to the
# commitment blue's results published. pbemd reads the game mailbox over imaps and sends
# through Postfix's submission port, which requires STARTTLS and SMTP AUTH, both verified
# against the rig's CA (pbemd.mail.ca_file): every results mail's Received header says ESMTPSA. Finally `pbem export` of the game and `pbem verify`
# of that archive pass. Bounded: every wait has a deadline; servers stopped by PID.
# Usage: mail_turn_end_to_end.sh PBEMD SEED_TOOL PBEM   (ctest passes all three)
set -euo pipefail
PBEMD=${1:?usage: mail_turn_end_to_end.sh PBEMD SEED_TOOL PBEM}
SEED=${2:?usage: mail_turn_end_to_end.sh PBEMD SEED_TOOL PBEM}
PBEM=${3:?usage: mail_turn_end_to_end.sh PBEMD SEED_TOOL PBEM}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)

WORK_PREFIX=pbem-mail-turn
. "$HERE/e2e_common.sh"

orders_mail() {  # orders_mail FROM SIDE TOKEN > FILE
  printf 'From: %s\nTo: game@test.local\nSubject: [pbem demo] %s orders\n' "$1" "$2"
  printf 'Message-ID: <%s-turn@test.local>\nMIME-Version: 1.0\n' "$2"
  printf 'Content-Type: text/plain; charset=utf-8\n\n'
  cat "$SRC/engine/scenarios/bois-de-la-morne.orders-$2.textproto"
  printf '\ntoken: "%s"\n' "$3"
}
orders_mail alice@test.local blue tok-blue | crlf >"$work/alice.eml"
orders_mail bob@test.local orange tok-orange | crlf >"$work/bob.eml"
wait_for() {  # wait_for USER N WHAT: until USER holds at least N mails (120 s)
  local deadline=$((SECONDS + 120))
  until [[ $(count "$1") -ge $2 ]]; do
    kill -0 $pbemd_pid 2>/dev/null || fail "pbemd exited"
    ((SECONDS < deadline)) || fail "$1 holds $(count "$1") mails after 120 s, expected $2 ($3)"
    sleep 0.3
  done
}

echo "step: pbemd reading over imaps, sending to the submission port (STARTTLS and AUTH required)"
"$PBEMD" -Dpbemd.data_dir="$work/data" -Dpbemd.http.port=0 \
  -Dpbemd.mail.from=game@test.local \
  -Dpbemd.mail.in.url="imaps://127.0.0.1:$IMAPS_PORT/INBOX" -Dpbemd.mail.in.user=game \
  -Dpbemd.mail.in.password=gamepw -Dpbemd.mail.in.poll_seconds=1 -Dpbemd.turns.poll_ms=200 \
  -Dpbemd.mail.out.transport=smtp \
  -Dpbemd.mail.out.smtp_url="smtp://127.0.0.1:$SUBMISSION_PORT/pbemd.test" \
  -Dpbemd.mail.out.tls=starttls -Dpbemd.mail.out.user=game -Dpbemd.mail.out.password=gamepw \
  -Dpbemd.mail.ca_file="$MAILRIG_ROOT/tls/ca.pem" -Dpbemd.mail.out.poll_ms=200 \
  >"$work/pbemd.log" 2>&1 </dev/null &
pbemd_pid=$!
HTTP_PORT=$(listening_port "$work/pbemd.log" "$pbemd_pid") || fail "pbemd did not listen"

echo "step: alice mails blue's orders: a receipt, then the results to both players"
send alice@test.local "$work/alice.eml"
wait_for alice 2 "receipt and blue's results"
wait_for bob 1 "blue's results"
echo "step: bob mails orange's orders: a receipt, then the results to both players"
send bob@test.local "$work/bob.eml"
wait_for bob 3 "blue's results, receipt and orange's results"
wait_for alice 3 "receipt, blue's results and orange's results"
wait_settled 2  # anything more would have arrived by now
[[ $(count alice) -eq 3 && $(count bob) -eq 3 ]] ||
  fail "alice holds $(count alice) mails and bob $(count bob), expected 3 each"

fetch_all() {  # fetch_all USER: every message of USER's INBOX into $work/USER-N.eml
  local uids uid
  uids=$(curl -sS --max-time 10 "$IMAP/INBOX" -u "$1:$1pw" -X 'UID SEARCH ALL' | tr -d '\r' |
    awk '/^\* SEARCH/ { for (i = 3; i <= NF; i++) print $i }')
  for uid in $uids; do
    curl -sS --max-time 10 "$IMAP/INBOX/;UID=$uid" -u "$1:$1pw" -o "$work/$1-$uid.eml" ||
      fail "IMAP FETCH $1 $uid"
  done
}
fetch_all alice
fetch_all bob

echo "check: each player's results mails (MIME, inline PNG, seed and commitment)"
/usr/bin/python3 - "$work" <<'PY' || fail "the results mails are not as expected"
import email, glob, hashlib, re, struct, sys, zlib
from email import policy
work = sys.argv[1]
ok = True
def bad(msg):
    global ok
    ok = False
    print("  BAD:", msg)
seen = {}
for user in ("alice", "bob"):
    subjects = []
    for path in sorted(glob.glob(f"{work}/{user}-*.eml")):
        m = email.message_from_binary_file(open(path, "rb"), policy=policy.default)
        subject = str(m["Subject"])
        subjects.append(subject)
        if not subject.endswith(": results"):
            continue
        side = "blue" if "(blue)" in subject else "orange"
        received = " ".join(str(h) for h in m.get_all("Received", []))
        if "with ESMTPSA" not in received:
            bad(f"{user} {subject}: not taken over TLS with AUTH: {received}")
        if m.get_content_type() != "multipart/related":
            bad(f"{user} {subject}: top type {m.get_content_type()}, not multipart/related")
        text = m.get_body(preferencelist=("plain",)).get_content()
        html = m.get_body(preferencelist=("html",)).get_content()
        pngs = [p for p in m.walk() if p.get_content_type() == "image/png"]
        # The action crop inline (shown by the HTML), the whole map attached under its name.
        turn_no = re.search(r"turn (\d+)", subject).group(1)
        wants = f"demo-turn-{turn_no}-{side}.png"
        attached = [p for p in pngs if p.get_content_disposition() == "attachment"]
        if [p.get_filename() for p in attached] != [wants]:
            bad(f"{user} {subject}: attached {[p.get_filename() for p in attached]}, not {wants}")
        pngs = [p for p in pngs if p.get_content_disposition() != "attachment"]
        if len(pngs) != 1:
            bad(f"{user} {subject}: {len(pngs)} inline image/png parts"); continue
        cid = (pngs[0]["Content-ID"] or "").strip("<>")
        if not cid or f'src="cid:{cid}"' not in html:
            bad(f"{user} {subject}: the HTML does not show cid:{cid}")
        data = pngs[0].get_payload(decode=True)
        if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
            bad(f"{user} {subject}: the image/png part is not a PNG"); continue
        width, height = struct.unpack(">II", data[16:24])
        if width < 200 or height < 200:
            bad(f"{user} {subject}: a {width}x{height} map")
        # Walk the chunks: every CRC right, IDAT inflates, IEND last.
        pos, idat, chunks = 8, b"", []
        while pos < len(data):
            (n,) = struct.unpack(">I", data[pos:pos + 4]); kind = data[pos + 4:pos + 8]
            body = data[pos + 8:pos + 8 + n]
            (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
            if zlib.crc32(kind + body) != crc:
                bad(f"{user} {subject}: bad CRC in {kind}")
            if kind == b"IDAT": idat += body
            chunks.append(kind); pos += 12 + n
        if chunks[-1] != b"IEND" or not zlib.decompress(idat):
            bad(f"{user} {subject}: the PNG does not end or inflate")
        seed = re.search(r"now revealed: ([0-9a-f]{64})", text)
        commitment = re.search(r"next turn's seed \(SHA-256\): ([0-9a-f]{64})", text)
        if not seed or not commitment:
            bad(f"{user} {subject}: no revealed seed or next commitment in the text")
            continue
        seen.setdefault(side, set()).add((seed.group(1), commitment.group(1)))
        print(f"  {user}: {subject}: {width}x{height} PNG {len(data)} bytes, cid {cid}")
    receipts = [s for s in subjects if s.startswith("Re: [pbem demo]")]
    if len(receipts) != 1:
        bad(f"{user}: {len(receipts)} receipts among {subjects}")
for side in ("blue", "orange"):
    if len(seen.get(side, ())) != 1:
        bad(f"{side}'s results: not one identical seed/commitment in both players' mails: {seen.get(side)}")
if ok:
    (blue_seed, blue_next), = seen["blue"]
    (orange_seed, _), = seen["orange"]
    if hashlib.sha256(bytes.fromhex(orange_seed)).hexdigest() != blue_next:
        bad("the seed revealed for orange's turn is not the one blue's results committed to")
    else:
        print("  orange's revealed seed hashes to the commitment published with blue's results")
sys.exit(0 if ok else 1)
PY

echo "step: SIGTERM stops pbemd"
kill -TERM $pbemd_pid
rc=0
wait $pbemd_pid || rc=$?
pbemd_pid=""
[[ $rc -eq 0 ]] || fail "pbemd exited with $rc after SIGTERM"

echo "check: pbem export of the game, then pbem verify of the archive"
"$PBEM" export demo -o "$work/demo.archive" --db "sqlite:$work/data" || fail "pbem export"
"$PBEM" verify "$work/demo.archive" | tee "$work/verify.txt" || fail "pbem verify"
echo "PASS: mail turn end to end"
